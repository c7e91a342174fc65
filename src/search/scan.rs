//! The first pass of every search: each file once, as a stream.
//!
//! `scan_terms` counts query terms per file (natural language); `search_exact`
//! finds the matching lines of literal and regex queries. Both keep only files
//! with hits.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use grep_matcher::Matcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};

use super::matcher::TermMatcher;
use super::sink::{CountSink, FirstMatchSink, LineSink};
use super::{each_file, load, Corpus, Counters, Found, LoadStats};
use crate::document::{self, ReadOptions};
use crate::messages;
use crate::query::Term;
use crate::walk::{Haystack, Source};

/// Files counted with every term before deciding which terms are too common to
/// count in the rest of the first pass. Smaller trees are counted in full.
pub const SAMPLE_FILES: usize = 1000;
/// Files kept aside, hits or not, as a sample of the corpus's vocabulary (for
/// typo correction when a query word matches nothing).
pub const VOCABULARY_SAMPLE: usize = 50;

/// A term found in more than this share of the sampled files is common: its
/// idf is below ln(1/0.1) ≈ 2.3 against 7–11 for a rare term in a big tree, so
/// it hardly changes which files are candidates, while matching it everywhere
/// costs most of the pass.
pub const COMMON_TERM_SHARE: f64 = 0.1;

/// A searcher over one stream or slice. `detect_binary`: stop at the first NUL
/// byte (the file is then binary and skipped, as rlmgrep decides).
pub fn searcher(line_numbers: bool, detect_binary: bool) -> Searcher {
    let binary = if detect_binary {
        BinaryDetection::quit(0)
    } else {
        BinaryDetection::none()
    };
    SearcherBuilder::new()
        .line_number(line_numbers)
        .binary_detection(binary)
        .build()
}

/// A plain file on disk that can be searched as raw bytes.
fn streamable<'h>(h: &'h Haystack, read: &ReadOptions) -> Option<&'h std::path::Path> {
    match &h.source {
        Source::Path(path) if !document::is_converted(h, read) => Some(path),
        _ => None,
    }
}

/// Term statistics of one file that holds at least one term.
#[derive(Clone, Debug, PartialEq)]
pub struct FileTerms {
    /// Index into `TermScan::haystacks`.
    pub haystack: usize,
    /// Occurrences of each query term (0 for a term not counted, see `common`).
    pub counts: Vec<u32>,
    /// Length of the file's text in bytes (BM25's document length).
    pub len: usize,
}

/// Result of the first pass of a natural-language query.
#[derive(Clone, Debug, Default)]
pub struct TermScan {
    /// Files with at least one counted term, sorted by key.
    pub haystacks: Vec<Haystack>,
    /// Their statistics, `files[i].haystack == i`.
    pub files: Vec<FileTerms>,
    /// Mean text length over all loaded files (BM25's average document length).
    pub mean_len: f64,
    pub stats: LoadStats,
    pub scanned: usize,
    /// Terms found too common to count after the sample: their counts are 0
    /// everywhere and their document frequency is estimated from the sample.
    pub common: Vec<bool>,
    /// Document frequency of each term over the loaded files.
    pub df: Vec<usize>,
    /// Up to `VOCABULARY_SAMPLE` of the files read, with or without hits.
    pub sample: Vec<Haystack>,
}

/// The matcher in use, and what the sample taught about the terms.
struct Adaptive<'t> {
    terms: &'t [Term],
    full: TermMatcher,
    /// Set once, after `SAMPLE_FILES` files: the matcher without common terms
    /// (`None` when no term is common, or every term is).
    reduced: OnceLock<Option<(TermMatcher, Vec<bool>)>>,
    sampled: AtomicUsize,
    sample_df: Vec<AtomicUsize>,
}

impl Adaptive<'_> {
    /// The matcher for the next file, and whether it is the full one.
    fn matcher(&self) -> (&TermMatcher, bool) {
        match self.reduced.get() {
            Some(Some((m, _))) => (m, false),
            _ => (&self.full, true),
        }
    }

    /// Learns from a file counted with every term; decides after the sample.
    fn learn(&self, counts: &[u32]) {
        for (df, &c) in self.sample_df.iter().zip(counts) {
            if c > 0 {
                df.fetch_add(1, Ordering::Relaxed);
            }
        }
        if self.sampled.fetch_add(1, Ordering::Relaxed) + 1 == SAMPLE_FILES {
            let _ = self.reduced.set(self.decide());
        }
    }

    fn decide(&self) -> Option<(TermMatcher, Vec<bool>)> {
        let n = self.sampled.load(Ordering::Relaxed).max(1) as f64;
        let common: Vec<bool> = self
            .sample_df
            .iter()
            .map(|df| df.load(Ordering::Relaxed) as f64 / n > COMMON_TERM_SHARE)
            .collect();
        if !common.iter().any(|&c| c) || common.iter().all(|&c| c) {
            return None;
        }
        let keep: Vec<bool> = common.iter().map(|c| !c).collect();
        let matcher = TermMatcher::subset(self.terms, &keep).ok()?;
        Some((matcher, common))
    }
}

/// First pass: term counts of every file that holds a query term.
pub fn scan_terms(
    corpus: Corpus<'_>,
    terms: &[Term],
    read: &ReadOptions,
) -> anyhow::Result<TermScan> {
    let adaptive = Adaptive {
        terms,
        full: TermMatcher::new(terms)?,
        reduced: OnceLock::new(),
        sampled: AtomicUsize::new(0),
        sample_df: terms.iter().map(|_| AtomicUsize::new(0)).collect(),
    };
    let counters = Counters::default();
    let sample = Sample::default();
    let (found, scanned) = each_file(corpus, |h| {
        let (matcher, full) = adaptive.matcher();
        let (counts, len) = count_file(h, matcher, read, &counters)?;
        sample.offer(h);
        if full {
            adaptive.learn(&counts);
        }
        counts.iter().any(|&c| c > 0).then_some((counts, len))
    });
    let stats = counters.stats();
    let common = match adaptive.reduced.get() {
        Some(Some((_, common))) => common.clone(),
        _ => vec![false; terms.len()],
    };
    let mut haystacks = Vec::with_capacity(found.len());
    let mut files = Vec::with_capacity(found.len());
    for (h, (mut counts, len)) in found {
        for (c, _) in counts.iter_mut().zip(&common).filter(|(_, &common)| common) {
            *c = 0;
        }
        if counts.iter().any(|&c| c > 0) {
            files.push(FileTerms {
                haystack: haystacks.len(),
                counts,
                len,
            });
            haystacks.push(h);
        }
    }
    let df = document_frequencies(&files, &common, &adaptive, stats.loaded);
    Ok(TermScan {
        haystacks,
        files,
        mean_len: counters.mean_len(),
        stats,
        scanned,
        common,
        df,
        sample: sample.into_inner(),
    })
}

/// The first files read, kept for their vocabulary.
#[derive(Default)]
struct Sample {
    taken: AtomicUsize,
    files: std::sync::Mutex<Vec<Haystack>>,
}

impl Sample {
    fn offer(&self, h: &Haystack) {
        if self.taken.fetch_add(1, Ordering::Relaxed) < VOCABULARY_SAMPLE {
            let mut files = self
                .files
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            files.push(h.clone());
        }
    }

    fn into_inner(self) -> Vec<Haystack> {
        self.files
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Exact for counted terms; for common ones, the sample's share scaled up.
fn document_frequencies(
    files: &[FileTerms],
    common: &[bool],
    adaptive: &Adaptive<'_>,
    loaded: usize,
) -> Vec<usize> {
    let sampled = adaptive.sampled.load(Ordering::Relaxed).max(1);
    (0..common.len())
        .map(|t| {
            if common[t] {
                let in_sample = adaptive.sample_df[t].load(Ordering::Relaxed);
                (in_sample * loaded / sampled).max(1)
            } else {
                files.iter().filter(|f| f.counts[t] > 0).count()
            }
        })
        .collect()
}

/// Counts terms in one file; `None` when it is binary or unreadable (counted
/// and reported).
fn count_file(
    h: &Haystack,
    matcher: &TermMatcher,
    read: &ReadOptions,
    counters: &Counters,
) -> Option<(Vec<u32>, usize)> {
    let mut sink = CountSink::new(matcher);
    let Some(path) = streamable(h, read) else {
        let doc = load(h, read, counters)?;
        if let Err(err) = searcher(false, false).search_slice(matcher, &doc.text, &mut sink) {
            messages::error(&format!("{}: {err}", h.key));
            return None;
        }
        return Some((sink.counts, doc.text.len()));
    };
    let result = searcher(false, !read.text).search_path(matcher, path, &mut sink);
    finish_stream(h, result, sink.binary, sink.bytes, counters)?;
    Some((sink.counts, sink.bytes))
}

/// Records how a streamed file ended: `None` if it was skipped.
fn finish_stream(
    h: &Haystack,
    result: Result<(), std::io::Error>,
    binary: bool,
    bytes: usize,
    counters: &Counters,
) -> Option<()> {
    match result {
        Err(err) => {
            counters.skipped();
            messages::error(&format!("{}: {err}", h.key));
            None
        }
        Ok(()) if binary => {
            counters.skipped();
            None
        }
        Ok(()) => {
            counters.loaded(bytes);
            Some(())
        }
    }
}

/// The matching lines of one file of an exact search.
pub type ExactFile = Vec<usize>;

/// Exact search: every matching line of every file. With `prefilter`, plain
/// files are first streamed until their first match and only files that match
/// are loaded and normalised for their line numbers; safe for patterns whose
/// matches cannot depend on that normalisation (CR removal, U+FFFD for invalid
/// UTF-8): literals without line breaks or U+FFFD.
pub fn search_exact<M>(
    corpus: Corpus<'_>,
    matcher: &M,
    read: &ReadOptions,
    prefilter: bool,
) -> Found<ExactFile>
where
    M: Matcher + Sync,
{
    let counters = Counters::default();
    let (found, scanned) = each_file(corpus, |h| {
        if prefilter {
            if let Some(path) = streamable(h, read) {
                let mut first = FirstMatchSink::default();
                let result = searcher(false, !read.text).search_path(matcher, path, &mut first);
                if !first.matched {
                    finish_stream(h, result, first.binary, first.bytes, &counters);
                    return None;
                }
            }
        }
        let doc = load(h, read, &counters)?;
        let mut sink = LineSink::default();
        if let Err(err) = searcher(true, false).search_slice(matcher, &doc.text, &mut sink) {
            messages::error(&format!("{}: {err}", h.key));
            return None;
        }
        (!sink.lines.is_empty()).then_some(sink.lines)
    });
    let (haystacks, hits) = found.into_iter().unzip();
    Found {
        haystacks,
        hits,
        stats: counters.stats(),
        scanned,
    }
}
