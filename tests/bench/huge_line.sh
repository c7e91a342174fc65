#!/usr/bin/env bash
# A single line of SIZE_MB megabytes (default 200, issue 9's bad-input case),
# searched exactly and in natural language: exit code, time and peak memory.
#   bash tests/bench/huge_line.sh [SIZE_MB]
# Uses target/release/kgrep (cargo build --release) unless KGREP is set. Not
# part of CI: the 50 MB case in tests/cli/bad_input.rs is the assertion; this
# is the slow full-size run, for people. Files go to /dev/shm when it exists.
set -euo pipefail
SIZE_MB=${1:-200}
HERE=$(cd "$(dirname "$0")" && pwd)
KGREP=${KGREP:-$HERE/../../target/release/kgrep}
BASE=/tmp
[ -d /dev/shm ] && BASE=/dev/shm
DIR=$(mktemp -d "$BASE/kgrep-huge.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
head -c "$((SIZE_MB * 1024 * 1024))" /dev/zero | tr '\0' x >"$DIR/big.txt"
printf ' needle_here\n' >>"$DIR/big.txt"
printf 'needle_here too\n' >"$DIR/small.txt"
cd "$DIR"
for query in needle_here "where is the needle here"; do
  set +e
  /usr/bin/time -f "  %e s, peak RSS %M KB" "$KGREP" "$query" . >/dev/null 2>"$DIR/err"
  code=$?
  set -e
  echo "kgrep '$query' on a ${SIZE_MB} MB line: exit $code"
  grep -v '^kgrep: ' "$DIR/err" || true
done
