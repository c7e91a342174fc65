//! The signature and answer goldens: rlmgrep's spec errors, its `--signature` /
//! `--signature-json` stdout and its `--answer` section on stderr, reproduced
//! by kgrep's spec parser and renderers from each case's `script.json` (what
//! the scripted model returned). Rendering level: no model and no HTTP; the
//! end-to-end run against a model is the LLM layer's (issue 4).
//!
//! Where rlmgrep's output is a bug, the test pins kgrep's documented behaviour
//! instead (README, "Compatibility with rlmgrep"): a field named `items`
//! prints its value (the golden of the same case with the field called
//! `files` is the intended output), and answer text prints literally, without
//! rich's markup and emoji codes (for `answer_long_markup`, the same text run
//! through those two rich passes must give the golden byte for byte, which
//! checks the word wrap).
//!
//! Also here: the binary reports a bad spec after the `Scanned` line, as
//! rlmgrep does, and says how to configure a model when there is none.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;

use kgrep::answer::{model_required, NoModel};
use kgrep::render::answer::{answer_section, AnswerStyle};
use kgrep::render::signature::{write_signature, SignatureFormat};
use kgrep::signature::{parse, validate};
use serde_json::{Map, Value};

use crate::harness::{finish, Dir};

/// The in-repository copy of the contract.
const CONTRACT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rlmgrep-contract");
/// What the fake model answers when a script has no `answer`.
const DEFAULT_ANSWER: &str = "Scripted answer.";
/// Cases of these modes that this file does not reproduce, and why.
const NOT_HERE: &[(&str, &str)] = &[
    (
        "signature_both_flags",
        "argparse's usage error; kgrep's clap error is tested in flags.rs",
    ),
    (
        "signature_with_answer",
        "a flag conflict found before loading; tested in flags.rs",
    ),
    (
        "signature_json_with_answer_only",
        "a flag conflict found before loading; tested in flags.rs",
    ),
];
/// Every golden of these modes this file reproduces.
const COVERED: &[&str] = &[
    "answer",
    "answer_after_dropped",
    "answer_context",
    "answer_empty",
    "answer_long_markup",
    "answer_markup_error",
    "answer_only",
    "answer_only_no_matches",
    "signature_arrow_rejected",
    "signature_bad_type",
    "signature_json",
    "signature_json_files",
    "signature_json_types",
    "signature_md",
    "signature_md_files",
    "signature_md_types",
    "tty_stdout_answer",
    "tty_stdout_signature",
];

struct Case {
    spec: Value,
    script: Value,
    stdout: Vec<u8>,
    stderr: String,
    exit_code: i32,
}

impl Case {
    fn load(name: &str) -> Case {
        let dir = Path::new(CONTRACT).join("cases").join(name);
        let read = |file: &str| fs::read(dir.join(file)).unwrap();
        Case {
            spec: serde_json::from_slice(&read("case.json")).unwrap(),
            script: serde_json::from_slice(&read("script.json")).unwrap(),
            stdout: read("stdout"),
            stderr: String::from_utf8(read("stderr")).unwrap(),
            exit_code: String::from_utf8(read("exit_code"))
                .unwrap()
                .trim()
                .parse()
                .unwrap(),
        }
    }

    fn argv(&self) -> Vec<&str> {
        self.spec["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect()
    }

    /// The value of `flag` in argv.
    fn flag(&self, flag: &str) -> Option<&str> {
        let argv = self.argv();
        let i = argv.iter().position(|a| *a == flag)?;
        argv.get(i + 1).copied()
    }

    fn has(&self, flag: &str) -> bool {
        self.argv().contains(&flag)
    }

    fn is_signature(&self) -> bool {
        self.has("--signature") || self.has("--signature-json")
    }

    fn is_answer(&self) -> bool {
        self.has("--answer") || self.has("--answer-only")
    }

    /// The `--answer` section of the golden stderr (empty when none).
    fn answer_section(&self) -> &str {
        self.stderr
            .find("===== Answer =====")
            .map_or("", |at| &self.stderr[at..])
    }
}

fn all_mode_cases() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(Path::new(CONTRACT).join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| {
            let case = Case::load(name);
            case.is_signature() || case.is_answer()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_signature_and_answer_golden_is_accounted_for() {
    let mut expected: Vec<&str> = COVERED.to_vec();
    expected.extend(NOT_HERE.iter().map(|(name, _)| *name));
    expected.sort_unstable();
    assert_eq!(all_mode_cases(), expected);
}

// ---------------------------------------------------------------------------
// Signatures

/// kgrep's stdout for a successful signature case: the script's fields,
/// validated against the spec, rendered for the case's flag (the same on a
/// terminal or a pipe).
fn signature_stdout(case: &Case) -> Vec<u8> {
    let (format, text) = match case.flag("--signature") {
        Some(text) => (SignatureFormat::Text, text),
        None => (
            SignatureFormat::Json,
            case.flag("--signature-json").unwrap(),
        ),
    };
    let spec = parse(text).unwrap();
    let reply: Map<String, Value> = case.script["fields"].as_object().unwrap().clone();
    let values = validate(&spec, &reply).unwrap();
    let mut out = Vec::new();
    write_signature(&mut out, format, &spec, &values).unwrap();
    out
}

#[test]
fn signature_output_is_rlmgreps_byte_for_byte() {
    for name in COVERED
        .iter()
        .filter(|n| n.starts_with("signature_") || **n == "tty_stdout_signature")
    {
        let case = Case::load(name);
        if case.exit_code != 0 || case.spec.get("known_bug").is_some() {
            continue;
        }
        assert_eq!(
            String::from_utf8(signature_stdout(&case)).unwrap(),
            String::from_utf8(case.stdout.clone()).unwrap(),
            "{name}"
        );
    }
}

/// rlmgrep printed `Prediction.items`' bound method for a field named `items`;
/// kgrep prints the field, exactly as rlmgrep does for the same field named
/// `files` (the `_files` twin of the case).
#[test]
fn a_field_named_items_prints_what_rlmgrep_meant() {
    for (name, twin, from, to) in [
        (
            "signature_md",
            "signature_md_files",
            "----- files -----",
            "----- items -----",
        ),
        (
            "signature_json",
            "signature_json_files",
            "\"files\":",
            "\"items\":",
        ),
    ] {
        let case = Case::load(name);
        assert!(
            case.spec.get("known_bug").is_some(),
            "{name} is a known bug"
        );
        assert!(String::from_utf8_lossy(&case.stdout).contains("<bound method Example.items"));
        let intended = String::from_utf8(Case::load(twin).stdout)
            .unwrap()
            .replace(from, to)
            // The JSON twin's summary differs only by its scripted text.
            .replace(
                twin_summary(twin).as_str(),
                case.script["fields"]["summary"].as_str().unwrap(),
            );
        assert_eq!(
            String::from_utf8(signature_stdout(&case)).unwrap(),
            intended,
            "{name}"
        );
    }
}

fn twin_summary(twin: &str) -> String {
    Case::load(twin).script["fields"]["summary"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn spec_errors_are_rlmgreps_messages() {
    for name in ["signature_arrow_rejected", "signature_bad_type"] {
        let case = Case::load(name);
        assert_eq!(case.exit_code, 2);
        let spec = case.flag("--signature").unwrap();
        let lines: Vec<&str> = case.stderr.lines().collect();
        // rlmgrep reports the spec after loading: the summary comes first.
        assert!(lines[0].starts_with("rlmgrep: Scanned "), "{name}");
        assert_eq!(
            format!("rlmgrep: {}", parse(spec).unwrap_err()),
            lines[1],
            "{name}"
        );
        assert_eq!(lines.len(), 2);
    }
}

// ---------------------------------------------------------------------------
// Answers

fn answer_of(case: &Case) -> String {
    case.script
        .get("answer")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_ANSWER)
        .to_string()
}

#[test]
fn answer_section_is_rlmgreps_byte_for_byte() {
    for name in COVERED.iter().filter(|n| n.contains("answer")) {
        if ["answer_long_markup", "answer_markup_error"].contains(name) {
            continue;
        }
        let case = Case::load(name);
        assert_eq!(
            answer_section(&answer_of(&case), &AnswerStyle::default()),
            case.answer_section(),
            "{name}"
        );
    }
}

/// rich's markup and emoji passes, as far as `answer_long_markup` uses them:
/// `[tag]`/`[/tag]` removed, `:warning:` replaced.
fn rich_markup(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let tag_end = after.find(']').filter(|&end| {
            !after[..end].contains('[')
                && after.starts_with(|c: char| c.is_ascii_lowercase() || "#/@".contains(c))
        });
        match tag_end {
            Some(end) => rest = &after[end + 1..],
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace(":warning:", "\u{26a0}")
}

#[test]
fn answers_print_literally_and_wrap_as_rich_does() {
    let case = Case::load("answer_long_markup");
    let answer = answer_of(&case);
    // The layout, wrap included, is rich's: the text rich saw gives the golden.
    assert_eq!(
        answer_section(&rich_markup(&answer), &AnswerStyle::default()),
        case.answer_section()
    );
    // kgrep keeps the tags and the emoji code (README, compatibility); rich
    // 15 itself prints this text so with markup and emoji off.
    assert_eq!(
        answer_section(&answer, &AnswerStyle::default()),
        "===== Answer =====\n\
         The [bold]connect[/bold] function in src/app.py retries up to MAX_RETRIES times \n\
         (see [link]) before raising ConnectionError('database unreachable'); a \n\
         very-long-token-without-spaces-that-exceeds-the-console-width-abcdefghijklmnopqr\n\
         stuvwxyz0123456789 follows.\n\
         \n\
         Second paragraph: :warning: done.\n\
         \n"
    );
}

#[test]
fn a_stray_closing_tag_prints_instead_of_crashing() {
    let case = Case::load("answer_markup_error");
    assert!(case.stderr.contains("MarkupError"), "rlmgrep crashed here");
    assert_eq!(
        answer_section(&answer_of(&case), &AnswerStyle::default()),
        "===== Answer =====\nsee the [/bold] tag here\n\n"
    );
}

// ---------------------------------------------------------------------------
// The binary: when spec errors and the missing model are reported

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

/// stderr is the summary line, then `message`; nothing on stdout; exit 2.
fn assert_after_summary(run: &crate::harness::Run, message: &str) {
    run.code(2).stdout_is("");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.describe);
    assert!(lines[0].starts_with("kgrep: Scanned "), "{}", run.describe);
    assert_eq!(lines[1], format!("kgrep: {message}"), "{}", run.describe);
}

#[test]
fn bad_specs_are_reported_after_loading() {
    let d = corpus();
    assert_after_summary(
        &d.run_devnull(&["--signature", "a: str -> b: str", "retry", "."]),
        "--signature accepts output fields only",
    );
    assert_after_summary(
        &d.run_devnull(&["--signature-json", "x: set[int]", "retry", "."]),
        "unsupported output type for field 'x': set[int]. Supported types: str, int, float, \
         bool, list[T], dict[str, T], Literal[...]",
    );
    assert_after_summary(
        &d.run_devnull(&["--signature", "  ", "retry", "."]),
        "--signature cannot be empty",
    );
    // Piped content has no summary line: the error is all.
    let run = d.run_stdin(&["--signature", "x: Foo", "retry"], "retry here\n");
    run.code(2).stdout_is("");
    assert_eq!(
        run.stderr,
        "kgrep: invalid --signature: Unknown name: Foo\n"
    );
}

#[test]
fn without_a_model_signature_modes_say_how_to_get_one() {
    let d = corpus();
    assert_after_summary(
        &d.run_devnull(&["--signature-json", "summary: str", "retry", "."]),
        &model_required("--signature-json", NoModel::NotConfigured),
    );
    let mut cmd = d.cmd();
    cmd.env("KGREP_LLM", "off");
    let args = ["--signature", "summary: str", "retry", "."];
    cmd.args(args);
    let run = finish(&mut cmd, &args, d.path());
    assert_after_summary(&run, &model_required("--signature", NoModel::Disabled));
}
