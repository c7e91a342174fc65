#!/usr/bin/env python3
"""Which words do the questions use where their answers' code uses other words?

    python3 tests/bench/train/vocab_gaps.py [--skip-sets thirtyfirst,thirtysecond] [--min-repos 3] [--top 250]

For every question of the sets (those named by --skip-sets left out, so a set kept untuned
is never read), the question's words (stemmed as `query::words` and `thesaurus::stem` do,
through `../semantic/tok.py`; its scaffolding, "where", "how does", "what happens", left
out) are compared with the words of its answer's lines. Each pair (a question word the
answer lacks, a word of the answer the question lacks) is counted once a repository; the
pairs found in at least --min-repos repositories are printed, ranked by lift (how much
likelier the answer word is after that question word than in any answer) times the log of
the repositories:

    REPOS LIFT question-stem -> answer-stem (questions holding the question stem, answers holding the answer stem)

Read the list for true synonyms the thesaurus lacks (`src/thesaurus/builtin.txt`); most
pairs are words that happen to sit near answers. Run on 2026-12-06, the top 250 held no
true synonym the thesaurus lacked (tests/bench/train/README.md). Needs `snowballstemmer`
and the question sets' trees (`grade.py --materialize-only`).
"""
from __future__ import annotations

import argparse
import collections
import math
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "questions"))
sys.path.insert(0, str(HERE.parent / "semantic"))
sys.path.insert(0, str(HERE))
import grade  # noqa: E402
import line_visibility  # noqa: E402
import tok  # noqa: E402

# The question's scaffolding (`line_visibility.SCAFFOLDING`) and the verbs every kind of
# question uses, which would pair with every answer.
SCAFFOLDING = line_visibility.SCAFFOLDING + """times get gets given used use uses handled handle
make makes""".split()


def answer_words(corpora: Path, q: dict) -> set[str]:
    words: set[str] = set()
    for a in q["answers"]:
        path = corpora / q["set"] / a["path"]
        try:
            lines = path.read_text(errors="replace").split("\n")
        except OSError:
            continue
        lo, hi = a["lines"]
        words |= set(tok.tokens("\n".join(lines[lo - 1:hi])))
    return words


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-sets", default="thirtyfirst,thirtysecond",
                    help="comma-separated sets never read (default: the untuned newest)")
    ap.add_argument("--min-repos", type=int, default=3)
    ap.add_argument("--top", type=int, default=250)
    ap.add_argument("--corpora", type=Path, default=Path("/tmp/kgrep-questions"))
    args = ap.parse_args()
    skip = {s for s in args.skip_sets.split(",") if s}
    scaffolding = {tok.stem(w) for w in SCAFFOLDING}
    pairs: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    in_questions: collections.Counter = collections.Counter()
    in_answers: collections.Counter = collections.Counter()
    answered = 0
    for name, folder in grade.set_folders():
        if name in skip:
            continue
        for q in grade.load_questions([], folder):
            asked = set(tok.tokens(q["query"])) - scaffolding
            found = answer_words(args.corpora, q)
            if not found:
                continue
            answered += 1
            in_questions.update(asked)
            in_answers.update(found)
            for w in asked - found:
                for t in found - asked:
                    pairs[(w, t)].add(q["repo"])
    rows = []
    for (w, t), repos in pairs.items():
        if len(repos) < args.min_repos:
            continue
        lift = len(repos) / in_questions[w] / (in_answers[t] / answered)
        rows.append((lift * math.log(len(repos)), len(repos), lift, w, t))
    rows.sort(reverse=True)
    for _, n, lift, w, t in rows[:args.top]:
        print(f"{n} {lift:.1f} {w} -> {t} (q {in_questions[w]}, a {in_answers[t]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
