//! The model client against the scripted server on 127.0.0.1: every protocol,
//! every fault of issues 4 and 9, the call and token accounting, and what may
//! and may not leave the machine. No test contacts any other address: base
//! URLs are the mock's, a closed local port, or a reserved `.invalid` name that
//! the client refuses before any lookup.

use std::time::{Duration, Instant};

use kgrep::cli::ModelSettings;
use kgrep::llm::{
    self, Client, ClientOptions, Endpoint, Excerpt, ExpansionRequest, Llm, LlmError, Meter,
    SelectionRequest,
};
use kgrep::verify::Claim;

use crate::mock_llm::{closed_port_url, MockLlm, Step};

/// A key shaped like a real one, so the redactor would catch it too.
const KEY: &str = "sk-proj-TESTKEY0000aaaabbbbccccdddd";

/// Short limits so fault tests are fast.
fn options() -> ClientOptions {
    ClientOptions {
        connect_timeout: Duration::from_secs(2),
        call_timeout: Duration::from_millis(600),
        max_retries: 2,
        backoff: Duration::from_millis(10),
        max_wait: Duration::from_secs(2),
        max_reply_bytes: llm::client::MAX_REPLY_BYTES,
    }
}

fn endpoint(model: &str, base: &str, model_type: Option<&str>) -> Endpoint {
    let settings = ModelSettings {
        model: Some(model.into()),
        api_base: Some(base.into()),
        api_key: Some(KEY.into()),
        model_type: model_type.map(str::to_string),
        ..ModelSettings::default()
    };
    llm::resolve(&settings, |_| None).main.unwrap()
}

fn client(mock: &MockLlm, model: &str) -> Client {
    Client::with_options(
        endpoint(model, &mock.base_url(), None),
        Meter::new(20),
        options(),
    )
}

fn request() -> SelectionRequest {
    let excerpt = Excerpt {
        path: "src/app.py".into(),
        first_line: 9,
        lines: vec![
            "def connect(retries=3):".into(),
            "    delay = 2 ** n".into(),
        ],
    };
    SelectionRequest::new("where is the retry delay computed", vec![excerpt])
}

const MATCHES: &str = r#"{"matches": [{"path": "src/app.py", "line": 10}]}"#;

fn claim(path: &str, line: i64) -> Claim {
    Claim {
        path: path.into(),
        line,
    }
}

#[test]
fn openai_chat_round_trip() {
    let mock = MockLlm::start(vec![Step::chat_full(MATCHES, "stop", 321, 12)]);
    let client = client(&mock, "openai/gpt-4o-mini");
    let reply = client.select(&request()).unwrap();
    assert_eq!(reply.matches, [claim("src/app.py", 10)]);
    let got = mock.received();
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0].method.as_str(), got[0].path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        got[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(got[0].header("content-type"), Some("application/json"));
    let body = got[0].json();
    assert_eq!(body["model"], "gpt-4o-mini");
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert!(body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .contains("10|    delay = 2 ** n"));
    assert_eq!(
        (
            client.calls(),
            client.usage().prompt_tokens,
            client.usage().completion_tokens
        ),
        (1, 321, 12)
    );
}

#[test]
fn anthropic_messages_round_trip() {
    let reply =
        r#"{"concepts": [{"name": "retry", "synonyms": ["backoff"], "related": ["delay"]}]}"#;
    let mock = MockLlm::start(vec![Step::anthropic(reply, 80, 20)]);
    let client = client(&mock, "anthropic/claude-3-5-haiku-latest");
    let expansion = ExpansionRequest {
        query: "retry delay".into(),
        vocabulary: vec!["backoff".into(), "sleep".into()],
    };
    let reply = client.expand(&expansion).unwrap();
    assert_eq!(reply.concepts[0].synonyms, ["backoff"]);
    let got = &mock.received()[0];
    assert_eq!(got.path, "/v1/messages");
    assert_eq!(got.header("x-api-key"), Some(KEY));
    assert_eq!(got.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(got.header("authorization"), None);
    assert_eq!(got.json()["model"], "claude-3-5-haiku-latest");
    assert!(got.json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .contains("Vocabulary: backoff, sleep"));
    assert_eq!(
        (
            client.usage().prompt_tokens,
            client.usage().completion_tokens
        ),
        (80, 20)
    );
}

#[test]
fn responses_api_and_its_fallback_to_chat() {
    let mock = MockLlm::start(vec![Step::responses(MATCHES, 40, 4)]);
    let client = Client::with_options(
        endpoint("openai/gpt-5.2", &mock.base_url(), Some("responses")),
        Meter::new(5),
        options(),
    );
    assert_eq!(client.select(&request()).unwrap().matches.len(), 1);
    assert_eq!(mock.paths(), ["/v1/responses"]);
    assert_eq!(
        mock.received()[0].json()["text"]["format"]["type"],
        "json_schema"
    );

    // A server without /responses (llama.cpp, rlmgrep's fake_llm.py): 404, then
    // chat; the client remembers and goes straight to chat afterwards.
    let mock = MockLlm::start(vec![
        Step::error(404, "unsupported endpoint /v1/responses"),
        Step::chat(MATCHES),
        Step::chat(MATCHES),
    ]);
    let client = Client::with_options(
        endpoint("openai/gpt-5.2", &mock.base_url(), Some("responses")),
        Meter::new(5),
        options(),
    );
    assert_eq!(client.select(&request()).unwrap().matches.len(), 1);
    assert_eq!(client.select(&request()).unwrap().matches.len(), 1);
    assert_eq!(
        mock.paths(),
        [
            "/v1/responses",
            "/v1/chat/completions",
            "/v1/chat/completions"
        ]
    );
    assert_eq!(client.calls(), 2, "a fallback is part of the same call");
}

#[test]
fn auth_failures_are_not_retried_and_never_show_the_key() {
    for status in [401, 403] {
        let echo = format!("Incorrect API key provided: {KEY}. You can find your key at ...");
        let mock = MockLlm::start(vec![Step::error(status, &echo)]);
        let err = client(&mock, "openai/gpt-4o")
            .select(&request())
            .unwrap_err();
        assert!(
            matches!(err, LlmError::Auth { status: s, .. } if s == status),
            "{err:?}"
        );
        let text = format!("{err} {err:?}");
        assert!(!text.contains("TESTKEY"), "{text}");
        assert!(text.contains("Incorrect API key provided"), "{text}");
        assert_eq!(mock.received().len(), 1);
    }
}

#[test]
fn not_found_and_other_statuses_are_http_errors() {
    let mock = MockLlm::start(vec![Step::error(404, "The model `gpt-9` does not exist")]);
    let err = client(&mock, "openai/gpt-9")
        .select(&request())
        .unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 404, .. }), "{err:?}");
    assert!(err.to_string().contains("does not exist"));
    // A redirect is not followed: the key must not travel to another host.
    let mock = MockLlm::start(vec![
        Step::new(307, "").header("Location", "http://192.0.2.1/steal")
    ]);
    let err = client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 307, .. }), "{err:?}");
    assert_eq!(mock.received().len(), 1);
}

#[test]
fn rate_limits_honour_retry_after() {
    let mock = MockLlm::start(vec![
        Step::error(429, "slow down").header("Retry-After", "1"),
        Step::chat(MATCHES),
    ]);
    let started = Instant::now();
    let reply = client(&mock, "openai/gpt-4o").select(&request()).unwrap();
    assert_eq!(reply.matches.len(), 1);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(mock.received().len(), 2);

    // An HTTP date already past: retry at once.
    let past = "Sun, 06 Nov 1994 08:49:37 GMT";
    let mock = MockLlm::start(vec![
        Step::error(429, "x").header("Retry-After", past),
        Step::chat(MATCHES),
    ]);
    assert!(client(&mock, "openai/gpt-4o").select(&request()).is_ok());

    // Asked to wait longer than the cap: give up at once, say how long.
    let mock = MockLlm::start(vec![Step::error(429, "quota").header("Retry-After", "3600")]);
    let err = client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap_err();
    assert!(
        matches!(err, LlmError::RateLimited { retry_after: Some(d), .. } if d == Duration::from_secs(3600)),
        "{err:?}"
    );
    // Given up without a second request (no clock: a wait up to the cap
    // would end in one).
    assert_eq!(mock.received().len(), 1);
    assert!(err.to_string().contains("retry after 3600s"), "{err}");
    assert_eq!(mock.received().len(), 1);

    // Still limited after every retry.
    let mock = MockLlm::start(vec![
        Step::error(429, "a"),
        Step::error(429, "b"),
        Step::error(429, "c"),
    ]);
    let err = client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap_err();
    assert!(
        matches!(
            err,
            LlmError::RateLimited {
                retry_after: None,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(mock.received().len(), 3);
}

#[test]
fn server_errors_are_retried_with_backoff() {
    let mock = MockLlm::start(vec![
        Step::error(500, "oops"),
        Step::error(503, "busy"),
        Step::chat(MATCHES),
    ]);
    let client = client(&mock, "openai/gpt-4o");
    assert_eq!(client.select(&request()).unwrap().matches.len(), 1);
    assert_eq!(mock.received().len(), 3);
    assert_eq!(client.calls(), 1);

    let mock = MockLlm::start(vec![
        Step::error(503, "a"),
        Step::error(503, "b"),
        Step::error(503, "c"),
        Step::chat(MATCHES),
    ]);
    let err = self::client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 503, .. }), "{err:?}");
    assert_eq!(mock.received().len(), 3);
}

#[test]
fn slow_headers_and_stalled_bodies_time_out() {
    // The server would answer after 6 s; the client's timeout is 0.6 s. The
    // bound (5 s, generous for a loaded machine) only says it did not wait
    // for the answer.
    for step in [
        Step::chat(MATCHES).delay(Duration::from_secs(6)),
        Step::chat(MATCHES).stall(Duration::from_secs(6)),
    ] {
        let mock = MockLlm::start(vec![step]);
        let started = Instant::now();
        let err = client(&mock, "openai/gpt-4o")
            .select(&request())
            .unwrap_err();
        let took = started.elapsed();
        assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
        assert!(
            took >= Duration::from_millis(500) && took < Duration::from_secs(5),
            "{took:?}"
        );
        assert!(
            err.to_string().contains("did not answer within 0.6s"),
            "{err}"
        );
    }
}

#[test]
fn refused_connections_and_bogus_hosts_fail_fast() {
    // Long timeouts and waits: failing fast means not waiting for any of
    // them, which a 5 s bound shows even on a loaded machine.
    let patient = ClientOptions {
        connect_timeout: Duration::from_secs(30),
        call_timeout: Duration::from_secs(30),
        backoff: Duration::from_secs(10),
        max_wait: Duration::from_secs(30),
        ..options()
    };
    let fast = Duration::from_secs(5);
    let url = closed_port_url();
    let client = Client::with_options(
        endpoint("openai/gpt-4o", &url, None),
        Meter::new(3),
        patient,
    );
    let started = Instant::now();
    let err = client.select(&request()).unwrap_err();
    assert!(matches!(err, LlmError::Connect { .. }), "{err:?}");
    assert!(started.elapsed() < fast, "{:?}", started.elapsed());

    // A reserved name (RFC 6761): refused before any DNS query is made.
    let bogus = endpoint(
        "openai/gpt-4o",
        "https://kgrep-no-such-host.invalid/v1",
        None,
    );
    let client = Client::with_options(bogus, Meter::new(3), patient);
    let started = Instant::now();
    let err = client.select(&request()).unwrap_err();
    assert!(matches!(err, LlmError::Connect { .. }), "{err:?}");
    assert!(started.elapsed() < fast, "{:?}", started.elapsed());
    assert!(err.to_string().contains("host not found"), "{err}");
    assert_eq!(client.calls(), 1);
}

#[test]
fn a_ten_megabyte_reply_is_refused() {
    let padding = "x".repeat(10 * 1024 * 1024);
    let huge = format!("{{\"matches\": [], \"answer\": \"{padding}\"}}");
    let mock = MockLlm::start(vec![Step::chat(&huge)]);
    let err = client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap_err();
    assert!(
        matches!(err, LlmError::TooLarge { limit, .. } if limit == llm::client::MAX_REPLY_BYTES),
        "{err:?}"
    );
}

#[test]
fn garbage_and_wrong_shapes_are_bad_replies() {
    let steps = [
        Step::new(200, "<html>upstream error</html>"),
        Step::json(200, serde_json::json!({"result": "ok"})),
        Step::chat("I found it in src/app.py, line 10."),
        Step::chat(r#"{"matches": "src/app.py:10"}"#),
        Step::chat("[1, 2, 3]"),
    ];
    for step in steps {
        let mock = MockLlm::start(vec![step.clone()]);
        let client = client(&mock, "openai/gpt-4o");
        let err = client.select(&request()).unwrap_err();
        assert!(matches!(err, LlmError::BadReply(_)), "{step:?}: {err:?}");
        assert_eq!(mock.received().len(), 1, "bad replies are not retried");
    }
}

#[test]
fn truncated_and_fenced_replies() {
    let cut = r#"{"matches": [{"path": "src/app.py", "line": 9}, {"path": "src/app.py", "li"#;
    let mock = MockLlm::start(vec![Step::chat_full(cut, "length", 10, 300)]);
    let client = client(&mock, "openai/gpt-4o");
    match client.select(&request()) {
        Err(LlmError::Truncated {
            salvaged: Some(reply),
        }) => {
            assert_eq!(reply.matches, [claim("src/app.py", 9)])
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        client.usage().completion_tokens,
        300,
        "tokens of a cut reply still count"
    );
    // Cut off, but nothing salvageable.
    let mock = MockLlm::start(vec![Step::chat_full("The answer is", "length", 1, 1)]);
    let err = self::client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap_err();
    assert!(
        matches!(err, LlmError::Truncated { salvaged: None }),
        "{err:?}"
    );

    let fenced = format!("Here are the matches:\n```json\n{MATCHES}\n```\n");
    let mock = MockLlm::start(vec![Step::chat(&fenced)]);
    let reply = self::client(&mock, "openai/gpt-4o")
        .select(&request())
        .unwrap();
    assert_eq!(reply.matches, [claim("src/app.py", 10)]);
}

#[test]
fn a_server_that_rejects_response_format_is_asked_again_without_it() {
    let mock = MockLlm::start(vec![
        Step::error(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."),
        Step::chat(MATCHES),
        Step::chat(MATCHES),
    ]);
    let client = client(&mock, "openai/gpt-4");
    assert!(client.select(&request()).is_ok());
    assert!(client.select(&request()).is_ok());
    let got = mock.received();
    assert!(got[0].json().get("response_format").is_some());
    assert!(got[1].json().get("response_format").is_none());
    assert!(
        got[2].json().get("response_format").is_none(),
        "remembered for the run"
    );
    assert_eq!(client.calls(), 2);
    // Any other 400 is an error, sent once.
    let mock = MockLlm::start(vec![
        Step::error(400, "max_tokens is too large"),
        Step::chat(MATCHES),
    ]);
    let err = self::client(&mock, "openai/gpt-4")
        .select(&request())
        .unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 400, .. }), "{err:?}");
    assert_eq!(mock.received().len(), 1);
}

#[test]
fn the_call_limit_is_shared_and_sends_nothing_past_it() {
    let mock = MockLlm::start(vec![
        Step::chat_full(MATCHES, "stop", 100, 5),
        Step::anthropic(MATCHES, 50, 7),
        Step::chat(MATCHES),
    ]);
    let meter = Meter::new(2);
    let main = Client::with_options(
        endpoint("openai/gpt-4o", &mock.base_url(), None),
        meter.clone(),
        options(),
    );
    let sub = Client::with_options(
        endpoint("anthropic/claude-x", &mock.base_url(), None),
        meter.clone(),
        options(),
    );
    assert!(main.select(&request()).is_ok());
    assert!(sub.select(&request()).is_ok());
    let err = main.select(&request()).unwrap_err();
    assert!(matches!(err, LlmError::CallLimit { limit: 2 }), "{err:?}");
    assert_eq!(mock.received().len(), 2);
    assert_eq!(meter.calls(), 2);
    assert_eq!(
        (meter.usage().prompt_tokens, meter.usage().completion_tokens),
        (150, 12)
    );
    assert_eq!(main.usage(), sub.usage());
    // A failed call counts too.
    let mock = MockLlm::start(vec![
        Step::error(500, "x"),
        Step::error(500, "x"),
        Step::error(500, "x"),
    ]);
    let meter = Meter::new(1);
    let c = Client::with_options(
        endpoint("openai/gpt-4o", &mock.base_url(), None),
        meter.clone(),
        options(),
    );
    assert!(c.select(&request()).is_err());
    assert!(matches!(
        c.select(&request()),
        Err(LlmError::CallLimit { .. })
    ));
    assert_eq!(mock.received().len(), 3);
}

#[test]
fn planted_secrets_never_reach_the_server() {
    let aws = format!("AKIA{}", "IOSFODNN7EXAMPLE");
    let github = format!("ghp_{}", "0123456789abcdefghijABCDEFGHIJ012345");
    let excerpts = vec![
        Excerpt {
            path: "src/settings.py".into(),
            first_line: 1,
            lines: vec![
                format!("OPENAI_API_KEY = \"{KEY}\""),
                format!("AWS_ACCESS_KEY_ID={aws}"),
                format!("headers = {{'Authorization': 'token {github}'}}"),
                "DATABASE_URL = 'postgres://app:pg-pass-1234@db:5432/app'".into(),
                "-----BEGIN EC PRIVATE KEY-----".into(),
                "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5VbLgN4pFpRR8oAoGCCqGSM49".into(),
                "-----END EC PRIVATE KEY-----".into(),
                "RETRY_DELAY = 2".into(),
            ],
        },
        Excerpt {
            path: ".env".into(),
            first_line: 1,
            lines: vec!["SESSION_SECRET=plain-env-secret-value".into()],
        },
    ];
    let mock = MockLlm::start(vec![Step::chat(MATCHES)]);
    let client = client(&mock, "openai/gpt-4o");
    client
        .select(&SelectionRequest::new("retry delay", excerpts))
        .unwrap();
    let sent = &mock.received()[0].body;
    for secret in [
        &KEY[8..],
        aws.as_str(),
        github.as_str(),
        "pg-pass-1234",
        "MHcCAQEEIBkg4LVW",
        "plain-env-secret-value",
    ] {
        assert!(!sent.contains(secret), "{secret} reached the server");
    }
    assert!(
        sent.contains("8|RETRY_DELAY = 2"),
        "the rest is sent, with its line numbers"
    );
    assert!(!sent.contains("\\\".env\\\""), ".env is not sent at all");
    // The key is only in the Authorization header.
    assert_eq!(
        mock.received()[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[test]
fn dry_run_and_debug_output_mask_the_key() {
    let mock = MockLlm::start(vec![]);
    let endpoint = endpoint("openai/gpt-4o", &mock.base_url(), None);
    let text = llm::dry_run(&endpoint, &llm::prompt::selection(&request()));
    assert!(text.starts_with(&format!("POST {}/chat/completions\n", mock.base_url())));
    assert!(text.contains("Authorization: Bearer <masked key from --api-key/config>"));
    let client = Client::with_options(endpoint, Meter::new(1), options());
    for shown in [text, format!("{client:?}")] {
        assert!(!shown.contains("TESTKEY"), "{shown}");
    }
    assert!(mock.received().is_empty(), "a dry run sends nothing");
}
