#!/usr/bin/env bash
# kgrep's model client against the real local model: one expansion and one
# selection request per protocol (chat completions, Anthropic Messages, and
# Responses with its fallback), reporting tokens and seconds. Not part of CI:
# the model is slow on a shared 2-core machine.
#
#   bash tests/bench/llm_smoke.sh [QUERY]
#
# Starts ../shared/llm/llm-server.sh (one thread, port KGREP_LLM_PORT, default
# 8097) unless a server already answers there, and stops it again only if this
# script started it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SERVER=${LLM_SERVER:-$ROOT/../shared/llm/llm-server.sh}
export KGREP_LLM_PORT=${KGREP_LLM_PORT:-8097}
export KGREP_LLM_THREADS=${KGREP_LLM_THREADS:-1}
BASE="http://127.0.0.1:$KGREP_LLM_PORT/v1"
QUERY=${1:-where is the retry delay computed}

started=0
if ! curl -fsS --max-time 2 "http://127.0.0.1:$KGREP_LLM_PORT/health" >/dev/null 2>&1; then
  "$SERVER" start
  started=1
fi
cleanup() { if [ "$started" = 1 ]; then "$SERVER" stop || true; fi; }
trap cleanup EXIT

cd "$ROOT"
cargo build --release --example llm_smoke
BIN=$ROOT/target/release/examples/llm_smoke
echo "== chat completions"
"$BIN" --api-base "$BASE" --model qwen2.5-coder-1.5b-instruct --query "$QUERY"
echo "== anthropic messages"
"$BIN" --api-base "$BASE" --model anthropic/qwen2.5-coder-1.5b-instruct --query "$QUERY"
echo "== responses (falls back to chat if the server has no /v1/responses)"
"$BIN" --api-base "$BASE" --model qwen2.5-coder-1.5b-instruct --model-type responses --query "$QUERY"
