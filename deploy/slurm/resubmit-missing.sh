#!/usr/bin/env bash
# Resubmit exactly the shards of a run that are missing or unfinished.
#
#   bash deploy/slurm/resubmit-missing.sh [--dry-run] [--force] OUT SHARDS [sbatch args...]
#
# For each K in 1..SHARDS it looks at OUT/shard-K.json (as written by rtplab-array.sbatch):
#   missing                         -> resubmit K
#   refused by `rtplab merge` alone -> resubmit K (unfinished checkpoint, truncated, corrupted;
#                                      merge's message is shown)
#   complete                        -> keep
# and submits the list as one array job: sbatch --array=3,7-9,12 [sbatch args] rtplab-array.sbatch.
# A resubmitted task runs the same command as before, so with --checkpoint an unfinished shard
# continues from its checkpoint. The run's settings (GAME, COUNT, GAME_ARGS, SEED) are taken
# from OUT/rtplab-run.env, which the first task recorded, so the new tasks belong to the same
# run; RTPLAB and the sbatch args (partition, --time, ...) come from you. If you pass --export,
# begin it with ALL (--export=ALL,...) so the settings reach the tasks.
# With nothing left to run it merges-checks the whole set and says so.
#
#   --dry-run  list what would be resubmitted and print the sbatch command; submit nothing
#   --force    resubmit even though rtplab jobs of yours are still queued or running (their
#              shard files are checkpoints in progress, so by default this refuses)
#
# Exit codes: 0 submitted (or nothing to do, or dry run), 2 usage error or a set that needs a
# person (merge refuses it though every shard is complete).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dry=0 force=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1; shift ;;
    --force) force=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [--dry-run] [--force] OUT SHARDS [sbatch args...]" >&2
  exit 2
fi
OUT=$1 SHARDS=$2
shift 2
case "$SHARDS" in '' | *[!0-9]* | 0) echo "SHARDS=$SHARDS is not a positive number" >&2; exit 2 ;; esac
: "${RTPLAB:=rtplab}" "${JOB_NAME:=rtplab}"
if [ ! -d "$OUT" ]; then
  echo "$OUT is not a folder" >&2
  exit 2
fi

# The run's settings as the first task recorded them.
if [ -f "$OUT/rtplab-run.env" ]; then
  given=$SHARDS
  # shellcheck disable=SC1091 # written by rtplab-array.sbatch with printf %q
  . "$OUT/rtplab-run.env"
  if [ "$SHARDS" != "$given" ]; then
    echo "$OUT/rtplab-run.env records SHARDS=$SHARDS, not $given: the shard count of a run never changes" >&2
    exit 2
  fi
  export GAME COUNT GAME_ARGS SEED
  echo "run settings from $OUT/rtplab-run.env: GAME=$GAME COUNT=$COUNT SEED=$SEED GAME_ARGS=$GAME_ARGS"
else
  echo "no $OUT/rtplab-run.env: the tasks get GAME, COUNT, GAME_ARGS, SEED from your environment"
fi
export OUT SHARDS

if [ "$force" = 0 ] && command -v squeue >/dev/null; then
  queued=$(squeue -h -r -u "$(id -un)" -n "$JOB_NAME" -o '%i %T' 2>/dev/null || true)
  if [ -n "$queued" ]; then
    echo "jobs named $JOB_NAME are still queued or running (their shards may be in progress):" >&2
    printf '%s\n' "$queued" >&2
    echo "wait for them, or pass --force" >&2
    exit 2
  fi
fi

todo=()
for K in $(seq 1 "$SHARDS"); do
  f="$OUT/shard-$K.json"
  if [ ! -e "$f" ]; then
    echo "shard $K/$SHARDS: missing ($f)"
    todo+=("$K")
    continue
  fi
  # merge of one file checks that file alone (readable, checksum, plausible, finished); with
  # SHARDS > 1 a good file is then refused only because the other shards' chunks are missing.
  err=$("$RTPLAB" merge "$f" --format json 2>&1 >/dev/null) && continue
  case "$err" in
    *"are missing"*) continue ;;
  esac
  echo "shard $K/$SHARDS: unfinished or unreadable: ${err#error: }"
  todo+=("$K")
done

if [ ${#todo[@]} -eq 0 ]; then
  if err=$("$RTPLAB" merge "$OUT"/shard-*.json --format json 2>&1 >/dev/null); then
    echo "all $SHARDS shards are finished: rtplab merge $OUT/shard-*.json"
    exit 0
  fi
  echo "every shard file is finished, but merge refuses the set:" >&2
  printf '%s\n' "$err" >&2
  exit 2
fi

# 3 7 8 9 12 -> 3,7-9,12
list=$(printf '%s\n' "${todo[@]}" | awk '
  NR == 1 { s = p = $1; next }
  $1 == p + 1 { p = $1; next }
  { out = out (s == p ? s : s "-" p) ","; s = p = $1 }
  END { print out (s == p ? s : s "-" p) }')
cmd=(sbatch "--array=$list" "$@" "$here/rtplab-array.sbatch")
echo "${#todo[@]} of $SHARDS shards to run: ${cmd[*]}"
if [ "$dry" = 1 ]; then
  echo "(dry run: nothing submitted)"
  exit 0
fi
"${cmd[@]}"
