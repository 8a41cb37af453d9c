#!/usr/bin/env bash
# End-to-end check on a real Slurm: on a Debian machine (as root) install slurm-wlm and munge
# from Debian's packages, start a one-node cluster on localhost (munged, slurmctld, slurmd),
# submit a 4-task array job of rtplab shards, wait, merge, and compare the merged numbers with
# a single-machine run of the same seed. Exits non-zero on any difference.
#
#   bash deploy/slurm/local-cluster-check.sh [ROUNDS]        (default 20M)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rounds=${1:-20M}
work=$(mktemp -d /tmp/rtplab-slurm.XXXXXX)
chmod 755 "$work"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
(cd "$repo" && cargo build --release -q)
bin="$repo/target/release/rtplab"

# munge: a key and the daemon.
mkdir -p /etc/munge /var/log/munge /var/lib/munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
fi
chown -R munge:munge /etc/munge /var/log/munge /var/lib/munge /run/munge
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged

# slurm: a one-node cluster on localhost.
cpus=$(nproc)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=rtplab
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
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
rm -f /etc/slurm/cgroup.conf
pkill -x slurmd 2>/dev/null || true
pkill -x slurmctld 2>/dev/null || true
sleep 1
slurmctld -c
slurmd -N localhost
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then break; fi
  sleep 1
done
sinfo

# The array job: 4 shards, one task at a time per CPU.
cd "$work"
sbatch --wait --array=1-4 --cpus-per-task=1 \
  --export=ALL,RTPLAB="$bin",OUT="$work/out",ROUNDS="$rounds",SEED=2026 \
  "$here/rtplab-array.sbatch"
ls -l "$work/out"
"$bin" merge "$work"/out/shard-*.json --format json > "$work/merged.json"
"$bin" sim blackjack --rounds "$rounds" --seed 2026 --quiet --format json > "$work/single.json"

python3 - "$work/merged.json" "$work/single.json" <<'PY'
import json, sys
m, s = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["rounds", "initial_bets", "ev", "ev_se", "rtp", "rtp_ci95", "rtp_total_wagered", "sd_round",
        "ev_by_upcard", "frequencies", "dealer_outcomes", "net_distribution", "side_bets", "bet_behind"]
bad = [k for k in keys if m[k] != s[k]]
print(f"merged from Slurm array: rounds {m['rounds']}, EV {m['ev']:.6%}, SE {m['ev_se']:.6%}")
print(f"single-machine run     : rounds {s['rounds']}, EV {s['ev']:.6%}, SE {s['ev_se']:.6%}")
if bad:
    print("DIFFERENT:", bad); sys.exit(1)
print("identical: merged Slurm shards == single run")
PY
scancel --user=root 2>/dev/null || true
pkill -x slurmd || true
pkill -x slurmctld || true
