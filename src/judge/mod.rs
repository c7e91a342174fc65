//! The sufficiency judge: do the offline results answer the query, or is a
//! language model worth its cost?
//!
//! A pure function of numbers drawn from the ranking ([`evidence`]):
//! - **confidence** (0–1): the estimated probability that the first file is
//!   right — a logistic model of how far the best file leads the second and
//!   third, how strong it is for the query's weight, how much of the query it
//!   holds, whether its best line *defines* what the query names, and how
//!   many words the query has. Fitted on real commit-localisation queries
//!   (`tests/bench/rank_eval.py` reports how it holds up per repository).
//!   For a statement-shaped query the learned ranker ordered
//!   (`score::rerank::judges`), the learned judge's probability stands in,
//!   held to its own threshold; for a question the learned question model
//!   ordered, the question judge's ([`question_probability`]), held to its
//!   own;
//! - **coverage**: the share of the query's words (slots: a word and its
//!   synonyms count once) found on the printed lines or around them — which
//!   kind of help a model would give when confidence is low;
//! - **diversity**: distinct files printed; **results**: lines printed.
//!
//! It owns the verdict and its one-line reason; it does not call a model or
//! decide the policy (`llm = auto|off|always`), which the pipeline applies.

use crate::score::{slot_bit, RankedFile};

mod question_model;

/// Thresholds, each overridable in the config file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Below this coverage a low-confidence result needs expansion (the
    /// query's words are missing) rather than synthesis (0–1).
    pub coverage: f64,
    /// Minimum confidence for the offline results to suffice (0–1), when
    /// the hand-tuned model judges (the hand order ranked the files).
    pub confidence: f64,
    /// The same, when the learned judge does (the learned ranker ordered
    /// them): its probability is on its own scale.
    pub learned_confidence: f64,
    /// The same, when the question judge does (a question the learned
    /// question model ordered).
    pub question_confidence: f64,
    /// Distinct files wanted unless the best file clearly leads.
    pub diversity: usize,
    /// Minimum printed lines.
    pub min_results: usize,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            coverage: 0.7,
            confidence: DEFAULT_CONFIDENCE,
            learned_confidence: LEARNED_CONFIDENCE,
            question_confidence: QUESTION_CONFIDENCE,
            diversity: 1,
            min_results: 1,
        }
    }
}

/// The confidence above which the offline results suffice (when every
/// content word of the query is in some file), by the hand model. On the
/// pinned commit set (240 queries, 8 repositories) 41% of the queries are
/// judged sufficient, and the first file is right for 81% of them.
pub const DEFAULT_CONFIDENCE: f64 = 0.64;

/// The learned judge's threshold, chosen on validation folds (repositories
/// the model never saw) so that the first file is right for 85% of the
/// queries it passes (`tests/bench/train/manifest.json`).
pub const LEARNED_CONFIDENCE: f64 = crate::score::rerank::SUFFICIENT_AT;

/// The question judge's threshold, chosen on the question sets it was
/// fitted on, each set scored by a fit on the others, as the highest that
/// still judges half of their questions sufficient
/// (`tests/bench/train/manifest-question-judge.json`).
pub const QUESTION_CONFIDENCE: f64 = question_model::SUFFICIENT_AT;

/// A lead of the best file over the next by this share of its score counts as
/// a clear winner (a single printed file may then suffice).
pub const CLEAR_MARGIN: f64 = 0.25;

/// The logistic model behind confidence: intercept, then one weight per
/// feature of [`features`]. Fitted by logistic regression on the pinned
/// commit set (real commit subjects over 8 repositories in 4 languages, the
/// label being "the first printed file is one the commit changed"), and
/// checked on 270 queries over 9 other repositories: there 42% are judged
/// sufficient and the first file is right for 73% of them. Only scale-free
/// features: a score's size depends on the corpus, a ratio does not.
const INTERCEPT: f64 = -2.69;
const WEIGHTS: [f64; 6] = [1.14, 1.46, 0.96, 0.80, 1.39, 1.74];

/// Scores more than this many times the most a line could score count the
/// same (the file-strength feature saturates).
const STRENGTH_CAP: f64 = 10.0;
/// Queries of more words than this count the same.
const SLOTS_CAP: usize = 10;

/// What the judge looks at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evidence {
    /// Number of query slots.
    pub slots: usize,
    /// Slots on or around the printed lines (bit per slot).
    pub covered: u64,
    /// Slots on any line of the best file.
    pub in_top_file: u64,
    /// Slots of content words no file holds in any form (bit per slot).
    pub unknown: u64,
    /// Rank scores of the best three files (0 where there is none).
    pub top: f64,
    pub runner_up: f64,
    pub third: f64,
    /// The most a line could score (`TermWeights::total`): the query's weight.
    pub max_line_score: f64,
    /// The share of the best line's score that comes from query words in the
    /// name it defines (0–1).
    pub name_share: f64,
    /// Distinct files and lines printed.
    pub files: usize,
    pub results: usize,
    /// Slots on the best file's best line (bit per slot).
    pub best_slots: u64,
    /// Slots on the best file's printed lines (bit per slot).
    pub top_printed: u64,
    /// Slots of learned answers (`query::answer_slots`): identifiers a model
    /// once chose for this query and kgrep verified in the file.
    pub answers: u64,
    /// Which learned judge, if any, gave the probability that the first
    /// file is right: it stands for confidence, held to its own threshold.
    pub learned: LearnedJudge,
}

/// The learned judge that speaks for a query's results, with its
/// probability that the first file is right. At most one does: the ranker
/// that ordered the files decides which.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum LearnedJudge {
    /// None: confidence is the hand model's.
    #[default]
    None,
    /// The learned judge (`score::rerank::Learned::probability`), for a
    /// statement-shaped query the learned ranker ordered
    /// (`score::rerank::judges`).
    Statement(f64),
    /// The question judge ([`question_probability`]), for a question the
    /// learned question model ordered.
    Question(f64),
}

impl LearnedJudge {
    /// The probability, if a learned judge gave one.
    pub fn probability(self) -> Option<f64> {
        match self {
            LearnedJudge::None => None,
            LearnedJudge::Statement(p) | LearnedJudge::Question(p) => Some(p),
        }
    }
}

impl Evidence {
    /// A learned answer (what a model once chose for this query and kgrep
    /// verified) is on a printed line of the first file: the place it taught
    /// is shown first.
    pub fn learned_answer_first(&self) -> bool {
        (self.best_slots | self.top_printed) & self.answers != 0
    }
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

impl Judgement {
    /// The `-v` line that says what the judge found.
    pub fn summary(&self) -> String {
        format!(
            "judge: coverage {:.2}, confidence {:.2}, diversity {}, results {} -> {} ({})",
            self.coverage,
            self.confidence,
            self.diversity,
            self.results,
            self.verdict.name(),
            self.reason
        )
    }
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
    let mut top_printed = 0;
    for (h, lines) in selected {
        let Some((rank, file)) = ranked.iter().enumerate().find(|(_, f)| f.haystack == *h) else {
            continue;
        };
        for l in file.lines.iter().filter(|l| lines.contains(&l.line)) {
            covered |= l.slots | l.near_slots;
            if rank == 0 {
                top_printed |= l.slots;
            }
        }
    }
    let best = ranked.first().and_then(RankedFile::best_line);
    let name_share = best.map_or(0.0, |l| {
        let s = &l.score;
        let raw = s.terms + s.near + s.merged + s.name;
        if raw > 0.0 {
            s.name / raw
        } else {
            0.0
        }
    });
    let score_of = |i: usize| ranked.get(i).map_or(0.0, |f| f.score);
    Evidence {
        slots,
        covered,
        in_top_file: ranked
            .first()
            .map_or(0, |f| f.lines.iter().fold(0, |acc, l| acc | l.slots)),
        unknown: 0,
        top: score_of(0),
        runner_up: score_of(1),
        third: score_of(2),
        max_line_score,
        name_share,
        files: selected.len(),
        results: selected.iter().map(|(_, lines)| lines.len()).sum(),
        best_slots: best.map_or(0, |l| l.slots),
        top_printed,
        answers: 0,
        learned: LearnedJudge::None,
    }
}

/// The question judge's features ([`question_model::NAMES`]): how far the
/// first file's learned score leads the second's and the third's (capped
/// both ways; a rule that put a lower-scored file first makes it negative),
/// that score, and the hand model's confidence. `learned`: the learned
/// scores of the files in their final order, best first.
pub fn question_features(e: &Evidence, learned: &[f64]) -> [f64; question_model::NAMES.len()] {
    let cap = question_model::MARGIN_CAP;
    let top = learned.first().copied().unwrap_or(0.0);
    let margin = |i: usize| learned.get(i).map_or(cap, |s| (top - s).clamp(-cap, cap));
    [margin(1), margin(2), top, hand_confidence(e)]
}

/// The question judge's probability (0–1) that the first file is right: a
/// logistic model of [`question_features`], fitted on real questions
/// (`tests/bench/train/fit_question_judge.py`). 0 with no candidate.
pub fn question_probability(e: &Evidence, learned: &[f64]) -> f64 {
    if learned.is_empty() {
        return 0.0;
    }
    let z = question_features(e, learned)
        .iter()
        .zip(question_model::WEIGHTS)
        .fold(question_model::INTERCEPT, |acc, (x, w)| acc + x * w);
    1.0 / (1.0 + (-z).exp())
}

/// Share of the query's slots set in `bits`.
fn share(bits: u64, slots: usize) -> f64 {
    if slots == 0 {
        return 0.0;
    }
    let set = (0..slots).filter(|&s| bits & slot_bit(s) != 0).count();
    set as f64 / slots as f64
}

/// How far the best file leads another of score `other`, as a share of its score.
fn lead(top: f64, other: f64) -> f64 {
    if top <= 0.0 {
        return 0.0;
    }
    (1.0 - other / top).clamp(0.0, 1.0)
}

/// The features of the confidence model, each in 0–1: the lead over the
/// second and over the third file, the best file's score for the query's
/// weight, the defined-name share of its best line, the query's length, and
/// the share of the query found in the best file.
pub fn features(e: &Evidence) -> [f64; 6] {
    let strength = if e.max_line_score > 0.0 {
        (e.top / e.max_line_score).min(STRENGTH_CAP) / STRENGTH_CAP
    } else {
        0.0
    };
    [
        lead(e.top, e.runner_up),
        lead(e.top, e.third),
        strength,
        e.name_share.clamp(0.0, 1.0),
        e.slots.min(SLOTS_CAP) as f64 / SLOTS_CAP as f64,
        share(e.in_top_file, e.slots),
    ]
}

/// Confidence in 0–1: the estimated probability that the first file is right.
pub fn confidence(e: &Evidence) -> f64 {
    if e.top <= 0.0 || e.slots == 0 {
        return 0.0;
    }
    if let Some(p) = e.learned.probability() {
        return p;
    }
    hand_confidence(e)
}

/// The hand model's confidence, whatever a learned judge says.
fn hand_confidence(e: &Evidence) -> f64 {
    if e.top <= 0.0 || e.slots == 0 {
        return 0.0;
    }
    let z = features(e)
        .iter()
        .zip(WEIGHTS)
        .fold(INTERCEPT, |acc, (x, w)| acc + x * w);
    1.0 / (1.0 + (-z).exp())
}

/// The share of the query's slots on or around the printed lines.
pub fn coverage(e: &Evidence) -> f64 {
    share(e.covered, e.slots)
}

/// Judges the evidence.
pub fn judge(e: &Evidence, t: &Thresholds) -> Judgement {
    let coverage = coverage(e);
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
    if e.learned_answer_first() {
        // What the model taught, verified in the file then and matched in
        // it now: asking again would pay for the same answer.
        return (
            Verdict::Sufficient,
            format!(
                "a printed line of the first file is a learned answer (coverage {coverage:.2}, {} files)",
                e.files
            ),
        );
    }
    let unknown = (0..e.slots)
        .filter(|&s| e.unknown & slot_bit(s) != 0)
        .count();
    let (threshold, confidence_is) = match e.learned {
        LearnedJudge::Statement(_) => (t.learned_confidence, "learned confidence"),
        LearnedJudge::Question(_) => (t.question_confidence, "question confidence"),
        LearnedJudge::None => (t.confidence, "confidence"),
    };
    // A question often says what it wants in words the code does not use
    // ("figure out", "turned into"): for the question judge a word in no
    // file is no sign of a wrong first file (on the question sets it fitted
    // on, the first file was right for 0.74 of the questions with one and
    // 0.64 of the others) unless the results miss much of the question too
    // (coverage below the threshold that asks for an expansion).
    let unknown_counts = !matches!(e.learned, LearnedJudge::Question(_)) || coverage < t.coverage;
    let unsure = if unknown > 0 && unknown_counts {
        Some(format!(
            "{unknown} of the query's words are in no file, in any form"
        ))
    } else if confidence < threshold {
        Some(format!(
            "the first file may not be the answer ({confidence_is} {confidence:.2} < {threshold:.2})"
        ))
    } else if e.results < t.min_results {
        Some(format!(
            "only {} lines matched (fewer than {})",
            e.results, t.min_results
        ))
    } else if e.files < t.diversity && lead(e.top, e.runner_up) < CLEAR_MARGIN {
        Some(format!(
            "{} file(s) and no clear winner (diversity {} < {})",
            e.files, e.files, t.diversity
        ))
    } else {
        None
    };
    let Some(why) = unsure else {
        return (
            Verdict::Sufficient,
            format!(
                "{confidence_is} {confidence:.2}, coverage {coverage:.2}, {} files",
                e.files
            ),
        );
    };
    if coverage < t.coverage {
        return (
            Verdict::NeedsExpansion,
            format!(
                "{why}; {} of {} query words found near the results (coverage {coverage:.2} < {:.2})",
                e.slots - missing.len(),
                e.slots,
                t.coverage
            ),
        );
    }
    (Verdict::NeedsSynthesis, why)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::testing::{check_provenance, floats, one, same, strings};

    /// A best file far ahead that holds the whole query, its best line
    /// defining what the query names.
    fn strong() -> Evidence {
        Evidence {
            slots: 3,
            covered: 0b111,
            in_top_file: 0b111,
            unknown: 0,
            top: 20.0,
            runner_up: 8.0,
            third: 5.0,
            max_line_score: 3.0,
            name_share: 0.5,
            files: 2,
            results: 5,
            best_slots: 0b111,
            top_printed: 0b111,
            answers: 0,
            learned: LearnedJudge::None,
        }
    }

    #[test]
    fn a_learned_answer_printed_in_the_first_file_is_sufficient() {
        // Weak and close: a model would be asked...
        let weak = Evidence {
            top: 2.0,
            runner_up: 1.9,
            third: 1.8,
            name_share: 0.0,
            ..strong()
        };
        let t = Thresholds::default();
        assert_ne!(judge(&weak, &t).verdict, Verdict::Sufficient);
        // ...unless the best line holds what a model taught and kgrep verified.
        let learned = Evidence {
            best_slots: 0b1001,
            answers: 0b1000,
            ..weak.clone()
        };
        let j = judge(&learned, &t);
        assert_eq!(j.verdict, Verdict::Sufficient, "{}", j.reason);
        assert!(j.reason.contains("learned answer"), "{}", j.reason);
        // Or another printed line of the first file.
        let printed = Evidence {
            best_slots: 0b0001,
            top_printed: 0b1001,
            answers: 0b1000,
            ..weak.clone()
        };
        assert_eq!(judge(&printed, &t).verdict, Verdict::Sufficient);
        // A learned answer not printed in the first file is no evidence.
        let elsewhere = Evidence {
            best_slots: 0b0001,
            top_printed: 0b0011,
            answers: 0b1000,
            ..weak
        };
        assert_ne!(judge(&elsewhere, &t).verdict, Verdict::Sufficient);
    }

    /// The learned judge's probability stands for confidence, and is held
    /// to its own threshold.
    #[test]
    fn a_learned_probability_is_the_confidence_and_meets_its_own_threshold() {
        let t = Thresholds {
            confidence: 0.5,
            learned_confidence: 0.8,
            ..Thresholds::default()
        };
        let sure = Evidence {
            learned: LearnedJudge::Statement(0.85),
            ..strong()
        };
        let j = judge(&sure, &t);
        assert_eq!(j.confidence, 0.85);
        assert_eq!(j.verdict, Verdict::Sufficient);
        // 0.7 would pass the hand threshold, not the learned one.
        let unsure = Evidence {
            learned: LearnedJudge::Statement(0.7),
            ..strong()
        };
        let j = judge(&unsure, &t);
        assert_ne!(j.verdict, Verdict::Sufficient);
        assert!(j.reason.contains("0.70 < 0.80"), "{}", j.reason);
    }

    /// The question judge's probability stands for confidence, is held to
    /// its own threshold, and is not overruled by a query word no file
    /// holds (a question often words what it wants as the code does not).
    #[test]
    fn a_question_probability_meets_its_own_threshold_whatever_words_are_unknown() {
        let t = Thresholds {
            confidence: 0.5,
            learned_confidence: 0.5,
            question_confidence: 0.8,
            ..Thresholds::default()
        };
        let sure = Evidence {
            learned: LearnedJudge::Question(0.85),
            unknown: 0b1000,
            slots: 4,
            covered: 0b0111,
            ..strong()
        };
        let j = judge(&sure, &t);
        assert_eq!(j.confidence, 0.85);
        assert_eq!(j.verdict, Verdict::Sufficient, "{}", j.reason);
        assert!(
            j.reason.contains("question confidence 0.85"),
            "{}",
            j.reason
        );
        let unsure = Evidence {
            learned: LearnedJudge::Question(0.7),
            ..strong()
        };
        let j = judge(&unsure, &t);
        assert_ne!(j.verdict, Verdict::Sufficient);
        assert!(
            j.reason.contains("question confidence 0.70 < 0.80"),
            "{}",
            j.reason
        );
        // Unless the results miss much of the question too.
        let missing = Evidence {
            covered: 0b0011,
            ..sure.clone()
        };
        let j = judge(&missing, &t);
        assert_eq!(j.verdict, Verdict::NeedsExpansion, "{}", j.reason);
        assert!(j.reason.contains("in no file"), "{}", j.reason);
        // The hand judge still takes an unknown word as a sign to ask.
        let hand = Evidence {
            unknown: 0b1000,
            slots: 4,
            ..strong()
        };
        assert_ne!(
            judge(&hand, &Thresholds::default()).verdict,
            Verdict::Sufficient
        );
    }

    /// The question judge trusts a first file that leads the next two by its
    /// learned score more than one a rule put before a better-scored file,
    /// and more hand confidence more.
    #[test]
    fn the_question_probability_rises_with_the_lead_and_the_hand_confidence() {
        let e = strong();
        let lead = question_probability(&e, &[4.0, 2.0, 1.0]);
        let close = question_probability(&e, &[4.0, 3.9, 3.8]);
        let behind = question_probability(&e, &[3.0, 4.0, 3.5]);
        assert!(lead > close && close > behind, "{lead} {close} {behind}");
        let weak = Evidence {
            runner_up: 19.5,
            third: 19.0,
            name_share: 0.0,
            ..strong()
        };
        assert!(hand_confidence(&weak) < hand_confidence(&e));
        assert!(question_probability(&weak, &[4.0, 2.0, 1.0]) < lead);
        // One candidate: the missing runners-up count as far behind.
        let alone = question_features(&e, &[4.0]);
        assert_eq!(
            alone[..3],
            [question_model::MARGIN_CAP, question_model::MARGIN_CAP, 4.0]
        );
        assert_eq!(question_probability(&e, &[]), 0.0);
        // A margin is capped both ways.
        let far = question_features(&e, &[0.0, 40.0, -40.0]);
        assert_eq!(
            far[..2],
            [-question_model::MARGIN_CAP, question_model::MARGIN_CAP]
        );
    }

    /// The committed question judge is well formed and is what its manifest
    /// says: the same features, weights, intercept and threshold, the
    /// questions it counts, and a validation that left sets out.
    #[test]
    fn the_generated_question_judge_matches_its_manifest() {
        let manifest: serde_json::Value = serde_json::from_str(include_str!(
            "../../tests/bench/train/manifest-question-judge.json"
        ))
        .unwrap();
        assert_eq!(strings(&manifest["names"]), question_model::NAMES);
        assert!(same(
            &floats(&manifest["weights"]),
            &question_model::WEIGHTS
        ));
        assert!(same(
            &one(&manifest["intercept"]),
            &[question_model::INTERCEPT]
        ));
        assert!(same(&one(&manifest["threshold"]), &[QUESTION_CONFIDENCE]));
        assert!((0.0..1.0).contains(&QUESTION_CONFIDENCE));
        check_provenance(
            &manifest,
            "questions",
            "commit",
            "leave one question set out",
        );
    }

    #[test]
    fn strong_results_are_sufficient() {
        let j = judge(&strong(), &Thresholds::default());
        assert_eq!(j.verdict, Verdict::Sufficient, "{}", j.reason);
        assert_eq!(j.coverage, 1.0);
        assert!(j.confidence > DEFAULT_CONFIDENCE && j.confidence <= 1.0);
    }

    #[test]
    fn each_shortfall_has_its_verdict() {
        let t = Thresholds::default();
        let none = Evidence {
            results: 0,
            files: 0,
            ..strong()
        };
        assert_eq!(judge(&none, &t).verdict, Verdict::Insufficient);
        let close = Evidence {
            runner_up: 19.5,
            third: 19.0,
            name_share: 0.0,
            ..strong()
        };
        let j = judge(&close, &t);
        assert_eq!(j.verdict, Verdict::NeedsSynthesis, "{}", j.reason);
        assert!(j.reason.contains("confidence"), "{}", j.reason);
        let gap = Evidence {
            covered: 0b001,
            in_top_file: 0b001,
            ..close
        };
        let j = judge(&gap, &t);
        assert_eq!(j.verdict, Verdict::NeedsExpansion);
        assert_eq!(j.missing, vec![1, 2]);
        assert!(j.reason.contains("1 of 3"), "{}", j.reason);
    }

    #[test]
    fn a_word_no_file_holds_needs_the_corpus_words_for_it() {
        let gronk = Evidence {
            unknown: 0b010,
            covered: 0b101,
            ..strong()
        };
        let j = judge(&gronk, &Thresholds::default());
        assert_eq!(j.verdict, Verdict::NeedsExpansion, "{}", j.reason);
        assert!(j.reason.contains("in no file"), "{}", j.reason);
    }

    #[test]
    fn a_single_clear_line_can_suffice_by_default() {
        let one = Evidence {
            files: 1,
            results: 1,
            ..strong()
        };
        assert_eq!(
            judge(&one, &Thresholds::default()).verdict,
            Verdict::Sufficient
        );
    }

    #[test]
    fn confidence_moves_with_each_feature() {
        let base = confidence(&strong());
        for weaker in [
            Evidence {
                runner_up: 19.0,
                ..strong()
            },
            Evidence {
                third: 19.0,
                runner_up: 19.0,
                ..strong()
            },
            Evidence {
                max_line_score: 30.0,
                ..strong()
            },
            Evidence {
                name_share: 0.0,
                ..strong()
            },
            Evidence {
                in_top_file: 0b001,
                ..strong()
            },
        ] {
            assert!(confidence(&weaker) < base, "{weaker:?}");
        }
        let longer = Evidence {
            slots: 6,
            in_top_file: 0b111111,
            ..strong()
        };
        assert!(confidence(&longer) > base);
        assert_eq!(confidence(&Evidence::default()), 0.0);
        assert!(features(&strong()).iter().all(|x| (0.0..=1.0).contains(x)));
    }

    #[test]
    fn thresholds_are_respected() {
        let weak = Evidence {
            runner_up: 19.9,
            third: 19.9,
            covered: 0b001,
            in_top_file: 0b001,
            name_share: 0.0,
            results: 1,
            files: 1,
            ..strong()
        };
        let lenient = Thresholds {
            coverage: 0.2,
            confidence: 0.0,
            learned_confidence: 0.0,
            question_confidence: 0.0,
            diversity: 0,
            min_results: 1,
        };
        assert_eq!(judge(&weak, &lenient).verdict, Verdict::Sufficient);
        let strict = Thresholds {
            min_results: 6,
            ..Thresholds::default()
        };
        assert_ne!(judge(&strong(), &strict).verdict, Verdict::Sufficient);
        let diverse = Thresholds {
            diversity: 3,
            ..Thresholds::default()
        };
        let close_two = Evidence {
            runner_up: 18.0,
            ..strong()
        };
        assert_ne!(judge(&close_two, &diverse).verdict, Verdict::Sufficient);
    }
}
