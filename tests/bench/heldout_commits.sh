#!/usr/bin/env bash
# Commit-localization queries on six repositories outside shared/, outside the
# learned ranker's training data (tests/bench/train/data/repos.tsv) and outside
# the question sets: a check of the commit set's figures on code nobody here
# tuned for (issue "Answers, not mentions": "held-out commit queries are
# checked the same way"). 40 queries a repository, 240 in all, made with the
# shared generator from the pinned tips below.
#   bash tests/bench/heldout_commits.sh [KGREP]     (default target/eval/kgrep)
# Needs the six git mirrors (the fetch tool, github:owner/name, under
# ../.mirror beside the checkout or KGREP_EVAL_MIRRORS). Not part of CI.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHARED=${KGREP_SHARED:-$ROOT/../shared}
CACHE=${KGREP_HELDOUT_CACHE:-/tmp/kgrep-heldout}
KGREP=${1:-$ROOT/target/eval/kgrep}
# One language each: Python, Go, TypeScript, Rust, Java, C.
REPOS=(
  marshmallow-code/marshmallow@341b927f219205704728c05cd61f04d7e9727523
  go-chi/chi@735ae2b87f8c733d616e809ae86e0985c1bc3350
  sindresorhus/ky@3419113b48e034fdcf8fa6bd3be3da7b3d0d758f
  tokio-rs/bytes@d5c8ad3227afe459c09f1d0d85455abf00f0381a
  square/javapoet@b9017a9503b76e11b4ad4c1a9f050e2d29112cb0
  lz4/lz4@d9c01a3d49114dc28e2dfbbc0a8990e88be7b694
)
mkdir -p "$CACHE"
if [ ! -s "$CACHE/commits.jsonl" ]; then
  args=()
  for r in "${REPOS[@]}"; do args+=(--repo "$r"); done
  python3 "$SHARED/eval/commits/gen_commits.py" "${args[@]}" --per-repo 40 \
    --ext .py,.go,.ts,.rs,.java,.c,.h --cache "$CACHE" --out "$CACHE/commits.jsonl" --stats
fi
python3 "$HERE/rank_eval.py" --kgrep "$KGREP" --dataset "$CACHE/commits.jsonl" --cache "$CACHE"
