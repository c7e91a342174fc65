//! Unit tests for `render::json`: the ripgrep-compatible JSON Lines messages, byte for byte.
#![allow(clippy::unwrap_used, clippy::single_range_in_vec_init)]

use std::borrow::Cow;
use std::time::Duration;

use serde_json::{json, Value};

use super::kgrep::{Answer, AnswerSource, LineInfo, RunInfo, SignatureOutput};
use super::*;

use crate::testing::doc;

fn line(number: usize, spans: &[Range<usize>]) -> MatchLine {
    MatchLine {
        number,
        lines: 1,
        submatches: spans.to_vec(),
        kgrep: None,
    }
}

fn file<'a>(d: &'a Document, matches: Vec<MatchLine>) -> JsonFile<'a> {
    JsonFile {
        doc: d,
        path: Cow::Borrowed(d.key.as_bytes()),
        matches,
        elapsed: Duration::from_nanos(1_500),
        runs: false,
        context_submatches: BTreeMap::new(),
    }
}

/// Prints files and a summary; returns the raw output and the parsed lines.
fn render(files: &[JsonFile<'_>], opts: &JsonOptions) -> (String, Vec<Value>, usize) {
    let mut printer = JsonPrinter::new(Vec::new());
    let mut printed = 0;
    for f in files {
        printed += printer.file(f, opts).unwrap();
    }
    printer.summary(Duration::from_millis(3), None).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    let values = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out, values, printed)
}

#[test]
fn messages_match_ripgreps_bytes() {
    // `rg --json -B1 Watson` on the sherlock example of ripgrep's docs, except
    // timing; the field order is part of the contract.
    let d = doc(
        "sherlock",
        b"For the Doctor Watsons of this world\nHolmeses, success\nbut Doctor Watson has\n",
    );
    let f = file(&d, vec![line(1, &[15..21]), line(3, &[11..17])]);
    let (out, _, printed) = render(&[f], &JsonOptions::default());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(printed, 2);
    assert_eq!(
        lines[0],
        r#"{"type":"begin","data":{"path":{"text":"sherlock"}}}"#
    );
    assert_eq!(
        lines[1],
        r#"{"type":"match","data":{"path":{"text":"sherlock"},"lines":{"text":"For the Doctor Watsons of this world\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"Watson"},"start":15,"end":21}]}}"#
    );
    assert!(lines[2].contains(r#""line_number":3,"absolute_offset":55,"#));
    let bytes_printed = lines[0].len() + lines[1].len() + lines[2].len() + 3;
    assert_eq!(
        lines[3],
        format!(
            r#"{{"type":"end","data":{{"path":{{"text":"sherlock"}},"binary_offset":null,"stats":{{"elapsed":{{"secs":0,"nanos":1500,"human":"0.000002s"}},"searches":1,"searches_with_match":1,"bytes_searched":77,"bytes_printed":{bytes_printed},"matched_lines":2,"matches":2}}}}}}"#
        )
    );
    assert_eq!(
        lines[4],
        format!(
            r#"{{"data":{{"elapsed_total":{{"human":"0.003000s","nanos":3000000,"secs":0}},"stats":{{"bytes_printed":{bytes_printed},"bytes_searched":77,"elapsed":{{"human":"0.000002s","nanos":1500,"secs":0}},"matched_lines":2,"matches":2,"searches":1,"searches_with_match":1}}}},"type":"summary"}}"#
        )
    );
}

#[test]
fn context_lines_have_no_submatches_and_follow_the_grep_groups() {
    let d = doc("a", b"l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n");
    let f = file(&d, vec![line(2, &[0..2]), line(7, &[0..2])]);
    let opts = JsonOptions {
        before: 1,
        after: 1,
        max_count: None,
        no_line_numbers: false,
        passthru: false,
    };
    let (_, v, _) = render(&[f], &opts);
    let kinds: Vec<(&str, u64)> = v[1..v.len() - 2]
        .iter()
        .map(|m| {
            (
                m["type"].as_str().unwrap(),
                m["data"]["line_number"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("context", 1),
            ("match", 2),
            ("context", 3),
            ("context", 6),
            ("match", 7),
            ("context", 8)
        ]
    );
    assert_eq!(v[1]["data"]["submatches"], json!([]));
}

#[test]
fn the_empty_line_after_a_final_newline_is_never_printed() {
    let d = doc("a", b"x\ny\n");
    let f = file(&d, vec![line(2, &[0..1])]);
    let opts = JsonOptions {
        after: 3,
        ..JsonOptions::default()
    };
    let (_, v, _) = render(&[f], &opts);
    assert_eq!(v.len(), 4, "{v:?}");
    assert_eq!(v[1]["data"]["lines"], json!({"text": "y\n"}));
    // Without a final newline the last line has no terminator.
    let d = doc("a", b"x\ny");
    let (_, v, _) = render(&[file(&d, vec![line(2, &[])])], &JsonOptions::default());
    assert_eq!(v[1]["data"]["lines"], json!({"text": "y"}));
}

#[test]
fn invalid_utf8_is_base64_per_field() {
    let d = doc("<stdin>", b"caf\xe9 retry\n");
    let mut f = file(&d, vec![line(1, &[5..10])]);
    f.path = Cow::Owned(b"dir/\xff.rs".to_vec());
    let (_, v, _) = render(&[f], &JsonOptions::default());
    let data = &v[1]["data"];
    assert_eq!(data["path"], json!({"bytes": "ZGlyL/8ucnM="}));
    assert_eq!(data["lines"], json!({"bytes": "Y2Fm6SByZXRyeQo="}));
    // The matched text itself is valid UTF-8.
    assert_eq!(data["submatches"][0]["match"], json!({"text": "retry"}));
}

#[test]
fn max_count_caps_matches_and_zero_prints_no_file() {
    let d = doc("a", b"a\nb\nc\n");
    let f = file(&d, vec![line(3, &[0..1]), line(1, &[0..1])]);
    let opts = JsonOptions {
        max_count: Some(1),
        ..JsonOptions::default()
    };
    let (_, v, printed) = render(std::slice::from_ref(&f), &opts);
    assert_eq!(printed, 1);
    assert_eq!(v[1]["data"]["line_number"], 1);
    let opts = JsonOptions {
        max_count: Some(0),
        ..JsonOptions::default()
    };
    let (_, v, printed) = render(&[f], &opts);
    assert_eq!(printed, 0);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["type"], "summary");
}

#[test]
fn summary_is_printed_without_any_file_and_adds_up_the_ends() {
    let (_, v, _) = render(&[], &JsonOptions::default());
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["data"]["stats"]["searches"], 0);
    let a = doc("a", b"x y\n");
    let b = doc("b", b"x\nx x\n");
    let files = [
        file(&a, vec![line(1, &[0..1])]),
        file(&b, vec![line(1, &[0..1]), line(2, &[0..1, 2..3])]),
    ];
    let (_, v, _) = render(&files, &JsonOptions::default());
    let ends: Vec<&Value> = v.iter().filter(|m| m["type"] == "end").collect();
    let summary = &v.last().unwrap()["data"]["stats"];
    for key in [
        "bytes_printed",
        "bytes_searched",
        "matched_lines",
        "matches",
    ] {
        let sum: u64 = ends
            .iter()
            .map(|e| e["data"]["stats"][key].as_u64().unwrap())
            .sum();
        assert_eq!(summary[key].as_u64().unwrap(), sum, "{key}");
    }
    assert_eq!(summary["matches"], 4);
    assert_eq!(summary["searches_with_match"], 2);
}

#[test]
fn bad_spans_are_dropped() {
    let d = doc("a", b"abcdef\n");
    let f = file(&d, vec![line(1, &[2..4, 3..5, 5..99, 4..6])]);
    let (_, v, _) = render(&[f], &JsonOptions::default());
    let starts: Vec<u64> = v[1]["data"]["submatches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["start"].as_u64().unwrap())
        .collect();
    assert_eq!(starts, [2, 4]);
}

#[test]
fn kgrep_data_only_under_its_key() {
    let d = doc("a", b"retry\n");
    let mut m = line(1, &[0..5]);
    m.kgrep = Some(LineInfo {
        verified: true,
        submatch_terms: vec![0],
        ..LineInfo::default()
    });
    let mut printer = JsonPrinter::new(Vec::new());
    printer
        .file(&file(&d, vec![m]), &JsonOptions::default())
        .unwrap();
    printer
        .answer(&Answer {
            text: "It retries.".into(),
            source: AnswerSource::Model,
            model: Some("openai/x".into()),
        })
        .unwrap();
    let mut fields = serde_json::Map::new();
    fields.insert("summary".into(), json!("s"));
    printer
        .signature(&SignatureOutput {
            spec: "summary: str".into(),
            fields,
        })
        .unwrap();
    let run = RunInfo {
        version: "9".into(),
        ..RunInfo::default()
    };
    printer.summary(Duration::ZERO, Some(&run)).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let keys =
        |m: &Value| -> Vec<String> { m["data"].as_object().unwrap().keys().cloned().collect() };
    let mut match_keys = keys(&v[1]);
    match_keys.sort();
    assert_eq!(
        match_keys,
        [
            "absolute_offset",
            "kgrep",
            "line_number",
            "lines",
            "path",
            "submatches"
        ]
    );
    assert_eq!(v[1]["data"]["kgrep"]["source"], "lexical");
    assert_eq!(v[1]["data"]["kgrep"]["score"], Value::Null);
    assert_eq!(
        v[3],
        json!({"type": "answer", "data": {"text": "It retries.", "source": "model", "model": "openai/x"}})
    );
    assert_eq!(
        v[4],
        json!({"type": "signature", "data": {"spec": "summary: str", "fields": {"summary": "s"}}})
    );
    let summary = &v[5]["data"]["kgrep"];
    assert_eq!(summary["version"], "9");
    for null_key in ["judge", "model", "concepts_learned"] {
        assert_eq!(summary[null_key], Value::Null, "{null_key}");
    }
    assert!(out
        .lines()
        .last()
        .unwrap()
        .ends_with(r#","type":"summary"}"#));
}

#[test]
fn controls_a_terminal_would_act_on_are_escaped_only_when_asked() {
    let d = doc("a", "x \u{9b}2J \u{7f} \u{1b}[31m\n".as_bytes());
    let f = file(&d, vec![line(1, &[0..1])]);
    let write = |escape: bool| {
        let mut printer = JsonPrinter::new(Vec::new()).escape_controls(escape);
        printer.file(&f, &JsonOptions::default()).unwrap();
        String::from_utf8(printer.into_inner()).unwrap()
    };
    let safe = write(true);
    assert!(
        safe.contains(r#""x \u009b2J \u007f \u001b[31m\n""#),
        "{safe}"
    );
    assert!(!safe.contains('\u{9b}') && !safe.contains('\u{7f}'));
    let raw = write(false);
    assert!(raw.contains('\u{9b}'), "{raw}");
    // Both decode to the same message; bytes_printed counts what was written.
    let decoded =
        |out: &str| -> Value { serde_json::from_str(out.lines().nth(1).unwrap()).unwrap() };
    assert_eq!(decoded(&safe), decoded(&raw));
    let end = |out: &str| -> Value { serde_json::from_str(out.lines().nth(2).unwrap()).unwrap() };
    assert_eq!(
        end(&safe)["data"]["stats"]["bytes_printed"]
            .as_u64()
            .unwrap(),
        safe.lines()
            .take(2)
            .map(|l| l.len() as u64 + 1)
            .sum::<u64>()
    );
}

#[test]
fn passthru_writes_every_line_and_a_file_with_no_match_too() {
    let opts = JsonOptions {
        passthru: true,
        ..JsonOptions::default()
    };
    let d = doc("a", b"x\nfoo\ny\n");
    let (_, v, printed) = render(&[file(&d, vec![line(2, &[0..3])])], &opts);
    let kinds: Vec<&str> = v.iter().map(|m| m["type"].as_str().unwrap()).collect();
    let expected = ["begin", "context", "match", "context", "end", "summary"];
    assert_eq!((kinds, printed), (expected.to_vec(), 1));
    let (_, v, printed) = render(&[file(&d, vec![])], &opts);
    assert_eq!((v.len(), printed), (6, 0));
    assert_eq!(v[4]["data"]["stats"]["searches_with_match"], 0);
    // -m1 ends the file at its first match; an empty file writes nothing.
    let opts = JsonOptions {
        max_count: Some(1),
        ..opts
    };
    let (_, v, _) = render(&[file(&d, vec![line(2, &[0..3])])], &opts);
    assert_eq!(v.len(), 5);
    let e = doc("e", b"");
    assert_eq!(render(&[file(&e, vec![])], &opts).1.len(), 1);
}

#[test]
fn model_text_is_escaped_on_a_pipe_too_and_file_text_is_not() {
    let d = doc("a", "x \u{202e}y\n".as_bytes());
    let f = file(&d, vec![line(1, &[0..1])]);
    let hostile = "It \u{202e}seirter\u{202c}\u{2028}\u{9b}2J.";
    let mut printer = JsonPrinter::new(Vec::new()).escape_controls(false);
    printer.file(&f, &JsonOptions::default()).unwrap();
    printer
        .answer(&Answer {
            text: hostile.into(),
            source: AnswerSource::Model,
            model: None,
        })
        .unwrap();
    let mut fields = serde_json::Map::new();
    fields.insert("summary".into(), json!(hostile));
    printer
        .signature(&SignatureOutput {
            spec: "summary: str".into(),
            fields,
        })
        .unwrap();
    let run = RunInfo {
        concepts_learned: Some(vec!["evil\u{2066}".into()]),
        ..RunInfo::default()
    };
    printer.summary(Duration::ZERO, Some(&run)).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    // The file's line keeps its bytes on a pipe, as rg's.
    assert!(lines[1].contains("x \u{202e}y"), "{out}");
    // Everything after it is model text: escaped, and the same when decoded.
    let model_text = lines[3..].join("\n");
    for c in ['\u{202e}', '\u{202c}', '\u{2028}', '\u{9b}', '\u{2066}'] {
        assert!(!model_text.contains(c), "raw {c:?} in {model_text}");
    }
    assert!(lines[3].contains(r"It \u202eseirter\u202c\u2028\u009b2J."));
    let v: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[3]["data"]["text"], hostile);
    assert_eq!(v[4]["data"]["fields"]["summary"], hostile);
    assert_eq!(v[5]["data"]["kgrep"]["concepts_learned"][0], "evil\u{2066}");
}

#[test]
fn a_silent_printer_writes_only_the_summary_and_counts_no_bytes_printed() {
    let d = doc(
        "sherlock",
        b"For the Doctor Watsons of this world\nHolmeses, success\nbut Doctor Watson has\n",
    );
    let mut printer = JsonPrinter::new(Vec::new()).silent(true);
    let f = file(&d, vec![line(1, &[15..21]), line(3, &[11..17])]);
    assert_eq!(printer.file(&f, &JsonOptions::default()).unwrap(), 2);
    assert!(printer.out.is_empty());
    printer.summary(Duration::from_millis(3), None).unwrap();
    let out = String::from_utf8(printer.into_inner()).unwrap();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{out}");
    let stats = &lines[0]["data"]["stats"];
    assert_eq!(stats["matched_lines"], 2);
    assert_eq!(stats["matches"], 2);
    assert_eq!(stats["bytes_printed"], 0);
}
