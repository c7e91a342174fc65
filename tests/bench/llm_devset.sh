#!/usr/bin/env bash
# The dev set with and without the real local model (issue 4's bar): R@1, MRR,
# model calls per query, tokens and seconds. Not part of CI: a 1.5B model on a
# shared 2-core machine takes minutes.
#
#   bash tests/bench/llm_devset.sh [LABEL]
#
# Needs the dev-set corpora (../shared/eval/devset/get_corpus.sh) and a release
# build. Starts ../shared/llm/llm-server.sh (KGREP_LLM_THREADS=1) unless a
# server answers on KGREP_LLM_PORT (default 8088). Each kgrep run appends its
# `-v` model line to $OUT/calls-LABEL.log; the learned thesaurus goes to
# $OUT/data (XDG_DATA_HOME), so runs can be repeated to measure learning.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
LABEL=${1:-model}
OUT=${OUT:-/tmp/kgrep-llm-devset}
CORPORA=${CORPORA:-/tmp/kgrep-devset}
DATASET=${DATASET:-$SHARED/eval/devset/queries.jsonl}
export KGREP_LLM_PORT=${KGREP_LLM_PORT:-8088}
export KGREP_LLM_THREADS=${KGREP_LLM_THREADS:-1}
KGREP=${KGREP:-$ROOT/target/release/kgrep}
mkdir -p "$OUT/data" "$OUT/config/kgrep"
# A 1.5B model on one shared core reads ~15 prompt tokens a second: give each
# request time (config llm_timeout) instead of abandoning it.
# Sampling at temperature 0 (LLM_TEMPERATURE) so that a second run differs
# from the first by what was learned, not by sampling noise.
printf 'llm_timeout = %s\ntemperature = %s\n' "${LLM_TIMEOUT:-1800}" "${LLM_TEMPERATURE:-0.0}" \
  >"$OUT/config/kgrep/config.toml"
if ! curl -fsS --max-time 2 "http://127.0.0.1:$KGREP_LLM_PORT/health" >/dev/null 2>&1; then
  "$SHARED/llm/llm-server.sh" start
fi
WRAP="$OUT/kgrep-logged"
cat >"$WRAP" <<WRAPPER
#!/usr/bin/env bash
# kgrep -v with the model; stdout as is, the model line to the log.
err=\$(mktemp)
XDG_CONFIG_HOME="$OUT/config" XDG_DATA_HOME="$OUT/data" KGREP_LLM=\${KGREP_LLM:-auto} "$KGREP" -v \\
  --model openai/qwen2.5-coder-1.5b-instruct --api-base "http://127.0.0.1:$KGREP_LLM_PORT/v1" \\
  "\$@" 2>"\$err"
code=\$?
line=\$(grep -E '^kgrep: model: ([0-9]+ call|not consulted|none)' "\$err" | tail -1)
warn=\$(grep -E '^kgrep: warning' "\$err" | head -1)
printf '%s\t%s\t%s\n' "\$1" "\${line:-kgrep: model: no line}" "\$warn" >>"$OUT/calls-$LABEL.log"
rm -f "\$err"
exit \$code
WRAPPER
chmod +x "$WRAP"
: >"$OUT/calls-$LABEL.log"
python3 "$SHARED/eval/score.py" --dataset "$DATASET" --corpus-root "$CORPORA" \
  --timeout 600 --name "kgrep+$LABEL" --json-out "$OUT/score-$LABEL.json" \
  --cmd "$WRAP {query} ."
python3 - "$OUT/calls-$LABEL.log" <<'PY'
import re, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
calls = prompt = completion = 0
called = 0
for q, line, warn in rows:
    m = re.search(r"(\d+) call\(s\), (\d+) prompt \+ (\d+) completion", line)
    if m:
        c, p, o = map(int, m.groups())
        calls += c; prompt += p; completion += o; called += c > 0
n = len(rows)
print(f"queries {n}, queries that called the model {called}, calls {calls} "
      f"({calls / max(n, 1):.2f}/query), prompt tokens {prompt}, completion tokens {completion}")
PY
