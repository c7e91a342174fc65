#![allow(clippy::unwrap_used)]

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
fn url_helpers() {
    assert_eq!(
        host_of("https://User:pw@API.example.com:8443/v1").as_deref(),
        Some("api.example.com")
    );
    assert_eq!(host_of("http://[::1]:80/x").as_deref(), Some("::1"));
    assert_eq!(host_of("file:///etc/passwd"), None);
    assert_eq!(
        strip_userinfo("https://u:p@h.example/v1?a=b@c"),
        "https://h.example/v1?a=b@c"
    );
    assert_eq!(strip_userinfo("no url"), "no url");
    assert!(is_local_host("127.0.0.1") && is_local_host("::1") && is_local_host("a.localhost"));
    assert!(!is_local_host("localhost.example.com") && !is_local_host("10.0.0.1"));
}
