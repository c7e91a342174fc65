#!/bin/bash
# Remakes the learned question rankers (src/score/learned_questions.rs and
# tests/bench/train/manifest-questions.json; src/score/learned_happens.rs and
# manifest-happens.json): makes the doc-comment questions
# and their masked trees (data/gen_docq.py; it must reproduce the committed
# data/docq.jsonl), dumps their features with kgrep (--features ranks by hand,
# so the data does not depend on the model it trains), then fits with fit.py.
#
# Needs: the training repositories' git mirrors (data/repos.tsv; fetch
# github:owner/name into ../.mirror beside the checkout, or set
# KGREP_EVAL_MIRRORS), and a Python with numpy and scikit-learn (PYTHON).
# About 10 minutes on 2 cores. The trees go to TREES (default /tmp/kgrep-docq),
# outside any git repository: inside one, kgrep would honour each tree's own
# .gitignore and the features would differ from the committed model's.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PYTHON=${PYTHON:-python3}
OUT=${OUT:-target/train}
mkdir -p "$OUT"
cargo build --profile eval
TREES=${TREES:-/tmp/kgrep-docq}
rm -rf "$TREES"
"$PYTHON" tests/bench/train/data/gen_docq.py --trees "$TREES" --out "$TREES/docq.jsonl"
cmp "$TREES/docq.jsonl" tests/bench/train/data/docq.jsonl ||
  { echo "make_question_model: the questions differ from data/docq.jsonl" >&2; exit 1; }
"$PYTHON" tests/bench/train/dump.py --kgrep target/eval/kgrep --dataset "$TREES/docq.jsonl" \
  --corpus-root "$TREES" --out "$OUT/docq-features.jsonl"
"$PYTHON" tests/bench/train/fit.py --train "$OUT/docq-features.jsonl" \
  --repos tests/bench/train/data/repos.tsv --c 0.1 --write-questions src/score/learned_questions.rs
# The "what happens" ranker (src/score/learned_happens.rs, manifest-happens.json):
# the same, from doc comments' failure clauses (gen_docq.py --happens).
HTREES=${HTREES:-/tmp/kgrep-docqh}
rm -rf "$HTREES"
"$PYTHON" tests/bench/train/data/gen_docq.py --happens --trees "$HTREES" --out "$HTREES/docqh.jsonl"
cmp "$HTREES/docqh.jsonl" tests/bench/train/data/docqh.jsonl ||
  { echo "make_question_model: the questions differ from data/docqh.jsonl" >&2; exit 1; }
"$PYTHON" tests/bench/train/dump.py --kgrep target/eval/kgrep --dataset "$HTREES/docqh.jsonl" \
  --corpus-root "$HTREES" --out "$OUT/docqh-features.jsonl"
"$PYTHON" tests/bench/train/fit.py --train "$OUT/docqh-features.jsonl" \
  --repos tests/bench/train/data/repos.tsv --c 0.1 --write-happens src/score/learned_happens.rs
