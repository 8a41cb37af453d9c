#!/usr/bin/env bash
# Regenerates every committed report (about 5 minutes on 2 cores). Run from the repository root.
set -euo pipefail
R="cargo run --release --quiet --"
$R sim blackjack --rounds 1e9 --claim 99.54 --quiet --force --out-dir reports/seed-table > /dev/null
$R sim blackjack --rounds 1e9 --claim 99.54 --dealer-bj-takes original --quiet --force --out-dir reports/seed-table-obo > /dev/null
$R sim blackjack --rounds 200M --strategy autoplay --claim 99.54 --quiet --force --out-dir reports/seed-table-autoplay > /dev/null
$R exact blackjack --strategy basic --claim 99.54 --sensitivity --format markdown --output reports/seed-table-exact.md
$R exact blackjack --strategy basic --claim 99.54 --sensitivity --format json --output reports/seed-table-exact.json
# The RTP verification dossier of the seed table (exact + 100M simulated rounds per tier).
$R audit blackjack --claim 99.54 --quiet --out-dir reports/audit-seed-table --force > /dev/null
$R audit doom --quiet --out-dir reports/audit-doom --force > /dev/null
$R compare blackjack --strategy basic --strategy autoplay --strategy mimic-dealer --strategy never-bust --rounds 100M --quiet --format markdown --output reports/compare-blackjack.md
$R exact doom --strategy strategies/doom/bank-at-450.txt --strategy strategies/doom/by-dice-left.txt --strategy bank-at:300+keep-all --format markdown --output reports/doom-seed-exact.md
$R exact doom --rules s2-common --format markdown --output reports/doom-s2-common-exact.md
$R exact doom --rules zilch --format markdown --output reports/doom-zilch-exact.md
# Two players played to win (about 3 minutes on 2 cores at 10,000), the smaller targets for how
# the first seat's chances change with the target, and the simulation of the policy.
$R exact doom --players 2 --objective win --target 10000 --force --out-dir reports/doom-two-player/exact-10000 > /dev/null
for t in 500 1000 2000 3000 5000; do
  $R exact doom --players 2 --objective win --target $t --format json --output reports/doom-two-player/exact-$t.json
done
$R sim doom --games 10k --target 10000 --seat win-optimal --seat win-optimal --start-seat 1 --quiet --force --out-dir reports/doom-two-player/sim-10000-both-win-optimal > /dev/null
$R sim doom --games 10k --target 10000 --seat win-optimal --seat optimal --quiet --force --out-dir reports/doom-two-player/sim-10000-vs-optimal > /dev/null
$R sim doom --games 10k --target 10000 --seat win-optimal --seat bank-at:450 --quiet --force --out-dir reports/doom-two-player/sim-10000-vs-bank-at-450 > /dev/null
$R sim doom --games 10k --target 10000 --seat win-optimal --seat endgame:450 --quiet --force --out-dir reports/doom-two-player/sim-10000-vs-endgame-450 > /dev/null
$R sim doom --games 100k --seat optimal --seat strategies/doom/bank-at-450.txt --seat endgame:450 --seat strategies/doom/by-dice-left.txt --quiet --force --out-dir reports/doom-seed-games > /dev/null
$R sim doom --games 100k --quiet --force --out-dir reports/doom-seed-optimal-games > /dev/null
$R sim twenty-one --games 1M --quiet --force --out-dir reports/twenty-one-games > /dev/null
$R sim twenty-one --sweep-c 0,1,2,3,4,5,6,8 --games 500k --quiet --format markdown --output reports/twenty-one-sweep.md
$R exact twenty-one --row-policy --c 5 --format markdown --output reports/twenty-one-exact.md
$R compare doom --strategy optimal --strategy strategies/doom/bank-at-450.txt --strategy bank-at:300+keep-all --turns 10M --quiet --format markdown --output reports/compare-doom.md
$R exact baccarat --format markdown --output reports/baccarat-exact.md
$R sim baccarat --coups 100M --claim 98.94 --quiet --force --out-dir reports/baccarat-banker > /dev/null
$R sim baccarat --coups 20M --bet martingale:banker --table-max 500 --quiet --force --out-dir reports/baccarat-martingale > /dev/null
$R compare baccarat --bet banker --bet player --bet follow --bet martingale:banker --coups 50M --quiet --format markdown --output reports/compare-baccarat.md
$R sim blackjack --rounds 200M --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --bankroll 1000 --trip-rounds 20000 --rounds-per-hour 60 --target-ror 5% --pairs-exposure --quiet --force --out-dir reports/counting-hilo-75pct > /dev/null
$R sim blackjack --rounds 200M --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --penetration 0.5 --quiet --force --out-dir reports/counting-hilo-50pct > /dev/null
$R sim blackjack --rounds 200M --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --wong-in 1 --wong-out 0 --max-entries 1 --quiet --force --out-dir reports/counting-hilo-wong > /dev/null
$R sim blackjack --rounds 200M --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --indices i18+fab4 --quiet --force --out-dir reports/counting-hilo-i18-75pct > /dev/null
$R sim blackjack --rounds 200M --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --indices strategies/blackjack/indices-hilo-seed.csv --quiet --force --out-dir reports/counting-hilo-seed-indices-75pct > /dev/null
$R sim blackjack --rounds 200M --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --wong-in 1 --wong-out 0 --max-entries 1 --players 2 --spots-at 3 --quiet --force --out-dir reports/counting-hilo-wong-2spots > /dev/null
$R compare blackjack --count hi-lo --count halves --count zen --count omega-2 --ramp 0:1,1:2,2:4,3:8,4:12 --rounds 100M --quiet --format markdown --output reports/compare-counts.md
$R compare blackjack --count hi-lo --ramp 0:1,1:2,2:4,3:8,4:12 --penetrations 0.5,0.6,0.7,0.75,0.8,0.85 --rounds 50M --quiet --format markdown --output reports/counting-penetration.md
$R strategies ramp blackjack --count hi-lo --indices i18+fab4 --rounds 200M --spread 1-12 --bankroll 1000 --kelly 0.5 --ramp-out reports/counting-ramp-hilo-1-12.txt --quiet --force --out-dir reports/counting-ramp-hilo > /dev/null
$R compare blackjack --count hi-lo --indices i18+fab4 --ramp reports/counting-ramp-hilo-1-12.txt --ramp 0:1,1:4,2:7,3:9,4:12 --ramp 0:1,1:3,2:5,3:6,4:8 --ramp 0:1,1:2,2:3,3:3,4:4 --rounds 100M --seed 2 --quiet --format markdown --output reports/compare-ramps.md
$R strategies indices blackjack --count hi-lo --output strategies/blackjack/indices-hilo-seed.csv
$R strategies metrics blackjack --format markdown --output reports/count-metrics-seed.md
$R strategies metrics blackjack --decks 6 --h17 --peek --format markdown --output reports/count-metrics-6d-h17-peek.md
