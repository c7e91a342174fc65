#!/usr/bin/env python3
"""Would a file-order rule on the files' best units put the answer first more often?

    python3 tests/bench/train/unit_rule_check.py --kgrep BIN [--ratios 1.6,1.8,2,2.2,2.5]

Simulates, on kgrep's own rankings, the rule `score::rerank::stronger_unit_first` ships:
for a how or what-happens question, the second file goes first when its best unit, a
named function of a parsed file, scores more than RATIO times the first file's best
unit. For each question of the sets the ranking was tuned on (`grade.TUNED_SETS`; tests
asked for left out), it reads the first ten files of `kgrep -v` (offline) and their three
best units with their scores, applies the rule, and prints first file right per RATIO,
with how many questions it turned right and wrong.

Run on a build without the rule (before 4b271e2) it gives the table of the train
README ("A far stronger unit"); on a build with it, the rule has already been applied,
and the figures say whether it would still move anything. The kinds are the sets'
(`kind`), not kgrep's reading of the question. The trees are the question sets'
(`grade.py --materialize-only`). About a minute on 2 cores.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "questions"))
import grade  # noqa: E402

UNIT = re.compile(r"^kgrep:   unit (\S+) (\S+) lines \d+-\d+ \(def \d+\) = .* = (\S+)$")
# The question kinds the rule is for (how, and the sets' two names of "what happens").
KINDS = {"how", "happens", "what happens", "fails"}
# Paths of documents, whose units are the line heuristics' and never a function.
DOCUMENT = re.compile(r"\.(md|mdx|rst|txt|adoc|html?)$|(^|/)docs?/")


def ranking(stderr: str) -> list[dict]:
    files: list[dict] = []
    for line in stderr.splitlines():
        if m := grade.VERBOSE_RANK_RE.match(line):
            files.append({"path": m.group(2), "learned": m.group(1) is not None, "units": []})
        elif (m := UNIT.match(line)) and files:
            files[-1]["units"].append({"kind": m.group(1), "name": m.group(2),
                                       "total": float(m.group(3))})
    return files


def best(f: dict) -> float:
    return max((u["total"] for u in f["units"]), default=0.0)


def moves(files: list[dict], ratio: float) -> bool:
    if len(files) < 2 or not (files[0]["learned"] and files[1]["learned"]):
        return False
    units = files[1]["units"]
    return (bool(units) and units[0]["kind"] in ("function", "method") and units[0]["name"] != "-"
            and not DOCUMENT.search(files[1]["path"]) and best(files[1]) > ratio * best(files[0]))


def main() -> int:
    ap = grade.check_parser(__doc__)
    ap.add_argument("--ratios", default="1.6,1.8,2,2.2,2.5")
    args = ap.parse_args()
    rows = grade.tuned_questions()
    rankings = [ranking(err) for err in grade.verbose_runs(args.kgrep, rows, args.corpora)]
    print(f"{len(rows)} questions of the tuned sets (tests asked for left out)")
    for ratio in (float(r) for r in args.ratios.split(",")):
        outcomes = []
        for row, files in zip(rows, rankings):
            gold = {a["path"] for a in row["answers"]}
            before = bool(files) and files[0]["path"] in gold
            after = before
            if row["kind"] in KINDS and moves(files, ratio):
                after = files[1]["path"] in gold
            outcomes.append((before, after))
        print(grade.first_file_tally(f"ratio {ratio}", outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
