#!/usr/bin/env python3
"""Ranking and judge quality of kgrep on a query set, per repository.

    python3 tests/bench/rank_eval.py --dataset /tmp/kgrep-commits/commits240.jsonl
    python3 tests/bench/rank_eval.py --dataset ../shared/eval/devset/queries.jsonl \
        --corpus-root /tmp/kgrep-devset
    ... --kgrep /tmp/kgrep-before --json-out /tmp/before.json   # compare two builds
    ... --compare /tmp/before.json                              # per-query changes

Runs `kgrep -v -- QUERY .` offline (KGREP_LLM=off) in each query's corpus, parses
stdout with the shared scorer (../shared/eval/score.py: same file order, same
metrics) and reads the judge's verdict from the `-v` line `judge: … -> VERDICT`.
Reports per repository R@1, MRR, hit@10, median output tokens, the share of
queries judged sufficient and, of those, the share whose first file is a gold
file (the judge's precision). Two queries run at a time.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VERDICT_RE = re.compile(r"judge: .* -> (sufficient|needs synthesis|needs expansion|insufficient)")
CONFIDENCE_RE = re.compile(r"judge: coverage [0-9.]+, confidence ([0-9.]+)")


def load_scorer(shared: Path):
    sys.path.insert(0, str(shared / "eval"))
    import score  # noqa: E402  (the shared scorer, not ours)

    return score


def run(score, kgrep: str, row: dict, args) -> dict:
    corpus = score.corpus_for(row, args)
    env = dict(os.environ, KGREP_LLM="off")
    env.pop("KGREP_API_KEY", None)
    p = subprocess.run([kgrep, "-v", *args.extra, "--", row["query"], "."], cwd=corpus,
                       capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=120)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    ranked, printed = score.parse_output(out, corpus)
    gold = [os.path.normpath(g) for g in row["gold_files"]]
    ranks = sorted(ranked.index(g) + 1 for g in gold if g in ranked)
    m = VERDICT_RE.search(err)
    res = {
        "id": row.get("id") or row["query"],
        "group": row.get("repo") or row.get("corpus") or "",
        "query": row["query"],
        "rc": p.returncode,
        "gold": gold,
        "top": ranked[:10],
        "r1": sum(1 for r in ranks if r <= 1) / len(gold),
        "rr": 1.0 / ranks[0] if ranks else 0.0,
        "hit10": 1.0 if ranks and ranks[0] <= 10 else 0.0,
        "tokens": score.est_tokens(out),
        "verdict": m.group(1) if m else "none",
        "confidence": float(c.group(1)) if (c := CONFIDENCE_RE.search(err)) else None,
    }
    if row.get("gold_lines"):
        regions = [(os.path.normpath(f), a, b) for f, rs in row["gold_lines"].items() for a, b in rs]
        n_lines = sum(len(v) for v in printed.values())
        inside = sum(1 for f, ls in printed.items() for n in ls
                     if any(f == g and a <= n <= b for g, a, b in regions))
        res["region"] = sum(1 for g, a, b in regions
                            if any(a <= n <= b for n in printed.get(g, []))) / len(regions)
        res["precision"] = inside / n_lines if n_lines else 0.0
    return res


def summary(rows: list[dict]) -> dict:
    n = len(rows)
    suff = [r for r in rows if r["verdict"] == "sufficient"]
    out = {
        "n": n,
        "r1": sum(r["r1"] for r in rows) / n,
        "mrr": sum(r["rr"] for r in rows) / n,
        "hit10": sum(r["hit10"] for r in rows) / n,
        "tokens": statistics.median(r["tokens"] for r in rows),
        "sufficient": len(suff) / n,
        "judge_precision": (sum(1 for r in suff if r["rr"] == 1.0) / len(suff)) if suff else float("nan"),
    }
    if all("region" in r for r in rows):
        out["region"] = sum(r["region"] for r in rows) / n
        out["precision"] = sum(r["precision"] for r in rows) / n
    return out


def table(rows: list[dict], name: str) -> str:
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r["group"], []).append(r)
    lines_ = ["| set | n | R@1 | MRR | hit@10 | median tokens | sufficient | top-1 right when sufficient |",
              "|---|---|---|---|---|---|---|---|"]

    def fmt(label: str, s: dict) -> str:
        extra = f" (region {s['region']:.3f}, line precision {s['precision']:.3f})" if "region" in s else ""
        return (f"| {label} | {s['n']} | {s['r1']:.3f} | {s['mrr']:.3f} | {s['hit10']:.3f} | "
                f"{s['tokens']:.0f} | {s['sufficient']:.2f} | {s['judge_precision']:.2f} |{extra}")

    lines_.append(fmt(f"**{name}**", summary(rows)))
    for g in sorted(groups):
        lines_.append(fmt(g, summary(groups[g])))
    return "\n".join(lines_)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", required=True, type=Path)
    ap.add_argument("--kgrep", default=str(ROOT / "target/release/kgrep"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"), type=Path)
    ap.add_argument("--corpus-root", default="/")
    ap.add_argument("--mirrors", default=None)
    ap.add_argument("--cache", default=None)
    ap.add_argument("--name", default="kgrep")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--compare", type=Path, help="an earlier --json-out: list the queries whose rank changed")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("extra", nargs="*", help="more kgrep arguments (after --)")
    args = ap.parse_args()
    args.kgrep = os.path.abspath(args.kgrep)
    score = load_scorer(args.shared)
    sys.path.insert(0, str(args.shared / "eval" / "commits"))
    try:
        from gen_commits import DEFAULT_CACHE, DEFAULT_MIRRORS
    except ImportError:
        DEFAULT_CACHE, DEFAULT_MIRRORS = "/tmp/kgrep-commits", ""
    args.mirrors = args.mirrors or DEFAULT_MIRRORS
    args.cache = args.cache or DEFAULT_CACHE
    rows = score.load_dataset(args.dataset)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: run(score, args.kgrep, r, args), rows))
    print(table(results, args.name))
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=1))
    if args.compare:
        before = {r["id"]: r for r in json.loads(args.compare.read_text())}
        changed = [(before[r["id"]]["rr"], r["rr"], r) for r in results
                   if r["id"] in before and before[r["id"]]["rr"] != r["rr"]]
        better = sum(1 for b, a, _ in changed if a > b)
        print(f"\n{len(changed)} queries changed rank: {better} better, {len(changed) - better} worse")
        for b, a, r in sorted(changed, key=lambda x: x[1] - x[0]):
            print(f"  {b:.2f} -> {a:.2f}  {r['group']}: {r['query'][:70]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
