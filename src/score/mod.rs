//! Ranking: pure functions from search hits to scored files and lines.
//!
//! Owns the score of a file (`bm25`: BM25 over the query terms plus matches in
//! its path, times a prior for tests and prose), the score of a line (`lines`:
//! the query slots it holds, those met nearby, identifiers that merge query
//! words, definitions, comments, test code; `kind` labels lines), how the two
//! combine into a file's rank, and choosing the lines to print (`select`).
//! Does no I/O: callers hand in counts, lines and text.

mod bm25;
pub mod features;
mod file_kind;
pub mod kind;
mod learned;
mod learned_happens;
mod learned_questions;
mod lines;
#[cfg(test)]
mod proptests;
pub mod rerank;
mod select;
pub mod symbol;
#[cfg(test)]
mod tests;
pub mod unit;
pub mod unit_features;

use std::collections::BTreeMap;

pub use bm25::{
    best_files, bm25, file_evidence, file_parts, file_score, idf, path_terms, FileParts, BM25_B,
    BM25_K1,
};
pub use file_kind::{
    file_kind, file_prior, is_secondary_path, looks_minified, query_asks_declaration,
    query_wants_secondary, query_wants_tests, text_prior, text_prior_of, with_test_units, FileKind,
    GENERATED_FILE_PRIOR,
};
pub use kind::{
    classify_lines, is_definition, name_definition, name_definitions, Classifier, LineKind,
};
pub use lines::{
    near_share, score_lines, score_lines_by, slot_bit, LineScore, RankedLine, PASSAGE_LINES,
};
pub use select::{answer_line, better, priority, select, select_per_file, select_unsure};
pub use symbol::definition_name;

use crate::query::Term;

/// Files scored line by line after the first pass; the rest cannot overtake them
/// in practice, and re-reading only these keeps big trees fast. 24 rather than
/// 40 ranks the question, dev and commit sets identically (of 422 queries, 3
/// have their answer file below first-pass place 24, none first at 40) and
/// cut a cargo registry query's instructions by a quarter: its places 25-40
/// were megabyte binding files.
pub const CANDIDATE_FILES: usize = 24;
/// Weight of the best line relative to the file's BM25 score in the file's rank.
pub const LINE_IN_FILE_WEIGHT: f64 = 1.0;

/// Per-term corpus weights: idf from the first pass, times the term's own weight.
#[derive(Clone, Debug, PartialEq)]
pub struct TermWeights {
    pub idf: Vec<f64>,
    pub weight: Vec<f64>,
    /// The query slot of each term (a query word and its synonyms share one).
    pub slot: Vec<usize>,
}

impl TermWeights {
    /// Computes idf from document frequencies over `files` loaded files.
    pub fn new(terms: &[Term], df: &[usize], files: usize) -> TermWeights {
        TermWeights {
            idf: df.iter().map(|&d| idf(files.max(1), d)).collect(),
            weight: terms.iter().map(|t| f64::from(t.weight)).collect(),
            slot: terms.iter().map(|t| t.slot).collect(),
        }
    }

    /// The slot of a term.
    pub fn slot_of(&self, term: usize) -> usize {
        self.slot.get(term).copied().unwrap_or(term)
    }

    /// For a set of terms, the best weight of each slot they cover.
    pub fn slot_values(&self, terms: impl IntoIterator<Item = usize>) -> BTreeMap<usize, f64> {
        let mut out: BTreeMap<usize, f64> = BTreeMap::new();
        for t in terms {
            let v = out.entry(self.slot_of(t)).or_insert(0.0);
            *v = v.max(self.of(t));
        }
        out
    }

    /// A term's weight: idf times its own weight.
    pub fn of(&self, term: usize) -> f64 {
        self.idf.get(term).copied().unwrap_or(0.0) * self.weight.get(term).copied().unwrap_or(0.0)
    }

    /// The best a line could do: every slot at its best term's weight.
    pub fn total(&self) -> f64 {
        self.slot_values(0..self.idf.len()).values().sum()
    }
}

/// A file with its rank score and scored lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankedFile {
    pub haystack: usize,
    /// BM25 plus path matches, times the file prior.
    pub file_score: f64,
    /// The prior of the file's kind (`file_kind`: 1 for source, less for
    /// tests, docs, build files, generated or minified files).
    pub prior: f64,
    /// `file_score` plus the best line: the order files are printed in.
    pub score: f64,
    pub lines: Vec<RankedLine>,
    /// Its code units that hold a term, best first (`unit::score_units`).
    pub units: Vec<unit::RankedUnit>,
    /// What its evidence is made of (`bm25::file_parts`).
    pub parts: FileParts,
    /// Its place in the first pass's order (0 = first).
    pub first_rank: usize,
    /// Its length in bytes.
    pub len: usize,
    /// Whether its units come from a parser rather than line heuristics.
    pub parsed: bool,
    /// Its score by the learned ranker (`rerank`), which orders the files
    /// when set; `None` when the hand-tuned `score` does.
    pub learned: Option<f64>,
    /// Whether the order blends `learned` with the hand order (a
    /// where-question: `rerank::WHERE_HAND_WEIGHT`).
    pub hand_blend: bool,
    /// Why a question's rule (`rerank`) put it first, above a higher learned
    /// score (`--explain` and `-v` say so).
    pub promoted: Option<&'static str>,
}

impl RankedFile {
    /// The line numbers of its `n` best-scoring lines, best first (ties to
    /// the earlier line: [`better`]).
    pub fn best_lines(&self, n: usize) -> Vec<usize> {
        let mut lines: Vec<&RankedLine> = self.lines.iter().collect();
        lines.sort_by(|a, b| better((a.score.total, a.line), (b.score.total, b.line)));
        lines.into_iter().take(n).map(|l| l.line).collect()
    }

    /// Its best line ([`better`]: of two lines that score the same, the
    /// earlier), the one `-v`, `--explain`, the selection and the judge name.
    pub fn best_line(&self) -> Option<&RankedLine> {
        self.lines
            .iter()
            .min_by(|a, b| better((a.score.total, a.line), (b.score.total, b.line)))
    }
}

/// Combines a file's first-pass score with its best unit and, weaker, its
/// second best (times the file prior). Without units (none scored), its best
/// line stands in.
pub fn final_score(
    file_score: f64,
    lines: &[RankedLine],
    units: &[unit::RankedUnit],
    prior: f64,
) -> f64 {
    let mut best = [0.0f64; 2];
    for u in units {
        let e = u.score.evidence;
        if e > best[0] {
            best = [e, best[0]];
        } else if e > best[1] {
            best[1] = e;
        }
    }
    let evidence = if units.is_empty() {
        lines.iter().map(|l| l.score.total).fold(0.0, f64::max)
    } else {
        best[0] + SECOND_UNIT_SHARE * best[1]
    };
    file_score + LINE_IN_FILE_WEIGHT * evidence * prior
}

/// Weight of a file's second-best unit in its rank, relative to its best: a
/// file where two places hold the query is likelier the answer's home.
pub const SECOND_UNIT_SHARE: f64 = 0.3;

/// Puts the files holding a learned answer (a line with a slot of
/// `answers`, `query::answer_slots`) first, each group keeping its order: a
/// place a model chose for this question and kgrep verified outranks words
/// that merely match. Nothing else moves.
pub fn answers_first(files: &mut [RankedFile], answers: u64) {
    if answers == 0 {
        return;
    }
    files.sort_by_key(|f| !f.lines.iter().any(|l| l.slots & answers != 0));
}

/// Sorts files best first; ties go to the earlier path, so output is deterministic.
pub fn sort_files(files: &mut [RankedFile], keys: impl Fn(usize) -> String) {
    files.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| keys(a.haystack).cmp(&keys(b.haystack)))
    });
}
