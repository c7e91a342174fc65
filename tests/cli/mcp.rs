//! `kgrep --mcp`: the real binary driven with raw JSON-RPC lines on stdin, as
//! an MCP client's stdio transport drives it. The official Python SDK drives
//! it too (`tests/mcp/client.py`, run by `.ci/run`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{json, Value};

use crate::harness::Dir;

/// A running server and the lines it wrote.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Mcp {
    fn start(d: &Dir, extra: &[&str]) -> Mcp {
        let mut cmd = d.std_cmd();
        cmd.args(extra);
        Mcp::spawn(cmd)
    }

    /// Starts `cmd --mcp` (`cmd` runs kgrep, with its flags).
    fn spawn(mut cmd: std::process::Command) -> Mcp {
        cmd.arg("--mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().expect("start kgrep --mcp");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Mcp {
            child,
            stdin,
            stdout,
            next_id: 0,
        }
    }

    /// A server past the handshake.
    fn ready(d: &Dir) -> Mcp {
        let mut mcp = Mcp::start(d, &[]);
        let init = mcp.request("initialize", initialize("2025-11-25"));
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
        mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        mcp
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, parsed (every line must be JSON).
    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "no response line: {line:?}");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
    }

    /// The next line the server writes, as text.
    fn read_text(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line
    }

    /// Sends a raw line; returns the response to it.
    fn raw(&mut self, line: &str) -> Value {
        self.send_line(line);
        self.read()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let message =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let response = self.raw(&message.to_string());
        assert_eq!(response["id"], self.next_id, "{response}");
        response
    }

    /// A tool's result (`result` of `tools/call`).
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        response["result"].clone()
    }

    /// Closes stdin; returns the exit code and anything else written.
    fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let status = self.child.wait().unwrap();
        (status.code().unwrap_or(-1), rest)
    }
}

fn initialize(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "kgrep-tests", "version": "1"},
    })
}

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[test]
fn handshake_negotiates_the_current_or_previous_revision() {
    let d = corpus();
    for (asked, agreed) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let mut mcp = Mcp::start(&d, &[]);
        let init = mcp.request("initialize", initialize(asked));
        let result = &init["result"];
        assert_eq!(result["protocolVersion"], agreed, "{init}");
        assert_eq!(result["serverInfo"]["name"], "kgrep");
        assert!(result["capabilities"]["tools"].is_object(), "{init}");
        assert!(result["instructions"].as_str().unwrap().contains("search"));
        let (code, rest) = mcp.finish();
        assert_eq!((code, rest.as_str()), (0, ""));
    }
}

#[test]
fn requests_before_initialize_are_refused_but_ping_is_answered() {
    let d = corpus();
    let mut mcp = Mcp::start(&d, &[]);
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
    let early = mcp.request("tools/list", json!({}));
    assert_eq!(early["error"]["code"], -32600, "{early}");
    let no_version = mcp.request("initialize", json!({"capabilities": {}}));
    assert_eq!(no_version["error"]["code"], -32602, "{no_version}");
    let init = mcp.request("initialize", initialize("2025-06-18"));
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    let again = mcp.request("initialize", initialize("2025-06-18"));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert!(mcp.request("tools/list", json!({}))["result"]["tools"].is_array());
}

#[test]
fn tools_list_describes_each_tool_with_both_schemas() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    let list = mcp.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search", "answer", "explain"]);
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["inputSchema"]["required"], json!(["query"]));
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
        for arg in [
            "query",
            "paths",
            "globs",
            "types",
            "context",
            "max_lines",
            "max_tokens",
            "offline",
        ] {
            assert!(tool["inputSchema"]["properties"][arg].is_object(), "{arg}");
        }
        assert!(!tool["description"].as_str().unwrap().is_empty());
    }
}

/// The CLI's matches as (path, line numbers), from `--json`.
fn cli_matches(d: &Dir, args: &[&str]) -> Vec<(String, Vec<u64>)> {
    let run = d.run(&[&["--json"], args].concat());
    let mut out: Vec<(String, Vec<u64>)> = Vec::new();
    for line in run.stdout.lines() {
        let m: Value = serde_json::from_str(line).unwrap();
        if m["type"] != "match" {
            continue;
        }
        // `--json` keeps a path as given (`./src/…` under `.`, as rg does);
        // MCP results name files relative to the searched folder.
        let given = m["data"]["path"]["text"].as_str().unwrap();
        let path = given.strip_prefix("./").unwrap_or(given).to_string();
        let n = m["data"]["line_number"].as_u64().unwrap();
        match out.last_mut() {
            Some((p, lines)) if *p == path => lines.push(n),
            _ => out.push((path, vec![n])),
        }
    }
    out
}

fn tool_matches(result: &Value) -> Vec<(String, Vec<u64>)> {
    result["structuredContent"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let lines = f["lines"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|l| l["match"] == true)
                .map(|l| l["line"].as_u64().unwrap())
                .collect();
            (f["path"].as_str().unwrap().to_string(), lines)
        })
        .collect()
}

#[test]
fn search_gives_the_cli_text_and_lines() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    for (query, args) in [
        ("where is the retry delay computed", json!({})),
        ("MAX_RETRIES", json!({"context": 1})),
        ("retry|backoff", json!({"paths": ["src", "tests"]})),
        ("token", json!({"globs": ["*.py"], "max_lines": 2})),
    ] {
        let mut arguments = args.clone();
        arguments["query"] = json!(query);
        let result = mcp.call("search", arguments);
        assert_eq!(result["isError"], false, "{result}");
        let mut cli_args: Vec<String> = Vec::new();
        if let Some(c) = args["context"].as_u64() {
            cli_args.extend(["-C".into(), c.to_string()]);
        }
        if let Some(m) = args["max_lines"].as_u64() {
            cli_args.extend(["--max-lines".into(), m.to_string()]);
        }
        for g in args["globs"].as_array().into_iter().flatten() {
            cli_args.extend(["-g".into(), g.as_str().unwrap().into()]);
        }
        cli_args.push(query.into());
        match args["paths"].as_array() {
            Some(paths) => cli_args.extend(paths.iter().map(|p| p.as_str().unwrap().to_string())),
            None => cli_args.push(".".into()),
        }
        let cli_args: Vec<&str> = cli_args.iter().map(String::as_str).collect();
        let cli = d.run(&cli_args);
        cli.code(0);
        assert_eq!(text(&result), cli.stdout, "{query}: text differs");
        assert_eq!(tool_matches(&result), cli_matches(&d, &cli_args), "{query}");
        let sc = &result["structuredContent"];
        assert_eq!(sc["model_consulted"], false);
        assert_eq!(sc["left_out"]["lines"], 0);
    }
}

#[test]
fn search_results_carry_scores_terms_and_the_verdict() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    let result = mcp.call("search", json!({"query": "retry delay backoff"}));
    let sc = &result["structuredContent"];
    let first = &sc["files"][0];
    assert_eq!(first["path"], "src/net/client.rs");
    assert!(first["score"].as_f64().unwrap() > 0.0);
    let line = &first["lines"][0];
    assert!(line["score"].as_f64().unwrap() > 0.0, "{line}");
    assert!(
        line["terms"]
            .as_array()
            .unwrap()
            .contains(&json!("backoff")),
        "{line}"
    );
    assert!(sc["sufficient"].is_boolean(), "{sc}");
    assert_eq!(sc["query"]["kind"], "natural");
    let exact = mcp.call("search", json!({"query": "MAX_RETRIES"}));
    assert!(exact["structuredContent"]["sufficient"].is_null());
    assert!(exact["structuredContent"]["files"][0]["score"].is_null());
}

#[test]
fn tool_failures_are_results_with_is_error_and_one_sentence() {
    let d = corpus();
    d.write("empty/.keep", "");
    let mut mcp = Mcp::ready(&d);
    for (arguments, says) in [
        (
            json!({"query": "retry", "paths": ["nope"]}),
            "Path 'nope' does not exist",
        ),
        // `-` is a file name here, never the server's stdin (the client's
        // messages), which the command line's `-` reads.
        (
            json!({"query": "retry", "paths": ["-"]}),
            "Path '-' does not exist",
        ),
        (
            json!({"query": "retry", "context": -1}),
            "Argument 'context' must be a whole number",
        ),
        (
            json!({"query": "retry", "max_tokens": 0}),
            "Argument 'max_tokens'",
        ),
        (json!({"query": ""}), "Argument 'query' is empty"),
        (json!({"paths": ["src"]}), "Argument 'query' is missing"),
        (
            json!({"query": "retry", "colour": true}),
            "Unknown argument 'colour'",
        ),
        (
            json!({"query": "retry", "offline": "yes"}),
            "Argument 'offline'",
        ),
        (
            json!({"query": "retry", "paths": vec!["src"; 1001]}),
            "Argument 'paths' lists 1001 items, more than the 1000 a call may name",
        ),
        (
            json!({"query": "retry", "globs": ["["]}),
            "Error parsing glob '[': unclosed character class",
        ),
        (
            json!({"query": "retry", "paths": ["empty"], "globs": ["*.rs"]}),
            "No file to search",
        ),
    ] {
        let result = mcp.call("search", arguments.clone());
        assert_eq!(result["isError"], true, "{arguments}: {result}");
        let sentence = text(&result);
        assert!(sentence.starts_with(says), "{arguments}: {sentence}");
        assert!(
            !sentence.contains('\n') && sentence.ends_with('.'),
            "{sentence}"
        );
    }
    let ok = mcp.call("search", json!({"query": "MAX_RETRIES"}));
    assert_eq!(ok["isError"], false, "the server goes on after failures");
}

#[test]
fn a_warning_is_said_once_in_a_result() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    let warning = "unknown type 'nosuchtype', treating as extension '.nosuchtype'";
    // Said by the filter check and by the walk: one warning, said once.
    let result = mcp.call(
        "search",
        json!({"query": "MAX_RETRIES", "types": ["nosuchtype", "py"]}),
    );
    assert_eq!(result["isError"], false, "{result}");
    let warnings = &result["structuredContent"]["warnings"];
    let said = warnings
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| *w == warning)
        .count();
    assert_eq!(said, 1, "{warnings}");
    let notes = result["content"].as_array().unwrap().last().unwrap();
    assert_eq!(notes["text"].as_str().unwrap().matches(warning).count(), 1);
    // Nothing of that type: the error's sentence says it once too.
    let result = mcp.call("search", json!({"query": "retry", "types": ["nosuchtype"]}));
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(text(&result).matches(warning).count(), 1, "{result}");
}

#[cfg(unix)]
#[test]
fn an_unreadable_tree_is_an_error_result() {
    use std::os::unix::fs::PermissionsExt;
    let d = corpus();
    let locked = d.write("locked/a.rs", "fn retry() {}\n");
    let dir = locked.parent().unwrap().to_path_buf();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // root reads everything: the server runs as nobody then, as a user's would.
    let as_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    let mut mcp = if as_root {
        assert!(
            std::path::Path::new("/usr/bin/setpriv").exists(),
            "setpriv is needed to test permissions as root (.ci/run installs util-linux)"
        );
        std::fs::set_permissions(d.home.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        let mut cmd = std::process::Command::new("/usr/bin/setpriv");
        cmd.env_clear()
            .env("HOME", d.home.path())
            .env("PATH", "/usr/bin:/bin")
            .current_dir(d.path())
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(assert_cmd::cargo::cargo_bin("kgrep"));
        Mcp::spawn(cmd)
    } else {
        Mcp::start(&d, &[])
    };
    mcp.request("initialize", initialize("2025-11-25"));
    let result = mcp.call("search", json!({"query": "retry", "paths": ["locked"]}));
    let readable = mcp.call("search", json!({"query": "MAX_RETRIES", "paths": ["src"]}));
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("ermission denied"), "{result}");
    assert_eq!(readable["isError"], false, "{readable}");
}

#[test]
fn malformed_messages_get_json_rpc_errors_and_the_server_goes_on() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    for (line, code) in [
        ("this is not json", -32700),
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", -32700),
        ("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", -32600),
        ("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}", -32600),
        ("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such\"}", -32601),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"grep\"}}",
            -32602,
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":[1]}}",
            -32602,
        ),
    ] {
        let response = mcp.raw(line);
        assert_eq!(response["error"]["code"], code, "{line}: {response}");
        let ping = mcp.request("ping", json!({}));
        assert_eq!(ping["result"], json!({}), "after {line}");
    }
    let response = mcp.raw("\u{1}\u{2} binary garbage \u{7f}");
    assert_eq!(response["id"], Value::Null);
    // Notifications, known or not, get no response: the next line is the ping's.
    mcp.send_line(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
    );
    mcp.send_line(r#"{"jsonrpc":"2.0","method":"whatever"}"#);
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
}

#[test]
fn request_ids_come_back_as_the_client_sent_them() {
    // Past 64 bits serde_json's `Value` reads a number as a float: these came
    // back as `1.8446744073709552e19` and the like, ids never sent.
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    for id in [
        "18446744073709551616",
        "-99999999999999999999",
        "1e3",
        "0.5",
        r#""x\u0079""#,
    ] {
        mcp.send_line(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        assert_eq!(
            mcp.read_text(),
            format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}\n")
        );
        mcp.send_line(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"no/such"}}"#
        ));
        let line = mcp.read_text();
        assert!(
            line.starts_with(&format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":")),
            "{line}"
        );
    }
}

#[test]
fn eof_ends_the_server_cleanly_with_only_protocol_on_stdout() {
    let d = corpus();
    let mut cmd = d.std_cmd();
    let input = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize("2025-11-25")}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "where is the retry delay computed"}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "answer", "arguments": {"query": "where is the retry delay computed"}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "x", "paths": ["nope"]}}}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n");
    let mut child = cmd
        .arg("--mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let ids: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("every stdout line is JSON")["id"].clone())
        .collect();
    assert_eq!(ids, [json!(1), json!(2), json!(3), json!(4)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("kgrep: Scanned"),
        "diagnostics go to stderr: {stderr}"
    );
}

#[test]
fn answer_and_explain_tools() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    let question = "where is the retry delay computed";
    let answer = mcp.call("answer", json!({"query": question}));
    assert_eq!(answer["isError"], false, "{answer}");
    let sc = &answer["structuredContent"];
    assert_eq!(sc["answer"]["source"], "extractive");
    assert!(text(&answer).starts_with("Extractive answer"), "{answer}");
    assert!(text(&answer).contains("src/net/client.rs:55"), "{answer}");
    let cli = d.run(&[question, "."]);
    assert_eq!(
        answer["content"][1]["text"],
        cli.stdout.as_str(),
        "then the lines"
    );
    let explain = mcp.call("explain", json!({"query": "parse jwt"}));
    let why = explain["structuredContent"]["explanations"]
        .as_array()
        .unwrap();
    assert!(
        why[0]
            .as_str()
            .unwrap()
            .starts_with("src/auth/jwt.py: rank"),
        "{explain}"
    );
    assert_eq!(
        why.len(),
        6,
        "the file, its two units and their three lines: {explain}"
    );
}

#[test]
fn max_tokens_bounds_the_whole_result() {
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    for budget in [300usize, 1_000] {
        let result = mcp.call("search", json!({"query": r"\w", "max_tokens": budget}));
        let used = kgrep::budget::tokens(result.to_string().as_bytes());
        assert!(used <= budget, "{used} tokens: {result}");
        let sc = &result["structuredContent"];
        assert!(sc["left_out"]["lines"].as_u64().unwrap() > 0, "{result}");
        let note = result["content"].as_array().unwrap().last().unwrap()["text"]
            .as_str()
            .unwrap();
        assert!(
            note.starts_with(&format!("max_tokens {budget}: left out")),
            "{note}"
        );
    }
    // The answer tool's result with its best line (a budget always keeps
    // it) is about 330 tokens: the answer gets what is left of 600.
    let answer = mcp.call(
        "answer",
        json!({"query": "where is the retry delay computed", "max_tokens": 600}),
    );
    assert!(
        kgrep::budget::tokens(answer.to_string().as_bytes()) <= 600,
        "{answer}"
    );
    let lines: Vec<u64> = answer["structuredContent"]["files"][0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["line"].as_u64().unwrap())
        .collect();
    assert!(lines.contains(&55), "{answer}");
}

#[test]
fn a_long_query_is_echoed_cut_within_max_tokens() {
    // Issue 28: the query was echoed whole in structuredContent, so a 1 MB
    // query made a 1 MB result whatever max_tokens said.
    let d = corpus();
    let mut mcp = Mcp::ready(&d);
    let words = ["retry", "delay", "computed", "backoff", "attempt"];
    let query: String = (0..200_000)
        .map(|i| words[i % 5])
        .collect::<Vec<_>>()
        .join(" ");
    assert!(query.len() > 1_000_000);
    let result = mcp.call("search", json!({"query": query, "max_tokens": 4000}));
    assert_eq!(result["isError"], false, "{}", &result.to_string()[..500]);
    let used = kgrep::budget::tokens(result.to_string().as_bytes());
    assert!(used <= 4000, "{used} tokens");
    let echo = &result["structuredContent"]["query"];
    assert_eq!(echo["cut"], true);
    assert_eq!(echo["bytes"], query.len());
    let text = echo["text"].as_str().unwrap();
    assert!(
        query.starts_with(text) && text.len() > 1_000,
        "{}",
        text.len()
    );
    // A query of ordinary length is echoed whole, without the fields.
    let short = mcp.call(
        "search",
        json!({"query": "where is the retry delay computed"}),
    );
    let echo = &short["structuredContent"]["query"];
    assert_eq!(echo["text"], "where is the retry delay computed");
    assert!(
        echo.get("cut").is_none() && echo.get("bytes").is_none(),
        "{echo}"
    );
}

#[test]
fn a_document_is_converted_once_per_state_across_calls() {
    // Issue 28: the server converted a document again on every call (10–15 s
    // each for a bloated one). The second call here is served the first
    // call's conversion: the file was rewritten behind the server's back with
    // its time and size kept, and the old text still comes back. Once its
    // time changes, the new text does.
    let d = Dir::new();
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    let path = d.write(
        "minutes.docx",
        crate::harness::docx(["alpha gizmo meeting"]),
    );
    let mut mcp = Mcp::ready(&d);
    let query = json!({"query": "\"gizmo meeting\""});
    let first = mcp.call("search", query.clone());
    assert!(text(&first).contains("alpha gizmo meeting"), "{first}");
    let stamp = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, crate::harness::docx(["bravo gizmo meeting"])).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(stamp).unwrap();
    let second = mcp.call("search", query.clone());
    assert!(text(&second).contains("alpha gizmo meeting"), "{second}");
    file.set_modified(stamp + std::time::Duration::from_secs(5))
        .unwrap();
    let third = mcp.call("search", query);
    assert!(text(&third).contains("bravo gizmo meeting"), "{third}");
}

#[test]
fn the_learned_thesaurus_is_read_again_when_it_changes() {
    let d = Dir::new();
    d.write("src/parts.rs", "fn build_widget() {}\n");
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    let mut mcp = Mcp::ready(&d);
    let before = mcp.call("search", json!({"query": "where is the gizmo"}));
    assert_eq!(text(&before), "No lines matched.", "{before}");
    let learned = d.learned_path();
    std::fs::create_dir_all(learned.parent().unwrap()).unwrap();
    std::fs::write(
        &learned,
        r#"{"data": {"gizmo": {"id": 1, "nterm": "widget"}}}"#,
    )
    .unwrap();
    let after = mcp.call("search", json!({"query": "where is the gizmo"}));
    assert!(text(&after).contains("1:\tfn build_widget() {}"), "{after}");
}

#[test]
fn server_flags_are_defaults_and_a_pattern_is_refused() {
    let d = corpus();
    let run = d.run(&["--mcp", "retry"]);
    run.code(2)
        .stdout_is("")
        .stderr_has("--mcp takes no pattern");
    // Flags that would take the query from elsewhere (it became a path),
    // write rows among the protocol (--features), or print no lines while
    // the structured content lists them: refused, one line, before serving.
    for (args, flag) in [
        (&["-e", "retry"][..], "-e/--regexp"),
        (&["--features"][..], "--features"),
        (&["-q"][..], "-q/--quiet"),
        (&["-l"][..], "-l/--files-with-matches"),
        (&["--files"][..], "--files"),
    ] {
        d.run(&[&["--mcp"][..], args].concat())
            .code(2)
            .stdout_is("")
            .stderr_is(&format!(
                "kgrep: --mcp takes no {flag}: each tool call gives its own query and gets its \
                 results as text and structured content\n"
            ));
    }
    let mut mcp = Mcp::start(&d, &["--max-lines", "1"]);
    mcp.request("initialize", initialize("2025-11-25"));
    let one = mcp.call("search", json!({"query": "parse jwt"}));
    assert_eq!(
        text(&one).lines().filter(|l| l.contains(":\t")).count(),
        1,
        "{one}"
    );
    let more = mcp.call("search", json!({"query": "parse jwt", "max_lines": 5}));
    assert!(
        text(&more).lines().filter(|l| l.contains(":\t")).count() > 1,
        "{more}"
    );
}

/// A project beside a folder it must not read, with a symlink out of it.
fn fenced() -> (Dir, std::path::PathBuf) {
    let d = corpus();
    let outside = d.home.path().join("outside");
    std::fs::create_dir_all(outside.join(".ssh")).unwrap();
    std::fs::write(
        outside.join(".ssh/id_rsa"),
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\n",
    )
    .unwrap();
    std::fs::write(outside.join("passwd"), "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, d.path().join("link-out")).unwrap();
    (d, outside)
}

/// The paths a prompt-injected agent would ask for.
fn outside_paths(d: &Dir, outside: &std::path::Path) -> Vec<String> {
    let up = d
        .path()
        .components()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .map(|_| "..")
        .collect::<Vec<_>>()
        .join("/");
    let mut paths = vec![
        outside.join("passwd").display().to_string(),
        format!("{up}{}", outside.join("passwd").display()),
        outside.join(".ssh/id_rsa").display().to_string(),
        "..".to_string(),
    ];
    if cfg!(unix) {
        paths.push("link-out".into());
        paths.push("link-out/passwd".into());
        // The system follows the link before the `..` after it: these open
        // the outside folder's parent, never the project (the name alone,
        // its `..` taken first, said they were the project).
        paths.push("link-out/..".into());
        paths.push("link-out/../outside/passwd".into());
        // Under the link, a name is outside whether or not it exists.
        paths.push("link-out/nothing-here".into());
    }
    paths
}

#[test]
fn paths_outside_the_root_are_refused_with_one_sentence() {
    let (d, outside) = fenced();
    let mut mcp = Mcp::ready(&d);
    for path in outside_paths(&d, &outside) {
        for query in ["^.*$", "root", "where is the private key"] {
            let result = mcp.call("search", json!({"query": query, "paths": [path]}));
            assert_eq!(result["isError"], true, "{path}: {result}");
            let sentence = text(&result);
            assert!(
                sentence.starts_with(&format!("Path '{path}' is outside the roots")),
                "{sentence}"
            );
            assert!(!sentence.contains('\n') && sentence.ends_with('.'));
            let all = result.to_string();
            assert!(!all.contains("root:x:0"), "{all}");
            assert!(!all.contains("b3BlbnNzaC1"), "{all}");
        }
    }
    // Inside the root, and the default path, still work.
    let ok = mcp.call("search", json!({"query": "MAX_RETRIES", "paths": ["src"]}));
    assert_eq!(ok["isError"], false, "{ok}");
    let ok = mcp.call("search", json!({"query": "MAX_RETRIES"}));
    assert_eq!(ok["isError"], false, "{ok}");
}

/// `max_tokens` holds for one long line and for context: a minified line is
/// a preview around its match (in the text and in `structuredContent`,
/// whatever the query), and a best line whose context is over the budget
/// gets less context, with a note.
#[test]
fn max_tokens_holds_for_a_long_line_and_for_context() {
    let d = corpus();
    let filler: String = (0..400_000)
        .map(|i| ["a;", "b(", "c)", "d="][i % 4])
        .collect();
    d.write(
        "dist/bundle.min.js",
        format!("{filler}needleFunction(){filler}\n"),
    );
    let wide: String = (0..300)
        .map(|i| format!("row {i} {}\n", "w".repeat(250)))
        .collect();
    d.write("data/wide.txt", format!("{wide}target line here\n{wide}"));
    let mut mcp = Mcp::ready(&d);
    let fits = |result: &Value, max: usize| {
        let tokens = result.to_string().len().div_ceil(3);
        assert!(tokens <= max, "{tokens} tokens over {max}");
    };
    for (query, max) in [
        ("needleFunction", 4_000),
        ("\"needleFunction()\"", 500),
        ("needle.*Function", 300),
        ("where is the needle function", 500),
    ] {
        let args = json!({"query": query, "max_tokens": max, "paths": ["dist"]});
        let result = mcp.call("search", args);
        assert_eq!(result["isError"], false, "{result}");
        fits(&result, max);
        let content = text(&result);
        assert!(content.contains("needleFunction"), "{query}: {content}");
        assert!(content.contains("bytes omitted]"), "{query}: {content}");
        let line = &result["structuredContent"]["files"][0]["lines"][0];
        let shown = line["text"].as_str().unwrap();
        assert!(
            shown.starts_with("[... ") && shown.ends_with(" bytes omitted]"),
            "{shown}"
        );
        assert!(
            shown.contains("needleFunction") && shown.len() < 400,
            "{shown}"
        );
    }
    for (context, max, kept) in [(100, 4_000, 6), (100, 1_000, 1), (2, 4_000, 2)] {
        let args = json!({"query": "\"target line here\"", "context": context, "max_tokens": max});
        let result = mcp.call("search", args);
        fits(&result, max);
        let lines = result["structuredContent"]["files"][0]["lines"]
            .as_array()
            .unwrap();
        assert_eq!(lines.len(), 2 * kept + 1, "{result}");
        let all = result.to_string();
        assert_eq!(all.contains("context cut to"), kept < context, "{all}");
    }
}

/// A FIFO named in a tool call is skipped, not read: the command line reads
/// one as rg does, waiting for its writer, but a pipe nobody writes would
/// hold the server and every call after it. (A writer that comes only once
/// kgrep opens the pipe keeps a wrong build from hanging the test.)
#[cfg(unix)]
#[test]
fn a_named_pipe_in_a_call_is_skipped_and_the_server_answers_on() {
    let d = corpus();
    if !crate::harness::mkfifo(&d, "pipe") {
        eprintln!("mkfifo unavailable; skipped");
        return;
    }
    let writer = crate::harness::write_when_read(
        d.path().join("pipe"),
        b"planted retry line\n",
        std::time::Duration::from_secs(8),
    );
    let mut mcp = Mcp::ready(&d);
    let result = mcp.call(
        "search",
        json!({"query": "planted retry", "paths": ["pipe"]}),
    );
    assert!(!text(&result).contains("planted retry line"), "{result}");
    let after = mcp.call("search", json!({"query": "retry backoff"}));
    assert_eq!(after["isError"], false, "{after}");
    assert!(!writer.join().unwrap(), "the server opened the pipe");
}

/// Files that are secrets by nature (`.env`, keys, credentials) are never
/// returned: a call that names one is refused with one sentence, and a walk
/// leaves them out, even under the server's `--hidden` and `--no-ignore`
/// (a result goes into the client's model, as a prompt does). Templates
/// and ordinary files that mention the same words still are.
#[test]
fn secrets_files_inside_the_roots_are_never_returned() {
    let d = corpus();
    let token = "planted-value-0f3a9c";
    d.write(".env", format!("DATABASE_PASSWORD={token}\n"));
    d.write(
        "config/credentials.json",
        format!("{{\"token\": \"{token}\"}}\n"),
    );
    d.write(
        "deploy/server.pem",
        format!("-----BEGIN PRIVATE KEY-----\n{token}\n"),
    );
    d.write(".env.example", "DATABASE_PASSWORD=change-me\n");
    d.write(
        "src/settings.py",
        "DATABASE_PASSWORD = os.environ['DATABASE_PASSWORD']\n",
    );
    d.write(".ssh/id_rsa", format!("{token}\n"));
    d.write(".ssh/id_rsa.pub", "ssh-ed25519 AAAA planted-value-public\n");
    // A key whose name says nothing: only its `.ssh` folder does.
    d.write(".ssh/github", format!("{token}\n"));
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.path().join(".env"), d.path().join("notes.txt")).unwrap();
    // A link to the folder: the walk would know its files as `keys/github`.
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.path().join(".ssh"), d.path().join("keys")).unwrap();
    for extra in [&[][..], &["--hidden", "--no-ignore"][..]] {
        let mut mcp = Mcp::start(&d, extra);
        mcp.request("initialize", initialize("2025-11-25"));
        let mut named = vec![
            ".env",
            "config/credentials.json",
            "deploy/server.pem",
            "./config/../.env",
        ];
        if cfg!(unix) {
            named.extend(["notes.txt", "keys"]);
        }
        for path in named {
            let result = mcp.call(
                "search",
                json!({"query": "DATABASE_PASSWORD", "paths": [path]}),
            );
            assert_eq!(result["isError"], true, "{path}: {result}");
            let sentence = text(&result);
            assert!(sentence.contains("is a secrets file"), "{sentence}");
            assert!(!sentence.contains('\n') && sentence.ends_with('.'));
            assert!(!result.to_string().contains(token), "{result}");
        }
        for (query, paths) in [
            ("DATABASE_PASSWORD", json!(["."])),
            ("planted-value", json!(["."])),
            ("where is the database password set", json!(["."])),
            ("(?i)private key", json!(["."])),
            // A folder is searched, its secrets files left out.
            ("planted-value", json!([".ssh"])),
        ] {
            let result = mcp.call("search", json!({"query": query, "paths": paths}));
            assert_eq!(result["isError"], false, "{result}");
            let all = result.to_string();
            assert!(!all.contains(token), "{extra:?} {query}: {all}");
            assert!(
                !all.contains("credentials.json"),
                "{extra:?} {query}: {all}"
            );
        }
        let result = mcp.call("search", json!({"query": "DATABASE_PASSWORD"}));
        let all = result.to_string();
        assert!(all.contains("src/settings.py"), "{all}");
        assert_eq!(all.contains(".env.example"), !extra.is_empty(), "{all}");
    }
    // The command line reads them, as rg does.
    d.run(&["-l", "--hidden", "\"planted-value-0f3a9c\"", "."])
        .code(0)
        .stdout_has(".env\n")
        .stdout_has("./config/credentials.json\n");
}

/// Tools' logins the s45b probe found served (the GitHub CLI's
/// `hosts.yml`, a kubeconfig, Terraform's and Ansible Vault's files, a
/// Google OAuth client secret) are secrets files too: refused by name, left
/// out of a walk.
#[test]
fn tool_logins_inside_the_roots_are_never_returned() {
    let d = corpus();
    let token = "planted-login-7c41e2";
    let files = [
        ".config/gh/hosts.yml",
        "deploy/kubeconfig",
        ".terraformrc",
        ".vault_pass",
        "client_secret_42.apps.googleusercontent.com.json",
    ];
    for file in files {
        d.write(file, format!("oauth_token: {token}\n"));
    }
    let mut mcp = Mcp::start(&d, &["--hidden", "--no-ignore"]);
    mcp.request("initialize", initialize("2025-11-25"));
    for path in files {
        let result = mcp.call("search", json!({"query": "oauth_token", "paths": [path]}));
        assert_eq!(result["isError"], true, "{path}: {result}");
        assert!(text(&result).contains("is a secrets file"), "{result}");
        assert!(!result.to_string().contains(token), "{result}");
    }
    let result = mcp.call(
        "search",
        json!({"query": "\"planted-login\"", "paths": ["."]}),
    );
    assert!(!result.to_string().contains(token), "{result}");
    // The command line reads them, as rg does.
    d.run(&["-l", "--hidden", "\"planted-login-7c41e2\"", "."])
        .code(0)
        .stdout_has("./deploy/kubeconfig\n");
}

/// Token caches and logins the s48 brief named (`token.json`, a top-level
/// `auth.json`, the Codex CLI's, GitHub Copilot's) are secrets files too:
/// refused by name, left out of a walk; a lexer's `tokens.json` is not.
#[test]
fn token_caches_inside_the_roots_are_never_returned() {
    let d = corpus();
    let token = "planted-cache-5e93a1";
    let files = [
        "token.json",
        "auth.json",
        ".codex/auth.json",
        ".config/github-copilot/hosts.json",
    ];
    for file in files {
        d.write(file, format!("{{\"oauth_token\": \"{token}\"}}\n"));
    }
    d.write(
        "tests/lexer/tokens.json",
        "{\"oauth_token\": \"planted-cache-lexer\"}\n",
    );
    let mut mcp = Mcp::start(&d, &["--hidden", "--no-ignore"]);
    mcp.request("initialize", initialize("2025-11-25"));
    for path in files {
        let result = mcp.call("search", json!({"query": "oauth_token", "paths": [path]}));
        assert_eq!(result["isError"], true, "{path}: {result}");
        assert!(text(&result).contains("is a secrets file"), "{result}");
        assert!(!result.to_string().contains(token), "{result}");
    }
    let result = mcp.call(
        "search",
        json!({"query": "\"planted-cache\"", "paths": ["."]}),
    );
    let all = result.to_string();
    assert!(all.contains("tests/lexer/tokens.json"), "{result}");
    assert!(!all.contains(token), "{result}");
}

/// The server's own `-L` does not make a call's walk follow a link out of
/// the roots (the named paths are checked; the walk never follows one).
#[cfg(unix)]
#[test]
fn a_call_never_follows_a_symlink_out_even_with_the_servers_follow() {
    let (d, _outside) = fenced();
    let mut mcp = Mcp::start(&d, &["-L"]);
    mcp.request("initialize", initialize("2025-11-25"));
    for query in ["root:x:0", "BEGIN OPENSSH PRIVATE KEY"] {
        let result = mcp.call("search", json!({"query": query}));
        let all = result.to_string();
        assert!(!all.contains("link-out"), "{all}");
        assert!(!all.contains("b3BlbnNzaC1"), "{all}");
    }
    // The command line still follows it when asked.
    d.run(&["-L", "-l", "\"root:x:0\"", "."])
        .code(0)
        .stdout_is("./link-out/passwd\n");
}

/// A client that declares roots narrows where calls look: a call that comes
/// before its `roots/list` answer waits for it (served against the working
/// directory, it could read what the roots leave out), one that never gets
/// it is refused, and roots none of which is a local folder leave nothing
/// to search, never the working directory.
#[test]
fn calls_wait_for_the_clients_roots_and_unusable_roots_leave_none() {
    let (d, _outside) = fenced();
    let src = d.path().join("src");
    let start = || {
        let mut mcp = Mcp::start(&d, &[]);
        let mut params = initialize("2025-11-25");
        params["capabilities"] = json!({"roots": {}});
        mcp.request("initialize", params);
        mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        let ask = mcp.read();
        assert_eq!(ask["method"], "roots/list", "{ask}");
        (mcp, ask["id"].clone())
    };
    let call = |id: u64, path: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "search", "arguments": {"query": "retry", "paths": [path]}}})
        .to_string()
    };
    // A call before the answer waits, then is checked against the roots.
    let (mut mcp, ask) = start();
    mcp.send_line(&call(7, "docs"));
    let roots = json!({"roots": [{"uri": format!("file://{}", src.display())}]});
    mcp.send_line(&json!({"jsonrpc": "2.0", "id": ask, "result": roots}).to_string());
    let held = mcp.read();
    assert_eq!(held["id"], 7, "{held}");
    assert_eq!(held["result"]["isError"], true, "{held}");
    assert!(text(&held["result"]).starts_with("Path 'docs' is outside the roots"));
    // No answer ever: the held call is refused when the input ends.
    let (mut mcp, _) = start();
    mcp.send_line(&call(8, "docs"));
    let (code, rest) = mcp.finish();
    assert_eq!(code, 0);
    let refused: Value = serde_json::from_str(rest.trim()).unwrap();
    assert_eq!(refused["id"], 8, "{rest}");
    assert_eq!(refused["result"]["isError"], true, "{rest}");
    assert!(
        text(&refused["result"]).contains("input ended before it answered"),
        "{rest}"
    );
    // Past the 64 calls held, a call is refused at once, and may come again.
    let (mut mcp, _) = start();
    for id in 100..165 {
        mcp.send_line(&call(id, "docs"));
    }
    let over = mcp.read();
    assert_eq!(over["id"], 164, "{over}");
    assert!(
        text(&over["result"]).contains("call again once it has answered"),
        "{over}"
    );
    // Roots of which none is a local folder: nothing is searched.
    let (mut mcp, ask) = start();
    let file_root = format!("file://{}", src.join("net/client.rs").display());
    let roots = json!({"roots": [{"uri": file_root}, {"uri": "https://example.com/x"}]});
    mcp.send_line(&json!({"jsonrpc": "2.0", "id": ask, "result": roots}).to_string());
    for args in [
        json!({"query": "retry"}),
        json!({"query": "retry", "paths": ["."]}),
    ] {
        let result = mcp.call("search", args);
        assert_eq!(result["isError"], true, "{result}");
        assert!(text(&result).starts_with("The client's roots name no local folder"));
    }
}

#[test]
fn a_call_sent_before_initialized_waits_for_the_clients_roots() {
    let (d, _outside) = fenced();
    let src = d.path().join("src");
    let mut mcp = Mcp::start(&d, &[]);
    let mut params = initialize("2025-11-25");
    params["capabilities"] = json!({"roots": {}});
    mcp.request("initialize", params);
    // A pipelining client: its first call before its `initialized`.
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": "retry", "paths": ["docs"]}}});
    mcp.send_line(&call.to_string());
    mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let ask = mcp.read();
    assert_eq!(
        ask["method"], "roots/list",
        "the call was served first: {ask}"
    );
    let roots = json!({"roots": [{"uri": format!("file://{}", src.display())}]});
    mcp.send_line(&json!({"jsonrpc": "2.0", "id": ask["id"], "result": roots}).to_string());
    let held = mcp.read();
    assert_eq!(held["id"], 7, "{held}");
    assert_eq!(held["result"]["isError"], true, "{held}");
    assert!(text(&held["result"]).starts_with("Path 'docs' is outside the roots"));
    // No `initialized`, no roots: refused when the input ends, not served.
    let mut mcp = Mcp::start(&d, &[]);
    let mut params = initialize("2025-11-25");
    params["capabilities"] = json!({"roots": {}});
    mcp.request("initialize", params);
    mcp.send_line(&call.to_string());
    let (code, rest) = mcp.finish();
    assert_eq!(code, 0);
    let refused: Value = serde_json::from_str(rest.trim()).unwrap();
    assert_eq!(refused["id"], 7, "{rest}");
    assert_eq!(refused["result"]["isError"], true, "{rest}");
}

#[test]
fn allow_outside_opts_out_by_flag_or_config() {
    let (d, outside) = fenced();
    let passwd = outside.join("passwd").display().to_string();
    let mut mcp = Mcp::start(&d, &["--allow-outside"]);
    mcp.request("initialize", initialize("2025-11-25"));
    let result = mcp.call("search", json!({"query": "root", "paths": [passwd]}));
    assert_eq!(result["isError"], false, "{result}");
    assert!(text(&result).contains("root:x:0"), "{result}");
    let dir = d.home.path().join(".config/kgrep");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "mcp_allow_outside = true\n").unwrap();
    let mut mcp = Mcp::ready(&d);
    let result = mcp.call("search", json!({"query": "root", "paths": [passwd]}));
    assert_eq!(result["isError"], false, "{result}");
    // Without --mcp the flag means nothing: an error.
    d.run(&["--allow-outside", "retry", "."]).code(2);
}

#[test]
fn roots_the_client_declares_replace_the_working_directory() {
    let (d, outside) = fenced();
    let mut mcp = Mcp::start(&d, &[]);
    let mut params = initialize("2025-11-25");
    params["capabilities"] = json!({"roots": {"listChanged": true}});
    mcp.request("initialize", params);
    mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    // A ping after it: a server that never asks answers the ping instead
    // (the test fails rather than waits).
    mcp.send_line(r#"{"jsonrpc":"2.0","id":"p1","method":"ping"}"#);
    // The server asks for the roots; the client answers with one folder.
    let ask = mcp.read();
    assert_eq!(ask["method"], "roots/list", "{ask}");
    assert_eq!(mcp.read()["id"], "p1");
    let src = d.path().join("src");
    let uri = format!("file://{}", src.display());
    mcp.send_line(
        &json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"roots": [{"uri": uri, "name": "src"}]}})
            .to_string(),
    );
    let inside = mcp.call("search", json!({"query": "MAX_RETRIES", "paths": [src]}));
    assert_eq!(inside["isError"], false, "{inside}");
    // The working directory is no longer a root, nor is anything outside.
    let docs = mcp.call("search", json!({"query": "retry", "paths": ["."]}));
    assert_eq!(docs["isError"], true, "{docs}");
    let passwd = outside.join("passwd").display().to_string();
    let out = mcp.call("search", json!({"query": "root", "paths": [passwd]}));
    assert_eq!(out["isError"], true, "{out}");
    // Without paths, the declared root is searched.
    let default = mcp.call("search", json!({"query": "MAX_RETRIES"}));
    assert_eq!(default["isError"], false, "{default}");
    // The roots change: asked again.
    mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    mcp.send_line(r#"{"jsonrpc":"2.0","id":"p2","method":"ping"}"#);
    let again = mcp.read();
    assert_eq!(again["method"], "roots/list", "{again}");
    assert_eq!(mcp.read()["id"], "p2");
}

#[test]
fn max_lines_keeps_the_best_lines() {
    // Issue 28, item 2: the MCP `max_lines` is `--max-lines`: the best two
    // lines are both definitions, not the weaker comment inside the first.
    let d = crate::max_lines::fish_project();
    let mut mcp = Mcp::ready(&d);
    let result = mcp.call(
        "search",
        json!({"query": crate::max_lines::FISH_QUERY, "max_lines": 2}),
    );
    assert_eq!(
        tool_matches(&result),
        vec![("fish.go".to_string(), vec![4, 18])],
        "{result}"
    );
}

/// The answer tool's text block shows a model's bidi controls and hidden
/// format characters as kgrep's own output does; the structured answer is
/// the model's exact string, as `--json`'s.
#[test]
fn a_models_hidden_characters_are_shown_in_the_answer_tools_text() {
    let d = crate::harness::retry_project();
    let disguised = "a \u{202e}gnp.exe\u{202c} \u{2066}x\u{2069}\u{2028}b";
    let mock = crate::mock_llm::MockLlm::start(vec![crate::mock_llm::Step::chat(
        &json!({"matches": [{"path": "src/retry.py", "line": 1}], "answer": disguised}).to_string(),
    )]);
    d.use_model(&mock.base_url(), "learn = false");
    let mut cmd = d.std_cmd();
    cmd.env("KGREP_LLM", "always");
    let mut mcp = Mcp::spawn(cmd);
    mcp.request("initialize", initialize("2025-11-25"));
    mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let answer = mcp.call("answer", json!({"query": "retry delay"}));
    assert_eq!(answer["isError"], false, "{answer}");
    assert_eq!(
        answer["structuredContent"]["answer"]["text"], disguised,
        "{answer}"
    );
    let shown = answer["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        shown, "a <U+202E>gnp.exe<U+202C> <U+2066>x<U+2069><U+2028>b",
        "{answer}"
    );
}
