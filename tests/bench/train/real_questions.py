#!/usr/bin/env python3
"""Splits a `dump.py` dump of the question sets into the question ranker's training
and check data.

    python3 tests/bench/train/real_questions.py --features ALL.jsonl \
        --train TRAIN.jsonl --check CHECK.jsonl --repos REPOS.tsv

The question ranker (`src/score/learned_questions.rs`) orders the candidates of a
question that the learned question model ranks: a where, how or loose question
(`kind` of tests/bench/questions; "what happens" questions have a model of their own,
and a question asking for tests keeps the hand order). TRAIN gets those of the sets the
ranking was tuned on (`grade.TUNED_SETS`), except the first set: that one is issue
"Answers, not mentions"'s own question set, and its figure stays out of the fit. CHECK
gets those of every other set (the untuned ones), which no fit reads: their figure is
the held-out one. Rows keep dump.py's format, so fit.py reads both. REPOS lists each
question repository at the commit its questions were asked at, with its language, in
data/repos.tsv's columns (fit.py --repos records them in the manifest).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "questions"))
import grade  # noqa: E402  (the sets and their folders)

KINDS = {"where", "how", "loose"}
LEFT_OUT = {"first"}


def questions() -> dict[str, tuple[str, dict]]:
    """Each question's set and row, by id."""
    return {q["id"]: (name, q) for name, folder in grade.set_folders()
            for q in grade.load_questions([], folder)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--features", required=True, help="dump.py's output over every question set")
    ap.add_argument("--train", required=True)
    ap.add_argument("--check", required=True)
    ap.add_argument("--repos", required=True)
    args = ap.parse_args()
    meta = questions()
    tuned = set(grade.TUNED_SETS) - LEFT_OUT
    counts = {"train": 0, "check": 0, "other": 0}
    with open(args.train, "w") as train, open(args.check, "w") as check:
        for line in Path(args.features).read_text().splitlines():
            row = json.loads(line)
            if row["id"] not in meta:
                raise SystemExit(f"error: {row['id']} is in no question set")
            name, q = meta[row["id"]]
            kind = q["kind"]
            if kind not in KINDS or name in LEFT_OUT:
                counts["other"] += 1
            elif name in tuned:
                train.write(line + "\n")
                counts["train"] += 1
            else:
                check.write(line + "\n")
                counts["check"] += 1
    tips = sorted({(q["repo"], q["commit"], q.get("lang", "")) for _, q in meta.values()})
    with open(args.repos, "w") as f:
        f.write("repo\ttip\tlanguage\text\n")
        for repo, commit, lang in tips:
            f.write(f"{repo}\t{commit}\t{lang}\t\n")
    print(f"real_questions: {counts['train']} to train, {counts['check']} to check, "
          f"{counts['other']} left out", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
