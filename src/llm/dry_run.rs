//! `--dry-run`: the exact HTTP request(s) a prompt would become, as text, with
//! every key masked. Nothing is sent.
//!
//! Owns only the rendering; the request itself comes from `wire::build`, the
//! same function the client sends, so the two cannot drift apart.

use std::fmt::Write;

use serde_json::Value;

use super::prompt::Prompt;
use super::provider::{Endpoint, Protocol};
use super::wire;

/// One request as `--dry-run` shows it: what would be sent, keys masked.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownRequest {
    pub method: &'static str,
    /// The URL as shown (`Endpoint::display_url`): no credentials, query
    /// values and the key elided.
    pub url: String,
    /// Header names and values, keys masked.
    pub headers: Vec<(String, String)>,
    /// The JSON body, exactly as it would be sent.
    pub body: Value,
    /// Sent only if the server has no Responses endpoint (404/405).
    pub fallback: bool,
}

/// The requests `prompt` to `endpoint` becomes: one, and for the Responses
/// API also the chat request that follows if the server has no Responses
/// endpoint.
pub fn requests(endpoint: &Endpoint, prompt: &Prompt) -> Vec<ShownRequest> {
    let mut out = vec![shown(
        endpoint,
        &wire::build(endpoint, endpoint.protocol, prompt, true),
        false,
    )];
    if endpoint.protocol == Protocol::Responses {
        out.push(shown(
            endpoint,
            &wire::build(endpoint, Protocol::ChatCompletions, prompt, true),
            true,
        ));
    }
    out
}

/// Renders the request for `prompt` to `endpoint`: method, URL, headers (keys
/// masked), a blank line, the JSON body pretty-printed. For the Responses API it
/// also says which chat request would follow if the server has no Responses
/// endpoint.
pub fn dry_run(endpoint: &Endpoint, prompt: &Prompt) -> String {
    requests(endpoint, prompt).iter().map(render).collect()
}

fn shown(endpoint: &Endpoint, request: &wire::WireRequest, fallback: bool) -> ShownRequest {
    ShownRequest {
        method: "POST",
        url: endpoint.display_url(&request.url),
        headers: request
            .headers
            .iter()
            .map(|(name, value)| (name.to_string(), value.shown()))
            .collect(),
        body: request.body.clone(),
        fallback,
    }
}

/// One request as text.
pub fn render(request: &ShownRequest) -> String {
    let mut out = String::new();
    if request.fallback {
        let _ = writeln!(
            out,
            "# if the server has no Responses endpoint (404/405), this is sent instead:"
        );
    }
    let _ = writeln!(out, "{} {}", request.method, request.url);
    for (name, value) in &request.headers {
        let _ = writeln!(out, "{name}: {value}");
    }
    out.push('\n');
    let body = serde_json::to_string_pretty(&request.body).unwrap_or_default();
    // File lines are in it: DEL, the C1 controls (CSI) and bidi controls
    // go as `\u` escapes, which serde_json leaves raw, so a planted file
    // cannot drive the terminal a dry run is read on. They can only be
    // inside strings, so the JSON means the same.
    out.push_str(&crate::python::json::escape_terminal_unsafe(&body));
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::llm::prompt::{self, Excerpt, SelectionRequest};
    use crate::llm::provider::resolve;
    use crate::llm::settings::ModelSettings;

    const KEY: &str = "sk-proj-ZZZZsecretZZZZ0123456789abcdef";

    fn endpoint(model: &str, model_type: Option<&str>) -> Endpoint {
        let settings = ModelSettings {
            model: Some(model.into()),
            model_type: model_type.map(str::to_string),
            ..ModelSettings::default()
        };
        resolve(&settings, |name| {
            ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]
                .contains(&name)
                .then(|| KEY.to_string())
        })
        .main
        .unwrap()
    }

    fn prompt() -> Prompt {
        let excerpt = Excerpt {
            path: "src/app.py".into(),
            first_line: 9,
            lines: vec!["def connect(retries=3):".into()],
        };
        prompt::selection(&SelectionRequest::new("retry logic", vec![excerpt]))
    }

    #[test]
    fn chat_request_is_shown_with_the_key_masked() {
        let text = dry_run(&endpoint("openai/gpt-4o-mini", None), &prompt());
        assert!(text.starts_with("POST https://api.openai.com/v1/chat/completions\n"));
        assert!(text.contains("Authorization: Bearer <masked key from OPENAI_API_KEY>\n"));
        assert!(!text.contains("ZZZZsecret"), "{text}");
        let body_start = text.find("\n\n").unwrap() + 2;
        let body: serde_json::Value = serde_json::from_str(text[body_start..].trim()).unwrap();
        assert_eq!(body["model"], "gpt-4o-mini");
        assert!(body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("9|def connect(retries=3):"));
        assert_eq!(body["response_format"]["type"], "json_schema");
    }

    #[test]
    fn file_text_that_would_drive_a_terminal_is_shown_escaped() {
        let excerpt = Excerpt {
            path: "src/app.py".into(),
            first_line: 1,
            lines: vec!["x = \"\u{9b}2J\u{7f}\u{1b}]0;t\u{7} \u{202e}gnp\"".into()],
        };
        let prompt = prompt::selection(&SelectionRequest::new("retry", vec![excerpt]));
        let text = dry_run(&endpoint("openai/gpt-4o-mini", None), &prompt);
        assert!(
            !text.contains(['\u{9b}', '\u{7f}', '\u{1b}', '\u{7}', '\u{202e}']),
            "{text:?}"
        );
        assert!(
            text.contains(r#"1|x = \"\u009b2J\u007f\u001b]0;t\u0007 \u202egnp"#),
            "{text}"
        );
        // The JSON shown is still the request sent.
        let body_start = text.find("\n\n").unwrap() + 2;
        let body: serde_json::Value = serde_json::from_str(text[body_start..].trim()).unwrap();
        let sent = &requests(&endpoint("openai/gpt-4o-mini", None), &prompt)[0].body;
        assert_eq!(&body, sent);
    }

    #[test]
    fn anthropic_and_responses_requests() {
        let text = dry_run(
            &endpoint("anthropic/claude-3-5-haiku-latest", None),
            &prompt(),
        );
        assert!(text.starts_with("POST https://api.anthropic.com/v1/messages\n"));
        assert!(text.contains("x-api-key: <masked key from ANTHROPIC_API_KEY>\n"));
        assert!(text.contains("anthropic-version: 2023-06-01\n"));
        assert!(!text.contains("ZZZZsecret"));

        let text = dry_run(&endpoint("openai/gpt-5.2", Some("responses")), &prompt());
        assert!(text.starts_with("POST https://api.openai.com/v1/responses\n"));
        assert!(text.contains("POST https://api.openai.com/v1/chat/completions\n"));
        assert!(!text.contains("ZZZZsecret"));
    }
}
