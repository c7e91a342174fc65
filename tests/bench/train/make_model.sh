#!/bin/bash
# Remakes the learned ranker and judge (src/score/learned.rs and
# tests/bench/train/manifest.json) from the committed training queries:
# dumps their features with kgrep (--features ranks by hand, so the data does
# not depend on the model it trains), then fits with fit.py.
#
# Needs: the training repositories' git mirrors (data/repos.tsv; fetch
# github:owner/name into ../.mirror beside the checkout, or set
# KGREP_EVAL_MIRRORS), and a Python with numpy and scikit-learn (PYTHON).
# About an hour on 2 cores, most of it exporting one tree per query.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PYTHON=${PYTHON:-python3}
OUT=${OUT:-target/train}
mkdir -p "$OUT"
cargo build --profile eval
"$PYTHON" tests/bench/train/dump.py --kgrep target/eval/kgrep \
  --dataset tests/bench/train/data/queries.jsonl --out "$OUT/features.jsonl" --clean
"$PYTHON" tests/bench/train/fit.py --train "$OUT/features.jsonl" \
  --repos tests/bench/train/data/repos.tsv --c 0.1 --write src/score/learned.rs
