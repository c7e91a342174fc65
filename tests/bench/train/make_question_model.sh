#!/bin/bash
# Remakes the learned "what happens" ranker (src/score/learned_happens.rs and
# tests/bench/train/manifest-happens.json): makes the doc-comment questions
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
# One model: NAME (docq, docqh), its trees, gen_docq.py's extra flags, fit.py's
# write flag and the Rust file it writes.
make_one() {
  local name=$1 trees=$2 gen_flags=$3 write_flag=$4 rust=$5
  rm -rf "$trees"
  # shellcheck disable=SC2086 # gen_flags is empty or one flag
  "$PYTHON" tests/bench/train/data/gen_docq.py $gen_flags --trees "$trees" --out "$trees/$name.jsonl"
  cmp "$trees/$name.jsonl" "tests/bench/train/data/$name.jsonl" ||
    { echo "make_question_model: the questions differ from data/$name.jsonl" >&2; exit 1; }
  "$PYTHON" tests/bench/train/dump.py --kgrep target/eval/kgrep --dataset "$trees/$name.jsonl" \
    --corpus-root "$trees" --out "$OUT/$name-features.jsonl"
  "$PYTHON" tests/bench/train/fit.py --train "$OUT/$name-features.jsonl" \
    --repos tests/bench/train/data/repos.tsv --c 0.1 "$write_flag" "$rust"
}
# The question ranker was fitted on these doc questions until 2026-12-02; it is now
# fitted on real questions (make_real_question_model.sh). To compare, the doc
# questions' fit is still one command away:
if [ -n "${DOCQ_QUESTIONS:-}" ]; then
  make_one docq "${TREES:-/tmp/kgrep-docq}" "" --write-questions src/score/learned_questions.rs
fi
# The "what happens" ranker: from doc comments' failure clauses (gen_docq.py --happens).
make_one docqh "${HTREES:-/tmp/kgrep-docqh}" --happens --write-happens src/score/learned_happens.rs
