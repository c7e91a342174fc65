//! The model settings a run resolved from flags, config and environment:
//! plain values the LLM stage reads (`provider::resolve`). Owns nothing but
//! the data; `cli::plan` fills it, so `llm` needs nothing from `cli`.

/// Model settings after flags and config are merged (used by the LLM stage).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelSettings {
    pub model: Option<String>,
    pub sub_model: Option<String>,
    pub api_base: Option<String>,
    pub api_key: Option<String>,
    pub model_type: Option<String>,
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub max_tokens: Option<u32>,
    pub sub_api_base: Option<String>,
    pub sub_api_key: Option<String>,
    pub sub_model_type: Option<String>,
    pub sub_temperature: Option<f64>,
    pub sub_top_p: Option<f64>,
    pub sub_max_tokens: Option<u32>,
    pub max_iterations: Option<u32>,
    pub max_llm_calls: Option<u32>,
    /// Seconds one request may take (config `llm_timeout`).
    pub timeout_secs: Option<u64>,
}
