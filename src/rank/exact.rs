//! Literal and regex queries: every matching line, ripgrep's semantics.
//!
//! Owns turning the hits into [`Searched`]; the matcher is
//! `search::matcher::exact`'s (shared with the printers' spans), the search
//! itself `search::search_exact`'s, and ranking is for natural-language
//! queries only (`natural`).

use super::{Searched, Selection};
use crate::document::ReadOptions;
use crate::query::{Query, QueryKind};
use crate::report::LineScores;
use crate::search::matcher::exact;
use crate::search::{self, Corpus};

/// A literal or regex query: every matching line (case-sensitive unless
/// `-i`). A literal's plain files are streamed to their first match before
/// being loaded (`search_exact`'s prefilter), unless the literal holds
/// characters the text normalisation changes or must match whole lines; for a regex, files are loaded
/// and normalised before matching, since a pattern may depend on line ends
/// or invalid UTF-8. With `first_only` (`-q`), no file is read after one
/// has matched. With `-U` a match may span lines, each of which prints.
pub fn search(
    q: &Query,
    corpus: Corpus<'_>,
    read: &ReadOptions,
    first_only: bool,
) -> anyhow::Result<Searched> {
    let Some(matcher) = exact(q)? else {
        anyhow::bail!("a natural-language query is ranked, not searched exactly");
    };
    // `--invert-match` and `--passthru` print files with no match whole:
    // every file is loaded. A whole-line literal (`-x`) depends on where a
    // line ends, which the raw bytes put before a CRLF's `\r`: loaded too.
    let prefilter = match &q.kind {
        QueryKind::Literal(lit) => {
            !q.matching.multiline
                && !q.matching.line
                && !q.matching.invert
                && !q.matching.passthru
                && !lit.contains(['\r', '\n', '\u{fffd}'])
        }
        _ => false,
    };
    let how = search::Exact {
        prefilter,
        first_only,
        multiline: q.matching.multiline,
        invert: q.matching.invert,
        keep_all: q.matching.passthru,
    };
    Ok(collect(search::search_exact(corpus, &matcher, read, how)))
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
