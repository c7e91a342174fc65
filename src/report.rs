//! From search results to what the printers take: for each printed match line,
//! the byte spans of what matched and, for `--json`, what kgrep knows about it
//! (`data.kgrep`: terms, concepts, score parts, source) and about the run.
//!
//! Owns finding spans — the query's matcher run again over the few lines that
//! print, since the search stage keeps line numbers only; with `-U`, over the
//! runs of lines its matches span ([`blocks`]), as rg 13's printer finds
//! them — and translating
//! kgrep's internal values into the printers' plain data. Does not own which
//! lines print (`search`, `score`) or how they look (`render`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use grep_matcher::Matcher;

use crate::document::{skipped_bom, Document};
use crate::query::{Origin, Query, QueryKind, Term};
use crate::render::grep::{Block, Spans};
use crate::render::json::kgrep::{
    FileCounts, LineInfo, LineSource, QueryInfo, QueryKindName, RunInfo, ScoreParts, TermInfo,
    TermOrigin, UnitInfo,
};
use crate::render::json::MatchLine;
use crate::score::unit::{RankedUnit, FIELDS};
use crate::score::{LineScore, RankedFile};
use crate::search::matcher::TermMatcher;
use crate::search::LoadStats;
use crate::walk::Haystack;

/// Line scores of a natural-language run, by (haystack index, line number).
pub type LineScores = HashMap<(usize, usize), LineScore>;

/// The line scores of a ranking, keyed by (haystack, line).
pub fn line_scores(ranked: &[RankedFile]) -> LineScores {
    ranked
        .iter()
        .flat_map(|f| {
            f.lines
                .iter()
                .map(|l| ((f.haystack, l.line), l.score.clone()))
        })
        .collect()
}

/// One matched span and, for natural language, the index of its query term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub span: Range<usize>,
    pub term: Option<usize>,
}

/// Finds what matched on a line: the literal or regex itself, or the terms of
/// a natural-language query.
pub enum Spotter {
    /// A literal or regex; `multi_line` when `-U` lets it match a line end
    /// (rg's multi-line printing: [`Block`]s).
    Exact {
        matcher: crate::search::matcher::ExactMatcher,
        multi_line: bool,
        /// The search skipped a UTF-8 byte-order mark a text opens with
        /// ([`document::skipped_bom`]): so does finding its matches again.
        sniff_bom: bool,
    },
    Terms(TermMatcher),
}

/// How far past a run of lines rg's printer lets a `-U` regex look when it
/// finds the run's matches again (`MAX_LOOK_AHEAD` in rg 13's printer).
const MAX_LOOK_AHEAD: usize = 128;

impl Spotter {
    /// The spotter for a query: the matcher the search stage uses for it
    /// (a literal is a fixed string, a regex ripgrep's syntax), reading
    /// files as the search read them (see [`Spotter::reading`]).
    pub fn new(q: &Query) -> anyhow::Result<Spotter> {
        Ok(match crate::search::matcher::exact(q)? {
            Some(matcher) => {
                let multi_line = crate::search::matcher::matches_over_lines(&matcher, &q.matching);
                Spotter::Exact {
                    matcher,
                    multi_line,
                    sniff_bom: true,
                }
            }
            None => Spotter::Terms(TermMatcher::new(&q.terms)?),
        })
    }

    /// This spotter for files read with `read`: past a UTF-8 byte-order
    /// mark a text opens with, as the search skipped it, unless `-E none`.
    pub fn reading(mut self, read: &crate::document::ReadOptions) -> Spotter {
        if let Spotter::Exact { sniff_bom, .. } = &mut self {
            *sniff_bom = read.sniffs_bom();
        }
        self
    }

    /// The occurrences in the line `line` of `text` (its bytes without the
    /// `\n`), in order, as spans of the line. An empty match at the very
    /// end of the text is not a hit (rg 13's printer stops at a match that
    /// starts at the end of the line with its terminator), so a last line
    /// without a newline loses it.
    pub fn occurrences(&self, text: &[u8], line: Range<usize>) -> Vec<Occurrence> {
        let has_newline = line.end < text.len();
        let skip = match self {
            Spotter::Exact { sniff_bom, .. } => skipped_bom(text, line.start, *sniff_bom),
            Spotter::Terms(_) => 0,
        };
        let line = text.get(line.start + skip..line.end).unwrap_or_default();
        match self {
            // A whole identifier and the words inside it overlap: show the
            // identifier (it comes first), as one submatch.
            Spotter::Terms(m) => {
                let mut end = 0;
                m.find_all(line)
                    .into_iter()
                    .filter(|t| {
                        let keep = t.start >= end || end == 0;
                        if keep {
                            end = t.end;
                        }
                        keep
                    })
                    .map(|t| Occurrence {
                        span: t.start..t.end,
                        term: Some(t.term),
                    })
                    .collect()
            }
            Spotter::Exact { matcher, .. } => {
                let mut hits = Vec::new();
                let _ = matcher.find_iter(line, |found| {
                    let at_end = found.is_empty() && found.start() >= line.len();
                    if !at_end || has_newline {
                        hits.push(Occurrence {
                            span: skip + found.start()..skip + found.end(),
                            term: None,
                        });
                    }
                    true
                });
                hits
            }
        }
    }

    /// A `-U` regex's matches in the run of lines `run` of `text` (from its
    /// first line's start to past its last line's `\n`), as text offsets:
    /// searched from the run's start, a little past its end, and ending at
    /// the first match that starts past the run (rg 13's printer).
    fn run_matches(&self, text: &[u8], run: Range<usize>) -> Vec<Range<usize>> {
        let Spotter::Exact {
            matcher, sniff_bom, ..
        } = self
        else {
            return Vec::new();
        };
        let skip = skipped_bom(text, run.start, *sniff_bom);
        let end = text.len().min(run.end.saturating_add(MAX_LOOK_AHEAD));
        let Some(haystack) = text.get(skip..end) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        let _ = matcher.find_iter_at(haystack, run.start.saturating_sub(skip), |m| {
            if skip + m.start() >= run.end {
                return false;
            }
            found.push(skip + m.start()..skip + m.end());
            true
        });
        found
    }

    /// Whether `-U` matches run over lines ([`Block`]s).
    pub fn multi_line(&self) -> bool {
        matches!(
            self,
            Spotter::Exact {
                multi_line: true,
                ..
            }
        )
    }
}

/// Each of `lines` (1-based) with where it lies in the text (its `\n`
/// excluded).
fn numbered_lines(doc: &Document, lines: &[usize]) -> Vec<(usize, Range<usize>)> {
    let ranges = doc.line_ranges_at(lines.iter().copied());
    lines
        .iter()
        .filter_map(|&n| Some((n, ranges.get(&n)?.clone())))
        .collect()
}

/// The runs of consecutive lines of `lines` (sorted) that `-U` matches
/// span, as rg's searcher hands them to its printer (it joins a match to
/// the one before when their lines touch), each with the matches rg's
/// printer finds in it; `None` when the spotter does not match over lines.
pub fn blocks(doc: &Document, lines: &[usize], spotter: &Spotter) -> Option<Vec<Block>> {
    if !spotter.multi_line() {
        return None;
    }
    let mut sorted = lines.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for n in sorted {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    let ranges = doc.line_ranges_at(runs.iter().flat_map(|&(first, last)| [first, last]));
    let blocks = runs
        .into_iter()
        .filter_map(|(first, last)| {
            let start = ranges.get(&first)?.start;
            let end = ranges.get(&last)?.end;
            // Past the last line's `\n`, when it has one.
            let end = if end < doc.text.len() { end + 1 } else { end };
            Some(Block {
                first,
                last,
                range: start..end,
                matches: spotter.run_matches(&doc.text, start..end),
            })
        })
        .collect();
    Some(blocks)
}

/// Spans to colour in the grep-style output. A `-U` match that spans lines
/// colours its part of each (`blocks`, when given).
pub fn spans(
    doc: &Document,
    lines: &[usize],
    spotter: &Spotter,
    blocks: Option<&[Block]>,
) -> Spans {
    let Some(blocks) = blocks else {
        return numbered_lines(doc, lines)
            .into_iter()
            .map(|(n, range)| {
                let found = spotter.occurrences(&doc.text, range);
                (n, found.into_iter().map(|h| h.span).collect())
            })
            .collect();
    };
    let mut spans = Spans::new();
    for (n, line) in numbered_lines(doc, lines) {
        let pieces = blocks
            .iter()
            .filter(|b| b.first <= n && n <= b.last)
            .flat_map(|b| &b.matches)
            .filter(|m| m.start < line.end && m.end > line.start)
            .map(|m| m.start.max(line.start) - line.start..m.end.min(line.end) - line.start)
            .collect();
        spans.insert(n, pieces);
    }
    spans
}

/// The `--json` match lines of one file, with `data.kgrep`.
pub fn match_lines(
    doc: &Document,
    lines: &[usize],
    spotter: &Spotter,
    terms: &[Term],
    score_of: impl Fn(usize) -> Option<LineScore>,
) -> Vec<MatchLine> {
    numbered_lines(doc, lines)
        .into_iter()
        .map(|(n, range)| {
            let found = spotter.occurrences(&doc.text, range);
            let info = line_info(&found, terms, score_of(n));
            MatchLine {
                number: n,
                lines: 1,
                submatches: found.into_iter().map(|h| h.span).collect(),
                kgrep: Some(info),
            }
        })
        .collect()
}

/// The `--json` match messages of one file: [`match_lines`], or with `-U`
/// matches over lines one message per run of lines ([`blocks`]), as rg
/// writes them, its submatches in the run's text.
pub fn match_messages(
    doc: &Document,
    lines: &[usize],
    spotter: &Spotter,
    terms: &[Term],
    score_of: impl Fn(usize) -> Option<LineScore>,
) -> Vec<MatchLine> {
    let Some(blocks) = blocks(doc, lines, spotter) else {
        return match_lines(doc, lines, spotter, terms, score_of);
    };
    blocks
        .into_iter()
        .map(|b| {
            let found: Vec<Occurrence> = b
                .matches
                .iter()
                .map(|m| Occurrence {
                    span: m.start - b.range.start..m.end - b.range.start,
                    term: None,
                })
                .collect();
            let info = line_info(&found, terms, score_of(b.first));
            MatchLine {
                number: b.first,
                lines: b.last - b.first + 1,
                submatches: found.into_iter().map(|h| h.span).collect(),
                kgrep: Some(info),
            }
        })
        .collect()
}

/// Names the code unit of each natural-language match line (`data.kgrep.unit`):
/// the innermost of `units` whose extent holds it.
pub fn mark_units(matches: &mut [MatchLine], units: &[RankedUnit]) {
    for m in matches.iter_mut() {
        let Some(info) = m.kgrep.as_mut() else {
            continue;
        };
        info.unit = innermost_unit(units, m.number).map(unit_info);
    }
}

/// The unit of `units` with the smallest extent holding `line`.
pub fn innermost_unit(units: &[RankedUnit], line: usize) -> Option<&RankedUnit> {
    units
        .iter()
        .filter(|u| u.span.start_line <= line && line <= u.span.end_line)
        .min_by_key(|u| (u.span.end_line - u.span.start_line, u.index))
}

fn unit_info(u: &RankedUnit) -> UnitInfo {
    let s = &u.score;
    UnitInfo {
        kind: u.span.kind.to_string(),
        name: u.span.name.clone(),
        start: u.span.start_line,
        end: u.span.end_line,
        def_line: u.span.def_line,
        score: unsigned_zero(s.total),
        fields: FIELDS
            .iter()
            .zip(&s.fields)
            .filter(|(_, &v)| v > 0.0)
            .map(|(f, &v)| (f.label().to_string(), v))
            .collect(),
        support: unsigned_zero(s.support),
        context: unsigned_zero(s.context),
        line: unsigned_zero(s.line),
        factor: unsigned_zero(s.factor),
        length: unsigned_zero(s.length),
        branching: unsigned_zero(s.branching),
    }
}

/// Marks the lines a language model chose (after fusion with the offline
/// results): their `data.kgrep.source` is `model`.
pub fn mark_chosen(matches: &mut [MatchLine], chosen: impl Fn(usize) -> bool) {
    for m in matches.iter_mut().filter(|m| chosen(m.number)) {
        if let Some(info) = m.kgrep.as_mut() {
            info.source = LineSource::Model;
        }
    }
}

/// `data.kgrep` of one match line found by kgrep's own search.
pub fn line_info(hits: &[Occurrence], terms: &[Term], score: Option<LineScore>) -> LineInfo {
    let mut seen: Vec<usize> = Vec::new();
    for t in hits.iter().filter_map(|h| h.term) {
        if !seen.contains(&t) {
            seen.push(t);
        }
    }
    seen.sort_unstable();
    let line_terms: Vec<&Term> = seen.iter().filter_map(|&t| terms.get(t)).collect();
    let mut concepts: Vec<String> = Vec::new();
    for c in line_terms.iter().filter_map(|t| t.concept.clone()) {
        if !concepts.contains(&c) {
            concepts.push(c);
        }
    }
    let all = |o: Origin| !line_terms.is_empty() && line_terms.iter().all(|t| t.origin == o);
    let exact = line_terms.iter().any(|t| t.origin == Origin::Query);
    LineInfo {
        source: if exact {
            LineSource::Lexical
        } else if all(Origin::Fuzzy) {
            LineSource::Fuzzy
        } else if line_terms.is_empty() {
            LineSource::Lexical
        } else {
            LineSource::Thesaurus
        },
        verified: true,
        score: score.map(|s| ScoreParts {
            total: unsigned_zero(s.total),
            terms: unsigned_zero(s.terms),
            near: unsigned_zero(s.near),
            merged: unsigned_zero(s.merged),
            name: unsigned_zero(s.name),
            factor: unsigned_zero(s.factor),
        }),
        terms: line_terms.iter().map(|t| term_info(t)).collect(),
        concepts,
        submatch_terms: hits
            .iter()
            .filter_map(|h| h.term)
            .filter_map(|t| seen.iter().position(|&s| s == t))
            .collect(),
        unit: None,
    }
}

/// `-0.0` (a zero weight times a share) as `0.0`, so JSON shows `0.0`.
fn unsigned_zero(x: f64) -> f64 {
    x + 0.0
}

fn term_info(t: &Term) -> TermInfo {
    TermInfo {
        text: t.text.clone(),
        concept: t.concept.clone(),
        origin: match t.origin {
            Origin::Query => TermOrigin::Query,
            Origin::Synonym => TermOrigin::Synonym,
            Origin::Fuzzy => TermOrigin::Fuzzy,
            Origin::Model => TermOrigin::Model,
        },
    }
}

/// `data.kgrep` of the summary, from what this version knows: the query and
/// the file counts. No judge, model or learning stage has run yet, so those
/// are `null`.
pub fn run_info(q: &Query, scanned: usize, stats: &LoadStats) -> RunInfo {
    RunInfo {
        version: env!("CARGO_PKG_VERSION").to_string(),
        query: QueryInfo {
            text: q.raw.clone(),
            kind: match q.kind {
                QueryKind::Natural => QueryKindName::Natural,
                QueryKind::Literal(_) => QueryKindName::Literal,
                QueryKind::Regex(_) => QueryKindName::Regex,
            },
            terms: q.terms.iter().map(term_info).collect(),
        },
        files: FileCounts {
            scanned: scanned as u64,
            loaded: stats.loaded as u64,
            skipped: stats.skipped as u64,
        },
        judge: None,
        model: None,
        concepts_learned: None,
        budget: None,
    }
}

/// The name `--json` prints for a haystack found under the user's path
/// arguments: that path as they spelt it (`walk::as_given`), raw bytes kept;
/// without one, its [`Haystack::name`].
pub fn json_path<'h>(h: &'h Haystack, given: Option<&std::path::Path>) -> Cow<'h, [u8]> {
    match given {
        Some(path) => Cow::Owned(path_bytes(path)),
        None => h.name(),
    }
}

#[cfg(unix)]
fn path_bytes(path: &std::path::Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &std::path::Path) -> Vec<u8> {
    path.to_string_lossy().replace('\\', "/").into_bytes()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::single_range_in_vec_init)]
mod tests {
    use super::*;
    use crate::query;

    fn doc(text: &str) -> Document {
        crate::testing::doc("a", text)
    }

    #[test]
    fn exact_spans_are_every_match_of_the_line() {
        let q = query::analyze("\"retry\"");
        let spotter = Spotter::new(&q).unwrap();
        let d = doc("x\nretry, retry\nlast");
        let s = spans(&d, &[2, 9], &spotter, None);
        assert_eq!(s.get(&2).unwrap(), &vec![0..5, 7..12]);
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn empty_match_at_the_end_of_a_last_line_is_dropped() {
        let q = Query::exact("x*", true);
        let spotter = Spotter::new(&q).unwrap();
        let spans_of = |text: &[u8]| -> Vec<usize> {
            spotter
                .occurrences(text, 0..2)
                .iter()
                .map(|h| h.span.start)
                .collect()
        };
        assert_eq!(spans_of(b"ab\n"), [0, 1, 2]);
        assert_eq!(spans_of(b"ab"), [0, 1]);
    }

    /// The search skips a UTF-8 byte-order mark a text opens with, as rg's
    /// does, so `^def` matches the first line; its match is found again past
    /// the mark, at its place in the line as printed (the mark kept). With
    /// `-E none` nothing is skipped (the search did not match).
    #[test]
    fn a_leading_utf8_mark_is_skipped_as_the_search_skipped_it() {
        let text = b"\xEF\xBB\xBFdef f():\ndef g():\n";
        let q = Query::exact("^def", true);
        let spotter = Spotter::new(&q).unwrap();
        let starts = |s: &Spotter, line: Range<usize>| -> Vec<Range<usize>> {
            s.occurrences(text, line)
                .into_iter()
                .map(|h| h.span)
                .collect()
        };
        assert_eq!(starts(&spotter, 0..11), [3..6]);
        assert_eq!(starts(&spotter, 12..20), [0..3]);
        let mut raw = crate::document::ReadOptions::for_run(false);
        raw.decoding = crate::document::Decoding::Raw;
        assert!(starts(&spotter.reading(&raw), 0..11).is_empty());
        let mut q = Query::exact(r"^def f\(", true);
        q.matching.multiline = true;
        let spotter = Spotter::new(&q).unwrap();
        assert_eq!(spotter.run_matches(text, 0..12), [3..9]);
    }

    #[test]
    fn multi_line_matches_run_over_consecutive_lines() {
        let mut q = Query::exact(r"o\nb", true);
        q.matching.multiline = true;
        let spotter = Spotter::new(&q).unwrap();
        let d = doc("foo\nbar\nfoo\nbaz\nx\nfoo\nbar");
        let found = blocks(&d, &[1, 2, 3, 4, 6, 7], &spotter).unwrap();
        let runs: Vec<(usize, usize, Vec<Range<usize>>)> = found
            .iter()
            .map(|b| (b.first, b.last, b.matches.clone()))
            .collect();
        assert_eq!(runs, [(1, 4, vec![2..5, 10..13]), (6, 7, vec![20..23])]);
        let s = spans(&d, &[1, 2], &spotter, Some(&found));
        assert_eq!(s.get(&1).unwrap(), &vec![2..3]);
        assert_eq!(s.get(&2).unwrap(), &vec![0..1]);
        // A pattern that cannot match a line end is searched line by line.
        let mut q = Query::exact("foo", true);
        q.matching.multiline = true;
        assert!(blocks(&d, &[1], &Spotter::new(&q).unwrap()).is_none());
    }

    #[test]
    fn natural_lines_carry_terms_concepts_and_scores() {
        let mut q = query::analyze("retry delay");
        q.terms[1].origin = Origin::Synonym;
        q.terms[1].concept = Some("latency".into());
        let spotter = Spotter::new(&q).unwrap();
        let d = doc("let delay = retry_delay(retries);\nnothing");
        let score = LineScore {
            total: 2.5,
            factor: 1.0,
            ..LineScore::default()
        };
        let lines = match_lines(&d, &[1], &spotter, &q.terms, |n| {
            (n == 1).then(|| score.clone())
        });
        let info = lines[0].kgrep.clone().unwrap();
        let texts: Vec<&str> = info.terms.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["retry", "delay"]);
        assert_eq!(info.concepts, ["latency"]);
        assert_eq!(info.source, LineSource::Lexical);
        assert_eq!(info.score.unwrap().total, 2.5);
        // delay, retry, delay, retries: one term index per submatch.
        assert_eq!(lines[0].submatches, vec![4..9, 12..17, 18..23, 24..31]);
        assert_eq!(info.submatch_terms, [1, 0, 1, 0]);
    }

    #[test]
    fn a_line_with_only_synonyms_comes_from_the_thesaurus() {
        let mut q = query::analyze("retry");
        q.terms[0].origin = Origin::Synonym;
        let hits = [Occurrence {
            span: 0..5,
            term: Some(0),
        }];
        assert_eq!(
            line_info(&hits, &q.terms, None).source,
            LineSource::Thesaurus
        );
        assert_eq!(line_info(&[], &q.terms, None).source, LineSource::Lexical);
    }

    #[test]
    fn run_info_describes_the_query_and_leaves_later_stages_null() {
        let q = query::analyze("retry delay");
        let info = run_info(
            &q,
            7,
            &LoadStats {
                loaded: 6,
                skipped: 1,
                binary: 0,
                skips: Vec::new(),
                skipped_keys: vec!["a.bin".to_string()],
                bytes: 0,
            },
        );
        assert_eq!(info.query.kind, QueryKindName::Natural);
        assert_eq!(info.query.terms.len(), 2);
        assert_eq!(
            info.files,
            FileCounts {
                scanned: 7,
                loaded: 6,
                skipped: 1
            }
        );
        assert!(info.judge.is_none() && info.model.is_none() && info.concepts_learned.is_none());
    }
}
