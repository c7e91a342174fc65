#!/usr/bin/env python3
"""Question-shaped training queries from doc comments, with the doc masked.

    python3 tests/bench/train/data/gen_docq.py [--repos repos.tsv] [--per-repo 60] \
        [--out /tmp/kgrep-docq/docq.jsonl] [--trees /tmp/kgrep-docq] [--only owner/name ...]

Commit subjects say what a change did ("add a timeout to retries"); a question asks
where the code is that does a thing ("how does it retry a failed request"). A doc
comment's first sentence says what its function does, in words a person chose, and
its function is the answer. So for each repository of `repos.tsv` (at its pinned
tip), this picks functions and methods with a doc comment, makes a question of the
comment's first sentence, and writes one tree per repository in which the chosen
comments are blanked (their lines kept, emptied, so line numbers hold): the query's
own words are not in its answer's comment.

A row is a dev-set style row `dump.py` reads under `--corpus-root` (the `--trees`
folder): `{"id", "repo", "corpus", "query", "gold_files": [path], "lines": [def, end],
"name"}`. With `--questions DIR` the rows are also written as question files
(`tests/bench/questions/grade.py --questions DIR --corpora TREES` grades them as the
question sets are graded). Test, sample and vendored paths are left out (`gen_train.py`'s rule); at
most two functions a file; a function's body must have at least `MIN_BODY` lines.
The choice is deterministic (a hash of repository, path and name).

With `--happens`, the questions ask what happens in a failure instead: a function
whose doc comment says it raises, throws, panics, fails or returns an error (or null,
false, ...) if or when a condition holds ("Raises ValueError if the name is empty")
gives "what happens if the name is empty", answered by that function (at most 40 a
repository, committed as `docqh.jsonl`). Doc comments seldom say what a caller sees
in their first sentence, so the "what happens" questions users ask have no other
source of training data here.

The comments are found by line patterns, not a parser: a run of `//`, `///`, `#`
lines or a `/* … */` block right above a definition line (annotations, attributes
and decorators between are allowed), or a Python docstring right below `def`.
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
sys.path.insert(0, str(HERE))
import gen_train  # noqa: E402  (sets gen_commits.NON_SOURCE_RE to the wider rule)

NON_SOURCE_RE = gen_train.gen_commits.NON_SOURCE_RE
MIN_BODY = 4
MAX_BODY = 400
VENDOR_RE = re.compile(r"(^|/)(vendor|third[_-]?party|deps|node_modules|dist|build|generated)/"
                       r"|testing|test[_-]?support|testutil", re.I)

KEYWORDS = {
    "if", "for", "while", "switch", "return", "sizeof", "catch", "function", "else",
    "elif", "match", "new", "throw", "typeof", "assert", "defined", "do", "case", "with",
    "super", "this", "await", "yield", "foreach", "using", "lock", "fixed", "when",
}

STOP = {
    "a", "an", "the", "of", "to", "and", "or", "in", "on", "for", "is", "it", "be", "by",
    "this", "that", "with", "as", "at", "from", "if", "are", "its", "into", "any", "all",
}


def git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(mirror), *args], check=True,
                          capture_output=True).stdout


def blobs(mirror: Path, tip: str, paths: list[str]) -> dict[str, bytes | None]:
    """The contents of `paths` at `tip`; None for a blob the mirror lacks."""
    req = "".join(f"{tip}:{p}\n" for p in paths).encode()
    out = subprocess.run(["git", "--git-dir", str(mirror), "cat-file", "--batch"], input=req,
                         capture_output=True, check=True).stdout
    res: dict[str, bytes | None] = {}
    i = 0
    for p in paths:
        nl = out.index(b"\n", i)
        header = out[i:nl].split()
        if len(header) < 3 or header[1] != b"blob":
            res[p] = None
            i = nl + 1
            continue
        size = int(header[2])
        res[p] = out[nl + 1: nl + 1 + size]
        i = nl + 1 + size + 1
    return res


# --- doc comments -----------------------------------------------------------

def first_paragraph(text: str) -> str:
    """A doc comment's text up to its first tag section or blank line, its markup
    (links, HTML, backticks, `@brief`) dropped and its whitespace folded."""
    text = re.sub(r"\{@(?:link|linkplain|code|literal)\s+([^}]*)\}", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\[`?([^\]`]+)`?\](\([^)]*\)|\[[^\]]*\])?", r"\1", text)
    text = text.replace("`", "").replace("*", " ")
    text = re.sub(r"^\s*[@\\]brief\b", "", text)
    # Stop at a tag section or a blank line.
    text = re.split(r"\n\s*\n|\s@[a-zA-Z]+|\n\s*(Args|Arguments|Returns|Parameters|Raises|Example|Examples|Note|# )\b",
                    text)[0]
    return " ".join(text.split())


def clean_sentence(text: str) -> str | None:
    """The first sentence of a doc comment's text, tidied; None when it is not
    a usable description."""
    text = first_paragraph(text)
    m = re.match(r"(.+?[a-z0-9)\]])[.!?](\s|$)", text)
    sentence = m.group(1) if m else text
    words = sentence.split()
    if not 4 <= len(words) <= 18:
        return None
    low = sentence.lower()
    if re.search(r"\s[.,;:]|\b(a|an|the|of|to|and|or|for|with)$", low):
        return None
    if re.search(r"https?:|todo|fixme|deprecated|copyright|license|nolint|eslint|noinspection|"
                 r"auto-?generated|do not edit|\bsee\b|\bcf\.", low):
        return None
    letters = sum(c.isalpha() or c == " " for c in sentence)
    if letters < 0.85 * len(sentence):
        return None
    content = [w for w in re.findall(r"[a-z]+", low) if w not in STOP and len(w) >= 3]
    if len(content) < 3:
        return None
    return sentence


def strip_subject(sentence: str, name: str) -> str:
    """Drops a leading function name ("Clean returns …") or "This method …"."""
    words = sentence.split()
    first = words[0].strip("`'\"(),:").lower()
    if first == name.lower() or first.rstrip("()") == name.lower():
        words = words[1:]
    elif len(words) > 2 and words[0].lower() == "this" and words[1].lower() in (
            "method", "function", "class", "routine", "helper", "constructor"):
        words = words[2:]
    return " ".join(words)


def question(sentence: str, key: str) -> str:
    """A question a developer might type for a function the sentence describes."""
    s = sentence[0].lower() + sentence[1:]
    first = s.split()[0]
    verb = re.fullmatch(r"[a-z]+s", first) and not first.endswith("ss")
    pick = int(hashlib.sha256(key.encode()).hexdigest(), 16) % 3
    if verb:
        base = first[:-2] if re.search(r"(ches|shes|sses|xes)$", first) else first[:-1]
        if first.endswith("ies"):
            base = first[:-3] + "y"
        rest = s[len(first):]
        return ["where is the code that " + s, "how does it " + base + rest,
                "which function " + s][pick]
    return ["where is " + s, "how does it " + s, "where is the code for " + s][pick]


# A doc comment's failure clause: what the function does on failure, then the condition.
FAILURE_CLAUSE = re.compile(
    r"\b(?:raises?|throws?|panics?|fails?|is\s+thrown|is\s+raised|errors?\s+out|returns?\s+"
    r"(?:an?\s+)?(?:error|err|null|nil|none|false|undefined|-1|an?\s+\w*error|\w*exception))\b"
    r"[^.;]*?\b(if|when|unless)\s+([^.;:()\[\]{}`]{8,140})", re.I)


def happens_question(text: str) -> str | None:
    """"what happens if <condition>" from a doc comment's failure clause; None when
    it has none, or the condition is not plain words."""
    text = re.sub(r"\{@(?:link|linkplain|code|literal)\s+([^}]*)\}", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text).replace("`", "").replace("*", " ")
    text = " ".join(text.split())
    m = FAILURE_CLAUSE.search(text)
    if not m:
        return None
    cond = m.group(2).strip().rstrip(",")
    # Only the first condition of a list ("if A, or if B", "if A, returns ...").
    cond = re.split(r"\s(?:or if|and if|,\s*(?:or|and)?\s*(?:raises?|throws?|returns?))\b", cond)[0]
    if not 3 <= len(cond.split()) <= 16:
        return None
    letters = sum(c.isalpha() or c == " " for c in cond)
    if letters < 0.85 * len(cond):
        return None
    return f"what happens {m.group(1).lower()} {cond}"


DEF_RES = {
    "Go": re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]"),
    "Rust": re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"[^\"]*\"\s+)?fn\s+([A-Za-z_]\w*)"),
    "Kotlin": re.compile(r"^\s*(?:[a-z]+\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)\s*\("),
    "PHP": re.compile(r"^\s*(?:[a-z]+\s+)*function\s+&?([A-Za-z_]\w*)\s*\("),
    "Ruby": re.compile(r"^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)"),
    "Python": re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\("),
}
GENERIC_DEF = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*\(")
JS_FN = re.compile(r"(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>))")
ANNOTATION = re.compile(r"^\s*(@|#\[|\[[A-Z]|export\s*$|template\s*<)")


def def_name(line: str, lang: str) -> str | None:
    if ANNOTATION.match(line):
        return None
    if lang in DEF_RES:
        m = DEF_RES[lang].match(line)
        return m.group(1) if m else None
    s = line.strip()
    if not s or s.startswith(("#", "return", "//", "/*", "*", "}", "=")) or s.endswith(";"):
        return None
    if lang in ("JavaScript", "TypeScript"):
        m = JS_FN.search(s)
        if m:
            return m.group(1) or m.group(2)
    m = GENERIC_DEF.search(s)
    if not m or m.group(1) in KEYWORDS:
        return None
    # A call statement, not a definition: `foo(x)` alone at the start of a line
    # with nothing declaring it. Definitions carry a type, modifier or `{`.
    before = s[: m.start()].strip()
    if lang in ("JavaScript", "TypeScript"):
        if before and not re.fullmatch(r"((export|default|async|static|public|private|protected|readonly|override|get|set|abstract)\s*)*", before):
            return None
        return m.group(1)
    if not before and lang not in ("C", "C++"):
        return None
    if re.search(r"[=.!]|\breturn\b", before):
        return None
    return m.group(1)


def body_end_braces(lines: list[str], start: int) -> int | None:
    depth = 0
    opened = False
    for i in range(start, min(len(lines), start + MAX_BODY)):
        code = re.sub(r"\"(\\.|[^\"\\])*\"|'(\\.|[^'\\])*'|//.*", "", lines[i])
        if not opened and i > start + 3:
            return None
        if not opened and code.rstrip().endswith(";") and "{" not in code:
            return None
        depth += code.count("{") - code.count("}")
        if "{" in code:
            opened = True
        if opened and depth <= 0:
            return i
    return None


def body_end_indent(lines: list[str], start: int) -> int | None:
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start
    for i in range(start + 1, min(len(lines), start + MAX_BODY)):
        s = lines[i]
        if not s.strip():
            continue
        if len(s) - len(s.lstrip()) <= indent:
            break
        end = i
    return end


def body_end_ruby(lines: list[str], start: int) -> int | None:
    indent = len(lines[start]) - len(lines[start].lstrip())
    for i in range(start + 1, min(len(lines), start + MAX_BODY)):
        s = lines[i]
        if s.strip() == "end" and len(s) - len(s.lstrip()) == indent:
            return i
    return None


def comment_above(lines: list[str], i: int) -> tuple[int, int, str] | None:
    """The doc comment ending right above line `i` (0-based): (first, last, text)."""
    j = i - 1
    while j >= 0 and ANNOTATION.match(lines[j]):
        j -= 1
    if j < 0:
        return None
    s = lines[j].strip()
    if s.endswith("*/"):
        k = j
        while k >= 0 and "/*" not in lines[k]:
            k -= 1
        if k < 0 or j - k > 60:
            return None
        body = "\n".join(lines[k: j + 1])
        body = re.sub(r"^\s*/\*+!?|\*+/\s*$", "", body)
        body = "\n".join(re.sub(r"^\s*\*+ ?", "", l) for l in body.split("\n"))
        return k, j, body
    for prefix in ("///", "//!", "//", "#"):
        if s.startswith(prefix) and not s.startswith("#!") and not (prefix == "#" and s.startswith(("#include", "#define", "#if", "#endif", "#else", "#pragma", "#["))):
            k = j
            while k - 1 >= 0 and lines[k - 1].strip().startswith(prefix) and j - k < 60:
                k -= 1
            body = "\n".join(lines[x].strip()[len(prefix):].lstrip("/").strip() for x in range(k, j + 1))
            return k, j, body
    return None


def docstring_below(lines: list[str], i: int) -> tuple[int, int, str] | None:
    """A Python docstring right after the `def` header at line `i`."""
    j = i
    while j < len(lines) and not lines[j].rstrip().endswith(":") and j - i < 12:
        j += 1
    k = j + 1
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k >= len(lines):
        return None
    s = lines[k].strip()
    m = re.match(r"^[rRbBuU]?(\"\"\"|''')", s)
    if not m:
        return None
    q = m.group(1)
    rest = s[m.end():]
    if q in rest:
        return k, k, rest[: rest.index(q)]
    text = [rest]
    for e in range(k + 1, min(len(lines), k + 80)):
        if q in lines[e]:
            text.append(lines[e][: lines[e].index(q)])
            return k, e, "\n".join(text)
        text.append(lines[e].strip())
    return None


def functions(text: str, lang: str, happens: bool = False, sentence_of=None):
    """(name, def line, end line, comment first, comment last, sentence), 0-based lines.
    With `happens`, the sentence is the "what happens" question (`happens_question`);
    `sentence_of` reads a comment's sentence instead of `clean_sentence`."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        name = def_name(line, lang)
        if not name or name.startswith("test") or name.startswith("Test"):
            continue
        if lang == "Python":
            doc = docstring_below(lines, i)
            end = body_end_indent(lines, i)
        else:
            doc = comment_above(lines, i)
            end = body_end_ruby(lines, i) if lang == "Ruby" else body_end_braces(lines, i)
        if not doc or end is None:
            continue
        body_lines = sum(1 for x in range(i + 1, end + 1)
                         if lines[x].strip() and not (doc[0] <= x <= doc[1]))
        if body_lines < MIN_BODY:
            continue
        if happens:
            asked = happens_question(doc[2])
            if asked:
                yield name, i, end, doc[0], doc[1], asked
            continue
        sentence = (sentence_of or clean_sentence)(doc[2])
        if not sentence:
            continue
        sentence = strip_subject(sentence, name)
        if len(sentence.split()) < 3:
            continue
        yield name, i, end, doc[0], doc[1], sentence


def write_questions(rows: list[dict], folder: Path, trees: Path) -> None:
    """The rows as tests/bench/questions rows, one file a repository, and the
    stamp grade.py reads to take each tree as already unpacked."""
    folder.mkdir(parents=True, exist_ok=True)
    by_corpus: dict[str, list[dict]] = {}
    for r in rows:
        by_corpus.setdefault(r["corpus"], []).append(r)
    for corpus, rs in by_corpus.items():
        (trees / corpus / ".kgrep-questions-commit").write_text("docq\n")
        with open(folder / f"{corpus}.jsonl", "w") as f:
            for i, r in enumerate(rs):
                f.write(json.dumps({
                    "id": f"{corpus}-{i:02d}", "repo": r["repo"], "commit": "docq",
                    "lang": r["language"], "query": r["query"],
                    "answers": [{"path": r["gold_files"][0], "lines": r["lines"]}],
                }) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", default=str(HERE / "repos.tsv"))
    ap.add_argument("--mirrors", default=gen_train.gen_commits.DEFAULT_MIRRORS)
    ap.add_argument("--per-repo", type=int, help="at most this many a repository "
                    "(default 60, 40 with --happens)")
    ap.add_argument("--happens", action="store_true",
                    help="'what happens if …' questions from doc comments' failure clauses")
    ap.add_argument("--trees", default="/tmp/kgrep-docq")
    ap.add_argument("--out", default="/tmp/kgrep-docq/docq.jsonl")
    ap.add_argument("--per-file", type=int, default=2, help="at most this many a file (0: no cap)")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--questions", help="also write the rows as question files grade.py reads "
                    "(one a repository, in this folder; grade with --corpora TREES)")
    args = ap.parse_args()
    if args.per_repo is None:
        args.per_repo = 40 if args.happens else 60

    rows_out = []
    for row in Path(args.repos).read_text().splitlines()[1:]:
        repo, tip, lang, ext = row.split("\t")[:4]
        if args.only and repo not in args.only:
            continue
        exts = tuple(e.strip() for e in ext.split(",") if e.strip())
        mirror = Path(args.mirrors) / repo.replace("/", "+") / "repo"
        if not mirror.is_dir():
            print(f"gen_docq: no mirror for {repo} at {mirror}", file=sys.stderr)
            continue
        listing = git(mirror, "ls-tree", "-r", "-z", "--name-only", tip).decode("utf-8", "replace")
        paths = [p for p in listing.split("\0") if p]
        contents = blobs(mirror, tip, paths)
        found = []
        for p in paths:
            if not p.endswith(exts) or NON_SOURCE_RE.search(p) or VENDOR_RE.search(p):
                continue
            data = contents.get(p)
            if data is None or len(data) > 512 * 1024:
                continue
            text = data.decode("utf-8", "replace")
            for f in functions(text, lang, args.happens):
                key = f"{repo}\0{p}\0{f[0]}\0{f[1]}"
                found.append((hashlib.sha256(key.encode()).hexdigest(), p, f))
        found.sort()
        per_file: dict[str, int] = {}
        picked = []
        seen_queries = set()
        for h, p, f in found:
            if args.per_file and per_file.get(p, 0) >= args.per_file or f[5].lower() in seen_queries:
                continue
            per_file[p] = per_file.get(p, 0) + 1
            seen_queries.add(f[5].lower())
            picked.append((h, p, f))
            if len(picked) >= args.per_repo:
                break
        # The tree, with the picked comments blanked.
        corpus = repo.replace("/", "+")
        root = Path(args.trees) / corpus
        blank: dict[str, list[tuple[int, int]]] = {}
        for _, p, f in picked:
            blank.setdefault(p, []).append((f[3], f[4]))
        if not root.exists():
            for p in paths:
                data = contents.get(p)
                if data is None:
                    continue
                dest = root / p
                dest.parent.mkdir(parents=True, exist_ok=True)
                if p in blank:
                    lines = data.decode("utf-8", "replace").split("\n")
                    for a, b in blank[p]:
                        for x in range(a, b + 1):
                            lines[x] = ""
                    dest.write_text("\n".join(lines))
                else:
                    try:
                        dest.write_bytes(data)
                    except OSError:
                        pass
        for h, p, f in picked:
            name, d, end, _, _, sentence = f
            rows_out.append({
                "id": f"{corpus}-{'h' if args.happens else ''}{h[:8]}", "repo": repo, "corpus": corpus, "language": lang,
                "query": sentence if args.happens else question(sentence, h),
                "sentence": sentence, "name": name,
                "gold_files": [p], "lines": [d + 1, end + 1],
            })
        print(f"gen_docq: {repo}: {len(found)} documented functions, {len(picked)} picked",
              file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        for r in rows_out:
            f.write(json.dumps(r) + "\n")
    print(f"gen_docq: {len(rows_out)} queries written to {args.out}", file=sys.stderr)
    if args.questions:
        write_questions(rows_out, Path(args.questions), Path(args.trees))
    return 0


if __name__ == "__main__":
    sys.exit(main())
