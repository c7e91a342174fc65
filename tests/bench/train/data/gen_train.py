#!/usr/bin/env python3
"""Run the shared commit-query generator with a wider "not source" rule.

This is ../shared/eval/commits/gen_commits.py, unchanged, imported and run with
the same arguments. Differences: NON_SOURCE_RE (the paths that can never
be gold files and do not count as source) also matches test and sample paths that
the shared rule was not written for, because its default repositories are Python,
Rust, Go and JavaScript only:

  - test source sets named like a directory suffix or prefix:
      Newtonsoft.Json.Tests/, okhttp/src/jvmTest/, retrofit/src/androidTest/,
      jackson-databind/src/test-jdk17/, tracing-test/
  - Test/, Tests/, SelfTest/ (old Catch2), spec-dtslint/ (rxjs), __tests__/,
      __mocks__/, samples/, sample/, demos/, demo/
  - fixtures/, fixture/
  - test files under src/ or types/:  date-fns src/addDays/test.ts, knex types/test.ts
  - test files and classes by name: unit-tests.js, client.test.tsx, Approx.tests.cpp,
      FooTest.java, FooTests.kt, FooTest.cs, FooTest.php, ClassTests.cpp,
      foo_test.rb, foo_spec.rb

It also copes with snapshot mirrors that lack some blobs (the fetch tool leaves out
files of 4 MiB and more, so `git fsck` reports them missing):

  - a commit whose diff cannot be read (it touches a missing blob) is skipped, where
    the shared code would stop with CalledProcessError;
  - a candidate whose parent tree holds a missing blob is dropped before sampling,
    because `git archive` (materialize) cannot export that tree.

For a mirror with no missing blob these two changes are no-ops.
Everything else (selection, scoring, sampling, output format) is the shared code.
Usage is exactly gen_commits.py's:

    python3 gen_train.py --repo owner/name@tip --ext .java --per-repo 100 --out X.jsonl
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[5] / "shared/eval/commits"
sys.path.insert(0, str(SHARED))

import gen_commits  # noqa: E402

EXTRA_NON_SOURCE = (
    r"(^|/)[^/]*[._-][Tt]ests?/"          # Newtonsoft.Json.Tests/, tracing-test/
    r"|(^|/)([Tt]ests?|specs?)[._-][^/]*/"  # test-jdk17/, test-helpers/, spec-dtslint/
    r"|(^|/)[a-z]+Tests?/"                # jvmTest/, commonTest/, androidTest/
    r"|(^|/)(Tests?|SelfTest|__tests__|__mocks__|samples?|demos?)/"
    r"|^(src|types)/(.+/)?test\.(js|ts|tsx)$"  # date-fns src/addDays/test.ts, knex types/test.ts
    r"|(^|/)fixtures?/"
    r"|[._-]tests?\.(js|mjs|cjs|ts|tsx|mts)$"  # unit-tests.js, client.test.tsx
    r"|\.tests?\.(cpp|cc|cxx)$"           # Catch2: Approx.tests.cpp
    r"|[A-Za-z0-9]Tests?\.(java|kt|cs|php|cpp|cc|cxx|h|hpp)$"  # FooTest.java, ClassTests.cpp
    r"|_(test|spec)\.rb$"
)

gen_commits.NON_SOURCE_RE = re.compile(
    gen_commits.NON_SOURCE_RE.pattern + "|" + EXTRA_NON_SOURCE, re.X
)

_orig_changed_files = gen_commits.changed_files
_orig_candidates = gen_commits.candidates


def changed_files(mirror, parent, commit):
    try:
        return _orig_changed_files(mirror, parent, commit)
    except subprocess.CalledProcessError:
        return [], {}  # unreadable diff (missing blob): the caller skips the commit


def missing_blobs(mirror: Path) -> set[str]:
    out = subprocess.run(["git", "--git-dir", str(mirror), "fsck", "--connectivity-only"],
                         capture_output=True, text=True).stdout
    return set(re.findall(r"^missing blob ([0-9a-f]{40})$", out, re.M))


def tree_blobs(mirror: Path, rev: str) -> set[str]:
    out = gen_commits.git(mirror, "ls-tree", "-r", rev)
    return {line.split()[2] for line in out.splitlines() if line.split()[1:2] == ["blob"]}


def candidates(repo, mirror, tip, min_tree_sources):
    cands = _orig_candidates(repo, mirror, tip, min_tree_sources)
    missing = missing_blobs(mirror)
    if not missing:
        return cands
    kept = [c for c in cands if not (tree_blobs(mirror, c.parent) & missing)]
    print(f"{repo}: {len(missing)} blobs missing from the mirror; dropped "
          f"{len(cands) - len(kept)} of {len(cands)} candidates whose parent tree holds one",
          file=sys.stderr)
    return kept


gen_commits.changed_files = changed_files
gen_commits.candidates = candidates

if __name__ == "__main__":
    sys.exit(gen_commits.main())
