//! `--json`: ripgrep's JSON Lines plus `data.kgrep`. Compared with the real
//! `rg --json` for literal and regex queries, read back with strict schema
//! types, and snapshotted for a natural-language run.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::harness::{Dir, Run};
use crate::schema;

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

/// `rg`, or `None` with a note when it is not installed. CI installs it
/// (`.ci/run`), so there a missing `rg` fails the test instead.
fn ripgrep() -> Option<&'static str> {
    let found = Command::new("rg")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        return Some("rg");
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "rg is not installed, and CI must compare kgrep --json with it"
    );
    eprintln!("SKIPPED: rg is not installed, so kgrep --json is not compared with rg --json");
    None
}

/// `rg --json --sort path ARGS` in `dir`, stdin piped from `stdin`.
fn run_rg(rg: &str, dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Vec<u8> {
    let mut cmd = Command::new(rg);
    cmd.args(["--json", "--sort", "path"])
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .stdout(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().unwrap();
    if let Some(bytes) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    child.wait_with_output().unwrap().stdout
}

fn lines(out: &[u8]) -> Vec<&str> {
    std::str::from_utf8(out).unwrap().lines().collect()
}

/// A message without what may differ from rg: `data.kgrep`, timings, and
/// `bytes_printed` (kgrep's lines are longer; checked by `bytes_printed_adds_up`).
/// When rg stopped a file early (`-m`), its `bytes_searched` is wherever its
/// buffer was (0 for small files), while kgrep always reads whole files, so
/// that count is left out too.
fn comparable(line: &str, stopped_early: bool) -> Value {
    let mut v: Value = serde_json::from_str(line).unwrap();
    let data = v["data"].as_object_mut().unwrap();
    data.remove("kgrep");
    data.remove("elapsed_total");
    if let Some(stats) = data.get_mut("stats").and_then(Value::as_object_mut) {
        stats.remove("elapsed");
        stats.remove("bytes_printed");
        if stopped_early {
            stats.remove("bytes_searched");
        }
    }
    v
}

/// Each file's `bytes_printed` is the size of its begin…last line messages, and
/// the summary's is their sum.
fn bytes_printed_adds_up(out: &[u8], describe: &str) {
    let mut file_bytes = 0u64;
    let mut total = 0u64;
    for line in lines(out) {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["type"].as_str().unwrap() {
            "end" => {
                assert_eq!(
                    v["data"]["stats"]["bytes_printed"], file_bytes,
                    "{describe}"
                );
                total += file_bytes;
                file_bytes = 0;
            }
            "summary" => assert_eq!(v["data"]["stats"]["bytes_printed"], total, "{describe}"),
            _ => file_bytes += line.len() as u64 + 1,
        }
    }
}

/// kgrep and rg agree on every message, field order included.
fn assert_like_rg(kgrep: &Run, rg_out: &[u8], stopped_early: bool) {
    let ours = lines(&kgrep.raw_stdout);
    let theirs = lines(rg_out);
    assert!(!theirs.is_empty(), "rg printed nothing\n{}", kgrep.describe);
    assert_eq!(
        ours.len(),
        theirs.len(),
        "message count\n--- rg\n{}\n{}",
        theirs.join("\n"),
        kgrep.describe
    );
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(
            comparable(a, stopped_early),
            comparable(b, stopped_early),
            "\nkgrep: {a}\nrg:    {b}\n{}",
            kgrep.describe
        );
        assert_eq!(
            schema::key_order(a, "data.kgrep"),
            schema::key_order(b, "data.kgrep"),
            "field order\nkgrep: {a}\nrg:    {b}"
        );
    }
    bytes_printed_adds_up(&kgrep.raw_stdout, &kgrep.describe);
}

#[test]
fn literal_and_regex_json_equals_ripgreps() {
    let Some(rg) = ripgrep() else { return };
    let d = corpus();
    // (kgrep's arguments, rg's): kgrep reads a quoted query as a literal.
    let cases: &[(&[&str], &[&str])] = &[
        (&["MAX_RETRIES"], &["MAX_RETRIES"]),
        (&["\"backoff\""], &["backoff"]),
        (&["retry|backoff"], &["retry|backoff"]),
        (&["-C", "1", "retry|backoff"], &["-C", "1", "retry|backoff"]),
        (
            &["-A", "2", "-B", "1", "\"token\""],
            &["-A", "2", "-B", "1", "token"],
        ),
        (&["-m", "1", "retry|backoff"], &["-m", "1", "retry|backoff"]),
        (
            &["-N", "-C", "1", "retry|backoff"],
            &["-N", "-C", "1", "retry|backoff"],
        ),
        (
            &["MAX_RETRIES", "src", "docs"],
            &["MAX_RETRIES", "src", "docs"],
        ),
    ];
    for (ours, theirs) in cases {
        let args: Vec<&str> = std::iter::once("--json")
            .chain(ours.iter().copied())
            .collect();
        let run = d.run_devnull(&args);
        run.code(0);
        let stopped_early = theirs.contains(&"-m");
        assert_like_rg(&run, &run_rg(rg, d.path(), theirs, None), stopped_early);
    }
}

/// `--json -N` writes `"line_number":null` in every match and context
/// message, as rg 13 does (kgrep wrote the numbers). Checked with rg 13:
/// `rg --json -N -C1 foo a.txt` prints the two messages below (but for
/// `data.kgrep`).
#[test]
fn no_line_number_makes_json_line_numbers_null_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "x\nfoo\n");
    let run = d.run(&["--json", "-N", "-C1", "foo", "a.txt"]);
    run.code(0);
    let messages: Vec<Value> = lines(&run.raw_stdout)
        .into_iter()
        .map(|l| comparable(l, false))
        .filter(|v| v["type"] == "match" || v["type"] == "context")
        .collect();
    let expected = [
        r#"{"type":"context","data":{"path":{"text":"a.txt"},"lines":{"text":"x\n"},"line_number":null,"absolute_offset":0,"submatches":[]}}"#,
        r#"{"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"foo\n"},"line_number":null,"absolute_offset":2,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
    ]
    .map(|m| serde_json::from_str::<Value>(m).unwrap());
    assert_eq!(messages, expected, "{}", run.describe);
}

#[test]
fn piped_stdin_json_equals_ripgreps_invalid_utf8_included() {
    let Some(rg) = ripgrep() else { return };
    let d = Dir::new();
    let stdin: &[u8] = b"caf\xe9 retry\nplain\nretry again\n";
    let run = d.run_stdin(&["--json", "\"retry\""], stdin);
    run.code(0);
    assert!(
        run.stdout.contains(r#""lines":{"bytes":"#),
        "{}",
        run.describe
    );
    assert_like_rg(&run, &run_rg(rg, d.path(), &["retry"], Some(stdin)), false);
}

#[test]
fn no_match_prints_only_a_summary_with_exit_1() {
    let d = corpus();
    let run = d.run_devnull(&["--json", "NoSuchIdentifierAnywhere"]);
    run.code(1);
    let msgs = lines(&run.raw_stdout);
    assert_eq!(msgs.len(), 1, "{}", run.describe);
    let v: Value = serde_json::from_str(msgs[0]).unwrap();
    assert_eq!(v["type"], "summary");
    assert_eq!(v["data"]["stats"]["matches"], 0);
    run.stderr_has("kgrep: Scanned 6 files. Loaded 6.");
}

#[test]
fn errors_go_to_stderr_exit_2_and_the_summary_still_prints() {
    let d = corpus();
    let run = d.run_devnull(&["--json", "MAX_RETRIES", "nope", "src"]);
    run.code(2).stderr_has("kgrep: nope: ");
    let msgs = lines(&run.raw_stdout);
    assert!(
        msgs.iter().any(|m| m.contains(r#""type":"match""#)),
        "{}",
        run.describe
    );
    assert!(msgs.last().unwrap().ends_with(r#""type":"summary"}"#));
    // Nothing readable at all: still a summary, still exit 2.
    let run = d.run_devnull(&["--json", "MAX_RETRIES", "nope"]);
    run.code(2);
    assert_eq!(lines(&run.raw_stdout).len(), 1, "{}", run.describe);
    // A usage error prints no JSON.
    let run = d.run_devnull(&["--json"]);
    run.code(2).stdout_is("");
    let run = d.run_devnull(&["--json", "--signature", "a: str", "q"]);
    run.code(2)
        .stdout_is("")
        .stderr_has("--signature needs a language model");
}

#[test]
fn crlf_files_report_the_text_kgrep_searched_at_the_files_offsets() {
    // Documented difference from rg: CRLF reads as LF. The line's offset is
    // its place in the file (the CRLF before it counts two), as rg's is.
    let d = corpus();
    let run = d.run_devnull(&["--json", "\"database\""]);
    run.code(0);
    let m: Value = lines(&run.raw_stdout)
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "match")
        .unwrap();
    assert_eq!(m["data"]["path"]["text"], "crlf.txt");
    assert_eq!(m["data"]["lines"]["text"], "the database line\n");
    assert_eq!(m["data"]["absolute_offset"], "CRLF line one\r\n".len());
}

#[test]
fn answer_modes_keep_json_on_stdout() {
    let d = corpus();
    let run = d.run_devnull(&["--json", "--answer", "retry delay"]);
    run.code(0)
        .stderr_has("--answer: no language model is configured")
        .stderr_lacks("===== Answer =====");
    let msgs = lines(&run.raw_stdout);
    assert!(
        msgs.iter().any(|m| m.contains(r#""type":"match""#)),
        "{}",
        run.describe
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains(r#""type":"answer""#) && m.contains(r#""source":"extractive""#)),
        "{}",
        run.describe
    );
    // --answer-only prints no lines; only the summary, and the exit code still
    // says whether lines were found.
    let run = d.run_devnull(&["--json", "--answer-only", "retry delay"]);
    run.code(0);
    let msgs = lines(&run.raw_stdout);
    assert_eq!(msgs.len(), 2, "{}", run.describe);
    assert!(msgs[0].contains(r#""type":"answer""#));
    assert!(msgs[1].ends_with(r#""type":"summary"}"#));
}

#[test]
fn every_message_reads_back_with_strict_types() {
    let d = corpus();
    let runs = [
        d.run_devnull(&[
            "--json",
            "how does the client retry with exponential backoff",
        ]),
        d.run_devnull(&["--json", "-C", "2", "MAX_RETRIES"]),
        d.run_devnull(&["--json", "-m", "1", r"fn\s+\w+"]),
        d.run_devnull(&["--json", "NoSuchIdentifierAnywhere"]),
        d.run_devnull(&["--json", "--answer-only", "parse jwt"]),
        d.run_stdin(&["--json", "\"retry\""], &b"caf\xe9 retry\n"[..]),
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for run in &runs {
        assert!(run.code == 0 || run.code == 1, "{}", run.describe);
        for line in lines(&run.raw_stdout) {
            kinds.insert(schema::check_message(line));
        }
    }
    for line in lines(&schema::kgrep_only_messages()) {
        kinds.insert(schema::check_message(line));
    }
    let all = [
        "answer",
        "begin",
        "context",
        "end",
        "match",
        "signature",
        "summary",
    ];
    assert_eq!(kinds.iter().map(String::as_str).collect::<Vec<_>>(), all);
}

/// A run as a snapshot: messages with timings and the version masked.
fn masked(run: &Run) -> String {
    let mut out = format!("exit: {}\n--- stdout\n", run.code);
    for line in lines(&run.raw_stdout) {
        let mut v: Value = serde_json::from_str(line).unwrap();
        mask_timings(&mut v);
        if let Some(version) = v.pointer_mut("/data/kgrep/version") {
            *version = Value::from("[version]");
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out.push_str("--- stderr\n");
    out.push_str(&run.stderr);
    out
}

fn mask_timings(v: &mut Value) {
    if let Some(map) = v.as_object_mut() {
        for (key, value) in map.iter_mut() {
            if key == "elapsed" || key == "elapsed_total" {
                *value = Value::from("[elapsed]");
            } else {
                mask_timings(value);
            }
        }
    }
}

#[test]
fn natural_language_json_snapshot() {
    let d = corpus();
    let run = d.run_devnull(&["--json", "-B", "1", "where is the retry delay computed"]);
    run.code(0);
    insta::assert_snapshot!(masked(&run));
}

/// The `path` of every `begin` message, in order.
fn begin_paths(out: &[u8]) -> Vec<String> {
    lines(out)
        .into_iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "begin")
        .map(|v| v["data"]["path"]["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn json_paths_keep_the_path_as_given_like_ripgrep() {
    // What rg 13 prints for each spelling (checked by hand, and below
    // against the rg installed, as CI has it).
    let d = corpus();
    let abs = d.path().join("src/net");
    let abs = abs.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec![], "src/net/client.rs".into()),
        (vec!["."], "./src/net/client.rs".into()),
        (vec!["./src/net"], "./src/net/client.rs".into()),
        (vec!["src/net/"], "src/net/client.rs".into()),
        (vec!["./src/net/client.rs"], "./src/net/client.rs".into()),
        (vec![abs], format!("{abs}/client.rs")),
    ];
    for (paths, expected) in &cases {
        let mut args = vec!["--json", "MAX_RETRIES"];
        args.extend(paths);
        let run = d.run_devnull(&args);
        run.code(0);
        assert_eq!(
            begin_paths(&run.raw_stdout),
            std::slice::from_ref(expected),
            "{}",
            run.describe
        );
        if let Some(rg) = ripgrep() {
            let theirs = run_rg(rg, d.path(), &args[1..], None);
            assert_eq!(
                begin_paths(&theirs),
                std::slice::from_ref(expected),
                "rg {paths:?}"
            );
        }
        // Text output keeps rlmgrep's headings.
        let mut text_args = vec!["MAX_RETRIES"];
        text_args.extend(paths);
        d.run_devnull(&text_args)
            .stdout_has("./src/net/client.rs\n6:\t");
    }
    let listed = d.run_stdin(
        &["--json", "--paths-from-stdin", "MAX_RETRIES"],
        "./src/net/client.rs\n",
    );
    assert_eq!(
        begin_paths(&listed.raw_stdout),
        ["./src/net/client.rs"],
        "{}",
        listed.describe
    );
}

/// `-U`: one `match` message per run of lines that matches span, its
/// `lines` the run's text and its submatches in it (a match may hold a
/// `\n`), each line of the run counted as matched, as rg 13 writes it.
/// The expected messages were checked with rg 13 (`rg -U --json
/// '(?s)start.*?end' m.txt`, `rg -U --json 'foo\nbar' m.txt`); rg itself
/// is asked again when installed, with context too.
#[test]
fn multiline_json_is_one_message_per_run_of_lines_as_rg() {
    let d = Dir::new();
    d.write(
        "m.txt",
        "foo\nbar\nbaz\nstart a\nb end\nstart c end\nx foo\nbar y\n",
    );
    let run = d.run_devnull(&["--json", "-U", r"(?s)start.*?end", "m.txt"]);
    run.code(0);
    let messages: Vec<Value> = lines(&run.raw_stdout)
        .into_iter()
        .map(|l| comparable(l, false))
        .collect();
    let expected = [
        json!({"type":"begin","data":{"path":{"text":"m.txt"}}}),
        json!({"type":"match","data":{"path":{"text":"m.txt"},
            "lines":{"text":"start a\nb end\nstart c end\n"},"line_number":4,"absolute_offset":12,
            "submatches":[{"match":{"text":"start a\nb end"},"start":0,"end":13},
                          {"match":{"text":"start c end"},"start":14,"end":25}]}}),
        json!({"type":"end","data":{"path":{"text":"m.txt"},"binary_offset":null,
            "stats":{"searches":1,"searches_with_match":1,"bytes_searched":50,
                     "matched_lines":3,"matches":2}}}),
    ];
    assert_eq!(messages[..3], expected, "{}", run.describe);
    let run = d.run_devnull(&["--json", "-U", r"foo\nbar", "m.txt"]);
    run.code(0);
    let matches: Vec<Value> = lines(&run.raw_stdout)
        .into_iter()
        .map(|l| comparable(l, false))
        .filter(|m| m["type"] == "match")
        .map(|m| {
            json!([
                m["data"]["line_number"],
                m["data"]["lines"],
                m["data"]["submatches"]
            ])
        })
        .collect();
    assert_eq!(
        matches,
        [
            json!([1, {"text":"foo\nbar\n"}, [{"match":{"text":"foo\nbar"},"start":0,"end":7}]]),
            json!([7, {"text":"x foo\nbar y\n"}, [{"match":{"text":"foo\nbar"},"start":2,"end":9}]]),
        ],
        "{}",
        run.describe
    );
    let Some(rg) = ripgrep() else { return };
    for args in [
        &["-U", r"(?s)start.*?end", "m.txt"][..],
        &["-U", "-A", "1", r"foo\nbar", "m.txt"],
        &["-U", "-B", "1", r"\n\w+ end", "m.txt"],
    ] {
        let ours: Vec<&str> = std::iter::once("--json")
            .chain(args.iter().copied())
            .collect();
        let run = d.run_devnull(&ours);
        run.code(0);
        assert_like_rg(&run, &run_rg(rg, d.path(), args, None), false);
    }
}

/// `--passthru --json` (kgrep refused it) writes every line of every file
/// searched as a message, the others as `context` (a file with no match too,
/// its `searches_with_match` 0; an empty file none), and with
/// `--invert-match` the context lines hold their submatches, as rg 13 does.
/// The messages are rg 13's (`rg -j1 --sort path --json --passthru foo` and
/// `… --passthru -v foo` in this folder); rg is asked again when installed.
#[test]
fn passthru_json_writes_every_line_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "foo\nx\nfoo\ny\n");
    d.write("blank.txt", "a\n\n");
    d.write("empty.txt", "");
    d.write("nonl.txt", "z\nfoo");
    let plain = [
        r#"{"type":"begin","data":{"path":{"text":"a.txt"}}}"#,
        r#"{"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"foo\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
        r#"{"type":"context","data":{"path":{"text":"a.txt"},"lines":{"text":"x\n"},"line_number":2,"absolute_offset":4,"submatches":[]}}"#,
        r#"{"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"foo\n"},"line_number":3,"absolute_offset":6,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
        r#"{"type":"context","data":{"path":{"text":"a.txt"},"lines":{"text":"y\n"},"line_number":4,"absolute_offset":10,"submatches":[]}}"#,
        r#"{"type":"end","data":{"path":{"text":"a.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":23011,"human":"0.000023s"},"searches":1,"searches_with_match":1,"bytes_searched":12,"bytes_printed":643,"matched_lines":2,"matches":2}}}"#,
        r#"{"type":"begin","data":{"path":{"text":"blank.txt"}}}"#,
        r#"{"type":"context","data":{"path":{"text":"blank.txt"},"lines":{"text":"a\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}"#,
        r#"{"type":"context","data":{"path":{"text":"blank.txt"},"lines":{"text":"\n"},"line_number":2,"absolute_offset":2,"submatches":[]}}"#,
        r#"{"type":"end","data":{"path":{"text":"blank.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":3771,"human":"0.000004s"},"searches":1,"searches_with_match":0,"bytes_searched":3,"bytes_printed":315,"matched_lines":0,"matches":0}}}"#,
        r#"{"type":"begin","data":{"path":{"text":"nonl.txt"}}}"#,
        r#"{"type":"context","data":{"path":{"text":"nonl.txt"},"lines":{"text":"z\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}"#,
        r#"{"type":"match","data":{"path":{"text":"nonl.txt"},"lines":{"text":"foo"},"line_number":2,"absolute_offset":2,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
        r#"{"type":"end","data":{"path":{"text":"nonl.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":4899,"human":"0.000005s"},"searches":1,"searches_with_match":1,"bytes_searched":5,"bytes_printed":353,"matched_lines":1,"matches":1}}}"#,
        r#"{"data":{"elapsed_total":{"human":"0.001114s","nanos":1113906,"secs":0},"stats":{"bytes_printed":1311,"bytes_searched":20,"elapsed":{"human":"0.000032s","nanos":31681,"secs":0},"matched_lines":3,"matches":3,"searches":3,"searches_with_match":2}},"type":"summary"}"#,
    ];
    let inverted = [
        r#"{"type":"begin","data":{"path":{"text":"a.txt"}}}"#,
        r#"{"type":"context","data":{"path":{"text":"a.txt"},"lines":{"text":"foo\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
        r#"{"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"x\n"},"line_number":2,"absolute_offset":4,"submatches":[]}}"#,
        r#"{"type":"context","data":{"path":{"text":"a.txt"},"lines":{"text":"foo\n"},"line_number":3,"absolute_offset":6,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
        r#"{"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"y\n"},"line_number":4,"absolute_offset":10,"submatches":[]}}"#,
        r#"{"type":"end","data":{"path":{"text":"a.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":16975,"human":"0.000017s"},"searches":1,"searches_with_match":1,"bytes_searched":12,"bytes_printed":643,"matched_lines":2,"matches":0}}}"#,
        r#"{"type":"begin","data":{"path":{"text":"blank.txt"}}}"#,
        r#"{"type":"match","data":{"path":{"text":"blank.txt"},"lines":{"text":"a\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}"#,
        r#"{"type":"match","data":{"path":{"text":"blank.txt"},"lines":{"text":"\n"},"line_number":2,"absolute_offset":2,"submatches":[]}}"#,
        r#"{"type":"end","data":{"path":{"text":"blank.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":3710,"human":"0.000004s"},"searches":1,"searches_with_match":1,"bytes_searched":3,"bytes_printed":311,"matched_lines":2,"matches":0}}}"#,
        r#"{"type":"begin","data":{"path":{"text":"nonl.txt"}}}"#,
        r#"{"type":"match","data":{"path":{"text":"nonl.txt"},"lines":{"text":"z\n"},"line_number":1,"absolute_offset":0,"submatches":[]}}"#,
        r#"{"type":"context","data":{"path":{"text":"nonl.txt"},"lines":{"text":"foo"},"line_number":2,"absolute_offset":2,"submatches":[{"match":{"text":"foo"},"start":0,"end":3}]}}"#,
        r#"{"type":"end","data":{"path":{"text":"nonl.txt"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":4754,"human":"0.000005s"},"searches":1,"searches_with_match":1,"bytes_searched":5,"bytes_printed":353,"matched_lines":1,"matches":0}}}"#,
        r#"{"data":{"elapsed_total":{"human":"0.001081s","nanos":1080809,"secs":0},"stats":{"bytes_printed":1307,"bytes_searched":20,"elapsed":{"human":"0.000025s","nanos":25439,"secs":0},"matched_lines":5,"matches":0,"searches":3,"searches_with_match":3}},"type":"summary"}"#,
    ];
    for (flags, rg_out) in [
        (&["--passthru"][..], &plain[..]),
        (&["--passthru", "--invert-match"], &inverted[..]),
    ] {
        let run = d.run_devnull(&[&["--json"][..], flags, &["foo"]].concat());
        run.code(0);
        assert_like_rg(&run, rg_out.join("\n").as_bytes(), false);
    }
    let Some(rg) = ripgrep() else { return };
    for args in [&["--passthru", "foo"][..], &["--passthru", "-v", "foo"]] {
        let theirs = run_rg(rg, d.path(), args, None);
        let ours = args
            .iter()
            .map(|a| if *a == "-v" { "--invert-match" } else { a });
        let run = d.run_devnull(&std::iter::once("--json").chain(ours).collect::<Vec<_>>());
        assert_like_rg(&run, &theirs, false);
    }
}
