#!/usr/bin/env bash
# A release build of an earlier COMMIT that has the interleaved timer's serve mode, for the
# timer's --a: a worktree of COMMIT in /tmp, the serve commits (those of this branch's history
# whose subject starts with `bench-serve:`, oldest first; SERVE_COMMITS="hash ..." to name
# others) cherry-picked onto it unless it already serves this branch's protocol, built with
# `cargo build --release`. Prints the binary's path (everything else goes to standard error).
#
#   base=$(benches/interleave/base.sh 6ad01d3)
#   cargo run --profile ci -p rtplab-interleave -- \
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
rev=$(git -C "$repo" rev-parse --short=10 "$1^{commit}" 2>/dev/null) || {
  echo "$1: not a commit of $repo" >&2
  exit 2
}
dir=/tmp/rtplab-base-$rev
if [ ! -e "$dir/.git" ]; then
  git -C "$repo" worktree add --detach "$dir" "$rev" >&2
fi
# The protocol this branch speaks (the hello's first words).
hello=$(grep -o 'HELLO: &str = "[^"]*"' "$repo/src/game/serve.rs")
if ! grep -qF "$hello" "$dir/src/game/serve.rs" 2>/dev/null; then
  serve=${SERVE_COMMITS:-$(git -C "$repo" log --reverse --format=%H --grep='^bench-serve:')}
  if [ -z "$serve" ]; then
    echo "no serve commit in this branch's history: set SERVE_COMMITS=\"hash ...\"" >&2
    exit 2
  fi
  for c in $serve; do
    if git -C "$repo" merge-base --is-ancestor "$c" "$rev"; then continue; fi
    echo "cherry-picking ${c:0:10} onto $rev: $(git -C "$repo" log -1 --format=%s "$c")" >&2
    git -C "$dir" cherry-pick "$c" >&2 || {
      git -C "$dir" cherry-pick --abort || true
      echo "${c:0:10} does not apply to $rev: pick the serve commits by hand in $dir" >&2
      exit 2
    }
  done
fi
(cd "$dir" && nice cargo build --release -q >&2)
echo "$dir/target/release/rtplab"
