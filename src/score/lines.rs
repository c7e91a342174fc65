//! Line-level evidence: how much of the query meets on and around a line.
//!
//! A line earns the weight of each query slot it holds (a word and its
//! synonyms are one slot, counted once), a decaying share of the slots found
//! on nearby lines (the statements of one function sit close together), a
//! bonus for identifiers that join several query words (`max_redirects`), and
//! multipliers for definitions, comments and test code.

use std::collections::{BTreeMap, HashMap};

use super::kind::LineKind;
use super::TermWeights;
use crate::search::sink::TermLine;

/// Lines on each side of a line whose terms still count for it: about one
/// function's worth.
pub const PASSAGE_LINES: usize = 12;
/// Share of a slot's weight earned from the nearest neighbouring line that
/// holds it, at distance 1; it halves every `NEAR_HALF_DISTANCE` lines further.
const NEAR_SHARE: f64 = 0.5;
const NEAR_HALF_DISTANCE: f64 = 4.0;
/// Share of a slot's weight earned when it occurs anywhere in the same
/// definition's body (a function or method), however far: the body is one
/// answer.
const BLOCK_SHARE: f64 = 0.25;
/// Multiplier for a query word found in a comment or docstring rather than in
/// code: prose matches a question's wording more easily than code does, so it
/// is weaker evidence that the code is here.
pub(super) const COMMENT_FACTOR: f64 = 0.7;
/// Multiplier for lines of test code when the query is not about tests.
pub(super) const TEST_FACTOR: f64 = 0.5;
/// Multiplier for a line that defines something (fn, def, class, …).
pub(super) const DEFINITION_BONUS: f64 = 1.25;
/// Extra share of a query slot's weight when it is found in the *name* a line
/// defines (`find_best_app` for "find the app"): code names what it does, so
/// the definition whose name says it is the answer, not a line that uses it.
pub(super) const NAME_WEIGHT: f64 = 1.0;
/// Multiplier for import lines: they name what the query asks about, but the
/// behaviour lives where the name is defined or used.
pub(super) const IMPORT_FACTOR: f64 = 0.3;
/// Multiplier for a line that branches (`kind::is_branch`): `if retries >
/// max_retries {` decides about the words that `log(retries, max_retries)`
/// only mentions. Measured on the fourteen question sets (800), the dev,
/// commit and held-out commit sets, at 1.1, 1.2, 1.3 and 1.5: at 1.1 the
/// questions stay at 475 RIGHT (three up, three down: the first set 38 ->
/// 40, the others 437 -> 435), dev line precision 0.373 -> 0.379 at the same
/// region recall (0.933), the commit set 0.588 / 0.767 -> 0.591 / 0.769,
/// held-out commits 0.605 / 0.776 -> 0.605 / 0.777. At 1.2: 476 RIGHT, at
/// 1.3 and 1.5: 473 and 472 (dev region recall 0.909 at 1.5).
pub(super) const BRANCH_FACTOR: f64 = 1.1;

/// The parts a line's score is made of, for `--explain`, `-v` and `--json`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineScore {
    /// Weights of the distinct query slots on the line.
    pub terms: f64,
    /// Decaying shares of the slots found only on nearby lines.
    pub near: f64,
    /// Bonus for identifiers that join several query words (`max_redirects`).
    pub merged: f64,
    /// Bonus for the query slots in the name the line defines (`NAME_WEIGHT`).
    pub name: f64,
    /// Multiplier: definition bonus, times the test factor for test code.
    pub factor: f64,
    /// `(terms + near + merged + name) * factor`.
    pub total: f64,
}

/// A scored line of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedLine {
    pub line: usize,
    /// The definition whose body holds the line (`LineKind::block`).
    pub block: u32,
    /// The query slots the line holds (bit `s` for slot `s`; slots past 63 are
    /// not tracked).
    pub slots: u64,
    /// The slots found only around it (nearby or in its definition).
    pub near_slots: u64,
    /// A comment, a doc comment or a docstring (`LineKind::comment`): prose
    /// about the code, not the code that does the thing.
    pub comment: bool,
    pub score: LineScore,
}

/// The bit of a slot in `RankedLine::slots`.
pub fn slot_bit(slot: usize) -> u64 {
    if slot < 64 {
        1 << slot
    } else {
        0
    }
}

fn slot_bits<'a>(slots: impl IntoIterator<Item = &'a usize>) -> u64 {
    slots.into_iter().fold(0, |acc, &s| acc | slot_bit(s))
}

/// Scores every line that holds a term. `lines` come from
/// `search::term_lines`, sorted by number; `kinds[n - 1]` labels line `n`
/// (missing entries count as plain code). `wants_tests`: the query is about
/// tests, so test code is not discounted.
pub fn score_lines<'a>(
    lines: &[TermLine],
    weights: &TermWeights,
    kinds: &[LineKind],
    wants_tests: bool,
    text_of: impl Fn(usize) -> Option<&'a [u8]>,
) -> Vec<RankedLine> {
    let kind_of = |n: usize| kinds.get(n.wrapping_sub(1)).copied().unwrap_or_default();
    score_lines_by(lines, weights, kind_of, wants_tests, text_of)
}

/// [`score_lines`] with the labels of a line given by `kind_of(n)`: a file
/// scored as it streams keeps the labels of its matching lines only.
pub fn score_lines_by<'a>(
    lines: &[TermLine],
    weights: &TermWeights,
    kind_of: impl Fn(usize) -> LineKind,
    wants_tests: bool,
    text_of: impl Fn(usize) -> Option<&'a [u8]>,
) -> Vec<RankedLine> {
    let slots: Vec<BTreeMap<usize, f64>> = lines
        .iter()
        .map(|tl| {
            let factor = if kind_of(tl.line).comment {
                COMMENT_FACTOR
            } else {
                1.0
            };
            let mut v = weights.slot_values(tl.matches.iter().map(|m| m.term));
            v.values_mut().for_each(|x| *x *= factor);
            v
        })
        .collect();
    let blocks = block_slots(lines, &slots, &kind_of);
    lines
        .iter()
        .enumerate()
        .map(|(i, tl)| {
            let own = &slots[i];
            let terms: f64 = own.values().fold(0.0, |a, b| a + b);
            let block = blocks.get(&kind_of(tl.line).block);
            let near_slots = near_slots(lines, &slots, i, block);
            let near = near_slots.values().fold(0.0, |a, b| a + b);
            let merged = merged_bonus(tl, weights, text_of(tl.line).unwrap_or_default());
            let kind = kind_of(tl.line);
            let name = name_bonus(tl, weights, kind.name);
            let mut factor = if kind.definition {
                DEFINITION_BONUS
            } else {
                1.0
            };
            if kind.test && !wants_tests {
                factor *= TEST_FACTOR;
            }
            if kind.import {
                factor *= IMPORT_FACTOR;
            }
            if kind.branch {
                factor *= BRANCH_FACTOR;
            }
            let total = (terms + near + merged + name) * factor;
            RankedLine {
                line: tl.line,
                block: kind.block,
                slots: slot_bits(own.keys()),
                near_slots: slot_bits(near_slots.keys()),
                comment: kind.comment,
                score: LineScore {
                    terms,
                    near,
                    merged,
                    name,
                    factor,
                    total,
                },
            }
        })
        .collect()
}

/// The decay applied to a slot found `distance` lines away.
pub fn near_share(distance: usize) -> f64 {
    if distance == 0 || distance > PASSAGE_LINES {
        return 0.0;
    }
    NEAR_SHARE * 0.5f64.powf((distance - 1) as f64 / NEAR_HALF_DISTANCE)
}

/// The slots found in each definition's body (top level excluded), each at its
/// best weight.
fn block_slots(
    lines: &[TermLine],
    slots: &[BTreeMap<usize, f64>],
    kind_of: &impl Fn(usize) -> LineKind,
) -> HashMap<u32, BTreeMap<usize, f64>> {
    let mut out: HashMap<u32, BTreeMap<usize, f64>> = HashMap::new();
    for (tl, own) in lines.iter().zip(slots) {
        let block = kind_of(tl.line).block;
        if block == 0 {
            continue;
        }
        let entry = out.entry(block).or_default();
        for (&slot, &v) in own {
            let e = entry.entry(slot).or_insert(0.0);
            *e = e.max(v);
        }
    }
    out
}

/// For line `i`, each slot it lacks, at the best of: the neighbour within
/// `PASSAGE_LINES` where it is worth most after decay, and `BLOCK_SHARE` of
/// its weight when the enclosing definition holds it.
fn near_slots(
    lines: &[TermLine],
    slots: &[BTreeMap<usize, f64>],
    i: usize,
    block: Option<&BTreeMap<usize, f64>>,
) -> BTreeMap<usize, f64> {
    let center = lines[i].line;
    let lo = center.saturating_sub(PASSAGE_LINES);
    let hi = center + PASSAGE_LINES;
    let start = lines[..i].partition_point(|l| l.line < lo);
    let mut best: BTreeMap<usize, f64> = BTreeMap::new();
    for (j, l) in lines.iter().enumerate().skip(start) {
        if l.line > hi {
            break;
        }
        if j == i {
            continue;
        }
        let share = near_share(l.line.abs_diff(center));
        for (&slot, &v) in &slots[j] {
            if slots[i].contains_key(&slot) {
                continue;
            }
            let e = best.entry(slot).or_insert(0.0);
            *e = e.max(v * share);
        }
    }
    for (&slot, &v) in block.into_iter().flatten() {
        if !slots[i].contains_key(&slot) {
            let e = best.entry(slot).or_insert(0.0);
            *e = e.max(v * BLOCK_SHARE);
        }
    }
    best
}

/// `NAME_WEIGHT` of each query slot found inside the defined name's span.
fn name_bonus(tl: &TermLine, weights: &TermWeights, name: Option<(u32, u32)>) -> f64 {
    let Some((start, end)) = name else {
        return 0.0;
    };
    let inside = tl
        .matches
        .iter()
        .filter(|m| m.start >= start as usize && m.end <= end as usize)
        .map(|m| m.term);
    // `+ 0.0`: an empty float sum is -0.0, which prints as "-0.00".
    weights.slot_values(inside).values().sum::<f64>() * NAME_WEIGHT + 0.0
}

/// Two different slots in one identifier (`max_redirects`, `proxyFromEnv`): the
/// code names the concept the query describes.
fn merged_bonus(tl: &TermLine, weights: &TermWeights, text: &[u8]) -> f64 {
    let mut bonus: f64 = 0.0;
    for pair in tl.matches.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let joined = b.start == a.end
            || (b.start == a.end + 1 && matches!(text.get(a.end), Some(b'_' | b'-')));
        if weights.slot_of(a.term) != weights.slot_of(b.term) && joined {
            bonus = bonus.max(weights.of(a.term).min(weights.of(b.term)));
        }
    }
    bonus
}
