#!/usr/bin/env bash
# Parse speed of code units (src/units) per language, on real files.
#   bash tests/bench/units.sh [DIR...]
# DIR: checked-out repositories; default the question-set trees in
# /tmp/kgrep-questions (tests/bench/questions/README.md says how to fetch them),
# plus the cargo registry's sources for Rust and C. Every file of a known
# extension is parsed 5 times in one process (best time kept, extraction
# included) by examples/units.rs, built with the release profile. MB/s is
# bytes over summed best times on one thread, in CPU time and in wall time. Not part of CI: timings on a shared
# 2-core machine are for people, not for assertions.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
if [ $# -eq 0 ]; then
  set --
  [ -d /tmp/kgrep-questions ] && set -- /tmp/kgrep-questions
  for registry in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    [ -d "$registry" ] && set -- "$@" "$registry"
  done
fi
[ $# -gt 0 ] || { echo "units.sh: no folder to parse" >&2; exit 2; }
(cd "$ROOT" && cargo build --release --quiet --example units)
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/units
echo "dirs=$* cores=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg)"
find "$@" -type f \( -name '*.rs' -o -name '*.py' -o -name '*.pyi' -o -name '*.go' \
  -o -name '*.js' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.jsx' -o -name '*.ts' \
  -o -name '*.mts' -o -name '*.cts' -o -name '*.tsx' -o -name '*.java' -o -name '*.c' \
  -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.hpp' \
  -o -name '*.hh' -o -name '*.hxx' \) -not -path '*/node_modules/*' \
  | "$BIN" --runs 5
