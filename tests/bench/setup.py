#!/usr/bin/env python3
"""Brings a fresh machine's evaluation data back: which git mirrors are missing, then
every corpus the eval scripts read.

    python3 tests/bench/setup.py                 # list the mirrors still to fetch; exit 1 if any
    python3 tests/bench/setup.py --prepare       # then unpack the corpora (needs every mirror)
    python3 tests/bench/setup.py --with train,heldout,semantic   # more mirror lists

A new machine keeps neither `/tmp` nor the mirrors. The mirrors come only through the
fetch tool (`github:owner/name`, into `.mirror` beside the checkout, or
KGREP_EVAL_MIRRORS), which a script cannot call: this lists the missing ones, one
`github:owner/name` a line (also written to `--list`, default
/tmp/kgrep-fetch.txt, to hand to helpers in batches). The lists are read from where
each set keeps them, never copied here:

- `questions`: every question set's repositories (`questions/grade.py`'s sets);
- `commits`: the shared commit set's eight (`gen_commits.py`'s `DEFAULT_REPOS`);
- `heldout`: `heldout_commits.sh`'s six;
- `train`: the learned ranker's training repositories (`train/data/repos.tsv`);
- `semantic`: the semantic experiment's (`semantic/repos.tsv`).

The default is `questions,commits`: what the question, dev and commit figures of a
ranking change need. `--prepare` then runs, each skipping what is already there:
`get_corpus.sh` (the dev set, from the package registries, /tmp/kgrep-devset),
`gen_commits.py --materialize` (/tmp/kgrep-commits) and `grade.py --all
--materialize-only` (/tmp/kgrep-questions). Building kgrep (`cargo build --release`,
`cargo build --profile eval`) and the Python packages of `train/` are not its job.
"""
from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE / "questions"))
import grade  # noqa: E402  (the question sets and the mirrors' root)

LISTS = ("questions", "commits", "heldout", "train", "semantic")


def shared_dir() -> Path:
    return ROOT.parent / "shared"


def question_repos() -> list[str]:
    return [q["repo"] for _, folder in grade.set_folders() for q in grade.load_questions([], folder)]


def commit_repos() -> list[str]:
    path = shared_dir() / "eval" / "commits" / "gen_commits.py"
    spec = importlib.util.spec_from_file_location("gen_commits", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"error: cannot read {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return [r.split("@")[0] for r in module.DEFAULT_REPOS]


def heldout_repos() -> list[str]:
    text = (HERE / "heldout_commits.sh").read_text()
    block = re.search(r"^REPOS=\((.*?)^\)", text, re.S | re.M)
    if not block:
        raise SystemExit("error: heldout_commits.sh has no REPOS=( … ) list")
    return re.findall(r"^\s*([\w.-]+/[\w.-]+)@", block.group(1), re.M)


def tsv_repos(path: Path) -> list[str]:
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip()]
    return [r[0] for r in rows]


def wanted(lists: list[str]) -> list[str]:
    readers = {
        "questions": question_repos,
        "commits": commit_repos,
        "heldout": heldout_repos,
        "train": lambda: tsv_repos(HERE / "train" / "data" / "repos.tsv"),
        "semantic": lambda: tsv_repos(HERE / "semantic" / "repos.tsv"),
    }
    seen: dict[str, None] = {}
    for name in lists:
        for repo in readers[name]():
            seen.setdefault(repo, None)
    return list(seen)


def has_mirror(mirrors: Path, repo: str) -> bool:
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    return (git_dir / "HEAD").is_file() and (git_dir / "objects").is_dir()


def run(cmd: list[str]) -> None:
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, check=True)


def prepare() -> None:
    shared = shared_dir()
    run(["bash", str(shared / "eval" / "devset" / "get_corpus.sh"), "/tmp/kgrep-devset"])
    if not Path("/tmp/kgrep-commits/commits.jsonl").is_file():
        run([sys.executable, str(shared / "eval" / "commits" / "gen_commits.py"), "--materialize"])
    run([sys.executable, str(HERE / "questions" / "grade.py"), "--all", "--materialize-only"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--with", dest="lists", default="questions,commits",
                    help=f"comma-separated mirror lists, of {', '.join(LISTS)}")
    ap.add_argument("--mirrors", type=Path, default=grade.mirrors_default())
    ap.add_argument("--list", type=Path, default=Path("/tmp/kgrep-fetch.txt"),
                    help="where the missing mirrors' owner/name lines are written")
    ap.add_argument("--prepare", action="store_true", help="unpack the corpora once every mirror is here")
    args = ap.parse_args()
    lists = [x for x in args.lists.split(",") if x]
    unknown = [x for x in lists if x not in LISTS]
    if unknown:
        ap.error(f"unknown list {unknown[0]!r}: choose from {', '.join(LISTS)}")
    repos = wanted(lists)
    missing = [r for r in repos if not has_mirror(args.mirrors, r)]
    args.list.write_text("".join(f"{r}\n" for r in missing))
    print(f"{len(repos)} mirrors wanted under {args.mirrors}, {len(missing)} missing "
          f"(listed in {args.list})", file=sys.stderr)
    for r in missing:
        print(f"github:{r}")
    if missing:
        return 1
    if args.prepare:
        prepare()
    return 0


if __name__ == "__main__":
    sys.exit(main())
