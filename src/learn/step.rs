//! The learning step of a run, after the model stage: keep what the model
//! taught (its concepts, attested by the printed lines) and what it chose
//! (verified, printed: `answer`), or count a hit for the learned concepts of a
//! query the offline results answered; last, settle the query (`settled`).
//!
//! Takes the run as values: the printed results (`rank::Searched`, whose
//! lines it reads back; it calls no printer), the consultation's report, and
//! the thesaurus the caller loaded (every layer; it loads none). Owns when
//! each part runs and its `-v` lines. What is worth keeping, and writing it,
//! belong to `filter`, `answer` and `store`.

use std::path::Path;

use super::{settled, Provenance};
use crate::document::ReadOptions;
use crate::fallback::consult::Report;
use crate::learn;
use crate::messages;
use crate::query::Query;
use crate::rank::Searched;
use crate::thesaurus::{Standing, Thesaurus};

/// What the learning step of a run reads.
pub struct Step<'a> {
    /// The learned file written (`learn::target_path`).
    pub path: &'a Path,
    /// The query as typed (kept on disk with secrets redacted).
    pub asked: &'a str,
    /// The model's name, kept with what it taught.
    pub model: Option<&'a str>,
    /// The query as searched (with the model's words).
    pub query: &'a Query,
    /// The printed results, and the printed lines the model chose.
    pub results: &'a Searched,
    pub chosen: &'a [(usize, usize)],
    pub read: &'a ReadOptions,
    /// Learned concepts the query's terms came from.
    pub used: &'a [(String, Standing)],
    /// Settling a consulted query.
    pub settle: settled::Run,
    /// The current directory (relative paths of settled files are under it).
    pub cwd: &'a Path,
}

impl Step<'_> {
    /// Whether the step checks new words against the thesaurus: a
    /// consultation that chose or taught something, with printed results.
    /// Only then need the caller load it.
    pub fn needs_thesaurus(&self, report: &Report) -> bool {
        !self.results.selected.is_empty()
            && !report.failed
            && (report.answer_lesson.is_some() || (report.calls > 0 && !report.taught.is_empty()))
    }

    fn provenance(&self) -> Provenance {
        Provenance {
            // Kept on disk: secrets pasted into a query are not.
            query: crate::llm::redact::redact(self.asked).text,
            model: self.model.map(str::to_string),
        }
    }
}

/// Runs the step; `known`: every layer of the thesaurus (what new synonyms
/// are checked against), loaded when [`Step::needs_thesaurus`]. Returns the
/// names of the concepts written. Nothing happens when a model call failed or
/// nothing is printed.
pub fn learn(step: &Step<'_>, report: &Report, known: &Thesaurus) -> Vec<String> {
    let mut learned = Vec::new();
    if step.results.selected.is_empty() || report.failed {
        return learned;
    }
    lessons(step, report, known, &mut learned);
    // Last: a settled query is not consulted again, so what the consultation
    // taught must be kept first (a run killed in between settles nothing).
    if report.calls > 0 {
        let answer = report.answer.as_deref().filter(|_| report.answered);
        settled::keep(
            &step.settle,
            step.path,
            step.query,
            step.asked,
            (step.results, step.chosen),
            answer,
            step.cwd,
        );
    }
    learned
}

/// Keeps what a model taught or chose, or counts a hit (see [`learn`]).
fn lessons(step: &Step<'_>, report: &Report, known: &Thesaurus, learned: &mut Vec<String>) {
    let path = step.path;
    if let Some(lesson) = &report.answer_lesson {
        if !learn_answer(step, lesson, known, learned) {
            // The file could not be written (warned): trying again for the
            // concepts would fail, and warn, the same way.
            return;
        }
    }
    if report.calls > 0 && !report.taught.is_empty() {
        let shown = step.results.printed_lines(step.read);
        let printed: Vec<&[u8]> = shown.iter().map(|l| l.text.as_bytes()).collect();
        let taught = learn::attested(&report.taught, &step.query.terms, &printed);
        if taught.len() < report.taught.len() {
            messages::verbose("learned: left out concepts whose words are in no printed line");
        }
        let lessons = learn::lessons(&taught, &step.query.terms);
        match learn::record(path, &lessons, known, &step.provenance()) {
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
            Err(err) => learn::warn(path, err),
        }
    } else if report.calls == 0 && step.results.is_sufficient() {
        // The offline results answered the query: what "helped" means for a
        // learned concept in a run without a model.
        let proposed: Vec<String> = step
            .used
            .iter()
            .filter(|(_, s)| *s == Standing::Proposed)
            .map(|(n, _)| n.clone())
            .collect();
        if proposed.is_empty() {
            return;
        }
        match learn::note_helped(path, &proposed) {
            Ok(counted) if !counted.is_empty() => messages::verbose(&format!(
                "learned: {} helped again (one more hit)",
                counted.join(", ")
            )),
            Ok(_) => {}
            Err(err) => learn::warn(path, err),
        }
    }
}

/// Keeps what the model's verified choice answered (`learn::answer`).
/// Returns false when the learned file could not be used (warned).
fn learn_answer(
    step: &Step<'_>,
    lesson: &learn::answer::AnswerLesson,
    known: &Thesaurus,
    learned: &mut Vec<String>,
) -> bool {
    let path = step.path;
    match learn::answer::record_answer(path, lesson, known, &step.provenance()) {
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
