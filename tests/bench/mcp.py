#!/usr/bin/env python3
"""200 sequential `search` calls in one `kgrep --mcp` server against fresh CLI
processes: latency per call and the server's memory (issue 20's bar).

    python3 tests/bench/mcp.py [--kgrep target/release/kgrep] [--corpus DIR]
                               [--calls 200] [--cli-runs 20]

Raw JSON-RPC over the server's stdio (no SDK needed). The corpus defaults to a
copy of fixtures/corpus; pass a bigger tree (this repository's src/, the cargo
corpus of ../shared/bench) for realistic figures. Queries rotate through
natural-language, identifier and regex ones, so each call does real work.
RSS is read from /proc/PID/status (Linux). Not part of CI: timings on a shared
2-core machine are for people, not for assertions; the test suite checks the
server's behaviour.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUERIES = [
    "where is the retry delay computed",
    "how are tokens parsed",
    "MAX_RETRIES",
    "retry|backoff",
    "where is the connection pool size configured",
]


def rss_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


class Server:
    def __init__(self, kgrep: str, cwd: Path, env: dict[str, str]):
        self.proc = subprocess.Popen(
            [kgrep, "--mcp"], cwd=cwd, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        self.next_id = 0

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if reply.get("id") != self.next_id or "result" not in reply:
            raise SystemExit(f"bad reply to {method}: {reply}")
        return reply["result"]

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kgrep", default=str(ROOT / "target" / "release" / "kgrep"))
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--cli-runs", type=int, default=20)
    args = ap.parse_args()
    kgrep = str(Path(args.kgrep).resolve())
    tmp = Path(tempfile.mkdtemp(prefix="kgrep-mcp-bench-"))
    if args.corpus:
        cwd = Path(args.corpus).resolve()
    else:
        cwd = tmp / "corpus"
        shutil.copytree(ROOT / "fixtures" / "corpus", cwd)
        (cwd / ".git").mkdir()
    home = tmp / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "KGREP_LLM": "off"}
    files = subprocess.run(["rg", "--files"], cwd=cwd, capture_output=True, text=True).stdout.count("\n") \
        if shutil.which("rg") else "?"
    print(f"kgrep={kgrep}\ncorpus={cwd} files={files} cores={os.cpu_count()} "
          f"load={Path('/proc/loadavg').read_text().split()[:3]}")

    server = Server(kgrep, cwd, env)
    server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "bench", "version": "1"}})
    latencies = []
    rss = {}
    answered = 0
    for i in range(args.calls):
        query = QUERIES[i % len(QUERIES)]
        started = time.perf_counter()
        result = server.request("tools/call", {"name": "search", "arguments": {"query": query}})
        latencies.append(time.perf_counter() - started)
        answered += not result.get("isError")
        if i + 1 in (1, 10, 50, 100, args.calls):
            rss[i + 1] = rss_kib(server.proc.pid)
    code = server.close()

    cli = []
    for _ in range(args.cli_runs):
        for query in QUERIES:
            started = time.perf_counter()
            subprocess.run([kgrep, query, "."], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            cli.append(time.perf_counter() - started)
    shutil.rmtree(tmp, ignore_errors=True)

    ms = lambda s: f"{s * 1000:.1f} ms"
    q = statistics.quantiles(latencies, n=10)
    print(f"server: {args.calls} sequential search calls, {answered} answered without isError, exit {code}")
    print(f"server latency per call: median {ms(statistics.median(latencies))}, p90 {ms(q[-1])}, "
          f"first {ms(latencies[0])}, max {ms(max(latencies))}")
    print(f"fresh CLI process per query ({len(cli)} runs): median {ms(statistics.median(cli))}, "
          f"p90 {ms(statistics.quantiles(cli, n=10)[-1])}")
    for n, (now, peak) in rss.items():
        print(f"server RSS after call {n}: {now / 1024:.1f} MiB (peak {peak / 1024:.1f} MiB)")
    first, last = rss[1][0], rss[args.calls][0]
    growth = (last - rss[10][0]) / 1024
    print(f"RSS growth from call 10 to call {args.calls}: {growth:+.1f} MiB "
          f"(from call 1: {(last - first) / 1024:+.1f} MiB)")
    return 0 if answered == args.calls and code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
