#!/usr/bin/env python3
"""Does a learned order of a file's units beat the hand order? Fits and validates one.

    python3 tests/bench/train/fit_units.py --kgrep BIN                  # every question set
    python3 tests/bench/train/fit_units.py --kgrep BIN --extra /tmp/docq-q@/tmp/kgrep-docq

kgrep prints the answer file's best unit first (`score::unit`, a hand-weighted sum of
field scores). This asks whether a linear order over the units' features
(`score::unit_features`, printed by `kgrep --features` for the best 10 units of the
first 3 candidates) puts the answer's unit first more often.

For each question of the sets (grade.py's format; the trees under `--corpora`, as
grade.py unpacks them), each answer file among the first 3 candidates is a group: its
best `--top` units in the hand order, a unit labelled right when its defining line lies
within 2 lines of an answer range or it lies inside one. A softmax over each group's
units (numpy, L2, plain gradient descent, no randomness) is fitted with one question
set left out at a time; the left-out set's first-ranked answer files score: is the
hand order's first unit right, is the model's. `--extra DIR@CORPORA` adds questions
(e.g. gen_docq.py's) to every fold's training, never to a score; `--extra-only` trains
on them alone. Needs numpy (PYTHON of make_question_model.sh).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE.parent / "questions"
SLACK = 2


def question_sets() -> list[Path]:
    """The committed sets: the first (beside grade.py) and each folder under it."""
    return [QUESTIONS] + sorted(p for p in QUESTIONS.iterdir() if p.is_dir())


def load(folder: Path, name: str) -> list[dict]:
    rows = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.open():
            if line.strip():
                row = json.loads(line)
                row["tree"] = path.stem
                row["group_set"] = name
                rows.append(row)
    return rows


def features(kgrep: str, row: dict, corpora: Path) -> list[dict]:
    """The `--features` rows of the first candidates (those that carry units)."""
    if not (corpora / row["tree"]).is_dir():
        raise SystemExit(f"fit_units: no tree {corpora / row['tree']}: unpack it first "
                         "(tests/bench/questions/grade.py --materialize-only --questions DIR)")
    out = subprocess.run(
        [kgrep, "--features", "--", row["query"], "."],
        cwd=corpora / row["tree"], capture_output=True, text=True,
        env=dict(os.environ, KGREP_LLM="off"),
    ).stdout.splitlines()
    return [json.loads(line) for line in out[1:] if '"units":[{' in line]


def labelled(row: dict, cands: list[dict], top: int) -> list[dict]:
    ranges: dict[str, list[list[int]]] = {}
    for a in row["answers"]:
        ranges.setdefault(a["path"], []).append(a["lines"])
    groups = []
    for c in cands:
        if c["path"] not in ranges:
            continue
        units = c["units"][:top]
        y = [any(a - SLACK <= u["def"] <= b + SLACK or (u["start"] >= a and u["end"] <= b)
                 for a, b in ranges[c["path"]]) for u in units]
        groups.append({"set": row["group_set"], "id": row["id"], "rank": c["rank"],
                       "x": np.array([u["f"] for u in units]), "y": np.array(y)})
    return groups


def fit(groups: list[dict], l2: float, iters: int) -> tuple:
    data = [g for g in groups if g["y"].any() and len(g["y"]) > 1]
    x = np.vstack([g["x"] for g in data])
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1.0
    w = np.zeros(x.shape[1])
    for _ in range(iters):
        grad = np.zeros_like(w)
        for g in data:
            z = (g["x"] - mu) / sd
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            grad += z.T @ (p - g["y"] / g["y"].sum())
        w -= 0.5 * (grad / len(data) + l2 * w)
    return w, mu, sd


def first_right(groups: list[dict], model) -> int:
    hits = 0
    for g in groups:
        i = 0
        if model is not None:
            w, mu, sd = model
            i = int(np.argmax(((g["x"] - mu) / sd) @ w))  # a tie keeps the hand order
        hits += bool(g["y"][i])
    return hits


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kgrep", required=True)
    ap.add_argument("--corpora", default="/tmp/kgrep-questions", type=Path)
    ap.add_argument("--extra", action="append", default=[], help="DIR@CORPORA: training only")
    ap.add_argument("--extra-only", action="store_true", help="train on --extra alone")
    ap.add_argument("--top", type=int, default=8, help="units of a group, in the hand order")
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--iters", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if os.sep in args.kgrep:
        args.kgrep = str(Path(args.kgrep).resolve())

    def collect(rows: list[dict], corpora: Path) -> list[dict]:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            found = ex.map(lambda r: labelled(r, features(args.kgrep, r, corpora), args.top), rows)
            return [g for gs in found for g in gs]

    sets = [(p.name if p != QUESTIONS else "first", p) for p in question_sets()]
    groups = collect([r for name, p in sets for r in load(p, name)], args.corpora)
    extra = []
    for spec in args.extra:
        folder, _, corpora = spec.partition("@")
        extra += collect(load(Path(folder), "extra"), Path(corpora or args.corpora))
    print(f"fit_units: {len(groups)} answer files among the first 3 "
          f"({sum(g['y'].any() for g in groups)} with a labelled unit); extra {len(extra)}")
    print("| set | first-ranked answer files | hand: first unit right | learned |")
    print("|---|---|---|---|")
    total = [0, 0, 0]
    only_extra = fit(extra, args.l2, args.iters) if args.extra_only else None
    for name, _ in sets:
        test = [g for g in groups if g["set"] == name and g["rank"] == 0]
        if only_extra is None:
            train = [g for g in groups if g["set"] != name] + extra
            model = fit(train, args.l2, args.iters)
        else:
            model = only_extra
        row = [len(test), first_right(test, None), first_right(test, model)]
        total = [a + b for a, b in zip(total, row)]
        print(f"| {name} | {row[0]} | {row[1]} | {row[2]} |")
    print(f"| **all** | {total[0]} | {total[1]} | {total[2]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
