//! Which model to call, where, with which key: rlmgrep's settings resolved into
//! plain [`Endpoint`] values, or a typed [`Offline`] reason when there is nothing
//! to call.
//!
//! Owns: parsing rlmgrep's (LiteLLM's) model strings (`openai/…`, `anthropic/…`,
//! `openrouter/…`, `gemini/…`, `ollama/…`, bare names) into a provider, a wire
//! protocol and a default base URL; API-key resolution exactly as rlmgrep's
//! `_pick_api_key` (flag, config, the provider's env var inferred from the
//! model, else the only provider env var that is set, with rlmgrep's warning
//! when several are); the main/sub model split. It does not read the process
//! environment (the caller passes a lookup closure, so tests never mutate it)
//! and does no I/O.
//!
//! Where kgrep deliberately differs from rlmgrep (both for the user's safety;
//! neither changes any output):
//! - With `model` set but no `sub_model`, expansion uses the main model rather
//!   than rlmgrep's default `openai/gpt-5-mini`: a user who points kgrep at a
//!   local model must not have queries sent to OpenAI behind their back.
//! - The sub-model inherits the main model's key only when both talk to the same
//!   host (rlmgrep would send an Anthropic key to OpenAI).
//! - An empty `--api-key ""` / `api_key = ""` counts as unset (rlmgrep passes
//!   nothing to LiteLLM, which then reads the provider env var itself).

use std::fmt;
use std::time::Duration;

use super::address::{self, Base};
use super::settings::ModelSettings;

/// Time for one HTTP exchange, reply body included. Generous because a small
/// local model on a laptop CPU needs a minute or more for a 4k-token prompt.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(300);

/// rlmgrep's default main model (`cli.py`, `_pick(args.model, …)`).
pub const DEFAULT_MODEL: &str = "openai/gpt-5.2";
/// rlmgrep's default sub-model, used only when no model is configured at all.
pub const DEFAULT_SUB_MODEL: &str = "openai/gpt-5-mini";
/// Calls per run when `--max-llm-calls` is unset: rlmgrep's default config value.
/// A typical kgrep fallback needs one or two.
pub const DEFAULT_MAX_LLM_CALLS: u32 = 20;
/// Output tokens per call when `--max-tokens` is unset: replies are one small JSON
/// object, and Anthropic requires some value.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;
/// Ceiling on `--max-tokens` (rlmgrep's default config says 64000, more than most
/// models accept; kgrep's replies never need it).
pub const MAX_OUTPUT_TOKENS: u32 = 16384;

/// Provider env vars, in rlmgrep's order (`provider_env` in `_pick_api_key`).
const KEY_VARS: [(&str, &str); 4] = [
    ("openai", "OPENAI_API_KEY"),
    ("anthropic", "ANTHROPIC_API_KEY"),
    ("gemini", "GEMINI_API_KEY"),
    ("openrouter", "OPENROUTER_API_KEY"),
];

/// Who serves the model; decides the default base URL and the wire protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    OpenAi,
    Anthropic,
    OpenRouter,
    /// Google's OpenAI-compatible endpoint.
    Gemini,
    /// Ollama's OpenAI-compatible endpoint; never needs a key.
    Ollama,
    /// Any other OpenAI-compatible server (llama.cpp, vLLM, LM Studio…): needs
    /// `--api-base`.
    Compatible,
}

impl Provider {
    /// The base URL used when `--api-base` is not given.
    pub fn default_base_url(self) -> Option<&'static str> {
        match self {
            Provider::OpenAi => Some("https://api.openai.com/v1"),
            Provider::Anthropic => Some("https://api.anthropic.com/v1"),
            Provider::OpenRouter => Some("https://openrouter.ai/api/v1"),
            Provider::Gemini => Some("https://generativelanguage.googleapis.com/v1beta/openai"),
            Provider::Ollama => Some("http://localhost:11434/v1"),
            Provider::Compatible => None,
        }
    }
}

/// The HTTP API spoken to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// OpenAI chat completions: `POST {base}/chat/completions`.
    ChatCompletions,
    /// OpenAI Responses: `POST {base}/responses`; the client falls back to chat
    /// completions when the server has no such endpoint (404/405).
    Responses,
    /// Anthropic Messages: `POST {base}/messages`.
    AnthropicMessages,
}

impl Protocol {
    /// The path appended to the base URL.
    pub fn path(self) -> &'static str {
        match self {
            Protocol::ChatCompletions => "/chat/completions",
            Protocol::Responses => "/responses",
            Protocol::AnthropicMessages => "/messages",
        }
    }
}

/// A model string split into provider and the name the server expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelName {
    pub provider: Provider,
    /// Sent as `"model"` in the request body (the provider prefix removed).
    pub wire: String,
}

/// Parses a LiteLLM-style model string. Unknown prefixes (`Qwen/Qwen2.5-Coder`)
/// are kept whole for an OpenAI-compatible server.
pub fn parse_model(model: &str) -> ModelName {
    let model = model.trim();
    if let Some((prefix, rest)) = model.split_once('/') {
        let provider = match prefix.to_ascii_lowercase().as_str() {
            "openai" => Some(Provider::OpenAi),
            "anthropic" => Some(Provider::Anthropic),
            "openrouter" => Some(Provider::OpenRouter),
            "gemini" => Some(Provider::Gemini),
            "ollama" | "ollama_chat" => Some(Provider::Ollama),
            _ => None,
        };
        if let Some(provider) = provider {
            let wire = rest.to_string();
            return ModelName { provider, wire };
        }
        let wire = model.to_string();
        let provider = Provider::Compatible;
        return ModelName { provider, wire };
    }
    let lower = model.to_ascii_lowercase();
    let provider = if lower.starts_with("claude") {
        Provider::Anthropic
    } else if lower.starts_with("gemini") {
        Provider::Gemini
    } else if ["gpt", "chatgpt", "o1", "o3", "o4"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        Provider::OpenAi
    } else {
        Provider::Compatible
    };
    let wire = model.to_string();
    ModelName { provider, wire }
}

/// Where a key came from; shown (never the key) in `--dry-run` and `-v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// `--api-key`/`--sub-api-key` or the config file.
    Setting,
    /// A provider environment variable.
    Env(&'static str),
    /// The sub-model reuses the main model's key (same host).
    MainModel,
}

impl fmt::Display for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySource::Setting => f.write_str("--api-key/config"),
            KeySource::Env(name) => f.write_str(name),
            KeySource::MainModel => f.write_str("the main model's key"),
        }
    }
}

/// An API key. Its `Debug` is masked and it has no `Display`, so it cannot end
/// up in a message by accident; only the HTTP layer reads the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    secret: String,
    source: KeySource,
}

impl ApiKey {
    /// Wraps a key (leading/trailing whitespace removed).
    pub fn new(secret: &str, source: KeySource) -> ApiKey {
        let secret = secret.trim().to_string();
        ApiKey { secret, source }
    }

    /// Where the key came from.
    pub fn source(&self) -> KeySource {
        self.source
    }

    /// The key itself, for the `Authorization`/`x-api-key` header only.
    pub(crate) fn expose(&self) -> &str {
        &self.secret
    }

    /// What is shown instead of the key.
    pub fn masked(&self) -> String {
        format!("<masked key from {}>", self.source)
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.masked())
    }
}

/// Sampling settings sent with every request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub max_tokens: u32,
}

/// One model to call: everything the client needs, nothing it must look up.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// The model string as configured, e.g. `openai/gpt-5.2`.
    pub model: String,
    pub provider: Provider,
    /// The model name sent in the request body.
    pub wire_model: String,
    /// The protocol tried first.
    pub protocol: Protocol,
    /// Base URL without a trailing slash or credentials, e.g.
    /// `https://api.openai.com/v1`; a query string is kept
    /// (`…/v1?api-version=…`) and goes after the endpoint's path.
    pub base_url: String,
    pub api_key: Option<ApiKey>,
    pub sampling: Sampling,
}

impl Endpoint {
    /// The full URL for `protocol`: the endpoint's path after the base's
    /// path, the base's query string kept after it (`address`).
    pub fn url(&self, protocol: Protocol) -> String {
        match Base::parse(&self.base_url) {
            Some(base) => base.join(protocol.path()),
            None => format!("{}{}", self.base_url, protocol.path()),
        }
    }

    /// Whether the server is on this machine (loopback address or `localhost`).
    pub fn is_local(&self) -> bool {
        address::host_of(&self.base_url).is_some_and(|h| address::is_local_host(&h))
    }

    /// The base URL as messages show it: no credentials, query values
    /// elided, the API key nowhere (in any case).
    pub fn display_base(&self) -> String {
        self.scrub(&address::shown(&self.base_url))
    }

    /// `text` (a message that may quote the URL or the key) with the API key
    /// (in any case) and the base URL's query values elided.
    pub fn scrub(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in address::query_values(&self.base_url, MIN_SCRUBBED) {
            text = super::redact::without_phrase(&text, &secret);
        }
        self.without_key(&text)
    }

    /// `text` (a server's message, or a model's reply: both are shown to
    /// the user) without the API key, in any case, nor any run of
    /// [`KEY_PIECE`] or more of its characters (a server that echoes the
    /// key's tail).
    pub fn without_key(&self, text: &str) -> String {
        match self.api_key.as_ref().map(ApiKey::expose) {
            Some(key) if key.len() >= MIN_SCRUBBED => {
                super::redact::without_pieces(text, key, KEY_PIECE)
            }
            _ => text.to_string(),
        }
    }

    /// A URL this endpoint requests, as messages and `--dry-run` show it.
    pub fn display_url(&self, url: &str) -> String {
        self.scrub(&address::shown(url))
    }
}

/// Shortest key or query value elided from messages: shorter ones would
/// elide ordinary words.
const MIN_SCRUBBED: usize = 4;

/// Shortest part of the API key elided on its own: a provider's error
/// that shows a key's last 4 characters (`sk-...wxyz`) shows too little to
/// matter, while a run this long of a placeholder key (`sk-no-key-required`)
/// is no ordinary word.
const KEY_PIECE: usize = 12;

/// Why a model cannot be called; the run goes on offline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offline {
    /// No key was found and the server is not local.
    NoKey {
        model: String,
        /// The env var that would have been read, if the model names a provider.
        env_var: Option<&'static str>,
    },
    /// The model names no known provider and `--api-base` is not set.
    NoBaseUrl { model: String },
    /// `--api-base` is not an `http(s)://host…` URL.
    BadBaseUrl { model: String, url: String },
}

impl fmt::Display for Offline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Offline::NoKey {
                model,
                env_var: Some(var),
            } => write!(
                f,
                "no API key for {model} (set {var}, --api-key or api_key in the config); running offline"
            ),
            Offline::NoKey { model, env_var: None } => write!(
                f,
                "no API key for {model} (set --api-key or api_key in the config); running offline"
            ),
            Offline::NoBaseUrl { model } => write!(
                f,
                "model {model} names no known provider and --api-base is not set; running offline"
            ),
            Offline::BadBaseUrl { model, url } => write!(
                f,
                "api base '{}' for {model} is not an http(s) URL; running offline",
                address::shown(url)
            ),
        }
    }
}

/// The resolved model setup of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct LlmConfig {
    /// The main model: selection, answers, signatures.
    pub main: Result<Endpoint, Offline>,
    /// The sub-model: query expansion.
    pub sub: Result<Endpoint, Offline>,
    /// `--max-llm-calls`, or [`DEFAULT_MAX_LLM_CALLS`].
    pub max_llm_calls: u32,
    /// `--max-iterations` as given; the pipeline picks its own default.
    pub max_iterations: Option<u32>,
    /// How long one request may take (config `llm_timeout`, at least a second).
    pub call_timeout: Duration,
    /// Warnings to print once (rlmgrep's wording where rlmgrep has one).
    pub warnings: Vec<String>,
}

impl LlmConfig {
    /// The endpoint for query expansion: the sub-model, else the main model.
    pub fn expansion(&self) -> Result<&Endpoint, &Offline> {
        self.sub.as_ref().or(self.main.as_ref())
    }

    /// The endpoint for selection and answers: the main model.
    pub fn selection(&self) -> Result<&Endpoint, &Offline> {
        self.main.as_ref()
    }

    /// True when neither model can be called.
    pub fn is_offline(&self) -> bool {
        self.main.is_err() && self.sub.is_err()
    }
}

/// Resolves the model settings, reading env vars through `env` (e.g.
/// `|name| std::env::var(name).ok()`).
pub fn resolve(settings: &ModelSettings, env: impl Fn(&str) -> Option<String>) -> LlmConfig {
    let mut warnings = Vec::new();
    let model = non_empty(settings.model.as_deref()).unwrap_or(DEFAULT_MODEL);
    let main_key = pick_api_key(
        settings.api_key.as_deref(),
        Some(model),
        &env,
        &mut warnings,
        "main model",
    );
    let main_sampling = sampling(settings.temperature, settings.top_p, settings.max_tokens);
    let main = endpoint(
        model,
        settings.api_base.as_deref(),
        main_key.clone(),
        settings.model_type.as_deref(),
        main_sampling,
    );
    let sub = resolve_sub(settings, &main, main_key, &env, &mut warnings);
    for endpoint in [&main, &sub].into_iter().flatten() {
        let plain_http = endpoint.base_url.starts_with("http://");
        if endpoint.api_key.is_some() && plain_http && !endpoint.is_local() {
            warnings.push(format!(
                "api base {} is plain http: the API key would be sent unencrypted",
                endpoint.display_base()
            ));
        }
    }
    warnings.dedup();
    LlmConfig {
        main,
        sub,
        max_llm_calls: settings.max_llm_calls.unwrap_or(DEFAULT_MAX_LLM_CALLS),
        max_iterations: settings.max_iterations,
        call_timeout: settings
            .timeout_secs
            .map_or(DEFAULT_CALL_TIMEOUT, |s| Duration::from_secs(s.max(1))),
        warnings,
    }
}

/// The sub-model, with rlmgrep's fallbacks to the main model's settings.
fn resolve_sub(
    s: &ModelSettings,
    main: &Result<Endpoint, Offline>,
    main_key: Option<ApiKey>,
    env: &impl Fn(&str) -> Option<String>,
    warnings: &mut Vec<String>,
) -> Result<Endpoint, Offline> {
    let sampling = sampling(
        s.sub_temperature.or(s.temperature),
        s.sub_top_p.or(s.top_p),
        s.sub_max_tokens.or(s.max_tokens),
    );
    let own_settings = [
        &s.sub_model,
        &s.sub_api_base,
        &s.sub_api_key,
        &s.sub_model_type,
    ];
    if non_empty(s.model.as_deref()).is_some() && own_settings.iter().all(|v| v.is_none()) {
        return main.clone().map(|e| Endpoint { sampling, ..e });
    }
    let model = non_empty(s.sub_model.as_deref())
        .or(non_empty(s.model.as_deref()))
        .unwrap_or(DEFAULT_SUB_MODEL);
    let own_key = pick_api_key(
        s.sub_api_key.as_deref(),
        Some(model),
        env,
        warnings,
        "sub-model",
    );
    let base = s.sub_api_base.as_deref().or(s.api_base.as_deref());
    let model_type = s.sub_model_type.as_deref().or(s.model_type.as_deref());
    // rlmgrep: `api_key=sub_api_key or api_key`; kgrep only within one host.
    let key = own_key.or_else(|| {
        let main_host = main
            .as_ref()
            .ok()
            .and_then(|m| address::host_of(&m.base_url));
        let sub = build_endpoint(model, base, None, model_type, sampling).ok()?;
        let same_host = main_host.is_some() && main_host == address::host_of(&sub.base_url);
        let main_key = main_key.filter(|_| same_host)?;
        Some(ApiKey::new(main_key.expose(), KeySource::MainModel))
    });
    endpoint(model, base, key, model_type, sampling)
}

/// rlmgrep's `_pick_api_key`: the explicit setting, else the env var of the
/// provider the model names, else the only provider env var that is set.
pub fn pick_api_key(
    explicit: Option<&str>,
    model: Option<&str>,
    env: &impl Fn(&str) -> Option<String>,
    warnings: &mut Vec<String>,
    label: &str,
) -> Option<ApiKey> {
    if let Some(key) = non_empty(explicit) {
        return Some(ApiKey::new(key, KeySource::Setting));
    }
    let env_value = |name: &'static str| {
        let value = env(name)?;
        non_empty(Some(&value)).map(|v| ApiKey::new(v, KeySource::Env(name)))
    };
    if let Some(provider) = detect_key_provider(model) {
        if let Some((_, var)) = KEY_VARS.iter().find(|(p, _)| *p == provider) {
            return env_value(var);
        }
    }
    let mut found: Vec<ApiKey> = KEY_VARS.iter().filter_map(|(_, v)| env_value(v)).collect();
    if found.len() > 1 {
        warnings.push(format!(
            "ambiguous API key env vars for {label}; set --api-key or ~/.rlmgrep"
        ));
        return None;
    }
    found.pop()
}

/// rlmgrep's `_detect_provider`: the prefix before `/`, else a substring guess.
pub fn detect_key_provider(model: Option<&str>) -> Option<String> {
    let model = model.filter(|m| !m.is_empty())?;
    if let Some((prefix, _)) = model.split_once('/') {
        return Some(prefix.to_lowercase());
    }
    let lower = model.to_lowercase();
    let guess = if lower.contains("openrouter") {
        "openrouter"
    } else if lower.contains("anthropic") {
        "anthropic"
    } else if lower.contains("gemini") || lower.contains("google") {
        "gemini"
    } else if lower.contains("openai") || lower.contains("gpt") {
        "openai"
    } else {
        return None;
    };
    Some(guess.to_string())
}

/// Builds one endpoint, or says why it cannot be called.
fn endpoint(
    model: &str,
    base: Option<&str>,
    key: Option<ApiKey>,
    model_type: Option<&str>,
    sampling: Sampling,
) -> Result<Endpoint, Offline> {
    let endpoint = build_endpoint(model, base, key, model_type, sampling)?;
    let keyless_ok = endpoint.is_local() || endpoint.provider == Provider::Ollama;
    if endpoint.api_key.is_none() && !keyless_ok {
        return Err(no_key(model));
    }
    Ok(endpoint)
}

/// The endpoint a model string and base URL name, key or not.
fn build_endpoint(
    model: &str,
    base: Option<&str>,
    key: Option<ApiKey>,
    model_type: Option<&str>,
    sampling: Sampling,
) -> Result<Endpoint, Offline> {
    let name = parse_model(model);
    let base_url = match non_empty(base) {
        Some(url) => normalize_base(url, name.provider).ok_or_else(|| Offline::BadBaseUrl {
            model: model.to_string(),
            url: address::shown(url),
        })?,
        None => name
            .provider
            .default_base_url()
            .map(str::to_string)
            .ok_or_else(|| Offline::NoBaseUrl {
                model: model.to_string(),
            })?,
    };
    let responses = model_type.is_some_and(|t| t.trim().eq_ignore_ascii_case("responses"));
    let protocol = match name.provider {
        Provider::Anthropic => Protocol::AnthropicMessages,
        _ if responses => Protocol::Responses,
        _ => Protocol::ChatCompletions,
    };
    Ok(Endpoint {
        model: model.to_string(),
        provider: name.provider,
        wire_model: name.wire,
        protocol,
        base_url,
        api_key: key,
        sampling,
    })
}

fn no_key(model: &str) -> Offline {
    let env_var = detect_key_provider(Some(model)).and_then(|p| {
        KEY_VARS
            .iter()
            .find(|(name, _)| *name == p)
            .map(|(_, v)| *v)
    });
    let model = model.to_string();
    Offline::NoKey { model, env_var }
}

fn sampling(temperature: Option<f64>, top_p: Option<f64>, max_tokens: Option<u32>) -> Sampling {
    let max_tokens = max_tokens
        .unwrap_or(DEFAULT_MAX_TOKENS)
        .clamp(1, MAX_OUTPUT_TOKENS);
    Sampling {
        temperature,
        top_p,
        max_tokens,
    }
}

/// Checks and trims a base URL (`address::Base`): no credentials, no
/// trailing `/`, no endpoint path (a full `…/chat/completions` URL is
/// accepted), `/v1` added to a bare Ollama host; a query string is kept.
/// `None` if it is not `http(s)://` with a host.
fn normalize_base(url: &str, provider: Provider) -> Option<String> {
    let mut base = Base::parse(url)?;
    for suffix in ["/chat/completions", "/responses", "/messages"] {
        if let Some(stripped) = base.path.strip_suffix(suffix) {
            base.path = stripped.trim_end_matches('/').to_string();
        }
    }
    if provider == Provider::Ollama && base.path.is_empty() {
        base.path = "/v1".into();
    }
    Some(base.to_text())
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// An env lookup over fixed pairs (the process env is never touched).
    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn settings(model: Option<&str>) -> ModelSettings {
        ModelSettings {
            model: model.map(str::to_string),
            ..ModelSettings::default()
        }
    }

    fn key_of(e: &Endpoint) -> Option<(&str, KeySource)> {
        e.api_key.as_ref().map(|k| (k.expose(), k.source()))
    }

    #[test]
    fn model_strings_pick_provider_and_wire_name() {
        let cases = [
            ("openai/gpt-4o-mini", Provider::OpenAi, "gpt-4o-mini"),
            ("OpenAI/gpt-4o", Provider::OpenAi, "gpt-4o"),
            (
                "anthropic/claude-3-5-haiku",
                Provider::Anthropic,
                "claude-3-5-haiku",
            ),
            (
                "openrouter/anthropic/claude-3.5-sonnet",
                Provider::OpenRouter,
                "anthropic/claude-3.5-sonnet",
            ),
            (
                "gemini/gemini-2.0-flash",
                Provider::Gemini,
                "gemini-2.0-flash",
            ),
            ("ollama/qwen2.5-coder", Provider::Ollama, "qwen2.5-coder"),
            ("ollama_chat/llama3", Provider::Ollama, "llama3"),
            (
                "Qwen/Qwen2.5-Coder-1.5B",
                Provider::Compatible,
                "Qwen/Qwen2.5-Coder-1.5B",
            ),
            ("gpt-4o", Provider::OpenAi, "gpt-4o"),
            ("o3-mini", Provider::OpenAi, "o3-mini"),
            ("claude-sonnet-4", Provider::Anthropic, "claude-sonnet-4"),
            ("gemini-1.5-pro", Provider::Gemini, "gemini-1.5-pro"),
            (
                "qwen2.5-coder-1.5b",
                Provider::Compatible,
                "qwen2.5-coder-1.5b",
            ),
        ];
        for (model, provider, wire) in cases {
            let name = parse_model(model);
            assert_eq!(
                (name.provider, name.wire.as_str()),
                (provider, wire),
                "{model}"
            );
        }
    }

    #[test]
    fn detect_key_provider_is_rlmgreps() {
        let cases = [
            (Some("openai/gpt-5.2"), Some("openai")),
            (Some("Anthropic/claude"), Some("anthropic")),
            (Some("ollama/qwen"), Some("ollama")),
            (Some("my-openrouter-model"), Some("openrouter")),
            (Some("anthropic-ish"), Some("anthropic")),
            (Some("google-palm"), Some("gemini")),
            (Some("gpt-4o"), Some("openai")),
            // rlmgrep does not know "claude" alone.
            (Some("claude-3-opus"), None),
            (Some("qwen"), None),
            (Some(""), None),
            (None, None),
        ];
        for (model, want) in cases {
            assert_eq!(detect_key_provider(model).as_deref(), want, "{model:?}");
        }
    }

    #[test]
    fn key_order_is_flag_config_then_provider_env() {
        let mut warnings = Vec::new();
        let both = [
            ("OPENAI_API_KEY", "env-openai"),
            ("ANTHROPIC_API_KEY", "env-ant"),
        ];
        let e = env(&both);
        let key = pick_api_key(
            Some("explicit"),
            Some("openai/x"),
            &e,
            &mut warnings,
            "main model",
        );
        assert_eq!(key.unwrap().expose(), "explicit");
        let key = pick_api_key(None, Some("anthropic/x"), &e, &mut warnings, "main model").unwrap();
        assert_eq!(
            (key.expose(), key.source()),
            ("env-ant", KeySource::Env("ANTHROPIC_API_KEY"))
        );
        // An empty setting counts as unset.
        let key = pick_api_key(
            Some("  "),
            Some("openai/x"),
            &e,
            &mut warnings,
            "main model",
        );
        assert_eq!(key.unwrap().expose(), "env-openai");
        assert!(warnings.is_empty());
    }

    #[test]
    fn a_named_provider_never_falls_back_to_another_providers_key() {
        let mut warnings = Vec::new();
        let only_anthropic = [("ANTHROPIC_API_KEY", "a")];
        let key = pick_api_key(
            None,
            Some("openai/gpt"),
            &env(&only_anthropic),
            &mut warnings,
            "m",
        );
        assert!(key.is_none());
        assert!(warnings.is_empty());
    }

    #[test]
    fn unknown_provider_takes_the_only_env_key_or_warns_as_rlmgrep() {
        let mut warnings = Vec::new();
        let one = [("GEMINI_API_KEY", " g-key \n")];
        let key = pick_api_key(None, Some("qwen"), &env(&one), &mut warnings, "main model");
        assert_eq!(key.unwrap().expose(), "g-key");
        let blank = [("OPENAI_API_KEY", "  "), ("GEMINI_API_KEY", "g")];
        let key = pick_api_key(
            None,
            Some("ollama/q"),
            &env(&blank),
            &mut warnings,
            "main model",
        );
        assert_eq!(key.unwrap().expose(), "g");
        assert!(warnings.is_empty());
        let two = [("OPENAI_API_KEY", "o"), ("OPENROUTER_API_KEY", "r")];
        let key = pick_api_key(None, Some("qwen"), &env(&two), &mut warnings, "sub-model");
        assert!(key.is_none());
        assert_eq!(
            warnings,
            ["ambiguous API key env vars for sub-model; set --api-key or ~/.rlmgrep"]
        );
    }

    #[test]
    fn no_model_means_rlmgreps_defaults() {
        let config = resolve(&ModelSettings::default(), env(&[("OPENAI_API_KEY", "k")]));
        let main = config.main.as_ref().unwrap();
        assert_eq!(main.model, DEFAULT_MODEL);
        assert_eq!(main.base_url, "https://api.openai.com/v1");
        assert_eq!(main.protocol, Protocol::ChatCompletions);
        assert_eq!(config.sub.as_ref().unwrap().model, DEFAULT_SUB_MODEL);
        assert_eq!(config.max_llm_calls, DEFAULT_MAX_LLM_CALLS);
        assert_eq!(main.sampling.max_tokens, DEFAULT_MAX_TOKENS);
    }

    #[test]
    fn no_key_and_no_local_server_is_offline() {
        let config = resolve(&ModelSettings::default(), env(&[]));
        assert!(config.is_offline());
        let offline = config.main.unwrap_err();
        assert_eq!(
            offline,
            Offline::NoKey {
                model: DEFAULT_MODEL.into(),
                env_var: Some("OPENAI_API_KEY")
            }
        );
        assert_eq!(
        offline.to_string(),
        "no API key for openai/gpt-5.2 (set OPENAI_API_KEY, --api-key or api_key in the config); running offline"
    );
    }

    #[test]
    fn local_servers_need_no_key() {
        for base in [
            "http://127.0.0.1:8088/v1",
            "http://localhost:8080/v1/",
            "http://[::1]:9/v1",
            "http://llm.localhost/v1",
            "http://127.0.0.2:1",
        ] {
            let s = ModelSettings {
                api_base: Some(base.into()),
                ..settings(Some("openai/gpt-5.2"))
            };
            let config = resolve(&s, env(&[]));
            let main = config.main.as_ref().unwrap();
            assert!(main.is_local() && main.api_key.is_none(), "{base}");
            assert!(!main.base_url.ends_with('/'));
        }
        let config = resolve(&settings(Some("ollama/qwen2.5-coder")), env(&[]));
        let main = config.main.unwrap();
        assert_eq!(main.base_url, "http://localhost:11434/v1");
        assert_eq!(main.wire_model, "qwen2.5-coder");
        let remote = ModelSettings {
            api_base: Some("https://llm.example.com/v1".into()),
            ..settings(Some("qwen"))
        };
        assert!(matches!(
            resolve(&remote, env(&[])).main,
            Err(Offline::NoKey { env_var: None, .. })
        ));
    }

    #[test]
    fn base_urls_are_normalised() {
        let base = |model: &str, url: &str| {
            let s = ModelSettings {
                api_base: Some(url.into()),
                ..settings(Some(model))
            };
            resolve(&s, env(&[])).main.map(|e| e.base_url)
        };
        assert_eq!(
            base("ollama/q", "http://localhost:11434").unwrap(),
            "http://localhost:11434/v1"
        );
        assert_eq!(
            base("ollama/q", "http://localhost:11434/v1/").unwrap(),
            "http://localhost:11434/v1"
        );
        assert_eq!(
            base("q", "http://127.0.0.1:8/v1/chat/completions").unwrap(),
            "http://127.0.0.1:8/v1"
        );
        assert_eq!(
            base("anthropic/c", "http://127.0.0.1:8/v1/messages").unwrap(),
            "http://127.0.0.1:8/v1"
        );
        assert!(matches!(
            base("q", "ftp://127.0.0.1/"),
            Err(Offline::BadBaseUrl { .. })
        ));
        assert!(matches!(
            base("q", "127.0.0.1:8080"),
            Err(Offline::BadBaseUrl { .. })
        ));
        assert!(matches!(
            base("q", "http:///v1"),
            Err(Offline::BadBaseUrl { .. })
        ));
        let unknown = resolve(
            &settings(Some("Qwen/Qwen2.5")),
            env(&[("OPENAI_API_KEY", "k")]),
        );
        assert!(matches!(unknown.main, Err(Offline::NoBaseUrl { .. })));
    }

    #[test]
    fn protocol_follows_provider_and_model_type() {
        let proto = |model: &str, model_type: Option<&str>| {
            let s = ModelSettings {
                model_type: model_type.map(str::to_string),
                api_base: Some("http://127.0.0.1:1/v1".into()),
                ..settings(Some(model))
            };
            resolve(&s, env(&[])).main.unwrap().protocol
        };
        assert_eq!(proto("openai/gpt-5.2", None), Protocol::ChatCompletions);
        assert_eq!(
            proto("openai/gpt-5.2", Some("chat")),
            Protocol::ChatCompletions
        );
        assert_eq!(
            proto("openai/gpt-5.2", Some("Responses")),
            Protocol::Responses
        );
        assert_eq!(proto("qwen", Some("responses")), Protocol::Responses);
        assert_eq!(
            proto("anthropic/claude", Some("responses")),
            Protocol::AnthropicMessages
        );
        assert_eq!(proto("claude-3-haiku", None), Protocol::AnthropicMessages);
    }

    #[test]
    fn sub_model_defaults_to_the_main_model_when_one_is_set() {
        let s = ModelSettings {
            api_base: Some("http://127.0.0.1:9/v1".into()),
            sub_temperature: Some(0.2),
            temperature: Some(0.7),
            max_tokens: Some(1_000_000),
            ..settings(Some("qwen"))
        };
        let config = resolve(&s, env(&[("OPENAI_API_KEY", "k")]));
        let (main, sub) = (config.main.unwrap(), config.sub.unwrap());
        assert_eq!(sub.model, "qwen");
        assert_eq!(sub.base_url, main.base_url);
        assert_eq!(main.sampling.temperature, Some(0.7));
        assert_eq!(sub.sampling.temperature, Some(0.2));
        assert_eq!(main.sampling.max_tokens, MAX_OUTPUT_TOKENS);
    }

    #[test]
    fn sub_model_settings_fall_back_to_the_main_ones() {
        let s = ModelSettings {
            sub_model: Some("ollama/small".into()),
            api_base: Some("http://127.0.0.1:9/v1".into()),
            api_key: Some("main-key".into()),
            model_type: Some("responses".into()),
            ..settings(Some("openai/big"))
        };
        let config = resolve(&s, env(&[]));
        let sub = config.sub.unwrap();
        assert_eq!(sub.wire_model, "small");
        assert_eq!(sub.base_url, "http://127.0.0.1:9/v1");
        assert_eq!(sub.protocol, Protocol::Responses);
        // ollama is not a key provider: no env key, so the main key is inherited
        // (same host).
        assert_eq!(key_of(&sub), Some(("main-key", KeySource::MainModel)));
    }

    #[test]
    fn a_key_is_not_inherited_by_another_host() {
        let s = ModelSettings {
            sub_model: Some("openai/gpt-5-mini".into()),
            ..settings(Some("anthropic/claude-x"))
        };
        let config = resolve(&s, env(&[("ANTHROPIC_API_KEY", "ant")]));
        assert_eq!(
            key_of(config.main.as_ref().unwrap()),
            Some(("ant", KeySource::Env("ANTHROPIC_API_KEY")))
        );
        assert!(matches!(
            config.sub,
            Err(Offline::NoKey {
                env_var: Some("OPENAI_API_KEY"),
                ..
            })
        ));
        // Expansion then uses the main model.
        assert_eq!(config.expansion().unwrap().model, "anthropic/claude-x");
    }

    #[test]
    fn ambiguity_is_warned_once_per_model() {
        let two = [("OPENAI_API_KEY", "o"), ("GEMINI_API_KEY", "g")];
        let s = ModelSettings {
            api_base: Some("http://127.0.0.1:9/v1".into()),
            ..settings(Some("qwen"))
        };
        let config = resolve(&s, env(&two));
        assert_eq!(
            config.warnings,
            ["ambiguous API key env vars for main model; set --api-key or ~/.rlmgrep"]
        );
        let s = ModelSettings {
            sub_model: Some("qwen-small".into()),
            ..s
        };
        assert_eq!(resolve(&s, env(&two)).warnings.len(), 2);
    }

    #[test]
    fn plain_http_to_a_remote_host_with_a_key_is_warned() {
        let s = ModelSettings {
            api_base: Some("http://user:pw@llm.example.com/v1".into()),
            api_key: Some("k".into()),
            ..settings(Some("qwen"))
        };
        let config = resolve(&s, env(&[]));
        assert_eq!(
        config.warnings,
        ["api base http://llm.example.com/v1 is plain http: the API key would be sent unencrypted"]
    );
    }

    #[test]
    fn keys_never_show_in_debug_or_messages() {
        let secret = "sk-test-SUPERSECRET-0123456789";
        let s = ModelSettings {
            api_key: Some(secret.into()),
            ..settings(Some("openai/gpt-4o"))
        };
        let config = resolve(&s, env(&[]));
        let debug = format!("{config:?}");
        assert!(!debug.contains("SUPERSECRET"), "{debug}");
        assert!(debug.contains("<masked key from --api-key/config>"));
        let key = ApiKey::new(secret, KeySource::Env("OPENAI_API_KEY"));
        assert_eq!(key.masked(), "<masked key from OPENAI_API_KEY>");
        assert!(!format!("{key:?}").contains("SUPERSECRET"));
    }

    #[test]
    fn a_query_string_stays_after_the_endpoint_path_and_is_never_shown() {
        let s = ModelSettings {
            api_base: Some(
                "https://u:pw@llm.example.com/openai/v1/?api-version=2024-02-01&key=SECRET-IN-URL"
                    .into(),
            ),
            api_key: Some("sk-the-real-key-0123456789".into()),
            ..settings(Some("openai/gpt-4o"))
        };
        let main = resolve(&s, env(&[])).main.unwrap();
        assert_eq!(
            main.url(Protocol::ChatCompletions),
            "https://llm.example.com/openai/v1/chat/completions?api-version=2024-02-01&key=SECRET-IN-URL"
        );
        assert_eq!(
            main.display_base(),
            "https://llm.example.com/openai/v1?api-version=[REDACTED]&key=[REDACTED]"
        );
        let message = format!(
            "error sending to {} with SK-THE-REAL-KEY-0123456789",
            main.url(Protocol::ChatCompletions)
        );
        let scrubbed = main.scrub(&message);
        assert!(!scrubbed.contains("SECRET-IN-URL"), "{scrubbed}");
        assert!(
            !scrubbed.to_lowercase().contains("the-real-key"),
            "{scrubbed}"
        );
        // A full endpoint URL with a query is trimmed to its base.
        let s = ModelSettings {
            api_base: Some("http://127.0.0.1:8/v1/chat/completions?v=1".into()),
            ..settings(Some("q"))
        };
        assert_eq!(
            resolve(&s, env(&[])).main.unwrap().base_url,
            "http://127.0.0.1:8/v1?v=1"
        );
    }
}
