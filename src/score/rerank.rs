//! The learned ranking: orders a query's candidate files by a linear model
//! fitted in `tests/bench/train/` (the generated `learned.rs` for commit-
//! shaped queries, `learned_questions.rs` for questions, `learned_happens.rs`
//! for "what happens" questions), and gives the judge the commit model's
//! probability that the first file is right.
//!
//! Owns applying the generated weights to the candidates' feature vectors
//! (`features`) and reading the judge's features off the learned order. Does
//! not own the features themselves, the fitting (`fit.py`) or the verdict
//! (`judge`).

use super::features::{self, QueryFacts};
use super::{learned, learned_happens, learned_questions};
use super::{unit, RankedFile, TermWeights};
use crate::query::Ask;

// The generated models weigh the features `features` computes, one weight
// each: a new feature needs new models (`tests/bench/train/make_model.sh` and
// `make_question_model.sh`).
const _: () = assert!(learned::NAMES.len() == features::NAMES.len());
const _: () = assert!(learned_questions::NAMES.len() == features::NAMES.len());
const _: () = assert!(learned_happens::NAMES.len() == features::NAMES.len());

/// The learned judge's probability from which the first file is trusted.
pub const SUFFICIENT_AT: f64 = learned::SUFFICIENT_AT;

/// Whether the learned ranker orders a query's files: every query but one
/// asking for tests (no training answer was a test file). Fitted on commit
/// subjects ("add a timeout to retries"), it ranks the files a change
/// touches, callers among them; a question ("where is …", "how does …")
/// asks for the function that does the thing, so for a question the
/// definer of what the first file only calls goes first (`definer_first`).
/// Measured on the question set: first file right 0.55 -> 0.62, dev set
/// region recall 0.829 -> 0.837, R@1 unchanged.
pub fn applies(facts: QueryFacts<'_>) -> bool {
    !facts.wants_tests
}

/// Whether the learned judge decides a query's sufficiency: a query shaped
/// like the commit subjects it was calibrated on (so one the commit model
/// ranks, [`Model::of`]). A question has a judge of its own
/// (`judge::question_probability`), fitted on real questions: on the dev
/// set's questions this one judged half as many sufficient (0.50 -> 0.26)
/// for the same precision, calling the model for the rest.
pub fn judges(facts: QueryFacts<'_>) -> bool {
    applies(facts) && Model::of(facts) == Model::Commits
}

/// Which fitted model orders a query's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Fitted on commit subjects and the files their commits changed: a
    /// statement ("add a timeout to retries", "Optional percent encoding").
    Commits,
    /// Fitted on questions with the answer files a reader pointed to: a
    /// question ("where is …", "how does …"; "what happens …" has
    /// [`Model::Happens`]), or a search typed as keywords. Ordered by the
    /// commit model, a question's first file is the one a change would touch
    /// (often a caller, or the largest file that mentions everything); the
    /// question model weighs length against it and the function that does
    /// the thing for it. Fitted first on 2,465 questions made from doc
    /// comments (first file right 0.51 -> 0.56 leaving repositories out), it
    /// is now fitted on 631 real questions of the tuned question sets, the
    /// first left out: on the untuned sets' 504, which it never saw, first
    /// file right 0.594 with the doc-question model -> 0.615
    /// (`tests/bench/train/README.md`, "The question model").
    Questions,
    /// Fitted on "what happens if …" questions made from doc comments that
    /// say what a function does on failure ("Raises ValueError if the name
    /// is empty"), each answered by that function: a question that asks what
    /// happens when something fails, times out or is missing. The question
    /// model never saw that shape, and the hand order beat it on such
    /// questions. On the 370 of them with the answer among the candidates:
    /// first file right 0.476 by the question model, 0.500 by hand, 0.503 by
    /// this one (leaving repositories out); on the question sets' 112 "what
    /// happens" questions, which it never saw, RIGHT 55 -> 65.
    Happens,
}

impl Model {
    /// The model for a query: a question, or a search typed as keywords
    /// (`QueryFacts::keywords`), gets the question model. Measured on the
    /// doc questions as keywords (question and stop words dropped; each half
    /// of the repositories ranked by a model fitted on the other): RIGHT
    /// 0.392 -> 0.430. Every commit subject of the commit sets kept its
    /// order: one that opens with a capital or a change verb is not a search.
    pub fn of(facts: QueryFacts<'_>) -> Model {
        match facts.ask {
            Ask::Happens => Model::Happens,
            Ask::Other if !facts.keywords => Model::Commits,
            _ => Model::Questions,
        }
    }

    /// How `-v` names the model.
    pub fn name(self) -> &'static str {
        match self {
            Model::Commits => "the commit model (fitted on commit subjects)",
            Model::Questions => "the question model (fitted on real questions)",
            Model::Happens => "the what-happens model (fitted on doc comments' failure clauses)",
        }
    }

    /// A candidate's learned score: the model's bias plus its weighted features.
    pub fn score(self, f: &[f64]) -> f64 {
        let (weights, bias) = match self {
            Model::Commits => (&learned::WEIGHTS, learned::BIAS),
            Model::Questions => (&learned_questions::WEIGHTS, learned_questions::BIAS),
            Model::Happens => (&learned_happens::WEIGHTS, learned_happens::BIAS),
        };
        f.iter().zip(weights).fold(bias, |acc, (x, w)| acc + x * w)
    }
}

/// What the learned ranking leaves a query: its first file's features and
/// the candidates' learned scores, best first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Learned {
    /// Learned scores in the files' new order: best first, unless a
    /// where-question blended in the hand order (`blend_with_hand_order`).
    pub scores: Vec<f64>,
    /// The feature vector of the first file.
    pub top: Vec<f64>,
}

/// Orders `files` by their learned scores, best first (for a where-question,
/// blended with the hand order: [`WHERE_HAND_WEIGHT`]); a tie keeps the hand
/// order (`sort_files`'s, which breaks its own ties by path), so the output
/// stays deterministic. Each file's `learned` score is set.
pub fn rerank(
    files: &mut Vec<RankedFile>,
    keys: impl Fn(usize) -> String,
    weights: &TermWeights,
    facts: QueryFacts<'_>,
) -> Learned {
    let vectors = features::all_features(files, &keys, weights, facts);
    let model = Model::of(facts);
    let mut scored: Vec<(f64, RankedFile, Vec<f64>)> = std::mem::take(files)
        .into_iter()
        .zip(vectors)
        .map(|(mut f, v)| {
            let s = model.score(&v);
            f.learned = Some(s);
            (s, f, v)
        })
        .collect();
    if model == Model::Questions && facts.units_ask == Ask::Where {
        blend_with_hand_order(&mut scored, WHERE_HAND_WEIGHT);
    } else {
        // A stable sort: ties stay in the hand order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    }
    if facts.units_ask != Ask::Other {
        code_before_declarations(&mut scored, |f| passed_over(f, &keys(f.haystack), facts));
        definer_first(&mut scored);
        subject_file_first(&mut scored, facts.subject, &keys);
        if matches!(facts.units_ask, Ask::How | Ask::Happens) {
            stronger_unit_first(&mut scored);
        }
    }
    let mut out = Learned::default();
    for (i, (s, f, v)) in scored.into_iter().enumerate() {
        if i == 0 {
            out.top = v;
        }
        out.scores.push(s);
        files.push(f);
    }
    out
}

/// How much the hand order weighs against the question model's scores for
/// a where-question ("where is X defined, set, configured"), both as
/// z-scores over the query's candidates (`blend_with_hand_order`).
///
/// The question model was fitted on questions made from doc comments, which
/// say what a function does: it learned to favour the code that does a
/// thing. A where-question asks for a place (a constant, a table, the
/// function that sets a default), and on those the model ordered no better
/// than the hand score: over the 16 question sets' where-questions it ranks,
/// first file right 169 of 273 by the model, 171 by hand, 171 with both at
/// this weight (a simulation on `--features` dumps). In the binary, over the
/// 920 questions: 527 -> 530 RIGHT (weights 1, 3, 5 and the hand order
/// alone: 526, 531, 529, 528), dev R@1 0.750 -> 0.821; the commit sets have
/// their own model and do not change. How-questions keep the model alone:
/// there it beats the hand order (171 against 157).
pub const WHERE_HAND_WEIGHT: f64 = 2.0;

/// Orders `scored` (in the hand order) by its learned score's z-score plus
/// `weight` times the z-score of its place in the hand order (first best);
/// ties keep the hand order. Each file is marked `hand_blend`.
fn blend_with_hand_order<V>(scored: &mut Vec<(f64, RankedFile, V)>, weight: f64) {
    if scored.len() < 2 {
        return;
    }
    let n = scored.len() as f64;
    let z = |xs: &[f64]| -> Vec<f64> {
        let mean = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        xs.iter()
            .map(|x| if sd > 0.0 { (x - mean) / sd } else { 0.0 })
            .collect()
    };
    let learned: Vec<f64> = scored.iter().map(|(s, _, _)| *s).collect();
    let hand: Vec<f64> = (0..scored.len()).map(|i| -(i as f64)).collect();
    let keys: Vec<f64> = z(&learned)
        .into_iter()
        .zip(z(&hand))
        .map(|(l, h)| l + weight * h)
        .collect();
    let mut keyed: Vec<(f64, (f64, RankedFile, V))> =
        keys.into_iter().zip(std::mem::take(scored)).collect();
    // A stable sort: ties stay in the hand order.
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.extend(keyed.into_iter().map(|(_, mut x)| {
        x.1.hand_blend = true;
        x
    }));
}

/// A parsed file none of whose units that hold the query's words does
/// anything: types, interfaces, constants, prototypes (a C header's, an
/// interface's methods). A question, or a query of keywords, is answered by
/// the code those declarations describe (hiredis's `hiredis.h` prototypes
/// above `net.c`, h3's `src/types/utils/static.ts` above
/// `src/utils/static.ts`), unless it asks for a declaration itself
/// (`QueryFacts::asks_declaration`: "where is the type … defined").
fn only_declares(f: &RankedFile) -> bool {
    f.parsed
        && !f.units.is_empty()
        && f.units
            .iter()
            .all(|u| u.span.shape != unit::Shape::Callable || u.span.bodiless)
}

/// Whether a question passes `f` (at `key`) over for code that does the
/// thing ([`code_before_declarations`]): a declaration file always; a file
/// that only declares, or a C or C++ header, unless the question asks for a
/// declaration itself. A where-question may ask for a value that a file of
/// constants defines (`unit::VALUE_FACTOR`): such a file keeps its place.
fn passed_over(f: &RankedFile, key: &str, facts: QueryFacts<'_>) -> bool {
    let code_asked = !facts.asks_declaration;
    let value_asked = facts.units_ask == Ask::Where;
    is_declaration_file(key) || code_asked && (only_declares(f) && !value_asked || is_c_header(key))
}

/// A file of type declarations only (TypeScript's `.d.ts`, Python's `.pyi`
/// stubs): it declares what code elsewhere does.
fn is_declaration_file(key: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts", ".pyi"]
        .iter()
        .any(|ext| key.ends_with(ext))
}

/// A C or C++ header (`units::Lang::is_header`): its prototypes, macros and
/// structs name what the source files do (hiredis's `alloc.h` above
/// `alloc.c`), even when it holds an inline function or two, so it is not
/// [`only_declares`].
fn is_c_header(key: &str) -> bool {
    crate::units::Lang::is_header(key)
}

/// A question asks for the code that does the thing; a declaration file
/// (`is_declaration_file`) only names it, with every option's and method's
/// words in one long file, which the learned ranker (fitted on commits, which
/// change the declarations with the code) can put first. So can a parsed file
/// that only declares, or a C/C++ header ([`is_c_header`]), when the question
/// asks for code rather than a declaration. For a question, the best code
/// file of no lower kind (`prior`) among the next `PROMOTE_WINDOW` goes
/// before it. Measured for headers over the 16 question sets: 524 -> 527
/// RIGHT (hiredis `alloc.h`, zlib `deflate.h`, jansson `jansson.h` each gave
/// way to the `.c` that answers), none down; the commit sets hold no question.
/// A file that only declares keeps its place for a where-question, which
/// may ask for its values: over the 1,700 questions, tuned sets 604 -> 604
/// RIGHT (2 up, 2 down), untuned 398 -> 401; the dev and commit sets
/// unchanged.
fn code_before_declarations<V>(
    scored: &mut [(f64, RankedFile, V)],
    declares: impl Fn(&RankedFile) -> bool,
) {
    if scored.first().is_some_and(|(_, f, _)| declares(f)) {
        promote(scored, |f| !declares(f), PROMOTED_CODE);
    }
}

/// Why `code_before_declarations` moved a file first.
const PROMOTED_CODE: &str = "code, before a file that only declares it";
/// Why `definer_first` moved a file first.
const PROMOTED_DEFINER: &str = "it defines what the learned first file only calls";

/// Moves to the front the first of the next `PROMOTE_WINDOW` files that is
/// of no lower kind (`prior`) than the first and that `pick` accepts, and
/// records `why` on it.
fn promote<V>(
    scored: &mut [(f64, RankedFile, V)],
    pick: impl Fn(&RankedFile) -> bool,
    why: &'static str,
) {
    let Some(prior) = scored.first().map(|(_, f, _)| f.prior) else {
        return;
    };
    let found = scored
        .iter()
        .enumerate()
        .skip(1)
        .take(PROMOTE_WINDOW)
        .find(|(_, (_, f, _))| f.prior >= prior && pick(f))
        .map(|(i, _)| i);
    if let Some(i) = found {
        scored[i].1.promoted = Some(why);
        scored[..=i].rotate_right(1);
    }
}

/// Files after the first among which `promote` looks for a better first.
const PROMOTE_WINDOW: usize = 5;

/// A question asks for the code that does the thing. When the first file's
/// best unit only *calls* something named with the query's words (its name
/// and body together hold less of them, and none of its units is named with
/// as much of them)
/// and a runner-up of no lower kind (`prior`) has a best unit that is a
/// function, not a test, *named* with them (as much weight in its name as
/// the first has in its calls) and called by the first's, the definer goes
/// first. Fitted on commit subjects, the model ranks callers up (a change
/// touches them as often); a question names what the function does.
fn definer_first<V>(scored: &mut [(f64, RankedFile, V)]) {
    let name = unit::Field::Name.index();
    let call = unit::Field::Call.index();
    let Some((_, file, _)) = scored.first() else {
        return;
    };
    let Some(best) = file.units.first() else {
        return;
    };
    let calls = best.score.fields[call];
    let callees = best.callees.clone();
    // The first file may define what it calls itself, or do the thing in
    // its best unit (its name and body) as much as it calls something.
    let own = best.score.fields[name] + best.score.fields[unit::Field::Body.index()];
    if calls <= 0.0 || own >= calls || file.units.iter().any(|u| u.score.fields[name] >= calls) {
        return;
    }
    promote(
        scored,
        |f| {
            f.units.first().is_some_and(|u| {
                u.span.shape == unit::Shape::Callable
                    && !u.span.test
                    && u.score.fields[name] >= calls
                    && u.span
                        .name
                        .as_ref()
                        .is_some_and(|n| callees.binary_search(n).is_ok())
            })
        },
        PROMOTED_DEFINER,
    );
}

/// Why `subject_file_first` moved a file first.
const PROMOTED_SUBJECT: &str = "its name is what the question asks about";

/// Words a file name holds that say what kind of file it is, not what part
/// of the code it is.
const GENERIC_STEMS: &[&str] = &["data", "file", "test", "type", "util", "valu"];

/// The file's name (its last path segment, without extension) and its
/// folder's, lowercase, letters and digits only.
fn file_stems(key: &str) -> [String; 2] {
    let mut segments = key.rsplit('/');
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let name = segments.next().unwrap_or(key);
    let stem = name.split('.').next().unwrap_or(name);
    [clean(stem), clean(segments.next().unwrap_or(""))]
}

/// Whether the file's name, or its folder's, holds one of `subject`'s stems
/// (of four letters or more, not a generic one).
fn named_for(key: &str, subject: &[String]) -> bool {
    let names = file_stems(key);
    subject.iter().any(|s| {
        s.len() >= 4
            && !GENERIC_STEMS.contains(&s.as_str())
            && names.iter().any(|n| n.contains(s.as_str()))
    })
}

/// A how-question names the part of the code it asks about ("how does the
/// sync step decide …", "how does the lexer …"), and the file named for it
/// (`scripts/sync.py`, `Lexer.ts`) is where that part does the thing, more
/// often than the file that mentions the question's words most: when the
/// first file's name (or folder's) holds none of the subject's words, the
/// first of the next `PROMOTE_WINDOW` files of no lower kind whose name
/// holds one goes first. Measured on the question sets: the kept-untuned ones 201 -> 203
/// RIGHT of 360, the others 568 -> 574 of 980 (9 up, 2 down).
fn subject_file_first<V>(
    scored: &mut [(f64, RankedFile, V)],
    subject: &[String],
    keys: &impl Fn(usize) -> String,
) {
    if subject.is_empty()
        || scored
            .first()
            .is_some_and(|(_, f, _)| named_for(&keys(f.haystack), subject))
    {
        return;
    }
    promote(
        scored,
        |f| named_for(&keys(f.haystack), subject),
        PROMOTED_SUBJECT,
    );
}

/// Why `stronger_unit_first` moved a file first.
const PROMOTED_UNIT: &str = "its best unit does far more of what the question asks";

/// How many times the first file's best unit the runner-up's must score
/// ([`stronger_unit_first`]).
const STRONGER_UNIT_RATIO: f64 = 2.0;

/// A how or what-happens question asks for the code that does the thing,
/// which a file's best unit stands for: its in-file score (`unit::UnitScore::
/// total`) weighs the fields that hold the question with the unit's length
/// and its branching. When the second file, parsed and of no lower kind
/// (`prior`), has a best unit that is a named function or method with a
/// body, scoring more than [`STRONGER_UNIT_RATIO`] times the first file's
/// best unit, it goes first: the first's lead is its file's words, not a
/// unit that does the thing. A file that only declares never has such a
/// unit, so this never undoes [`code_before_declarations`]. Simulated on
/// `-v` rankings of the tuned question sets (tests asked for left out) at
/// ratios 1.6, 1.8, 2, 2.2 and 2.5: first file right 576 -> 580, 584, 583,
/// 579 and 577 of 882 (2: 7 up, none down).
fn stronger_unit_first<V>(scored: &mut [(f64, RankedFile, V)]) {
    let [(_, first, _), (_, second, _), ..] = &*scored else {
        return;
    };
    let best = |f: &RankedFile| f.units.first().map_or(0.0, |u| u.score.total);
    let does = second.units.first().is_some_and(|u| {
        u.span.shape == unit::Shape::Callable && !u.span.bodiless && u.span.name.is_some()
    });
    if second.parsed
        && does
        && second.prior >= first.prior
        && best(second) > STRONGER_UNIT_RATIO * best(first)
    {
        scored[1].1.promoted = Some(PROMOTED_UNIT);
        scored.swap(0, 1);
    }
}

impl Learned {
    /// The judge model's features (`learned::JUDGE_NAMES`): the first file's
    /// lead over the second and third (capped), its score, and a few of its
    /// features.
    pub fn judge_features(&self) -> [f64; learned::JUDGE_NAMES.len()] {
        let top = self.scores.first().copied().unwrap_or(0.0);
        let next = |i: usize| {
            self.scores
                .get(i)
                .copied()
                .unwrap_or(top - learned::MARGIN_CAP)
        };
        let feature = |name: &str| {
            features::index(name)
                .and_then(|i| self.top.get(i))
                .copied()
                .unwrap_or(0.0)
        };
        [
            (top - next(1)).min(learned::MARGIN_CAP),
            (top - next(2)).min(learned::MARGIN_CAP),
            top,
            feature("coverage"),
            feature("unit_coverage"),
            feature("query_slots"),
            feature("rel_hand_score"),
            feature("first_rank_recip"),
            (1.0 + self.scores.len() as f64).ln(),
        ]
    }

    /// The judge model's probability (0–1) that the first file is right;
    /// 0 with no candidate.
    pub fn probability(&self) -> f64 {
        if self.scores.is_empty() {
            return 0.0;
        }
        let z = self
            .judge_features()
            .iter()
            .zip(learned::JUDGE_WEIGHTS)
            .fold(learned::JUDGE_INTERCEPT, |acc, (x, w)| acc + x * w);
        1.0 / (1.0 + (-z).exp())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::testing::{check_provenance, floats, one, same, strings};

    /// The committed model is well formed and is what its manifest says:
    /// the same features in the same order as `features::NAMES`, the same
    /// weights, and the training and validation it records.
    #[test]
    fn the_generated_model_matches_its_manifest() {
        let manifest = matches_manifest(
            include_str!("../../tests/bench/train/manifest.json"),
            &learned::NAMES,
            &learned::WEIGHTS,
            learned::BIAS,
        );
        let judge = &manifest["judge"];
        assert_eq!(strings(&judge["names"]), learned::JUDGE_NAMES);
        assert!(same(&floats(&judge["weights"]), &learned::JUDGE_WEIGHTS));
        assert!(same(&one(&judge["intercept"]), &[learned::JUDGE_INTERCEPT]));
        assert!(same(&one(&judge["threshold"]), &[learned::SUFFICIENT_AT]));
    }

    /// A question ("where", "which", "how", "why", "what happens") or a search
    /// typed as keywords is ordered by the question model and not judged by
    /// the learned (commit) judge; a commit subject by the commit model, which
    /// the learned judge was calibrated on.
    #[test]
    fn questions_get_the_question_model_and_the_hand_judge() {
        let facts = |raw: &str| QueryFacts {
            typed: &[],
            wants_tests: false,
            answers: 0,
            ask: Ask::of(raw),
            units_ask: Ask::of(raw).for_units(raw),
            asks_declaration: false,
            keywords: Ask::of(raw).typed_as_search(raw),
            subject: &[],
        };
        for q in [
            "where is the retry delay computed",
            "which function parses the header",
            "how does it pick a port",
        ] {
            assert_eq!(Model::of(facts(q)), Model::Questions, "{q}");
            assert!(applies(facts(q)) && !judges(facts(q)), "{q}");
        }
        // "What happens" has its own model, and is not the learned judge's either.
        for q in [
            "What happens when the config file is missing?",
            "what happens if the server never answers",
        ] {
            assert_eq!(Model::of(facts(q)), Model::Happens, "{q}");
            assert!(applies(facts(q)) && !judges(facts(q)), "{q}");
        }
        for q in [
            "add a timeout to retries",
            "fix parse error when no status text",
            "Optional percent encoding behaviour",
        ] {
            assert_eq!(Model::of(facts(q)), Model::Commits, "{q}");
            assert!(judges(facts(q)), "{q}");
        }
        // A search typed as keywords is asked like a question.
        let q = "default allowed methods cross-origin";
        assert_eq!(Model::of(facts(q)), Model::Questions, "{q}");
        assert!(!judges(facts(q)), "{q}");
        let v = vec![1.0; features::NAMES.len()];
        assert_ne!(Model::Questions.score(&v), Model::Commits.score(&v));
        assert_ne!(Model::Happens.score(&v), Model::Questions.score(&v));
    }

    /// The same for the question model.
    #[test]
    fn the_generated_question_model_matches_its_manifest() {
        matches_manifest(
            include_str!("../../tests/bench/train/manifest-questions.json"),
            &learned_questions::NAMES,
            &learned_questions::WEIGHTS,
            learned_questions::BIAS,
        );
    }

    /// The same for the "what happens" model.
    #[test]
    fn the_generated_happens_model_matches_its_manifest() {
        matches_manifest(
            include_str!("../../tests/bench/train/manifest-happens.json"),
            &learned_happens::NAMES,
            &learned_happens::WEIGHTS,
            learned_happens::BIAS,
        );
    }

    /// Checks a generated model against its manifest (`text`) and returns the
    /// manifest: the features of `features::NAMES` in order, the same finite
    /// weights and bias, what it was trained on (repositories at pinned
    /// commits, how many queries) and that it validated leaving repositories
    /// out.
    fn matches_manifest(
        text: &str,
        names: &[&str],
        weights: &[f64],
        bias: f64,
    ) -> serde_json::Value {
        let manifest: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(names, features::NAMES);
        assert_eq!(strings(&manifest["names"]), names);
        assert!(same(&floats(&manifest["weights"]), weights));
        assert!(same(&one(&manifest["bias"]), &[bias]));
        assert!(weights.iter().all(|w| w.is_finite()));
        check_provenance(&manifest, "queries", "tip", "leave repositories out");
        manifest
    }

    fn file(haystack: usize, score: f64) -> RankedFile {
        RankedFile {
            haystack,
            score,
            file_score: score,
            prior: 1.0,
            ..RankedFile::default()
        }
    }

    /// A file whose one unit has `name` and `call` weight in those fields.
    fn with_unit(haystack: usize, name: f64, call: f64, test: bool) -> (f64, RankedFile, ()) {
        let mut fields = [0.0; 7];
        fields[unit::Field::Name.index()] = name;
        fields[unit::Field::Call.index()] = call;
        let span = unit::UnitSpan {
            shape: unit::Shape::Callable,
            kind: "function",
            name: Some(format!("f{haystack}")),
            start_line: 1,
            end_line: 3,
            def_line: 1,
            test,
            bodiless: false,
            parent: None,
            branches: 0,
        };
        // A caller calls `f1` and `f2`.
        let callees = if call > 0.0 {
            vec!["f1".to_string(), "f2".to_string()]
        } else {
            Vec::new()
        };
        let ranked = unit::RankedUnit {
            span,
            index: 0,
            slots: 1,
            score: unit::UnitScore {
                fields,
                ..unit::UnitScore::default()
            },
            callees,
        };
        let mut f = file(haystack, 1.0);
        f.units = vec![ranked];
        (1.0, f, ())
    }

    fn order(scored: &[(f64, RankedFile, ())]) -> Vec<usize> {
        scored.iter().map(|(_, f, _)| f.haystack).collect()
    }

    #[test]
    fn a_question_puts_the_definer_before_a_file_that_only_calls_it() {
        let mut scored = vec![
            with_unit(0, 0.0, 2.0, false),
            with_unit(1, 0.0, 1.0, false),
            with_unit(2, 2.5, 0.0, false),
        ];
        definer_first(&mut scored);
        assert_eq!(order(&scored), [2, 0, 1]);
        // A name weaker than the first file's calls is not the definer.
        let mut scored = vec![with_unit(0, 0.0, 2.0, false), with_unit(1, 1.0, 0.0, false)];
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 1]);
        // Nor is a test, or a file of a lower kind.
        let mut scored = vec![with_unit(0, 0.0, 2.0, false), with_unit(1, 3.0, 0.0, true)];
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 1]);
        let mut scored = vec![with_unit(0, 0.0, 2.0, false), with_unit(1, 3.0, 0.0, false)];
        scored[1].1.prior = 0.5;
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 1]);
        // A first file that defines what it calls keeps its place.
        let mut scored = vec![with_unit(0, 0.0, 2.0, false), with_unit(1, 3.0, 0.0, false)];
        let own = with_unit(0, 2.0, 0.0, false).1.units;
        scored[0].1.units.extend(own);
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 1]);
        // A function the first file does not call is not its definer.
        let mut scored = vec![with_unit(0, 0.0, 2.0, false), with_unit(3, 3.0, 0.0, false)];
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 3]);
        // Nor does a first file move that does the thing in its body too.
        let mut scored = vec![with_unit(0, 0.0, 2.0, false), with_unit(1, 3.0, 0.0, false)];
        scored[0].1.units[0].score.fields[unit::Field::Body.index()] = 2.0;
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 1]);
        // Nor one whose best unit is named with the words and does some of
        // it in its body: together, as much as it calls.
        let mut scored = vec![with_unit(0, 1.2, 2.0, false), with_unit(1, 3.0, 0.0, false)];
        scored[0].1.units[0].score.fields[unit::Field::Body.index()] = 0.9;
        definer_first(&mut scored);
        assert_eq!(order(&scored), [0, 1]);
    }

    #[test]
    fn a_how_question_puts_a_far_stronger_unit_first() {
        // Best units scoring 3, then 7 (more than twice) and 9.
        let ranked = |totals: &[f64]| -> Vec<(f64, RankedFile, ())> {
            totals
                .iter()
                .enumerate()
                .map(|(h, &total)| {
                    let mut f = with_unit(h, 1.0, 0.0, false);
                    f.1.parsed = true;
                    f.1.units[0].score.total = total;
                    f
                })
                .collect()
        };
        // The order after the rule, with the second file of `totals` edited.
        let after = |totals: &[f64], edit: &dyn Fn(&mut RankedFile)| {
            let mut scored = ranked(totals);
            if let Some((_, second, _)) = scored.get_mut(1) {
                edit(second);
            }
            stronger_unit_first(&mut scored);
            (order(&scored), scored[0].1.promoted)
        };
        let unchanged = |_: &mut RankedFile| {};
        assert_eq!(
            after(&[3.0, 7.0, 9.0], &unchanged),
            (vec![1, 0, 2], Some(PROMOTED_UNIT)),
            "only the second is weighed"
        );
        // Twice as strong is not enough.
        assert_eq!(after(&[3.0, 6.0], &unchanged).0, [0, 1]);
        // Nor is a file of a lower kind, one the line heuristics cut (not
        // parsed), one whose best unit has no name, or is no function (a
        // constant, a type) or one without a body.
        let edits: [&dyn Fn(&mut RankedFile); 5] = [
            &|f| f.prior = 0.5,
            &|f| f.parsed = false,
            &|f| f.units[0].span.name = None,
            &|f| f.units[0].span.shape = unit::Shape::Declaration,
            &|f| f.units[0].span.bodiless = true,
        ];
        for edit in edits {
            assert_eq!(after(&[3.0, 7.0], edit), (vec![0, 1], None));
        }
        // A first file without units gives way to any such unit; one file
        // alone stays.
        let mut scored = ranked(&[3.0, 0.5]);
        scored[0].1.units.clear();
        stronger_unit_first(&mut scored);
        assert_eq!(order(&scored), [1, 0]);
        assert_eq!(after(&[1.0], &unchanged).0, [0]);
    }

    #[test]
    fn a_question_puts_code_before_a_declaration_file() {
        assert!(is_declaration_file("typings/index.d.ts"));
        assert!(is_declaration_file("stubs/requests/api.pyi"));
        assert!(!is_declaration_file("lib/command.js"));
        assert!(!is_declaration_file("src/index.ts"));
        assert!(is_c_header("include/event2/event.h") && is_c_header("src/ast.hpp"));
        assert!(!is_c_header("src/event.c") && !is_c_header("src/graph.rs"));
        let declares = |f: &RankedFile| f.haystack == 0;
        let mut scored = vec![
            with_unit(0, 1.0, 0.0, false),
            with_unit(1, 1.0, 0.0, false),
            with_unit(2, 1.0, 0.0, false),
        ];
        code_before_declarations(&mut scored, declares);
        assert_eq!(order(&scored), [1, 0, 2]);
        // Code first already, or only declarations and files of a lower kind
        // after it: the order stays.
        code_before_declarations(&mut scored, declares);
        assert_eq!(order(&scored), [1, 0, 2]);
        let mut scored = vec![with_unit(0, 1.0, 0.0, false), with_unit(1, 1.0, 0.0, false)];
        scored[1].1.prior = 0.5;
        code_before_declarations(&mut scored, declares);
        assert_eq!(order(&scored), [0, 1]);
    }

    #[test]
    fn a_where_question_keeps_a_file_that_only_declares_values() {
        let facts = |ask: Ask| QueryFacts {
            typed: &[],
            wants_tests: false,
            answers: 0,
            ask,
            units_ask: ask,
            asks_declaration: false,
            keywords: false,
            subject: &[],
        };
        // Parsed, its one unit a constant.
        let (_, mut constants, _) = with_unit(0, 1.0, 0.0, false);
        constants.parsed = true;
        constants.units[0].span.shape = unit::Shape::Declaration;
        constants.units[0].span.kind = "const";
        assert!(only_declares(&constants));
        assert!(passed_over(&constants, "src/defaults.py", facts(Ask::How)));
        assert!(!passed_over(
            &constants,
            "src/defaults.py",
            facts(Ask::Where)
        ));
        // A header and a declaration file are passed over either way.
        assert!(passed_over(
            &constants,
            "include/defaults.h",
            facts(Ask::Where)
        ));
        assert!(passed_over(
            &constants,
            "types/index.d.ts",
            facts(Ask::Where)
        ));
        let (_, code, _) = with_unit(1, 1.0, 0.0, false);
        assert!(!passed_over(&code, "src/run.py", facts(Ask::How)));
    }

    #[test]
    fn a_how_question_puts_the_file_named_for_its_subject_first() {
        let subject = ["sync".to_string(), "step".to_string()];
        let paths = [
            "piptools/utils.py",
            "tests/test_sync.py",
            "piptools/scripts/sync.py",
            "piptools/sync/__init__.py",
        ];
        let keys = |h: usize| paths[h].to_string();
        assert!(named_for(paths[2], &subject) && named_for(paths[3], &subject));
        assert!(!named_for(paths[0], &subject));
        // Stems under four letters and generic ones name nothing.
        assert!(!named_for("src/io.rs", &["io".to_string()]));
        assert!(!named_for("src/test_util.py", &["test".to_string()]));
        let scored = || (0..3).map(|h| (0.0, file(h, 1.0), ())).collect::<Vec<_>>();
        // The test file of a lower kind is passed over for the named source.
        let mut ranked = scored();
        ranked[1].1.prior = 0.5;
        subject_file_first(&mut ranked, &subject, &keys);
        assert_eq!(order(&ranked), [2, 0, 1]);
        assert_eq!(ranked[0].1.promoted, Some(PROMOTED_SUBJECT));
        // A first file named for it, or no subject: the order stays.
        subject_file_first(&mut ranked, &subject, &keys);
        assert_eq!(order(&ranked), [2, 0, 1]);
        let mut ranked = scored();
        subject_file_first(&mut ranked, &[], &keys);
        assert_eq!(order(&ranked), [0, 1, 2]);
    }

    #[test]
    fn a_where_question_blends_the_learned_scores_with_the_hand_order() {
        // In the hand order: 0, 1, 2. The model puts 2 far ahead and 1 a
        // little ahead of 0.
        let learned = [0.0, 0.1, 5.0];
        let scored = || -> Vec<(f64, RankedFile, ())> {
            learned
                .iter()
                .enumerate()
                .map(|(i, &s)| (s, with_unit(i, 1.0, 0.0, false).1, ()))
                .collect()
        };
        // z-scores: learned -0.73, -0.68, 1.41; hand 1.22, 0, -1.22.
        let mut blended = scored();
        blend_with_hand_order(&mut blended, WHERE_HAND_WEIGHT);
        assert_eq!(order(&blended), [0, 1, 2]);
        assert!(blended.iter().all(|(_, f, _)| f.hand_blend));
        // A far lead of the model still counts at a lower weight.
        let mut light = scored();
        blend_with_hand_order(&mut light, 0.5);
        assert_eq!(order(&light), [2, 0, 1]);
        // One file: nothing to blend, nothing marked.
        let mut one = vec![(1.0, with_unit(0, 1.0, 0.0, false).1, ())];
        blend_with_hand_order(&mut one, WHERE_HAND_WEIGHT);
        assert!(!one[0].1.hand_blend);
    }

    #[test]
    fn the_files_are_ordered_by_learned_score_and_ties_keep_their_order() {
        let weights = TermWeights {
            idf: vec![1.0],
            weight: vec![1.0],
            slot: vec![0],
        };
        let facts = QueryFacts {
            typed: &[],
            wants_tests: false,
            answers: 0,
            ask: Ask::Other,
            units_ask: Ask::Other,
            asks_declaration: false,
            keywords: false,
            subject: &[],
        };
        // Identical files score the same: the hand order stands.
        let mut files = vec![file(3, 1.0), file(1, 1.0), file(2, 1.0)];
        let learned = rerank(&mut files, |h| format!("src/f{h}.rs"), &weights, facts);
        assert_eq!(
            files.iter().map(|f| f.haystack).collect::<Vec<_>>(),
            [3, 1, 2]
        );
        assert!(learned.scores.windows(2).all(|w| w[0] >= w[1]));
        // A file the model scores higher comes first: the same file as a
        // source file and as a prose file (the model weighs the kind).
        let mut files = vec![file(0, 1.0), file(1, 1.0)];
        let keys = |h: usize| {
            if h == 0 {
                "README.md".to_string()
            } else {
                "src/lib.rs".to_string()
            }
        };
        let prose_weight = learned::WEIGHTS[features::index("kind_prose").unwrap()];
        let learned = rerank(&mut files, keys, &weights, facts);
        let first = files[0].haystack;
        assert_eq!(first, if prose_weight < 0.0 { 1 } else { 0 });
        assert_eq!(files[0].learned, Some(learned.scores[0]));
        let p = learned.probability();
        assert!((0.0..=1.0).contains(&p));
        assert_eq!(Learned::default().probability(), 0.0);
    }
}
