//! A model consultation settles its query (issue 28, item 11): whatever the
//! model replied, the next run of the query makes no call and prints what the
//! consulted run printed, until a file that answer rests on changes. A real
//! server samples (kgrep sends no temperature), so asking again is paying
//! twice for a reply that may differ for nothing.

use serde_json::{json, Value};

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Received, Step};

/// A project the offline ranking is unsure of, so the model is consulted.
fn project() -> Dir {
    let d = Dir::new();
    d.write(
        "src/headers.py",
        "SENSITIVE = {\"authorization\", \"cookie\"}\n\n\n\
         def scrub(headers):\n    return {k: (\"***\" if k.lower() in SENSITIVE else v) \
         for k, v in headers.items()}\n",
    );
    // Its best line is top-level code with no identifier of its own: the
    // lessons of `learn::answer` keep nothing from it.
    d.write(
        "src/log.py",
        "import logging\n\nlog = logging.getLogger(__name__)\n\
         log.debug(\"debug: request headers %s\", headers)\n",
    );
    d.write(
        "docs/logging.md",
        "# Logging\n\nDebug logs never show secret headers: the authorization header is \
         hidden, its value printed as three stars.\n\nSet the level with the LOG_LEVEL variable.\n",
    );
    d.write(
        "src/secrets.py",
        "# Secrets are read from the environment, never from a file.\n\
         def secret(name):\n    return os.environ[name]\n",
    );
    for i in 0..12 {
        d.write(
            &format!("src/util{i}.py"),
            format!("def helper_{i}(value):\n    return value\n"),
        );
    }
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    d
}

/// Config that sends every query to the model (the judge's threshold).
const ASK_ALWAYS: &str = "judge_confidence = 0.999";

const QUERY: &str = "hiding secret headers like authorization in debug logs";

/// A model that teaches `concepts` when asked to widen the search and
/// claims `matches` when asked to choose.
fn model(concepts: Value, matches: Value) -> MockLlm {
    MockLlm::respond(Box::new(move |r: &Received| {
        if r.body.contains("widen a search") {
            return Step::chat(&json!({ "concepts": concepts }).to_string());
        }
        Step::chat(&json!({ "matches": matches }).to_string())
    }))
}

fn learn_run(d: &Dir, query: &str) -> Run {
    let mut cmd = d.cmd();
    cmd.env("KGREP_LLM", "auto").args(["-v", query, "."]);
    crate::harness::finish(&mut cmd, &["-v", query, "."], d.path())
}

/// The replies a consultation can get: each must settle the query.
fn replies() -> Vec<(&'static str, Value, Value)> {
    vec![
        ("no claim", json!([]), json!([])),
        (
            "a line the offline ranking printed",
            json!([]),
            json!([{"path": "src/headers.py", "line": 4}]),
        ),
        (
            "a line that teaches nothing (no identifier of its own)",
            json!([]),
            json!([{"path": "src/log.py", "line": 4}]),
        ),
        (
            "an expansion whose words are in no printed line, then nothing",
            json!([{"name": "redaction", "synonyms": ["redact", "mask"]}]),
            json!([]),
        ),
        (
            "a line no file has",
            json!([]),
            json!([{"path": "src/nope.py", "line": 3}]),
        ),
    ]
}

#[test]
fn every_reply_settles_the_query_until_its_files_change() {
    for (what, concepts, matches) in replies() {
        let d = project();
        let first_model = model(concepts.clone(), matches.clone());
        d.use_model(&first_model.base_url(), ASK_ALWAYS);
        let first = learn_run(&d, QUERY);
        first.code(0);
        assert!(
            !first_model.received().is_empty(),
            "{what}: the model should be consulted\n{}",
            first.describe
        );
        // Asked again, a sampling server would say something else: nothing
        // is asked, and the same lines print.
        let second_model = model(json!([]), json!([{"path": "src/secrets.py", "line": 2}]));
        d.use_model(&second_model.base_url(), ASK_ALWAYS);
        let second = learn_run(&d, QUERY);
        second.code(0);
        assert!(
            second_model.received().is_empty(),
            "{what}: consulted again\n{}",
            second.describe
        );
        assert_eq!(second.stdout, first.stdout, "{what}\n{}", second.describe);
        second.stderr_has("model: not consulted: settled");
        // A file the answer rests on changes: the settlement lapses, and the
        // model is asked again unless a lesson it taught answers the query.
        let printed = first.headings()[0].trim_start_matches("./").to_string();
        let path = d.path().join(&printed);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("\n# changed\n");
        std::fs::write(&path, text).unwrap();
        let third_model = model(json!([]), json!([]));
        d.use_model(&third_model.base_url(), ASK_ALWAYS);
        let third = learn_run(&d, QUERY);
        third.code(0).stderr_lacks("not consulted: settled");
        let lesson_kept = first.stderr.contains(") into ");
        assert!(
            lesson_kept || !third_model.received().is_empty(),
            "{what}: {printed} changed, yet the model was not asked\n{}",
            third.describe
        );
    }
}

#[test]
fn no_learn_and_a_failed_call_settle_nothing() {
    let d = project();
    let failing = MockLlm::start(vec![Step::error(500, "boom"), Step::error(500, "boom")]);
    d.use_model(&failing.base_url(), ASK_ALWAYS);
    learn_run(&d, QUERY).code(0);
    assert!(!failing.received().is_empty());
    let next = model(json!([]), json!([]));
    d.use_model(&next.base_url(), ASK_ALWAYS);
    learn_run(&d, QUERY).code(0);
    assert!(!next.received().is_empty(), "a failure is not an answer");
    let d = project();
    let first = model(json!([]), json!([]));
    d.use_model(&first.base_url(), ASK_ALWAYS);
    let mut cmd = d.cmd();
    cmd.env("KGREP_LLM", "auto")
        .args(["--no-learn", QUERY, "."]);
    crate::harness::finish(&mut cmd, &["--no-learn", QUERY, "."], d.path()).code(0);
    let next = model(json!([]), json!([]));
    d.use_model(&next.base_url(), ASK_ALWAYS);
    learn_run(&d, QUERY).code(0);
    assert!(!next.received().is_empty(), "--no-learn keeps nothing");
}
