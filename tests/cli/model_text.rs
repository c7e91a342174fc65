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
    assert_none_raw(&['\u{1b}', '\u{9b}', '\u{7f}', '\u{7}'], text, run);
}

/// No character of `chars` reached `text` (a pipe's) raw.
fn assert_none_raw(chars: &[char], text: &str, run: &Run) {
    for c in chars {
        assert!(
            !text.contains(*c),
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

/// Characters no terminal acts on but that change what the text around them
/// looks like: a right-to-left override ("Trojan Source": `gnp.exe` shows as
/// `exe.png`), an isolate, the line and paragraph separators, a zero-width
/// space and an invisible tag character (text smuggled past the reader).
const DISGUISED: &str =
    "a \u{202e}gnp.exe\u{202c} \u{2066}x\u{2069}\u{2028}b\u{2029}c\u{200b}d\u{e0041}";
/// How kgrep shows it (as `less` shows such characters).
const DISGUISED_SHOWN: &str =
    "a <U+202E>gnp.exe<U+202C> <U+2066>x<U+2069><U+2028>b<U+2029>c<U+200B>d<U+E0041>";

fn assert_nothing_disguised(text: &str, run: &Run) {
    let disguising = [
        '\u{202e}',
        '\u{202c}',
        '\u{2066}',
        '\u{2069}',
        '\u{2028}',
        '\u{2029}',
        '\u{200b}',
        '\u{e0041}',
    ];
    assert_none_raw(&disguising, text, run);
}

#[test]
fn a_models_bidi_controls_and_line_separators_are_shown_on_a_pipe() {
    let dir = project();
    // --answer: on stderr, shown.
    let mock = answering(DISGUISED);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--answer", "retry delay", "."]);
    out.code(0)
        .stdout_is("./src/retry.py\n1:\tdef retry_delay(attempt):\n")
        .stderr_has(&format!("===== Answer =====\n{DISGUISED_SHOWN}\n"));
    assert_nothing_disguised(&out.stderr, &out);
    // --answer --json: the answer message escapes them (the same string
    // once decoded); the file's line is the file's.
    let mock = answering(DISGUISED);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--answer", "--json", "retry delay", "."]);
    out.code(0);
    assert_nothing_disguised(&out.stdout, &out);
    assert!(
        out.stdout.contains(r"a \u202egnp.exe\u202c"),
        "{}",
        out.describe
    );
    let answer = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "answer")
        .expect("an answer message");
    assert_eq!(answer["data"]["text"], DISGUISED, "{answer}");
    // --signature and --signature-json: on stdout, a pipe.
    let field = || {
        Step::chat(
            &json!({"matches": [{"path": "src/retry.py", "line": 1}], "summary": DISGUISED})
                .to_string(),
        )
    };
    let mock = MockLlm::start(vec![field()]);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--signature", "summary: str", "retry delay", "."]);
    out.code(0).stdout_is(&format!(
        "===== Signature Output =====\n\n----- summary -----\n{DISGUISED_SHOWN}\n"
    ));
    let mock = MockLlm::start(vec![field()]);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm(
        "auto",
        &["--signature-json", "summary: str", "retry delay", "."],
    );
    out.code(0);
    assert_nothing_disguised(&out.stdout, &out);
    let fields: Value = serde_json::from_str(&out.stdout).expect("one JSON object");
    assert_eq!(fields, json!({"summary": DISGUISED}), "{}", out.describe);
}

#[test]
fn a_file_lines_bidi_controls_stay_byte_exact_on_a_pipe() {
    // The model's text is shown; a verified file line is the file's.
    let dir = project();
    dir.write(
        "src/rtl.py",
        "def retry_delay_rtl():  # \u{202e}yaled\u{202c}\n",
    );
    let mock = MockLlm::start(vec![Step::chat(
        &json!({"matches": [{"path": "src/rtl.py", "line": 1}], "answer": "ok"}).to_string(),
    )]);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--rlm", "retry delay", "src/rtl.py"]);
    out.code(0)
        .stdout_is("./src/rtl.py\n1:\tdef retry_delay_rtl():  # \u{202e}yaled\u{202c}\n");
}
