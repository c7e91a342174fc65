//! File-level evidence: BM25 (k1 1.2, b 0.75) over the query's terms, and query
//! words found in the file's path.

use std::collections::BTreeSet;

use super::file_kind::file_prior;
use super::TermWeights;
use crate::query::{self, Term};

/// BM25 term-frequency saturation.
pub const BM25_K1: f64 = 1.2;
/// BM25 length normalisation.
pub const BM25_B: f64 = 0.75;
/// Weight of a query term found in the file's path, relative to one occurrence
/// weighted by BM25.
const PATH_WEIGHT: f64 = 1.5;
/// Inverse document frequency, BM25's "plus one" form (never negative).
pub fn idf(files: usize, df: usize) -> f64 {
    let n = files as f64;
    let df = df as f64;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// BM25 of one file for the query terms.
pub fn bm25(counts: &[u32], len: usize, mean_len: f64, idfs: &[f64], weights: &[f64]) -> f64 {
    let norm = if mean_len > 0.0 {
        1.0 - BM25_B + BM25_B * (len as f64 / mean_len)
    } else {
        1.0
    };
    counts
        .iter()
        .zip(idfs)
        .zip(weights)
        .map(|((&tf, &idf), &w)| {
            let tf = f64::from(tf);
            w * idf * tf * (BM25_K1 + 1.0) / (tf + BM25_K1 * norm)
        })
        .sum()
}

/// Which terms occur as words of the path (`src/requests/cookies.py` holds `cookie`).
pub fn path_terms(key: &str, terms: &[Term]) -> Vec<bool> {
    let stems: BTreeSet<String> = query::words(key).iter().map(|w| query::stem(w)).collect();
    terms.iter().map(|t| stems.contains(&t.stem)).collect()
}

/// First-pass file score: `file_evidence` times the prior of the file's kind.
pub fn file_score(
    counts: &[u32],
    len: usize,
    mean_len: f64,
    key: &str,
    terms: &[Term],
    weights: &TermWeights,
) -> f64 {
    file_evidence(counts, len, mean_len, key, terms, weights) * file_prior(key, terms)
}

/// BM25 plus path matches (each query slot once), before any prior.
pub fn file_evidence(
    counts: &[u32],
    len: usize,
    mean_len: f64,
    key: &str,
    terms: &[Term],
    weights: &TermWeights,
) -> f64 {
    let base = bm25(counts, len, mean_len, &weights.idf, &weights.weight);
    let in_path = path_terms(key, terms)
        .iter()
        .enumerate()
        .filter(|(_, &hit)| hit)
        .map(|(t, _)| t)
        .collect::<Vec<_>>();
    let path: f64 = weights.slot_values(in_path).values().sum::<f64>() * PATH_WEIGHT;
    base + path
}
