//! Ranking: pure functions from search hits to scored files and lines.
//!
//! Owns the score of a file (BM25 over the query terms, k1 1.2, b 0.75, plus
//! matches in its path and a prior for tests and prose) and of a line (the terms
//! it holds, the terms that meet in a small window around it, identifiers that
//! merge several query words, definitions), and choosing the lines to print.
//! Does no I/O: callers hand in counts and lines.

use std::collections::{BTreeMap, BTreeSet};

use crate::query::{self, Term};
use crate::search::sink::TermLine;

/// BM25 term-frequency saturation.
pub const BM25_K1: f64 = 1.2;
/// BM25 length normalisation.
pub const BM25_B: f64 = 0.75;
/// Lines on each side of a line that count as its window: a function signature
/// and the statements that implement it are usually this close.
pub const WINDOW: usize = 3;
/// Files scored line by line after the first pass; the rest cannot overtake them
/// in practice, and re-reading only these keeps big trees fast.
pub const CANDIDATE_FILES: usize = 40;
/// At most this many lines are printed for the file at each rank (best file
/// first); files past the end of the list get the last value. The best file
/// usually holds the answer and earns a few windows; the runners-up are shown
/// so a reader (or an agent) sees the alternatives without a flood.
pub const LINES_PER_RANK: &[usize] = &[4, 2, 2, 1];
/// The best line of each of this many top files is printed even when weaker than
/// `MIN_RELATIVE_SCORE`: the right file is often second or third.
pub const ALWAYS_SHOWN_FILES: usize = 5;
/// A line is printed only if its score reaches this share of the best line's:
/// weak lines are noise for the reader and tokens for an agent.
pub const MIN_RELATIVE_SCORE: f64 = 0.4;
/// Weight of a query term found in the file's path, relative to one occurrence
/// weighted by BM25.
const PATH_WEIGHT: f64 = 1.5;
/// Multiplier for tests, examples and prose when the query is not about them.
const SECONDARY_FILE_PRIOR: f64 = 0.7;
/// Share of a window term's weight that a line earns for a neighbour's term.
const WINDOW_SHARE: f64 = 0.5;
/// Bonus factor for a line that defines something (fn, def, class, …).
const DEFINITION_BONUS: f64 = 1.25;
/// Weight of the best line relative to the file's BM25 score in the file's rank.
const LINE_IN_FILE_WEIGHT: f64 = 1.0;

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

/// Whether a path is a test, an example, a benchmark or prose (docs, changelogs).
pub fn is_secondary_path(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let words = query::words(&lower);
    let test_like = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "test"
                | "tests"
                | "testing"
                | "spec"
                | "specs"
                | "example"
                | "examples"
                | "bench"
                | "benches"
                | "benchmark"
                | "benchmarks"
                | "fixture"
                | "fixtures"
                | "doc"
                | "docs"
        )
    });
    let prose = [".md", ".rst", ".txt", ".adoc", ".html"]
        .iter()
        .any(|ext| lower.ends_with(ext))
        || words.first().is_some_and(|w| {
            matches!(
                w.as_str(),
                "history" | "changelog" | "changes" | "news" | "authors" | "license"
            )
        });
    test_like || prose
}

/// Whether the query itself is about tests or documentation.
pub fn query_wants_secondary(terms: &[Term]) -> bool {
    terms.iter().any(|t| {
        matches!(
            t.stem.as_str(),
            "test"
                | "spec"
                | "exampl"
                | "doc"
                | "document"
                | "readm"
                | "changelog"
                | "histori"
                | "bench"
                | "benchmark"
        )
    })
}

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

    fn slot_of(&self, term: usize) -> usize {
        self.slot.get(term).copied().unwrap_or(term)
    }

    /// For a set of terms, the best weight of each slot they cover.
    fn slot_values(&self, terms: impl IntoIterator<Item = usize>) -> BTreeMap<usize, f64> {
        let mut out: BTreeMap<usize, f64> = BTreeMap::new();
        for t in terms {
            let v = out.entry(self.slot_of(t)).or_insert(0.0);
            *v = v.max(self.of(t));
        }
        out
    }

    fn of(&self, term: usize) -> f64 {
        self.idf.get(term).copied().unwrap_or(0.0) * self.weight.get(term).copied().unwrap_or(0.0)
    }

    /// The best a line could do: every slot at its best term's weight.
    pub fn total(&self) -> f64 {
        self.slot_values(0..self.idf.len()).values().sum()
    }
}

/// The parts a line's score is made of, for `-v` and `--json`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineScore {
    /// Weights of the distinct terms on the line.
    pub terms: f64,
    /// Share of the weights of terms found only in the window around it.
    pub window: f64,
    /// Bonus for identifiers that join several query words (`max_redirects`).
    pub merged: f64,
    /// Multiplier for definitions.
    pub definition: f64,
    /// The total.
    pub total: f64,
}

/// A scored line of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedLine {
    pub line: usize,
    pub score: LineScore,
}

/// Scores every line that holds a term. `text_of` gives a line's text (for the
/// definition check); lines come from `search::term_lines`, sorted by number.
pub fn score_lines<'a>(
    lines: &[TermLine],
    weights: &TermWeights,
    text_of: impl Fn(usize) -> Option<&'a [u8]>,
) -> Vec<RankedLine> {
    lines
        .iter()
        .enumerate()
        .map(|(i, tl)| {
            let own = weights.slot_values(tl.matches.iter().map(|m| m.term));
            let near = weights.slot_values(window_terms(lines, i));
            let terms: f64 = own.values().sum();
            let window: f64 = near
                .iter()
                .filter(|(slot, _)| !own.contains_key(slot))
                .map(|(_, v)| v)
                .sum::<f64>()
                * WINDOW_SHARE;
            let merged = merged_bonus(tl, weights);
            let definition = if text_of(tl.line).is_some_and(is_definition) {
                DEFINITION_BONUS
            } else {
                1.0
            };
            let total = (terms + window + merged) * definition;
            RankedLine {
                line: tl.line,
                score: LineScore {
                    terms,
                    window,
                    merged,
                    definition,
                    total,
                },
            }
        })
        .collect()
}

/// Distinct terms on the lines within `WINDOW` of line `i` (itself included).
fn window_terms(lines: &[TermLine], i: usize) -> BTreeSet<usize> {
    let center = lines[i].line;
    let lo = center.saturating_sub(WINDOW);
    let hi = center + WINDOW;
    let mut out = BTreeSet::new();
    let start = lines[..i]
        .iter()
        .rposition(|l| l.line < lo)
        .map_or(0, |p| p + 1);
    for l in lines[start..].iter().take_while(|l| l.line <= hi) {
        out.extend(l.matches.iter().map(|m| m.term));
    }
    out
}

/// Two different terms in one identifier (`max_redirects`, `proxyFromEnv`): the
/// code names the concept the query describes.
fn merged_bonus(tl: &TermLine, weights: &TermWeights) -> f64 {
    let mut bonus: f64 = 0.0;
    for pair in tl.matches.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let joined = b.start == a.end || (b.start == a.end + 1);
        if weights.slot_of(a.term) != weights.slot_of(b.term) && joined {
            bonus = bonus.max(weights.of(a.term).min(weights.of(b.term)));
        }
    }
    bonus
}

/// Whether a line defines a function, type or constant in a common language.
pub fn is_definition(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let trimmed = text.trim_start();
    const STARTS: &[&str] = &[
        "def ",
        "async def ",
        "class ",
        "fn ",
        "pub fn ",
        "pub(crate) fn ",
        "async fn ",
        "pub async fn ",
        "struct ",
        "pub struct ",
        "enum ",
        "pub enum ",
        "trait ",
        "pub trait ",
        "impl ",
        "impl<",
        "type ",
        "pub type ",
        "const ",
        "pub const ",
        "static ",
        "pub static ",
        "func ",
        "function ",
        "export function ",
        "export class ",
        "export const ",
        "interface ",
        "export interface ",
        "public ",
        "private ",
        "protected ",
        "module ",
        "macro_rules! ",
    ];
    STARTS.iter().any(|s| trimmed.starts_with(s))
}

/// A file with its rank score and scored lines.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedFile {
    pub haystack: usize,
    /// BM25 plus path matches, times the file prior.
    pub file_score: f64,
    /// `file_score` plus the best line: the order files are printed in.
    pub score: f64,
    pub lines: Vec<RankedLine>,
}

/// First-pass file score: BM25 plus path matches, times the prior.
pub fn file_score(
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
    let prior = if is_secondary_path(key) && !query_wants_secondary(terms) {
        SECONDARY_FILE_PRIOR
    } else {
        1.0
    };
    (base + path) * prior
}

/// Combines a file's first-pass score with its best line.
pub fn final_score(file_score: f64, lines: &[RankedLine], prior: f64) -> f64 {
    let best = lines.iter().map(|l| l.score.total).fold(0.0, f64::max);
    file_score + LINE_IN_FILE_WEIGHT * best * prior
}

/// Sorts files best first; ties go to the earlier path, so output is deterministic.
pub fn sort_files(files: &mut [RankedFile], keys: impl Fn(usize) -> String) {
    files.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| keys(a.haystack).cmp(&keys(b.haystack)))
    });
}

/// Chooses the lines to print: per file (in rank order) its best lines, at most
/// `LINES_PER_RANK` for its rank, none within `WINDOW` of a better one, none
/// below `MIN_RELATIVE_SCORE` of the best line overall (except the first line of
/// the top `ALWAYS_SHOWN_FILES` files), `max_lines` in all (0 = no cap).
pub fn select(files: &[RankedFile], max_lines: usize) -> Vec<(usize, Vec<usize>)> {
    let best = files
        .iter()
        .flat_map(|f| f.lines.iter().map(|l| l.score.total))
        .fold(0.0, f64::max);
    let floor = best * MIN_RELATIVE_SCORE;
    let cap = if max_lines == 0 {
        usize::MAX
    } else {
        max_lines
    };
    let mut out = Vec::new();
    let mut total = 0;
    for (rank, file) in files.iter().enumerate() {
        if total >= cap {
            break;
        }
        let per_rank = LINES_PER_RANK
            .get(rank)
            .or(LINES_PER_RANK.last())
            .copied()
            .unwrap_or(1);
        let first_floor = if rank < ALWAYS_SHOWN_FILES {
            0.0
        } else {
            floor
        };
        let chosen = best_lines(&file.lines, first_floor, floor, per_rank.min(cap - total));
        if chosen.is_empty() {
            continue;
        }
        total += chosen.len();
        out.push((file.haystack, chosen));
    }
    out
}

/// Best lines of one file, spread at least a window apart, sorted by line number:
/// the first must reach `first_floor`, the others `floor`.
fn best_lines(lines: &[RankedLine], first_floor: f64, floor: f64, limit: usize) -> Vec<usize> {
    let mut order: Vec<&RankedLine> = lines.iter().filter(|l| l.score.total > 0.0).collect();
    order.sort_by(|a, b| {
        b.score
            .total
            .total_cmp(&a.score.total)
            .then(a.line.cmp(&b.line))
    });
    let mut chosen: Vec<usize> = Vec::new();
    for l in order {
        let needed = if chosen.is_empty() {
            first_floor
        } else {
            floor
        };
        if chosen.len() >= limit || l.score.total < needed {
            break;
        }
        if chosen.iter().all(|&c| c.abs_diff(l.line) > WINDOW) {
            chosen.push(l.line);
        }
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::search::matcher::TermMatch;

    fn weights(n: usize) -> TermWeights {
        TermWeights {
            idf: vec![1.0; n],
            weight: vec![1.0; n],
            slot: (0..n).collect(),
        }
    }

    fn tl(line: usize, terms: &[(usize, usize, usize)]) -> TermLine {
        TermLine {
            line,
            matches: terms
                .iter()
                .map(|&(term, start, end)| TermMatch { term, start, end })
                .collect(),
        }
    }

    #[test]
    fn idf_decreases_with_document_frequency_and_stays_positive() {
        assert!(idf(100, 1) > idf(100, 50));
        assert!(idf(100, 100) > 0.0);
    }

    #[test]
    fn bm25_rewards_frequency_with_saturation_and_penalises_length() {
        let w = [1.0];
        let one = bm25(&[1], 100, 100.0, &w, &w);
        let two = bm25(&[2], 100, 100.0, &w, &w);
        let ten = bm25(&[10], 100, 100.0, &w, &w);
        assert!(two > one && ten > two);
        assert!(ten < 2.2 * one * 1.5);
        assert!(bm25(&[1], 1000, 100.0, &w, &w) < one);
        assert_eq!(bm25(&[0], 100, 100.0, &w, &w), 0.0);
    }

    #[test]
    fn path_matches_count() {
        let terms = crate::query::analyze("cookie jar").terms;
        assert_eq!(
            path_terms("src/requests/cookies.py", &terms),
            vec![true, false]
        );
        let w = weights(2);
        let with = file_score(&[1, 0], 100, 100.0, "src/cookies.py", &terms, &w);
        let without = file_score(&[1, 0], 100, 100.0, "src/other.py", &terms, &w);
        assert!(with > without);
    }

    #[test]
    fn secondary_files_rank_lower_unless_asked_for() {
        let terms = crate::query::analyze("retry delay").terms;
        let w = weights(2);
        let src = file_score(&[1, 1], 100, 100.0, "src/retry.py", &terms, &w);
        let test = file_score(&[1, 1], 100, 100.0, "tests/test_retry.py", &terms, &w);
        assert!(src > test);
        let terms = crate::query::analyze("retry delay tests").terms;
        assert!(query_wants_secondary(&terms));
        assert!(is_secondary_path("HISTORY.md") && is_secondary_path("docs/api.rst"));
        assert!(!is_secondary_path("src/requests/sessions.py"));
    }

    #[test]
    fn window_and_merged_identifiers_raise_a_line() {
        let w = weights(2);
        let lines = vec![
            tl(1, &[(0, 0, 3)]),
            tl(2, &[(1, 0, 5)]),
            tl(20, &[(0, 0, 3)]),
            tl(30, &[(0, 0, 3), (1, 4, 9)]),
        ];
        let scored = score_lines(&lines, &w, |_| None);
        assert!(
            scored[0].score.total > scored[2].score.total,
            "a neighbour's term counts"
        );
        assert!(
            scored[3].score.merged > 0.0,
            "max_redirects-style identifier"
        );
        assert!(scored[3].score.total > scored[0].score.total);
    }

    #[test]
    fn synonyms_of_one_word_count_once_per_line() {
        // terms 0 and 1 share slot 0 (a word and its synonym); term 2 is slot 1.
        let w = TermWeights {
            idf: vec![1.0; 3],
            weight: vec![1.0, 0.6, 1.0],
            slot: vec![0, 0, 1],
        };
        let both = score_lines(&[tl(1, &[(0, 0, 3), (1, 10, 13)])], &w, |_| None);
        let one = score_lines(&[tl(1, &[(0, 0, 3)])], &w, |_| None);
        assert_eq!(both[0].score.terms, one[0].score.terms);
        let syn = score_lines(&[tl(1, &[(1, 0, 3)])], &w, |_| None);
        assert!(
            syn[0].score.terms < one[0].score.terms,
            "exact word beats synonym"
        );
        let two_slots = score_lines(&[tl(1, &[(0, 0, 3), (2, 10, 13)])], &w, |_| None);
        assert!(two_slots[0].score.terms > both[0].score.terms);
        assert_eq!(w.total(), 2.0);
    }

    #[test]
    fn definitions_get_a_bonus() {
        assert!(is_definition(b"    def resolve_redirects(self, resp):"));
        assert!(is_definition(b"pub fn connect() {"));
        assert!(!is_definition(b"    x = connect()"));
        let w = weights(1);
        let lines = vec![tl(1, &[(0, 4, 7)]), tl(9, &[(0, 0, 3)])];
        let texts = [b"def foo".as_slice(), b"foo()".as_slice()];
        let scored = score_lines(&lines, &w, |n| {
            if n == 1 {
                Some(texts[0])
            } else {
                Some(texts[1])
            }
        });
        assert!(scored[0].score.total > scored[1].score.total);
    }

    #[test]
    fn selection_caps_spreads_and_cuts_weak_lines() {
        let line = |n: usize, s: f64| RankedLine {
            line: n,
            score: LineScore {
                total: s,
                ..Default::default()
            },
        };
        let files = vec![
            RankedFile {
                haystack: 7,
                file_score: 1.0,
                score: 9.0,
                lines: vec![line(10, 5.0), line(11, 4.9), line(50, 4.0), line(90, 0.5)],
            },
            RankedFile {
                haystack: 3,
                file_score: 1.0,
                score: 5.0,
                lines: vec![line(5, 3.0)],
            },
        ];
        assert_eq!(select(&files, 0), vec![(7, vec![10, 50]), (3, vec![5])]);
        let weak = vec![
            RankedFile {
                haystack: 1,
                file_score: 1.0,
                score: 9.0,
                lines: vec![line(10, 5.0)],
            },
            RankedFile {
                haystack: 2,
                file_score: 1.0,
                score: 2.0,
                lines: vec![line(3, 0.5), line(9, 0.4)],
            },
        ];
        assert_eq!(
            select(&weak, 0),
            vec![(1, vec![10]), (2, vec![3])],
            "runner-up shown once"
        );
        assert_eq!(select(&files, 1), vec![(7, vec![10])]);
    }

    #[test]
    fn ranking_is_deterministic_on_ties() {
        let mk = |h| RankedFile {
            haystack: h,
            file_score: 1.0,
            score: 1.0,
            lines: vec![],
        };
        let mut a = vec![mk(2), mk(1), mk(3)];
        sort_files(&mut a, |h| format!("f{h}"));
        assert_eq!(
            a.iter().map(|f| f.haystack).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
    }
}
