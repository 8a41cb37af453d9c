#!/usr/bin/env bash
# End-to-end check of rtplab-array.sbatch on a real Slurm, run by hand (not CI: it installs
# and starts system daemons). On a Debian machine, as root:
#
#   bash deploy/slurm/local-cluster-check.sh [--force] [ROUNDS]      (default 2e9)
#
# 1. installs slurm-wlm and munge from Debian's packages if missing;
# 2. starts a one-node cluster on localhost (munged, slurmctld, slurmd), or uses the one that
#    is already running;
# 3. submits a 4-task array job (SHARDS=4, --checkpoint 5s) of blackjack shards;
# 4. kill and resume: once task 1 has written a checkpoint, `scontrol requeue`s it mid-run
#    (Slurm sends it SIGTERM, it writes its checkpoint, goes back to the queue and runs the
#    same command again, which continues from the checkpoint);
# 5. waits for the array, checks resubmit-missing.sh finds nothing to resubmit, merges, and
#    compares the merged numbers with a single-machine run of the same seed.
# Exits non-zero on any difference. ROUNDS must keep a task busy for several seconds.
#
# Safety: without --force it refuses to overwrite an existing /etc/slurm/slurm.conf, and to
# submit to a running Slurm that has jobs queued. With --force an existing slurm.conf is
# saved and put back at the end. It never stops a daemon it did not start: the ones it starts
# run in the foreground under this script and are stopped by PID when it exits (the cleanup
# trap runs on success, failure and Ctrl-C), after its job is cancelled; it then checks that
# no process of its run is left.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
force=0
if [ "${1:-}" = --force ]; then force=1; shift; fi
rounds=${1:-2e9}
shards=4
seed=2026
[ "$(id -u)" = 0 ] || { echo "run as root (it installs and starts system daemons)" >&2; exit 2; }

work=$(mktemp -d /tmp/rtplab-slurm.XXXXXX)
chmod 755 "$work"
started=()      # PIDs of the daemons this script started, stopped in reverse order
jobid=''
conf_saved=''
conf_written=0

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  if [ -n "$jobid" ]; then
    scancel "$jobid" 2>/dev/null
    for _ in $(seq 60); do
      [ -z "$(squeue -h -j "$jobid" 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  local i pid
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    pid=${started[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [ "$conf_written" = 1 ]; then
    if [ -n "$conf_saved" ]; then cp -p "$conf_saved" /etc/slurm/slurm.conf; else rm -f /etc/slurm/slurm.conf; fi
  fi
  # Anything still running from this run's folder (job steps of our job) is ours.
  local left
  left=$(pgrep -f "$work" || true)
  if [ -n "$left" ]; then
    echo "stopping leftover processes of this run: $left" >&2
    # shellcheck disable=SC2086 # a list of PIDs
    kill -KILL $left 2>/dev/null
    [ "$rc" = 0 ] && rc=1
  fi
  if [ "$rc" = 0 ]; then rm -rf "$work"; else echo "kept $work for inspection" >&2; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
if [ -n "${RTPLAB:-}" ]; then
  bin=$RTPLAB
else
  (cd "$repo" && cargo build --release -q)
  bin="${CARGO_TARGET_DIR:-$repo/target}/release/rtplab"
fi

# --- the cluster -------------------------------------------------------------------------
if pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
  jobs=$(squeue -h 2>/dev/null || true)
  if [ -n "$jobs" ] && [ "$force" = 0 ]; then
    echo "a running Slurm has jobs queued; not submitting to it without --force:" >&2
    printf '%s\n' "$jobs" >&2
    exit 2
  fi
  echo "using the Slurm already running (its configuration is left as it is)"
else
  if [ -e /etc/slurm/slurm.conf ]; then
    if [ "$force" = 0 ]; then
      echo "/etc/slurm/slurm.conf exists; not replacing it without --force" >&2
      exit 2
    fi
    conf_saved="$work/slurm.conf.saved"
    cp -p /etc/slurm/slurm.conf "$conf_saved"
  fi

  # munge: a key and the daemon (reused if one runs already).
  mkdir -p /etc/munge /var/log/munge /var/lib/munge /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
  fi
  chown -R munge:munge /etc/munge /var/log/munge /var/lib/munge /run/munge
  chmod 400 /etc/munge/munge.key
  if ! pgrep -x munged >/dev/null; then
    setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground \
      > "$work/munged.log" 2>&1 &
    started+=("$!")
    sleep 1
  fi

  cpus=$(nproc)
  mkdir -p /etc/slurm "$work/spool/slurmctld" "$work/spool/slurmd"
  conf_written=1
  cat > /etc/slurm/slurm.conf <<CONF
ClusterName=rtplab
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/spool/slurmctld
SlurmdSpoolDir=$work/spool/slurmd
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  slurmctld -D -c > "$work/slurmctld.out" 2>&1 &
  started+=("$!")
  slurmd -D -N localhost > "$work/slurmd.out" 2>&1 &
  started+=("$!")
fi
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then break; fi
  sleep 1
done
sinfo

# --- the array job, with one task killed and resumed ------------------------------------
out="$work/out"
cd "$work"
jobid=$(sbatch --parsable --array=1-$shards --cpus-per-task=1 \
  --export=ALL,RTPLAB="$bin",OUT="$out",SHARDS=$shards,GAME=blackjack,COUNT="$rounds",SEED=$seed,CHECKPOINT=5s \
  "$here/rtplab-array.sbatch")
jobid=${jobid%%;*}
echo "submitted array job $jobid (tasks 1-$shards)"

state() { squeue -h -j "$1" -o '%T' 2>/dev/null | head -n1; }
for _ in $(seq 600); do
  [ "$(state "${jobid}_1")" = RUNNING ] && [ -s "$out/shard-1.json" ] && break
  sleep 1
done
[ -s "$out/shard-1.json" ] || { echo "task 1 never wrote a checkpoint" >&2; exit 1; }
done_before=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chunks_done"])' "$out/shard-1.json")
echo "task 1 is running with a checkpoint of $done_before chunks: requeueing it mid-run"
scontrol requeue "${jobid}_1"

for _ in $(seq 3600); do
  [ -z "$(squeue -h -j "$jobid" 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -j "$jobid" 2>/dev/null)" ] || { echo "the array job did not finish in an hour" >&2; exit 1; }
ls -l "$out"
log1="$work/rtplab-${jobid}_1.log"
cat "$log1"
grep -q 'attempt 2' "$log1" || { echo "task 1 was not run a second time" >&2; exit 1; }

RTPLAB="$bin" bash "$here/resubmit-missing.sh" --dry-run --force "$out" "$shards"
"$bin" merge "$out"/shard-*.json --format json > "$work/merged.json"
"$bin" sim blackjack --rounds "$rounds" --seed $seed --quiet --format json > "$work/single.json"

python3 - "$work/merged.json" "$work/single.json" <<'PY'
import json, sys
m, s = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["rounds", "initial_bets", "ev", "ev_se", "rtp", "rtp_ci95", "rtp_total_wagered", "sd_round",
        "ev_by_upcard", "frequencies", "dealer_outcomes", "net_distribution", "side_bets", "bet_behind"]
bad = [k for k in keys if m[k] != s[k]]
print(f"merged from Slurm array (task 1 requeued mid-run): rounds {m['rounds']}, EV {m['ev']:.6%}, SE {m['ev_se']:.6%}")
print(f"single-machine run                               : rounds {s['rounds']}, EV {s['ev']:.6%}, SE {s['ev_se']:.6%}")
if bad:
    print("DIFFERENT:", bad); sys.exit(1)
print("identical: merged Slurm shards == single run")
PY
jobid=''   # finished: nothing to cancel
