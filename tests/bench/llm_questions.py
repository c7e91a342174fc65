#!/usr/bin/env python3
"""The model stage on everyday questions: does the fallback turn a question's answer around?

    bash ../shared/llm/llm-server.sh start
    python3 tests/bench/llm_questions.py [--out /tmp/kgrep-llm-questions] [--kgrep target/release/kgrep] [--sets thirtieth]
    python3 tests/bench/llm_questions.py --report      # the table from what has run so far
    python3 tests/bench/llm_questions.py --report --out NEW --against OLD   # what changed

`llm_fusion.py` measures the fallback on the dev and commit sets; this measures it the
way `questions/grade.py` grades (RIGHT, PARTIAL, WRONG: the first printed file and its
lines). Questions, by a fixed rule (kept in OUT/queries.jsonl once chosen): from each
question set the ranking was tuned on (`grade.TUNED_SETS`), the first
`--per-set` questions (default 1) in file order that the offline judge sends to the
model. Each is asked
offline (`KGREP_LLM=off`) and with the model (`KGREP_LLM=auto`, `--no-learn`, temperature 0, so one
question's lesson never answers another), in its tree.

Resumable and replayable as `llm_fusion.py` is (OUT/<pass>/<id>.json per run; every
model reply recorded by a proxy on 127.0.0.1, `--replies`, `--replay-only`). A call to
the 1.5B model takes 1-3 minutes on 2 cores. To measure a change that alters some of
kgrep's requests (a new selection after the expansion), give a copy of the earlier run's
record as `--replies` without `--replay-only`: a recorded request is answered from it,
the others are asked live and recorded.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "questions"))
import grade  # noqa: E402
from llm_fusion import CALLS_RE, Recorder, model_args  # noqa: E402


def run(a, recorder: Recorder, row: dict, pass_: str) -> dict:
    path = a.out / pass_ / f"{row['id']}.json"
    if path.exists():
        return json.loads(path.read_text())
    path.parent.mkdir(parents=True, exist_ok=True)
    model = pass_ == "model"
    env = dict(os.environ, XDG_CONFIG_HOME=str(a.out / "config"), XDG_DATA_HOME=str(a.out / "data"),
               KGREP_LLM="auto" if model else "off")
    env.pop("KGREP_API_KEY", None)
    cmd = [a.kgrep, "-v", "--no-learn", *(model_args(recorder.base) if model else []), "--", row["query"], "."]
    t0 = time.time()
    p = subprocess.run(cmd, cwd=a.corpora / row["set"], capture_output=True, stdin=subprocess.DEVNULL,
                       env=env, timeout=a.timeout * 3)
    res = {"id": row["id"], "rc": p.returncode, "seconds": round(time.time() - t0, 1),
           "stdout": p.stdout.decode("utf-8", "replace"), "stderr": p.stderr.decode("utf-8", "replace")}
    path.write_text(json.dumps(res, indent=1))
    print(f"{pass_} {row['id']} rc={p.returncode} {res['seconds']}s", flush=True)
    return res


def choose(a, recorder: Recorder) -> list[dict]:
    path = a.out / "queries.jsonl"
    if path.exists():
        return [json.loads(line) for line in path.read_text().splitlines()]
    rows = []
    for name, folder in grade.set_folders():
        if name not in grade.TUNED_SETS or a.sets and name not in a.sets.split(","):
            continue
        picked = 0
        for r in grade.load_questions([], folder):
            r = dict(r, folder=name)
            if "-> sufficient" not in run(a, recorder, r, "offline")["stderr"]:
                rows.append(r)
                picked += 1
                if picked == a.per_set:
                    break
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows


def table(a, rows: list[dict]) -> str:
    out = ["| id | kind | offline | with the model | calls | prompt tokens | seconds |", "|---|---|---|---|---|---|---|"]
    totals: dict[str, dict[str, int]] = {"offline": {}, "model": {}}
    for r in rows:
        cells = [r["id"], r["kind"]]
        for p in ("offline", "model"):
            f = a.out / p / f"{r['id']}.json"
            if not f.exists():
                cells.append("-")
                continue
            res = json.loads(f.read_text())
            g = grade.grade(r, grade.parse(res["stdout"]))
            totals[p][g] = totals[p].get(g, 0) + 1
            cells.append(g)
            if p == "model":
                m = CALLS_RE.search(res["stderr"])
                calls, prompt = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
                cells += [str(calls), str(prompt), f"{res['seconds']:.0f}"]
        out.append("| " + " | ".join(cells) + " |")
    for p, t in totals.items():
        out.append(f"\n{p}: {sum(t.values())} run: " + ", ".join(f"{k} {t.get(k, 0)}" for k in ("RIGHT", "PARTIAL", "WRONG")))
    return "\n".join(out)


def against(a, rows: list[dict]) -> str:
    """The questions whose grade with the model differs between OUT and `--against`
    (an earlier run of the same questions), and each run's totals."""
    out = [f"| id | with the model in {a.against} | in {a.out} |", "|---|---|---|"]
    totals: list[dict[str, int]] = [{}, {}]
    for r in rows:
        grades = []
        for i, d in enumerate((a.against, a.out)):
            f = d / "model" / f"{r['id']}.json"
            g = grade.grade(r, grade.parse(json.loads(f.read_text())["stdout"])) if f.exists() else "-"
            totals[i][g] = totals[i].get(g, 0) + 1
            grades.append(g)
        if grades[0] != grades[1]:
            out.append(f"| {r['id']} | {grades[0]} | {grades[1]} |")
    for d, t in zip((a.against, a.out), totals):
        out.append(f"\n{d}: " + ", ".join(f"{k} {t.get(k, 0)}" for k in ("RIGHT", "PARTIAL", "WRONG", "-")))
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("/tmp/kgrep-llm-questions"))
    ap.add_argument("--kgrep", default=str(ROOT / "target/release/kgrep"))
    ap.add_argument("--corpora", type=Path, default=Path("/tmp/kgrep-questions"))
    ap.add_argument("--per-set", type=int, default=1, help="questions a set (kept in OUT/queries.jsonl)")
    ap.add_argument("--sets", default="", help="only these tuned sets (comma-separated; default: every one)")
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--report", action="store_true", help="only print the table")
    ap.add_argument("--replies", type=Path, help="where model replies are recorded (default OUT/replies)")
    ap.add_argument("--replay-only", action="store_true", help="answer only from the recorded replies")
    ap.add_argument("--against", type=Path, help="with --report: only the questions graded otherwise in this earlier OUT")
    a = ap.parse_args()
    a.kgrep = os.path.abspath(a.kgrep)
    (a.out / "config" / "kgrep").mkdir(parents=True, exist_ok=True)
    (a.out / "config" / "kgrep" / "config.toml").write_text(f"llm_timeout = {a.timeout}\ntemperature = 0.0\n")
    recorder = Recorder(a.replies or a.out / "replies", a.replay_only, a.timeout)
    threading.Thread(target=recorder.serve_forever, daemon=True).start()
    rows = choose(a, recorder)
    if not a.report:
        for r in rows:
            run(a, recorder, r, "offline")
        for r in rows:
            run(a, recorder, r, "model")
    print(against(a, rows) if a.report and a.against else table(a, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
