//! The stages wired together: parse, plan, search (the walk runs inside it),
//! rank, print.
//!
//! Owns the order of the stages and the stderr summary lines; every decision
//! about what matches, how it ranks or how it looks belongs to a stage module.
//! `natural` and `exact` drive the search of each kind of query, `output` the
//! printers. [`find`] is the entry point of every front end: it runs the stages
//! and returns [`Results`], which the command line prints and the MCP server
//! (`crate::mcp`) turns into tool results.

mod exact;
mod explain;
mod model;
mod natural;
mod output;
mod results;

pub use results::{Budget, FileView, Fitted, LineView, Results};

pub use model::DEFAULT_ITERATIONS;

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Parser;

use crate::answer::{self, BestLine, NoModel};
use crate::budget::LeftOut;
use crate::cli::flags::GenerateKind;
use crate::cli::{self, Env, Flags, Input, LlmPolicy, Mode, Plan};
use crate::config::{self, ConfigPaths};
use crate::document::ReadOptions;
use crate::exit::ExitStatus;
use crate::judge::Judgement;
use crate::learn;
use crate::messages;
use crate::progress::Spinner;
use crate::query::{self, QueryKind};
use crate::render::json::kgrep::{Answer as JsonAnswer, AnswerSource};
use crate::render::{self, answer::AnswerStyle, signature::SignatureFormat};
use crate::report::LineScores;
use crate::score::RankedFile;
use crate::search::{Corpus, LoadStats};
use crate::session::Session;
use crate::signature::{self, Spec};
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
    if flags.mcp {
        return Ok(crate::mcp::serve_stdio(flags));
    }
    let paths = ConfigPaths::from_process_env();
    if flags.init_config {
        return init_config(&paths);
    }
    let config = config::load(&paths);
    if let Some(command) = learn::manage::Command::from_flags(&flags) {
        return thesaurus_command(&command, &flags, &config);
    }
    let env = process_env();
    let asked_rlm = flags.rlm;
    let plan = match cli::plan(flags, &config, &env) {
        Ok(plan) => plan,
        Err(err) => {
            messages::line(&err.to_string());
            return Ok(ExitStatus::Error);
        }
    };
    if asked_rlm && plan.llm == LlmPolicy::Off {
        messages::warn(&format!(
            "--rlm ignored: {} (a safety switch) wins; no language model is consulted",
            plan.llm_from
        ));
    }
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
        messages::line(&format!(
            "config already exists: {} (left unchanged)",
            path.display()
        ));
    }
    Ok(ExitStatus::Matched)
}

/// `--thesaurus-list` and the other commands on the learned thesaurus.
fn thesaurus_command(
    command: &learn::manage::Command,
    flags: &Flags,
    config: &config::Config,
) -> anyhow::Result<ExitStatus> {
    let to = match cli::plan::learn_target(flags, config) {
        Ok(to) => to,
        Err(err) => {
            messages::line(&err.to_string());
            return Ok(ExitStatus::Error);
        }
    };
    let cwd = cwd()?;
    let path = learn::target_path(to, &cwd)
        .context("cannot locate the learned thesaurus: HOME is not set")?;
    let known = if matches!(command, learn::manage::Command::Import(_)) {
        thesaurus::load_layers(&LayerPaths {
            builtin: !flags.no_builtin_thesaurus,
            learned: user_learned_path(),
            project_roots: vec![cwd.clone()],
            extra: flags.thesaurus.clone(),
            focus: None,
        })
    } else {
        Thesaurus::new()
    };
    let status = learn::manage::run(command, &path, &known)?;
    Ok(if messages::errored() {
        ExitStatus::Error
    } else {
        status
    })
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
    match find(plan, &Session::one_shot())? {
        Finding::Results(results) => print(plan, *results),
        Finding::NothingReadable(results) => {
            if plan.json {
                output::print_json(plan, &results.found, &results.read)?;
            }
            Ok(ExitStatus::Error)
        }
        Finding::Done(status) => Ok(status),
    }
}

/// What [`find`] came to.
pub enum Finding {
    /// Results to print (none found is still results).
    Results(Box<Results>),
    /// No file could be read (each reason already reported, then `no readable
    /// files`): the run is an error.
    NothingReadable(Box<Results>),
    /// The run is over and printed what it had to: `--dry-run` (exit 0), or a
    /// bad signature spec or unusable input (reported; exit 2).
    Done(ExitStatus),
}

/// Runs every stage of a search plan but printing: the library's entry point
/// for any front end (the command line, the MCP server). Reports on stderr as
/// the command line does (the `Scanned` line, warnings, `-v`); writes to stdout
/// only for `--dry-run`. Reads stdin only when the plan's input is stdin.
pub fn find(plan: &Plan, session: &Session) -> anyhow::Result<Finding> {
    let started = Instant::now();
    let cwd = cwd()?;
    let spinner = Spinner::start("scanning files");
    let Some(input) = gather(plan)? else {
        return Ok(Finding::Done(ExitStatus::Error));
    };
    let walk_opts = walk_options(plan);
    fn walking<'a>(
        paths: &'a [PathBuf],
        opts: &'a WalkOptions,
        cwd: &'a std::path::Path,
    ) -> Corpus<'a> {
        Corpus::Walk { paths, opts, cwd }
    }
    // A natural-language search lists the tree before it counts; that one
    // listing serves the whole run (the model stage searches it again rather
    // than walking). An exact search walks as it searches.
    let listing = match (&input, query::classify(&plan.query)) {
        (Gathered::Paths(paths), QueryKind::Natural) => {
            Some(crate::search::list(walking(paths, &walk_opts, &cwd)).into_owned())
        }
        _ => None,
    };
    let corpus = match (&input, &listing) {
        (_, Some(listing)) => Corpus::Listed(listing),
        (Gathered::Stdin(list), None) => Corpus::List(list.as_slice()),
        (Gathered::Paths(paths), None) => walking(paths, &walk_opts, &cwd),
    };
    let read = ReadOptions::for_run(plan.text);
    let thesaurus = match query::classify(&plan.query) {
        QueryKind::Natural => load_thesaurus(session, plan, &cwd, true),
        _ => {
            thesaurus::check_named(&plan.thesauri);
            Thesaurus::new()
        }
    };
    let mut q = query::analyze_with(&plan.query, &thesaurus);
    verbose_query(&q);
    let learned_used = learn::learned_in_query(&q.terms, &thesaurus);
    verbose_learned_used(&learned_used);
    let searched = match &q.kind {
        QueryKind::Natural => natural::rank(
            &mut q,
            corpus,
            &read,
            natural::Limits::of(plan),
            &plan.judge,
        ),
        QueryKind::Literal(lit) => exact::literal(lit, corpus, &read),
        QueryKind::Regex(re) => exact::regex(re, corpus, &read),
    };
    spinner.finish();
    let mut searched = searched?;
    let wordless = match &q.kind {
        QueryKind::Literal(lit) if query::is_wordless(&q.raw, lit) => {
            Some(cap_total(&mut searched.selected, plan.max_lines))
        }
        _ => None,
    };
    let mut found = Found {
        q,
        search: searched,
        started,
        model: None,
        answer: None,
        given: given_paths(plan, &input),
        cwd: cwd.clone(),
        left_out: None,
        chosen: Vec::new(),
    };
    if !matches!(input, Gathered::Stdin(_)) {
        summary(found.search.scanned, &found.search.stats);
        if found.search.stats.loaded == 0 {
            messages::line("no readable files");
            return Ok(Finding::NothingReadable(Box::new(Results {
                found,
                read,
                spec: None,
            })));
        }
    }
    if let Some(total) = wordless {
        messages::line(&wordless_note(&found.q.raw, total, plan.max_lines));
    }
    if let Some(j) = &found.search.judgement {
        verbose_judgement(j);
    }
    let spec = match signature_spec(plan) {
        Ok(spec) => spec,
        Err(status) => return Ok(Finding::Done(status)),
    };
    let cx = model::Context {
        plan,
        corpus,
        read: &read,
        spec: spec.as_ref(),
    };
    let Some(mut report) = model::run(&cx, &mut found)? else {
        return Ok(Finding::Done(ExitStatus::Matched));
    };
    cap_per_file(&mut found.search.selected, plan.max_count);
    if plan.learn {
        let run = LearnRun {
            plan,
            cwd: &cwd,
            read: &read,
            used: &learned_used,
            session,
        };
        learn_from(&run, &found, &mut report);
    }
    if report.dropped > 0 {
        let tail = if report.kept_offline {
            "; showing the offline results"
        } else {
            ""
        };
        messages::line(&format!(
            "dropped {} unverified matches{tail}",
            report.dropped
        ));
    }
    if spec.is_none() && matches!(plan.mode, Mode::Answer | Mode::AnswerOnly) {
        found.answer = Some(answer_of(plan, &found, &report, &read));
    }
    found.model = Some(report);
    Ok(Finding::Results(Box::new(Results { found, read, spec })))
}

/// Prints what [`find`] found: the signature fields, or the answer (stderr),
/// `--explain` (stderr) and the lines, all within `--token-budget`.
fn print(plan: &Plan, mut results: Results) -> anyhow::Result<ExitStatus> {
    if let (Some(spec), Some(report)) = (&results.spec, &results.found.model) {
        return signature_output(plan, spec, report);
    }
    let fitted = match plan.token_budget {
        Some(max_tokens) => {
            let budget = results::Budget {
                max_tokens,
                name: "--token-budget",
                max_count: plan.max_count,
                answer_inside: plan.json,
            };
            Some(results.fit(&budget, |r| {
                let mut bytes = Vec::new();
                if plan.json {
                    output::write_json_to(&mut bytes, plan, &r.found, &r.read)?;
                } else {
                    output::write_grep_to(&mut bytes, plan, &r.found, &r.read)?;
                }
                Ok(bytes)
            })?)
        }
        None => None,
    };
    let Results { found, read, .. } = &results;
    if !plan.json {
        if let Some(answer) = &found.answer {
            write_answer(&answer.text)?;
        }
    }
    if plan.explain {
        for line in results.explain() {
            messages::line(&line);
        }
    }
    let printed = match fitted {
        Some(fitted) => {
            if let Some(note) = &fitted.note {
                messages::line(note);
            }
            let mut out = std::io::stdout().lock();
            out.write_all(&fitted.bytes).context("writing results")?;
            out.flush().context("writing results")?;
            fitted.printed
        }
        None if plan.json => output::print_json(plan, found, read)?,
        None => output::print(plan, found, read)?,
    };
    Ok(ExitStatus::of_search(printed > 0, messages::errored()))
}

/// The signature modes' spec, parsed. A bad spec is rlmgrep's error, after its
/// `Scanned` line (as rlmgrep reports it): exit 2.
fn signature_spec(plan: &Plan) -> Result<Option<Spec>, ExitStatus> {
    let (Mode::Signature(spec) | Mode::SignatureJson(spec)) = &plan.mode else {
        return Ok(None);
    };
    signature::parse(spec).map(Some).map_err(|err| {
        messages::line(&err.to_string());
        ExitStatus::Error
    })
}

/// Prints the signature fields (exit 0), or says why there are none (exit 2).
fn signature_output(
    plan: &Plan,
    spec: &Spec,
    report: &model::Report,
) -> anyhow::Result<ExitStatus> {
    let (flag, format) = match plan.mode {
        Mode::SignatureJson(_) => ("--signature-json", SignatureFormat::Json),
        _ => ("--signature", SignatureFormat::Text),
    };
    let Some(fields) = &report.fields else {
        let msg = if let Some(err) = &report.signature_error {
            format!("{flag}: the model's reply does not match the signature: {err}")
        } else if report.calls > 0 || report.failed {
            format!("{flag}: the language model gave no usable reply")
        } else if plan.llm == LlmPolicy::Off {
            answer::model_required(flag, NoModel::Disabled)
        } else {
            answer::model_required(flag, NoModel::NotConfigured)
        };
        messages::line(&msg);
        return Ok(ExitStatus::Error);
    };
    if render::signature::stderr_separator(plan.stdout_is_tty, std::io::stderr().is_terminal()) {
        let _ = writeln!(std::io::stderr());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    render::signature::write_signature(&mut out, format, spec, fields, plan.stdout_is_tty)
        .context("writing results")?;
    out.flush().context("writing results")?;
    Ok(ExitStatus::Matched)
}

/// The answer section on stderr, laid out as rlmgrep's rich console does.
fn write_answer(text: &str) -> anyhow::Result<()> {
    let stderr_tty = std::io::stderr().is_terminal();
    let style = AnswerStyle {
        width: render::answer::console_width(std::env::var("COLUMNS").ok().as_deref(), None),
        color: stderr_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        tty: stderr_tty,
    };
    let mut err = std::io::stderr().lock();
    render::answer::write_answer(&mut err, text, &style).context("writing the answer")?;
    Ok(())
}

/// `--answer`: the model's answer, or offline an extractive one (with a note
/// on stderr saying why).
fn answer_of(plan: &Plan, found: &Found, report: &model::Report, read: &ReadOptions) -> JsonAnswer {
    if report.answered {
        return JsonAnswer {
            text: report.answer.clone().unwrap_or_default(),
            source: AnswerSource::Model,
            model: plan.model.model.clone(),
        };
    }
    let text = {
        let why = if plan.llm == LlmPolicy::Off {
            NoModel::Disabled
        } else {
            NoModel::NotConfigured
        };
        if !report.failed {
            messages::line(&answer::offline_answer_note(why));
        }
        answer::extractive_answer(&found.q.raw, &printed_lines(found, read))
    };
    JsonAnswer {
        text,
        source: AnswerSource::Extractive,
        model: None,
    }
}

/// The printed lines with their text, best first, for an extractive answer.
fn printed_lines(found: &Found, read: &ReadOptions) -> Vec<BestLine> {
    let mut out = Vec::new();
    for (h, lines) in &found.search.selected {
        let Some(doc) = found
            .search
            .haystacks
            .get(*h)
            .and_then(|hs| natural::load_quiet(hs, read))
        else {
            continue;
        };
        let texts: Vec<&[u8]> = doc.lines().collect();
        for &n in lines {
            let text = texts.get(n.wrapping_sub(1)).copied().unwrap_or_default();
            out.push(BestLine {
                path: doc.key.clone(),
                line: n,
                text: String::from_utf8_lossy(text).into_owned(),
            });
        }
    }
    out
}

/// Selected lines per haystack (an index into `Found::haystacks`), in print order.
type Selection = Vec<(usize, Vec<usize>)>;

/// Keeps the first `max` lines of a selection in print order (0 keeps all);
/// returns how many there were.
fn cap_total(selected: &mut Selection, max: usize) -> usize {
    let total = selected.iter().map(|(_, lines)| lines.len()).sum();
    if max == 0 {
        return total;
    }
    let mut left = max;
    for (_, lines) in selected.iter_mut() {
        lines.truncate(left);
        left -= lines.len();
    }
    selected.retain(|(_, lines)| !lines.is_empty());
    total
}

/// What happened to a query with no word to search for: one stderr line.
fn wordless_note(raw: &str, total: usize, max: usize) -> String {
    let mut note = format!(
        "{:?} has no word to search for (stop words, one-letter words and punctuation are skipped); \
         searched for the exact text instead",
        raw.trim()
    );
    if max > 0 && total > max {
        note.push_str(&format!(
            ": the first {max} of {total} matching lines (--max-lines), quote the query to see them all"
        ));
    }
    note
}

/// `-m`: each file's lines as the printers keep them, the lowest line numbers
/// (a natural-language selection already holds each file's best within the
/// cap), so that `--explain`, the answer and learning see the printed lines.
fn cap_per_file(selected: &mut Selection, max_count: Option<usize>) {
    for (_, lines) in selected.iter_mut() {
        lines.sort_unstable();
        lines.dedup();
        if let Some(max) = max_count {
            lines.truncate(max);
        }
    }
}

/// What one kind of search hands to the printers.
struct Searched {
    /// The files with hits, sorted by key; `selected` indexes into it.
    haystacks: Vec<Haystack>,
    selected: Selection,
    stats: LoadStats,
    /// Line scores of a natural-language query (empty for exact ones).
    scores: LineScores,
    scanned: usize,
    /// The ranked candidate files of a natural-language query, best first.
    ranked: Vec<RankedFile>,
    /// The judge's view of a natural-language query's results.
    judgement: Option<Judgement>,
    /// Document frequency of each term (natural language).
    df: Vec<usize>,
}

/// What a search found, as the printers need it.
struct Found {
    q: query::Query,
    /// The search's own results (the model stage fuses its places into them).
    search: Searched,
    started: Instant,
    /// What the model stage did, once it ran.
    model: Option<model::Report>,
    /// The answer (`--answer`): in `--json` a message, on stderr otherwise.
    answer: Option<JsonAnswer>,
    /// The paths the user named (path arguments or a `--paths-from-stdin`
    /// list), as written: `--json` names files through them, as ripgrep does.
    given: Vec<PathBuf>,
    cwd: PathBuf,
    /// What `--token-budget` left out, once the output was fitted to it.
    left_out: Option<LeftOut>,
    /// The printed lines the model chose, `(haystack, line)`, after fusion:
    /// `--json` gives them `source: model`.
    chosen: Vec<(usize, usize)>,
}

/// The paths the user named, for `--json` names; none when the current
/// directory is searched by default or stdin is the corpus.
fn given_paths(plan: &Plan, input: &Gathered) -> Vec<PathBuf> {
    match (&plan.input, input) {
        (Input::Paths(paths), _) => paths.clone(),
        (Input::PathsFromStdin, Gathered::Paths(list)) => list.clone(),
        _ => Vec::new(),
    }
}

fn verbose_judgement(j: &Judgement) {
    messages::verbose(&format!(
        "judge: coverage {:.2}, confidence {:.2}, diversity {}, results {} -> {} ({})",
        j.coverage,
        j.confidence,
        j.diversity,
        j.results,
        j.verdict.name(),
        j.reason
    ));
}

fn cwd() -> anyhow::Result<PathBuf> {
    std::env::current_dir().context("cannot read the current directory")
}

/// The layered thesaurus: embedded, learned, the project's `.kgrep/` in the
/// current directory and in a directory given as the only path, `--thesaurus`.
/// `focused`: only the embedded concepts the query's words could match (a
/// search); otherwise all of them (what learning checks new synonyms against).
fn load_thesaurus(
    session: &Session,
    plan: &Plan,
    cwd: &std::path::Path,
    focused: bool,
) -> Thesaurus {
    let mut roots = vec![cwd.to_path_buf()];
    if let Input::Paths(paths) = &plan.input {
        if let [only] = paths.as_slice() {
            if only.is_dir() && only.canonicalize().ok() != cwd.canonicalize().ok() {
                roots.push(only.clone());
            }
        }
    }
    session.thesaurus(&LayerPaths {
        builtin: plan.builtin_thesaurus,
        learned: user_learned_path(),
        project_roots: roots,
        extra: plan.thesauri.clone(),
        focus: focused.then(|| query::words(&plan.query)),
    })
}

/// The user's learned thesaurus, from HOME / XDG_DATA_HOME.
fn user_learned_path() -> Option<PathBuf> {
    LayerPaths::learned_path(
        std::env::var_os("HOME").map(PathBuf::from),
        std::env::var_os("XDG_DATA_HOME").map(PathBuf::from),
    )
}

/// What the learning step of a run needs besides the results.
struct LearnRun<'a> {
    plan: &'a Plan,
    cwd: &'a std::path::Path,
    read: &'a ReadOptions,
    /// Learned concepts the query's terms came from.
    used: &'a [(String, thesaurus::Standing)],
    session: &'a Session,
}

/// The learning loop's step of a run with printed results: keep what a
/// successful model expansion taught, or count a hit for the proposed learned
/// concepts of a query the offline results answered (judged sufficient). Nothing happens when a model call
/// failed or nothing is printed.
fn learn_from(run: &LearnRun<'_>, found: &Found, report: &mut model::Report) {
    if found.search.selected.is_empty() || report.failed {
        return;
    }
    let Some(path) = learn::target_path(run.plan.learn_to, run.cwd) else {
        return;
    };
    if let Some(lesson) = report.answer_lesson.take() {
        learn_answer(run, &path, &lesson, report);
    }
    if report.calls > 0 && !report.taught.is_empty() {
        let shown = printed_lines(found, run.read);
        let printed: Vec<&[u8]> = shown.iter().map(|l| l.text.as_bytes()).collect();
        let taught = learn::attested(&report.taught, &found.q.terms, &printed);
        if taught.len() < report.taught.len() {
            messages::verbose("learned: left out concepts whose words are in no printed line");
        }
        let lessons = learn::lessons(&taught, &found.q.terms);
        let from = learn::Provenance {
            // Kept on disk: secrets pasted into a query are not.
            query: crate::llm::redact::redact(&run.plan.query).text,
            model: run.plan.model.model.clone(),
        };
        // Every layer in full: a synonym any concept has is not re-pointed.
        let known = load_thesaurus(run.session, run.plan, run.cwd, false);
        match learn::record(&path, &lessons, &known, &from) {
            Ok(written) => {
                for (name, terms) in &written {
                    messages::verbose(&format!(
                        "learned: {name} ({}) into {}",
                        terms.join(", "),
                        path.display()
                    ));
                }
                if written.is_empty() {
                    messages::verbose("learned: nothing new (every term was junk or known)");
                }
                report
                    .learned
                    .extend(written.into_iter().map(|(name, _)| name));
            }
            Err(err) => learn::warn(&path, err),
        }
    } else if report.calls == 0 && judged_sufficient(found) {
        let proposed: Vec<String> = run
            .used
            .iter()
            .filter(|(_, s)| *s == thesaurus::Standing::Proposed)
            .map(|(n, _)| n.clone())
            .collect();
        if proposed.is_empty() {
            return;
        }
        match learn::note_helped(&path, &proposed) {
            Ok(counted) if !counted.is_empty() => messages::verbose(&format!(
                "learned: {} helped again (one more hit)",
                counted.join(", ")
            )),
            Ok(_) => {}
            Err(err) => learn::warn(&path, err),
        }
    }
}

/// Keeps what the model's verified choice answered (`learn::answer`).
fn learn_answer(
    run: &LearnRun<'_>,
    path: &std::path::Path,
    lesson: &learn::answer::AnswerLesson,
    report: &mut model::Report,
) {
    let from = learn::Provenance {
        // Kept on disk: secrets pasted into a query are not.
        query: crate::llm::redact::redact(&run.plan.query).text,
        model: run.plan.model.model.clone(),
    };
    let known = load_thesaurus(run.session, run.plan, run.cwd, false);
    match learn::answer::record_answer(path, lesson, &known, &from) {
        Ok(Some((name, gained))) => {
            messages::verbose(&format!(
                "learned: {name} -> {} (the model's verified answer) into {}",
                if gained.is_empty() {
                    "nothing new".to_string()
                } else {
                    gained.join(", ")
                },
                path.display()
            ));
            report.learned.push(name);
        }
        Ok(None) => messages::verbose(&format!(
            "learned: not keeping the answer: '{}' already names another concept",
            lesson.name
        )),
        Err(err) => learn::warn(path, err),
    }
}

/// The offline results answered the query (what "helped" means for a
/// learned concept in a run without a model).
fn judged_sufficient(found: &Found) -> bool {
    found
        .search
        .judgement
        .as_ref()
        .is_some_and(|j| j.verdict == crate::judge::Verdict::Sufficient)
}

fn verbose_learned_used(used: &[(String, thesaurus::Standing)]) {
    if used.is_empty() {
        return;
    }
    let names: Vec<String> = used
        .iter()
        .map(|(n, s)| format!("{n} ({})", s.name()))
        .collect();
    messages::verbose(&format!(
        "thesaurus: from the learned layer: {}",
        names.join(", ")
    ));
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
        Input::Paths(paths) if paths.is_empty() => Ok(Some(Gathered::Paths(vec![".".into()]))),
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
