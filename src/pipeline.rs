//! The stages wired together: parse, plan, gather haystacks, search, rank, print.
//!
//! Owns the order of the stages and the stderr summary lines; every decision
//! about what matches, how it ranks or how it looks belongs to a stage module.

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Parser;

use crate::cli::flags::GenerateKind;
use crate::cli::{self, Env, Flags, Input, Mode, Plan};
use crate::config::{self, ConfigPaths};
use crate::document::{self, Document, Loaded, ReadOptions};
use crate::exit::ExitStatus;
use crate::messages;
use crate::progress::Spinner;
use crate::query::{self, QueryKind};
use crate::render::grep::{self, FileResult, GrepOptions};
use crate::render::json::{JsonFile, JsonOptions, JsonPrinter};
use crate::report::{self, LineScores, Spotter};
use crate::score::{self, RankedFile, TermWeights};
use crate::search::{self, matcher::TermMatcher, LoadStats};
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
    if let Some(status) = unsupported_mode(plan) {
        return Ok(status);
    }
    let spinner = Spinner::start("scanning files");
    let gathered = gather(plan);
    spinner.finish();
    let Some(haystacks) = gathered? else {
        return Ok(ExitStatus::Error);
    };
    let read = ReadOptions::for_run(plan.text);
    let q = match query::classify(&plan.query) {
        QueryKind::Natural => query::analyze_with(&plan.query, &load_thesaurus(plan, &cwd()?)),
        _ => query::analyze(&plan.query),
    };
    verbose_query(&q);
    let spinner = Spinner::start("searching");
    let (selected, stats, scores) = match &q.kind {
        QueryKind::Natural => rank_natural(&q, &haystacks.list, &read, plan.max_lines)?,
        QueryKind::Literal(lit) => search_exact(&haystacks.list, &read, literal_matcher(lit)?),
        QueryKind::Regex(re) => search_exact(&haystacks.list, &read, regex_matcher(re)?),
    };
    spinner.finish();
    let found = Found {
        q,
        selected,
        stats,
        scores,
        scanned: haystacks.scanned,
        started,
    };
    if !haystacks.from_stdin {
        summary(haystacks.scanned, &found.stats);
        if found.stats.loaded == 0 {
            messages::line("no readable files");
            if plan.json {
                print_json(plan, &haystacks.list, &found, &read)?;
            }
            return Ok(ExitStatus::Error);
        }
    }
    if plan.mode == Mode::Answer || plan.mode == Mode::AnswerOnly {
        messages::warn("--answer needs a language model, and this kgrep has none yet: printing the matches only");
    }
    let printed = if plan.json {
        print_json(plan, &haystacks.list, &found, &read)?
    } else {
        print(plan, &haystacks.list, &found, &read)?
    };
    Ok(ExitStatus::of_search(printed > 0, messages::errored()))
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

/// Modes this version cannot run: signatures need a model.
fn unsupported_mode(plan: &Plan) -> Option<ExitStatus> {
    let flag = match plan.mode {
        Mode::Signature(_) => "--signature",
        Mode::SignatureJson(_) => "--signature-json",
        _ => return None,
    };
    messages::line(&format!(
        "{flag} needs a language model, and this kgrep has no model support yet; \
         run without {flag} for offline search"
    ));
    Some(ExitStatus::Error)
}

/// The haystacks of a plan, and how many files the walk considered.
struct Haystacks {
    list: Vec<Haystack>,
    scanned: usize,
    from_stdin: bool,
}

/// Collects haystacks from stdin, a path list on stdin, or the walk. `None` when
/// the input itself is unusable (already reported).
fn gather(plan: &Plan) -> anyhow::Result<Option<Haystacks>> {
    let cwd = cwd()?;
    let paths: Vec<PathBuf> = match &plan.input {
        Input::Stdin => {
            let bytes = read_stdin()?;
            return Ok(Some(Haystacks {
                list: vec![walk::stdin_haystack(bytes)],
                scanned: 1,
                from_stdin: true,
            }));
        }
        Input::PathsFromStdin => {
            let list = walk::parse_path_list(&read_stdin()?);
            if list.is_empty() {
                messages::line("stdin contained no file paths");
                return Ok(None);
            }
            list
        }
        Input::Paths(paths) => paths.clone(),
    };
    let outcome = walk::walk(&paths, &walk_options(plan), &cwd);
    Ok(Some(Haystacks {
        list: outcome.haystacks,
        scanned: outcome.scanned,
        from_stdin: false,
    }))
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

fn literal_matcher(lit: &str) -> anyhow::Result<grep_regex::RegexMatcher> {
    grep_regex::RegexMatcherBuilder::new()
        .fixed_strings(true)
        .build(lit)
        .context("cannot build a literal matcher")
}

fn regex_matcher(re: &str) -> anyhow::Result<grep_regex::RegexMatcher> {
    grep_regex::RegexMatcherBuilder::new()
        .build(re)
        .with_context(|| format!("invalid regex {re:?}"))
}

/// Selected lines per haystack, in print order.
type Selection = Vec<(usize, Vec<usize>)>;

/// What a search found, as the printers need it.
struct Found {
    q: query::Query,
    selected: Selection,
    stats: LoadStats,
    /// Line scores of a natural-language query (empty for exact ones).
    scores: LineScores,
    scanned: usize,
    started: Instant,
}

fn search_exact(
    haystacks: &[Haystack],
    read: &ReadOptions,
    matcher: grep_regex::RegexMatcher,
) -> (Selection, LoadStats, LineScores) {
    let outcome = search::search_exact(haystacks, &matcher, read);
    let selected = outcome
        .files
        .into_iter()
        .map(|f| (f.haystack, f.lines))
        .collect();
    (selected, outcome.stats, LineScores::new())
}

/// Natural language: count terms everywhere, score lines in the best files, select.
fn rank_natural(
    q: &query::Query,
    haystacks: &[Haystack],
    read: &ReadOptions,
    max_lines: usize,
) -> anyhow::Result<(Selection, LoadStats, LineScores)> {
    let matcher = TermMatcher::new(&q.terms)?;
    let scan = search::scan_terms(haystacks, &matcher, read);
    let mut df = vec![0usize; q.terms.len()];
    for f in &scan.files {
        for (t, &c) in f.counts.iter().enumerate() {
            if c > 0 {
                df[t] += 1;
            }
        }
    }
    let weights = TermWeights::new(&q.terms, &df, scan.stats.loaded);
    let mut candidates: Vec<(usize, f64)> = scan
        .files
        .iter()
        .map(|f| {
            let key = &haystacks[f.haystack].key;
            (
                f.haystack,
                score::file_score(&f.counts, f.len, scan.mean_len, key, &q.terms, &weights),
            )
        })
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    candidates.truncate(score::CANDIDATE_FILES);
    let mut ranked = score_candidates(&candidates, haystacks, read, &matcher, &weights, q);
    score::sort_files(&mut ranked, |h| haystacks[h].key.clone());
    verbose_ranking(&ranked, haystacks);
    let scores: LineScores = ranked
        .iter()
        .flat_map(|f| {
            f.lines
                .iter()
                .map(|l| ((f.haystack, l.line), l.score.clone()))
        })
        .collect();
    Ok((score::select(&ranked, max_lines), scan.stats, scores))
}

/// Second pass: line scores of the candidate files.
fn score_candidates(
    candidates: &[(usize, f64)],
    haystacks: &[Haystack],
    read: &ReadOptions,
    matcher: &TermMatcher,
    weights: &TermWeights,
    q: &query::Query,
) -> Vec<RankedFile> {
    use rayon::prelude::*;
    candidates
        .par_iter()
        .filter_map(|&(h, file_score)| {
            let doc = load_quiet(&haystacks[h], read)?;
            let lines = search::term_lines(&doc, matcher).ok()?;
            let starts = doc.line_starts();
            let text_of = |n: usize| line_text(&doc, &starts, n);
            let kinds = score::classify_lines(&doc.text);
            let wants_tests = score::query_wants_secondary(&q.terms);
            let scored = score::score_lines(&lines, weights, &kinds, wants_tests, text_of);
            let prior = score::file_prior(&haystacks[h].key, &q.terms);
            Some(RankedFile {
                haystack: h,
                file_score,
                score: score::final_score(file_score, &scored, prior),
                lines: scored,
            })
        })
        .collect()
}

fn line_text<'a>(doc: &'a Document, starts: &[usize], n: usize) -> Option<&'a [u8]> {
    let start = *starts.get(n.checked_sub(1)?)?;
    let end = starts
        .get(n)
        .map_or(doc.text.len(), |&s| s.saturating_sub(1));
    doc.text.get(start..end)
}

fn verbose_ranking(ranked: &[RankedFile], haystacks: &[Haystack]) {
    if !messages::is_verbose() {
        return;
    }
    for f in ranked.iter().take(10) {
        let best = f
            .lines
            .iter()
            .max_by(|a, b| a.score.total.total_cmp(&b.score.total));
        let line = best.map_or(String::new(), |l| {
            format!(
                " best line {} = (terms {:.2} + near {:.2} + merged {:.2}) x {:.2} = {:.2}",
                l.line, l.score.terms, l.score.near, l.score.merged, l.score.factor, l.score.total
            )
        });
        messages::verbose(&format!(
            "rank {:.2} (file {:.2}) {}{line}",
            f.score, f.file_score, haystacks[f.haystack].key
        ));
    }
}

/// Loads a haystack already read once; errors were reported the first time.
fn load_quiet(h: &Haystack, read: &ReadOptions) -> Option<Document> {
    match document::load(h, read) {
        Ok(Loaded::Text(doc)) => Some(doc),
        _ => None,
    }
}

/// Prints the selected lines; returns how many match lines were printed.
fn print(
    plan: &Plan,
    haystacks: &[Haystack],
    found: &Found,
    read: &ReadOptions,
) -> anyhow::Result<usize> {
    let docs: Vec<(Document, &Vec<usize>)> = found
        .selected
        .iter()
        .filter_map(|(h, lines)| load_quiet(&haystacks[*h], read).map(|d| (d, lines)))
        .collect();
    let spotter = if plan.color {
        Some(Spotter::new(&found.q)?)
    } else {
        None
    };
    let files: Vec<FileResult> = docs
        .iter()
        .map(|(doc, lines)| {
            let mut file = FileResult::new(doc, lines.to_vec());
            if let Some(spotter) = &spotter {
                file.spans = report::spans(doc, lines, spotter);
            }
            file
        })
        .collect();
    let opts = GrepOptions {
        before: plan.before,
        after: plan.after,
        max_count: plan.max_count,
        tty: plan.stdout_is_tty,
        color: plan.color,
    };
    if plan.mode == Mode::AnswerOnly {
        return Ok(files.iter().map(|f| count_lines(f, plan.max_count)).sum());
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let printed = grep::write_grep(&mut out, &files, &opts).context("writing results")?;
    out.flush().context("writing results")?;
    Ok(printed)
}

/// `--json`: every selected file's messages, then the summary (always).
/// Returns how many match lines were printed.
fn print_json(
    plan: &Plan,
    haystacks: &[Haystack],
    found: &Found,
    read: &ReadOptions,
) -> anyhow::Result<usize> {
    let spotter = Spotter::new(&found.q)?;
    let opts = JsonOptions {
        before: plan.before,
        after: plan.after,
        max_count: plan.max_count,
    };
    let stdout = std::io::stdout();
    let mut printer = JsonPrinter::new(std::io::BufWriter::new(stdout.lock()))
        .escape_controls(plan.stdout_is_tty);
    let mut printed = 0;
    for (h, lines) in &found.selected {
        let took = Instant::now();
        let Some(doc) = load_quiet(&haystacks[*h], read) else {
            continue;
        };
        if plan.mode == Mode::AnswerOnly {
            printed += count_lines(&FileResult::new(&doc, lines.clone()), plan.max_count);
            continue;
        }
        let score_of = |line: usize| found.scores.get(&(*h, line)).cloned();
        let matches = report::match_lines(&doc, lines, &spotter, &found.q.terms, score_of);
        let file = JsonFile {
            doc: &doc,
            path: report::printed_path(&haystacks[*h]),
            matches,
            elapsed: took.elapsed(),
        };
        printed += printer.file(&file, &opts).context("writing results")?;
    }
    // A model stage writes its `answer` or `signature` message here, before
    // the summary (`JsonPrinter::answer`, `JsonPrinter::signature`).
    let run = report::run_info(&found.q, found.scanned, &found.stats);
    printer
        .summary(found.started.elapsed(), Some(&run))
        .context("writing results")?;
    printer.into_inner().flush().context("writing results")?;
    Ok(printed)
}

fn count_lines(f: &FileResult, max_count: Option<usize>) -> usize {
    max_count.map_or(f.lines.len(), |m| f.lines.len().min(m))
}
