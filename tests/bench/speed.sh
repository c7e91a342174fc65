#!/usr/bin/env bash
# kgrep against ripgrep on one corpus, warm cache, in one hyperfine run.
#   bash tests/bench/speed.sh CORPUS [RUNS]
# CORPUS: e.g. the kernel tree from ../shared/bench/get_linux_corpus.sh.
# Needs hyperfine and rg (apt-get install hyperfine ripgrep) and a release build
# (cargo build --release). Not part of CI: timings on a shared 2-core machine
# are for people, not for assertions.
set -euo pipefail
CORPUS=${1:?corpus dir}
RUNS=${2:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
KGREP=${KGREP:-$HERE/../../target/release/kgrep}
KGREP=$(cd "$(dirname "$KGREP")" && pwd)/$(basename "$KGREP")
cd "$CORPUS"
echo "corpus=$CORPUS files=$(rg --files | wc -l) cores=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg)"
rg -c zzzz_warm_zzzz >/dev/null || true
rg -c zzzz_warm_zzzz >/dev/null || true
# Each natural-language query is paired with rg over the patterns kgrep's matcher
# searches for it (stems, and the y-form of stems ending in i); kgrep then checks
# word boundaries and ranks, rg -l just lists files.
hyperfine -N --warmup 2 --runs "$RUNS" --ignore-failure \
  -n 'rg -i -l retry|retri|backoff|timeout' "rg -i -l retry|retri|backoff|timeout" \
  -n 'kgrep "retry backoff timeout"' "$KGREP 'retry backoff timeout' ." \
  -n 'rg -i -l connect|connection|pool|size' "rg -i -l connect|connection|pool|size" \
  -n 'kgrep "where is the connection pool size configured"' "$KGREP 'where is the connection pool size configured' ." \
  -n 'rg -l MAX_RETRIES (literal)' "rg -l MAX_RETRIES" \
  -n 'kgrep MAX_RETRIES (literal)' "$KGREP MAX_RETRIES ." \
  --export-markdown /tmp/kgrep-speed.md
echo "peak RSS:"
/usr/bin/time -f "  kgrep NL query: %M KB, %e s" "$KGREP" "where is the connection pool size configured" . >/dev/null 2>/tmp/kgrep-rss.txt || true
tail -1 /tmp/kgrep-rss.txt
/usr/bin/time -f "  rg -i -l: %M KB, %e s" rg -i -l 'connect|connection|pool|size' >/dev/null 2>/tmp/kgrep-rss.txt || true
tail -1 /tmp/kgrep-rss.txt
