//! Text a model wrote never reaches stderr raw (issue 27 item 6): escape
//! sequences in an answer or in a message quoting the model are shown in
//! caret form whether or not stderr is a terminal (here: a pipe, as in
//! `kgrep --answer … 2>&1 | cat`); `--json` keeps JSON's escaping.

use serde_json::{json, Value};

use crate::harness::Run;
use crate::mock_llm::{MockLlm, Step};

/// A CSI that clears the screen, an OSC 52 clipboard write, a C1 CSI
/// (U+009B) and a DEL, in a model's answer.
const HOSTILE: &str = "clear\u{1b}[2J clip\u{1b}]52;c;cHduZWQ=\u{7} c1\u{9b}31m del\u{7f} end";

use crate::harness::retry_project as project;

fn answering(answer: &str) -> MockLlm {
    MockLlm::start(vec![Step::chat(
        &json!({"matches": [{"path": "src/retry.py", "line": 1}], "answer": answer}).to_string(),
    )])
}

fn assert_no_raw_control(text: &str, run: &Run) {
    for c in ['\u{1b}', '\u{9b}', '\u{7f}', '\u{7}'] {
        assert!(
            !text.contains(c),
            "raw {:?} reached a pipe\n{}",
            c,
            run.describe
        );
    }
}

#[test]
fn an_answers_escape_sequences_are_shown_not_sent_to_a_pipe() {
    let dir = project();
    let mock = answering(HOSTILE);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--answer", "retry delay", "."]);
    out.code(0)
        .stderr_has("===== Answer =====")
        .stderr_has("clear^[[2J clip^[]52;c;cHduZWQ= c1M-^[31m del^? end");
    assert_no_raw_control(&out.stderr, &out);
}

#[test]
fn a_message_quoting_the_model_is_shown_safe_on_a_pipe() {
    let dir = project();
    // A signature reply whose field has the wrong type, twice: the error
    // quotes the model's value.
    let bad = json!({"matches": [], "count": format!("many{HOSTILE}")}).to_string();
    let mock = MockLlm::start(vec![Step::chat(&bad), Step::chat(&bad)]);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--signature", "count: int", "retry delay", "."]);
    out.code(2).stderr_has("does not match the signature");
    assert_no_raw_control(&out.stderr, &out);
}

#[test]
fn json_keeps_json_escaping() {
    let dir = project();
    let mock = answering(HOSTILE);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--answer", "--json", "retry delay", "."]);
    out.code(0);
    assert!(!out.stdout.contains('\u{1b}'), "{}", out.describe);
    assert!(out.stdout.contains("\\u001b[2J"), "{}", out.describe);
    let answer = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "answer")
        .expect("an answer message");
    assert_eq!(answer["data"]["text"], HOSTILE, "{answer}");
}
