#!/usr/bin/env bash
# A release build of an earlier COMMIT that has the interleaved timer's serve mode, for the
# timer's --a: a worktree of COMMIT in /tmp, the serve commit (`bench-serve: a run's chunks
# served ...`, found in this branch's history; SERVE_COMMIT=hash to name another) cherry-picked
# onto it when COMMIT lacks `bench-serve`, built with `cargo build --release`. Prints the
# binary's path (everything else goes to standard error).
#
#   base=$(benches/interleave/base.sh 6ad01d3)
#   cargo run --profile ci -p rtplab-benches --bin interleave -- \
#       --a "$base" --b target/release/rtplab -- sim blackjack --seed 7
#
# The worktree stays (/tmp/rtplab-base-HASH; a second call reuses it and its build):
# `git worktree remove --force /tmp/rtplab-base-HASH` when done.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 COMMIT" >&2
  exit 2
fi
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rev=$(git -C "$repo" rev-parse --short=10 "$1^{commit}") || {
  echo "$1: not a commit of $repo" >&2
  exit 2
}
dir=/tmp/rtplab-base-$rev
if [ ! -e "$dir/.git" ]; then
  git -C "$repo" worktree add --detach "$dir" "$rev" >&2
fi
if ! grep -q '"bench-serve"' "$dir/src/cli/mod.rs"; then
  serve=${SERVE_COMMIT:-$(git -C "$repo" log --format=%H -1 --grep="^bench-serve: a run's chunks served")}
  if [ -z "$serve" ]; then
    echo "the serve commit is not in this branch's history: set SERVE_COMMIT=hash" >&2
    exit 2
  fi
  echo "cherry-picking the serve commit ${serve:0:10} onto $rev" >&2
  git -C "$dir" cherry-pick "$serve" >&2 || {
    git -C "$dir" cherry-pick --abort || true
    echo "the serve commit does not apply to $rev: pick it by hand in $dir" >&2
    exit 2
  }
fi
(cd "$dir" && nice cargo build --release -q >&2)
echo "$dir/target/release/rtplab"
