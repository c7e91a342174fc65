"""The official MCP Python SDK drives `kgrep --mcp` over stdio (issue 20's bar).

Run by .ci/run after `cargo test`, in a venv with requirements.txt:

    python tests/mcp/client.py [path/to/kgrep]

Checks, each against the real binary in a copy of fixtures/corpus:
- the SDK's handshake agrees on a protocol version kgrep serves;
- tools/list has search and answer, each with an input and an output schema
  (the SDK validates every structuredContent against its outputSchema);
- `search` gives the same text, files and lines as the command line;
- a bad path and a bad argument are results with isError true;
- garbage written to the server's stdin in the middle of an SDK session gets a
  JSON-RPC parse error, and the session's next ping is still answered (the SDK
  cannot send garbage itself, so its session runs over a transport that can:
  the SDK's own stdio transport, plus a raw write);
- the server exits 0 when its stdin closes;
- paths outside the server's root (its working directory) are isError, and
  with the SDK's roots callback the client's declared root replaces it.

Exit status 0 when every check passed; the last line says how many did.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.message import SessionMessage

ROOT = Path(__file__).resolve().parents[2]
SERVED = {"2025-11-25", "2025-06-18"}
QUERIES = [
    ("where is the retry delay computed", {}),
    ("MAX_RETRIES", {"context": 1}),
    ("retry|backoff", {"paths": ["src", "tests"]}),
]

passed: list[str] = []
failed: list[str] = []


def check(name: str, ok: bool, detail: object = "") -> None:
    (passed if ok else failed).append(name)
    print(f"{'ok' if ok else 'FAILED'}: {name}" + ("" if ok else f"\n  {detail}"), flush=True)


def corpus() -> Path:
    """A copy of fixtures/corpus that is a repository root, as the Rust tests make it."""
    dest = Path(tempfile.mkdtemp(prefix="kgrep-mcp-")) / "corpus"
    shutil.copytree(ROOT / "fixtures" / "corpus", dest)
    (dest / ".git").mkdir()
    return dest


def environment(home: Path) -> dict[str, str]:
    """A hermetic environment: no user config, no API keys."""
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


def cli(kgrep: str, cwd: Path, env: dict[str, str], args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [kgrep, *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, check=False
    )


def cli_args(query: str, arguments: dict) -> list[str]:
    args: list[str] = []
    if "context" in arguments:
        args += ["-C", str(arguments["context"])]
    return [*args, query, *arguments.get("paths", ["."])]


def cli_matches(kgrep: str, cwd: Path, env: dict[str, str], args: list[str]) -> list[tuple[str, list[int]]]:
    out: list[tuple[str, list[int]]] = []
    for line in cli(kgrep, cwd, env, ["--json", *args]).stdout.decode().splitlines():
        message = json.loads(line)
        if message["type"] != "match":
            continue
        # --json keeps a path as given (./src/... under "."), as rg does; MCP
        # names files relative to the searched folder.
        path = message["data"]["path"]["text"].removeprefix("./")
        if out and out[-1][0] == path:
            out[-1][1].append(message["data"]["line_number"])
        else:
            out.append((path, [message["data"]["line_number"]]))
    return out


def tool_matches(result: types.CallToolResult) -> list[tuple[str, list[int]]]:
    files = (result.structuredContent or {}).get("files", [])
    return [(f["path"], [l["line"] for l in f["lines"] if l["match"]]) for f in files]


async def sdk_session(kgrep: str, cwd: Path, env: dict[str, str]) -> None:
    """The SDK's own stdio client: handshake, tools, search, errors."""
    params = StdioServerParameters(command=kgrep, args=["--mcp"], cwd=str(cwd), env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        check("handshake agrees on a served protocol version", init.protocolVersion in SERVED, init)
        check("server says it is kgrep", init.serverInfo.name == "kgrep", init.serverInfo)

        tools = {t.name: t for t in (await session.list_tools()).tools}
        check("tools/list has search and answer", {"search", "answer"} <= set(tools), list(tools))
        check(
            "every tool has an input and an output schema",
            all(t.inputSchema.get("type") == "object" and t.outputSchema for t in tools.values()),
            tools,
        )

        for query, arguments in QUERIES:
            result = await session.call_tool("search", {"query": query, **arguments})
            args = cli_args(query, arguments)
            expected = cli(kgrep, cwd, env, args)
            text = result.content[0].text if result.content else ""
            check(
                f"search {query!r}: the CLI's text",
                not result.isError and expected.returncode == 0 and text == expected.stdout.decode(),
                f"tool: {text!r}\n  cli: {expected.stdout.decode()!r}",
            )
            check(
                f"search {query!r}: the CLI's files and lines",
                tool_matches(result) == cli_matches(kgrep, cwd, env, args),
                f"{tool_matches(result)} != {cli_matches(kgrep, cwd, env, args)}",
            )

        answer = await session.call_tool("answer", {"query": "where is the retry delay computed"})
        structured = answer.structuredContent or {}
        check(
            "answer gives an answer citing a line",
            not answer.isError and "src/net/client.rs:" in structured.get("answer", {}).get("text", ""),
            answer,
        )

        bad_path = await session.call_tool("search", {"query": "retry", "paths": ["no/such/dir"]})
        message = bad_path.content[0].text if bad_path.content else ""
        check("a bad path is isError with one sentence", bad_path.isError and "no/such/dir" in message, bad_path)
        bad_arg = await session.call_tool("search", {"query": "retry", "context": "three"})
        check("a bad argument is isError", bad_arg.isError, bad_arg)

        await session.send_ping()
        check("ping after errors", True)


async def roots_session(kgrep: str, cwd: Path, env: dict[str, str]) -> None:
    """Tool calls stay inside the roots: the working directory, then the one
    the SDK client declares through its roots callback."""
    outside = cwd.parent / "home"
    (outside / "secret.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    declared = cwd / "src"

    async def list_roots(_context: object) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=declared.as_uri(), name="src")])

    params = StdioServerParameters(command=kgrep, args=["--mcp"], cwd=str(cwd), env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for path in [str(outside / "secret.txt"), "../home/secret.txt"]:
                result = await session.call_tool("search", {"query": "root", "paths": [path]})
                text = result.content[0].text if result.content else ""
                check(f"{path} outside the root is isError", result.isError and "outside the roots" in text, result)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, list_roots_callback=list_roots) as session:
            await session.initialize()
            # The server asks roots/list after initialize; the SDK answers it
            # on its own, so wait until the answer has been taken.
            with anyio.fail_after(10):
                while True:
                    inside = await session.call_tool("search", {"query": "MAX_RETRIES", "paths": [str(declared)]})
                    cwd_call = await session.call_tool("search", {"query": "MAX_RETRIES", "paths": ["."]})
                    if cwd_call.isError:
                        break
                    await anyio.sleep(0.05)
            check("a path in the declared root is searched", not inside.isError, inside)
            check("the working directory is no root once the client declares one", cwd_call.isError, cwd_call)


async def garbage_session(kgrep: str, cwd: Path, env: dict[str, str]) -> None:
    """An SDK ClientSession over a stdio transport that can also write raw
    bytes, so garbage lands between two SDK requests."""
    process = await anyio.open_process([kgrep, "--mcp"], cwd=str(cwd), env=env, stderr=subprocess.DEVNULL)
    to_session, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_session = anyio.create_memory_object_stream[SessionMessage](0)
    raw_replies: list[dict] = []

    async def reader() -> None:
        buffer = b""
        async with to_session:
            async for chunk in process.stdout:
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    raw = json.loads(line)
                    if raw.get("id") is None:
                        raw_replies.append(raw)  # the parse error: no request id to route it to
                        continue
                    await to_session.send(SessionMessage(types.JSONRPCMessage.model_validate(raw)))

    async def writer() -> None:
        async with from_session:
            async for message in from_session:
                data = message.message.model_dump_json(by_alias=True, exclude_none=True)
                await process.stdin.send((data + "\n").encode())

    async with anyio.create_task_group() as tg:
        tg.start_soon(reader)
        tg.start_soon(writer)
        async with ClientSession(read_stream, write_stream) as session:
            await session.initialize()
            await session.send_ping()
            await process.stdin.send(b"this is not JSON-RPC {{{\n")
            await process.stdin.send(b'{"jsonrpc": "2.0", "id": \n')
            with anyio.fail_after(10):
                await session.send_ping()
            check("garbage gets parse errors (-32700)", [r["error"]["code"] for r in raw_replies] == [-32700, -32700], raw_replies)
            check("the next ping is answered after garbage", True)
            result = await session.call_tool("search", {"query": "MAX_RETRIES"})
            check("search still works after garbage", not result.isError, result)
        await process.stdin.aclose()
        with anyio.fail_after(10):
            code = await process.wait()
        check("the server exits 0 when stdin closes", code == 0, code)
        tg.cancel_scope.cancel()


def main() -> int:
    kgrep = str(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "target" / "debug" / "kgrep").resolve())
    cwd = corpus()
    home = cwd.parent / "home"
    home.mkdir()
    env = environment(home)
    try:
        anyio.run(sdk_session, kgrep, cwd, env)
        anyio.run(garbage_session, kgrep, cwd, env)
        anyio.run(roots_session, kgrep, cwd, env)
    except Exception as err:  # an SDK error (schema validation, timeout) is a failure too
        check("the session ran to its end", False, repr(err))
    finally:
        shutil.rmtree(cwd.parent, ignore_errors=True)
    print(f"mcp: {len(passed)} passed, {len(failed)} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
