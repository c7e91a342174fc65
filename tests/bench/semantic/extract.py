#!/usr/bin/env python3
"""(doc comment, function) pairs for training the semantic embedding.

    python3 tests/bench/semantic/extract.py [--repos repos.tsv] [--out /tmp/kgrep-sem/pairs.jsonl] \
        [--per-repo 6000] [--files 6000] [--mirrors DIR]

For each repository of `repos.tsv` at its pinned tip, every function or method with a
doc comment that `../train/data/gen_docq.py` finds by line patterns (the same patterns
the doc-comment training questions use, in 12 languages), with a looser sentence rule
than gen_docq's: the comment's first paragraph, at most two sentences and 40 words,
with at least two content words. A row is
`{"repo", "lang", "path", "name", "doc", "code"}`, `code` the function's lines from its
definition to its end without the comment's. Files are sampled (at most `--files` a
repository, by a hash of the path) and pairs kept (at most `--per-repo`, by a hash,
one per distinct sentence), so one large repository cannot dominate.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "train" / "data"))
import gen_docq  # noqa: E402

EXT = {".py": "Python", ".go": "Go", ".rs": "Rust", ".js": "JavaScript", ".mjs": "JavaScript",
       ".cjs": "JavaScript", ".jsx": "JavaScript", ".ts": "TypeScript", ".tsx": "TypeScript",
       ".mts": "TypeScript", ".java": "Java", ".kt": "Kotlin", ".c": "C", ".h": "C",
       ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++", ".hh": "C++", ".rb": "Ruby",
       ".php": "PHP", ".cs": "C#"}


def loose_sentence(text: str) -> str | None:
    """The first paragraph of a doc comment, tidied: at most two sentences, 40 words."""
    text = gen_docq.first_paragraph(text)
    sentence = " ".join(re.split(r"(?<=[a-z0-9)\]])[.!?](?:\s|$)", text)[:2]).strip()
    words = sentence.split()
    if len(words) > 40:
        sentence = " ".join(words[:40])
    low = sentence.lower()
    if re.search(r"copyright|license|nolint|eslint|noinspection|auto-?generated|do not edit", low):
        return None
    content = [w for w in re.findall(r"[a-z]+", low) if w not in gen_docq.STOP and len(w) >= 3]
    return sentence if len(content) >= 2 else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", default=str(HERE / "repos.tsv"))
    ap.add_argument("--mirrors", default=gen_docq.gen_train.gen_commits.DEFAULT_MIRRORS)
    ap.add_argument("--out", default="/tmp/kgrep-sem/pairs.jsonl")
    ap.add_argument("--per-repo", type=int, default=6000)
    ap.add_argument("--files", type=int, default=6000)
    args = ap.parse_args()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    total = 0
    with open(args.out, "w") as out:
        for row in Path(args.repos).read_text().splitlines()[1:]:
            repo, tip = row.split("\t")[:2]
            mirror = Path(args.mirrors) / repo.replace("/", "+") / "repo"
            if not mirror.is_dir():
                print(f"extract: no mirror for {repo}", file=sys.stderr)
                continue
            try:
                listing = gen_docq.git(mirror, "ls-tree", "-r", "-z", "--name-only", tip)
            except subprocess.CalledProcessError:
                print(f"extract: {repo}: no commit {tip}", file=sys.stderr)
                continue
            paths = [p for p in listing.decode("utf-8", "replace").split("\0")
                     if p and Path(p).suffix.lower() in EXT
                     and not gen_docq.NON_SOURCE_RE.search(p) and not gen_docq.VENDOR_RE.search(p)]
            paths.sort(key=lambda p: hashlib.sha256((repo + p).encode()).hexdigest())
            paths = paths[: args.files]
            found = []
            for i in range(0, len(paths), 500):
                chunk = paths[i: i + 500]
                contents = gen_docq.blobs(mirror, tip, chunk)
                for p in chunk:
                    data = contents.get(p)
                    if data is None or len(data) > 400 * 1024:
                        continue
                    lang = EXT[Path(p).suffix.lower()]
                    text = data.decode("utf-8", "replace")
                    lines = text.split("\n")
                    try:
                        fs = list(gen_docq.functions(text, lang, sentence_of=loose_sentence))
                    except Exception:  # a pattern's recursion on odd text: skip the file
                        continue
                    for name, d, end, c0, c1, sentence in fs:
                        code = "\n".join(l for x, l in enumerate(lines[d: end + 1], d)
                                         if not c0 <= x <= c1)[:20000]
                        h = hashlib.sha256(f"{repo}\0{p}\0{name}\0{d}".encode()).hexdigest()
                        found.append((h, {"repo": repo, "lang": lang, "path": p, "name": name,
                                          "doc": sentence, "code": code}))
            found.sort(key=lambda x: x[0])
            seen: set[str] = set()
            kept = 0
            for _, r in found:
                if r["doc"].lower() in seen:
                    continue
                seen.add(r["doc"].lower())
                out.write(json.dumps(r) + "\n")
                kept += 1
                if kept >= args.per_repo:
                    break
            total += kept
            print(f"extract: {repo}: {len(found)} documented functions, {kept} kept", file=sys.stderr)
    print(f"extract: {total} pairs written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
