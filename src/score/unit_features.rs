//! A code unit's features for a learned unit order: how a function, method
//! or block of one file looks beside the file's other units, as numbers.
//!
//! Owns the feature names ([`NAMES`]) and vectors ([`features`]); `--features`
//! prints them for the best units of the first files, and
//! `tests/bench/train/fit_units.py` fits and validates an order over them. No
//! learned unit order is shipped: on the question sets, left out a set at a
//! time, none put the answer's unit first more often than the hand order of
//! `unit` (the train README has the figures). Does no I/O.

use super::unit::{Field, RankedUnit, Shape};
use super::RankedFile;
use crate::query::Ask;

/// The features' names, in order.
pub const NAMES: [&str; 30] = [
    "name",
    "signature",
    "doc",
    "body",
    "call",
    "string",
    "comment",
    "support",
    "context",
    "line",
    "factor",
    "length",
    "log_lines",
    "callable",
    "container",
    "declaration",
    "statements",
    "short_bodied",
    "bodiless",
    "test",
    "coverage",
    "log_callees",
    "hand_share",
    "hand_rank_recip",
    "nested",
    "how_callable",
    "where_declaration",
    "log_lines_inside",
    "line_sum",
    "named_only",
];

/// Each unit's features, in the file's (hand) unit order: field scores,
/// support, context and best line as shares of the file's best unit score;
/// the unit's factor and length discount, its shape, its place in the hand
/// order, and the query's kind of question where it matters (`ask`). Each
/// vector is in [`NAMES`] order.
pub fn features(file: &RankedFile, ask: Ask) -> Vec<Vec<f64>> {
    let best = file
        .units
        .iter()
        .map(|u| u.score.total)
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let most_slots = file
        .units
        .iter()
        .map(|u| u.slots.count_ones())
        .max()
        .unwrap_or(1)
        .max(1);
    file.units
        .iter()
        .enumerate()
        .map(|(rank, u)| one(file, u, rank, best, most_slots, ask))
        .collect()
}

fn one(
    file: &RankedFile,
    u: &RankedUnit,
    rank: usize,
    best: f64,
    most_slots: u32,
    ask: Ask,
) -> Vec<f64> {
    let s = &u.score;
    let span = &u.span;
    let lines = span.end_line + 1 - span.start_line.min(span.end_line);
    let inside: Vec<f64> = file
        .lines
        .iter()
        .filter(|l| l.score.total > 0.0 && span.start_line <= l.line && l.line <= span.end_line)
        .map(|l| l.score.total)
        .collect();
    let process = matches!(ask, Ask::How | Ask::Happens);
    let mut f: Vec<f64> = s.fields.iter().map(|v| v / best).collect();
    f.extend([
        s.support / best,
        s.context / best,
        s.line / best,
        s.factor,
        s.length,
        (lines as f64).ln(),
        flag(span.shape == Shape::Callable),
        flag(span.shape == Shape::Container),
        flag(span.shape == Shape::Declaration),
        flag(span.shape == Shape::Statements),
        flag(span.short_bodied()),
        flag(span.bodiless),
        flag(span.test),
        f64::from(u.slots.count_ones()) / f64::from(most_slots),
        (1.0 + u.callees.len() as f64).ln(),
        s.total / best,
        1.0 / (1.0 + rank as f64),
        flag(span.parent.is_some()),
        flag(process && span.shape == Shape::Callable),
        flag(ask == Ask::Where && span.shape == Shape::Declaration),
        (1.0 + inside.len() as f64).ln(),
        inside.iter().sum::<f64>() / best,
        flag(s.fields[Field::Doc.index()..].iter().all(|&v| v == 0.0)),
    ]);
    debug_assert_eq!(f.len(), NAMES.len());
    f
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}
