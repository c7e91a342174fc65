//! A config that does not parse never widens what is sent (issue 27 item
//! 4): its readable lines are kept, key by key, and a line that cannot be
//! read but may say whether or where to send (`llm`, `api_base`, …) makes
//! the run offline. A bad `KGREP_LLM` is an error. Every test sets
//! `OPENAI_API_KEY` and routes any request, even one meant for the hosted
//! API, to a recording mock (as `--api-base` and as the HTTPS proxy), which
//! must receive nothing.

use serde_json::json;

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

/// Not answered offline, so `llm = "auto"` would consult a model.
const QUERY: &str = "where are stale entries thrown away";

fn project() -> Dir {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir.write(
        "src/cache.py",
        "class LruCache:\n    def evict(self):\n        oldest = next(iter(self.items))\n        \
         del self.items[oldest]\n",
    );
    dir
}

/// Writes `~/.rlmgrep/config.toml`.
fn config(dir: &Dir, text: &str) {
    let path = dir.home.path().join(".rlmgrep/config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs with a key in the environment and every request routed to `mock`.
fn run(dir: &Dir, mock: &MockLlm, env: &[(&str, &str)], args: &[&str]) -> Run {
    let proxy = mock.base_url().trim_end_matches("/v1").to_string();
    let mut cmd = dir.cmd();
    cmd.env("OPENAI_API_KEY", "sk-test-fail-closed-0123456789abcdef")
        .env("ALL_PROXY", &proxy)
        .env("HTTPS_PROXY", &proxy)
        .env("HTTP_PROXY", &proxy);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.args(args);
    crate::harness::finish(&mut cmd, args, dir.path())
}

/// A model that answers every request with the same claim.
fn answering_mock() -> MockLlm {
    MockLlm::respond(Box::new(|_| {
        Step::chat(&json!({"matches": [{"path": "src/cache.py", "line": 2}]}).to_string())
    }))
}

/// An offline run: no match (exit 1) or the offline lines (exit 0).
fn assert_ran_offline(out: &Run) {
    assert!(out.code == 0 || out.code == 1, "{}", out.describe);
}

#[test]
fn a_bad_line_beside_llm_off_sends_nothing() {
    let dir = project();
    let mock = answering_mock();
    config(
        &dir,
        &format!(
            "llm = \"off\"\nmax_lines = 10,\napi_base = \"{}\"\n",
            mock.base_url()
        ),
    );
    for args in [&[QUERY, "."][..], &["--answer", QUERY, "."][..]] {
        let out = run(&dir, &mock, &[], args);
        assert_ran_offline(&out);
        out.stderr_has("invalid config").stderr_has("line 2");
    }
    assert!(mock.received().is_empty(), "{:?}", mock.paths());
    let out = run(&dir, &mock, &[], &["--dry-run", QUERY, "."]);
    assert_ran_offline(&out);
    out.stderr_has("no model request would be sent")
        .stdout_lacks("POST ");
    assert!(mock.received().is_empty(), "{:?}", mock.paths());
}

/// An API key written unquoted as a number is a value of the wrong type:
/// toml's reason quotes it, and the warning did, whole (s45b probe).
#[test]
fn a_key_of_the_wrong_type_is_not_printed_in_the_warning() {
    let dir = project();
    let mock = answering_mock();
    let key = "98765432109876543210";
    config(
        &dir,
        &format!(
            "model = \"openai/mock\"\napi_base = \"{}\"\napi_key = {key}\n",
            mock.base_url()
        ),
    );
    for args in [&[QUERY, "."][..], &["-v", "--json", QUERY, "."][..]] {
        let out = run(&dir, &mock, &[], args);
        assert_ran_offline(&out);
        out.stderr_has("invalid config")
            .stderr_has("line 3")
            .stderr_lacks(key)
            .stdout_lacks(key);
    }
    assert!(mock.received().is_empty(), "{:?}", mock.paths());
}

#[test]
fn an_unreadable_llm_or_api_base_line_makes_the_run_offline() {
    for (text, line) in [
        ("llm = off\napi_base = \"{base}\"\n", 1),
        ("model = \"openai/x\"\napi_base = {base}\n", 2),
    ] {
        let dir = project();
        let mock = answering_mock();
        config(&dir, &text.replace("{base}", &mock.base_url()));
        // Not even KGREP_LLM=always reopens it: the file must be fixed.
        for llm in ["auto", "always"] {
            let out = run(&dir, &mock, &[("KGREP_LLM", llm)], &[QUERY, "."]);
            assert_ran_offline(&out);
            out.stderr_has(&format!("consulting no model, as line {line}"));
        }
        assert!(mock.received().is_empty(), "{text}: {:?}", mock.paths());
    }
}

#[test]
fn readable_lines_of_a_broken_config_are_kept() {
    // The typo is in a key that says nothing about sending: the model the
    // config names is used, at the base it names, not the hosted default.
    let dir = project();
    let mock = answering_mock();
    config(
        &dir,
        &format!(
            "model = \"openai/mock\"\napi_base = \"{}\"\nmax_lines = 10,\n",
            mock.base_url()
        ),
    );
    let out = run(&dir, &mock, &[("KGREP_LLM", "always")], &[QUERY, "."]);
    out.code(0)
        .stderr_has("using its 2 readable setting(s)")
        .stdout_has("def evict");
    let received = mock.received();
    assert!(!received.is_empty(), "{}", out.describe);
    assert!(
        received.iter().all(|r| r.path == "/v1/chat/completions"),
        "{:?}",
        mock.paths()
    );
}

#[test]
fn a_bad_kgrep_llm_value_is_an_error_and_sends_nothing() {
    let dir = project();
    let mock = answering_mock();
    config(&dir, &format!("api_base = \"{}\"\n", mock.base_url()));
    let out = run(&dir, &mock, &[("KGREP_LLM", "sometimes")], &[QUERY, "."]);
    out.code(2)
        .stderr_has("invalid KGREP_LLM value 'sometimes'");
    assert!(mock.received().is_empty());
}
