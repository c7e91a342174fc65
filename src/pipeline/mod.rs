//! The stages wired together: plan, search (the walk runs inside it), rank,
//! print. The flags arrive parsed (`crate::run`, which also starts the MCP
//! front end instead when asked).
//!
//! Owns the order of the stages and the stderr summary lines; every decision
//! about what matches, how it ranks or how it looks belongs to a stage module:
//! `rank` (the search of each kind of query), `fallback::consult` (the model
//! stage, which `model` wires), `learn::step` (learning), `render::print`
//! (the printers). `input` reads stdin and the paths, `notes` says on stderr
//! how a query was read, `commands` runs the commands that are not searches.
//! [`find`] is the entry point of every front end: it runs the stages and
//! returns [`Results`], which the command line prints and the MCP server
//! (`crate::mcp`) turns into tool results.

mod commands;
mod input;
mod model;
mod notes;

pub use crate::render::results::{Budget, FileView, Fitted, LineView, Results};

pub use crate::fallback::consult::DEFAULT_ITERATIONS;

use crate::paths;
use crate::render::found::Found;
use crate::render::print::{self as output, answer_of, signature_output, write_answer};
pub use commands::clap_exit;
use commands::{generate, init_config, pcre2_version, thesaurus_command, type_list};
use input::{gather, given_paths, process_env, walk_options, Gathered};
use model::signature_spec;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;

use crate::cli::{self, Flags, Input, Listing, LlmPolicy, Mode, Plan};
use crate::config::{self, ConfigPaths};
use crate::document::preprocess::Preprocessor;
use crate::document::ReadOptions;
use crate::exit::ExitStatus;
use crate::learn;
use crate::messages;
use crate::progress::Spinner;
use crate::query::{self, QueryKind};
use crate::rank::{cap_per_file, cap_total, exact, natural};
use crate::search::{Corpus, LoadStats};
use crate::session::Session;
use crate::thesaurus::{self, LayerPaths, Thesaurus};
use crate::walk::{PathOrder, WalkOptions};

/// Runs the command the parsed flags name (not `--mcp`: the front ends are
/// chosen by `crate::run`).
pub fn run(flags: Flags) -> anyhow::Result<ExitStatus> {
    if let Some(kind) = flags.generate {
        return generate(kind);
    }
    if flags.type_list {
        return type_list(&flags);
    }
    if flags.pcre2_version {
        return pcre2_version();
    }
    let dirs = paths::Env::from_process();
    let config_paths = ConfigPaths::from_env(&dirs);
    if flags.init_config {
        return init_config(&config_paths);
    }
    let config = config::load(&config_paths);
    if let Some(command) = flags.thesaurus_command() {
        return thesaurus_command(&command, &flags, &config, &dirs);
    }
    let env = process_env(dirs);
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

/// Runs a search plan and prints its results.
pub fn search(plan: &Plan) -> anyhow::Result<ExitStatus> {
    if plan.threads > 0 {
        // `-j`: the pool that reads and ranks files, at most one thread a
        // core (its work is the CPU's). Building it fails only if it exists
        // already (a second search in one process), which then keeps its
        // size: nothing to report.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(plan.threads.min(cores))
            .build_global();
    }
    if plan.files {
        return list_files(plan);
    }
    if plan.nothing_to_match {
        return Ok(ExitStatus::NoMatch);
    }
    if messages::is_verbose() {
        crate::document::count_reads();
    }
    match find(plan, &Session::one_shot())? {
        Finding::Results(results) => {
            let status = print(plan, *results);
            if messages::is_verbose() {
                notes::reads(&crate::document::counted_reads());
            }
            status
        }
        Finding::NothingReadable(results) => {
            if plan.json {
                output::print_json(plan, &results.found, &results.read)?;
            }
            Ok(ExitStatus::Error)
        }
        Finding::Done(status) => Ok(status),
    }
}

/// `--files`: the files the walk gives, one per line as headings are
/// written, nothing searched. Exit 0 if there is one, 1 if none, 2 after an
/// error (a missing path, reported as any search reports it).
fn list_files(plan: &Plan) -> anyhow::Result<ExitStatus> {
    let paths = match gather(plan)? {
        Some(Gathered::Paths(paths)) => paths,
        Some(Gathered::Stdin(_)) | None => return Ok(ExitStatus::Error),
    };
    let cwd = cwd()?;
    let listing = crate::walk::Listing::walk(&paths, &walk_options(plan), &cwd);
    let mut haystacks: Vec<_> = (0..listing.len()).filter_map(|i| listing.get(i)).collect();
    // `--sort`/`--sortr`: rg's sorted walk, by path or by a time, not the
    // listing's bytewise order (`a b/g` came before `a/f`).
    if let Some(order) = PathOrder::of(plan.sort, &paths, &cwd) {
        haystacks = order.sort(haystacks);
    }
    let names: Vec<Vec<u8>> = haystacks.iter().map(|h| h.name().into_owned()).collect();
    output::print_paths(plan, &names)?;
    Ok(ExitStatus::of_search(
        !names.is_empty(),
        messages::errored(),
    ))
}

/// `--files-without-match`: the files the search walked that hold no hit
/// (no match; no query word for natural language), by path, as rg lists
/// them; under `--sort`/`--sortr` in rg's sorted walk order, as `--files`
/// lists them. `--stats` then counts what the search found, as rg's does.
fn files_without_match(
    plan: &Plan,
    found: &Found,
    read: &ReadOptions,
) -> anyhow::Result<ExitStatus> {
    let searching = found.started.elapsed();
    let hit = found
        .search
        .haystacks
        .iter()
        .map(|h| h.key.as_str())
        .collect();
    let mut haystacks = searched_besides(plan, found, &hit)?;
    if let Some(order) = PathOrder::of(plan.sort, &found.given, &found.cwd) {
        haystacks = order.sort(haystacks);
    }
    let names: Vec<Vec<u8>> = haystacks.iter().map(|h| h.name().into_owned()).collect();
    output::print_paths(plan, &names)?;
    if plan.stats {
        let mut block = crate::render::stats::Stats::default();
        output::write_grep_counted(&mut std::io::sink(), plan, found, read, Some(&mut block))?;
        write_stats(found, block, searching)?;
    }
    Ok(ExitStatus::of_search(
        !names.is_empty(),
        messages::errored(),
    ))
}

/// Writes `--stats`' block after the results: `block`'s counts of what
/// printed, with what the search read and the time it took (`searching`)
/// and the whole run's.
fn write_stats(
    found: &Found,
    mut block: crate::render::stats::Stats,
    searching: std::time::Duration,
) -> anyhow::Result<()> {
    block.files_searched = found.search.stats.loaded;
    block.bytes_searched = found.search.stats.bytes;
    block.searching = searching;
    block.total = found.started.elapsed();
    let mut out = std::io::stdout().lock();
    crate::render::stats::write_stats(&mut out, &block)
        .and_then(|()| out.flush())
        .context("writing results")
}

/// The files the search read (by path) but those in `besides`: a second,
/// quiet walk of the same paths, since the search keeps only the files with
/// hits. A file the search skipped (binary without `-a`, unconvertible,
/// unreadable: `LoadStats::skipped_keys`) is left out, as rg leaves it out of
/// its lists. Piped stdin gives none.
fn searched_besides(
    plan: &Plan,
    found: &Found,
    besides: &std::collections::HashSet<&str>,
) -> anyhow::Result<Vec<crate::walk::Haystack>> {
    let paths = match &plan.input {
        Input::Stdin => return Ok(Vec::new()),
        _ if found.given.is_empty() => vec![PathBuf::from(".")],
        _ => found.given.clone(),
    };
    let skipped = &found.search.stats.skipped_keys;
    let listing = crate::walk::Listing::walk(&paths, &walk_options(plan).quiet(), &cwd()?);
    Ok((0..listing.len())
        .filter_map(|i| listing.get(i))
        .filter(|h| !besides.contains(h.key.as_str()))
        .filter(|h| skipped.binary_search(&h.key).is_err())
        .collect())
}

/// `-c --include-zero`: the files searched with no count to print
/// ([`Found::zero_counts`]): under `--sort`/`--sortr` (by path or by a
/// time) each where rg's sorted walk puts it among the counted files
/// (`found`'s selection is sorted already), otherwise all after them.
fn zero_counts(plan: &Plan, found: &Found) -> anyhow::Result<Vec<(usize, Vec<u8>)>> {
    let haystacks = &found.search.haystacks;
    let selected = &found.search.selected;
    let counted = selected
        .iter()
        .filter(|(_, lines)| !lines.is_empty())
        .filter_map(|&(h, _)| haystacks.get(h))
        .map(|h| h.key.as_str())
        .collect();
    let zero = searched_besides(plan, found, &counted)?;
    let Some(order) = PathOrder::of(plan.sort, &found.given, &found.cwd) else {
        let named = |h: crate::walk::Haystack| (selected.len(), h.name().into_owned());
        return Ok(zero.into_iter().map(named).collect());
    };
    let keys: Vec<_> = selected
        .iter()
        .map(|&(h, _)| haystacks.get(h).map(|h| order.key(h)))
        .collect();
    Ok(order
        .sort(zero)
        .into_iter()
        .map(|z| {
            let key = order.key(&z);
            // The selection's files that sort before it (one that is no
            // haystack sorts last, as `Searched::sort_selected` puts it).
            let place = keys.partition_point(|k| {
                k.as_ref()
                    .is_some_and(|k| order.cmp(k, &key) == std::cmp::Ordering::Less)
            });
            (place, z.name().into_owned())
        })
        .collect())
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
    let reading = if !plan.patterns.is_empty() {
        query::read_any(&plan.patterns, plan.fixed_strings)
    } else if plan.replace.is_some()
        || plan.matching.pcre2
        || plan.matching.invert
        || plan.matching.passthru
        || plan.null_data
    {
        // `--replace` replaces matches, `-P` names a regex engine,
        // `--invert-match` prints what does not match, `--passthru`
        // everything and `--null-data` lines no ranking reads: the pattern
        // is a regex (or text with -F), as ripgrep reads it, never natural
        // language.
        query::read_pattern(&plan.query, plan.fixed_strings)
    } else {
        query::read_as_asked(&plan.query, plan.fixed_strings, &plan.matching)
    };
    // The walk runs while the embedded thesaurus is built beside it.
    let (listing, thesaurus) = match (&input, reading.kind()) {
        (Gathered::Paths(paths), QueryKind::Natural) => {
            let (listing, thesaurus) =
                session.thesaurus_beside(&layer_paths(plan, &cwd, true), || {
                    let walk = Instant::now();
                    let listing =
                        crate::search::list(walking(paths, &walk_opts, &cwd)).into_owned();
                    crate::messages::verbose(&format!(
                        "time: walk {:.1} ms ({} files)",
                        walk.elapsed().as_secs_f64() * 1000.0,
                        listing.len()
                    ));
                    listing
                });
            (Some(listing), Some(thesaurus))
        }
        _ => (None, None),
    };
    let corpus = match (&input, &listing) {
        (_, Some(listing)) => Corpus::Listed(listing),
        (Gathered::Stdin(list), None) => Corpus::List(list.as_slice()),
        (Gathered::Paths(paths), None) => walking(paths, &walk_opts, &cwd),
    };
    let natural = matches!(reading.kind(), QueryKind::Natural);
    // `--binary` is rg's way of searching a binary file's lines, for a
    // literal or regex; a natural-language query reads such a file as text.
    let mut read =
        ReadOptions::with_cache(plan.text || (plan.binary && natural), session.conversions());
    read.binary = input::binary_reading(plan).filter(|_| !natural);
    read.null_data = plan.null_data;
    read.decoding = plan.decoding;
    read.search_zip = plan.search_zip;
    // A file that cannot be read is named as rg names it.
    read.naming = Arc::new(crate::walk::Naming {
        given: given_paths(plan, &input),
        cwd: cwd.clone(),
    });
    if let Some(command) = &plan.pre {
        // The globs were checked when the plan was made.
        let pre = Preprocessor::new(command.clone(), &plan.pre_globs, &cwd)?;
        read.pre = Some(Arc::new(pre));
    }
    // A binary file's message names the offset of a NUL in the file.
    read.offsets = plan.prints_file_places() || read.binary.is_some();
    if plan.no_messages {
        read = read.quiet();
    }
    let thesaurus = match (thesaurus, reading.kind()) {
        (Some(thesaurus), _) => thesaurus,
        (None, QueryKind::Natural) => load_thesaurus(session, plan, &cwd, true),
        (None, _) => {
            thesaurus::check_named(&plan.thesauri);
            Thesaurus::new()
        }
    };
    let mut q = reading.analyze(&thesaurus);
    q.matching = plan.matching;
    verbose_query(&q);
    let learned_used = learn::learned_in_query(&q.terms, &thesaurus);
    notes::learned_used(&learned_used);
    let searched = match &q.kind {
        QueryKind::Natural => natural::rank(
            &mut q,
            corpus,
            &read,
            natural::Limits::of(plan),
            &plan.judge,
        ),
        QueryKind::Literal(_) | QueryKind::Regex(_) => {
            // `-q` stops at the first match, unless `--stats` counts them all
            // (as rg's does).
            exact::search(
                &q,
                corpus,
                &read,
                plan.listing == Listing::Quiet && !plan.stats,
            )
        }
    };
    spinner.finish();
    let mut searched = searched?;
    searched.context = plan.before.max(plan.after);
    if plan.features && q.kind == QueryKind::Natural {
        let rows = natural::features(&q, &searched);
        let mut out = std::io::stdout().lock();
        crate::render::features::write_features(
            &mut out,
            crate::score::features::NAMES,
            &crate::score::unit_features::NAMES,
            &rows,
        )?;
        return Ok(Finding::Done(ExitStatus::Matched));
    }
    let wordless = match &q.kind {
        // A query of stop words searched as its text is capped; one asked for
        // as text (`-F`, or whole lines with `-x`) is every match, as `rg -F`
        // and `rg -x` print.
        QueryKind::Literal(lit)
            if !plan.fixed_strings && !plan.matching.line && query::is_wordless(&q.raw, lit) =>
        {
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
        learned: Vec::new(),
        zero_counts: Vec::new(),
    };
    if !matches!(input, Gathered::Stdin(_)) {
        // `-q` is for a script's `if`: no counts unless -v asks.
        let counts = plan.listing != Listing::Quiet || plan.verbose;
        summary(found.search.scanned, &found.search.stats, counts);
        if found.search.stats.loaded == 0 {
            messages::line(&notes::no_readable_files(&found.search.stats));
            return Ok(Finding::NothingReadable(Box::new(Results {
                found,
                read,
                spec: None,
            })));
        }
    }
    if let Some(total) = wordless {
        messages::line(&notes::wordless(&found.q.raw, total, plan.max_lines));
    }
    notes::how_it_was_read(plan, &found.q, &found.search);
    if let Some(j) = &found.search.judgement {
        messages::verbose(&j.summary());
    }
    let spec = match signature_spec(plan) {
        Ok(spec) => spec,
        Err(status) => return Ok(Finding::Done(status)),
    };
    let cx = model::Context {
        plan,
        corpus,
        cwd: &cwd,
        read: &read,
        spec: spec.as_ref(),
    };
    let Some(report) = model::run(&cx, &mut found)? else {
        return Ok(Finding::Done(ExitStatus::Matched));
    };
    let model_chose = report.answered && !report.kept_offline;
    notes::words_no_file_holds(plan, &found.q, &found.search, model_chose);
    let runs = plan.max_count.is_some()
        && plan.matching.multiline
        && crate::search::matcher::exact(&found.q)?
            .is_some_and(|m| crate::search::matcher::matches_over_lines(&m, &found.q.matching));
    cap_per_file(&mut found.search.selected, plan.max_count, runs);
    let learned_file = match learn::target_path(plan.learn_to, &cwd, &plan.dirs) {
        Ok(path) => Some(path),
        // Said when there was a model to learn from (the thesaurus layers
        // already said why a linked `.kgrep` is skipped).
        Err(err) => {
            if plan.learn && report.calls > 0 {
                messages::warn(&format!("{err:#}; not learning"));
            }
            None
        }
    };
    if let Some(path) = learned_file.as_deref().filter(|_| plan.learn) {
        let step = learn::step::Step {
            path,
            asked: &plan.query,
            model: plan.model.model.as_deref(),
            query: &found.q,
            results: &found.search,
            chosen: &found.chosen,
            read: &read,
            used: &learned_used,
            settle: model::settling(plan),
            cwd: &cwd,
        };
        // Every layer in full: a synonym any concept has is not re-pointed.
        let known = if step.needs_thesaurus(&report) {
            load_thesaurus(session, plan, &cwd, false)
        } else {
            Thesaurus::new()
        };
        found.learned = learn::step::learn(&step, &report, &known);
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
    if plan.listing == Listing::FilesWithout {
        return files_without_match(plan, &results.found, &results.read);
    }
    let found = &results.found;
    if let Some(order) = PathOrder::of(plan.sort, &found.given, &found.cwd) {
        results.found.search.sort_selected(&order);
    }
    if plan.include_zero && plan.listing == Listing::Counts {
        results.found.zero_counts = zero_counts(plan, &results.found)?;
    }
    // A list of paths or counts (`-l`, `-c`, `-q`) is not fitted to a budget:
    // it is a few bytes a file, and a cut list would read as fewer matches.
    // (`--json` lists nothing: its listing is lines, or `-q`'s silence.)
    let budget = plan.token_budget.filter(|_| plan.listing == Listing::Lines);
    let fitted = match budget {
        Some(max_tokens) => {
            let budget = Budget {
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
            write_answer(&answer.text, plan)?;
        }
    }
    if plan.explain {
        for line in results.explain() {
            messages::line(&line);
        }
    }
    // `--stats` counts what the printer prints and the bytes printed: the
    // results go through a buffer.
    let searching = found.started.elapsed();
    let stats = plan.stats && !plan.json;
    let mut block = crate::render::stats::Stats::default();
    let printed = match fitted {
        Some(fitted) => {
            if let Some(note) = &fitted.note {
                messages::line(note);
            }
            if stats {
                // The budget rendered it already; count the lines it kept.
                let counts = Some(&mut block);
                output::write_grep_counted(&mut std::io::sink(), plan, found, read, counts)?;
            }
            block.bytes_printed = write_stdout(&fitted.bytes)?;
            fitted.printed
        }
        None if plan.json => output::print_json(plan, found, read)?,
        None if stats => {
            let mut bytes = Vec::new();
            let counts = Some(&mut block);
            let printed = output::write_grep_counted(&mut bytes, plan, found, read, counts)?;
            let written = write_stdout(&bytes)?;
            // rg 13 counts the bytes of its lines only: a list of paths or
            // counts (`-l`, `-c`, `--count-matches`) is `0 bytes printed`.
            if plan.listing == Listing::Lines {
                block.bytes_printed = written;
            }
            printed
        }
        None => output::print(plan, found, read)?,
    };
    if stats {
        write_stats(found, block, searching)?;
    }
    // `-q` asks only whether something matched: a match answers it, whatever
    // else failed (ripgrep's rule).
    if plan.listing == Listing::Quiet && printed > 0 {
        return Ok(ExitStatus::Matched);
    }
    Ok(ExitStatus::of_search(printed > 0, messages::errored()))
}

/// Writes output made in a buffer to stdout; returns its length.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<usize> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .context("writing results")?;
    Ok(bytes.len())
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
    session.thesaurus(&layer_paths(plan, cwd, focused))
}

/// Where [`load_thesaurus`] finds each layer.
fn layer_paths(plan: &Plan, cwd: &std::path::Path, focused: bool) -> LayerPaths {
    let given = match &plan.input {
        Input::Paths(paths) => paths.as_slice(),
        _ => &[],
    };
    LayerPaths {
        builtin: plan.builtin_thesaurus,
        learned: plan.dirs.learned_thesaurus(),
        project_roots: thesaurus::project_roots(cwd, given),
        extra: plan.thesauri.clone(),
        focus: focused.then(|| query::focus_words(&plan.query)),
    }
}

/// rlmgrep's summary line, `Scanned N files. Loaded M.` (+ ` Skipped K.`),
/// (when `counts`), then one `skip FILE: why` warning per document that could
/// not be converted.
fn summary(scanned: usize, stats: &LoadStats, counts: bool) {
    let mut line = format!("Scanned {scanned} files. Loaded {}.", stats.loaded);
    if stats.skipped > 0 {
        line.push_str(&format!(" Skipped {}.", stats.skipped));
    }
    if counts {
        messages::line(&line);
    }
    for skip in &stats.skips {
        messages::warn(skip);
    }
}

/// `-v`'s words for `-i`, `-S`, `-w` and `-x` after an exact query.
fn matching_note(m: query::Matching) -> String {
    let case = if m.ignore_case {
        ", ignoring case"
    } else if m.smart_case {
        ", smart case"
    } else {
        ""
    };
    let extent = if m.line {
        ", whole lines"
    } else if m.word {
        ", whole words"
    } else {
        ""
    };
    format!("{case}{extent}")
}

fn verbose_query(q: &query::Query) {
    if !messages::is_verbose() {
        return;
    }
    match &q.kind {
        QueryKind::Literal(lit) => messages::verbose(&format!(
            "query: literal {lit:?}{}",
            matching_note(q.matching)
        )),
        QueryKind::Regex(re) => {
            messages::verbose(&format!("query: regex {re:?}{}", matching_note(q.matching)))
        }
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
