//! The sufficiency judge: do the offline results answer the query, or is a
//! language model worth its cost?
//!
//! A pure function of numbers drawn from the ranking ([`evidence`]):
//! - **coverage**: the share of the query's words (slots: a word and its
//!   synonyms count once) found on the printed lines or around them;
//! - **confidence** (0–1): how much of the query meets in the best place
//!   (agreement), how far the best file leads the next (margin), and how much
//!   of the query's possible evidence the best line holds (strength);
//! - **diversity**: distinct files printed; **results**: lines printed.
//!
//! It owns the verdict and its one-line reason; it does not call a model or
//! decide the policy (`llm = auto|off|always`), which the pipeline applies.

use crate::score::{slot_bit, RankedFile};

/// Thresholds, each overridable in the config file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Minimum coverage (0–1).
    pub coverage: f64,
    /// Minimum confidence (0–1).
    pub confidence: f64,
    /// Distinct files wanted, unless the best file clearly leads.
    pub diversity: usize,
    /// Minimum printed lines.
    pub min_results: usize,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            coverage: 0.7,
            confidence: 0.5,
            diversity: 2,
            min_results: 3,
        }
    }
}

/// A lead of the best file over the next by this share of its score counts as
/// a clear winner (full marks for margin; a single file may then suffice).
pub const CLEAR_MARGIN: f64 = 0.25;
/// Weights of the parts of confidence.
const AGREEMENT_WEIGHT: f64 = 0.5;
const MARGIN_WEIGHT: f64 = 0.25;
const STRENGTH_WEIGHT: f64 = 0.25;

/// What the judge looks at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evidence {
    /// Number of query slots.
    pub slots: usize,
    /// Slots on or around the printed lines (bit per slot).
    pub covered: u64,
    /// Slots meeting in the best line's place (on it or around it).
    pub agreeing: u64,
    /// Rank score of the best file and of the next one (0 if none).
    pub top: f64,
    pub runner_up: f64,
    /// The best line's score over the most a line could score (0–1).
    pub strength: f64,
    /// Distinct files and lines printed.
    pub files: usize,
    pub results: usize,
}

/// The verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The offline results answer the query: no model call.
    Sufficient,
    /// The words are there but the results do not agree on a place: a model
    /// should choose among the excerpts.
    NeedsSynthesis,
    /// Query words are missing from the results: a model should propose the
    /// corpus's own words for them first.
    NeedsExpansion,
    /// Nothing matched.
    Insufficient,
}

impl Verdict {
    /// The verdict's name in `-v` and `--json`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Sufficient => "sufficient",
            Verdict::NeedsSynthesis => "needs synthesis",
            Verdict::NeedsExpansion => "needs expansion",
            Verdict::Insufficient => "insufficient",
        }
    }
}

/// The judge's metrics, verdict and reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub coverage: f64,
    pub confidence: f64,
    pub diversity: usize,
    pub results: usize,
    pub verdict: Verdict,
    /// One line saying why.
    pub reason: String,
    /// The slots not covered, for the reason and for expansion.
    pub missing: Vec<usize>,
}

/// Draws the evidence from ranked files (best first) and the printed selection
/// (`(file index into ranked haystacks, lines)`). `slots`: the query's slot
/// count; `max_line_score`: the most a line could score (`TermWeights::total`).
pub fn evidence(
    ranked: &[RankedFile],
    selected: &[(usize, Vec<usize>)],
    slots: usize,
    max_line_score: f64,
) -> Evidence {
    let mut covered = 0;
    for (h, lines) in selected {
        let Some(file) = ranked.iter().find(|f| f.haystack == *h) else {
            continue;
        };
        for l in file.lines.iter().filter(|l| lines.contains(&l.line)) {
            covered |= l.slots | l.near_slots;
        }
    }
    let best = ranked.first().and_then(|f| {
        f.lines
            .iter()
            .max_by(|a, b| a.score.total.total_cmp(&b.score.total))
    });
    let strength = match best {
        Some(l) if max_line_score > 0.0 => (l.score.total / max_line_score).min(1.0),
        _ => 0.0,
    };
    Evidence {
        slots,
        covered,
        agreeing: best.map_or(0, |l| l.slots | l.near_slots),
        top: ranked.first().map_or(0.0, |f| f.score),
        runner_up: ranked.get(1).map_or(0.0, |f| f.score),
        strength,
        files: selected.len(),
        results: selected.iter().map(|(_, lines)| lines.len()).sum(),
    }
}

/// Share of the query's slots set in `bits`.
fn share(bits: u64, slots: usize) -> f64 {
    if slots == 0 {
        return 0.0;
    }
    let set = (0..slots).filter(|&s| bits & slot_bit(s) != 0).count();
    set as f64 / slots as f64
}

/// How far the best file leads the next, as a share of its score.
fn margin(e: &Evidence) -> f64 {
    if e.top <= 0.0 {
        return 0.0;
    }
    (1.0 - e.runner_up / e.top).clamp(0.0, 1.0)
}

/// Confidence in 0–1 (see the module doc).
pub fn confidence(e: &Evidence) -> f64 {
    let agreement = share(e.agreeing, e.slots);
    let margin = (margin(e) / CLEAR_MARGIN).min(1.0);
    AGREEMENT_WEIGHT * agreement
        + MARGIN_WEIGHT * margin
        + STRENGTH_WEIGHT * e.strength.clamp(0.0, 1.0)
}

/// Judges the evidence.
pub fn judge(e: &Evidence, t: &Thresholds) -> Judgement {
    let coverage = share(e.covered, e.slots);
    let confidence = confidence(e);
    let missing: Vec<usize> = (0..e.slots)
        .filter(|&s| e.covered & slot_bit(s) == 0)
        .collect();
    let (verdict, reason) = verdict(e, t, coverage, confidence, &missing);
    Judgement {
        coverage,
        confidence,
        diversity: e.files,
        results: e.results,
        verdict,
        reason,
        missing,
    }
}

fn verdict(
    e: &Evidence,
    t: &Thresholds,
    coverage: f64,
    confidence: f64,
    missing: &[usize],
) -> (Verdict, String) {
    if e.results == 0 {
        return (Verdict::Insufficient, "no line matches the query".into());
    }
    if coverage < t.coverage {
        return (
            Verdict::NeedsExpansion,
            format!(
                "{} of {} query words found near the results (coverage {coverage:.2} < {:.2})",
                e.slots - missing.len(),
                e.slots,
                t.coverage
            ),
        );
    }
    if e.results < t.min_results {
        return (
            Verdict::NeedsExpansion,
            format!(
                "only {} lines matched (fewer than {})",
                e.results, t.min_results
            ),
        );
    }
    if confidence < t.confidence {
        return (
            Verdict::NeedsSynthesis,
            format!(
                "the best places do not agree (confidence {confidence:.2} < {:.2})",
                t.confidence
            ),
        );
    }
    if e.files < t.diversity && margin(e) < CLEAR_MARGIN {
        return (
            Verdict::NeedsSynthesis,
            format!(
                "{} file(s) and no clear winner (diversity {} < {})",
                e.files, e.files, t.diversity
            ),
        );
    }
    (
        Verdict::Sufficient,
        format!(
            "coverage {coverage:.2}, confidence {confidence:.2}, {} files",
            e.files
        ),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn strong() -> Evidence {
        Evidence {
            slots: 3,
            covered: 0b111,
            agreeing: 0b111,
            top: 10.0,
            runner_up: 5.0,
            strength: 0.8,
            files: 2,
            results: 5,
        }
    }

    #[test]
    fn strong_results_are_sufficient() {
        let j = judge(&strong(), &Thresholds::default());
        assert_eq!(j.verdict, Verdict::Sufficient, "{}", j.reason);
        assert_eq!(j.coverage, 1.0);
        assert!(j.confidence > 0.9 && j.confidence <= 1.0);
    }

    #[test]
    fn each_threshold_has_its_verdict() {
        let t = Thresholds::default();
        let none = Evidence {
            results: 0,
            files: 0,
            ..strong()
        };
        assert_eq!(judge(&none, &t).verdict, Verdict::Insufficient);
        let gap = Evidence {
            covered: 0b001,
            ..strong()
        };
        let j = judge(&gap, &t);
        assert_eq!(j.verdict, Verdict::NeedsExpansion);
        assert_eq!(j.missing, vec![1, 2]);
        assert!(j.reason.contains("1 of 3"), "{}", j.reason);
        let few = Evidence {
            results: 2,
            ..strong()
        };
        assert_eq!(judge(&few, &t).verdict, Verdict::NeedsExpansion);
        let scattered = Evidence {
            agreeing: 0b001,
            runner_up: 9.8,
            strength: 0.2,
            ..strong()
        };
        assert_eq!(judge(&scattered, &t).verdict, Verdict::NeedsSynthesis);
        let lonely = Evidence {
            files: 1,
            runner_up: 9.0,
            ..strong()
        };
        assert_eq!(judge(&lonely, &t).verdict, Verdict::NeedsSynthesis);
        let clear_single = Evidence {
            files: 1,
            runner_up: 2.0,
            ..strong()
        };
        assert_eq!(judge(&clear_single, &t).verdict, Verdict::Sufficient);
    }

    #[test]
    fn confidence_moves_with_each_part() {
        let base = confidence(&strong());
        assert!(
            confidence(&Evidence {
                agreeing: 0b001,
                ..strong()
            }) < base
        );
        assert!(
            confidence(&Evidence {
                runner_up: 9.9,
                ..strong()
            }) < base
        );
        assert!(
            confidence(&Evidence {
                strength: 0.1,
                ..strong()
            }) < base
        );
        assert_eq!(confidence(&Evidence::default()), 0.0);
    }

    #[test]
    fn thresholds_are_respected() {
        let t = Thresholds {
            coverage: 0.2,
            confidence: 0.0,
            diversity: 0,
            min_results: 1,
        };
        let gap = Evidence {
            covered: 0b001,
            results: 1,
            files: 1,
            ..strong()
        };
        assert_eq!(judge(&gap, &t).verdict, Verdict::Sufficient);
    }
}
