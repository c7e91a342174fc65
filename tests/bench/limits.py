#!/usr/bin/env python3
"""The "slow or unbounded" cases of issue 28 (items 13-18), measured on one binary.

    python3 tests/bench/limits.py [--kgrep target/release/kgrep] [--work DIR]
                                  [--only thesaurus,typo,big,docx,mcp,hung,retry,query]
                                  [--timeout 120]

- thesaurus: a `--thesaurus` file and a learned file of 1k / 10k / 100k
  concepts (two synonyms each), searched over an empty folder: load time.
- typo: a query with three typos and the same query spelled right, on eight
  crates' published sources (about 670 files), median of 5 runs.
- big: a 1 GB log file searched with a natural-language query and with a
  literal one: wall time and peak RSS (`/usr/bin/time -v`).
- docx: a .docx of about 120 MiB of XML (a few hundred KB zipped), searched
  offline from the command line (time, RSS), then `mcp`: three `search`
  calls to one `kgrep --mcp` server (time of each).
- hung: a model server that accepts and never answers, with `llm_timeout` at
  its default (300 s): wall time of one query that would consult the model
  twice (an expansion, then a selection). Slow by design: up to 10 minutes.
- retry: a model server answering 429 with `Retry-After: 20`: wall time.
- query: a 130 KB query against a recording model server (largest request
  body, prompt_tokens 4000), and a 1 MB query through `kgrep --mcp` (size of
  the result, max_tokens 4000).

Every run has HOME in a temp dir, so no user config or learned file leaks in;
model servers bind 127.0.0.1 only. A run past `--timeout` seconds is killed
and reported as "> N s". Not part of CI: timings on a shared 2-core machine
are for people, not for assertions (the test suite checks each mechanism).
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import random
import shutil
import socket
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The tree the typo query runs on: eight crates' sources as published (the
# versions kgrep's own build fetched into ~/.cargo/registry), copied once.
TREE_CRATES = ["rustls-0.23.46", "syn-2.0.119", "regex-automata-0.4.19", "clap_builder-4.6.7",
               "ureq-3.5.2", "zip-9.8.1", "quick-xml-0.42.0", "serde_json-1.0.154"]
TYPO_RIGHT = "where is the certificate verification error handled"
TYPO_WRONG = "where is the certficate verifcation eror handled"


def env_for(home: Path, **extra: str) -> dict[str, str]:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_DATA_HOME": str(home / ".local/share"), "KGREP_LLM": "off"}
    env.update(extra)
    return env


def measure(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float,
            stdin: bytes | None = None) -> dict:
    """Runs `cmd` under /usr/bin/time -v: wall seconds, peak RSS (MiB), exit
    code, stdout size; `timed_out` when killed at `timeout`."""
    fd, name = tempfile.mkstemp(prefix="kgrep-limits-time-")
    os.close(fd)
    timing = Path(name)
    full = ["/usr/bin/time", "-v", "-o", str(timing)] + cmd
    started = time.perf_counter()
    try:
        out = subprocess.run(full, cwd=cwd, env=env, input=stdin,
                             stdin=None if stdin is not None else subprocess.DEVNULL,
                             capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        timing.unlink(missing_ok=True)
        return {"wall": time.perf_counter() - started, "timed_out": True}
    wall = time.perf_counter() - started
    rss = 0
    for line in timing.read_text().splitlines():
        if "Maximum resident set size" in line:
            rss = int(line.split(":")[1]) / 1024
    timing.unlink(missing_ok=True)
    return {"wall": wall, "rss": rss, "code": out.returncode, "stdout": len(out.stdout),
            "stderr": out.stderr.decode(errors="replace"), "timed_out": False}


def shown(m: dict, timeout: float) -> str:
    if m["timed_out"]:
        return f"> {timeout:.0f} s (killed)"
    return f"{m['wall']:.2f} s, peak RSS {m['rss']:.0f} MiB, exit {m['code']}"


def thesaurus_json(n: int, learned: bool) -> str:
    data = {}
    for i in range(n):
        name = f"concept{i}"
        for syn in (name, f"alias{i}x", f"other{i}y"):
            data[syn] = {"id": i + 1, "nterm": name}
    doc: dict = {"name": "bench", "data": data}
    if learned:
        doc["kgrep"] = {"concepts": {f"concept{i}": {"id": i + 1, "status": "proposed", "hits": 1}
                                     for i in range(n)}}
    return json.dumps(doc)


def bench_thesaurus(kgrep: str, work: Path, timeout: float) -> None:
    print("## thesaurus load (a one-line file searched, so the load is the run)")
    empty = work / "one-file"
    empty.mkdir(exist_ok=True)
    (empty / "notes.txt").write_text("nothing to see here\n")
    for n in (1_000, 10_000, 100_000):
        home = work / f"home-thes-{n}"
        learned = home / ".local/share/kgrep/thesaurus.json"
        learned.parent.mkdir(parents=True, exist_ok=True)
        user = work / f"thesaurus-{n}.json"
        if not user.exists():
            user.write_text(thesaurus_json(n, False))
        learned.write_text(thesaurus_json(n, True))
        query = f"where is alias{n // 2}x used"
        m = measure([kgrep, "--thesaurus", str(user), query, str(empty)], work,
                    env_for(work / "home-empty"), timeout)
        print(f"- {n:>7} concepts, --thesaurus file ({user.stat().st_size // 1024} KB): "
              f"{shown(m, timeout)}")
        m = measure([kgrep, query, str(empty)], work, env_for(home), timeout)
        print(f"- {n:>7} concepts, learned file: {shown(m, timeout)}")


def crate_tree(work: Path) -> Path:
    tree = work / "crates"
    if not tree.exists():
        registry = sorted((Path.home() / ".cargo/registry/src").glob("*"))
        tree.mkdir()
        for crate in TREE_CRATES:
            found = [r / crate for r in registry if (r / crate).is_dir()]
            if not found:
                raise SystemExit(f"{crate} is not in ~/.cargo/registry/src (cargo fetch it)")
            shutil.copytree(found[0], tree / crate)
        (tree / ".git").mkdir()
    return tree


def bench_typo(kgrep: str, work: Path, timeout: float) -> None:
    tree = crate_tree(work)
    files = sum(1 for p in tree.rglob("*") if p.is_file())
    print(f"## typo query ({files} files: {', '.join(TREE_CRATES)}; median of 5 runs)")
    env = env_for(work / "home-empty")
    for query in (TYPO_RIGHT, TYPO_WRONG):
        runs = [measure([kgrep, query, "."], tree, env, timeout) for _ in range(6)][1:]
        walls = [r["wall"] for r in runs]
        print(f"- {query!r}: median {statistics.median(walls):.3f} s "
              f"(min {min(walls):.3f}, max {max(walls):.3f}), peak RSS {runs[0]['rss']:.0f} MiB")
    out = subprocess.run([kgrep, "-v", TYPO_WRONG, "."], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=timeout)
    for line in out.stderr.splitlines():
        if "typo:" in line:
            print(f"  {line}")


def big_file(work: Path) -> Path:
    folder = work / "big"
    path = folder / "app.log"
    size = 1_000_000_000
    if path.exists() and path.stat().st_size == size:
        return folder
    folder.mkdir(exist_ok=True)
    rng = random.Random(28)
    words = ("request handler worker cache session token queue flush retry upstream "
             "latency socket buffer commit shard replica").split()
    lines = []
    for i in range(20_000):
        ws = " ".join(rng.choice(words) for _ in range(8))
        lines.append(f"2024-05-{i % 28 + 1:02d}T12:{i % 60:02d}:00Z INFO svc-{i % 97} {ws} id={i}\n")
    block = "".join(lines).encode()
    needle = b"2024-05-03T04:05:06Z ERROR pool: connection pool exhausted, waiting for a free connection\n"
    with open(path, "wb") as f:
        written = 0
        k = 0
        while written < size:
            chunk = block if k % 50 else block + needle
            chunk = chunk[: size - written]
            f.write(chunk)
            written += len(chunk)
            k += 1
    return folder


def bench_big(kgrep: str, work: Path, timeout: float) -> None:
    folder = big_file(work)
    print("## 1 GB log file (app.log, 100-byte lines, a needle line every 50 blocks)")
    env = env_for(work / "home-empty")
    for label, query in (("natural language", "connection pool exhausted"),
                         ("literal", "\"connection pool exhausted\"")):
        m = measure([kgrep, query, "."], folder, env, timeout)
        print(f"- {label} {query!r}: {shown(m, timeout)}")
        for line in m.get("stderr", "").splitlines()[:3]:
            print(f"  stderr: {line}")


def bloated_docx(work: Path, mib: int = 120) -> Path:
    folder = work / ("docx" if mib == 120 else f"docx{mib}")
    path = folder / "bloated.docx"
    if path.exists():
        return folder
    folder.mkdir(exist_ok=True)
    para = ("<w:p><w:r><w:t>The quarterly report restates the revenue of each region "
            "and the costs of the shared services.</w:t></w:r></w:p>")
    parts = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
             '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
             '<w:body>']
    target = mib << 20
    size = sum(map(len, parts))
    i = 0
    while size < target:
        p = para if i % 64 else para.replace("quarterly", f"quarterly {i}")
        parts.append(p)
        size += len(p)
        i += 1
    parts.append("<w:p><w:r><w:t>The escrow clause is in the appendix.</w:t></w:r></w:p>")
    parts.append("</w:body></w:document>")
    xml = "".join(parts).encode()
    rels = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
            'Target="word/document.xml"/></Relationships>')
    types = ('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", types)
        z.writestr("_rels/.rels", rels)
        z.writestr("word/document.xml", xml)
    (folder / "notes.txt").write_text("The escrow account is reconciled monthly.\n")
    return folder


def bench_docx(kgrep: str, work: Path, timeout: float) -> None:
    for mib in (120, 40):
        folder = bloated_docx(work, mib)
        path = folder / "bloated.docx"
        with zipfile.ZipFile(path) as z:
            inflated = sum(i.file_size for i in z.infolist())
        print(f"## bloated .docx ({path.stat().st_size // 1024} KB zipped, "
              f"{inflated / (1 << 20):.0f} MiB of XML)")
        for query in ("where is the escrow clause", "where is the quarterly revenue restated"):
            m = measure([kgrep, "--offline", query, "."], folder,
                        env_for(work / "home-empty"), timeout)
            print(f"- CLI {query!r}: {shown(m, timeout)}")
            for line in m.get("stderr", "").splitlines()[:4]:
                print(f"  stderr: {line}")


def bench_mcp(kgrep: str, work: Path, timeout: float) -> None:
    for mib in (120, 40):
        mcp_calls(kgrep, work, bloated_docx(work, mib), mib)


def mcp_calls(kgrep: str, work: Path, folder: Path, mib: int) -> None:
    print(f"## bloated .docx ({mib} MiB of XML) through one `kgrep --mcp --offline` server: "
          "three search calls")
    proc = subprocess.Popen([kgrep, "--mcp", "--offline"], cwd=folder,
                            env=env_for(work / "home-empty"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def call(i: int, method: str, params: dict) -> dict:
            line = json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline())
        call(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "bench", "version": "1"}})
        for i in range(3):
            started = time.perf_counter()
            reply = call(i + 2, "tools/call", {"name": "search", "arguments":
                                               {"query": "where is the escrow clause"}})
            took = time.perf_counter() - started
            files = [f["path"] for f in reply["result"]["structuredContent"]["files"]]
            print(f"- call {i + 1}: {took:.2f} s, files {files}")
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)


class Silent(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def hung_server() -> tuple[Silent, int]:
    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            # Read the request, never answer; hold the socket until closed.
            self.request.settimeout(1200)
            try:
                while self.request.recv(65536):
                    pass
            except OSError:
                pass
    server = Silent(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


class Recorder(http.server.BaseHTTPRequestHandler):
    """Answers every POST with `reply` (status, headers, body); records sizes."""
    reply: tuple[int, dict, bytes] = (200, {}, b"{}")
    sizes: list[int] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        type(self).sizes.append(length)
        status, headers, body = type(self).reply
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def recorder(reply: tuple[int, dict, bytes]) -> tuple[http.server.HTTPServer, type, int]:
    handler = type("R", (Recorder,), {"reply": reply, "sizes": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler, server.server_address[1]


def model_home(work: Path, name: str, port: int, extra: str = "") -> Path:
    home = work / name
    (home / ".rlmgrep").mkdir(parents=True, exist_ok=True)
    (home / ".rlmgrep" / "config.toml").write_text(
        f'model = "openai/bench"\napi_base = "http://127.0.0.1:{port}/v1"\n'
        f'api_key = "sk-bench-not-a-key"\n{extra}\n')
    return home


def model_project(work: Path) -> Path:
    """A query whose words the files lack: the judge asks for an expansion,
    then a selection (two model calls on main)."""
    folder = work / "model-project"
    folder.mkdir(exist_ok=True)
    (folder / ".git").mkdir(exist_ok=True)
    (folder / "retry.py").write_text(
        "MAX_RETRIES = 5\n\ndef retry_backoff(attempt):\n    return 0.5 * 2 ** attempt\n")
    (folder / "settings.py").write_text("CONNECT_TIMEOUT = 10\nRETRY_BACKOFF_MAX = 60\n")
    return folder


MODEL_QUERY = "how long does the client wait between reconnection attempts"


def bench_hung(kgrep: str, work: Path, timeout: float) -> None:
    server, port = hung_server()
    home = model_home(work, "home-hung", port)
    folder = model_project(work)
    print("## hung model server (accepts, never answers), llm_timeout at its default")
    m = measure([kgrep, "-v", MODEL_QUERY, "."], folder, env_for(home, KGREP_LLM="auto"),
                max(timeout, 1500))
    print(f"- {MODEL_QUERY!r}: {shown(m, max(timeout, 1500))}")
    for line in m.get("stderr", "").splitlines():
        if "model" in line and ("failed" in line or "call(s)" in line or "deadline" in line):
            print(f"  stderr: {line}")
    server.shutdown()


def bench_retry(kgrep: str, work: Path, timeout: float) -> None:
    body = json.dumps({"error": {"message": "slow down"}}).encode()
    server, handler, port = recorder((429, {"Retry-After": "20", "Content-Type": "application/json"}, body))
    home = model_home(work, "home-retry", port)
    folder = model_project(work)
    print("## model server answering 429 with Retry-After: 20")
    m = measure([kgrep, MODEL_QUERY, "."], folder, env_for(home, KGREP_LLM="auto"), max(timeout, 300))
    print(f"- {MODEL_QUERY!r}: {shown(m, max(timeout, 300))}, {len(handler.sizes)} request(s)")
    warnings = [l for l in m.get("stderr", "").splitlines() if "model" in l]
    print(f"  model warnings on stderr: {len(warnings)}")
    server.shutdown()


def bench_query(kgrep: str, work: Path, timeout: float) -> None:
    reply = json.dumps({"id": "x", "object": "chat.completion", "model": "bench", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "{\"matches\": []}"},
         "finish_reason": "stop"}]}).encode()
    server, handler, port = recorder((200, {"Content-Type": "application/json"}, reply))
    home = model_home(work, "home-query", port, "prompt_tokens = 4000")
    folder = model_project(work)
    rng = random.Random(18)
    words = "retry backoff attempt wait client reconnect delay timeout settings".split()
    query = " ".join(rng.choice(words) for _ in range(20_000))[:130_000]
    print(f"## long queries")
    m = measure([kgrep, "--", query, "."], folder, env_for(home, KGREP_LLM="always"), timeout)
    biggest = max(handler.sizes, default=0)
    print(f"- {len(query) // 1000} KB query, prompt_tokens 4000: {shown(m, timeout)}, "
          f"{len(handler.sizes)} request(s), largest body {biggest / 1024:.1f} KB")
    server.shutdown()
    big_query = " ".join(rng.choice(words) for _ in range(160_000))[:1_000_000]
    proc = subprocess.Popen([kgrep, "--mcp", "--offline"], cwd=folder,
                            env=env_for(work / "home-empty"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def call(i: int, method: str, params: dict) -> bytes:
            line = json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            return proc.stdout.readline()
        call(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "bench", "version": "1"}})
        started = time.perf_counter()
        raw = call(2, "tools/call", {"name": "search", "arguments": {"query": big_query,
                                                                      "max_tokens": 4000}})
        took = time.perf_counter() - started
        result = json.loads(raw)["result"]
        print(f"- MCP search with a {len(big_query) // 1000} KB query, max_tokens 4000: "
              f"{took:.2f} s, result {len(raw) / 1024:.1f} KB, isError {result.get('isError')}")
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)


SECTIONS = {
    "thesaurus": bench_thesaurus,
    "typo": bench_typo,
    "big": bench_big,
    "docx": bench_docx,
    "mcp": bench_mcp,
    "hung": bench_hung,
    "retry": bench_retry,
    "query": bench_query,
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kgrep", default=str(ROOT / "target" / "release" / "kgrep"))
    ap.add_argument("--work", default="/tmp/kgrep-limits")
    ap.add_argument("--only", default=",".join(SECTIONS))
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    kgrep = str(Path(args.kgrep).resolve())
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    (work / "home-empty").mkdir(exist_ok=True)
    print(f"kgrep={kgrep} cores={os.cpu_count()} load={Path('/proc/loadavg').read_text().split()[:3]}")
    for name in args.only.split(","):
        SECTIONS[name](kgrep, work, args.timeout)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
