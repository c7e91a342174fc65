//! The stages wired together: parse, plan, search (the walk runs inside it),
//! rank, print.
//!
//! Owns the order of the stages and the stderr summary lines; every decision
//! about what matches, how it ranks or how it looks belongs to a stage module.
//! `natural` and `exact` drive the search of each kind of query, `output` the
//! printers.

mod exact;
mod natural;
mod output;

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Parser;

use crate::answer::{self, NoModel};
use crate::cli::flags::GenerateKind;
use crate::cli::{self, Env, Flags, Input, LlmPolicy, Mode, Plan};
use crate::config::{self, ConfigPaths};
use crate::document::ReadOptions;
use crate::exit::ExitStatus;
use crate::llm;
use crate::messages;
use crate::progress::Spinner;
use crate::query::{self, QueryKind};
use crate::report::LineScores;
use crate::search::{Corpus, LoadStats};
use crate::signature;
use crate::thesaurus::{self, LayerPaths, Thesaurus};
use crate::walk::{self, Haystack, WalkOptions};

/// Parses argv and runs the command it names.
pub fn run<I, T>(args: I) -> anyhow::Result<ExitStatus>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let flags = match Flags::try_parse_from(args) {
        Ok(flags) => flags,
        Err(err) => return Ok(clap_exit(&err)),
    };
    messages::set_verbose(flags.verbose);
    if let Some(kind) = flags.generate {
        return generate(kind);
    }
    let paths = ConfigPaths::from_process_env();
    if flags.init_config {
        return init_config(&paths);
    }
    let config = config::load(&paths);
    let env = process_env();
    let plan = match cli::plan(flags, &config, &env) {
        Ok(plan) => plan,
        Err(err) => {
            messages::line(&err.to_string());
            return Ok(ExitStatus::Error);
        }
    };
    search(&plan)
}

/// Help and version go to stdout with exit 0; usage errors to stderr with exit 2.
fn clap_exit(err: &clap::Error) -> ExitStatus {
    let _ = err.print();
    if err.use_stderr() {
        ExitStatus::Error
    } else {
        ExitStatus::Matched
    }
}

/// `--generate`: print the man page or a shell's completions.
fn generate(kind: GenerateKind) -> anyhow::Result<ExitStatus> {
    use clap_complete::Shell;
    let bytes = match kind {
        GenerateKind::Man => cli::generate::man_page()?,
        GenerateKind::CompleteBash => cli::generate::completion(Shell::Bash),
        GenerateKind::CompleteZsh => cli::generate::completion(Shell::Zsh),
        GenerateKind::CompleteFish => cli::generate::completion(Shell::Fish),
        GenerateKind::CompletePowershell => cli::generate::completion(Shell::PowerShell),
        GenerateKind::CompleteElvish => cli::generate::completion(Shell::Elvish),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&bytes).context("writing generated output")?;
    Ok(ExitStatus::Matched)
}

/// `--init-config`: write kgrep's default config unless one exists.
fn init_config(paths: &ConfigPaths) -> anyhow::Result<ExitStatus> {
    let path = paths
        .kgrep
        .as_deref()
        .context("cannot locate the config directory: HOME is not set")?;
    if config::init(path)? {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", path.display())?;
    } else {
        messages::line("config already exists");
    }
    Ok(ExitStatus::Matched)
}

/// What planning needs to know about the process.
fn process_env() -> Env {
    let stdin = std::io::stdin();
    Env {
        stdin_readable: !stdin.is_terminal() && is_readable_stdin(),
        stdin_is_tty: stdin.is_terminal(),
        stdout_is_tty: std::io::stdout().is_terminal(),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        kgrep_llm: std::env::var("KGREP_LLM").ok(),
    }
}

/// ripgrep's rule: stdin is a corpus when it is a file, a pipe or a socket. A
/// terminal or a character device such as /dev/null is not, so `kgrep query` run
/// by an agent with stdin closed searches the current directory.
#[cfg(unix)]
fn is_readable_stdin() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    let Ok(meta) = std::fs::File::from(fd).metadata() else {
        return false;
    };
    let ft = meta.file_type();
    ft.is_file() || ft.is_fifo() || ft.is_socket()
}

#[cfg(not(unix))]
fn is_readable_stdin() -> bool {
    true
}

/// Runs a search plan and prints its results.
pub fn search(plan: &Plan) -> anyhow::Result<ExitStatus> {
    let started = Instant::now();
    let cwd = cwd()?;
    let spinner = Spinner::start("scanning files");
    let Some(input) = gather(plan)? else {
        return Ok(ExitStatus::Error);
    };
    let walk_opts = walk_options(plan);
    let corpus = match &input {
        Gathered::Stdin(list) => Corpus::List(list),
        Gathered::Paths(paths) => Corpus::Walk {
            paths,
            opts: &walk_opts,
            cwd: &cwd,
        },
    };
    let read = ReadOptions::for_run(plan.text);
    let mut q = match query::classify(&plan.query) {
        QueryKind::Natural => query::analyze_with(&plan.query, &load_thesaurus(plan, &cwd)),
        _ => query::analyze(&plan.query),
    };
    verbose_query(&q);
    let searched = match &q.kind {
        QueryKind::Natural => natural::rank(&mut q, corpus, &read, plan.max_lines),
        QueryKind::Literal(lit) => exact::literal(lit, corpus, &read),
        QueryKind::Regex(re) => exact::regex(re, corpus, &read),
    };
    spinner.finish();
    let searched = searched?;
    let found = Found {
        q,
        haystacks: searched.haystacks,
        selected: searched.selected,
        stats: searched.stats,
        scores: searched.scores,
        scanned: searched.scanned,
        started,
    };
    if !matches!(input, Gathered::Stdin(_)) {
        summary(found.scanned, &found.stats);
        if found.stats.loaded == 0 {
            messages::line("no readable files");
            if plan.json {
                output::print_json(plan, &found, &read)?;
            }
            return Ok(ExitStatus::Error);
        }
    }
    if let Some(status) = signature_mode(plan) {
        return Ok(status);
    }
    if plan.mode == Mode::Answer || plan.mode == Mode::AnswerOnly {
        messages::warn("--answer needs a language model, and this kgrep has none yet: printing the matches only");
    }
    let printed = if plan.json {
        output::print_json(plan, &found, &read)?
    } else {
        output::print(plan, &found, &read)?
    };
    Ok(ExitStatus::of_search(printed > 0, messages::errored()))
}

/// Selected lines per haystack (an index into `Found::haystacks`), in print order.
type Selection = Vec<(usize, Vec<usize>)>;

/// What one kind of search hands to the printers.
struct Searched {
    /// The files with hits, sorted by key; `selected` indexes into it.
    haystacks: Vec<Haystack>,
    selected: Selection,
    stats: LoadStats,
    /// Line scores of a natural-language query (empty for exact ones).
    scores: LineScores,
    scanned: usize,
}

/// What a search found, as the printers need it.
struct Found {
    q: query::Query,
    haystacks: Vec<Haystack>,
    selected: Selection,
    stats: LoadStats,
    scores: LineScores,
    scanned: usize,
    started: Instant,
}

fn cwd() -> anyhow::Result<PathBuf> {
    std::env::current_dir().context("cannot read the current directory")
}

/// The layered thesaurus: embedded, learned, the project's `.kgrep/` in the
/// current directory and in a directory given as the only path, `--thesaurus`.
fn load_thesaurus(plan: &Plan, cwd: &std::path::Path) -> Thesaurus {
    let mut roots = vec![cwd.to_path_buf()];
    if let Input::Paths(paths) = &plan.input {
        if let [only] = paths.as_slice() {
            if only.is_dir() && only.canonicalize().ok() != cwd.canonicalize().ok() {
                roots.push(only.clone());
            }
        }
    }
    thesaurus::load_layers(&LayerPaths {
        builtin: plan.builtin_thesaurus,
        learned: LayerPaths::learned_path(
            std::env::var_os("HOME").map(PathBuf::from),
            std::env::var_os("XDG_DATA_HOME").map(PathBuf::from),
        ),
        project_roots: roots,
        extra: plan.thesauri.clone(),
    })
}

/// The signature modes, after the files are loaded (rlmgrep reports a bad spec
/// only then, after its `Scanned` line): a bad spec is rlmgrep's error, and
/// without a model the run ends with exit 2 saying how to configure one.
/// `None` for the other modes.
fn signature_mode(plan: &Plan) -> Option<ExitStatus> {
    let (flag, spec) = match &plan.mode {
        Mode::Signature(spec) => ("--signature", spec),
        Mode::SignatureJson(spec) => ("--signature-json", spec),
        _ => return None,
    };
    if let Err(err) = signature::parse(spec) {
        messages::line(&err.to_string());
        return Some(ExitStatus::Error);
    }
    let msg = if plan.llm == LlmPolicy::Off {
        answer::model_required(flag, NoModel::Disabled)
    } else if llm::resolve(&plan.model, |name| std::env::var(name).ok())
        .selection()
        .is_err()
    {
        answer::model_required(flag, NoModel::NotConfigured)
    } else {
        // Until the LLM client is wired in (issue 4), a configured model cannot
        // be called yet.
        format!(
            "{flag} needs a language model, and this kgrep has no model support yet; \
             run without {flag} for offline search"
        )
    };
    messages::line(&msg);
    Some(ExitStatus::Error)
}

/// The input of a run: piped stdin content, or paths to walk.
enum Gathered {
    Stdin(Vec<Haystack>),
    Paths(Vec<PathBuf>),
}

/// Reads piped stdin or a path list on stdin, or takes the path arguments.
/// `None` when the input itself is unusable (already reported).
fn gather(plan: &Plan) -> anyhow::Result<Option<Gathered>> {
    match &plan.input {
        Input::Stdin => Ok(Some(Gathered::Stdin(vec![walk::stdin_haystack(
            read_stdin()?,
        )]))),
        Input::PathsFromStdin => {
            let list = walk::parse_path_list(&read_stdin()?);
            if list.is_empty() {
                messages::line("stdin contained no file paths");
                return Ok(None);
            }
            Ok(Some(Gathered::Paths(list)))
        }
        Input::Paths(paths) => Ok(Some(Gathered::Paths(paths.clone()))),
    }
}

fn read_stdin() -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .context("cannot read stdin")?;
    Ok(bytes)
}

fn walk_options(plan: &Plan) -> WalkOptions {
    WalkOptions {
        recursive: plan.recursive,
        hidden: plan.hidden,
        no_ignore: plan.no_ignore,
        globs: walk::split_list(&plan.globs),
        types: walk::split_list(&plan.types),
        threads: 0,
    }
}

/// rlmgrep's summary line, `Scanned N files. Loaded M.` (+ ` Skipped K.`),
/// then one `skip FILE: why` warning per document that could not be converted.
fn summary(scanned: usize, stats: &LoadStats) {
    let mut line = format!("Scanned {scanned} files. Loaded {}.", stats.loaded);
    if stats.skipped > 0 {
        line.push_str(&format!(" Skipped {}.", stats.skipped));
    }
    messages::line(&line);
    for skip in &stats.skips {
        messages::warn(skip);
    }
}

fn verbose_query(q: &query::Query) {
    if !messages::is_verbose() {
        return;
    }
    match &q.kind {
        QueryKind::Literal(lit) => messages::verbose(&format!("query: literal {lit:?}")),
        QueryKind::Regex(re) => messages::verbose(&format!("query: regex {re:?}")),
        QueryKind::Natural => {
            let terms: Vec<String> = q
                .terms
                .iter()
                .map(|t| format!("{} ({})", t.text, t.stem))
                .collect();
            messages::verbose(&format!(
                "query: natural language, terms: {}",
                terms.join(", ")
            ));
        }
    }
}
