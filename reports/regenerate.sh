#!/usr/bin/env bash
# Regenerates every committed report (about 5 minutes on 2 cores). Run from the repository root.
set -euo pipefail
R="cargo run --release --quiet --"
$R sim blackjack --rounds 1e9 --claim 99.54 --quiet --force --out-dir reports/seed-table > /dev/null
$R sim blackjack --rounds 1e9 --claim 99.54 --dealer-bj-takes original --quiet --force --out-dir reports/seed-table-obo > /dev/null
$R sim blackjack --rounds 200M --strategy autoplay --claim 99.54 --quiet --force --out-dir reports/seed-table-autoplay > /dev/null
$R exact blackjack --strategy basic --claim 99.54 --sensitivity --format markdown --output reports/seed-table-exact.md
$R exact blackjack --strategy basic --claim 99.54 --sensitivity --format json --output reports/seed-table-exact.json
$R compare blackjack --strategy basic --strategy autoplay --strategy mimic-dealer --strategy never-bust --rounds 100M --quiet --format markdown --output reports/compare-blackjack.md
$R exact doom --strategy strategies/doom/bank-at-450.txt --strategy strategies/doom/by-dice-left.txt --strategy bank-at:300+keep-all --format markdown --output reports/doom-seed-exact.md
$R exact doom --rules s2-common --format markdown --output reports/doom-s2-common-exact.md
$R exact doom --rules zilch --format markdown --output reports/doom-zilch-exact.md
$R sim doom --games 100k --seat optimal --seat strategies/doom/bank-at-450.txt --seat endgame:450 --seat strategies/doom/by-dice-left.txt --quiet --force --out-dir reports/doom-seed-games > /dev/null
$R sim doom --games 100k --quiet --force --out-dir reports/doom-seed-optimal-games > /dev/null
$R sim twenty-one --games 1M --quiet --force --out-dir reports/twenty-one-games > /dev/null
$R sim twenty-one --sweep-c 0,1,2,3,4,5,6,8 --games 500k --quiet --format markdown --output reports/twenty-one-sweep.md
$R exact twenty-one --row-policy --c 5 --format markdown --output reports/twenty-one-exact.md
