//! From search results to what the printers take: for each printed match line,
//! the byte spans of what matched and, for `--json`, what kgrep knows about it
//! (`data.kgrep`: terms, concepts, score parts, source) and about the run.
//!
//! Owns finding spans — the query's matcher run again over the few lines that
//! print, since the search stage keeps line numbers only — and translating
//! kgrep's internal values into the printers' plain data. Does not own which
//! lines print (`search`, `score`) or how they look (`render`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use grep_matcher::Matcher;

use crate::document::Document;
use crate::query::{Origin, Query, QueryKind, Term};
use crate::render::grep::Spans;
use crate::render::json::kgrep::{
    FileCounts, LineInfo, LineSource, QueryInfo, QueryKindName, RunInfo, ScoreParts, TermInfo,
    TermOrigin, UnitInfo,
};
use crate::render::json::MatchLine;
use crate::score::unit::{RankedUnit, FIELDS};
use crate::score::{LineScore, RankedFile};
use crate::search::matcher::TermMatcher;
use crate::search::LoadStats;
use crate::walk::{Haystack, Source};

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
    Exact(crate::search::matcher::ExactMatcher),
    Terms(TermMatcher),
}

impl Spotter {
    /// The spotter for a query: the matcher the search stage uses for it
    /// (a literal is a fixed string, a regex ripgrep's syntax).
    pub fn new(q: &Query) -> anyhow::Result<Spotter> {
        Ok(match crate::search::matcher::exact(q)? {
            Some(exact) => Spotter::Exact(exact),
            None => Spotter::Terms(TermMatcher::new(&q.terms)?),
        })
    }

    /// The occurrences in one line (without its `\n`), in order. An empty match at the
    /// very end of the text is not a hit (ripgrep's rule), so a last line
    /// without a newline (`has_newline` false) loses it.
    pub fn occurrences(&self, line: &[u8], has_newline: bool) -> Vec<Occurrence> {
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
            Spotter::Exact(m) => {
                let mut hits = Vec::new();
                let _ = m.find_iter(line, |found| {
                    let at_end = found.is_empty() && found.start() >= line.len();
                    if !at_end || has_newline {
                        hits.push(Occurrence {
                            span: found.start()..found.end(),
                            term: None,
                        });
                    }
                    true
                });
                hits
            }
        }
    }
}

/// Each of `lines` (1-based) with its text and whether it ends in `\n`.
fn numbered_lines<'d>(doc: &'d Document, lines: &[usize]) -> Vec<(usize, &'d [u8], bool)> {
    let count = doc.line_count();
    let texts = doc.lines_at(lines.iter().copied());
    lines
        .iter()
        .filter_map(|&n| {
            let text = *texts.get(&n)?;
            Some((n, text, n < count))
        })
        .collect()
}

/// Spans to colour in the grep-style output.
pub fn spans(doc: &Document, lines: &[usize], spotter: &Spotter) -> Spans {
    numbered_lines(doc, lines)
        .into_iter()
        .map(|(n, text, nl)| {
            let found = spotter.occurrences(text, nl);
            (n, found.into_iter().map(|h| h.span).collect())
        })
        .collect()
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
        .map(|(n, text, nl)| {
            let found = spotter.occurrences(text, nl);
            let info = line_info(&found, terms, score_of(n));
            MatchLine {
                number: n,
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

/// The name `--json` prints for a haystack: its key, or, when the real file
/// name is not UTF-8 (the key then holds U+FFFD), the same components taken
/// from the real path as raw bytes.
pub fn printed_path(h: &Haystack) -> Cow<'_, [u8]> {
    let Source::Path(real) = &h.source else {
        return Cow::Borrowed(h.key.as_bytes());
    };
    if real.to_str().is_some() {
        return Cow::Borrowed(h.key.as_bytes());
    }
    raw_key(&h.key, real).map_or(Cow::Borrowed(h.key.as_bytes()), Cow::Owned)
}

/// The name `--json` prints for a haystack found under the user's path
/// arguments: that path as they spelt it (`walk::as_given`), raw bytes kept;
/// without one, [`printed_path`].
pub fn json_path<'h>(h: &'h Haystack, given: Option<&std::path::Path>) -> Cow<'h, [u8]> {
    match given {
        Some(path) => Cow::Owned(path_bytes(path)),
        None => printed_path(h),
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

/// The last components of `real`, as many as the key has, joined by `/`.
#[cfg(unix)]
fn raw_key(key: &str, real: &std::path::Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let parts: Vec<&[u8]> = real
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(p) => Some(p.as_bytes()),
            std::path::Component::ParentDir => Some(&b".."[..]),
            _ => None,
        })
        .collect();
    let wanted = key.split('/').filter(|p| !p.is_empty()).count();
    let tail = parts.get(parts.len().checked_sub(wanted)?..)?;
    let mut out = if key.starts_with('/') {
        b"/".to_vec()
    } else {
        Vec::new()
    };
    out.extend_from_slice(&tail.join(&b'/'));
    Some(out)
}

#[cfg(not(unix))]
fn raw_key(_key: &str, _real: &std::path::Path) -> Option<Vec<u8>> {
    None
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
        let s = spans(&d, &[2, 9], &spotter);
        assert_eq!(s.get(&2).unwrap(), &vec![0..5, 7..12]);
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn empty_match_at_the_end_of_a_last_line_is_dropped() {
        let q = Query::exact("x*", true);
        let spotter = Spotter::new(&q).unwrap();
        let spans_of = |nl| -> Vec<usize> {
            spotter
                .occurrences(b"ab", nl)
                .iter()
                .map(|h| h.span.start)
                .collect()
        };
        assert_eq!(spans_of(true), [0, 1, 2]);
        assert_eq!(spans_of(false), [0, 1]);
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

    #[cfg(unix)]
    #[test]
    fn non_utf8_file_names_print_their_real_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let real = std::path::Path::new(std::ffi::OsStr::from_bytes(b"/tmp/w/src/caf\xe9.rs"));
        let h = Haystack {
            key: "src/caf\u{fffd}.rs".into(),
            source: Source::Path(real.to_path_buf()),
        };
        assert_eq!(printed_path(&h).as_ref(), b"src/caf\xe9.rs");
        let h = Haystack {
            key: "/tmp/w/src/caf\u{fffd}.rs".into(),
            source: Source::Path(real.to_path_buf()),
        };
        assert_eq!(printed_path(&h).as_ref(), b"/tmp/w/src/caf\xe9.rs");
        let utf8 = Haystack {
            key: "src/a.rs".into(),
            source: Source::Path("/tmp/w/src/a.rs".into()),
        };
        assert_eq!(printed_path(&utf8).as_ref(), b"src/a.rs");
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
