#!/usr/bin/env bash
# Planted files kgrep reads for itself (issue 27 item 3): /dev/zero and a FIFO
# as the project thesaurus, the learned store, kgrep's config and rlmgrep's
# config, and as a named --thesaurus: exit code, wall time and peak RSS of
# each run. The bar: every run ends in under 2 s with at most 64 MB RSS.
#   bash tests/bench/planted_files.sh
# Uses target/release/kgrep (cargo build --release) unless KGREP is set. A run
# still going after LIMIT seconds (default 30) is killed and reported as a
# hang. Not part of CI: tests/cli/planted_files.rs asserts that each run ends
# and warns; this measures. Unix only (mkfifo, /usr/bin/time).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KGREP=${KGREP:-$HERE/../../target/release/kgrep}
LIMIT=${LIMIT:-30}
BASE=$(mktemp -d /tmp/kgrep-planted.XXXXXX)
trap 'rm -rf "$BASE"' EXIT

plant() { # KIND PATH
  mkdir -p "$(dirname "$2")"
  case $1 in
    dev-zero) ln -s /dev/zero "$2" ;;
    fifo) mkfifo "$2" ;;
  esac
}

printf '%-10s %-22s %5s %8s %10s\n' kind place exit seconds "peak RSS"
for kind in dev-zero fifo; do
  for place in project-thesaurus learned-store kgrep-config rlmgrep-config named-thesaurus; do
    dir="$BASE/$kind-$place"
    mkdir -p "$dir/p/.git" "$dir/h"
    printf 'def retry_delay(attempt):\n    return 2 ** attempt\n' >"$dir/p/retry.py"
    args=()
    case $place in
      project-thesaurus) plant "$kind" "$dir/p/.kgrep/thesaurus.json" ;;
      learned-store) plant "$kind" "$dir/h/.local/share/kgrep/thesaurus.json" ;;
      kgrep-config) plant "$kind" "$dir/h/.config/kgrep/config.toml" ;;
      rlmgrep-config) plant "$kind" "$dir/h/.rlmgrep/config.toml" ;;
      named-thesaurus) plant "$kind" "$dir/named.json"; args=(--thesaurus "$dir/named.json") ;;
    esac
    set +e
    (cd "$dir/p" && HOME="$dir/h" KGREP_LLM=off timeout -s KILL "$LIMIT" \
      /usr/bin/time -f '%e %M' -o "$dir/time" "$KGREP" "${args[@]}" "retry delay" . \
      >/dev/null 2>"$dir/err")
    code=$?
    set -e
    if [ "$code" = 137 ]; then
      printf '%-10s %-22s %5s %8s %10s\n' "$kind" "$place" hang ">$LIMIT" "?"
    else
      read -r secs rss < <(tail -n 1 "$dir/time")
      printf '%-10s %-22s %5s %8s %7s KB\n' "$kind" "$place" "$code" "$secs" "$rss"
    fi
  done
done
