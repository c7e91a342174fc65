//! The three wire formats: request bodies and headers built from a [`Prompt`],
//! and the text, finish state and token usage read back from a reply body.
//!
//! Owns the JSON of OpenAI chat completions, OpenAI Responses and Anthropic
//! Messages. Pure functions: `client` sends what [`build`] returns and hands the
//! body to [`parse_completion`]; `dry_run` prints the same [`WireRequest`], so
//! what `--dry-run` shows is byte for byte what would be sent (keys masked).

use serde_json::{json, Map, Value};

use super::prompt::{Prompt, SCHEMA_NAME};
use super::provider::{ApiKey, Endpoint, Protocol, Provider};
use super::{LlmError, Usage};

/// The Anthropic API version header every Messages request carries.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// One header value; secrets are kept apart so they can be masked.
#[derive(Clone, Debug, PartialEq)]
pub enum HeaderValue {
    Plain(String),
    /// `prefix` + the key (e.g. `Bearer `); Debug shows the key masked.
    Key {
        prefix: &'static str,
        key: ApiKey,
    },
}

impl HeaderValue {
    /// The value as sent on the wire.
    pub(crate) fn wire(&self) -> String {
        match self {
            HeaderValue::Plain(v) => v.clone(),
            HeaderValue::Key { prefix, key } => format!("{prefix}{}", key.expose()),
        }
    }

    /// The value as shown to a person.
    pub fn shown(&self) -> String {
        match self {
            HeaderValue::Plain(v) => v.clone(),
            HeaderValue::Key { prefix, key } => format!("{prefix}{}", key.masked()),
        }
    }
}

/// An HTTP request, not yet sent.
#[derive(Clone, Debug, PartialEq)]
pub struct WireRequest {
    pub protocol: Protocol,
    pub url: String,
    pub headers: Vec<(&'static str, HeaderValue)>,
    pub body: Value,
}

/// What a successful reply carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The assistant's text.
    pub text: String,
    /// The server stopped at the token limit.
    pub truncated: bool,
    pub usage: Usage,
}

/// Builds the request for `protocol`; `json_mode` asks for the reply schema via
/// `response_format` (chat) or `text.format` (Responses). Anthropic has no such
/// parameter: the prompt asks for JSON and the parser is tolerant.
pub fn build(
    endpoint: &Endpoint,
    protocol: Protocol,
    prompt: &Prompt,
    json_mode: bool,
) -> WireRequest {
    let mut headers = vec![(
        "Content-Type",
        HeaderValue::Plain("application/json".into()),
    )];
    let key = endpoint.api_key.clone();
    let body = match protocol {
        Protocol::ChatCompletions => {
            if let Some(key) = key {
                headers.push((
                    "Authorization",
                    HeaderValue::Key {
                        prefix: "Bearer ",
                        key,
                    },
                ));
            }
            chat_body(endpoint, prompt, json_mode)
        }
        Protocol::Responses => {
            if let Some(key) = key {
                headers.push((
                    "Authorization",
                    HeaderValue::Key {
                        prefix: "Bearer ",
                        key,
                    },
                ));
            }
            responses_body(endpoint, prompt, json_mode)
        }
        Protocol::AnthropicMessages => {
            if let Some(key) = key {
                headers.push(("x-api-key", HeaderValue::Key { prefix: "", key }));
            }
            headers.push((
                "anthropic-version",
                HeaderValue::Plain(ANTHROPIC_VERSION.into()),
            ));
            anthropic_body(endpoint, prompt)
        }
    };
    let url = endpoint.url(protocol);
    WireRequest {
        protocol,
        url,
        headers,
        body,
    }
}

fn chat_body(endpoint: &Endpoint, prompt: &Prompt, json_mode: bool) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(endpoint.wire_model));
    let messages = json!([
        {"role": "system", "content": prompt.system},
        {"role": "user", "content": prompt.user},
    ]);
    body.insert("messages".into(), messages);
    // OpenAI's own API rejects `max_tokens` for its newer models; compatible
    // servers (llama.cpp, vLLM, Ollama, OpenRouter) all read `max_tokens`.
    let max_key = if endpoint.provider == Provider::OpenAi {
        "max_completion_tokens"
    } else {
        "max_tokens"
    };
    body.insert(max_key.into(), json!(max_tokens(endpoint, prompt)));
    sampling(endpoint, &mut body);
    body.insert("stream".into(), json!(false));
    if json_mode {
        body.insert("response_format".into(), chat_format(prompt));
    }
    Value::Object(body)
}

fn responses_body(endpoint: &Endpoint, prompt: &Prompt, json_mode: bool) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(endpoint.wire_model));
    body.insert("instructions".into(), json!(prompt.system));
    body.insert("input".into(), json!(prompt.user));
    body.insert(
        "max_output_tokens".into(),
        json!(max_tokens(endpoint, prompt)),
    );
    sampling(endpoint, &mut body);
    body.insert("store".into(), json!(false));
    if json_mode {
        let format = json!({
            "format": {"type": "json_schema", "name": SCHEMA_NAME, "schema": prompt.schema, "strict": false}
        });
        body.insert("text".into(), format);
        // llama.cpp's /v1/responses ignores `text.format` but honours chat's
        // `response_format` (measured with llm-server.sh); OpenAI rejects the
        // latter, so it goes only to other servers. A server that rejects it
        // gets the request again without either (the client's 400 fallback).
        if endpoint.provider != Provider::OpenAi {
            body.insert("response_format".into(), chat_format(prompt));
        }
    }
    Value::Object(body)
}

fn chat_format(prompt: &Prompt) -> Value {
    json!({
        "type": "json_schema",
        "json_schema": {"name": SCHEMA_NAME, "schema": prompt.schema, "strict": false}
    })
}

fn anthropic_body(endpoint: &Endpoint, prompt: &Prompt) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(endpoint.wire_model));
    body.insert("system".into(), json!(prompt.system));
    body.insert(
        "messages".into(),
        json!([{"role": "user", "content": prompt.user}]),
    );
    body.insert("max_tokens".into(), json!(max_tokens(endpoint, prompt)));
    sampling(endpoint, &mut body);
    Value::Object(body)
}

/// The smaller of the endpoint's `max_tokens` and the prompt's own ceiling.
fn max_tokens(endpoint: &Endpoint, prompt: &Prompt) -> u32 {
    endpoint.sampling.max_tokens.min(prompt.max_tokens).max(1)
}

fn sampling(endpoint: &Endpoint, body: &mut Map<String, Value>) {
    if let Some(t) = endpoint.sampling.temperature.filter(|t| t.is_finite()) {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(p) = endpoint.sampling.top_p.filter(|p| p.is_finite()) {
        body.insert("top_p".into(), json!(p));
    }
}

/// The message of a server's error: `error.message`, or `error` itself when
/// it is a string (`{"error": "…"}`).
pub fn error_message(error: &Value) -> Option<&str> {
    error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str())
}

/// Reads a 2xx reply body. A body that is not JSON, or lacks the text where the
/// protocol puts it, is [`LlmError::BadReply`]; one that is an error object
/// says its message, `secret` (the API key) removed before it is cut short.
pub fn parse_completion(
    protocol: Protocol,
    body: &str,
    secret: Option<&str>,
) -> Result<Completion, LlmError> {
    let value: Value = serde_json::from_str(body)
        .map_err(|_| LlmError::BadReply("the server's reply is not JSON".into()))?;
    if !value.is_object() {
        return Err(bad("the server's reply is not a JSON object"));
    }
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        let message = error_message(error).unwrap_or("an error object");
        return Err(LlmError::BadReply(format!(
            "the server answered with {}",
            super::redact::one_line(message, secret)
        )));
    }
    let (text, truncated) = match protocol {
        Protocol::ChatCompletions => chat_text(&value)?,
        Protocol::Responses => responses_text(&value)?,
        Protocol::AnthropicMessages => anthropic_text(&value)?,
    };
    Ok(Completion {
        text,
        truncated,
        usage: usage(&value),
    })
}

fn bad(reason: &str) -> LlmError {
    LlmError::BadReply(reason.to_string())
}

fn chat_text(value: &Value) -> Result<(String, bool), LlmError> {
    let choice = value
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| bad("the reply has no choices"))?;
    let content = choice
        .get("message")
        .and_then(|m| m.get("content"))
        .ok_or_else(|| bad("the reply has no message content"))?;
    let text = match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => return Err(bad("the reply's message content is empty")),
    };
    let finish = choice.get("finish_reason").and_then(Value::as_str);
    Ok((text, finish == Some("length")))
}

fn responses_text(value: &Value) -> Result<(String, bool), LlmError> {
    let mut text = String::new();
    if let Some(Value::Array(items)) = value.get("output") {
        for item in items
            .iter()
            .filter(|i| i.get("type").and_then(Value::as_str) == Some("message"))
        {
            let parts = item.get("content").and_then(Value::as_array);
            for part in parts.into_iter().flatten() {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    text.push_str(t);
                }
            }
        }
    } else if let Some(t) = value.get("output_text").and_then(Value::as_str) {
        text.push_str(t);
    } else {
        return Err(bad("the reply has no output"));
    }
    let reason = value
        .get("incomplete_details")
        .and_then(|d| d.get("reason"))
        .and_then(Value::as_str);
    let truncated = value.get("status").and_then(Value::as_str) == Some("incomplete")
        && matches!(reason, None | Some("max_output_tokens"));
    Ok((text, truncated))
}

fn anthropic_text(value: &Value) -> Result<(String, bool), LlmError> {
    let parts = value
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("the reply has no content"))?;
    let text = parts
        .iter()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    let stop = value.get("stop_reason").and_then(Value::as_str);
    Ok((text, stop == Some("max_tokens")))
}

/// Token counts from `usage`: OpenAI chat (`prompt_tokens`/`completion_tokens`)
/// or Anthropic and Responses (`input_tokens`/`output_tokens`). Anthropic's
/// `input_tokens` leaves out prompt-cache reads and writes, so those are added
/// (llama.cpp reports `input_tokens: 1` for a prompt it mostly had cached).
/// Missing counts are zero.
fn usage(value: &Value) -> Usage {
    let usage = value.get("usage");
    let count = |name: &str| usage.and_then(|u| u.get(name)?.as_u64());
    let prompt = count("prompt_tokens").unwrap_or_else(|| {
        [
            "input_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
        ]
        .iter()
        .filter_map(|n| count(n))
        .sum()
    });
    Usage {
        prompt_tokens: prompt,
        completion_tokens: count("completion_tokens")
            .or_else(|| count("output_tokens"))
            .unwrap_or(0),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
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
            paths: Vec::new(),
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
        let c = parse_completion(Protocol::ChatCompletions, body, None).unwrap();
        assert_eq!(c.text, "{}");
        assert!(!c.truncated);
        assert_eq!((c.usage.prompt_tokens, c.usage.completion_tokens), (120, 7));
        let cut = r#"{"choices": [{"message": {"content": [{"type": "text", "text": "{\"ma"}]}, "finish_reason": "length"}]}"#;
        let c = parse_completion(Protocol::ChatCompletions, cut, None).unwrap();
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
        let c = parse_completion(Protocol::Responses, body, None).unwrap();
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
            parse_completion(Protocol::Responses, cut, None)
                .unwrap()
                .truncated
        );

        let body = r#"{"content": [{"type": "text", "text": "{\"answer\": \"x\"}"}], "stop_reason": "end_turn",
                   "usage": {"input_tokens": 30, "output_tokens": 9}}"#;
        let c = parse_completion(Protocol::AnthropicMessages, body, None).unwrap();
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
        let c = parse_completion(Protocol::AnthropicMessages, cached, None).unwrap();
        assert_eq!((c.usage.prompt_tokens, c.usage.completion_tokens), (30, 8));
        let cut = r#"{"content": [{"type": "text", "text": "{"}], "stop_reason": "max_tokens"}"#;
        assert!(
            parse_completion(Protocol::AnthropicMessages, cut, None)
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
            let err = parse_completion(protocol, body, None).unwrap_err();
            assert!(matches!(err, LlmError::BadReply(_)), "{body}: {err:?}");
        }
    }

    #[test]
    fn an_error_object_says_its_message_in_either_form() {
        for (body, said) in [
            (
                r#"{"error": {"message": "model overloaded"}}"#,
                "model overloaded",
            ),
            (r#"{"error": "quota exceeded"}"#, "quota exceeded"),
            (r#"{"error": {"code": 7}}"#, "an error object"),
        ] {
            let err = parse_completion(Protocol::ChatCompletions, body, None).unwrap_err();
            let LlmError::BadReply(message) = err else {
                panic!("{body}: {err:?}");
            };
            assert_eq!(message, format!("the server answered with {said}"));
        }
    }
}
