//! `--dry-run`: the exact HTTP request(s) a prompt would become, as text, with
//! every key masked. Nothing is sent.
//!
//! Owns only the rendering; the request itself comes from `wire::build`, the
//! same function the client sends, so the two cannot drift apart.

use std::fmt::Write;

use super::prompt::Prompt;
use super::provider::{strip_userinfo, Endpoint, Protocol};
use super::wire;

/// Renders the request for `prompt` to `endpoint`: method, URL, headers (keys
/// masked), a blank line, the JSON body pretty-printed. For the Responses API it
/// also says which chat request would follow if the server has no Responses
/// endpoint.
pub fn dry_run(endpoint: &Endpoint, prompt: &Prompt) -> String {
    let mut out = render(&wire::build(endpoint, endpoint.protocol, prompt, true));
    if endpoint.protocol == Protocol::Responses {
        let _ = writeln!(
            out,
            "# if the server has no Responses endpoint (404/405), this is sent instead:"
        );
        out.push_str(&render(&wire::build(
            endpoint,
            Protocol::ChatCompletions,
            prompt,
            true,
        )));
    }
    out
}

fn render(request: &wire::WireRequest) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "POST {}", strip_userinfo(&request.url));
    for (name, value) in &request.headers {
        let _ = writeln!(out, "{name}: {}", value.shown());
    }
    out.push('\n');
    let body = serde_json::to_string_pretty(&request.body).unwrap_or_default();
    out.push_str(&body);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::cli::ModelSettings;
    use crate::llm::prompt::{self, Excerpt, SelectionRequest};
    use crate::llm::provider::resolve;

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
