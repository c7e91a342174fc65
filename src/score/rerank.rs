//! The learned ranking: orders a query's candidate files by the linear
//! model fitted in `tests/bench/train/` (the generated `learned.rs`), and
//! gives the judge the model's probability that the first file is right.
//!
//! Owns applying the generated weights to the candidates' feature vectors
//! (`features`) and reading the judge's features off the learned order. Does
//! not own the features themselves, the fitting (`fit.py`) or the verdict
//! (`judge`).

use super::features::{self, QueryFacts};
use super::learned;
use super::{RankedFile, TermWeights};

// The generated model weighs the features `features` computes, one weight
// each: a new feature needs a new model (`tests/bench/train/make_model.sh`).
const _: () = assert!(learned::NAMES.len() == features::NAMES.len());

/// The learned judge's probability from which the first file is trusted.
pub const SUFFICIENT_AT: f64 = learned::SUFFICIENT_AT;

/// Whether the learned ranker orders a query's files: a query shaped like
/// those it was trained on, a statement of a change (commit subjects: "add
/// a timeout to retries"). A question ("where is …", "how does …", "what
/// happens …") asks for the place that defines or does a thing, which no
/// training query asked (fitted on commits, the model weighs a defined
/// name below the words around it); a query asking for tests asks for the
/// kind of file no training answer was. The hand order ranks those.
pub fn applies(facts: QueryFacts<'_>) -> bool {
    facts.ask == features::Ask::Other && !facts.wants_tests
}

/// A candidate's learned score: the model's bias plus its weighted features.
pub fn score(f: &[f64]) -> f64 {
    f.iter()
        .zip(learned::WEIGHTS)
        .fold(learned::BIAS, |acc, (x, w)| acc + x * w)
}

/// What the learned ranking leaves a query: its first file's features and
/// the candidates' learned scores, best first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Learned {
    /// Learned scores, best first (the files' new order).
    pub scores: Vec<f64>,
    /// The feature vector of the first file.
    pub top: Vec<f64>,
}

/// Orders `files` by their learned scores, best first; a tie keeps the hand
/// order (`sort_files`'s, which breaks its own ties by path), so the output
/// stays deterministic. Each file's `learned` score is set.
pub fn rerank(
    files: &mut Vec<RankedFile>,
    keys: impl Fn(usize) -> String,
    weights: &TermWeights,
    facts: QueryFacts<'_>,
) -> Learned {
    let vectors = features::all_features(files, keys, weights, facts);
    let mut scored: Vec<(f64, RankedFile, Vec<f64>)> = std::mem::take(files)
        .into_iter()
        .zip(vectors)
        .map(|(mut f, v)| {
            let s = score(&v);
            f.learned = Some(s);
            (s, f, v)
        })
        .collect();
    // A stable sort: ties stay in the hand order.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
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

    /// The committed model is well formed and is what its manifest says:
    /// the same features in the same order as `features::NAMES`, the same
    /// weights, and the training and validation it records.
    #[test]
    fn the_generated_model_matches_its_manifest() {
        let manifest: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/bench/train/manifest.json")).unwrap();
        assert_eq!(learned::NAMES.as_slice(), features::NAMES);
        let strings = |v: &serde_json::Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(strings(&manifest["names"]), learned::NAMES);
        let floats = |v: &serde_json::Value| -> Vec<f64> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        // serde_json reads a float to within an ulp of Rust's own parser.
        let same = |a: &[f64], b: &[f64]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| (x - y).abs() <= 1e-12 * x.abs().max(1.0))
        };
        let one = |v: &serde_json::Value| vec![v.as_f64().unwrap()];
        assert!(same(&floats(&manifest["weights"]), &learned::WEIGHTS));
        assert!(same(&one(&manifest["bias"]), &[learned::BIAS]));
        let judge = &manifest["judge"];
        assert_eq!(strings(&judge["names"]), learned::JUDGE_NAMES);
        assert!(same(&floats(&judge["weights"]), &learned::JUDGE_WEIGHTS));
        assert!(same(&one(&judge["intercept"]), &[learned::JUDGE_INTERCEPT]));
        assert!(same(&one(&judge["threshold"]), &[learned::SUFFICIENT_AT]));
        assert!(learned::WEIGHTS.iter().all(|w| w.is_finite()));
        // What it was trained on: repositories at pinned commits, and how
        // many queries; validated leaving repositories out.
        let repos = manifest["repositories"].as_array().unwrap();
        let queries: u64 = repos.iter().map(|r| r["queries"].as_u64().unwrap()).sum();
        assert_eq!(Some(queries), manifest["queries"].as_u64());
        assert!(repos
            .iter()
            .all(|r| r["tip"].as_str().is_some_and(|t| t.len() == 40)));
        assert_eq!(
            manifest["validation"]["grouping"].as_str(),
            Some("leave repositories out")
        );
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
            ask: features::Ask::Other,
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
