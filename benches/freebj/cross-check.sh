#!/usr/bin/env bash
# Cross-check rtplab's Hi-Lo counting against freebj (crates.io) on freebj's default rules and
# chart, with freebj's linear ramp, and time both in alternating runs (one thread each).
#
#   benches/freebj/cross-check.sh [ROUNDS [PAIRS]]       # default 100M, 3 timed pairs
#
# Rules (freebj's defaults): 6 decks, S17, hole card (peek), double any two, no DAS, split to
# 4 hands, split aces one card, no surrender, 3:2, 250 of 312 cards dealt (rtplab
# --penetration 0.80128 puts its cut card after card 250; both shuffle between rounds).
# Chart: freebj's built-in basic strategy, transcribed in freebj-chart.csv.
# Count: Hi-Lo, true count = running count / exact decks left, rounded half away from zero
# (rtplab --true-count exact --tc-rounding nearest). Ramp: freebj `--hilo -b 1 --bet-per-tc 1
# --bet-neg-tc 1` bets 1 at TC <= 0 and 1 + TC above, uncapped (rtplab --ramp 0:1,1:2,...).
# Insurance: freebj --hilo insures at TC >= 3 (taken before the deal, unrounded); rtplab
# plays the index file insurance-3.csv (TC >= 3 at the decision, rounded to nearest).
# freebj's "ev" is money per round, insurance included, as rtplab's counting ev_per_round.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-100M}
pairs=${2:-3}
rtplab=${RTPLAB:-$here/../../target/release/rtplab}
freebj=${FREEBJ:-$(command -v freebj || echo /work/freebj/bin/freebj)}
if [ ! -x "$freebj" ]; then
  echo "freebj not found: cargo install freebj --version 1.2.2 (or set FREEBJ=path)" >&2
  exit 2
fi
ramp=$(python3 -c "print(','.join(['0:1'] + [f'{k}:{k + 1}' for k in range(1, 41)]))")
rt_args=(sim blackjack --decks 6 --peek --max-hands 4 --surrender none --penetration 0.80128
  --strategy "$here/freebj-chart.csv" --count hi-lo --true-count exact --tc-rounding nearest
  --ramp "$ramp" --indices "$here/insurance-3.csv" --rounds "$rounds" --threads 1 --quiet)
fb_args=(--hilo -b 1 --bet-per-tc 1 --bet-neg-tc 1 -n "$rounds" -j 1)

echo "rtplab ${rt_args[*]}"
"$rtplab" "${rt_args[@]}" --seed 1 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(f"  rtplab: EV/round {d[\"ev_per_round\"]:+.6f} ± {d[\"ev_per_round_se\"]:.6f}, SD/round {d[\"sd_per_round\"]:.4f}, average bet {d[\"avg_bet\"]:.5f}, rounds {d[\"rounds\"]}")'
echo "freebj ${fb_args[*]}"
"$freebj" "${fb_args[@]}" 2>/dev/null | python3 -c '
import json, math, sys
d = json.load(sys.stdin)
print(f"  freebj: EV/round {d[\"ev\"]:+.6f} ± {d[\"stddev\"] / math.sqrt(d[\"rounds\"]):.6f}, SD/round {d[\"stddev\"]:.4f} (no average bet printed)")'
# Alternating timed runs: user CPU seconds of each, and freebj's over rtplab's.
for i in $(seq "$pairs"); do
  a=$( { /usr/bin/time -f %U "$rtplab" "${rt_args[@]}" --seed "$i" --format json > /dev/null; } 2>&1 | tail -1)
  b=$( { /usr/bin/time -f %U "$freebj" "${fb_args[@]}" > /dev/null; } 2>&1 | tail -1)
  python3 -c "print(f'pair $i: rtplab {$a:.2f} s, freebj {$b:.2f} s user CPU: rtplab is {$b / $a:.2f}x as fast')"
done
