//! The learning step of a run, wired: after the model stage, hand what the
//! model taught and what it chose (verified, printed) to `learn`, or count a
//! hit for the learned concepts of a query the offline results answered.
//!
//! Owns when the step runs and its `-v` lines. What is worth keeping, and
//! writing it, belong to `learn` (`learn::answer`, `learn::record`).

use super::{load_thesaurus, model, output, Found};
use crate::cli::Plan;
use crate::document::ReadOptions;
use crate::learn;
use crate::messages;
use crate::session::Session;
use crate::thesaurus;

/// What the learning step of a run needs besides the results.
pub(super) struct LearnRun<'a> {
    pub(super) plan: &'a Plan,
    pub(super) cwd: &'a std::path::Path,
    pub(super) read: &'a ReadOptions,
    /// Learned concepts the query's terms came from.
    pub(super) used: &'a [(String, thesaurus::Standing)],
    pub(super) session: &'a Session,
}

/// The learning loop's step of a run with printed results: keep what a
/// successful model expansion taught, or count a hit for the proposed learned
/// concepts of a query the offline results answered (judged sufficient). Nothing happens when a model call
/// failed or nothing is printed.
pub(super) fn learn_from(
    run: &LearnRun<'_>,
    found: &Found,
    report: &mut model::Report,
) -> Vec<String> {
    let mut learned = Vec::new();
    if found.search.selected.is_empty() || report.failed {
        return learned;
    }
    let Some(path) = learn::target_path(run.plan.learn_to, run.cwd, &run.plan.dirs) else {
        return learned;
    };
    learn_lessons(run, found, report, &path, &mut learned);
    // Last: a settled query is not consulted again, so what the consultation
    // taught must be kept first (a run killed in between settles nothing).
    super::settled::record(run, found, report);
    learned
}

/// Keeps what a model taught or chose, or counts a hit (see [`learn_from`]).
fn learn_lessons(
    run: &LearnRun<'_>,
    found: &Found,
    report: &mut model::Report,
    path: &std::path::Path,
    learned: &mut Vec<String>,
) {
    let path = path.to_path_buf();
    if let Some(lesson) = report.answer_lesson.take() {
        if !learn_answer(run, &path, &lesson, learned) {
            // The file could not be written (warned): trying again for the
            // concepts would fail, and warn, the same way.
            return;
        }
    }
    if report.calls > 0 && !report.taught.is_empty() {
        let shown = output::printed_lines(found, run.read);
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
                learned.extend(written.into_iter().map(|(name, _)| name));
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
/// Returns false when the learned file could not be used (warned).
fn learn_answer(
    run: &LearnRun<'_>,
    path: &std::path::Path,
    lesson: &learn::answer::AnswerLesson,
    learned: &mut Vec<String>,
) -> bool {
    let from = learn::Provenance {
        // Kept on disk: secrets pasted into a query are not.
        query: crate::llm::redact::redact(&run.plan.query).text,
        model: run.plan.model.model.clone(),
    };
    let known = load_thesaurus(run.session, run.plan, run.cwd, false);
    match learn::answer::record_answer(path, lesson, &known, &from) {
        Ok(Some((name, gained))) => {
            messages::verbose(&format!(
                "learned: {name} -> {} ({}) into {}",
                if gained.is_empty() {
                    "nothing new".to_string()
                } else {
                    gained.join(", ")
                },
                if lesson.settled {
                    "the answer the model was asked about and did not change"
                } else {
                    "the model's verified answer"
                },
                path.display()
            ));
            learned.push(name);
        }
        Ok(None) => messages::verbose(&format!(
            "learned: not keeping the answer: '{}' already names another concept",
            lesson.name
        )),
        Err(err) => {
            learn::warn(path, err);
            return false;
        }
    }
    true
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

pub(super) fn verbose_learned_used(used: &[(String, thesaurus::Standing)]) {
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
