//! The tools: `search`, `answer`, `explain`. Arguments in, a `tools/call`
//! result out.
//!
//! A call's arguments become command-line flags on top of the server's own
//! (`kgrep --mcp --offline` makes every call offline unless it says
//! otherwise), then a plan as `cli::plan` resolves it, then
//! [`pipeline::find`] runs the search: the same rules, defaults and results as
//! the command line. Owns argument checking (each problem is one sentence in
//! a result with `isError`, which an agent can act on; a path outside the
//! server's roots is one, `roots`) and the layout of the
//! result. The whole result, text and `structuredContent` together, is fitted
//! to `max_tokens`.

use std::path::PathBuf;

use serde_json::{json, Map, Value};

use crate::cli::flags::ColorChoice;
use crate::cli::{self, Env, Flags, Input, Plan};
use crate::config::Config;
use crate::messages;
use crate::pipeline::{self, Budget, Finding, Results};
use crate::render::grep::MaxColumns;
use crate::session::Session;

use super::roots::Roots;

/// `max_tokens` when neither the call nor the server's flags give one. An
/// agent's context is the scarce thing: literal and regex queries print every
/// match, and a reply past the client's limit is wasted (Claude Code, for one,
/// warns above 10,000 tokens of tool output). About 60 lines with their data.
pub const DEFAULT_MAX_TOKENS: usize = 4_000;

/// The share of `max_tokens` the query's echo in `structuredContent` may
/// take (one part in this many): the agent wrote the query and has it, so a
/// long one (a pasted log) is echoed cut, with its length, never whole.
pub const ECHO_SHARE: usize = 8;

/// A long line's preview takes at most one part in this many of the bytes
/// `max_tokens` allows (it is in the text and in `structuredContent`), and
/// never more than the command line's (`render::cut::LONG_LINE_BYTES`)...
const PREVIEW_SHARE: usize = 8;
/// ... nor fewer than this many bytes: about a line of code around a match.
const MIN_PREVIEW_BYTES: usize = 80;

/// Most context lines a call may ask for: more returns whole files, which the
/// budget would cut anyway.
pub const MAX_CONTEXT: usize = 100;

/// The argument names every tool accepts.
const ARGUMENTS: [&str; 8] = [
    "query",
    "paths",
    "globs",
    "types",
    "context",
    "max_lines",
    "max_tokens",
    "offline",
];

/// A tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Search,
    Answer,
    Explain,
}

impl Tool {
    /// The tool of a `tools/call` name.
    pub fn named(name: &str) -> Option<Tool> {
        match name {
            "search" => Some(Tool::Search),
            "answer" => Some(Tool::Answer),
            "explain" => Some(Tool::Explain),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tool::Search => "search",
            Tool::Answer => "answer",
            Tool::Explain => "explain",
        }
    }
}

/// What every call shares: the server's flags and config, and the session's
/// cached thesaurus layers.
pub struct Tools {
    base: Flags,
    config: Config,
    session: Session,
    /// Where calls may look.
    roots: Roots,
}

/// A call's arguments, checked.
#[derive(Clone, Debug, Default, PartialEq)]
struct Args {
    query: String,
    paths: Vec<PathBuf>,
    globs: Vec<String>,
    types: Vec<String>,
    context: Option<usize>,
    max_lines: Option<usize>,
    max_tokens: Option<usize>,
    offline: Option<bool>,
}

impl Tools {
    /// `base`: the flags `kgrep --mcp` was started with; `roots`: where its
    /// calls may look.
    pub fn new(base: Flags, config: Config, roots: Roots) -> Tools {
        Tools {
            base,
            config,
            session: Session::reusing(),
            roots,
        }
    }

    /// Takes the roots of a client's `roots/list` result; how many.
    pub fn declare_roots(&mut self, result: &Value) -> usize {
        self.roots.declare(result)
    }

    /// Runs a tool; returns its `tools/call` result. Warnings and errors the
    /// search reports are this call's alone.
    pub fn call(&mut self, tool: Tool, arguments: &Map<String, Value>) -> Value {
        let (outcome, captured) = messages::capture(|| self.run(tool, arguments));
        match outcome {
            Ok(Run::Results(plan, mut results)) => {
                let warnings = captured.lines;
                match reply(tool, &plan, &mut results, &warnings) {
                    Ok(reply) => reply,
                    Err(err) => error_result(&sentence(&format!("{err:#}"))),
                }
            }
            Ok(Run::Unreadable(plan)) => error_result(&unreadable(&plan, &captured.lines)),
            Err(why) => error_result(&why),
        }
    }

    fn run(&self, tool: Tool, arguments: &Map<String, Value>) -> Result<Run, String> {
        let args = Args::parse(arguments)?;
        let plan = self.plan(tool, &args)?;
        check_paths(&plan, &self.roots)?;
        match pipeline::find(&plan, &self.session) {
            Ok(Finding::Results(results)) => Ok(Run::Results(Box::new(plan), results)),
            Ok(Finding::NothingReadable(_)) => Ok(Run::Unreadable(Box::new(plan))),
            Ok(Finding::Done(_)) => Err("The search stopped before it had results.".into()),
            Err(err) => Err(sentence(&format!("{err:#}"))),
        }
    }

    /// The call's plan: its arguments as flags over the server's.
    fn plan(&self, tool: Tool, args: &Args) -> Result<Plan, String> {
        self.roots.usable()?;
        let mut f = self.base.clone();
        f.pattern = Some(args.query.clone());
        f.paths = if args.paths.is_empty() {
            self.roots.default_paths()
        } else {
            args.paths.clone()
        };
        f.globs.extend(args.globs.iter().cloned());
        f.types.extend(args.types.iter().cloned());
        if let Some(context) = args.context {
            f.context = Some(context);
            f.before = None;
            f.after = None;
        }
        f.max_lines = args.max_lines.or(f.max_lines);
        f.token_budget = args
            .max_tokens
            .or(f.token_budget)
            .or(Some(DEFAULT_MAX_TOKENS));
        match args.offline {
            Some(true) => {
                f.offline = true;
                f.rlm = false;
            }
            Some(false) => f.offline = false,
            None => {}
        }
        // What a tool result has no room for: other output modes, stdin.
        f.answer = tool == Tool::Answer;
        f.answer_only = false;
        f.explain = tool == Tool::Explain;
        f.json = false;
        f.signature = None;
        f.signature_json = None;
        f.dry_run = false;
        f.paths_from_stdin = false;
        // A walk that followed a symlink could leave the roots, which only
        // the named paths are checked against (the server's own `-L` too).
        f.follow = false;
        f.color = Some(ColorChoice::Never);
        let env = Env {
            stdin_readable: false,
            stdin_is_tty: false,
            // The server's stdin is the client's messages: a `-` path is
            // never read from it.
            stdin_reserved: true,
            stdout_is_tty: false,
            stderr_is_tty: false,
            no_color: true,
            kgrep_llm: std::env::var("KGREP_LLM").ok(),
            dirs: crate::paths::Env::from_process(),
        };
        let mut plan =
            cli::plan(f, &self.config, &env).map_err(|err| sentence(&err.to_string()))?;
        // A result goes into the client's model: files that are secrets by
        // nature are never read for it, as for a prompt (`llm::redact`).
        plan.withhold_secrets = true;
        plan.reads_pipes = false;
        // A long line (a minified bundle, a data blob) is a preview around
        // its matches, whatever the query, unless the server's -M says
        // otherwise: an exact query's 3.5 MB line went out whole, far past
        // max_tokens. A small budget gets a narrower window.
        let budget = plan.token_budget.unwrap_or(DEFAULT_MAX_TOKENS);
        plan.max_columns = plan.max_columns.or(Some(MaxColumns {
            max: (budget.saturating_mul(3) / PREVIEW_SHARE)
                .clamp(MIN_PREVIEW_BYTES, crate::render::cut::LONG_LINE_BYTES),
            preview: true,
        }));
        Ok(plan)
    }
}

/// What a call's search came to.
enum Run {
    Results(Box<Plan>, Box<Results>),
    /// No file could be read.
    Unreadable(Box<Plan>),
}

impl Args {
    fn parse(arguments: &Map<String, Value>) -> Result<Args, String> {
        if let Some(unknown) = arguments.keys().find(|k| !ARGUMENTS.contains(&k.as_str())) {
            return Err(format!(
                "Unknown argument '{unknown}'; the arguments are {}.",
                ARGUMENTS.join(", ")
            ));
        }
        let query = match arguments.get("query") {
            Some(Value::String(q)) if !q.trim().is_empty() => q.clone(),
            Some(Value::String(_)) => return Err("Argument 'query' is empty.".into()),
            Some(other) => {
                return Err(format!(
                    "Argument 'query' must be a string, got {}.",
                    shown(other)
                ))
            }
            None => return Err("Argument 'query' is missing: say what to find.".into()),
        };
        Ok(Args {
            query,
            paths: strings(arguments, "paths")?
                .into_iter()
                .map(PathBuf::from)
                .collect(),
            globs: strings(arguments, "globs")?,
            types: strings(arguments, "types")?,
            context: whole(arguments, "context", 0, MAX_CONTEXT)?,
            max_lines: whole(arguments, "max_lines", 0, usize::MAX)?,
            max_tokens: whole(arguments, "max_tokens", 1, usize::MAX)?,
            offline: match arguments.get("offline") {
                None | Some(Value::Null) => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(other) => {
                    return Err(format!(
                        "Argument 'offline' must be true or false, got {}.",
                        shown(other)
                    ))
                }
            },
        })
    }
}

/// A list of strings (a lone string is taken as a list of one).
fn strings(arguments: &Map<String, Value>, name: &str) -> Result<Vec<String>, String> {
    let bad = |v: &Value| {
        format!(
            "Argument '{name}' must be a list of strings, got {}.",
            shown(v)
        )
    };
    let items = match arguments.get(name) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::String(s)) => return Ok(vec![s.clone()]),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(bad(other)),
    };
    if items.len() > MAX_LIST {
        return Err(format!(
            "Argument '{name}' lists {} items, more than the {MAX_LIST} a call may name.",
            items.len()
        ));
    }
    // Each once, in order: a path named twice is searched once (100,000
    // copies of one folder took minutes, the server deaf meanwhile).
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for v in items {
        let s = v.as_str().ok_or_else(|| bad(v))?;
        if !out.iter().any(|seen| seen == s) {
            out.push(s.to_string());
        }
    }
    Ok(out)
}

/// Most items a list argument (`paths`, `globs`, `types`) may hold.
pub const MAX_LIST: usize = 1_000;

/// A whole number in `min..=max`.
fn whole(
    arguments: &Map<String, Value>,
    name: &str,
    min: usize,
    max: usize,
) -> Result<Option<usize>, String> {
    let Some(value) = arguments.get(name).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let n = value
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (min..=max).contains(n));
    let range = if max == usize::MAX {
        format!("{min} or more")
    } else {
        format!("from {min} to {max}")
    };
    n.map(Some).ok_or_else(|| {
        format!(
            "Argument '{name}' must be a whole number {range}, got {}.",
            shown(value)
        )
    })
}

/// A value as an agent wrote it, shortened.
fn shown(value: &Value) -> String {
    crate::render::cut::ellipsize(&value.to_string(), 60)
}

/// Whether a named path is refused as secrets: a file by its name or by the
/// name of what it links to; a folder only through a link, when what it links
/// to lies inside a secrets folder (`k -> ~/.ssh`). A folder named as it is
/// is searched with its secrets files left out, but the walk knows them by
/// the names under the link, where `k/github` says nothing of `.ssh`.
fn withheld(path: &std::path::Path, is_file: bool) -> bool {
    let secret = |p: &std::path::Path| {
        !p.as_os_str().is_empty() && crate::llm::redact::is_secret_file(&p.to_string_lossy())
    };
    let target = std::fs::canonicalize(path).unwrap_or_default();
    if is_file {
        return secret(path) || secret(&target);
    }
    let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    // Any file in the folder: a secrets folder makes it one.
    linked && !target.as_os_str().is_empty() && secret(&target.join("_"))
}

/// Every path must be under a root (`roots`, checked first, so nothing is
/// learnt of what exists outside) and exist: either is the agent's mistake
/// to correct.
fn check_paths(plan: &Plan, roots: &Roots) -> Result<(), String> {
    let Input::Paths(paths) = &plan.input else {
        return Ok(());
    };
    for path in paths {
        roots.check(path)?;
        let meta = std::fs::metadata(path);
        if withheld(path, meta.as_ref().is_ok_and(std::fs::Metadata::is_file)) {
            return Err(format!(
                "'{}' is a secrets file (keys, credentials, .env); kgrep's tools never return one.",
                path.display()
            ));
        }
        if let Err(err) = meta {
            let cwd = std::env::current_dir().unwrap_or_default();
            return Err(match err.kind() {
                std::io::ErrorKind::NotFound => format!(
                    "Path '{}' does not exist (paths are relative to {}).",
                    path.display(),
                    cwd.display()
                ),
                _ => format!("Cannot read '{}': {}.", path.display(), os_reason(&err)),
            });
        }
    }
    Ok(())
}

/// An I/O error without Rust's ` (os error N)` tail.
fn os_reason(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Why nothing could be searched, as one sentence.
fn unreadable(plan: &Plan, errors: &[String]) -> String {
    let paths = match &plan.input {
        Input::Paths(paths) => paths
            .iter()
            .map(|p| format!("'{}'", p.display()))
            .collect::<Vec<_>>()
            .join(", "),
        _ => "the input".into(),
    };
    if errors.is_empty() {
        format!("No file to search in {paths} (after the globs and types given).")
    } else {
        sentence(&format!(
            "No readable file in {paths}: {}",
            errors.join("; ")
        ))
    }
}

/// Text made one sentence: one line, ending in a full stop.
fn sentence(text: &str) -> String {
    let mut one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(first) = one.get(..1) {
        let upper = first.to_uppercase();
        one.replace_range(..1, &upper);
    }
    if !one.ends_with(['.', '!', '?']) {
        one.push('.');
    }
    one
}

/// A failed call's result.
pub fn error_result(sentence: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": sentence}],
        "isError": true,
    })
}

fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// The result of a call that found what it found, fitted to its budget.
fn reply(
    tool: Tool,
    plan: &Plan,
    results: &mut Results,
    warnings: &[String],
) -> anyhow::Result<Value> {
    let budget = Budget {
        max_tokens: plan.token_budget.unwrap_or(DEFAULT_MAX_TOKENS),
        name: "max_tokens",
        max_count: plan.max_count,
        answer_inside: true,
    };
    // What the first fit starts from, for a fit with less context.
    let full = (
        results.found.search.selected.clone(),
        results.found.answer.clone(),
    );
    let mut plan = plan.clone();
    let mut notes = warnings.to_vec();
    loop {
        let fitted = results.fit(&budget, |r| {
            Ok(render(tool, &plan, r, &notes)?.to_string().into_bytes())
        })?;
        let context = plan.before.max(plan.after);
        if crate::budget::tokens(&fitted.bytes) <= budget.max_tokens || context == 0 {
            break;
        }
        // Even the best line is over the budget with its context lines
        // (long lines are previews already): half as many, until it fits.
        plan.before /= 2;
        plan.after /= 2;
        results.found.search.selected = full.0.clone();
        results.found.answer = full.1.clone();
        notes = warnings.to_vec();
        let lines = |n: usize| format!("{n} line{}", if n == 1 { "" } else { "s" });
        notes.push(format!(
            "max_tokens {}: context cut to {} before and {} after \
             to stay within about {} tokens",
            budget.max_tokens,
            lines(plan.before),
            lines(plan.after),
            budget.max_tokens
        ));
    }
    render(tool, &plan, results, &notes)
}

/// The result for the results as they stand.
fn render(
    tool: Tool,
    plan: &Plan,
    results: &Results,
    warnings: &[String],
) -> anyhow::Result<Value> {
    let text = String::from_utf8_lossy(&results.text(plan)?).into_owned();
    let files = results.files(plan)?;
    let run = results.run_info();
    let mut content = Vec::new();
    let answer = results.answer();
    if let (Tool::Answer, Some(answer)) = (tool, answer) {
        // The text the client shows: a model's bidi controls and hidden
        // format characters shown (`<U+202E>`), as kgrep prints them; the
        // structured answer keeps the exact string, as `--json` does.
        content.push(text_block(&crate::render::sanitize::sanitize_text(
            &answer.text,
        )));
    }
    if !text.is_empty() {
        content.push(text_block(&text));
    } else if tool != Tool::Answer {
        content.push(text_block("No lines matched."));
    }
    let explanations: Vec<String> = if tool == Tool::Explain {
        results
            .explain()
            .iter()
            .map(|l| l.strip_prefix("explain: ").unwrap_or(l).to_string())
            .collect()
    } else {
        Vec::new()
    };
    if !explanations.is_empty() {
        content.push(text_block(&explanations.join("\n")));
    }
    let printed: usize = files
        .iter()
        .map(|f| f.lines.iter().filter(|l| l.is_match).count())
        .sum();
    let left = results.left_out().unwrap_or_default();
    let mut notes: Vec<String> = warnings.to_vec();
    if let Some(note) = left.note("max_tokens", printed + left.lines, files.len() + left.files) {
        notes.push(note);
    }
    if !notes.is_empty() {
        content.push(text_block(&notes.join("\n")));
    }
    let mut query = json!({"text": run.query.text, "kind": run.query.kind});
    let max_tokens = plan.token_budget.unwrap_or(DEFAULT_MAX_TOKENS);
    let (echo, cut) = crate::budget::head(&run.query.text, max_tokens / ECHO_SHARE);
    if cut {
        query["text"] = json!(echo);
        query["cut"] = json!(true);
        query["bytes"] = json!(run.query.text.len());
    }
    let mut structured = json!({
        "query": query,
        "files": files.iter().map(file_json).collect::<Vec<_>>(),
        "model_consulted": results.is_model_consulted(),
        "sufficient": results.is_sufficient(),
        "judge_reason": results.judgement().map(|j| format!("{}: {}", j.verdict.name(), j.reason)),
        "files_scanned": run.files.scanned,
        "files_loaded": run.files.loaded,
        "left_out": {
            "max_tokens": left.max_tokens,
            "lines": left.lines,
            "files": left.files,
            "answer_cut": left.answer_cut,
        },
        "warnings": warnings,
    });
    if let Some(map) = structured.as_object_mut() {
        if tool == Tool::Answer {
            map.insert("answer".into(), serde_json::to_value(answer)?);
        }
        if tool == Tool::Explain {
            map.insert("explanations".into(), json!(explanations));
        }
    }
    Ok(json!({
        "content": content,
        "structuredContent": structured,
        "isError": false,
    }))
}

fn file_json(file: &pipeline::FileView) -> Value {
    let lines: Vec<Value> = file
        .lines
        .iter()
        .map(|l| {
            let mut line = json!({"line": l.number, "text": l.text, "match": l.is_match});
            if let (Some(info), Some(map)) = (&l.info, line.as_object_mut()) {
                map.insert("score".into(), json!(info.score.as_ref().map(|s| s.total)));
                map.insert(
                    "terms".into(),
                    json!(info
                        .terms
                        .iter()
                        .map(|t| t.text.as_str())
                        .collect::<Vec<_>>()),
                );
                map.insert(
                    "source".into(),
                    serde_json::to_value(info.source).unwrap_or(Value::Null),
                );
            }
            line
        })
        .collect();
    json!({"path": file.path, "score": file.score, "lines": lines})
}
