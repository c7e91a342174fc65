//! Literal and regex queries: every matching line, ripgrep's semantics.
//!
//! Owns turning the query into a matcher and the hits into [`Searched`];
//! the search itself is `search::search_exact`'s, and ranking is for
//! natural-language queries only (`natural`).

use anyhow::Context;

use super::{Searched, Selection};
use crate::document::ReadOptions;
use crate::report::LineScores;
use crate::search::{self, Corpus};

/// A literal query: case-sensitive, every matching line. Plain files are
/// streamed to their first match before being loaded (`search_exact`'s
/// prefilter), unless the literal holds characters the text normalisation
/// changes.
pub fn literal(lit: &str, corpus: Corpus<'_>, read: &ReadOptions) -> anyhow::Result<Searched> {
    let matcher = grep_regex::RegexMatcherBuilder::new()
        .fixed_strings(true)
        .build(lit)
        .context("cannot build a literal matcher")?;
    let prefilter = !lit.contains(['\r', '\n', '\u{fffd}']);
    Ok(collect(search::search_exact(
        corpus, &matcher, read, prefilter,
    )))
}

/// A regex query: every matching line. Files are loaded and normalised before
/// matching, since a pattern may depend on line ends or invalid UTF-8.
pub fn regex(re: &str, corpus: Corpus<'_>, read: &ReadOptions) -> anyhow::Result<Searched> {
    let matcher = grep_regex::RegexMatcherBuilder::new()
        .build(re)
        .with_context(|| format!("invalid regex {re:?}"))?;
    Ok(collect(search::search_exact(corpus, &matcher, read, false)))
}

fn collect(found: search::Found<search::ExactFile>) -> Searched {
    let selected: Selection = found.hits.into_iter().enumerate().collect();
    Searched {
        haystacks: found.haystacks,
        selected,
        stats: found.stats,
        scores: LineScores::new(),
        scanned: found.scanned,
        ranked: Vec::new(),
        judgement: None,
        df: Vec::new(),
        context: 0,
    }
}
