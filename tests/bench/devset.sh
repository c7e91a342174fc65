#!/usr/bin/env bash
# Dev-set score of the release build next to the BM25 baseline.
#   bash tests/bench/devset.sh [SHARED_DIR]     (default ../shared beside the repo)
# Fetches the corpora from the package registries on first use.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHARED=${1:-$ROOT/../shared}
KGREP=${KGREP:-$ROOT/target/release/kgrep}
CORPORA=${KGREP_DEVSET:-/tmp/kgrep-devset}
bash "$SHARED/eval/devset/get_corpus.sh" "$CORPORA" >/dev/null
python3 "$SHARED/eval/score.py" --dataset "$SHARED/eval/devset/queries.jsonl" \
  --corpus-root "$CORPORA" --cmd "$KGREP {query} ." --name kgrep "${@:2}"
python3 "$SHARED/eval/score.py" --dataset "$SHARED/eval/devset/queries.jsonl" \
  --corpus-root "$CORPORA" --cmd "python3 {eval}/baselines/bm25.py {query} ." --name bm25
