#!/usr/bin/env python3
"""The fallback and the learning loop with the real local model (issue 18's bars).

    python3 tests/bench/llm_fusion.py [--out /tmp/kgrep-llm-fusion] [--kgrep target/release/kgrep]
    python3 tests/bench/llm_fusion.py --report            # tables from what has run so far

Resumable: every kgrep run is kept as OUT/<pass>/<id>.json (stdout, stderr, exit
code, seconds) and skipped when it exists, so a later session carries on where
a run stopped. A call to a 1.5B model takes 1-3 minutes on 2 cores.

Queries, by a fixed rule (kept in OUT/queries.jsonl once chosen):
  dev     the dev-set queries the judge sends to the model offline (verdict not
          "sufficient"), the first 8 in file order;
  commits for each repository of the pinned commit set (commits240.jsonl), the
          first query in file order that the judge sends to the model: 8.
Paraphrases (`para`): for the first two of each set, the query's content words
(stop words dropped) in reverse order after "where does the code": a rule, so
nobody picks a paraphrase that happens to work.

Passes: `offline` (KGREP_LLM=off), `first` (KGREP_LLM=auto with the model,
learning into OUT/data), `second` (the same, with what `first` learned), `para`
(the paraphrases, after `second`), and `sig` (`--signature-json` on three dev
queries). The server is ../shared/llm/llm-server.sh at temperature 0 (config
`temperature = 0.0`); start it first (`bash ../shared/llm/llm-server.sh start`).

Every model reply is recorded (OUT/replies/<sha256 of the request>.json, by a
proxy on 127.0.0.1 between kgrep and the server), so a change that does not
alter what kgrep sends (fusion, verification, learning) can be measured again
in seconds: `--replies OLD/replies --replay-only --out NEW` answers from the
record and never calls the model (a request not recorded gets a 503, which
kgrep treats as a model fault: the offline results stay).
"""
from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import rank_eval  # noqa: E402  (the same parsing and metrics)

PORT = os.environ.get("KGREP_LLM_PORT", "8088")
UPSTREAM = f"http://127.0.0.1:{PORT}"


def model_args(base: str) -> list[str]:
    return ["--model", "openai/qwen2.5-coder-1.5b-instruct",
            "--api-base", f"{base}/v1", "--api-key", "local"]
PLACES_RE = re.compile(r"^kgrep: model: its files, best first: (.*)$", re.M)
CALLS_RE = re.compile(r"model: (\d+) call\(s\), (\d+) prompt \+ (\d+) completion")
SIGNATURE = "summary: str, files: list[str], count: int"
STOP = None


def args_parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("/tmp/kgrep-llm-fusion"))
    ap.add_argument("--kgrep", default=str(ROOT / "target/release/kgrep"))
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--devset-root", default="/tmp/kgrep-devset")
    ap.add_argument("--commits", type=Path, default=Path("/tmp/kgrep-commits/commits240.jsonl"))
    ap.add_argument("--per-set", type=int, default=8)
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--report", action="store_true", help="only print the tables")
    ap.add_argument("--set", choices=["dev", "commits"], help="run only this set's queries")
    ap.add_argument("--passes", default="first,second,para,sig", help="which passes to run")
    ap.add_argument("--replies", type=Path, help="where model replies are recorded (default OUT/replies)")
    ap.add_argument("--replay-only", action="store_true",
                    help="answer only from the recorded replies; never call the model")
    return ap


class Recorder(http.server.ThreadingHTTPServer):
    """A proxy on 127.0.0.1 that records each reply by the request's hash."""

    def __init__(self, replies: Path, replay_only: bool, timeout: int):
        self.replies, self.replay_only, self.timeout = replies, replay_only, timeout
        replies.mkdir(parents=True, exist_ok=True)
        super().__init__(("127.0.0.1", 0), RecorderHandler)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class RecorderHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        srv = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        key = hashlib.sha256(self.path.encode() + b"\0" + body).hexdigest()
        path = srv.replies / f"{key}.json"
        if path.exists():
            status, reply = 200, path.read_bytes()
        elif srv.replay_only:
            status, reply = 503, b'{"error": "not recorded"}'
        else:
            req = urllib.request.Request(UPSTREAM + self.path, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=srv.timeout) as r:
                    status, reply = r.status, r.read()
            except urllib.error.HTTPError as e:
                status, reply = e.code, e.read()
            except OSError as e:
                status, reply = 502, json.dumps({"error": str(e)}).encode()
            if status == 200:
                path.write_bytes(reply)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


class Env:
    def __init__(self, a):
        self.a = a
        self.recorder = Recorder(a.replies or a.out / "replies", a.replay_only, a.timeout)
        threading.Thread(target=self.recorder.serve_forever, daemon=True).start()
        self.score = rank_eval.load_scorer(a.shared)
        sys.path.insert(0, str(a.shared / "eval" / "commits"))
        self.mirrors = ""
        self.cache = "/tmp/kgrep-commits"
        (a.out / "config" / "kgrep").mkdir(parents=True, exist_ok=True)
        (a.out / "data").mkdir(parents=True, exist_ok=True)
        (a.out / "config" / "kgrep" / "config.toml").write_text(
            f"llm_timeout = {a.timeout}\ntemperature = 0.0\n")

    def corpus(self, row):
        ns = argparse.Namespace(corpus_root=row["_root"], mirrors=self.mirrors, cache=self.cache)
        return self.score.corpus_for(row, ns)

    def run(self, row, pass_, query=None, extra=(), model=True):
        path = self.a.out / pass_ / f"{row['id']}.json"
        if path.exists():
            return json.loads(path.read_text())
        path.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, XDG_CONFIG_HOME=str(self.a.out / "config"),
                   XDG_DATA_HOME=str(self.a.out / "data"),
                   KGREP_LLM="auto" if model else "off")
        cmd = [self.a.kgrep, "-v", *(model_args(self.recorder.base) if model else []), *extra, "--", query or row["query"], "."]
        t0 = time.time()
        p = subprocess.run(cmd, cwd=self.corpus(row), capture_output=True, stdin=subprocess.DEVNULL,
                           env=env, timeout=self.a.timeout * 3)
        res = {"id": row["id"], "query": query or row["query"], "rc": p.returncode,
               "seconds": round(time.time() - t0, 1),
               "stdout": p.stdout.decode("utf-8", "replace"),
               "stderr": p.stderr.decode("utf-8", "replace")}
        path.write_text(json.dumps(res, indent=1))
        print(f"{pass_} {row['id']} rc={p.returncode} {res['seconds']}s", flush=True)
        return res

    def metrics(self, row, res, offline=None):
        ranked, _ = self.score.parse_output(res["stdout"], self.corpus(row))
        gold = [os.path.normpath(g) for g in row["gold_files"]]
        places = PLACES_RE.search(res["stderr"])
        listwise = None
        if offline is not None:
            # The listwise alternative to the fusion kgrep ships: the model's
            # files first, in its order, then the offline ranking's others.
            model = [os.path.normpath(p.strip()) for p in places.group(1).split(",") if p.strip()] if places else []
            base, _ = self.score.parse_output(offline["stdout"], self.corpus(row))
            order = model + [f for f in base if f not in model]
            lranks = sorted(order.index(g) + 1 for g in gold if g in order)
            listwise = {"r1": sum(1 for r in lranks if r <= 1) / len(gold),
                        "rr": 1.0 / lranks[0] if lranks else 0.0}
        ranks = sorted(ranked.index(g) + 1 for g in gold if g in ranked)
        m = CALLS_RE.search(res["stderr"])
        calls, prompt, completion = map(int, m.groups()) if m else (0, 0, 0)
        return {"r1": sum(1 for r in ranks if r <= 1) / len(gold),
                "rr": 1.0 / ranks[0] if ranks else 0.0,
                "calls": calls, "prompt": prompt, "completion": completion,
                "seconds": res["seconds"], "top": ranked[:3], "listwise": listwise}


def paraphrase(query: str) -> str:
    words = [w for w in re.findall(r"[A-Za-z0-9_]+", query.lower()) if w not in STOP]
    return "where does the code " + " ".join(reversed(words))


def choose(env: Env) -> list[dict]:
    path = env.a.out / "queries.jsonl"
    if path.exists():
        return [json.loads(l) for l in path.read_text().splitlines()]
    rows = []
    dev = env.score.load_dataset(env.a.shared / "eval" / "devset" / "queries.jsonl")
    picked = 0
    for r in dev:
        r = dict(r, _root=env.a.devset_root, set="dev")
        res = env.run(r, "offline", model=False)
        if picked < env.a.per_set and "-> sufficient" not in res["stderr"]:
            rows.append(r)
            picked += 1
    seen = set()
    for r in env.score.load_dataset(env.a.commits):
        if r["repo"] in seen:
            continue
        r = dict(r, _root="/", set="commits")
        res = env.run(r, "offline", model=False)
        if "-> sufficient" not in res["stderr"]:
            rows.append(r)
            seen.add(r["repo"])
    for s in ("dev", "commits"):
        for r in [r for r in rows if r["set"] == s][:2]:
            r["paraphrase"] = paraphrase(r["query"])
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows


def table(env: Env, rows: list[dict]) -> str:
    out = []
    for s in ("dev", "commits"):
        group = [r for r in rows if r["set"] == s]
        out.append(f"\n### {s} ({len(group)} queries)\n")
        out.append("| id | query | offline rr | first rr (RRF) | listwise rr | calls | prompt | completion | s | second rr | calls |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|")
        sums = {}
        for r in group:
            cells = [r["id"], r["query"][:48]]
            off = env.a.out / "offline" / f"{r['id']}.json"
            offline = json.loads(off.read_text()) if off.exists() else None
            for p in ("offline", "first", "second"):
                f = env.a.out / p / f"{r['id']}.json"
                if not f.exists():
                    cells += ["-"] * (1 if p == "offline" else (6 if p == "first" else 2))
                    continue
                m = env.metrics(r, json.loads(f.read_text()), offline if p == "first" else None)
                sums.setdefault(p, []).append(m)
                if p == "offline":
                    cells.append(f"{m['rr']:.2f}")
                elif p == "first":
                    cells += [f"{m['rr']:.2f}", f"{m['listwise']['rr']:.2f}", str(m["calls"]), str(m["prompt"]),
                              str(m["completion"]), f"{m['seconds']:.0f}"]
                else:
                    cells += [f"{m['rr']:.2f}", str(m["calls"])]
            out.append("| " + " | ".join(cells) + " |")
        for p, ms in sums.items():
            n = len(ms)
            if p == "first":
                lw = [m["listwise"] for m in ms]
                out.append(f"\n{s} listwise (model's files first, replayed from the first pass): "
                           f"R@1 {sum(m['r1'] for m in lw) / n:.3f} MRR {sum(m['rr'] for m in lw) / n:.3f}")
            out.append(f"\n{s} {p}: n={n} R@1 {sum(m['r1'] for m in ms) / n:.3f} "
                       f"MRR {sum(m['rr'] for m in ms) / n:.3f} calls/query {sum(m['calls'] for m in ms) / n:.2f} "
                       f"max prompt {max(m['prompt'] for m in ms)} zero-call {sum(1 for m in ms if m['calls'] == 0)}")
    para = [r for r in rows if r.get("paraphrase")]
    out.append("\n### paraphrases (after the second pass)\n")
    for r in para:
        f = env.a.out / "para" / f"{r['id']}.json"
        if f.exists():
            m = env.metrics(r, json.loads(f.read_text()))
            out.append(f"- {r['paraphrase']!r}: calls {m['calls']}, rr {m['rr']:.2f}")
    out.append("\n### signature runs\n")
    for f in sorted((env.a.out / "sig").glob("*.json")) if (env.a.out / "sig").exists() else []:
        res = json.loads(f.read_text())
        try:
            doc = json.loads(res["stdout"])
            ok = isinstance(doc.get("files"), list) and len(doc["files"]) > 0
            out.append(f"- {res['id']}: rc {res['rc']}, files {doc.get('files')!r}, count {doc.get('count')!r}, "
                       f"non-empty files: {ok}")
        except (json.JSONDecodeError, AttributeError):
            out.append(f"- {res['id']}: rc {res['rc']}, not JSON: {res['stdout'][:80]!r}")
    learned = env.a.out / "data" / "kgrep" / "thesaurus.json"
    if learned.exists():
        doc = json.loads(learned.read_text())
        out.append("\n### learned\n")
        for name, meta in sorted(doc.get("kgrep", {}).get("concepts", {}).items()):
            syn = [k for k, v in doc.get("data", {}).items() if v.get("nterm") == name and k != name]
            out.append(f"- {name!r}: status {meta.get('status')}, hits {meta.get('hits')}, "
                       f"synonyms {syn}, answer {meta.get('answer', [])}, from {meta.get('query')!r}")
    return "\n".join(out)


def main() -> int:
    global STOP
    a = args_parser().parse_args()
    a.kgrep = os.path.abspath(a.kgrep)
    env = Env(a)
    STOP = set(re.findall(r'"([a-z]+)"', (ROOT / "src" / "query" / "mod.rs").read_text().split("const STOP_WORDS")[1].split("];")[0]))
    rows = choose(env)
    if not a.report:
        passes = a.passes.split(",")
        todo = [r for r in rows if a.set in (None, r["set"])]
        for r in todo:
            env.run(r, "offline", model=False)
        for p in ("first", "second"):
            if p in passes:
                for r in todo:
                    env.run(r, p)
        if "para" in passes:
            for r in todo:
                if r.get("paraphrase"):
                    env.run(dict(r), "para", query=r["paraphrase"])
        if "sig" in passes:
            for r in [r for r in todo if r["set"] == "dev"][:3]:
                env.run(r, "sig", extra=["--signature-json", SIGNATURE])
    print(table(env, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
