//! File-level evidence: BM25 (k1 1.2, b 0.5) over the query's terms, and query
//! words found in the file's path.

use std::cell::RefCell;

use super::file_kind::file_prior;
use super::TermWeights;
use crate::query::{self, Term};

/// BM25 term-frequency saturation.
pub const BM25_K1: f64 = 1.2;
/// BM25 length normalisation.
pub const BM25_B: f64 = 0.5;
/// Weight of a query term found in the file's name (`hyperlink.rs` for
/// "hyperlinks"), relative to one occurrence weighted by BM25: a file is
/// named for what it does.
const FILE_NAME_WEIGHT: f64 = 2.0;
/// Weight of a query term found only in the file's folders: weaker, since a
/// folder holds many files.
const FOLDER_WEIGHT: f64 = 1.0;
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

/// BM25 over query *slots* rather than terms: a query word and its synonyms
/// and verb-family members count as one word, whose frequency is theirs
/// summed, each weighted by its share of the slot's best weight. Scored term
/// by term, a word with eight expansions counted eight times over in a long
/// file that uses a few of them often (`select`, `pick`, `run`, `start`).
pub(super) fn bm25_slots(counts: &[u32], len: usize, mean_len: f64, weights: &TermWeights) -> f64 {
    let norm = if mean_len > 0.0 {
        1.0 - BM25_B + BM25_B * (len as f64 / mean_len)
    } else {
        1.0
    };
    // Indexed by slot: plain vectors, as this runs for every file of the
    // first pass.
    let terms = counts.len().min(weights.idf.len());
    let slots = slot_count(weights, terms);
    let mut best = vec![0.0f64; slots];
    for t in 0..terms {
        if let Some(b) = best.get_mut(weights.slot_of(t)) {
            *b = b.max(weights.of(t));
        }
    }
    let mut tf = vec![0.0f64; slots];
    for (t, &c) in counts.iter().enumerate().take(terms) {
        let slot = weights.slot_of(t);
        let top = best.get(slot).copied().unwrap_or(0.0);
        if c > 0 && top > 0.0 {
            tf[slot] += f64::from(c) * weights.of(t) / top;
        }
    }
    best.iter()
        .zip(&tf)
        .filter(|(_, &tf)| tf > 0.0)
        .map(|(&w, &tf)| w * tf * (BM25_K1 + 1.0) / (tf + BM25_K1 * norm))
        .sum()
}

/// How many slots the first `terms` terms fill (slots are numbered from 0).
fn slot_count(weights: &TermWeights, terms: usize) -> usize {
    (0..terms)
        .map(|t| weights.slot_of(t) + 1)
        .max()
        .unwrap_or(0)
}

/// Which terms occur as words of the path (`src/requests/cookies.py` holds `cookie`).
pub fn path_terms(key: &str, terms: &[Term]) -> Vec<bool> {
    path_weights(key, terms)
        .into_iter()
        .map(|w| w > 0.0)
        .collect()
}

/// The path's weight for each term: `FILE_NAME_WEIGHT` when it is a word of
/// the file's name, `FOLDER_WEIGHT` when only of a folder's, else 0.
fn path_weights(key: &str, terms: &[Term]) -> Vec<f64> {
    let (folders, name) = key.rsplit_once('/').unwrap_or(("", key));
    let weigh = |name: &[PathWord], folders: &[&[PathWord]]| -> Vec<f64> {
        terms
            .iter()
            .map(|t| {
                let holds = |words: &[PathWord]| words.iter().any(|w| w.stems_to(&t.stem));
                if holds(name) {
                    FILE_NAME_WEIGHT
                } else if folders.iter().any(|f| holds(f)) {
                    FOLDER_WEIGHT
                } else {
                    0.0
                }
            })
            .collect()
    };
    PATH_WORDS.with(|cell| {
        let Ok(mut cache) = cell.try_borrow_mut() else {
            // Re-entered: split afresh.
            return weigh(&path_words(name), &[&path_words(folders)]);
        };
        if cache.len() > PATH_WORDS_CAP {
            cache.clear();
        }
        for part in key.split('/') {
            if !cache.contains_key(part) {
                cache.insert(part.to_string(), path_words(part));
            }
        }
        let of = |part: &str| cache.get(part).map_or(&[][..], Vec::as_slice);
        let folders: Vec<&[PathWord]> = folders.split('/').map(of).collect();
        weigh(of(name), &folders)
    })
}

/// A word of a path (lowercase), and its stem once asked for.
struct PathWord {
    word: String,
    stem: std::cell::OnceCell<String>,
}

/// The [`PathWord`]s of a path or a part of one.
fn path_words(s: &str) -> Vec<PathWord> {
    query::words(s)
        .into_iter()
        .map(|word| PathWord {
            word,
            stem: std::cell::OnceCell::new(),
        })
        .collect()
}

impl PathWord {
    /// Whether the word stems to `stem`. The English stemmer keeps a word's
    /// first letter, and its second but in `dying`, `lying` and `tying`
    /// (`die`, `lie`, `tie`), so a word that does not open as the stem does
    /// is never stemmed: most words of a big tree's paths name nothing the
    /// query asks for, and stemming each was a third of scoring its files.
    /// A word that does is stemmed once.
    fn stems_to(&self, stem: &str) -> bool {
        opens_as(&self.word, stem) && self.stem.get_or_init(|| query::stem(&self.word)) == stem
    }
}

/// Whether `word` opens as its stem could if that stem were `stem`.
fn opens_as(word: &str, stem: &str) -> bool {
    let (w, s) = (word.as_bytes(), stem.as_bytes());
    let first = w.first() == s.first();
    let second = match (w.get(1), s.get(1)) {
        (Some(a), Some(b)) => a == b || (*a, *b) == (b'y', b'i'),
        _ => true,
    };
    first && second
}

/// Most path parts [`PATH_WORDS`] holds before it starts afresh (a server
/// answers query after query, over any number of trees).
const PATH_WORDS_CAP: usize = 1 << 14;

thread_local! {
    /// The words of each file or folder name this thread has read: a tree's
    /// files share their folders, and splitting every file's whole path was
    /// most of scoring a registry's thousands of matching files.
    static PATH_WORDS: RefCell<foldhash::HashMap<String, Vec<PathWord>>> = RefCell::default();
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

/// The `n` best files by `score` (all of them for `None`), best first, a
/// tie to the lower haystack index, given for each file a `bound` its score
/// never exceeds: a file is scored only if its bound could still place it
/// among the `n` best. For [`file_score`], the bound is the file's
/// [`file_evidence`] (every prior is at most 1): over a kernel tree's 40,000
/// files holding a query word, the priors (each path's kind) were 15 of the
/// file scores' 36-48 ms. (BM25 plus the most a path could add is no bound
/// worth having: the path adds as much as BM25, and nearly every file had
/// to be scored.)
pub fn best_files(
    mut bounds: Vec<(usize, f64)>,
    n: Option<usize>,
    score: impl Fn(usize) -> f64,
) -> Vec<(usize, f64)> {
    let by_score = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if n == Some(0) {
        return Vec::new();
    }
    let scored = |&(h, _): &(usize, f64)| (h, score(h));
    // The files of the best bounds are scored first; the n-th best of
    // their scores is a floor under the n-th best of all, and a file whose
    // bound is below it scores below it.
    let first = n.map_or(usize::MAX, |n| n.saturating_mul(4));
    let mut out: Vec<(usize, f64)> = if bounds.len() <= first {
        bounds.iter().map(scored).collect()
    } else {
        bounds.select_nth_unstable_by(first, by_score);
        let (best, rest) = bounds.split_at(first);
        let mut out: Vec<(usize, f64)> = best.iter().map(scored).collect();
        let mut floor: Vec<f64> = out.iter().map(|s| s.1).collect();
        let nth = n.unwrap_or(1).saturating_sub(1);
        floor.select_nth_unstable_by(nth, |a, b| b.total_cmp(a));
        let floor = floor[nth];
        out.extend(rest.iter().filter(|x| x.1 >= floor).map(scored));
        out
    };
    out.sort_by(by_score);
    if let Some(n) = n {
        out.truncate(n);
    }
    out
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
    file_parts(counts, len, mean_len, key, terms, weights).evidence()
}

/// What a file's evidence is made of, before any weighting between the parts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FileParts {
    /// BM25 over the query's slots (`bm25_slots`).
    pub bm25: f64,
    /// The weight of the query slots that are words of the file's name.
    pub name: f64,
    /// The weight of the other slots that are words of its folders.
    pub folders: f64,
    /// The share of the query's slot weight the file holds at all.
    pub coverage: f64,
}

impl FileParts {
    /// [`file_evidence`]: BM25 plus the weighted path matches.
    pub fn evidence(&self) -> f64 {
        self.bm25 + FILE_NAME_WEIGHT * self.name + FOLDER_WEIGHT * self.folders
    }
}

/// The parts of [`file_evidence`].
pub fn file_parts(
    counts: &[u32],
    len: usize,
    mean_len: f64,
    key: &str,
    terms: &[Term],
    weights: &TermWeights,
) -> FileParts {
    let bm25 = bm25_slots(counts, len, mean_len, weights);
    // Each slot once, at its best term's weight, in the name or else the folders.
    let (mut name, mut folders) = (
        std::collections::BTreeMap::<usize, f64>::new(),
        std::collections::BTreeMap::<usize, f64>::new(),
    );
    for (t, w) in path_weights(key, terms).into_iter().enumerate() {
        let place = if w >= FILE_NAME_WEIGHT {
            &mut name
        } else if w > 0.0 {
            &mut folders
        } else {
            continue;
        };
        let e = place.entry(weights.slot_of(t)).or_insert(0.0);
        *e = e.max(weights.of(t));
    }
    folders.retain(|slot, _| !name.contains_key(slot));
    // The best weight of each slot, of all terms and of the held ones.
    let terms = weights.idf.len();
    let slots = slot_count(weights, terms);
    let (mut all, mut held) = (vec![0.0f64; slots], vec![0.0f64; slots]);
    for t in 0..terms {
        let (slot, w) = (weights.slot_of(t), weights.of(t));
        all[slot] = all[slot].max(w);
        if counts.get(t).is_some_and(|&c| c > 0) {
            held[slot] = held[slot].max(w);
        }
    }
    let total: f64 = all.iter().sum();
    FileParts {
        bm25,
        name: name.values().sum(),
        folders: folders.values().sum(),
        coverage: if total > 0.0 {
            held.iter().sum::<f64>() / total
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best files found through their bounds are the best of all files
    /// scored: the same files, scores and order (ties to the lower index),
    /// with scores tied, zero, and bounds the score reaches exactly.
    #[test]
    fn the_best_files_are_those_a_full_sort_finds() {
        use crate::testing::{below, rng};
        let mut rng = rng(0xb0_0d5);
        for case in 0..300 {
            let files = below(&mut rng, 300);
            // Every other case, bounds of two values only, the higher one
            // rare: a file of the lower bound and prior 1 ties one of the
            // higher bound and prior 0.5, wherever the two lie in the list,
            // and fewer than n files may score the higher one.
            let two = case % 2 == 1;
            let bounds: Vec<(usize, f64)> = (0..files)
                .map(|h| match two {
                    true => (h, [2.0, 2.0, 2.0, 4.0][below(&mut rng, 4)]),
                    false => (h, below(&mut rng, 20) as f64),
                })
                .collect();
            // A prior of 1, 0.5 or 0.1 (ties between files are common).
            let priors: Vec<f64> = (0..files)
                .map(|_| [1.0, 0.5, 0.1][below(&mut rng, if two { 2 } else { 3 })])
                .collect();
            let score = |h: usize| bounds[h].1 * priors[h];
            let mut all: Vec<(usize, f64)> = (0..files).map(|h| (h, score(h))).collect();
            all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for n in [0, 1, 2, 5, 24, 1000] {
                let mut shuffled = bounds.clone();
                shuffled.rotate_left(below(&mut rng, files.max(1)).min(files));
                let want: Vec<(usize, f64)> = all.iter().copied().take(n).collect();
                assert_eq!(
                    best_files(shuffled, Some(n), score),
                    want,
                    "case {case}, n {n}"
                );
            }
            assert_eq!(best_files(bounds.clone(), None, score), all, "case {case}");
        }
        // A file whose bound only reaches the floor may still tie and win:
        // file 0 (bound 2, prior 1) ties files 1-4 (bound 4, prior 0.5).
        let bounds = vec![(0, 2.0), (1, 4.0), (2, 4.0), (3, 4.0), (4, 4.0)];
        let bounds_of = |h: usize| if h == 0 { 2.0 } else { 4.0 };
        let priors = [1.0, 0.5, 0.5, 0.5, 0.5];
        let score = |h: usize| bounds_of(h) * priors[h];
        assert_eq!(best_files(bounds, Some(1), score), [(0, 2.0)]);
    }

    /// A file's prior never exceeds 1, so its evidence bounds its score
    /// (what [`best_files`] relies on): for every kind of file, asked for
    /// tests, docs, a platform or none of them.
    #[test]
    fn no_prior_is_above_one() {
        let keys = [
            "src/lib.rs",
            "src/os/windows.rs",
            "tests/test_pool.py",
            "docs/pool.md",
            "Cargo.toml",
            "package-lock.json",
            "vendor/x/gen.pb.go",
            "examples/pool.rs",
        ];
        for query in [
            "where is the pool size set",
            "which tests check the pool",
            "docs for the pool",
            "how does the pool work on windows",
            "cargo features",
        ] {
            let terms = query::analyze(query).terms;
            for key in keys {
                let p = file_prior(key, &terms);
                assert!(p > 0.0 && p <= 1.0, "{key} for {query:?}: {p}");
            }
        }
    }

    #[test]
    fn the_stemmer_keeps_how_a_word_opens() {
        // `PathWord::stems_to` skips every word that does not open as the stem
        // does:
        // Snowball's exceptions (`dying` -> `die`) and the y/i changes too.
        // (Checked once against every word of the kernel's and the cargo
        // registry's paths and of the thesaurus, 17,496 words.)
        for word in [
            "dying",
            "lying",
            "tying",
            "skies",
            "skis",
            "idly",
            "gently",
            "ugly",
            "early",
            "only",
            "news",
            "yes",
            "yielding",
            "added",
            "adds",
            "ad",
            "a",
            "by",
            "cookies",
            "generously",
            "organization",
            "analyses",
            "retried",
            "queued",
            "x86",
            "utf8",
        ] {
            let stem = query::stem(word);
            assert!(opens_as(word, &stem), "{word} -> {stem}");
            let path_word = PathWord {
                word: word.to_string(),
                stem: std::cell::OnceCell::new(),
            };
            assert!(path_word.stems_to(&stem), "{word} -> {stem}");
        }
        assert!(!opens_as("configure", "pool"));
        assert!(!path_words("policy")[0].stems_to("pool"));
    }
}
