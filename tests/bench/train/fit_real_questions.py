#!/usr/bin/env python3
"""Would the question model gain from the real questions? Leave one question set out.

    cat tests/bench/questions/*.jsonl tests/bench/questions/*/*.jsonl > /tmp/allq.jsonl
    python3 tests/bench/train/dump.py --kgrep BIN --dataset /tmp/allq.jsonl --out /tmp/allq-features.jsonl
    PYTHON tests/bench/train/fit_real_questions.py --docq target/train/docq-features.jsonl \
        --real /tmp/allq-features.jsonl [--kinds where,how,loose] [--repeat 3] [--c 0.1]

For each set of tests/bench/questions, its questions of the given kinds are ranked by
the shipped question model (manifest-questions.json), by a refit on the doc questions,
and by a fit on the doc questions plus the other sets' real questions (each repeated
--repeat times; 0: the real questions alone), and first file right (R@1) is printed per
set and overall, with the hand order's.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import fit
import real_questions

HERE = Path(__file__).resolve().parent


def set_and_kind() -> dict[str, tuple[str, str]]:
    """Each question's set and kind, by id."""
    return {i: (name, q["kind"]) for i, (name, q) in real_questions.questions().items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docq", required=True)
    ap.add_argument("--real", required=True)
    ap.add_argument("--kinds", default="where,how,loose")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--c", type=float, default=0.1)
    args = ap.parse_args()
    names, docq = fit.load([args.docq])
    real_names, real = fit.load([args.real])
    if real_names != names:
        raise SystemExit("error: the two dumps' feature names differ")
    meta = set_and_kind()
    kinds = set(args.kinds.split(","))
    real = [q for q in real if meta[q["id"]][1] in kinds]
    manifest = json.loads((HERE / "manifest-questions.json").read_text())
    if manifest["names"] != names:
        raise SystemExit("error: the shipped model's features differ from the dump's")
    w, b = np.array(manifest["weights"]), manifest["bias"]
    refit = fit.Linear(c=args.c).fit(docq)
    cols = ["hand", "shipped", "refit", "mixed"]
    every: dict[str, list] = {c: [] for c in cols}
    print(f"{'set':9s} {'n':>4s} " + " ".join(f"{c:>7s}" for c in cols))
    for name in sorted({meta[q["id"]][0] for q in real}):
        test = [q for q in real if meta[q["id"]][0] == name]
        train = [q for q in real if meta[q["id"]][0] != name]
        base = docq if args.repeat > 0 else []
        mixed = fit.Linear(c=args.c).fit(base + train * max(args.repeat, 1))
        scores = {
            "hand": fit.hand_scores(test),
            "shipped": [q["X"] @ w + b for q in test],
            "refit": [refit.score(q) for q in test],
            "mixed": [mixed.score(q) for q in test],
        }
        for c in cols:
            every[c] += list(zip(test, scores[c]))
        print(f"{name:9s} {len(test):4d} "
              + " ".join(f"{fit.metrics(test, scores[c])['r1']:7.3f}" for c in cols))
    print(f"{'all':9s} {len(real):4d} " + " ".join(
        f"{fit.metrics([q for q, _ in every[c]], [s for _, s in every[c]])['r1']:7.3f}" for c in cols))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
