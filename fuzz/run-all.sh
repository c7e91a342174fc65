#!/usr/bin/env bash
# Runs every fuzz target in turn, one process each, SECONDS_PER_TARGET seconds
# (default 600), and appends a summary line per target to fuzz/results.txt.
# Build first: RUSTC_BOOTSTRAP=1 cargo fuzz build -s none -O
set -uo pipefail
cd "$(dirname "$0")"
secs=${SECONDS_PER_TARGET:-600}
bin=${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release
targets=${TARGETS:-"llm_reply query_classify query_analyze signature_spec config thesaurus_json thesaurus_text units_parse"}
mkdir -p logs artifacts
for t in $targets; do
  mkdir -p "corpus/$t" "artifacts/$t"
  nice -n 10 "$bin/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="artifacts/$t/" \
    "corpus/$t" "seeds/$t" >"logs/$t.log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$')
  crashes=$(ls "artifacts/$t" | wc -l)
  echo "$t rc=$rc execs=${execs:-?} artifacts=$crashes secs=$secs" >>results.txt
done
