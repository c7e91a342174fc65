#!/usr/bin/env python3
"""Fit kgrep's file ranker on dumped features, validated across repositories.

    python3 tests/bench/train/fit.py --train FEATURES.jsonl [...] [--report FEATURES.jsonl ...]
        [--model linear|lgbm] [--write src/score/learned.rs]

FEATURES come from tests/bench/train/dump.py. Validation is leave-repositories-out:
the queries are split into folds by repository (`group`), never by query, and each fold
is scored by a model fitted on the others. Reported per fold, per language (when the
rows name one) and overall: R@1 (share of a query's gold files ranked first, as
tests/bench/rank_eval.py counts it), MRR and hit@5 over the candidates, for the
hand-tuned order (`rank`) and the fitted model. `--report` sets are scored by the model
fitted on all of --train (they must never be in --train). `--write` writes the model
fitted on all of --train as Rust source with its manifest (what it was trained on, its
validation figures).

Models: `linear` is a pairwise logistic regression (each gold candidate against each
other candidate of its query, each query weighing the same) over standardized features;
`lgbm` is LightGBM's lambdarank. Both use a fixed seed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

SEED = 31


def load(paths: list[str]) -> tuple[list[str], list[dict]]:
    names: list[str] | None = None
    queries = []
    for p in paths:
        with open(p) as f:
            for line in f:
                if not line.strip():
                    continue
                q = json.loads(line)
                if names is None:
                    names = q["names"]
                elif q["names"] != names:
                    raise SystemExit(f"error: {p}: feature names differ from the first file's")
                if not q["cands"]:
                    continue
                gold = set(q["gold"])
                q["X"] = np.array([c["f"] for c in q["cands"]], dtype=float)
                q["y"] = np.array([1.0 if c["path"] in gold else 0.0 for c in q["cands"]])
                queries.append(q)
    return names or [], queries


def metrics(queries: list[dict], scores: list[np.ndarray]) -> dict:
    r1 = rr = hit5 = 0.0
    for q, s in zip(queries, scores):
        order = np.lexsort((np.arange(len(s)), -s))
        ranks = [i + 1 for i, j in enumerate(order) if q["y"][j] > 0]
        r1 += sum(1 for r in ranks if r <= 1) / max(1, len(q["gold"]))
        rr += 1.0 / ranks[0] if ranks else 0.0
        hit5 += 1.0 if ranks and ranks[0] <= 5 else 0.0
    n = max(1, len(queries))
    return {"n": len(queries), "r1": r1 / n, "mrr": rr / n, "hit5": hit5 / n}


def hand_scores(queries: list[dict]) -> list[np.ndarray]:
    return [-np.array([c["rank"] for c in q["cands"]], dtype=float) for q in queries]


class Linear:
    """Pairwise logistic regression on standardized features."""

    def __init__(self, c: float = 1.0, max_negatives: int = 20):
        self.c = c
        self.max_negatives = max_negatives

    def fit(self, queries: list[dict]) -> "Linear":
        from sklearn.linear_model import LogisticRegression

        allx = np.vstack([q["X"] for q in queries])
        self.mean = allx.mean(axis=0)
        self.std = allx.std(axis=0)
        self.std[self.std < 1e-9] = 1.0
        diffs, weights = [], []
        for q in queries:
            x = (q["X"] - self.mean) / self.std
            pos = np.where(q["y"] > 0)[0]
            neg = [j for j in np.argsort([c["rank"] for c in q["cands"]]) if q["y"][j] == 0]
            neg = neg[: self.max_negatives]
            if len(pos) == 0 or not neg:
                continue
            w = 1.0 / (len(pos) * len(neg))
            for i in pos:
                for j in neg:
                    diffs.append(x[i] - x[j])
                    weights.append(w)
        d = np.array(diffs)
        xs = np.vstack([d, -d])
        ys = np.concatenate([np.ones(len(d)), np.zeros(len(d))])
        ws = np.concatenate([weights, weights])
        model = LogisticRegression(C=self.c, fit_intercept=False, max_iter=2000, random_state=SEED)
        model.fit(xs, ys, sample_weight=ws)
        # Back to raw features: score = sum(coef * (x - mean) / std).
        self.coef = model.coef_[0] / self.std
        self.bias = -float(np.dot(self.coef, self.mean))
        return self

    def score(self, q: dict) -> np.ndarray:
        return q["X"] @ self.coef + self.bias


class Lgbm:
    """LightGBM lambdarank."""

    def __init__(self, rounds: int = 200, leaves: int = 15):
        self.rounds = rounds
        self.leaves = leaves

    def fit(self, queries: list[dict]) -> "Lgbm":
        import lightgbm as lgb

        x = np.vstack([q["X"] for q in queries])
        y = np.concatenate([q["y"] for q in queries])
        group = [len(q["cands"]) for q in queries]
        self.model = lgb.LGBMRanker(
            objective="lambdarank", n_estimators=self.rounds, num_leaves=self.leaves,
            learning_rate=0.05, min_child_samples=20, subsample=0.8, subsample_freq=1,
            colsample_bytree=0.8, random_state=SEED, deterministic=True, force_row_wise=True,
            verbose=-1, lambdarank_truncation_level=10,
        )
        self.model.fit(x, y, group=group)
        return self

    def score(self, q: dict) -> np.ndarray:
        return self.model.predict(q["X"])


def make(kind: str, args) -> object:
    return Linear(c=args.c) if kind == "linear" else Lgbm(rounds=args.rounds, leaves=args.leaves)


def folds_of(queries: list[dict], k: int) -> list[list[str]]:
    """Repositories split into k folds of about equal query counts (deterministic)."""
    counts: dict[str, int] = defaultdict(int)
    for q in queries:
        counts[q["group"]] += 1
    folds: list[list[str]] = [[] for _ in range(k)]
    sizes = [0] * k
    for group in sorted(counts, key=lambda g: (-counts[g], hashlib.sha256(g.encode()).hexdigest())):
        i = sizes.index(min(sizes))
        folds[i].append(group)
        sizes[i] += counts[group]
    return folds


def fmt(m: dict) -> str:
    return f"n {m['n']:5d}  R@1 {m['r1']:.3f}  MRR {m['mrr']:.3f}  hit@5 {m['hit5']:.3f}"


def cross_validate(queries: list[dict], kind: str, args) -> tuple[dict, dict, list[str]]:
    lines = []
    all_q, all_model, all_hand = [], [], []
    for i, groups in enumerate(folds_of(queries, args.folds)):
        test = [q for q in queries if q["group"] in groups]
        train = [q for q in queries if q["group"] not in groups]
        model = make(kind, args).fit(train)
        scores = [model.score(q) for q in test]
        hand = hand_scores(test)
        lines.append(f"fold {i}: hand {fmt(metrics(test, hand))} | {kind} {fmt(metrics(test, scores))}"
                     f"   ({', '.join(sorted(groups))})")
        all_q += test
        all_model += scores
        all_hand += hand
    if getattr(args, "languages", None):
        by_lang: dict[str, list[int]] = defaultdict(list)
        for i, q in enumerate(all_q):
            by_lang[args.languages.get(q["group"], "?")].append(i)
        for lang, idx in sorted(by_lang.items()):
            pick = lambda xs: [xs[i] for i in idx]  # noqa: E731
            lines.append(f"language {lang:10s}: hand {fmt(metrics(pick(all_q), pick(all_hand)))} | "
                         f"{kind} {fmt(metrics(pick(all_q), pick(all_model)))}")
    return metrics(all_q, all_hand), metrics(all_q, all_model), lines


# The judge: a logistic model of "the first file is right" over what the
# learned ranking leaves a query (its scores' margins, a few facts of its first
# file). The same names and order as `judge_features` in src/score/learned.rs.
JUDGE_NAMES = ["margin_second", "margin_third", "top_score", "coverage", "unit_coverage",
               "query_slots", "rel_hand_score", "first_rank_recip", "candidates"]
# A margin is capped: past it, a lead is a lead.
MARGIN_CAP = 5.0
# The share of sufficient verdicts whose first file is right that the threshold aims for.
JUDGE_PRECISION = 0.85


def judge_features(q: dict, s: np.ndarray, names: list[str]) -> np.ndarray:
    order = np.lexsort((np.arange(len(s)), -s))
    top = s[order[0]]
    nxt = [s[order[i]] if len(order) > i else top - MARGIN_CAP for i in (1, 2)]
    f = q["X"][order[0]]
    at = {n: i for i, n in enumerate(names)}
    return np.array([
        min(top - nxt[0], MARGIN_CAP), min(top - nxt[1], MARGIN_CAP), top,
        f[at["coverage"]], f[at["unit_coverage"]], f[at["query_slots"]],
        f[at["rel_hand_score"]], f[at["first_rank_recip"]], math.log(1 + len(s)),
    ])


def top_right(q: dict, s: np.ndarray) -> float:
    order = np.lexsort((np.arange(len(s)), -s))
    return float(q["y"][order[0]] > 0)


def threshold_for(p: np.ndarray, right: np.ndarray, precision: float) -> float:
    """The lowest probability threshold whose sufficient share keeps `precision`."""
    best = 1.0
    for t in sorted(set(np.round(p, 3)), reverse=True):
        sel = p >= t
        if sel.sum() >= 20 and right[sel].mean() >= precision:
            best = float(t)
    return best


def fit_judge(labelled: list[dict], everything: list[dict], args) -> tuple[dict, str]:
    """Fits the judge on out-of-fold ranker scores (each query scored by a
    ranker that never saw its repository), over every query (one with no gold
    candidate is a query whose first file is wrong), and validates it across
    the same folds."""
    from sklearn.linear_model import LogisticRegression

    names = args.names
    rows, ys, groups = [], [], []
    for groups_out in folds_of(labelled, args.folds):
        train = [q for q in labelled if q["group"] not in groups_out]
        ranker = make("linear", args).fit(train)
        for q in everything:
            if q["group"] in groups_out:
                s = ranker.score(q)
                rows.append(judge_features(q, s, names))
                ys.append(top_right(q, s))
                groups.append(q["group"])
    x, y = np.array(rows), np.array(ys)
    oof = np.zeros(len(y))
    for groups_out in folds_of(labelled, args.folds):
        test = np.array([g in groups_out for g in groups])
        m = LogisticRegression(C=1.0, max_iter=2000, random_state=SEED).fit(x[~test], y[~test])
        oof[test] = m.predict_proba(x[test])[:, 1]
    threshold = threshold_for(oof, y, JUDGE_PRECISION)
    sel = oof >= threshold
    final = LogisticRegression(C=1.0, max_iter=2000, random_state=SEED).fit(x, y)
    report = (f"judge (cross-validated, {len(y)} queries): threshold {threshold:.3f}, "
              f"sufficient {sel.mean():.3f}, first file right when sufficient "
              f"{(y[sel].mean() if sel.any() else float('nan')):.3f}, overall right {y.mean():.3f}")
    order = np.argsort(-oof)
    for share in (0.3, 0.4, 0.5):
        top = order[: int(round(share * len(y)))]
        report += f"\n  judged sufficient {share:.0%}: first file right {y[top].mean():.3f} (threshold {oof[top[-1]]:.3f})"
    return {
        "names": JUDGE_NAMES,
        "weights": [float(w) for w in final.coef_[0]],
        "intercept": float(final.intercept_[0]),
        "threshold": threshold,
        "validation": {"queries": int(len(y)), "sufficient": float(sel.mean()),
                       "precision": float(y[sel].mean()) if sel.any() else None},
    }, report


def read_repos(path: str | None) -> dict[str, dict]:
    """repos.tsv of the training data: each repository's pinned tip and language."""
    out: dict[str, dict] = {}
    if path:
        with open(path) as f:
            for row in f.read().splitlines()[1:]:
                cols = row.split("\t")
                if len(cols) >= 3:
                    out[cols[0]] = {"tip": cols[1], "language": cols[2]}
    return out


def rust_floats(xs) -> str:
    return ",\n".join(f"    {float(x)!r}" for x in xs)


def ranker_source(names, ranker) -> str:
    """The Rust constants of a linear ranker: its feature names, weights and bias."""
    n = len(names)
    return f"""/// The features the ranker weighs, in `score::features::NAMES` order.
pub(super) const NAMES: [&str; {n}] = [
{chr(10).join(f'    "{x}",' for x in names)}
];

/// A candidate's learned score: `BIAS` plus each feature times its weight.
pub(super) const WEIGHTS: [f64; {n}] = [
{rust_floats(ranker.coef)},
];

pub(super) const BIAS: f64 = {float(ranker.bias)!r};
"""


def write_rust(path: str, src: str) -> None:
    """Writes a generated Rust file, formatted."""
    import subprocess

    with open(path, "w") as f:
        f.write(src)
    subprocess.run(["rustfmt", "--edition", "2021", path], check=False)


def manifest_of(args, generated, names, ranker, labelled, hand, model, lines, **extra) -> dict:
    """A generated model's manifest: what it was trained on (repositories at
    their tips, query counts, a digest of the features), how it validated and
    its weights; `extra` entries follow `model` (`data`) or the end (`judge`)."""
    per_repo: dict[str, int] = defaultdict(int)
    for q in labelled:
        per_repo[q["group"]] += 1
    tips = read_repos(args.repos)
    digest = hashlib.sha256()
    for path in args.train:
        with open(path, "rb") as f:
            digest.update(f.read())
    manifest = {
        "generated": generated,
        "command": "python3 tests/bench/train/fit.py " + " ".join(sys.argv[1:]),
        "model": "pairwise logistic regression (linear), C=%s, seed %d" % (args.c, SEED),
        **({"data": extra.pop("data")} if "data" in extra else {}),
        "features_sha256": digest.hexdigest(),
        "queries": len(labelled),
        "repositories": [{"repo": r, "queries": n, **tips.get(r, {})} for r, n in sorted(per_repo.items())],
        "validation": {
            "folds": args.folds,
            "grouping": "leave repositories out",
            "hand": hand, "learned": model, "per_fold": lines,
        },
        "names": names,
        "weights": [float(w) for w in ranker.coef],
        "bias": float(ranker.bias),
        **extra,
    }
    return manifest


def write_model(args, names, ranker, judge, labelled, hand, model, lines) -> None:
    """Writes the generated Rust file and its manifest (next to it in
    tests/bench/train/manifest.json)."""
    manifest = manifest_of(args, args.write, names, ranker, labelled, hand, model, lines, judge=judge)
    manifest_path = Path(args.write).parents[2] / "tests/bench/train/manifest.json"
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    k = len(judge["names"])
    src = f"""//! The learned file ranker and judge: generated by `tests/bench/train/fit.py`
//! (do not edit; `tests/bench/train/README.md` says how to remake it). What
//! it was trained on and how it validated is in `tests/bench/train/manifest.json`:
//! {len(labelled)} commit queries from {len(manifest['repositories'])} repositories, validated leaving
//! repositories out (R@1 {hand['r1']:.3f} by hand, {model['r1']:.3f} learned).

{ranker_source(names, ranker)}
/// The judge's features (`score::learned::judge_features`).
pub(super) const JUDGE_NAMES: [&str; {k}] = [
{chr(10).join(f'    "{x}",' for x in judge['names'])}
];

/// The judge's logistic model: the probability that the first file is right.
pub(super) const JUDGE_WEIGHTS: [f64; {k}] = [
{rust_floats(judge['weights'])},
];

pub(super) const JUDGE_INTERCEPT: f64 = {judge['intercept']!r};

/// The probability from which the first file is trusted: on the validation
/// folds, {judge['validation']['sufficient']:.2f} of the queries reach it and the first file is
/// right for {judge['validation']['precision'] or 0:.2f} of those.
pub(super) const SUFFICIENT_AT: f64 = {judge['threshold']!r};

/// A judge margin is capped at this: past it, a lead is a lead.
pub(super) const MARGIN_CAP: f64 = {MARGIN_CAP!r};
"""
    write_rust(args.write, src)
    print(f"wrote {args.write} and {manifest_path}")


# The rankers written without a judge: their flag, manifest, what they were
# fitted on, and how the generated file names them.
RANKERS = {
    "questions": ("--write-questions", "manifest-questions.json",
                  "doc-comment questions (tests/bench/train/data/gen_docq.py), the comment masked",
                  "The learned file ranker for questions",
                  "questions made from doc comments (the comment masked)"),
    "real-questions": ("--write-real-questions", "manifest-questions.json",
                       "real questions with answer files, written by reading the code: the "
                       "where, how and loose questions of the question sets the ranking was "
                       "tuned on, but the first (tests/bench/train/real_questions.py)",
                       "The learned file ranker for questions",
                       "real questions of the tuned question sets"),
    "happens": ("--write-happens", "manifest-happens.json",
                "'what happens if' questions from doc comments' failure clauses "
                "(tests/bench/train/data/gen_docq.py --happens), the comment masked",
                "The learned file ranker for \"what happens\" questions",
                "\"what happens if\" questions made from doc comments' failure clauses"),
}


def write_ranker(args, kind, path, names, ranker, labelled, hand, model, lines, reports) -> None:
    """Writes a ranker without a judge (`RANKERS`): the generated Rust file and
    its manifest (tests/bench/train/manifest-KIND.json), with the figures of
    each --report set (`reports`), which the fit never read."""
    flag, manifest_name, data, title, fitted_on = RANKERS[kind]
    extra = {"reports": reports} if reports else {}
    manifest = manifest_of(args, path, names, ranker, labelled, hand, model, lines, data=data, **extra)
    manifest_path = Path(path).parents[2] / "tests/bench/train" / manifest_name
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    src = f"""//! {title}: generated by `tests/bench/train/fit.py
//! {flag}` (do not edit; `tests/bench/train/README.md` says how to remake
//! it). Fitted on {len(labelled)} {fitted_on}
//! in {len(manifest['repositories'])} repositories; what they were and how it validated is in
//! `tests/bench/train/{manifest_name}` (leaving repositories out: R@1
//! {hand['r1']:.3f} by hand, {model['r1']:.3f} learned).

{ranker_source(names, ranker)}"""
    write_rust(path, src)
    print(f"wrote {path} and {manifest_path}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", action="append", required=True)
    ap.add_argument("--report", action="append", default=[])
    ap.add_argument("--model", choices=["linear", "lgbm"], default="linear")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--c", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--leaves", type=int, default=15)
    ap.add_argument("--drop", action="append", default=[], help="leave this feature out (repeatable)")
    ap.add_argument("--write", help="write the fitted model as this Rust file (and the manifest)")
    ap.add_argument("--write-questions",
                    help="write the model fitted on all of --train as the question ranker (this Rust file)")
    ap.add_argument("--write-real-questions",
                    help="write the model fitted on all of --train as the question ranker "
                    "(this Rust file), fitted on the real questions (real_questions.py)")
    ap.add_argument("--write-happens",
                    help="write the model fitted on all of --train as the ranker of "
                    "'what happens' questions (this Rust file)")
    ap.add_argument("--repos", help="repos.tsv of the training data: each repository's tip and language")
    args = ap.parse_args()

    names, queries = load(args.train)
    keep = np.array([n not in args.drop for n in names])
    unknown = set(args.drop) - set(names)
    if unknown:
        raise SystemExit(f"error: no such feature: {', '.join(sorted(unknown))}")

    def masked(qs):
        for q in qs:
            q["X"] = q["X"][:, keep]
        return qs

    queries = masked(queries)
    names = [n for n, k in zip(names, keep) if k]
    args.names = names
    args.languages = {repo: r["language"] for repo, r in read_repos(args.repos).items()}
    labelled = [q for q in queries if q["y"].sum() > 0]
    print(f"train: {len(queries)} queries from {len({q['group'] for q in queries})} repositories; "
          f"{len(labelled)} with a gold file among the candidates")
    hand, model, lines = cross_validate(labelled, args.model, args)
    print("\n".join(lines))
    print(f"cross-validated: hand {fmt(hand)} | {args.model} {fmt(model)}")
    final = make(args.model, args).fit(labelled)
    reports = []
    for path in args.report:
        _, rq = load([path])
        rq = masked(rq)
        by_hand, learned = metrics(rq, hand_scores(rq)), metrics(rq, [final.score(q) for q in rq])
        print(f"report {path}: hand {fmt(by_hand)} | {args.model} {fmt(learned)}")
        reports.append({"set": Path(path).name, "hand": by_hand, "learned": learned})
    if args.model == "linear":
        order = np.argsort(-np.abs(final.coef * np.vstack([q["X"] for q in labelled]).std(axis=0)))
        print("largest standardized weights:")
        for i in order[:20]:
            print(f"  {names[i]:24s} {final.coef[i]:+.4f}")
    for kind, path in (("questions", args.write_questions), ("real-questions", args.write_real_questions),
                       ("happens", args.write_happens)):
        if path:
            if args.model != "linear" or args.drop:
                raise SystemExit(f"error: {RANKERS[kind][0]} needs the linear model over every feature")
            write_ranker(args, kind, path, names, final, labelled, hand, model, lines, reports)
    if args.write:
        if args.model != "linear" or args.drop:
            raise SystemExit("error: --write needs the linear model over every feature")
        judge, judge_report = fit_judge(labelled, queries, args)
        print(judge_report)
        write_model(args, names, final, judge, labelled, hand, model, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
