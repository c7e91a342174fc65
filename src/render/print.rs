//! Printing what a search found ([`Found`]): rlmgrep's grep layout (or in
//! its place ripgrep's `-l`/`-c` lists, or nothing for `-q`), or
//! `--json`, each written to any writer (stdout, or a buffer that
//! `--token-budget` measures and an MCP tool result carries); the answer
//! (`--answer`, the model's or an extractive one), the signature fields
//! (`--signature[-json]`) and `--dry-run`'s requests.
//!
//! Owns turning a run's values into the printers' (`grep`, `json`, `answer`,
//! `signature`). Does not decide which lines print (the stages, `rank`,
//! `fallback`) nor fit them to a budget (`results`).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::Context;

use super::found::Found;
use crate::answer::{self, NoModel};
use crate::cli::{Listing, LlmPolicy, Mode, Plan};
use crate::document::{Document, ReadOptions};
use crate::exit::ExitStatus;
use crate::fallback::consult::Report;
use crate::judge::Verdict;
use crate::llm::ShownRequest;
use crate::messages;
use crate::query::{Query, QueryKind};
use crate::render::cut;
use crate::render::grep::{self, FileResult, GrepOptions};
use crate::render::json::kgrep::{Answer as JsonAnswer, AnswerSource};
use crate::render::json::kgrep::{BudgetInfo, JudgeInfo, ModelUsage, Request, RunInfo};
use crate::render::json::{JsonFile, JsonOptions, JsonPrinter};
use crate::render::replace;
use crate::render::{self, answer::AnswerStyle, signature::SignatureFormat};
use crate::report::{self, Spotter};
use crate::signature::Spec;
use crate::walk;

/// Where the results go: stdout a block at a time, or flushed at every line
/// with `--line-buffered` (as rg's).
fn results_out(plan: &Plan) -> Box<dyn Write> {
    let stdout = std::io::stdout().lock();
    if plan.line_buffered {
        Box::new(std::io::LineWriter::new(stdout))
    } else {
        Box::new(std::io::BufWriter::new(stdout))
    }
}

/// Prints the selected lines; returns how many match lines were printed.
pub(crate) fn print(plan: &Plan, found: &Found, read: &ReadOptions) -> anyhow::Result<usize> {
    let mut out = results_out(plan);
    let printed = write_grep_to(&mut out, plan, found, read)?;
    out.flush().context("writing results")?;
    Ok(printed)
}

/// Writes the selected lines grep-style to `out` (nothing for
/// `--answer-only`); returns how many match lines were (or would be) printed.
pub(crate) fn write_grep_to(
    out: &mut dyn Write,
    plan: &Plan,
    found: &Found,
    read: &ReadOptions,
) -> anyhow::Result<usize> {
    write_grep_counted(out, plan, found, read, None)
}

/// How long a natural-language result line may be before it is cut around
/// its matched words ([`cut::LONG_LINE_BYTES`]); `None` for -a, literal and
/// regex queries, which print every byte, as grep does.
pub(crate) fn long_lines(plan: &Plan, q: &Query) -> Option<usize> {
    (matches!(q.kind, QueryKind::Natural) && !plan.text).then_some(cut::LONG_LINE_BYTES)
}

/// [`write_grep_to`], and with `counts` what `--stats` counts of the printed
/// lines, from the same files: matches (the parts `-o` would print), match
/// lines and files, by the printer's own rules.
pub(crate) fn write_grep_counted(
    out: &mut dyn Write,
    plan: &Plan,
    found: &Found,
    read: &ReadOptions,
    counts: Option<&mut render::stats::Stats>,
) -> anyhow::Result<usize> {
    let mut places = Vec::new();
    let docs: Vec<(Document, &Vec<usize>, usize)> = found
        .search
        .selected
        .iter()
        .enumerate()
        .filter_map(|(place, (h, lines))| {
            let doc = found.search.document(*h, read)?;
            places.push(place);
            Some((doc, lines, *h))
        })
        .collect();
    // `-c --include-zero`'s files, each before the file of its place (a
    // file gone since the search was at no place).
    let zeros: Vec<(usize, &[u8])> = found
        .zero_counts
        .iter()
        .map(|(place, name)| (places.partition_point(|p| p < place), name.as_slice()))
        .collect();
    let long_lines = long_lines(plan, &found.q);
    let listing = plan.listing;
    let spotter = if (listing == Listing::Lines
        && (plan.color || long_lines.is_some() || plan.column || plan.max_columns.is_some()))
        || (plan.only_matching && listing != Listing::Files)
        || plan.flat == Some(true)
        || counts.is_some()
        // `-U` matches over lines print, count (`-c`) and cap (`-m`) as
        // runs of lines (`grep::Block`).
        || plan.matching.multiline
    {
        Some(Spotter::new(&found.q)?.reading(read))
    } else {
        None
    };
    // `--replace`: the pattern's own matcher (the plan read the query as a
    // regex), so the groups are the ones the search matched.
    let replacer = match &plan.replace {
        Some(with) => crate::search::matcher::exact(&found.q)?.map(|m| (m, with)),
        None => None,
    };
    let files: Vec<FileResult> = docs
        .iter()
        .map(|(doc, lines, h)| {
            let mut file = FileResult::new(doc, lines.to_vec());
            if let Some(haystack) = found.search.haystacks.get(*h) {
                file.name = haystack.name();
            }
            if let Some(spotter) = &spotter {
                // A replaced line prints its replacements (below), not its
                // matches.
                if replacer.is_none() {
                    file.blocks = report::blocks(doc, lines, spotter);
                    file.every_match = matches!(spotter, Spotter::Exact { .. });
                }
                file.spans = report::spans(doc, lines, spotter, file.blocks.as_deref());
                if plan.only_matching && matches!(spotter, Spotter::Terms(_)) {
                    keep_lines_with_parts(&mut file);
                }
            }
            if let Some((matcher, with)) = &replacer {
                let texts = doc.lines_at(lines.iter().copied());
                let bom = crate::document::skipped_bom(&doc.text, 0, read.sniffs_bom());
                for (n, line) in replace::replace_lines(matcher, texts, with, bom) {
                    file.spans.insert(n, line.spans);
                    file.replaced.insert(n, line.text);
                }
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
        palette: plan.palette.clone(),
        long_lines,
        only_matching: plan.only_matching,
        flat: plan.flat.map(|columns| grep::Flat { columns }),
        trim: plan.trim,
        no_numbers: plan.no_line_number,
        no_paths: plan.no_filename,
        column: plan.column,
        max_columns: plan.max_columns,
        group_separator: plan.group_separator.clone(),
        passthru: plan.matching.passthru,
        byte_offset: plan.byte_offset,
        fields: plan.fields.clone(),
        path_separator: plan.path_separator,
        null: plan.null,
        null_data: plan.null_data,
    };
    if let Some(counts) = counts {
        for file in &files {
            let printed = grep::match_count(file, plan.max_count);
            if printed > 0 {
                counts.files_matched += 1;
                counts.matched_lines += printed;
                counts.matches += grep::part_count(file, plan.max_count);
            }
        }
    }
    // What would print: the exit status's count when nothing is written.
    let count = || {
        files
            .iter()
            .map(|f| grep::match_count(f, plan.max_count))
            .sum()
    };
    if plan.mode == Mode::AnswerOnly {
        return Ok(count());
    }
    match listing {
        Listing::Lines => grep::write_grep(out, &files, &opts),
        Listing::Files | Listing::Counts => {
            let counts = listing == Listing::Counts;
            grep::write_list(out, &files, &opts, counts, &zeros)
        }
        // The pipeline lists these from a walk (`files_without_match`); what
        // the search found prints nothing.
        Listing::Quiet | Listing::FilesWithout => Ok(count()),
    }
    .context("writing results")
}

/// `-o` on a natural-language result: a line printed for its rank (the line
/// that defines the best unit, a line the model claimed) may hold none of
/// the query's words, so `-o` has no part of it to print. Such a line is
/// no match line here: it gets no context lines of its own, counts for
/// neither `-m` nor the exit status, and a file left with none prints no
/// heading (`grep::FileResult::lines`), as a file with no match prints none. A literal or regex
/// query's lines are rg's, which prints a line without a match whole.
fn keep_lines_with_parts(file: &mut FileResult<'_>) {
    let spans = &file.spans;
    file.lines
        .retain(|n| spans.get(n).is_some_and(|parts| !parts.is_empty()));
}

/// `--files`: the names ([`walk::Haystack::name`]) of the files a search
/// would read, as `-l` prints paths (nothing for `-q`).
pub(crate) fn print_paths(plan: &Plan, names: &[Vec<u8>]) -> anyhow::Result<()> {
    if plan.listing == Listing::Quiet {
        return Ok(());
    }
    let opts = GrepOptions {
        tty: plan.stdout_is_tty,
        color: plan.color,
        palette: plan.palette.clone(),
        path_separator: plan.path_separator,
        null: plan.null,
        // `--files-without-match` ends its paths as rg's searches end lines;
        // `--files` lists with `\n`, as rg's does.
        null_data: plan.null_data && !plan.files,
        // `-c --include-zero`'s `:0` lines lose their path as the counts do.
        no_paths: plan.no_filename,
        ..GrepOptions::default()
    };
    let mut out = results_out(plan);
    grep::write_paths(&mut out, names.iter().map(Vec::as_slice), &opts)
        .and_then(|_| out.flush())
        .context("writing results")
}

/// `--json`: every selected file's messages, then the summary (always).
/// Returns how many match lines were printed.
pub(crate) fn print_json(plan: &Plan, found: &Found, read: &ReadOptions) -> anyhow::Result<usize> {
    write_json_to(&mut results_out(plan), plan, found, read)
}

/// Writes `--json` to `out`; returns how many match lines were printed.
pub(crate) fn write_json_to(
    out: &mut dyn Write,
    plan: &Plan,
    found: &Found,
    read: &ReadOptions,
) -> anyhow::Result<usize> {
    let spotter = Spotter::new(&found.q)?.reading(read);
    let opts = JsonOptions {
        before: plan.before,
        after: plan.after,
        max_count: plan.max_count,
        no_line_numbers: plan.no_line_number,
        passthru: plan.matching.passthru,
    };
    // An inverted search's context lines are the ones that match.
    let context_matches =
        plan.matching.invert && (plan.before > 0 || plan.after > 0 || plan.matching.passthru);
    // `-q`: nothing but, with `--stats`, the summary (rg's rule).
    let quiet = plan.listing == Listing::Quiet;
    let mut printer = JsonPrinter::new(out)
        .escape_controls(plan.stdout_is_tty)
        .silent(quiet);
    let mut printed = 0;
    for (h, lines) in &found.search.selected {
        let took = Instant::now();
        let Some(doc) = found.search.document(*h, read) else {
            continue;
        };
        if plan.mode == Mode::AnswerOnly {
            printed += grep::match_count(&FileResult::new(&doc, lines.clone()), plan.max_count);
            continue;
        }
        let given = walk::as_given(&found.search.haystacks[*h], &found.given, &found.cwd);
        let score_of = |line: usize| found.search.scores.get(&(*h, line)).cloned();
        let mut matches = report::match_messages(&doc, lines, &spotter, &found.q.terms, score_of);
        report::mark_chosen(&mut matches, |n| found.chosen.contains(&(*h, n)));
        if let Some(f) = found.search.ranked.iter().find(|f| f.haystack == *h) {
            report::mark_units(&mut matches, &f.units);
        }
        let file = JsonFile {
            doc: &doc,
            path: report::json_path(&found.search.haystacks[*h], given.as_deref()),
            matches,
            elapsed: took.elapsed(),
            runs: spotter.multi_line(),
            context_submatches: if context_matches {
                inverted_context(&doc, lines, &spotter)
            } else {
                BTreeMap::new()
            },
        };
        printed += printer.file(&file, &opts).context("writing results")?;
    }
    if quiet && !plan.stats {
        return Ok(printed);
    }
    if let Some(answer) = found.answer.as_ref().filter(|_| !quiet) {
        printer.answer(answer).context("writing results")?;
    }
    let run = run_info(found);
    printer
        .summary(found.started.elapsed(), Some(&run))
        .context("writing results")?;
    printer.into_inner().flush().context("writing results")?;
    Ok(printed)
}

/// The submatches of the lines of `doc` that `lines` (an inverted search's
/// match lines) leave out: the lines that match, printed as context.
fn inverted_context(doc: &Document, lines: &[usize], spotter: &Spotter) -> grep::Spans {
    let mut inverted = lines.to_vec();
    inverted.sort_unstable();
    let matching: Vec<usize> = (1..=doc.line_count())
        .filter(|n| inverted.binary_search(n).is_err())
        .collect();
    report::spans(doc, &matching, spotter, None)
}

/// `--dry-run --json`: one `request` message per request that would be sent
/// (`stage` names the call), then the summary; no match lines.
pub(crate) fn print_json_requests(
    plan: &Plan,
    found: &Found,
    requests: &[(&'static str, Vec<ShownRequest>)],
) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut printer = JsonPrinter::new(std::io::BufWriter::new(stdout.lock()))
        .escape_controls(plan.stdout_is_tty);
    for (stage, shown) in requests {
        for r in shown {
            let request = Request {
                stage,
                method: r.method,
                url: r.url.clone(),
                headers: r
                    .headers
                    .iter()
                    .map(|(n, v)| (n.clone(), serde_json::Value::String(v.clone())))
                    .collect(),
                body: r.body.clone(),
                fallback: r.fallback,
            };
            printer.request(&request).context("writing results")?;
        }
    }
    let run = run_info(found);
    printer
        .summary(found.started.elapsed(), Some(&run))
        .context("writing results")?;
    printer.into_inner().flush().context("writing results")?;
    Ok(())
}

/// `--dry-run`: the requests as text on stdout, each stage headed when there
/// are two.
pub(crate) fn print_requests(requests: &[(&'static str, Vec<ShownRequest>)]) -> anyhow::Result<()> {
    let mut out = String::new();
    let expanding = requests.len() > 1;
    for (stage, shown) in requests {
        match *stage {
            "expansion" => out.push_str("# 1. expansion: the concepts behind the query\n"),
            _ if expanding => {
                out.push_str("# 2. selection (its excerpts would follow the expansion's search)\n")
            }
            _ => {}
        }
        for request in shown {
            out.push_str(&crate::llm::dry_run::render(request));
        }
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(out.as_bytes())?;
    lock.flush()?;
    Ok(())
}

/// The summary's `data.kgrep`: the query, file counts, the judge and the model.
pub(crate) fn run_info(found: &Found) -> RunInfo {
    let mut run = report::run_info(&found.q, found.search.scanned, &found.search.stats);
    run.judge = found.search.judgement.as_ref().map(|j| JudgeInfo {
        sufficient: j.verdict == Verdict::Sufficient,
        coverage: j.coverage,
        confidence: j.confidence,
        diversity: j.diversity as f64,
        reason: format!("{}: {}", j.verdict.name(), j.reason),
    });
    if let Some(m) = found.model.as_ref().filter(|m| m.calls > 0) {
        run.model = Some(ModelUsage {
            calls: u64::from(m.calls),
            prompt_tokens: m.usage.prompt_tokens,
            completion_tokens: m.usage.completion_tokens,
        });
        run.concepts_learned = Some(found.learned.clone());
    }
    run.budget = found.left_out.map(|left| BudgetInfo {
        max_tokens: left.max_tokens as u64,
        lines_left_out: left.lines as u64,
        files_left_out: left.files as u64,
        answer_cut: left.answer_cut,
    });
    run
}

/// Prints the signature fields (exit 0), or says why there are none (exit 2).
pub(crate) fn signature_output(
    plan: &Plan,
    spec: &Spec,
    report: &Report,
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
    render::signature::write_signature(&mut out, format, spec, fields)
        .context("writing results")?;
    out.flush().context("writing results")?;
    Ok(ExitStatus::Matched)
}

/// The answer section on stderr, laid out as rlmgrep's rich console does; its
/// header coloured as `--color` says for stderr ([`Plan::answer_color`]).
pub(crate) fn write_answer(text: &str, plan: &Plan) -> anyhow::Result<()> {
    let style = AnswerStyle {
        width: render::answer::console_width(
            std::env::var("COLUMNS").ok().as_deref(),
            render::answer::terminal_columns(),
        ),
        color: plan.answer_color,
    };
    let mut err = std::io::stderr().lock();
    render::answer::write_answer(&mut err, text, &style).context("writing the answer")?;
    Ok(())
}

/// `--answer`: the model's answer, or offline an extractive one (with a note
/// on stderr saying why).
pub(crate) fn answer_of(
    plan: &Plan,
    found: &Found,
    report: &Report,
    read: &ReadOptions,
) -> JsonAnswer {
    if report.answered {
        return JsonAnswer {
            text: report.answer.clone().unwrap_or_default(),
            source: AnswerSource::Model,
            model: plan.model.model.clone(),
        };
    }
    let text = {
        let why = if report.failed || report.calls > 0 {
            NoModel::NoReply
        } else if plan.llm == LlmPolicy::Off {
            NoModel::Disabled
        } else {
            NoModel::NotConfigured
        };
        if let Some(note) = answer::offline_answer_note(why) {
            messages::line(&note);
        }
        answer::extractive_answer(&found.q.raw, &found.search.printed_lines(read), why)
    };
    JsonAnswer {
        text,
        source: AnswerSource::Extractive,
        model: None,
    }
}
