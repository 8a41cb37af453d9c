#!/usr/bin/env bash
# Side-by-side speed against freebj (`cargo install freebj`) on the same machine and rules:
# 8 decks, S17, ENHC, no DAS, 2 hands, no surrender, 75% penetration, basic strategy.
# Runs alternate (freebj, rtplab, freebj, ...) so that load from elsewhere on a shared machine
# hits both alike; prints every rate, the best and the median of each, and their ratios.
# Usage: benches/freebj/speed.sh [threads=1] [repetitions=5] [freebj rounds=20M] [rtplab rounds=40M]
set -euo pipefail
THREADS=${1:-1}; REPS=${2:-5}; FN=${3:-20M}; RN=${4:-40M}
command -v freebj > /dev/null || { echo "freebj not found: cargo install freebj" >&2; exit 2; }
cargo build --release --quiet
BIN=target/release/rtplab
to_num() { python3 -c "import sys; s=sys.argv[1]; m={'K':1e3,'M':1e6,'G':1e9}; print(float(s[:-1])*m[s[-1]] if s[-1] in m else float(s))" "$1"; }
FNUM=$(to_num "$FN")
f=(); r=()
for _ in $(seq "$REPS"); do
  s=$(date +%s.%N)
  freebj -d 8 --s17 --enhc --no-das --max-splits 2 --no-surr -p 75% -n "$FN" -j "$THREADS" > /dev/null 2>&1
  e=$(date +%s.%N)
  f+=("$(python3 -c "print($FNUM / ($e - $s) / 1e6)")")
  r+=("$($BIN sim blackjack --surrender none --rounds "$RN" --threads "$THREADS" -q --format json |
    python3 -c "import json, sys; print(json.load(sys.stdin)['rounds_per_s'] / 1e6)")")
done
python3 - "$THREADS" "${f[*]}" "${r[*]}" <<'PY'
import statistics as st, sys
threads = sys.argv[1]
f = sorted(map(float, sys.argv[2].split()))
r = sorted(map(float, sys.argv[3].split()))
print(f"threads {threads}")
print("freebj  M rounds/s:", " ".join(f"{x:.2f}" for x in f))
print("rtplab  M rounds/s:", " ".join(f"{x:.2f}" for x in r))
print(f"best {r[-1]:.2f} / {f[-1]:.2f} = {r[-1] / f[-1]:.2f}x   "
      f"median {st.median(r):.2f} / {st.median(f):.2f} = {st.median(r) / st.median(f):.2f}x")
PY
