//! The signals of a ranked file as one vector of numbers: what a learned
//! ranker weighs, and what `kgrep --features` prints for training it.
//!
//! Owns the list of features, their names and how each is read off a
//! [`RankedFile`] (file evidence, path, file kind, its best units by field,
//! its best line), scaled by the query's total weight so that queries of
//! different lengths compare, plus a few relative to the best candidate of
//! the same query. Does not own computing the signals (`bm25`, `unit`,
//! `lines`) or weighing them.

use super::file_kind::{file_kind, FileKind};
use super::unit::{Shape, FIELDS};
use super::{RankedFile, TermWeights};
use crate::query::Ask;

/// The names of the features, in the order of [`file_features`]'s vector.
pub const NAMES: &[&str] = &[
    "bm25",
    "path_name",
    "path_folders",
    "coverage",
    "prior",
    "kind_test",
    "kind_prose",
    "kind_config",
    "kind_generated",
    "wants_tests",
    "wants_tests_and_test",
    "log_len",
    "first_rank_recip",
    "parsed",
    "unit_best",
    "unit_second",
    "unit_name",
    "unit_signature",
    "unit_doc",
    "unit_body",
    "unit_call",
    "unit_string",
    "unit_comment",
    "unit_support",
    "unit_context",
    "unit_line",
    "unit_callable",
    "unit_container",
    "unit_declaration",
    "unit_statements",
    "unit_log_lines",
    "unit_coverage",
    "unit_test",
    "units_log_count",
    "line_best",
    "line_terms",
    "line_near",
    "line_merged",
    "line_name",
    "learned_answer",
    "hand_score",
    "query_slots",
    "ask_where",
    "ask_how",
    "ask_happens",
    "defines_typed",
    "path_typed",
    "names_best",
    "names_count",
    "kind_declarations",
    "rel_bm25",
    "rel_unit_best",
    "rel_line_best",
    "rel_hand_score",
];

/// Features that are a file's value over the best of its query's candidates.
const RELATIVE: &[(&str, &str)] = &[
    ("rel_bm25", "bm25"),
    ("rel_unit_best", "unit_best"),
    ("rel_line_best", "line_best"),
    ("rel_hand_score", "hand_score"),
];

/// The query-level facts features need.
#[derive(Clone, Copy, Debug)]
pub struct QueryFacts<'q> {
    /// The names the query types as code (`query::typed_names`).
    pub typed: &'q [String],
    /// The query asks for tests or docs (`file_kind::query_wants_secondary`).
    pub wants_tests: bool,
    /// Slots of learned answers (`query::answer_slots`).
    pub answers: u64,
    /// How the question is asked (`Ask::of`).
    pub ask: Ask,
    /// What unit scoring reads the query as (`Ask::for_units`): a query of
    /// keywords looks for code as a question does.
    pub units_ask: Ask,
    /// The query asks for a declaration itself ("where is the type …
    /// defined", "the interface for …": `file_kind::query_asks_declaration`).
    pub asks_declaration: bool,
    /// The query is a search typed as keywords ("default log level when
    /// nothing configured": `Ask::typed_as_search`), not a question and not
    /// a commit subject.
    pub keywords: bool,
    /// The stems of what a how-question asks about (`query::subject_stems`).
    pub subject: &'q [String],
}

/// The feature vectors of a query's candidates, in their order.
pub fn all_features(
    files: &[RankedFile],
    keys: impl Fn(usize) -> String,
    weights: &TermWeights,
    facts: QueryFacts<'_>,
) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = files
        .iter()
        .map(|f| file_features(f, &keys(f.haystack), weights, facts))
        .collect();
    for (rel, base) in RELATIVE {
        let (Some(r), Some(b)) = (index(rel), index(base)) else {
            continue;
        };
        let best = out.iter().map(|v| v[b]).fold(0.0, f64::max);
        for v in &mut out {
            v[r] = if best > 0.0 { v[b] / best } else { 0.0 };
        }
    }
    out
}

/// The index of a feature by name.
pub fn index(name: &str) -> Option<usize> {
    NAMES.iter().position(|n| *n == name)
}

/// One file's features (the relative ones left at 0: see [`all_features`]).
pub fn file_features(
    f: &RankedFile,
    key: &str,
    weights: &TermWeights,
    facts: QueryFacts<'_>,
) -> Vec<f64> {
    let total = weights.total().max(f64::MIN_POSITIVE);
    let scaled = |x: f64| x / total;
    let kind = file_kind(key);
    let prose = kind == FileKind::Secondary && super::file_kind::is_prose_path(key);
    let test = kind == FileKind::Secondary && !prose;
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let mut by_evidence: Vec<&super::unit::RankedUnit> = f.units.iter().collect();
    by_evidence.sort_by(|a, b| b.score.evidence.total_cmp(&a.score.evidence));
    let best = by_evidence.first();
    let second = by_evidence.get(1).map_or(0.0, |u| u.score.evidence);
    let best_line = f
        .lines
        .iter()
        .max_by(|a, b| a.score.total.total_cmp(&b.score.total));
    let slot_weights = weights.slot_values(0..weights.idf.len());
    let mut v = vec![0.0; NAMES.len()];
    let mut set = |name: &str, x: f64| {
        if let Some(i) = index(name) {
            v[i] = if x.is_finite() { x } else { 0.0 };
        }
    };
    set("bm25", scaled(f.parts.bm25));
    set("path_name", scaled(f.parts.name));
    set("path_folders", scaled(f.parts.folders));
    set("coverage", f.parts.coverage);
    set("prior", f.prior);
    set("kind_test", flag(test));
    set("kind_prose", flag(prose));
    set("kind_config", flag(kind == FileKind::Config));
    set("kind_generated", flag(kind == FileKind::Generated));
    set("wants_tests", flag(facts.wants_tests));
    set("wants_tests_and_test", flag(facts.wants_tests && test));
    set("log_len", (1.0 + f.len as f64).ln() / 10.0);
    set("first_rank_recip", 1.0 / (1.0 + f.first_rank as f64));
    set("parsed", flag(f.parsed));
    set("unit_second", scaled(second));
    set("units_log_count", (1.0 + f.units.len() as f64).ln());
    if let Some(u) = best {
        set("unit_best", scaled(u.score.evidence));
        for (field, value) in FIELDS.iter().zip(&u.score.fields) {
            let name = format!("unit_{}", field.label());
            set(&name, scaled(*value));
        }
        set("unit_support", scaled(u.score.support));
        set("unit_context", scaled(u.score.context));
        set("unit_line", scaled(u.score.line));
        set("unit_callable", flag(u.span.shape == Shape::Callable));
        set("unit_container", flag(u.span.shape == Shape::Container));
        set("unit_declaration", flag(u.span.shape == Shape::Declaration));
        set("unit_statements", flag(u.span.shape == Shape::Statements));
        let lines = u.span.end_line.saturating_sub(u.span.start_line) + 1;
        set("unit_log_lines", (lines as f64).ln() / 5.0);
        let held: f64 = slot_weights
            .iter()
            .filter(|(&s, _)| u.slots & super::lines::slot_bit(s) != 0)
            .map(|(_, &w)| w)
            .sum();
        set("unit_coverage", held / total);
        set("unit_test", flag(u.span.test));
    }
    if let Some(l) = best_line {
        set("line_best", scaled(l.score.total));
        set("line_terms", scaled(l.score.terms));
        set("line_near", scaled(l.score.near));
        set("line_merged", scaled(l.score.merged));
        set("line_name", scaled(l.score.name));
    }
    set(
        "learned_answer",
        flag(f.lines.iter().any(|l| l.slots & facts.answers != 0)),
    );
    set("hand_score", scaled(f.score));
    set("query_slots", (1.0 + total_slots(weights) as f64).ln());
    set("ask_where", flag(facts.ask == Ask::Where));
    set("ask_how", flag(facts.ask == Ask::How));
    set("ask_happens", flag(facts.ask == Ask::Happens));
    let typed = |name: &str| facts.typed.iter().any(|t| *t == name.to_lowercase());
    set(
        "defines_typed",
        flag(
            f.units
                .iter()
                .any(|u| u.span.name.as_deref().is_some_and(typed)),
        ),
    );
    let file = key.rsplit('/').next().unwrap_or(key);
    let stem = file.split('.').next().unwrap_or(file).to_lowercase();
    set(
        "path_typed",
        flag(facts.typed.iter().any(|t| {
            *t == stem
                || t.strip_suffix('s') == Some(stem.as_str())
                || stem.strip_suffix('s') == Some(t)
        })),
    );
    let name_index = super::unit::Field::Name.index();
    set(
        "names_best",
        scaled(
            f.units
                .iter()
                .map(|u| u.score.fields[name_index])
                .fold(0.0, f64::max),
        ),
    );
    set(
        "names_count",
        (1.0 + f
            .units
            .iter()
            .filter(|u| u.score.fields[name_index] > 0.0)
            .count() as f64)
            .ln(),
    );
    let lower = key.to_ascii_lowercase();
    set(
        "kind_declarations",
        flag(lower.ends_with(".d.ts") || lower.ends_with(".pyi")),
    );
    v
}

/// The number of distinct slots of the query's terms.
fn total_slots(weights: &TermWeights) -> usize {
    weights.slot_values(0..weights.idf.len()).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_relative_feature_has_its_base() {
        for (i, a) in NAMES.iter().enumerate() {
            assert!(!NAMES[i + 1..].contains(a), "{a} twice");
        }
        for (rel, base) in RELATIVE {
            assert!(index(rel).is_some() && index(base).is_some(), "{rel}");
        }
        for field in FIELDS {
            assert!(index(&format!("unit_{}", field.label())).is_some());
        }
    }
}
