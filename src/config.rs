//! Configuration files: rlmgrep's `~/.rlmgrep/config.toml`, read so an existing
//! setup works unchanged, and kgrep's own `$XDG_CONFIG_HOME/kgrep/config.toml`
//! (same keys plus kgrep's), which wins key by key. Command-line flags override
//! both; that precedence is applied in `cli/plan.rs`, not here.
//!
//! A file that cannot be read or parsed is reported (file, line, why) and left
//! exactly as it is; the run goes on with the other file and the defaults. Nothing
//! here ever creates a file except `init`, which the user asked for.

use crate::paths;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;

use crate::messages;

/// One config key, defined once: its name and type (`Config`'s field), what
/// it does (the man page's item), the commented lines `--init-config` writes
/// for it, and whether it decides what is sent to a model ([`is_privacy_key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub name: &'static str,
    /// What the key does, for users: the man page's CONFIGURATION item.
    pub about: &'static str,
    /// The lines [`default_config`] writes for the key, each ending in a
    /// newline; a leading empty line starts a paragraph. Empty for keys the
    /// default file does not mention.
    pub init: &'static str,
    /// Whether the key decides whether, where or how much is sent to a model.
    pub privacy: bool,
}

/// Declares every key once; see [`Key`]. Generates [`Config`] (one
/// `Option` field per key, deserialized by name), `Config::or`, and [`KEYS`].
macro_rules! config_keys {
    ($($name:ident: $ty:ty, privacy: $privacy:literal, about: $about:expr, init: $init:expr;)*) => {
        /// Every key kgrep understands ([`KEYS`] says what each does). Unknown
        /// keys (rlmgrep's markitdown settings, keys of future versions) are
        /// accepted and ignored so a shared config never breaks.
        #[derive(Clone, Debug, Default, Deserialize, PartialEq)]
        pub struct Config {
            $(#[doc = $about] pub $name: Option<$ty>,)*
            /// Not a key: why no model may be consulted, set when a line of a file
            /// that could not be read whole may have said where, whether or how much
            /// to send (a privacy key, or no key at all). Fail closed: the
            /// run is offline until the file is fixed (`cli::plan`).
            #[serde(skip)]
            pub closed: Option<String>,
        }

        impl Config {
            /// Fills every key unset in `self` from `lower` (a lower-precedence file).
            pub fn or(self, lower: Config) -> Config {
                Config {
                    $($name: self.$name.or(lower.$name),)*
                    closed: self.closed.or(lower.closed),
                }
            }
        }

        /// Every key, in the order the man page and the default file give them.
        pub const KEYS: &[Key] = &[$(Key {
            name: stringify!($name),
            about: $about,
            init: $init,
            privacy: $privacy,
        },)*];
    };
}

config_keys! {
    llm: String,
        privacy: true,
        about: "When to consult a language model: \"auto\" (only when the offline results are not good enough), \"off\", or \"always\". KGREP_LLM and --offline/--rlm override it; with \"always\" and no usable model, a warning says so.",
        init: r#"
# When to consult a language model: "auto" (only when the offline results are
# not good enough), "off" (never), "always". The KGREP_LLM environment
# variable overrides this for a session.
# llm = "auto"
"#;
    max_lines: usize,
        privacy: false,
        about: "Default for --max-lines (0 = every strong line of every file holding a query word).",
        init: "
# At most this many lines are printed for a natural-language query (0 = every
# strong line of every ranked file).
# max_lines = 15
";
    judge_coverage: f64,
        privacy: false,
        about: "The sufficiency judge's coverage threshold, 0-1 (default 0.7): the share of the query's words found on or near the printed lines; an unsure result below it asks the model for the corpus's words (expansion), above it for a choice (synthesis).",
        init: r#"
# The sufficiency judge: below these, the offline results are not good enough
# and a model is consulted (with llm = "auto").
# judge_coverage = 0.7      # below it, an unsure result needs the corpus's words (expansion)
"#;
    judge_confidence: f64,
        privacy: false,
        about: "The judge's minimum confidence, 0-1 (default 0.64): the estimated probability that the first file is right. For a query asking for tests, a hand-tuned model estimates it (how far the first file leads the next two, its strength for the query, how much of the query it holds, whether its best line defines what the query names). For a question (or a search typed as keywords) the question judge estimates it from how far the first file's learned score leads the next two's, that score and the hand-tuned estimate; unset, its threshold is its own (question default 0.663, chosen so that on question sets it was not fitted on half the questions pass). For any other query (a statement, shaped like a commit subject) the learned judge estimates it from the ranker's signals; unset, its threshold is its own (learned default 0.724, chosen so that on repositories the model never saw the first file is right for 85% of the queries that pass). Set, the key is every threshold. Below it, the model is consulted (llm = auto) and more runner-up files are printed.",
        init: "# judge_confidence          # estimated chance the first file is right, to skip the model:
#                           # unset, 0.64 for the hand-tuned judge (tests asked for) and
#                           # the learned judges' own thresholds otherwise; set, all use it
";
    judge_diversity: usize,
        privacy: false,
        about: "Distinct files the judge wants printed unless the best file clearly leads (default 1); 1 asks for nothing more than the best file.",
        init: "# judge_diversity = 1       # distinct files wanted unless one clearly leads
";
    judge_min_results: usize,
        privacy: false,
        about: "The judge's minimum number of printed lines (default 1).",
        init: "# judge_min_results = 1     # printed lines
";
    prompt_tokens: usize,
        privacy: true,
        about: "The most the model is sent for one query, all calls together, in estimated tokens (default 4000); with --rlm, the most each selection request sends. The query counts: one longer than a quarter of it is sent cut, with a warning.",
        init: "
# The most one query sends the model, all calls together, in estimated tokens
# (with --rlm: each selection request).
# prompt_tokens = 4000
";
    learn: bool,
        privacy: false,
        about: "Keep what the language model teaches in the learned thesaurus (default true); false is --no-learn for every run.",
        init: "
# The learning loop: concepts a model taught that led to verified results are
# kept in a thesaurus, so the next similar query is answered offline.
# learn = true
";
    learn_to: String,
        privacy: false,
        about: "Where learned concepts are kept: \"user\" ($XDG_DATA_HOME/kgrep/thesaurus.json, the default) or \"project\" (.kgrep/thesaurus.json in the current directory). Default for --learn-to.",
        init: r#"# "user" ($XDG_DATA_HOME/kgrep/thesaurus.json) or "project" (.kgrep/thesaurus.json).
# learn_to = "user"
"#;
    llm_timeout: u64,
        privacy: false,
        about: "Seconds one model request may take before it is abandoned (default 300); raise it for a slow local model. A query's model calls, retries and waits together end within twice this, and a call that fails is the query's last.",
        init: "
# Seconds one model request may take before it is abandoned; a query's model
# calls together end within twice this.
# llm_timeout = 300
";
    mcp_allow_outside: bool,
        privacy: false,
        about: "true lets kgrep --mcp tool calls search any path this user can read, as --allow-outside does (default false: only paths under the server's roots).",
        init: "
# kgrep --mcp: let tool calls search outside the server's roots (the roots the
# client declares, else its working directory), as --allow-outside does.
# mcp_allow_outside = false
";
    model: String,
        privacy: true,
        about: "Default for --model.",
        init: r#"
# Model settings, as in rlmgrep. Keys come from the provider's environment
# variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY,
# OPENROUTER_API_KEY) unless api_key is set here.
# model = "openai/gpt-5.2"
"#;
    sub_model: String,
        privacy: true,
        about: "Default for --sub-model.",
        init: r#"# sub_model = "openai/gpt-5-mini"
"#;
    api_base: String,
        privacy: true,
        about: "Default for --api-base.",
        init: r#"# api_base = "https://api.openai.com/v1"
"#;
    api_key: String,
        privacy: true,
        about: "Default for --api-key; without it the provider's environment variable is used.",
        init: r#"# api_key = ""
"#;
    model_type: String,
        privacy: true,
        about: "Default for --model-type (chat or responses).",
        init: r#"# model_type = "chat"
"#;
    max_tokens: u32,
        privacy: false,
        about: "Default for --max-tokens.",
        init: "# max_tokens = 4096
";
    max_iterations: u32,
        privacy: true,
        about: "Default for --max-iterations.",
        init: "# max_iterations = 2
";
    max_llm_calls: u32,
        privacy: true,
        about: "Default for --max-llm-calls.",
        init: "# max_llm_calls = 20
";
    temperature: f64,
        privacy: false,
        about: "Default for --temperature.",
        init: "# temperature and top_p are not sent unless set (the provider's defaults).
";
    top_p: f64,
        privacy: false,
        about: "Default for --top-p.",
        init: "";
    sub_api_base: String,
        privacy: true,
        about: "Default for --sub-api-base.",
        init: "";
    sub_api_key: String,
        privacy: true,
        about: "Default for --sub-api-key.",
        init: "";
    sub_model_type: String,
        privacy: false,
        about: "Default for --sub-model-type.",
        init: "";
    sub_temperature: f64,
        privacy: false,
        about: "Default for --sub-temperature.",
        init: "";
    sub_top_p: f64,
        privacy: false,
        about: "Default for --sub-top-p.",
        init: "";
    sub_max_tokens: u32,
        privacy: false,
        about: "Default for --sub-max-tokens.",
        init: "";
    file_warn_threshold: u64,
        privacy: false,
        about: "rlmgrep asks before loading more files than this into a model. Read for compatibility and ignored: kgrep never sends the corpus anywhere.",
        init: "";
    file_hard_max: u64,
        privacy: false,
        about: "rlmgrep refuses to load more files than this. Read and ignored, as above.",
        init: "";
}

/// Whether a key decides whether, where or how much is sent to a model: a
/// line naming one that cannot be read makes the run offline rather than
/// fall back to a default that could send more, or elsewhere.
pub fn is_privacy_key(name: &str) -> bool {
    KEYS.iter().any(|k| k.privacy && k.name == name)
}

/// Where the configuration files live, resolved from the environment once.
#[derive(Clone, Debug, Default)]
pub struct ConfigPaths {
    /// rlmgrep's file, `~/.rlmgrep/config.toml`.
    pub rlmgrep: Option<PathBuf>,
    /// kgrep's file, `$XDG_CONFIG_HOME/kgrep/config.toml` (default `~/.config/...`).
    pub kgrep: Option<PathBuf>,
}

impl ConfigPaths {
    /// Both paths, by `paths`' rules.
    pub fn from_env(env: &paths::Env) -> ConfigPaths {
        ConfigPaths {
            rlmgrep: env.rlmgrep_config(),
            kgrep: env.kgrep_config(),
        }
    }

    /// Both paths from the process environment.
    pub fn from_process_env() -> ConfigPaths {
        ConfigPaths::from_env(&paths::Env::from_process())
    }
}

/// Reads both files (missing files are fine) and merges them, kgrep's winning.
/// Problems are reported as warnings; the run continues with what could be read.
pub fn load(paths: &ConfigPaths) -> Config {
    let kgrep = paths.kgrep.as_deref().map(load_one).unwrap_or_default();
    let rlmgrep = paths.rlmgrep.as_deref().map(load_one).unwrap_or_default();
    kgrep.or(rlmgrep)
}

/// One file: absent → empty config. Unreadable → a warning, and offline
/// (what it said about the model is unknown). Corrupt → a warning, and the
/// keys of the lines that can be read ([`recover`]); offline when a line
/// that cannot be read may have set a privacy key ([`is_privacy_key`]). The file is
/// never touched.
fn load_one(path: &Path) -> Config {
    let text = match read_text(path) {
        Ok(None) => return Config::default(),
        Ok(Some(text)) => text,
        Err(err) => {
            messages::warn(&format!(
                "{err:#}; ignoring this file (it was left unchanged) and consulting no model"
            ));
            return Config {
                closed: Some(format!("the config {} could not be read", path.display())),
                ..Config::default()
            };
        }
    };
    let err = match parse(&text) {
        Ok(config) => return config,
        Err(err) => err,
    };
    let recovered = recover(&text);
    let mut config = recovered.config;
    let kept = if recovered.kept == 0 {
        "ignoring its other lines".to_string()
    } else {
        format!("using its {} readable setting(s)", recovered.kept)
    };
    match recovered.unsafe_line {
        Some(line) => {
            messages::warn(&format!(
                "invalid config {}: {err:#}; {kept} but consulting no model, as line {line} \
                 may set whether or where queries are sent (the file was left unchanged)",
                path.display()
            ));
            config.closed = Some(format!(
                "line {line} of the config {} could not be read",
                path.display()
            ));
        }
        None => messages::warn(&format!(
            "invalid config {}: {err:#}; {kept} (the file was left unchanged)",
            path.display()
        )),
    }
    config
}

/// Reads one config file's text, regular and bounded (`own_file::read`: a
/// FIFO or a device is refused at once); `Ok(None)` when it does not exist.
fn read_text(path: &Path) -> anyhow::Result<Option<String>> {
    use crate::own_file::{self, Follow};
    match own_file::read_to_string(path, Follow::Yes, own_file::MAX_BYTES) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("cannot read config {}", path.display())),
    }
}

/// Reads and parses one config file; `Ok(None)` when it does not exist.
pub fn read_config(path: &Path) -> anyhow::Result<Option<Config>> {
    let Some(text) = read_text(path)? else {
        return Ok(None);
    };
    parse(&text)
        .map(Some)
        .with_context(|| format!("invalid config {}", path.display()))
}

/// What could be read of a config that does not parse whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recovered {
    /// The settings of the lines that read, key by key.
    pub config: Config,
    /// How many settings were kept.
    pub kept: usize,
    /// The first (1-based) line that could not be read and names a
    /// privacy key ([`is_privacy_key`]), or no key at all.
    pub unsafe_line: Option<usize>,
}

/// Reads a config line by line, key by key: each top-level `key = value`
/// line that parses alone, and whose value has the key's type, is kept;
/// every other line is dropped. Keys under a `[table]` are not kgrep's and
/// are skipped. Lines inside a multi-line value do not read alone: the
/// value is lost, and such a line names no key, so the result is closed.
pub fn recover(text: &str) -> Recovered {
    let mut table = toml::Table::new();
    let mut out = Recovered::default();
    let mut in_table = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with('[') && toml::from_str::<toml::Table>(trimmed).is_ok() {
            in_table = true;
            continue;
        }
        let one = toml::from_str::<toml::Table>(line)
            .ok()
            .filter(|t| t.len() == 1)
            .and_then(|t| t.into_iter().next())
            .filter(|(key, value)| {
                let mut single = toml::Table::new();
                single.insert(key.clone(), value.clone());
                toml::Value::Table(single).try_into::<Config>().is_ok()
            });
        match one {
            Some(_) if in_table => {}
            Some((key, value)) => {
                table.insert(key, value);
            }
            None => {
                let key = leading_key(trimmed);
                let named_safe = key.is_some_and(|k| !is_privacy_key(k));
                if !named_safe && out.unsafe_line.is_none() && !in_table {
                    out.unsafe_line = Some(i + 1);
                }
            }
        }
    }
    out.kept = table.len();
    out.config = toml::Value::Table(table).try_into().unwrap_or_default();
    out
}

/// The bare key a line starts with (`llm` of `llm = off`), if any.
fn leading_key(line: &str) -> Option<&str> {
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(line.len());
    let key = &line[..end];
    (!key.is_empty() && line[end..].trim_start().starts_with('=')).then_some(key)
}

/// Parses config text. The error names the line and column and what was expected.
pub fn parse(text: &str) -> anyhow::Result<Config> {
    toml::from_str::<Config>(text).map_err(|err| anyhow::anyhow!(one_line(&err, text)))
}

/// Whether the line holding byte `at` of `text` sets an API key
/// (`api_key = …`, `sub_api_key = …`): its value is never quoted.
fn sets_a_key(text: &str, at: usize) -> bool {
    let before = text.get(..at).unwrap_or_default();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or_default();
    line.split_once('=').is_some_and(|(name, _)| {
        name.trim()
            .trim_matches(['"', '\''])
            .to_ascii_lowercase()
            .ends_with("api_key")
    })
}

/// toml's messages span several lines (with a source excerpt); keep the first line
/// and the reason so the warning stays one line.
fn one_line(err: &toml::de::Error, text: &str) -> String {
    let location = err
        .span()
        .map(|_| err.to_string())
        .and_then(|s| s.lines().next().map(str::to_string))
        .unwrap_or_default();
    let location = location.trim_start_matches("TOML parse error ").to_string();
    // The reason itself may span lines ("invalid string\nexpected `\"`, `'`").
    let reason = err
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    // toml quotes a value of the wrong type (`invalid type: integer
    // `1234…``): on a key's line, that is the API key.
    let reason = if err.span().is_some_and(|span| sets_a_key(text, span.start)) {
        reason
            .split('`')
            .enumerate()
            .map(|(i, part)| if i % 2 == 1 { "…" } else { part })
            .collect::<Vec<_>>()
            .join("`")
    } else {
        reason
    };
    if location.is_empty() {
        reason
    } else {
        format!("{location}: {reason}")
    }
}

/// The first lines of the default config.
const DEFAULT_CONFIG_HEAD: &str = r#"# kgrep configuration. kgrep also reads rlmgrep's ~/.rlmgrep/config.toml;
# keys set here win over that file, and command-line flags win over both.
"#;

/// kgrep's commented default config, written by `--init-config`: a head,
/// then each key's [`Key::init`] lines.
pub fn default_config() -> String {
    let mut text = DEFAULT_CONFIG_HEAD.to_string();
    for key in KEYS {
        text.push_str(key.init);
    }
    text
}

/// Writes the default config to `path` unless a file is already there.
/// Returns `Ok(true)` when written, `Ok(false)` when one existed.
pub fn init(path: &Path) -> anyhow::Result<bool> {
    if path.exists() {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        Err(err) => return Err(err).with_context(|| format!("cannot write {}", path.display())),
    };
    std::io::Write::write_all(&mut file, default_config().as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(true)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn rlmgrep_default_config_parses() {
        let text = r#"model = "openai/gpt-5.2"
sub_model = "openai/gpt-5-mini"
api_base = "https://api.openai.com/v1"
model_type = "responses"
temperature = 1.0
max_tokens = 64000
max_iterations = 10
max_llm_calls = 20
file_warn_threshold = 1000
file_hard_max = 5000
markitdown_max_concurrency = 4
"#;
        let c = parse(text).unwrap();
        assert_eq!(c.model.as_deref(), Some("openai/gpt-5.2"));
        assert_eq!(c.max_tokens, Some(64000));
        assert_eq!(c.file_hard_max, Some(5000));
    }

    #[test]
    fn default_config_text_parses_and_sets_nothing() {
        assert_eq!(parse(&default_config()).unwrap(), Config::default());
    }

    #[test]
    fn each_keys_default_lines_set_that_key_only() {
        let mut set = Vec::new();
        for key in KEYS {
            for line in key.init.lines() {
                let Some(rest) = line.strip_prefix("# ") else {
                    assert!(line.is_empty(), "{}: {line:?}", key.name);
                    continue;
                };
                let named = rest.split([' ', '=']).next().unwrap_or("");
                if KEYS.iter().any(|k| k.name == named) {
                    assert_eq!(named, key.name, "{line:?}");
                    set.push(named);
                }
            }
            assert!(
                key.init.is_empty() || key.init.ends_with('\n'),
                "{}",
                key.name
            );
        }
        assert!(set.len() >= 15, "{set:?}");
        assert!(default_config().starts_with(DEFAULT_CONFIG_HEAD));
    }

    #[test]
    fn a_multi_line_reason_is_reported_on_one_line() {
        // Found by the `config` fuzz target: toml's reason held a newline.
        let err = parse("model = \"openai/x\"\nmax_linkil =wn]\nx = 1\n").unwrap_err();
        let shown = format!("{err:#}");
        assert!(!shown.contains('\n'), "{shown:?}");
        // toml 1's reason for this input: "unexpected key or value, expected
        // newline, `#`" (toml 0.8 said "invalid string" at column 13).
        assert!(
            shown.starts_with("at line 2, column 15: unexpected key or value, expected"),
            "{shown:?}"
        );
    }

    #[test]
    fn corrupt_config_names_the_line() {
        let err = parse("model = \"a\"\ntemperature = \"hot\"\n").unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("line 2"), "{msg}");
        assert!(!msg.contains('\n'), "{msg}");
        let err = parse("model = \n").unwrap_err();
        assert!(format!("{err:#}").contains("line 1"));
    }

    #[test]
    fn a_keys_value_of_the_wrong_type_is_not_quoted() {
        let err = parse("model = \"a\"\napi_key = 98765432109876543210\n").unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("line 2"), "{msg}");
        assert!(!msg.contains("98765432109876543210"), "{msg}");
        assert!(msg.contains("`…`"), "{msg}");
        let err = parse("sub_api_key = 1234567890123\n").unwrap_err();
        assert!(!format!("{err:#}").contains("1234567890123"));
        // Another key's value is still quoted.
        let err = parse("api_key = \"k\"\nmax_lines = \"many\"\n").unwrap_err();
        assert!(format!("{err:#}").contains("many"), "{err:#}");
    }

    #[test]
    fn kgrep_file_wins_key_by_key() {
        let high = parse("model = \"k\"\n").unwrap();
        let low = parse("model = \"r\"\napi_key = \"x\"\n").unwrap();
        let merged = high.or(low);
        assert_eq!(merged.model.as_deref(), Some("k"));
        assert_eq!(merged.api_key.as_deref(), Some("x"));
    }

    #[test]
    fn corrupt_file_is_left_untouched_and_closes_the_model() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "model = [\n").unwrap();
        assert!(read_config(&path).is_err());
        let loaded = load_one(&path);
        assert!(loaded.closed.is_some(), "a broken model line closes");
        assert_eq!(
            Config {
                closed: None,
                ..loaded
            },
            Config::default()
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "model = [\n");
    }

    #[test]
    fn a_bad_line_keeps_the_good_ones() {
        // Issue 27: the typo must not drop `llm = "off"`.
        let text = "llm = \"off\"\nmax_lines = 10,\napi_base = \"http://127.0.0.1:9/v1\"\n";
        assert!(parse(text).is_err());
        let r = recover(text);
        assert_eq!(r.config.llm.as_deref(), Some("off"));
        assert_eq!(r.config.api_base.as_deref(), Some("http://127.0.0.1:9/v1"));
        assert_eq!(r.config.max_lines, None);
        assert_eq!((r.kept, r.unsafe_line), (2, None));
        // A value of the wrong type is dropped, key by key.
        let r = recover("temperature = \"hot\"\nmodel = \"ollama/q\"\n");
        assert_eq!(r.config.temperature, None);
        assert_eq!(r.config.model.as_deref(), Some("ollama/q"));
        assert_eq!(r.unsafe_line, None);
    }

    #[test]
    fn an_unreadable_privacy_line_or_one_without_a_key_closes() {
        for (text, line) in [
            ("max_lines = 3\nllm = off\n", 2),
            ("api_base = http://localhost:8080\n", 1),
            ("llm \"off\"\n", 1),
            ("max_lines = 3\n}}}\n", 2),
            ("prompt_tokens = \"lots\"\n", 1),
        ] {
            assert_eq!(recover(text).unsafe_line, Some(line), "{text:?}");
        }
        // A table's keys are not kgrep's.
        let r = recover("llm = \"off\"\n[tool]\nmodel = \"x\"\nbad = ,\n");
        assert_eq!(r.config.llm.as_deref(), Some("off"));
        assert_eq!(r.config.model, None);
        assert_eq!(r.unsafe_line, None);
    }

    #[test]
    fn missing_file_is_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_config(&dir.path().join("nope.toml"))
            .unwrap()
            .is_none());
    }

    #[test]
    fn init_writes_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/config.toml");
        assert!(init(&path).unwrap());
        std::fs::write(&path, "model = \"mine\"\n").unwrap();
        assert!(!init(&path).unwrap());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "model = \"mine\"\n"
        );
    }
}
