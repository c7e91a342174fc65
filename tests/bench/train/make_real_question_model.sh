#!/bin/bash
# Remakes the learned question ranker (src/score/learned_questions.rs and
# tests/bench/train/manifest-questions.json) from the real questions of
# tests/bench/questions, then refits the question judge on its order
# (src/judge/question_model.rs, manifest-question-judge.json).
#
# The ranker is fitted on the where, how and loose questions of the sets the
# ranking was tuned on, the first set left out (real_questions.py); every other
# set is its check, printed as fit.py's report and kept in the manifest, never
# fitted on. The dump ranks by hand (--features), so the data does not depend
# on the model it trains.
#
# Needs: the question sets' git mirrors (the fetch tool, github:owner/name, into
# ../.mirror beside the checkout, or KGREP_EVAL_MIRRORS), and a Python with numpy
# and scikit-learn (PYTHON). About 5 minutes on 2 cores once the trees are
# unpacked (grade.py unpacks them into /tmp/kgrep-questions on first use).
set -euo pipefail
cd "$(dirname "$0")/../../.."
PYTHON=${PYTHON:-python3}
OUT=${OUT:-target/train}
mkdir -p "$OUT"
cargo build --profile eval
"$PYTHON" tests/bench/questions/grade.py --all --materialize-only
cat tests/bench/questions/*.jsonl tests/bench/questions/*/*.jsonl > "$OUT/questions.jsonl"
"$PYTHON" tests/bench/train/dump.py --kgrep target/eval/kgrep --dataset "$OUT/questions.jsonl" \
  --out "$OUT/questions-features.jsonl"
"$PYTHON" tests/bench/train/real_questions.py --features "$OUT/questions-features.jsonl" \
  --train "$OUT/realq-train.jsonl" --check "$OUT/realq-check.jsonl" --repos "$OUT/realq-repos.tsv"
"$PYTHON" tests/bench/train/fit.py --train "$OUT/realq-train.jsonl" --report "$OUT/realq-check.jsonl" \
  --repos "$OUT/realq-repos.tsv" --c 0.1 --write-real-questions src/score/learned_questions.rs
# The question judge reads the new order's margins: fitted again on it.
cargo build --profile eval
"$PYTHON" tests/bench/train/fit_question_judge.py --kgrep target/eval/kgrep --write
