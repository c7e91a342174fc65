#!/usr/bin/env bash
# kgrep against ripgrep on one corpus, warm cache, in one hyperfine run.
#   bash tests/bench/speed.sh CORPUS [RUNS]
# CORPUS: e.g. the kernel tree from ../shared/bench/get_linux_corpus.sh.
# Needs hyperfine and rg (apt-get install hyperfine ripgrep) and a release build
# (cargo build --release --bins --examples). Not part of CI: timings on a shared 2-core machine
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
# The rg side of each pair searches the same term set kgrep's matcher searches for
# the query: every stem of the query words and their thesaurus synonyms, as
# `kgrep -v` lists them (plus the y-form of stems ending in i). kgrep then checks
# word boundaries, ranks and selects lines; rg -i -l only lists files.
rg_pattern() {
  KGREP_LLM=off "$KGREP" -v "$1" . 2>&1 >/dev/null \
    | sed -n 's/^kgrep: query: natural language, terms: //p' \
    | grep -o '([^)]*)' | tr -d '()' \
    | awk '{print} /i$/ {print substr($0, 1, length($0)-1) "y"}' \
    | sort -u | paste -sd'|'
}
Q1="retry backoff timeout"
Q2="where is the connection pool size configured"
P1=$(rg_pattern "$Q1")
P2=$(rg_pattern "$Q2")
echo "rg pattern for '$Q1': $P1"
echo "rg pattern for '$Q2': $P2"
EMPTY=$(mktemp -d)
hyperfine -N --warmup 2 --runs "$RUNS" --ignore-failure \
  -n "rg -i -l (terms of '$Q1')" "rg -i -l $P1" \
  -n "kgrep '$Q1'" "$KGREP '$Q1' ." \
  -n "rg -i -l (terms of '$Q2')" "rg -i -l $P2" \
  -n "kgrep '$Q2'" "$KGREP '$Q2' ." \
  -n 'rg -l MAX_RETRIES (literal)' "rg -l MAX_RETRIES" \
  -n 'kgrep MAX_RETRIES (literal)' "$KGREP MAX_RETRIES ." \
  --export-markdown /tmp/kgrep-speed.md
echo "start-up (embedded thesaurus and its automaton built, an empty folder searched):"
hyperfine -N --warmup 5 --runs 50 --ignore-failure \
  -n "kgrep '$Q2' EMPTY" "$KGREP '$Q2' $EMPTY" \
  -n "rg -i -l $P2 EMPTY" "rg -i -l $P2 $EMPTY" \
  --export-markdown /tmp/kgrep-startup.md
rmdir "$EMPTY"
echo "start-up in-process (thesaurus loaded, query expanded, automata built; no process, no walk):"
STARTUP=$HERE/../../target/release/examples/startup
if [ -x "$STARTUP" ]; then
  "$STARTUP" 200 "$Q2"
else
  echo "  (build it first: cargo build --release --example startup)"
fi
echo "peak RSS:"
/usr/bin/time -f "  kgrep '$Q2': %M KB, %e s" "$KGREP" "$Q2" . >/dev/null 2>/tmp/kgrep-rss.txt || true
tail -1 /tmp/kgrep-rss.txt
/usr/bin/time -f "  rg -i -l (same terms): %M KB, %e s" rg -i -l "$P2" >/dev/null 2>/tmp/kgrep-rss.txt || true
tail -1 /tmp/kgrep-rss.txt
