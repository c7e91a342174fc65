#!/usr/bin/env bash
# Files of many lines and many units (a generated table of statements, a long
# module of small functions), searched in natural language and exactly:
# time and peak memory at 25,000 to LINES lines (default 200,000), so a cost
# that grows with the square of the file shows as a time that quadruples when
# the file doubles. Session 42 found the line selection at 13.5 s for 100,000
# lines of statements (every unit sorted all the file's lines); now 0.08 s.
#   bash tests/bench/many_lines.sh [LINES]
# Uses target/release/kgrep (cargo build --release) unless KGREP is set. Not
# part of CI: timings on a shared machine are for people, not assertions.
set -euo pipefail
LINES=${1:-200000}
HERE=$(cd "$(dirname "$0")" && pwd)
KGREP=${KGREP:-$HERE/../../target/release/kgrep}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 - "$DIR" "$LINES" <<'EOF'
import os, random, sys
out, lines = sys.argv[1], int(sys.argv[2])
random.seed(1)
words = "alpha beta gamma delta parse token config value error handler request buffer".split()
n = 25000
while n <= lines:
    os.makedirs(f"{out}/py{n}")
    with open(f"{out}/py{n}/table.py", "w") as f:
        for i in range(n):
            f.write(f"x{i} = {random.choice(words)}_{random.choice(words)}({i})\n")
    # n/8 lines, four a function: parsed up to 100,000 (under 128 KB,
    # `rank::natural`), ranked by line patterns above.
    os.makedirs(f"{out}/rs{n}")
    with open(f"{out}/rs{n}/lib.rs", "w") as f:
        for i in range(n // 32):
            a, b = random.choice(words), random.choice(words)
            f.write(f"fn {a}_{b}_{i}(x: u32) -> u32 {{\n    let y = {b}(x);\n    y + {i}\n}}\n")
    n *= 2
EOF
cd "$DIR"
for d in $(ls -d py* rs* | sort -V); do
  for args in "where is the config parsed" "--max-lines=0|config value" "--explain|how are errors handled" "-n|config_parse"; do
    IFS='|' read -r -a argv <<<"$args"
    /usr/bin/time -f "%e s, peak RSS %M KB" -o "$DIR/time" "$KGREP" "${argv[@]}" "$d" >/dev/null 2>&1 || true
    printf '%-8s %-40s %s\n' "$d" "${args//|/ }" "$(cat "$DIR/time")"
  done
done
