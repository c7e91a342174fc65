#!/usr/bin/env python3
"""When kgrep's first file is right but none of its printed lines is, could the words
have found the answer's lines?

    python3 tests/bench/train/line_visibility.py --grades GRADES.json [--sets thirtyfirst,thirtysecond]

GRADES is `grade.py --all --json-out`'s output (the first printed file and its lines for
each question). For each question whose first file is an answer file but not RIGHT (no
printed line within 2 lines of an answer range), it counts the question's words
(stemmed as `query::words` and `thesaurus::stem` do, through `../semantic/tok.py`; the
question's scaffolding, "where", "how does", "what happens", left out) on each line of the
answer's ranges in that file (±2 lines) and on each printed line. It prints only totals,
so a set kept untuned can be counted without reading a question:
- how many such questions have at most 0, 1 or 2+ query words on their best answer line,
  and whether that line is a comment;
- whether some printed line holds as many query words as that best answer line.

Answers whose best line holds at most one query word are beyond what choosing lines by
their words can find (tests/bench/train/README.md, "Checked on 2026-12-06"). Needs
`snowballstemmer` (the semantic README's venv) and the question sets' trees
(`grade.py --materialize-only`).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "questions"))
sys.path.insert(0, str(HERE.parent / "semantic"))
import grade  # noqa: E402
import tok  # noqa: E402

# The words that say what kind of question it is, not what it is about.
SCAFFOLDING = """where defined set configured registered how does decide find choose compute
what happens when fail fails missing invalid which tests test check checks tested code""".split()
COMMENT_OPENERS = ("//", "#", "/*", "*", '"""', "--")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grades", required=True, help="grade.py --all --json-out output")
    ap.add_argument("--sets", default="", help="comma-separated set names (default: every set)")
    ap.add_argument("--corpora", type=Path, default=Path("/tmp/kgrep-questions"))
    args = ap.parse_args()
    wanted = {s for s in args.sets.split(",") if s}
    grades = {r["id"]: r for r in json.loads(Path(args.grades).read_text())}
    scaffolding = {tok.stem(w) for w in SCAFFOLDING}
    counts: collections.Counter = collections.Counter()
    for name, folder in grade.set_folders():
        if wanted and name not in wanted:
            continue
        for q in grade.load_questions([], folder):
            g = grades.get(q["id"])
            if not g or not g["file_r1"] or g["grade"] == "RIGHT":
                continue
            words = set(tok.tokens(q["query"])) - scaffolding
            first = os.path.normpath(g["first"])
            path = args.corpora / q["set"] / first
            try:
                lines = path.read_text(errors="replace").split("\n")
            except OSError:
                print(f"note: {path} unreadable; left out", file=sys.stderr)
                continue

            def held(n: int) -> int:
                return len(words & set(tok.tokens(lines[n - 1]))) if 1 <= n <= len(lines) else 0

            best, comment = 0, False
            for a in q["answers"]:
                if os.path.normpath(a["path"]) != first:
                    continue
                lo, hi = a["lines"]
                for n in range(max(1, lo - grade.SLACK), min(len(lines), hi + grade.SLACK) + 1):
                    if held(n) > best:
                        best = held(n)
                        comment = lines[n - 1].strip().startswith(COMMENT_OPENERS)
            printed = max((held(n) for n in g["first_lines"]), default=0)
            counts[(
                f"answer line: {min(best, 2)}{'+' if best >= 2 else ''} query words",
                "comment" if comment else "code",
                "a printed line holds as many" if printed >= best else "every printed line holds fewer",
            )] += 1
    for key, n in sorted(counts.items()):
        print(f"{n:5}  " + ", ".join(key))
    print(f"{sum(counts.values()):5}  questions whose first file is right but not its lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
