//! Settled consultations (`learn::settled`), wired into a run: before a model
//! call, a query whose consulted answer still holds is answered with it, with
//! no call; after a consultation that got a reply, what the run printed is
//! kept as the query's answer.
//!
//! Owns when a run replays or records, and turning a record into printed
//! lines. The record, its key and the file checks are `learn::settled`'s.

use std::path::{Path, PathBuf};

use super::learning::LearnRun;
use super::{model, Found};
use crate::cli::{LlmPolicy, Mode, Plan};
use crate::learn::{self, settled};
use crate::messages;
use crate::query::QueryKind;
use crate::rank::Selection;
use crate::search::Corpus;
use crate::walk::Source;

/// Whether settling applies to a run: kgrep's own fallback (`--rlm` and
/// `llm = "always"` ask every time, as rlmgrep does), a mode that prints lines
/// or a written answer (a signature's fields are asked for each time), a
/// natural-language query.
fn applies(plan: &Plan, found: &Found) -> bool {
    plan.llm == LlmPolicy::Auto
        && !plan.dry_run
        && matches!(plan.mode, Mode::Grep | Mode::Answer | Mode::AnswerOnly)
        && found.q.kind == QueryKind::Natural
}

/// A file's path as the run reads it (a relative one under `cwd`).
fn real_path(source: &Source, cwd: &Path) -> Option<PathBuf> {
    match source {
        Source::Path(p) if p.is_absolute() => Some(p.clone()),
        Source::Path(p) => Some(cwd.join(p)),
        Source::Stdin(_) => None,
    }
}

/// Answers the query with its settled consultation when that still holds:
/// every file it printed is searched again and unchanged. `found` then holds
/// the lines it printed (the model's chosen ones marked), and the report
/// says so; `None` when there is none, or it no longer holds.
pub(super) fn replay(
    plan: &Plan,
    corpus: Corpus<'_>,
    cwd: &Path,
    found: &mut Found,
) -> Option<model::Report> {
    if !applies(plan, found) {
        return None;
    }
    let path = learn::target_path(plan.learn_to, cwd, &plan.dirs)?;
    let key = settled::key(&found.q, plan.max_lines)?;
    let record = match settled::lookup(&path, &key) {
        Ok(record) => record?,
        Err(err) => {
            messages::verbose(&format!("settled: cannot read {}: {err}", path.display()));
            return None;
        }
    };
    let wants_answer = matches!(plan.mode, Mode::Answer | Mode::AnswerOnly);
    if wants_answer && record.answer.is_none() {
        return None;
    }
    if let Some(changed) = record.files.iter().find(|f| !f.is_unchanged()) {
        messages::verbose(&format!(
            "settled: the answer of {} no longer holds: {} changed",
            record.date,
            changed.path.display()
        ));
        return None;
    }
    // Each of its files among the files searched now, by canonical path.
    let listing = crate::search::list(corpus);
    let mut haystacks = Vec::with_capacity(record.files.len());
    for file in &record.files {
        let name = file.path.file_name()?;
        let found_now = (0..listing.len())
            .filter_map(|i| listing.get(i))
            .filter(|h| matches!(&h.source, Source::Path(p) if p.file_name() == Some(name)))
            .find(|h| {
                real_path(&h.source, cwd)
                    .and_then(|p| p.canonicalize().ok())
                    .is_some_and(|p| p == file.path)
            });
        let Some(h) = found_now else {
            messages::verbose(&format!(
                "settled: the answer of {} does not hold here: {} is not searched",
                record.date,
                file.path.display()
            ));
            return None;
        };
        haystacks.push(h);
    }
    let mut selected: Selection = Vec::new();
    let mut chosen = Vec::new();
    for (file, haystack) in record.files.iter().zip(haystacks) {
        let h = match found
            .search
            .haystacks
            .iter()
            .position(|x| x.key == haystack.key)
        {
            Some(h) => h,
            None => {
                found.search.haystacks.push(haystack);
                found.search.haystacks.len() - 1
            }
        };
        chosen.extend(file.chosen.iter().map(|&n| (h, n)));
        selected.push((h, file.lines.clone()));
    }
    found.search.selected = selected;
    found.chosen = chosen;
    let files = record.files.len();
    Some(model::Report {
        answered: true,
        fused: true,
        answer: record.answer,
        note: Some(format!(
            "settled: the model was consulted on this query on {}, and the {files} file{} its answer rests on are unchanged",
            record.date,
            if files == 1 { "" } else { "s" }
        )),
        ..model::Report::default()
    })
}

/// Keeps what a run printed after a consultation that got a reply (whatever
/// it said) as the query's settled answer. Nothing is kept when the call
/// failed, nothing was printed, or a printed file cannot be read back.
pub(super) fn record(run: &LearnRun<'_>, found: &Found, report: &model::Report) {
    let plan = run.plan;
    if !applies(plan, found) || report.calls == 0 || report.failed {
        return;
    }
    let (Some(path), Some(key)) = (
        learn::target_path(plan.learn_to, run.cwd, &plan.dirs),
        settled::key(&found.q, plan.max_lines),
    ) else {
        return;
    };
    let mut files = Vec::new();
    for (h, lines) in &found.search.selected {
        let Some(real) = found
            .search
            .haystacks
            .get(*h)
            .and_then(|x| real_path(&x.source, run.cwd))
        else {
            return;
        };
        let chosen: Vec<usize> = found
            .chosen
            .iter()
            .filter(|(c, _)| c == h)
            .map(|&(_, n)| n)
            .collect();
        let Some(file) = settled::File::of(&real, lines.clone(), chosen) else {
            return;
        };
        files.push(file);
    }
    if files.is_empty() {
        return;
    }
    let answer = if matches!(plan.mode, Mode::Answer | Mode::AnswerOnly) && report.answered {
        report.answer.clone()
    } else {
        None
    };
    let record = settled::Settled {
        // Kept on disk: secrets pasted into a query are not.
        query: crate::llm::redact::redact(&plan.query).text,
        date: learn::store::now_utc(),
        files,
        answer,
    };
    match settled::record(&path, &key, &record) {
        Ok(()) => messages::verbose(&format!(
            "settled: the answer printed is kept in {} until one of its {} file(s) changes",
            path.display(),
            record.files.len()
        )),
        Err(err) => learn::warn(&path, err),
    }
}
