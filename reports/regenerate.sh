#!/usr/bin/env bash
# Regenerates every committed report (about 4 minutes on 2 cores). Run from the repository root.
set -euo pipefail
R="cargo run --release --quiet --"
$R sim blackjack --rounds 1e9 --claim 99.54 --quiet --out-dir reports/seed-table > /dev/null
$R sim blackjack --rounds 1e9 --claim 99.54 --dealer-bj-takes original --quiet --out-dir reports/seed-table-obo > /dev/null
$R sim blackjack --rounds 200M --strategy autoplay --claim 99.54 --quiet --out-dir reports/seed-table-autoplay > /dev/null
$R exact blackjack --strategy basic --claim 99.54 --sensitivity --format markdown --output reports/seed-table-exact.md
$R exact blackjack --strategy basic --claim 99.54 --sensitivity --format json --output reports/seed-table-exact.json
$R compare blackjack --strategy basic --strategy autoplay --strategy mimic-dealer --strategy never-bust --rounds 100M --quiet --format markdown --output reports/compare-blackjack.md
