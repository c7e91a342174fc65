#!/usr/bin/env python3
"""Everyday questions with line-level answers: is the first printed place the answer?

    python3 tests/bench/questions/grade.py --kgrep target/release/kgrep
    python3 tests/bench/questions/grade.py --kgrep BIN --json-out /tmp/after.json --compare /tmp/before.json
    python3 tests/bench/questions/grade.py --materialize-only      # just unpack the trees
    python3 tests/bench/questions/grade.py --kgrep BIN --all [--json-out F] [--compare F]

The questions (`*.jsonl` beside this script) were written by reading each repository's
code, before kgrep was run on it: a question a developer would type, and the lines a
senior who knows the code would point to (`answers`: file and 1-based inclusive range).
Each repository is unpacked once, at the question's commit, from the git mirrors the
fetch tool brings (`<mirrors>/owner+name/repo`; default `.mirror` beside the folder that
holds this checkout, or `$KGREP_EVAL_MIRRORS`) into `--corpora` (default
/tmp/kgrep-questions/NAME).

kgrep runs offline (`KGREP_LLM=off`) as `kgrep -- QUESTION .` inside the tree, and its
grep-style output is graded:

  RIGHT    the first printed file is an answer file and one of its printed match lines
           (`N:`) lies within 2 lines of one of that file's answer ranges;
  PARTIAL  not RIGHT, but a printed match line of some answer file lies within 2 lines of
           one of its ranges (the answer was printed, later);
  WRONG    neither.

Also reported: R@1 of files (first printed file is an answer file), the median printed
lines and the median wall time per query. Per repository and overall.

`--all` grades every set (the questions beside this script, then each folder of them,
in order: holdout, third, fourth, …) and prints one row per set and their total, never a
question's own grade: a set kept untuned (its README says so) can be graded with the
others without its failures being read. `--compare` then counts the questions that went
up and down, per set, without naming them.
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
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SLACK = 2
MATCH_RE = re.compile(r"^(?P<n>\d+):\t")
OTHER_RE = re.compile(r"^(?P<n>\d+)-\t")


def mirrors_default() -> Path:
    env = os.environ.get("KGREP_EVAL_MIRRORS")
    return Path(env) if env else ROOT.parent / ".mirror"


# The sets' folders in the order they were written (`--all`); others after them, by name.
SET_ORDER = [
    "holdout", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth", "twentieth", "twentyfirst", "twentysecond",
    "twentythird", "twentyfourth", "twentyfifth", "twentysixth", "twentyseventh", "twentyeighth",
    "twentyninth", "thirtieth", "thirtyfirst", "thirtysecond", "thirtythird",
    "thirtyfourth",
]


# The sets the ranking was tuned on (their failures were read); the others are kept
# untuned (each one's README says so) and only ever graded in total.
TUNED_SETS = [
    "first", "holdout", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth",
    # Its misses were read on 2026-12-06, after it was graded once (26 of 60 RIGHT).
    "thirtieth",
]


def set_folders(root: Path = HERE) -> list[tuple[str, Path]]:
    """Every set of questions: `first` (the files beside this script), then each folder
    holding question files, in `SET_ORDER`."""
    folders = [d for d in root.iterdir() if d.is_dir() and any(d.glob("*.jsonl"))]
    rank = {name: i for i, name in enumerate(SET_ORDER)}
    folders.sort(key=lambda d: (rank.get(d.name, len(rank)), d.name))
    return [("first", root)] + [(d.name, d) for d in folders]


def load_questions(names: list[str], folder: Path = HERE) -> list[dict]:
    rows = []
    for path in sorted(folder.glob("*.jsonl")):
        if names and path.stem not in names:
            continue
        for n, line in enumerate(path.open(), 1):
            line = line.strip()
            if not line:
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise SystemExit(f"error: {path}:{n}: {e}")
            row["set"] = path.stem
            rows.append(row)
    return rows


# How else a user types the same question (`--rephrase`): a description and the rewrite.
REPHRASINGS = {
    "request": (
        "'Can you show me ' before the question",
        lambda q: "Can you show me " + q[:1].lower() + q[1:],
    ),
    "lower": (
        "'I want to know ' before it, all lowercase, no question mark",
        lambda q: "I want to know " + q.rstrip("?").lower(),
    ),
    "keywords": (
        "its words without the question and stop words, as typed into a search box",
        lambda q: keywords(q),
    ),
}

# English function words and question words (`--rephrase keywords` leaves them out).
STOP_WORDS = set(
    "a about above after again all also am an and any are as at be because been before being "
    "below between both but by can could did do does doing done down during each either else "
    "etc every few for from further got had happen happens has have having he her here hers "
    "him his how i if in into is it its itself just let lets like me might more most much must "
    "my no nor not of off on once one only or other our ours out over own please same shall "
    "she should so some such than that the their theirs them then there these they thing "
    "things this those through to too under until up upon us via was we were what whats when "
    "where whereas whether which while who whom whose why will with within without would you "
    "your yours".split()
)


def keywords(q: str) -> str:
    words = re.findall(r"[A-Za-z0-9_'\-.]+", q)
    kept = [w.strip(".") for w in words if w.lower().strip("'.") not in STOP_WORDS]
    return " ".join(w for w in kept if w)


def absent_blobs(git_dir: Path, commit: str) -> list[str]:
    """Paths of the commit's files whose blobs the mirror does not hold."""
    listing = subprocess.run(["git", "-C", str(git_dir), "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=True).stdout.decode("utf-8", "replace")
    blobs = []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        _mode, kind, obj = meta.split()
        if kind == "blob":
            blobs.append((obj, path))
    check = subprocess.run(["git", "-C", str(git_dir), "cat-file", "--batch-check"],
                           input="".join(f"{obj}\n" for obj, _ in blobs).encode(),
                           capture_output=True, check=True).stdout.decode().splitlines()
    return [path for (_, path), line in zip(blobs, check) if line.endswith(" missing")]


def materialize(row: dict, corpora: Path, mirrors: Path) -> Path:
    """The repository's tree at the question's commit, unpacked once."""
    dest = corpora / row["set"]
    stamp = dest / ".kgrep-questions-commit"
    if stamp.is_file() and stamp.read_text().strip() == row["commit"]:
        return dest
    git_dir = mirrors / row["repo"].replace("/", "+") / "repo"
    if not git_dir.is_dir():
        raise SystemExit(
            f"error: no mirror of {row['repo']} at {git_dir}: bring it with the fetch tool "
            f"(github:{row['repo']}) or set KGREP_EVAL_MIRRORS"
        )
    if dest.exists():
        subprocess.run(["rm", "-rf", str(dest)], check=True)
    dest.mkdir(parents=True)
    # A mirror may lack its largest blobs (the fetch tool lists them but leaves
    # them out): those files are left out of the tree, named on stderr.
    absent = absent_blobs(git_dir, row["commit"])
    for path in absent:
        print(f"note: {row['repo']}: {path} is absent from the mirror; left out", file=sys.stderr)
    excludes = [f":(exclude,literal){path}" for path in absent]
    archive = subprocess.Popen(["git", "-C", str(git_dir), "archive", row["commit"], "--", ".",
                                *excludes], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"error: git archive {row['commit']} failed in {git_dir}")
    # Outside the tree's own files: a hidden name kgrep skips by default.
    stamp.write_text(row["commit"] + "\n")
    return dest


def parse(stdout: str) -> list[tuple[str, list[int]]]:
    """Printed files in order, each with its match line numbers (`N:`)."""
    files: list[tuple[str, list[int]]] = []
    for line in stdout.splitlines():
        if not line.strip() or line == "--":
            continue
        m = MATCH_RE.match(line)
        if m:
            if files:
                files[-1][1].append(int(m.group("n")))
            continue
        if OTHER_RE.match(line):
            continue
        files.append((os.path.normpath(line.strip()), []))
    return files


def near(lines: list[int], ranges: list[list[int]]) -> bool:
    return any(lo - SLACK <= n <= hi + SLACK for n in lines for lo, hi in ranges)


def grade(row: dict, printed: list[tuple[str, list[int]]]) -> str:
    ranges: dict[str, list[list[int]]] = {}
    for a in row["answers"]:
        ranges.setdefault(os.path.normpath(a["path"]), []).append(a["lines"])
    if printed:
        first, lines = printed[0]
        if first in ranges and near(lines, ranges[first]):
            return "RIGHT"
    if any(path in ranges and near(lines, ranges[path]) for path, lines in printed):
        return "PARTIAL"
    return "WRONG"


def run(row: dict, kgrep: str, corpus: Path, extra: list[str]) -> dict:
    env = dict(os.environ, KGREP_LLM="off")
    env.pop("KGREP_API_KEY", None)
    start = time.monotonic()
    p = subprocess.run([kgrep, *extra, "--", row["query"], "."], cwd=corpus,
                       capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=300)
    wall = time.monotonic() - start
    printed = parse(p.stdout.decode("utf-8", "replace"))
    answer_files = {os.path.normpath(a["path"]) for a in row["answers"]}
    return {
        "id": row["id"],
        "set": row["set"],
        "kind": row.get("kind", ""),
        "query": row["query"],
        "rc": p.returncode,
        "grade": grade(row, printed),
        "file_r1": bool(printed) and printed[0][0] in answer_files,
        "first": printed[0][0] if printed else None,
        "first_lines": printed[0][1] if printed else [],
        "lines": sum(len(lines) for _, lines in printed),
        "wall": wall,
    }


# A ranked file as `kgrep -v` names it: its learned score (if the learned ranker
# ordered it) and its path.
VERBOSE_RANK_RE = re.compile(r"^kgrep: rank \S+ \(file \S+(?:, learned (\S+))?\) (.+?)(?: best line .*)?$")


def tuned_questions() -> list[dict]:
    """The questions of the sets the ranking was tuned on (`TUNED_SETS`), those that
    ask for tests left out: what the checks of ranking ideas in tests/bench/train/ read."""
    rows = []
    for name, folder in set_folders():
        if name in TUNED_SETS:
            rows += [r for r in load_questions([], folder) if r["kind"] != "tests"]
    return rows


def check_parser(doc: str) -> argparse.ArgumentParser:
    """The command line of a check of a ranking idea (tests/bench/train/): the build to
    run (`--kgrep`) and the question sets' trees (`--corpora`); the check adds its own."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kgrep", required=True)
    ap.add_argument("--corpora", type=Path, default=Path("/tmp/kgrep-questions"))
    return ap


def first_file_tally(label: str, outcomes: list[tuple[bool, bool]]) -> str:
    """One line of a check: of `outcomes` (first file right before, after), how many
    are right after, and how many the change turned right and wrong."""
    right = sum(after for _, after in outcomes)
    up = sum(after and not before for before, after in outcomes)
    down = sum(before and not after for before, after in outcomes)
    return f"{label}: first file right {right} of {len(outcomes)} (turned right {up}, wrong {down})"


def verbose_runs(kgrep: str, rows: list[dict], corpora: Path) -> list[str]:
    """`kgrep -v -- QUESTION .` offline in each row's tree, four at a time: each
    run's stderr, in the order of `rows`."""
    kgrep = os.path.abspath(kgrep)
    env = dict(os.environ, KGREP_LLM="off")
    env.pop("KGREP_API_KEY", None)

    def one(row: dict) -> str:
        tree = corpora / row["set"]
        p = subprocess.run([kgrep, "-v", "--", row["query"], "."], cwd=tree, capture_output=True,
                           env=env, stdin=subprocess.DEVNULL, timeout=300)
        return p.stderr.decode("utf-8", "replace")

    missing = sorted({str(corpora / r["set"]) for r in rows if not (corpora / r["set"]).is_dir()})
    if missing:
        raise SystemExit(f"error: no tree at {missing[0]}: run grade.py --materialize-only first")
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, rows))


def table(results: list[dict]) -> str:
    groups: dict[str, list[dict]] = {}
    for r in results:
        groups.setdefault(r["set"], []).append(r)
    groups["ALL"] = results
    out = ["| set | n | RIGHT | PARTIAL | WRONG | file R@1 | median lines | median s |",
           "|---|---|---|---|---|---|---|---|"]
    for name, rs in groups.items():
        n = len(rs)
        count = {g: sum(1 for r in rs if r["grade"] == g) for g in ("RIGHT", "PARTIAL", "WRONG")}
        out.append(
            f"| {name} | {n} | {count['RIGHT'] / n:.2f} ({count['RIGHT']}) "
            f"| {count['PARTIAL'] / n:.2f} ({count['PARTIAL']}) | {count['WRONG'] / n:.2f} ({count['WRONG']}) "
            f"| {sum(r['file_r1'] for r in rs) / n:.2f} "
            f"| {statistics.median(r['lines'] for r in rs):.0f} "
            f"| {statistics.median(r['wall'] for r in rs):.3f} |"
        )
    return "\n".join(out)


def set_table(results: list[dict]) -> str:
    """One row per set (`--all`): RIGHT, PARTIAL, WRONG, first file right; then the total."""
    out = ["| set | n | RIGHT | PARTIAL | WRONG | first file right |", "|---|---|---|---|---|---|"]
    folders = list(dict.fromkeys(r["folder"] for r in results))
    for name in folders + ["ALL"]:
        rs = [r for r in results if name in ("ALL", r["folder"])]
        count = {g: sum(r["grade"] == g for r in rs) for g in ("RIGHT", "PARTIAL", "WRONG")}
        out.append(f"| {name} | {len(rs)} | {count['RIGHT']} | {count['PARTIAL']} | {count['WRONG']} "
                   f"| {sum(r['file_r1'] for r in rs)} |")
    return "\n".join(out)


def compare_sets(results: list[dict], before: list[dict]) -> str:
    """Per set (`--all --compare`): how many questions went up and down a grade, unnamed."""
    order = {"WRONG": 0, "PARTIAL": 1, "RIGHT": 2}
    then = {r["id"]: r["grade"] for r in before}
    out = ["| set | up | down |", "|---|---|---|"]
    for name in dict.fromkeys(r["folder"] for r in results):
        moves = [order[r["grade"]] - order[then[r["id"]]]
                 for r in results if r["folder"] == name and r["id"] in then]
        out.append(f"| {name} | {sum(m > 0 for m in moves)} | {sum(m < 0 for m in moves)} |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kgrep", default=str(ROOT / "target/release/kgrep"))
    ap.add_argument("--set", action="append", default=[], help="only this question file (stem); repeats")
    ap.add_argument("--questions", default=str(HERE),
                    help="the folder of question files (default: this script's; holdout/ holds a second set)")
    ap.add_argument("--corpora", default="/tmp/kgrep-questions")
    ap.add_argument("--mirrors", default=str(mirrors_default()))
    ap.add_argument("--json-out")
    ap.add_argument("--compare", help="a --json-out of another build: list the questions whose grade changed")
    ap.add_argument("--materialize-only", action="store_true")
    ap.add_argument(
        "--rephrase",
        choices=sorted(REPHRASINGS),
        help="ask each question the way another user would (a robustness check): "
        + "; ".join(f"{k}: {v[0]}" for k, v in sorted(REPHRASINGS.items())),
    )
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("extra", nargs="*", help="more kgrep arguments, after --")
    ap.add_argument("--all", action="store_true",
                    help="grade every set; print one row per set, no question's grade")
    args = ap.parse_args()
    args.kgrep = os.path.abspath(args.kgrep)

    if args.all:
        rows = []
        for name, folder in set_folders(Path(args.questions)):
            for row in load_questions(args.set, folder):
                row["folder"] = name
                rows.append(row)
    else:
        rows = load_questions(args.set, Path(args.questions))
    if args.rephrase:
        for row in rows:
            row["query"] = REPHRASINGS[args.rephrase][1](row["query"])
    corpora = Path(args.corpora)
    trees = {}
    for row in rows:
        trees[row["id"]] = materialize(row, corpora, Path(args.mirrors))
    if args.materialize_only:
        print("\n".join(sorted({str(t) for t in trees.values()})))
        return 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda r: run(r, args.kgrep, trees[r["id"]], args.extra), rows))
    for row, r in zip(rows, results):
        if args.all:
            r["folder"] = row["folder"]
    if args.all:
        print(set_table(results))
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(results, indent=1))
        if args.compare:
            print()
            print(compare_sets(results, json.loads(Path(args.compare).read_text())))
        return 0
    for r in results:
        print(f"{r['grade']:7} {r['id']:15} first={r['first']} {r['first_lines'][:6]}  {r['query'][:70]}")
    print()
    print(table(results))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1))
    if args.compare:
        before = {r["id"]: r for r in json.loads(Path(args.compare).read_text())}
        order = {"WRONG": 0, "PARTIAL": 1, "RIGHT": 2}
        print("\nchanged:")
        for r in results:
            b = before.get(r["id"])
            if b and b["grade"] != r["grade"]:
                arrow = "+" if order[r["grade"]] > order[b["grade"]] else "-"
                print(f"  {arrow} {r['id']}: {b['grade']} -> {r['grade']}  {r['query'][:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
