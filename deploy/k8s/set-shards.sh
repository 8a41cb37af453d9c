#!/usr/bin/env bash
# Set the shard count of the Indexed Job in one go: the ConfigMap's SHARDS (what rtplab uses),
# the Job's completions and its parallelism, i.e. the three lines marked `# SHARDS`.
#   bash deploy/k8s/set-shards.sh N [FILE]      (FILE: deploy/k8s/indexed-job.yaml)
# Or without editing the file:
#   sed -E 's/: ("?)[0-9]+("?) +# SHARDS/: \164\2  # SHARDS/' FILE | kubectl apply -f -
set -euo pipefail
n=${1:?usage: set-shards.sh N [FILE]}
file=${2:-$(dirname "$0")/indexed-job.yaml}
case "$n" in '' | *[!0-9]* | 0) echo "N=$n is not a positive number" >&2; exit 2 ;; esac
marked=': "?[0-9]+"? +# SHARDS'
if [ "$(grep -cE "$marked" "$file")" -ne 3 ]; then
  echo "$file: expected three lines marked '# SHARDS'" >&2
  exit 2
fi
sed -E -i "s/: (\"?)[0-9]+(\"?) +# SHARDS/: \1$n\2  # SHARDS/" "$file"
grep -nE "$marked" "$file"
