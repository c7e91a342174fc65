//! One expansion and one selection request through kgrep's model client against
//! a real server, reporting calls, tokens and seconds. Not part of CI: run by
//! `tests/bench/llm_smoke.sh` against the local model of
//! `../shared/llm/llm-server.sh`.
//!
//! ```text
//! cargo run --release --example llm_smoke -- --api-base http://127.0.0.1:8088/v1 \
//!     [--model qwen2.5-coder-1.5b-instruct] [--model-type chat|responses] \
//!     [--query "where is the retry delay computed"] [--corpus fixtures/corpus] [--dry-run]
//! ```
//! A model string starting `anthropic/` uses the Anthropic Messages API.
#![allow(clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use kgrep::cli::ModelSettings;
use kgrep::llm::{
    self, Client, Excerpt, ExpansionRequest, LlmError, Meter, Reply, SelectionRequest,
};

struct Args {
    settings: ModelSettings,
    dry_run: bool,
    query: String,
    corpus: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let args = parse_args()?;
    let config = llm::resolve(&args.settings, |name| std::env::var(name).ok());
    let endpoint = match config.selection() {
        Ok(endpoint) => endpoint.clone(),
        Err(offline) => bail!("{offline}"),
    };
    println!(
        "endpoint: {} {:?} at {}",
        endpoint.wire_model,
        endpoint.protocol,
        endpoint.display_base()
    );
    let excerpts = excerpts(&args.corpus)?;
    let vocabulary = vocabulary(&excerpts);
    let meter = Meter::new(config.max_llm_calls);
    let client = Client::new(endpoint, meter.clone());

    let expansion = ExpansionRequest {
        query: args.query.clone(),
        vocabulary,
    };
    let prompt = llm::prompt::expansion(&expansion);
    if args.dry_run {
        let request = SelectionRequest::new(&args.query, excerpts);
        print!("{}", llm::dry_run(client.endpoint(), &prompt));
        print!(
            "{}",
            llm::dry_run(client.endpoint(), &llm::prompt::selection(&request))
        );
        return Ok(());
    }
    report("expand", &client, &meter, prompt.stats.tokens, || {
        client.complete(&prompt)
    });

    let request = SelectionRequest {
        answer: true,
        ..SelectionRequest::new(&args.query, excerpts)
    };
    let prompt = llm::prompt::selection(&request);
    println!(
        "select prompt: {} excerpts, {} lines, ~{} tokens estimated, {} left out over budget",
        prompt.stats.excerpts, prompt.stats.lines, prompt.stats.tokens, prompt.stats.over_budget
    );
    report("select", &client, &meter, prompt.stats.tokens, || {
        client.complete(&prompt)
    });
    let usage = meter.usage();
    println!(
        "total: {} calls, {} prompt tokens, {} completion tokens",
        meter.calls(),
        usage.prompt_tokens,
        usage.completion_tokens
    );
    Ok(())
}

/// Runs one call and prints what it cost and returned.
fn report(
    name: &str,
    _client: &Client,
    meter: &Meter,
    estimated: usize,
    call: impl FnOnce() -> Result<Reply, LlmError>,
) {
    let before = meter.usage();
    let started = Instant::now();
    let result = call();
    let seconds = started.elapsed().as_secs_f64();
    let after = meter.usage();
    println!(
        "{name}: {seconds:.1} s, prompt tokens {} (estimated {estimated}), completion tokens {}",
        after.prompt_tokens - before.prompt_tokens,
        after.completion_tokens - before.completion_tokens
    );
    match result {
        Ok(reply) => {
            let concepts: Vec<String> = reply
                .concepts
                .iter()
                .map(|c| format!("{} {:?}", c.name, c.synonyms))
                .collect();
            let matches: Vec<String> = reply
                .matches
                .iter()
                .map(|m| format!("{}:{}", m.path, m.line))
                .collect();
            println!("  concepts: {concepts:?}");
            println!("  matches: {matches:?}");
            if let Some(answer) = reply.answer {
                println!("  answer: {answer}");
            }
            if reply.malformed > 0 {
                println!("  malformed entries skipped: {}", reply.malformed);
            }
        }
        Err(LlmError::Truncated {
            salvaged: Some(partial),
        }) => println!(
            "  cut off; salvaged {} concepts, {} matches",
            partial.concepts.len(),
            partial.matches.len()
        ),
        Err(err) => println!("  error: {err}"),
    }
}

fn parse_args() -> anyhow::Result<Args> {
    let mut settings = ModelSettings {
        model: Some("qwen2.5-coder-1.5b-instruct".into()),
        ..ModelSettings::default()
    };
    let mut query = "where is the retry delay computed".to_string();
    let mut corpus = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/corpus"));
    let mut dry_run = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--dry-run" {
            dry_run = true;
            continue;
        }
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--api-base" => settings.api_base = Some(value),
            "--model" => settings.model = Some(value),
            "--model-type" => settings.model_type = Some(value),
            "--max-tokens" => settings.max_tokens = Some(value.parse()?),
            "--query" => query = value,
            "--corpus" => corpus = PathBuf::from(value),
            _ => bail!("unknown flag {flag}"),
        }
    }
    Ok(Args {
        settings,
        dry_run,
        query,
        corpus,
    })
}

/// Every text file of the corpus as one excerpt (the budget cuts the rest).
fn excerpts(corpus: &Path) -> anyhow::Result<Vec<Excerpt>> {
    let mut files = Vec::new();
    collect(corpus, &mut files)?;
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let path = file.strip_prefix(corpus).unwrap_or(&file);
        out.push(Excerpt {
            path: path.to_string_lossy().into_owned(),
            first_line: 1,
            lines: text.split('\n').map(str::to_string).collect(),
        });
    }
    Ok(out)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Identifier-like words of the excerpts, most frequent first.
fn vocabulary(excerpts: &[Excerpt]) -> Vec<String> {
    let mut counts = std::collections::HashMap::new();
    for line in excerpts.iter().flat_map(|e| &e.lines) {
        for word in line.split(|c: char| !c.is_alphanumeric() && c != '_') {
            if word.len() >= 4 && word.chars().next().is_some_and(char::is_alphabetic) {
                *counts.entry(word.to_string()).or_insert(0u32) += 1;
            }
        }
    }
    let mut words: Vec<(String, u32)> = counts.into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    words.into_iter().map(|(w, _)| w).take(200).collect()
}
