//! The search stage: a rayon fan-out over the haystacks with grep-searcher.
//!
//! Owns reading haystacks (through `document`), running a matcher over them and
//! collecting hits. Does not own ranking (`score`) or printing (`render`).
//! Natural-language queries are searched in two passes, so memory stays small on
//! huge trees: `scan_terms` counts term occurrences in every file, and only the
//! best files are searched again line by line with `term_lines`. Literal and regex
//! queries collect every matching line number with `search_exact`.

pub mod matcher;
pub mod sink;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use grep_matcher::Matcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};
use rayon::prelude::*;

use crate::document::{self, Document, Loaded, ReadOptions};
use crate::messages;
use crate::walk::Haystack;

use matcher::TermMatcher;
use sink::{CountSink, LineSink, TermLine, TermLineSink};

/// How many haystacks were read and how many were skipped (binary, unreadable
/// or unconvertible), with the warnings for documents that could not be
/// converted, in key order (`skip KEY: why`), to print after the summary as
/// rlmgrep does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub loaded: usize,
    pub skipped: usize,
    pub skips: Vec<String>,
}

/// Term statistics of one file that holds at least one term.
#[derive(Clone, Debug, PartialEq)]
pub struct FileTerms {
    /// Index into the haystack list.
    pub haystack: usize,
    /// Occurrences of each query term.
    pub counts: Vec<u32>,
    /// Length of the file's text in bytes (BM25's document length).
    pub len: usize,
}

/// Result of the first pass over every haystack.
#[derive(Clone, Debug, Default)]
pub struct TermScan {
    /// Files with at least one term, in haystack order.
    pub files: Vec<FileTerms>,
    /// Mean text length over all loaded files (BM25's average document length).
    pub mean_len: f64,
    pub stats: LoadStats,
}

/// Matching lines of one haystack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLines {
    pub haystack: usize,
    pub lines: Vec<usize>,
}

/// Result of an exact (literal or regex) search.
#[derive(Clone, Debug, Default)]
pub struct ExactOutcome {
    /// Files with at least one matching line, in haystack order.
    pub files: Vec<FileLines>,
    pub stats: LoadStats,
}

fn searcher(line_numbers: bool) -> Searcher {
    SearcherBuilder::new()
        .line_number(line_numbers)
        // Binary files were already recognised by `document`; with `-a` their text
        // must be searched as is.
        .binary_detection(BinaryDetection::none())
        .build()
}

/// Loads one haystack, reporting unreadable ones and recording unconvertible
/// ones. `None` for binary, unreadable or unconvertible.
pub fn load(h: &Haystack, read: &ReadOptions, stats: &Counters) -> Option<Document> {
    match document::load(h, read) {
        Ok(Loaded::Text(doc)) => {
            stats.loaded.fetch_add(1, Ordering::Relaxed);
            Some(doc)
        }
        Ok(Loaded::Binary) => {
            stats.skipped.fetch_add(1, Ordering::Relaxed);
            None
        }
        Ok(Loaded::Unconvertible(err)) => {
            stats.skipped.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut skips) = stats.skips.lock() {
                skips.push((h.key.clone(), format!("skip {}: {err}", h.key)));
            }
            None
        }
        Err(err) => {
            stats.skipped.fetch_add(1, Ordering::Relaxed);
            messages::error(&format!("{}: {err}", h.key));
            None
        }
    }
}

/// Shared counters for the fan-out.
#[derive(Debug, Default)]
pub struct Counters {
    loaded: AtomicUsize,
    skipped: AtomicUsize,
    bytes: AtomicUsize,
    /// `(key, warning)` for each document that could not be converted.
    skips: Mutex<Vec<(String, String)>>,
}

impl Counters {
    fn stats(&self) -> LoadStats {
        let mut skips = self
            .skips
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or_default();
        skips.sort();
        LoadStats {
            loaded: self.loaded.load(Ordering::Relaxed),
            skipped: self.skipped.load(Ordering::Relaxed),
            skips: skips.into_iter().map(|(_, line)| line).collect(),
        }
    }
}

/// First pass: term counts of every file that holds a query term.
pub fn scan_terms(haystacks: &[Haystack], matcher: &TermMatcher, read: &ReadOptions) -> TermScan {
    let counters = Counters::default();
    let mut files: Vec<FileTerms> = haystacks
        .par_iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let doc = load(h, read, &counters)?;
            counters.bytes.fetch_add(doc.text.len(), Ordering::Relaxed);
            let mut sink = CountSink::new(matcher);
            if let Err(err) = searcher(false).search_slice(matcher, &doc.text, &mut sink) {
                messages::error(&format!("{}: {err}", h.key));
                return None;
            }
            let hit = sink.counts.iter().any(|&c| c > 0);
            hit.then_some(FileTerms {
                haystack: i,
                counts: sink.counts,
                len: doc.text.len(),
            })
        })
        .collect();
    files.sort_by_key(|f| f.haystack);
    let stats = counters.stats();
    let mean_len = if stats.loaded == 0 {
        0.0
    } else {
        counters.bytes.load(Ordering::Relaxed) as f64 / stats.loaded as f64
    };
    TermScan {
        files,
        mean_len,
        stats,
    }
}

/// Second pass over one loaded document: every line with a term occurrence.
pub fn term_lines(doc: &Document, matcher: &TermMatcher) -> anyhow::Result<Vec<TermLine>> {
    let mut sink = TermLineSink {
        matcher,
        lines: Vec::new(),
    };
    searcher(true).search_slice(matcher, &doc.text, &mut sink)?;
    Ok(sink.lines)
}

/// Exact search: every matching line of every haystack.
pub fn search_exact<M>(haystacks: &[Haystack], matcher: &M, read: &ReadOptions) -> ExactOutcome
where
    M: Matcher + Sync,
{
    let counters = Counters::default();
    let mut files: Vec<FileLines> = haystacks
        .par_iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let doc = load(h, read, &counters)?;
            let mut sink = LineSink::default();
            if let Err(err) = searcher(true).search_slice(matcher, &doc.text, &mut sink) {
                messages::error(&format!("{}: {err}", h.key));
                return None;
            }
            (!sink.lines.is_empty()).then_some(FileLines {
                haystack: i,
                lines: sink.lines,
            })
        })
        .collect();
    files.sort_by_key(|f| f.haystack);
    ExactOutcome {
        files,
        stats: counters.stats(),
    }
}
