#!/usr/bin/env python3
"""Would pseudo-relevance feedback reorder a question's files for the better?

    python3 tests/bench/train/feedback_check.py --kgrep BIN [--alphas 0,0.1,0.25,0.5,1]

A check of an idea, not a part of kgrep (the answer, at 9856a87's ranking: no; see
README.md, "Checked and not kept: rules for questions, and feedback"). For each question
of the sets the ranking was tuned on (`grade.TUNED_SETS`; tests asked for left out),
kgrep's ten first files in its final order are read off `kgrep -v` (offline), and:

1. from the lines of its first three files (weights 1, 0.7, 0.5) that hold a query
   term, the identifier parts that are not query terms and not keywords are counted;
   the 8 with the highest weighted count times their idf over the whole tree are the
   feedback words;
2. each of the ten files scores the feedback words it holds (idf times a saturated
   count), and the files are reordered by the z-score of their place in kgrep's order
   plus ALPHA times the z-score of that score.

It prints, per ALPHA, the questions whose first file is right, and how many the
reordering turned right and wrong. ALPHA 0 is kgrep's own order. The trees are the
question sets' (`grade.py --materialize-only` unpacks them). About five minutes on 2
cores.
"""
from __future__ import annotations

import collections
import functools
import math
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "questions"))
import grade  # noqa: E402

# Words of code that say nothing of what it is about: keywords and the most common
# names of every language.
KEYWORDS = set(
    "def return self this const let var func function public private protected static void "
    "int string str if else elif for while new null none true false import from class struct "
    "err nil bool byte char long float double package module use pub impl mut fn match case "
    "switch break continue try catch except finally throw throws raise async await yield with "
    "as in is not and or the of to a an be it that type interface extends implements super "
    "final override default value values get set data args kwargs ctx options opts result res "
    "val key name item list map dict array object error errors len size".split()
)
PARTS = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[a-z]+")
TERMS = re.compile(r"\(([^)]*)\)")
FILES_WEIGHTS = (1.0, 0.7, 0.5)
FEEDBACK_WORDS = 8


def parts(line: str) -> list[str]:
    return [p.lower() for p in PARTS.findall(line)]


@functools.lru_cache(maxsize=None)
def read(path: str) -> tuple[str, ...]:
    try:
        with open(path, "rb") as f:
            data = f.read(512 * 1024)
    except OSError:
        return ()
    if b"\0" in data[:8192]:
        return ()
    return tuple(data.decode("utf-8", "replace").splitlines())


@functools.lru_cache(maxsize=None)
def document_frequency(root: str) -> tuple[collections.Counter, int]:
    df: collections.Counter = collections.Counter()
    files = 0
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [s for s in subfolders if not s.startswith(".")
                         and s not in ("node_modules", "vendor", "target")]
        for name in names:
            lines = read(os.path.join(folder, name))
            if lines:
                files += 1
                df.update({p for line in lines for p in parts(line)})
    return df, files


def is_term(part: str, stems: list[str]) -> bool:
    return any(len(s) >= 3 and (part.startswith(s) or (len(part) >= 4 and s.startswith(part)))
               for s in stems)


def zscores(xs: list[float]) -> list[float]:
    mean = sum(xs) / len(xs)
    sd = (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5
    return [(x - mean) / sd if sd > 0 else 0.0 for x in xs]


def ranking(row: dict, stderr: str, tree: Path) -> dict:
    stems, files = [], []
    for line in stderr.splitlines():
        if line.startswith("kgrep: query: natural language, terms: "):
            stems = TERMS.findall(line)
        elif m := grade.VERBOSE_RANK_RE.match(line):
            files.append(m.group(2))
    return {"gold": {a["path"] for a in row["answers"]}, "stems": stems, "files": files,
            "tree": str(tree)}


def feedback_scores(q: dict) -> list[float]:
    df, n = document_frequency(q["tree"])

    def idf(p: str) -> float:
        return math.log(1 + n / (1 + df.get(p, 0)))

    counted: collections.Counter = collections.Counter()
    for weight, path in zip(FILES_WEIGHTS, q["files"]):
        for line in read(os.path.join(q["tree"], path)):
            ps = parts(line)
            if any(is_term(p, q["stems"]) for p in ps):
                counted.update({p: weight for p in set(ps)
                                if len(p) >= 3 and p not in KEYWORDS
                                and not is_term(p, q["stems"])})
    words = sorted(counted, key=lambda p: -counted[p] * idf(p))[:FEEDBACK_WORDS]
    scores = []
    for path in q["files"]:
        tf = collections.Counter(p for line in read(os.path.join(q["tree"], path))
                                 for p in parts(line) if p in words)
        scores.append(sum(idf(p) * tf[p] / (tf[p] + 1.2) for p in words))
    return scores


def main() -> int:
    ap = grade.check_parser(__doc__)
    ap.add_argument("--alphas", default="0,0.1,0.25,0.5,1")
    args = ap.parse_args()
    rows = grade.tuned_questions()
    stderrs = grade.verbose_runs(args.kgrep, rows, args.corpora)
    queries = [ranking(row, err, args.corpora / row["set"]) for row, err in zip(rows, stderrs)]
    for q in queries:
        q["feedback"] = feedback_scores(q) if len(q["files"]) > 1 else []
    print(f"{len(queries)} questions of the tuned sets (tests asked for left out)")
    for alpha in (float(a) for a in args.alphas.split(",")):
        outcomes = []
        for q in queries:
            files = q["files"]
            before = bool(files) and files[0] in q["gold"]
            after = before
            if len(files) > 1:
                key = [a + alpha * b for a, b in
                       zip(zscores([-float(i) for i in range(len(files))]), zscores(q["feedback"]))]
                first = min(range(len(files)), key=lambda i: (-key[i], i))
                after = files[first] in q["gold"]
            outcomes.append((before, after))
        print(grade.first_file_tally(f"alpha {alpha}", outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
