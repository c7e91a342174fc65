#!/usr/bin/env bash
# kgrep on a document-heavy tree: COUNT generated PDFs of 20 pages (~40 lines
# each), made by examples/make_documents.rs, in one hyperfine run.
#   bash tests/bench/documents.sh [COUNT] [RUNS]
# Needs hyperfine (apt-get install hyperfine). Not part of CI: timings on a
# shared 2-core machine are for people, not for assertions.
set -euo pipefail
COUNT=${1:-200}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${KGREP_BENCH_DIR:-/tmp/kgrep-bench-docs-$COUNT}
cd "$ROOT"
cargo build --release --quiet
if [ ! -d "$DIR" ]; then
  cargo run --release --quiet --example make_documents -- --bench "$COUNT" "$DIR"
fi
KGREP=$ROOT/target/release/kgrep
echo "tree=$DIR pdfs=$(find "$DIR" -name '*.pdf' | wc -l) bytes=$(du -sb "$DIR" | cut -f1) cores=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --warmup 1 --runs "$RUNS" --ignore-failure \
  -n 'kgrep literal "connection pool"' "$KGREP '\"connection pool\"' $DIR" \
  -n 'kgrep regex "refund.*supplier"' "$KGREP 'refund.*supplier' $DIR" \
  -n 'kgrep natural language' "$KGREP 'where is the connection pool size configured' $DIR" \
  --export-markdown /tmp/kgrep-bench-docs.md
echo "peak RSS:"
/usr/bin/time -f "  kgrep natural language: %M KB, %e s" "$KGREP" "where is the connection pool size configured" "$DIR" >/dev/null 2>/tmp/kgrep-bench-rss.txt || true
tail -1 /tmp/kgrep-bench-rss.txt
