#!/bin/bash
# Regenerate every per-repository query file listed in repos.tsv (pinned tips).
# Needs the mirrors under ../.mirror/owner+name/repo beside the checkout (fetch tool: github:owner/name); writes rows/owner+name.jsonl.
# Usage: ./make_all.sh [JOBS]   (default 2 parallel jobs)
#        SKIP_DONE=1 ./make_all.sh   keeps query files that already exist
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p logs
tail -n +2 repos.tsv | while IFS=$'\t' read -r repo tip lang ext; do
  printf '%s\t%s\t%s\n' "$repo" "$tip" "$ext"
done | xargs -P "${1:-2}" -L 1 bash -c '
  mkdir -p rows; out="rows/${0/\//+}.jsonl"
  [[ -n "${SKIP_DONE:-}" && -s "$out" ]] && exit 0
  python3 gen_train.py --repo "$0@$1" --ext "$2" --per-repo 100 --stats \
    --out "$out" > "logs/${0/\//+}.log" 2>&1 || echo "FAILED: $0 (see logs/${0/\//+}.log)" >&2
'
