//! The defaults the documentation states are the code's (issue 16, item 10):
//! the commented config `--init-config` writes, the man page's "(default X)"
//! for each config key, and the `--max-lines` default in README, SKILL.md and
//! `--help`.

use std::path::Path;

use kgrep::cli::{self, Env, Flags};
use kgrep::config::{self, default_config, Config};
use kgrep::llm::{self, provider};

fn flags(args: &[&str]) -> Flags {
    use clap::Parser;
    Flags::try_parse_from(std::iter::once("kgrep").chain(args.iter().copied())).unwrap()
}

/// `default_config()` with every `# key = value` line uncommented.
fn uncommented() -> String {
    default_config()
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("# ")?;
            let (key, _) = rest.split_once(" = ")?;
            key.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_')
                .then(|| rest.split(" #").next().unwrap().to_string())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_init_config_file_states_the_codes_defaults() {
    let text = uncommented();
    assert!(text.lines().count() >= 15, "too few keys found:\n{text}");
    let written = config::parse(&text).unwrap();
    let env = Env::default();
    let with = cli::plan(flags(&["q"]), &written, &env).unwrap();
    let without = cli::plan(flags(&["q"]), &Config::default(), &env).unwrap();
    assert_eq!(with.llm, without.llm);
    assert_eq!(with.max_lines, without.max_lines);
    assert_eq!(with.judge, without.judge);
    assert_eq!(with.prompt_tokens, without.prompt_tokens);
    assert_eq!(with.learn, without.learn);
    assert_eq!(with.learn_to, without.learn_to);
    // The model settings, resolved as a run resolves them (with a key in the
    // environment, so that every endpoint is built).
    let key = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-test".to_string());
    let a = llm::resolve(&with.model, key);
    let b = llm::resolve(&without.model, key);
    assert_eq!(a.main, b.main);
    assert_eq!(a.sub, b.sub);
    assert!(a.main.is_ok() && a.sub.is_ok());
    assert_eq!(a.max_llm_calls, b.max_llm_calls);
    assert_eq!(a.call_timeout, b.call_timeout);
    let iterations = |c: &llm::LlmConfig| {
        c.max_iterations
            .unwrap_or(kgrep::pipeline::DEFAULT_ITERATIONS)
    };
    assert_eq!(iterations(&a), iterations(&b));
    assert!(default_config().contains(&format!("# model = \"{}\"", provider::DEFAULT_MODEL)));
    assert!(default_config().contains(&format!(
        "# sub_model = \"{}\"",
        provider::DEFAULT_SUB_MODEL
    )));
}

/// The man page's CONFIGURATION items: `(default X)` per key.
#[test]
fn the_man_pages_config_defaults_are_the_codes() {
    let man = String::from_utf8(cli::generate::man_page().unwrap()).unwrap();
    let judge = kgrep::judge::Thresholds::default();
    let expected = [
        ("judge_coverage", judge.coverage.to_string()),
        ("judge_confidence", judge.confidence.to_string()),
        (
            "judge_confidence",
            format!("learned default {}", judge.learned_confidence),
        ),
        (
            "judge_confidence",
            format!("question default {}", judge.question_confidence),
        ),
        ("judge_diversity", judge.diversity.to_string()),
        ("judge_min_results", judge.min_results.to_string()),
        (
            "prompt_tokens",
            llm::prompt::DEFAULT_PROMPT_TOKENS.to_string(),
        ),
        ("learn", "true".to_string()),
        (
            "llm_timeout",
            llm::provider::DEFAULT_CALL_TIMEOUT.as_secs().to_string(),
        ),
    ];
    for (key, value) in expected {
        let at = man
            .find(&format!("\n{key}\n"))
            .or_else(|| man.find(&format!("B{key}")))
            .unwrap_or_else(|| panic!("the man page has no item {key}"));
        let item = &man[at..];
        let end = item[1..].find("\n.TP").map_or(item.len(), |e| e + 1);
        let item = &item[..end];
        let stated = if value.starts_with("learned") || value.starts_with("question") {
            value.clone()
        } else {
            format!("(default {value})")
        };
        assert!(
            item.contains(&stated),
            "{key}: the man page does not say {stated}:\n{item}"
        );
    }
}

#[test]
fn the_max_lines_default_is_the_same_everywhere() {
    let default = format!("default {}", cli::plan::DEFAULT_MAX_LINES);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let skill = std::fs::read_to_string(root.join("SKILL.md")).unwrap();
    assert!(readme.contains(&format!("(`--max-lines`, {default})")));
    assert!(skill.contains(&format!("({default};")));
    let help = {
        use clap::CommandFactory;
        let text = Flags::command().render_long_help().to_string();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert!(help.contains(&format!("{default})")), "{help}");
    // The documents name no other model as a default.
    for (name, text) in [
        ("README.md", &readme),
        ("SKILL.md", &skill),
        ("config", &default_config()),
    ] {
        assert!(!text.contains("gpt-4o-mini"), "{name} names gpt-4o-mini");
    }
}

#[test]
fn the_long_line_limit_is_documented_as_the_code_has_it() {
    let limit = kgrep::render::cut::LONG_LINE_BYTES;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.contains(&format!(
        "line over {limit} bytes is cut to a {limit}-byte preview"
    )));
    let man = String::from_utf8(cli::generate::man_page().unwrap()).unwrap();
    let man = man
        .replace("\\-", "-")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(man.contains(&format!("longer than {limit} bytes")), "{man}");
    assert!(man.contains(&kgrep::render::cut::omitted(7).replace("7", "N")));
}
