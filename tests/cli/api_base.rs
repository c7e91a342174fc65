//! `--api-base` URLs with a query string or credentials (issue 27 item 5):
//! the endpoint path goes before the query, which reaches the server as it
//! was; neither a key in the query nor a password in the URL is ever shown,
//! in `--dry-run`, in `-v` or in a warning.

use serde_json::json;

use crate::harness::Run;
use crate::mock_llm::{closed_port_url, MockLlm, Step};

const QUERY_KEY: &str = "QueryKey0123456789abcdef";
const PASSWORD: &str = "UrlPassw0rd9876";
const QUESTION: &str = "where is the retry delay computed";

use crate::harness::retry_project as project;

/// `…/v1` with an Azure-style query carrying a key.
fn with_query(base: &str) -> String {
    format!("{base}?api-version=2024-02-01&key={QUERY_KEY}")
}

fn assert_never_shown(out: &Run, secret: &str) {
    for text in [&out.stdout, &out.stderr] {
        assert!(
            !text.to_lowercase().contains(&secret.to_lowercase()),
            "{secret} shown\n{}",
            out.describe
        );
    }
}

#[test]
fn the_query_string_stays_in_place_and_its_key_is_never_printed() {
    let dir = project();
    let mock = MockLlm::start(vec![Step::chat(
        &json!({"matches": [{"path": "src/retry.py", "line": 1}]}).to_string(),
    )]);
    let base = with_query(&mock.base_url());
    dir.use_model(&base, "learn = false");
    let out = dir.run_llm("always", &["-v", QUESTION, "."]);
    out.code(0).stdout_has("retry_delay");
    assert_never_shown(&out, QUERY_KEY);
    let paths = mock.paths();
    let want = format!("/v1/chat/completions?api-version=2024-02-01&key={QUERY_KEY}");
    assert!(!paths.is_empty());
    assert!(paths.iter().all(|p| *p == want), "{paths:?}");
}

#[test]
fn dry_run_shows_the_path_and_no_query_value() {
    let dir = project();
    let mock = MockLlm::start(vec![]);
    let base = with_query(&mock.base_url());
    dir.use_model(&base, "learn = false");
    let out = dir.run_llm("always", &["--dry-run", QUESTION, "."]);
    out.code(0).stdout_has(&format!(
        "POST {}/chat/completions?api-version=[REDACTED]&key=[REDACTED]\n",
        mock.base_url()
    ));
    assert_never_shown(&out, QUERY_KEY);
    assert!(mock.received().is_empty());
}

#[test]
fn http_warnings_never_show_the_key_in_the_url() {
    let dir = project();
    // The server's error quotes the URL it was asked for, key and all.
    let mock = MockLlm::respond(Box::new(|request| {
        Step::error(400, &format!("no such deployment: {}", request.path))
    }));
    dir.use_model(&with_query(&mock.base_url()), "learn = false");
    let out = dir.run_llm("always", &["-v", QUESTION, "."]);
    out.code(0).stderr_has("HTTP 400");
    assert_never_shown(&out, QUERY_KEY);
    // A server that cannot be reached.
    let dir = project();
    dir.use_model(&with_query(&closed_port_url()), "learn = false");
    let out = dir.run_llm("always", &["-v", QUESTION, "."]);
    out.code(0).stderr_has("cannot connect");
    assert_never_shown(&out, QUERY_KEY);
}

#[test]
fn credentials_in_the_url_are_stripped_and_never_printed() {
    let dir = project();
    let mock = MockLlm::start(vec![Step::error(500, "down"), Step::error(500, "down")]);
    let with_password = mock
        .base_url()
        .replace("http://", &format!("http://user:{PASSWORD}@"));
    dir.use_model(&with_password, "learn = false");
    let out = dir.run_llm("always", &["-v", QUESTION, "."]);
    out.code(0).stderr_has("HTTP 500");
    assert_never_shown(&out, PASSWORD);
    let out = dir.run_llm("always", &["--dry-run", QUESTION, "."]);
    assert_never_shown(&out, PASSWORD);
    let received = mock.received();
    assert!(!received.is_empty());
    assert!(received.iter().all(|r| r.path == "/v1/chat/completions"));
}
