#!/usr/bin/env bash
# Instructions, branches and simulated branch mispredictions per round of a command, under
# cachegrind's branch predictor (valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes):
# the command is run for 1M and for 3M rounds and the difference divided by 2M, so that
# start-up and set-up cancel. `{n}` in the command stands for the round count.
#
#   benches/cachegrind/per-round.sh -- target/release/rtplab sim blackjack --surrender none \
#       --rounds {n} --seed 7 --threads 1 --no-cache -q -o /dev/null
#   benches/cachegrind/per-round.sh -- freebj -d 8 --s17 --enhc --no-das --max-splits 2 \
#       --no-surr -p 75% -n {n} -j 1
#
# The simulated predictor is far simpler than a real core's: its counts compare builds and
# programs, they are not the machine's (docs/performance.md). LO=N HI=N change the two round
# counts. Needs valgrind.
set -euo pipefail
if [ "${1:-}" != "--" ] || [ $# -lt 2 ]; then
  echo "usage: $0 -- COMMAND ARGS ({n}: the round count)" >&2
  exit 2
fi
shift
case "$*" in *"{n}"*) ;; *) echo "$0: the command needs {n} where the round count goes" >&2; exit 2 ;; esac
command -v valgrind > /dev/null || { echo "$0: valgrind not found (apt-get install valgrind)" >&2; exit 2; }
lo=${LO:-1000000}
hi=${HI:-3000000}
if ! [[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ ]] || [ "$hi" -le "$lo" ]; then
  echo "$0: LO and HI are whole round counts with HI above LO (got LO=$lo HI=$hi)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "instructions branches mispredictions" of one run of n rounds.
one() {
  local n=$1 args=()
  shift
  for a in "$@"; do args+=("${a//\{n\}/$n}"); done
  valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes \
    --cachegrind-out-file="$tmp/cg.out" "${args[@]}" > /dev/null 2> "$tmp/err" || {
    echo "$0: the command failed under valgrind:" >&2
    grep -v "^==" "$tmp/err" | tail -5 >&2
    exit 1
  }
  tr -d ',' < "$tmp/err" | awk '/I +refs:/ {i = $4} /Branches:/ {b = $3} /Mispredicts:/ {m = $3}
    END {print i, b, m}'
}
# Plain assignments, so that a run that fails stops the script (set -e).
r1=$(one "$lo" "$@")
r2=$(one "$hi" "$@")
read -r i1 b1 m1 <<< "$r1"
read -r i2 b2 m2 <<< "$r2"
if [ -z "${m1:-}" ] || [ -z "${m2:-}" ]; then
  echo "$0: valgrind's summary lacks instructions, branches or mispredictions" >&2
  exit 1
fi
awk -v i1="$i1" -v b1="$b1" -v m1="$m1" -v i2="$i2" -v b2="$b2" -v m2="$m2" -v d=$((hi - lo)) \
  'BEGIN {printf "per round: %.1f instructions, %.1f branches, %.2f mispredicted\n",
    (i2 - i1) / d, (b2 - b1) / d, (m2 - m1) / d}'
