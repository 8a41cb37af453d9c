#!/usr/bin/env bash
# rtplab against freebj (crates.io) on the speed targets: alternating whole runs on one
# machine (rtplab first in odd pairs, freebj first in even ones), one thread each,
# whole-process user CPU for the same number of rounds; the ratio freebj / rtplab pair by pair
# (above 1: rtplab is faster), its median and range (min-max), and the target; then the median
# ratio of wall-clock times (the one that matters with THREADS above 1).
#
#   benches/freebj/targets.sh [PAIRS=7] [ROUNDS=20M] [CASE ...]   # CASE: a name below
#   THREADS=2 benches/freebj/targets.sh 7 100M seed             # both on two threads
#
# Whole runs on a shared machine move by 5-10% from run to run: a claim against freebj takes at
# least 7 pairs (fewer are refused unless FEW=1, for a try of the script). Claims about
# rtplab's own loop, build against build, come from the interleaved timer
# (benches/interleave/, docs/performance.md), not from whole runs.
#
# Whole-process time includes rtplab's set-up: the chart derived for the rules (about 0.1 s for
# the seed table, 0.4 s with DAS and four hands) and the plan's pilot shoes; freebj builds no
# chart. rtplab's own rounds_per_s (in its JSON) leaves the set-up out.
#
# Needs a release build (cargo build --release) and freebj 1.2.2 (cargo install freebj
# --version 1.2.2 --locked; or FREEBJ=path). RTPLAB=path times another build.
#
# The flat cases: the seed table (8 decks, S17, no hole card, no DAS, 2 hands, 75%) without its
# surrender against 2-9, which freebj cannot play, and four common rule sets from six decks to
# one. rtplab plays the basic chart derived for each rule set; freebj its built-in chart. The
# counting case: Hi-Lo on the seed table, the Illustrious 18 (strategies/blackjack/
# indices-i18.csv, given to freebj as -D directives), insurance at +3, a bet from 1 to 12 units
# (freebj 1 + TC uncapped: its --bet-max-tc does not cap), true count by exact decks rounded to
# nearest in both.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pairs=${1:-7}
if [ "$pairs" -lt 7 ] && [ "${FEW:-0}" != 1 ]; then
  echo "$pairs pairs: at least 7 for a median and range worth quoting (FEW=1 to try fewer)" >&2
  exit 2
fi
threads=${THREADS:-1}
rounds=${2:-20M}
shift $(($# < 2 ? $# : 2))
rtplab=${RTPLAB:-$here/../../target/release/rtplab}
freebj=${FREEBJ:-$(command -v freebj || true)}
if [ -z "$freebj" ] || [ ! -x "$freebj" ]; then
  echo "freebj not found: cargo install freebj --version 1.2.2 --locked (or set FREEBJ=path)" >&2
  exit 2
fi
if [ ! -x "$rtplab" ]; then
  echo "$rtplab not found: cargo build --release (or set RTPLAB=path)" >&2
  exit 2
fi

# The I18 as freebj directives ("<" in rtplab is "below N": at most N-1 for integer counts).
i18=(-D "16vs10:>0=" -D "15vs10:>4=" -D "T/Tvs5:>5V" -D "T/Tvs6:>4V" -D "10vs10:>4D"
  -D "12vs3:>2=" -D "12vs2:>3=" -D "11vsA:>1D" -D "9vs2:>1D" -D "10vsA:>4D" -D "9vs7:>3D"
  -D "16vs9:>5=" -D "13vs2:<-2+" -D "12vs4:<-1+" -D "12vs5:<-3+" -D "12vs6:<-2+"
  -D "13vs3:<-3+")
ramp=0:1,1:2,2:3,3:4,4:5,5:6,6:7,7:8,8:9,9:10,10:11,11:12

# name | target | rtplab flags | freebj flags
cases=(
  "seed|3.3|--surrender none|-d 8 --s17 --enhc --no-das --max-splits 2 --no-surr -p 75%"
  "6d-s17-das-ls|3|--decks 6 --peek --das --max-hands 4 --surrender late --penetration 0.8|-d 6 --s17 --ahc --das --max-splits 4 --lsurr -p 80%"
  "6d-h17-das-ls|3|--decks 6 --h17 --peek --das --max-hands 4 --surrender late --penetration 0.8|-d 6 --h17 --ahc --das --max-splits 4 --lsurr -p 80%"
  "2d-h17|3|--decks 2 --h17 --peek --max-hands 4 --surrender none --penetration 0.65|-d 2 --h17 --ahc --no-das --max-splits 4 --no-surr -p 65%"
  "1d-h17|3|--decks 1 --h17 --peek --max-hands 4 --surrender none --penetration 0.6|-d 1 --h17 --ahc --no-das --max-splits 4 --no-surr -p 60%"
  "hilo-i18|3|--surrender none --count hi-lo --true-count exact --tc-rounding nearest --indices $here/../../strategies/blackjack/indices-i18.csv --ramp $ramp|-d 8 --s17 --enhc --no-das --max-splits 2 --no-surr -p 75% --hilo -b 1 --bet-per-tc 1 --bet-neg-tc 1"
)

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# "user wall" seconds of one run.
timed() { /usr/bin/time -o "$tmp" -f '%U %e' "$@" > /dev/null 2>&1; tail -1 "$tmp"; }

echo "$pairs pairs of $rounds rounds, $threads thread(s); ratios freebj / rtplab"
printf '%-14s %6s %9s %9s %8s %13s %4s %6s %5s\n' case target "rtplab s" "freebj s" ratio "ratio range" met wall pairs
for c in "${cases[@]}"; do
  IFS='|' read -r name target rt fb <<< "$c"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  read -ra rt_args <<< "$rt"
  read -ra fb_args <<< "$fb"
  [ "$name" = hilo-i18 ] && fb_args+=("${i18[@]}")
  a=(); b=()
  for i in $(seq "$pairs"); do
    run_a() { a+=("$(timed "$rtplab" sim blackjack "${rt_args[@]}" --rounds "$rounds" --seed "$i" --threads "$threads" --quiet --format json)"); }
    run_b() { b+=("$(timed "$freebj" "${fb_args[@]}" -n "$rounds" -j "$threads")"); }
    if [ $((i % 2)) = 1 ]; then run_a; run_b; else run_b; run_a; fi
  done
  python3 - "$name" "$target" "${a[*]}" "${b[*]}" <<'PY'
import statistics as st, sys
name, target = sys.argv[1], float(sys.argv[2])
a = [float(x) for x in sys.argv[3].split()]
b = [float(x) for x in sys.argv[4].split()]
au, aw, bu, bw = a[0::2], a[1::2], b[0::2], b[1::2]
r = sorted(y / x for x, y in zip(au, bu))
m = st.median(r)
w = st.median(y / x for x, y in zip(aw, bw))
print(f"{name:<14} {target:>5}x {st.median(au):>9.2f} {st.median(bu):>9.2f} {m:>7.2f}x "
      f"{r[0]:>6.2f}-{r[-1]:<6.2f} {'yes' if m >= target else 'no':>4} {w:>5.2f}x "
      f"{len(r):>5}")
PY
done
