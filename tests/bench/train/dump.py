#!/usr/bin/env python3
"""Dump kgrep's ranking features for a query set: one JSON object per query.

    python3 tests/bench/train/dump.py --kgrep BIN --dataset ROWS.jsonl --out FEATURES.jsonl \
        [--corpus-root DIR] [--cache DIR] [--clean] [--jobs 2]

ROWS may be commit-localization rows (`repo`, `parent`, `gold_files`; trees come from the
git mirrors through ../shared/eval/commits/gen_commits.py), question rows of
tests/bench/questions (`repo`, `commit`, `answers`) or dev-set rows (`corpus`,
`gold_files`, read under --corpus-root). kgrep runs offline as `kgrep --features -- QUERY .`
in each tree; each output row is

    {"id", "group", "query", "gold": [paths], "names": [feature names],
     "cands": [{"path", "rank", "f": [...]}, ...]}

with `group` the repository (leave-repositories-out validation groups by it). Trees are
materialized tree by tree; `--clean` deletes each commit tree once its queries are done,
so thousands of queries fit on a small disk. A query whose tree cannot be made is skipped
with a line on stderr.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SHARED = ROOT.parent / "shared"


def mirrors_default() -> str:
    return os.environ.get("KGREP_EVAL_MIRRORS", str(ROOT.parent / ".mirror"))


def tree_of(row: dict, args) -> tuple[Path, bool]:
    """The row's corpus and whether it is a temporary tree `--clean` may delete."""
    if "corpus" in row:
        return Path(args.corpus_root) / row["corpus"], False
    if "answers" in row:  # a question: the tree grade.py unpacks
        sys.path.insert(0, str(ROOT / "tests/bench/questions"))
        import grade  # noqa: E402

        row = dict(row, set=row.get("set") or row["id"].rsplit("-", 1)[0])
        return grade.materialize(row, Path(args.questions_corpora), Path(args.mirrors)), False
    sys.path.insert(0, str(SHARED / "eval/commits"))
    from gen_commits import materialize  # noqa: E402

    return materialize(row["repo"], row["parent"], args.mirrors, args.cache), True


def gold_of(row: dict) -> list[str]:
    if "answers" in row:
        return sorted({os.path.normpath(a["path"]) for a in row["answers"]})
    return [os.path.normpath(g) for g in row["gold_files"]]


def run(kgrep: str, row: dict, tree: Path) -> dict | None:
    env = dict(os.environ, KGREP_LLM="off")
    env.pop("KGREP_API_KEY", None)
    p = subprocess.run([kgrep, "--features", "--", row["query"], "."], cwd=tree,
                       capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=300)
    lines = p.stdout.decode("utf-8", "replace").splitlines()
    if p.returncode not in (0, 1) or not lines:
        print(f"dump: {row.get('id')}: kgrep exited {p.returncode}: "
              f"{p.stderr.decode('utf-8', 'replace')[-200:]}", file=sys.stderr)
        return None
    names = json.loads(lines[0])["names"]
    cands = [json.loads(l) for l in lines[1:]]
    return {
        "id": row.get("id") or row["query"],
        "group": row.get("repo") or row.get("corpus") or "",
        "query": row["query"],
        "gold": gold_of(row),
        "names": names,
        "cands": [{"path": os.path.normpath(c["path"]), "rank": c["rank"], "f": c["f"]} for c in cands],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kgrep", required=True)
    ap.add_argument("--dataset", action="append", required=True, help="rows (repeatable)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus-root", default="/tmp/kgrep-devset")
    ap.add_argument("--questions-corpora", default="/tmp/kgrep-questions")
    ap.add_argument("--mirrors", default=mirrors_default())
    ap.add_argument("--cache", default="/tmp/kgrep-train-trees")
    ap.add_argument("--clean", action="store_true", help="delete each commit tree once used")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.kgrep = os.path.abspath(args.kgrep)

    rows = []
    for ds in args.dataset:
        with open(ds) as f:
            rows += [json.loads(l) for l in f if l.strip()]
    by_tree: OrderedDict[tuple, list[dict]] = OrderedDict()
    for row in rows:
        key = (row.get("corpus"), row.get("repo"), row.get("parent") or row.get("commit"))
        by_tree.setdefault(key, []).append(row)
    def one_tree(item):
        key, group = item
        try:
            tree, temporary = tree_of(group[0], args)
        except (subprocess.CalledProcessError, SystemExit, OSError) as e:
            print(f"dump: no tree for {key}: {e}", file=sys.stderr)
            return []
        try:
            return [res for res in (run(args.kgrep, r, tree) for r in group) if res is not None]
        finally:
            if args.clean and temporary:
                shutil.rmtree(tree, ignore_errors=True)

    done = 0
    # Trees in parallel: unpacking one costs more than the queries run in it.
    with open(args.out, "w") as out, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for results in pool.map(one_tree, by_tree.items()):
            for res in results:
                out.write(json.dumps(res) + "\n")
                done += 1
            out.flush()
    print(f"dump: {done} of {len(rows)} queries written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
