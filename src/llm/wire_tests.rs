#![allow(clippy::unwrap_used)]

use serde_json::json;

use super::*;
use crate::llm::provider::{KeySource, Sampling};

fn endpoint(provider: Provider, protocol: Protocol, key: Option<&str>) -> Endpoint {
    Endpoint {
        model: "m".into(),
        provider,
        wire_model: "wire-m".into(),
        protocol,
        base_url: "http://127.0.0.1:1/v1".into(),
        api_key: key.map(|k| ApiKey::new(k, KeySource::Setting)),
        sampling: Sampling {
            temperature: Some(0.5),
            top_p: None,
            max_tokens: 300,
        },
    }
}

fn prompt() -> Prompt {
    Prompt {
        system: "sys".into(),
        user: "usr".into(),
        schema: json!({"type": "object"}),
        max_tokens: 1_000,
        stats: Default::default(),
    }
}

fn header<'a>(req: &'a WireRequest, name: &str) -> Option<&'a HeaderValue> {
    req.headers.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
}

#[test]
fn chat_request() {
    let e = endpoint(
        Provider::Compatible,
        Protocol::ChatCompletions,
        Some("k-123"),
    );
    let req = build(&e, Protocol::ChatCompletions, &prompt(), true);
    assert_eq!(req.url, "http://127.0.0.1:1/v1/chat/completions");
    assert_eq!(
        header(&req, "Authorization").unwrap().wire(),
        "Bearer k-123"
    );
    assert_eq!(
        header(&req, "Authorization").unwrap().shown(),
        "Bearer <masked key from --api-key/config>"
    );
    assert_eq!(req.body["model"], "wire-m");
    assert_eq!(
        req.body["messages"][0],
        json!({"role": "system", "content": "sys"})
    );
    assert_eq!(
        req.body["messages"][1],
        json!({"role": "user", "content": "usr"})
    );
    assert_eq!(req.body["max_tokens"], 300);
    assert_eq!(req.body["temperature"], 0.5);
    assert!(req.body.get("top_p").is_none());
    assert_eq!(
        req.body["response_format"]["json_schema"]["name"],
        "kgrep_reply"
    );
    let plain = build(&e, Protocol::ChatCompletions, &prompt(), false);
    assert!(plain.body.get("response_format").is_none());
    let openai = endpoint(Provider::OpenAi, Protocol::ChatCompletions, None);
    let req = build(&openai, Protocol::ChatCompletions, &prompt(), true);
    assert_eq!(req.body["max_completion_tokens"], 300);
    assert!(header(&req, "Authorization").is_none());
}

#[test]
fn the_smaller_token_ceiling_is_sent() {
    let small = Prompt {
        max_tokens: 100,
        ..prompt()
    };
    for (provider, protocol, key) in [
        (
            Provider::Compatible,
            Protocol::ChatCompletions,
            "max_tokens",
        ),
        (
            Provider::OpenAi,
            Protocol::ChatCompletions,
            "max_completion_tokens",
        ),
        (Provider::OpenAi, Protocol::Responses, "max_output_tokens"),
        (
            Provider::Anthropic,
            Protocol::AnthropicMessages,
            "max_tokens",
        ),
    ] {
        let e = endpoint(provider, protocol, None);
        assert_eq!(build(&e, protocol, &small, true).body[key], 100);
        assert_eq!(build(&e, protocol, &prompt(), true).body[key], 300);
    }
}

#[test]
fn responses_and_anthropic_requests() {
    let e = endpoint(Provider::OpenAi, Protocol::Responses, Some("k"));
    let req = build(&e, Protocol::Responses, &prompt(), true);
    assert_eq!(req.url, "http://127.0.0.1:1/v1/responses");
    assert_eq!(req.body["instructions"], "sys");
    assert_eq!(req.body["input"], "usr");
    assert_eq!(req.body["max_output_tokens"], 300);
    assert_eq!(req.body["text"]["format"]["type"], "json_schema");
    assert!(
        req.body.get("response_format").is_none(),
        "OpenAI rejects it"
    );
    let local = endpoint(Provider::Compatible, Protocol::Responses, None);
    let req = build(&local, Protocol::Responses, &prompt(), true);
    assert_eq!(req.body["text"]["format"]["type"], "json_schema");
    assert_eq!(req.body["response_format"]["type"], "json_schema");
    let plain = build(&local, Protocol::Responses, &prompt(), false);
    assert!(plain.body.get("text").is_none() && plain.body.get("response_format").is_none());

    let e = endpoint(Provider::Anthropic, Protocol::AnthropicMessages, Some("ak"));
    let req = build(&e, Protocol::AnthropicMessages, &prompt(), true);
    assert_eq!(req.url, "http://127.0.0.1:1/v1/messages");
    assert_eq!(header(&req, "x-api-key").unwrap().wire(), "ak");
    assert_eq!(
        header(&req, "anthropic-version").unwrap().wire(),
        ANTHROPIC_VERSION
    );
    assert!(header(&req, "Authorization").is_none());
    assert_eq!(req.body["system"], "sys");
    assert_eq!(
        req.body["messages"],
        json!([{"role": "user", "content": "usr"}])
    );
    assert_eq!(req.body["max_tokens"], 300);
    assert!(req.body.get("response_format").is_none());
}

#[test]
fn reads_chat_replies() {
    let body = r#"{"choices": [{"message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 120, "completion_tokens": 7}}"#;
    let c = parse_completion(Protocol::ChatCompletions, body).unwrap();
    assert_eq!(c.text, "{}");
    assert!(!c.truncated);
    assert_eq!((c.usage.prompt_tokens, c.usage.completion_tokens), (120, 7));
    let cut = r#"{"choices": [{"message": {"content": [{"type": "text", "text": "{\"ma"}]}, "finish_reason": "length"}]}"#;
    let c = parse_completion(Protocol::ChatCompletions, cut).unwrap();
    assert_eq!(c.text, "{\"ma");
    assert!(c.truncated);
    assert_eq!(c.usage, Usage::default());
}

#[test]
fn reads_responses_and_anthropic_replies() {
    let body = r#"{"status": "completed", "output": [
        {"type": "reasoning", "summary": []},
        {"type": "message", "content": [{"type": "output_text", "text": "{\"matches\": "}, {"type": "output_text", "text": "[]}"}]}],
        "usage": {"input_tokens": 50, "output_tokens": 5}}"#;
    let c = parse_completion(Protocol::Responses, body).unwrap();
    assert_eq!(c.text, "{\"matches\": []}");
    assert_eq!(
        (
            c.usage.prompt_tokens,
            c.usage.completion_tokens,
            c.truncated
        ),
        (50, 5, false)
    );
    let cut = r#"{"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []}"#;
    assert!(
        parse_completion(Protocol::Responses, cut)
            .unwrap()
            .truncated
    );

    let body = r#"{"content": [{"type": "text", "text": "{\"answer\": \"x\"}"}], "stop_reason": "end_turn",
                   "usage": {"input_tokens": 30, "output_tokens": 9}}"#;
    let c = parse_completion(Protocol::AnthropicMessages, body).unwrap();
    assert_eq!(c.text, "{\"answer\": \"x\"}");
    assert_eq!(
        (
            c.usage.prompt_tokens,
            c.usage.completion_tokens,
            c.truncated
        ),
        (30, 9, false)
    );
    let cached = r#"{"content": [{"type": "text", "text": "{}"}],
                     "usage": {"input_tokens": 1, "cache_read_input_tokens": 25, "cache_creation_input_tokens": 4, "output_tokens": 8}}"#;
    let c = parse_completion(Protocol::AnthropicMessages, cached).unwrap();
    assert_eq!((c.usage.prompt_tokens, c.usage.completion_tokens), (30, 8));
    let cut = r#"{"content": [{"type": "text", "text": "{"}], "stop_reason": "max_tokens"}"#;
    assert!(
        parse_completion(Protocol::AnthropicMessages, cut)
            .unwrap()
            .truncated
    );
}

#[test]
fn garbage_and_wrong_shapes_are_bad_replies() {
    let cases = [
        (Protocol::ChatCompletions, "<html>502 Bad Gateway</html>"),
        (Protocol::ChatCompletions, ""),
        (Protocol::ChatCompletions, "[1]"),
        (Protocol::ChatCompletions, r#"{"choices": []}"#),
        (
            Protocol::ChatCompletions,
            r#"{"choices": [{"message": {"content": null}}]}"#,
        ),
        (
            Protocol::ChatCompletions,
            r#"{"error": {"message": "model overloaded"}}"#,
        ),
        (Protocol::Responses, r#"{"id": "x"}"#),
        (Protocol::AnthropicMessages, r#"{"content": "text"}"#),
        (
            Protocol::AnthropicMessages,
            r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#,
        ),
    ];
    for (protocol, body) in cases {
        let err = parse_completion(protocol, body).unwrap_err();
        assert!(matches!(err, LlmError::BadReply(_)), "{body}: {err:?}");
    }
}
