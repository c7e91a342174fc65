//! The search stage: running a matcher over every haystack, in parallel.
//!
//! Owns running a matcher over every haystack and keeping what a later stage
//! needs: term counts (natural language) or matching lines (literal, regex).
//! Literal and regex searches walk and search together, ripgrep's way: walker
//! threads search each file as they find it (`walk::walk_with`). Plain files
//! are read as a stream through grep-searcher with a fixed buffer, so memory
//! follows the number of files *with hits*, not the size of the tree (plus,
//! for natural language, the list of paths). A natural-language search of a
//! small tree (at most `scan::SMALL_TREE_FILES` files) reads each file whole
//! instead and keeps its bytes for the run (`document::Reread`, within
//! `document::RAW_BYTES`), so that no later stage reads it again. Files whose
//! text needs a conversion, and piped stdin, go through `document`. Does not own ranking
//! (`score`) or printing (`render`).
//!
//! Natural-language queries are searched in two passes: `scan_terms` counts term
//! occurrences in every file, and only the best files are searched again line by
//! line with `term_lines`. On a big tree, terms found in a large share of an
//! even sample of its files (`size`, `set`, `len` in a kernel) are not counted
//! in the rest: they barely move BM25 and cost most of the time (see
//! `COMMON_TERM_SHARE`) while rarer words of the query pick the candidate
//! files (else they are counted after all: `scan_terms`); the second pass
//! scores them fully. The tree is listed
//! before it is counted so that the sample, and with it the results, never
//! depend on which files a thread happened to read first.

mod count;
pub mod fancy;
pub mod matcher;
mod scan;
pub mod sink;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::document::convert::ConvertError;
use crate::document::{self, Document, Loaded, ReadOptions};
use crate::messages;
use crate::walk::{self, Haystack, Listing, Visitor, WalkOptions};

use matcher::TermMatcher;
pub use scan::{
    scan_terms, search_exact, Exact, ExactFile, FileTerms, TermScan, Want, COMMON_TERM_SHARE,
    SAMPLE_FILES,
};
use sink::TermLine;

/// How many haystacks were read and how many were skipped (binary, unreadable
/// or unconvertible), with the warnings for documents that could not be
/// converted (`skip KEY: why`) or whose text was cut, in key order, to print
/// after the summary as rlmgrep does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub loaded: usize,
    pub skipped: usize,
    /// Of `skipped`, the binary files (a NUL byte, without `-a`).
    pub binary: usize,
    pub skips: Vec<String>,
    /// The keys of the `skipped` files, sorted: what the search never read
    /// as text (`--files-without-match` leaves them out, as rg does).
    pub skipped_keys: Vec<String>,
    /// Bytes of the files read as text (`--stats`'s bytes searched).
    pub bytes: u64,
}

/// Where the haystacks of a search come from.
#[derive(Clone, Copy, Debug)]
pub enum Corpus<'a> {
    /// Haystacks already in hand (piped stdin).
    List(&'a [Haystack]),
    /// The files under path arguments, listed once for the whole run: every
    /// later search of the run (the model stage's) reads this list instead of
    /// walking the tree again.
    Listed(&'a Listing),
    /// The files under path arguments, walked while searching.
    Walk {
        paths: &'a [PathBuf],
        opts: &'a WalkOptions,
        cwd: &'a Path,
    },
}

/// What a search kept: the haystacks with hits (sorted by key) and, for each,
/// the per-file result `T`, plus the load statistics.
#[derive(Clone, Debug, Default)]
pub struct Found<T> {
    pub haystacks: Vec<Haystack>,
    pub hits: Vec<T>,
    pub stats: LoadStats,
    /// Regular files considered (`Scanned N files`).
    pub scanned: usize,
}

/// Shared counters for the fan-out.
#[derive(Debug, Default)]
pub struct Counters {
    loaded: AtomicUsize,
    skipped: AtomicUsize,
    binary: AtomicUsize,
    bytes: AtomicUsize,
    /// `(key, warning)` for each document that could not be converted.
    skips: Mutex<Vec<(String, String)>>,
    /// The key of each skipped file.
    skipped_keys: Mutex<Vec<String>>,
}

impl Counters {
    fn stats(&self) -> LoadStats {
        let mut skips =
            std::mem::take(&mut *self.skips.lock().unwrap_or_else(PoisonError::into_inner));
        skips.sort();
        let mut skipped_keys = std::mem::take(
            &mut *self
                .skipped_keys
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        skipped_keys.sort();
        LoadStats {
            loaded: self.loaded.load(Ordering::Relaxed),
            skipped: self.skipped.load(Ordering::Relaxed),
            binary: self.binary.load(Ordering::Relaxed),
            skips: skips.into_iter().map(|(_, line)| line).collect(),
            skipped_keys,
            bytes: self.bytes.load(Ordering::Relaxed) as u64,
        }
    }

    /// Records a document that could not be converted, with its warning.
    pub fn unconvertible(&self, key: &str, err: &ConvertError) {
        self.skipped(key);
        self.skips
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((key.to_string(), format!("skip {key}: {err}")));
    }

    /// Records a document whose conversion was cut at `limit` bytes of text:
    /// a warning with the others, after the summary.
    pub fn cut(&self, key: &str, limit: usize) {
        let size = if limit.is_multiple_of(1 << 20) {
            format!("{} MiB", limit >> 20)
        } else {
            format!("{limit} bytes")
        };
        self.skips
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((
                key.to_string(),
                format!(
                    "{key}: only its first {size} of text are searched (a document's text is cut there)"
                ),
            ));
    }

    /// Records a file that was read as text, `bytes` long.
    pub fn loaded(&self, bytes: usize) {
        self.loaded.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Records a file that was skipped (unreadable and reported).
    pub fn skipped(&self, key: &str) {
        self.skipped.fetch_add(1, Ordering::Relaxed);
        self.skipped_keys
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(key.to_string());
    }

    /// Records a binary file, skipped.
    pub fn binary(&self, key: &str) {
        self.skipped(key);
        self.binary.fetch_add(1, Ordering::Relaxed);
    }

    /// Mean length in bytes of the files read (BM25's average document length).
    pub fn mean_len(&self) -> f64 {
        let loaded = self.loaded.load(Ordering::Relaxed);
        if loaded == 0 {
            return 0.0;
        }
        self.bytes.load(Ordering::Relaxed) as f64 / loaded as f64
    }
}

/// Loads one haystack as a document, recording it; `None` for binary,
/// unreadable (reported) or unconvertible (recorded for the summary) ones.
pub fn load(h: &Haystack, read: &ReadOptions, counters: &Counters) -> Option<Document> {
    match document::load(h, read) {
        Ok(Loaded::Text(doc)) => {
            counters.loaded(doc.text.len());
            if let Some(limit) = doc.cut {
                counters.cut(&h.key, limit);
            }
            Some(doc)
        }
        Ok(Loaded::Partial(doc, unread)) => {
            counters.loaded(doc.text.len());
            for part in unread {
                messages::error_in(read.voice, &format!("{}: {part}", read.naming.name(h)));
            }
            Some(doc)
        }
        Ok(Loaded::Binary) => {
            counters.binary(&h.key);
            None
        }
        Ok(Loaded::Unconvertible(err)) => {
            counters.unconvertible(&h.key, &err);
            None
        }
        Err(err) => {
            counters.skipped(&h.key);
            messages::error_in(read.voice, &format!("{}: {err}", read.naming.name(h)));
            None
        }
    }
}

/// Every haystack of the corpus, in a fixed order (walking the tree unless
/// the corpus is already listed).
pub fn list(corpus: Corpus<'_>) -> std::borrow::Cow<'_, Listing> {
    use std::borrow::Cow;
    match corpus {
        Corpus::List(list) => Cow::Owned(Listing::of(list)),
        Corpus::Listed(listing) => Cow::Borrowed(listing),
        Corpus::Walk { paths, opts, cwd } => Cow::Owned(Listing::walk(paths, opts, cwd)),
    }
}

/// Runs `search` on the listed haystacks `pick` selects, in parallel, keeping
/// the ones it returns a result for, sorted by key.
pub fn each_listed<T, P, S>(listing: &Listing, pick: P, search: S) -> Vec<(Haystack, T)>
where
    T: Send,
    P: Fn(usize) -> bool + Sync,
    S: Fn(&Haystack) -> Option<T> + Sync,
{
    use rayon::prelude::*;
    let mut found: Vec<(Haystack, T)> = (0..listing.len())
        .into_par_iter()
        .filter(|&i| pick(i))
        .filter_map(|i| {
            let h = listing.get(i)?;
            search(&h).map(|t| (h, t))
        })
        .collect();
    found.sort_by(|a, b| a.0.key.cmp(&b.0.key));
    found
}

/// Runs `search` on every haystack of the corpus, in parallel, keeping the
/// haystacks it returns a result for, sorted by key.
pub fn each_file<T, S>(corpus: Corpus<'_>, search: S) -> (Vec<(Haystack, T)>, usize)
where
    T: Send,
    S: Fn(&Haystack) -> Option<T> + Sync,
{
    each_file_until(corpus, search, &AtomicBool::new(false))
}

/// [`each_file`], whose walk stops (its threads quit) once `stop` is set;
/// the files already handed out are still searched. A list is searched whole.
pub fn each_file_until<T, S>(
    corpus: Corpus<'_>,
    search: S,
    stop: &AtomicBool,
) -> (Vec<(Haystack, T)>, usize)
where
    T: Send,
    S: Fn(&Haystack) -> Option<T> + Sync,
{
    let parts: Mutex<Vec<Vec<(Haystack, T)>>> = Mutex::new(Vec::new());
    let scanned = match corpus {
        Corpus::List(list) => {
            use rayon::prelude::*;
            let found: Vec<(Haystack, T)> = list
                .par_iter()
                .filter_map(|h| search(h).map(|t| (h.clone(), t)))
                .collect();
            parts
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(found);
            list.len()
        }
        Corpus::Listed(listing) => {
            let found = each_listed(listing, |_| true, |h| search(h));
            parts
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(found);
            listing.len()
        }
        Corpus::Walk { paths, opts, cwd } => walk::walk_with(paths, opts, cwd, || Keep {
            search: &search,
            local: Vec::new(),
            parts: &parts,
            stop,
        }),
    };
    let parts = parts.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut all: Vec<(Haystack, T)> = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        all.extend(part);
    }
    all.sort_by(|a, b| a.0.key.cmp(&b.0.key));
    (all, scanned)
}

/// A walker thread's visitor: searches each file, keeps the ones with hits.
struct Keep<'s, T, S> {
    search: &'s S,
    local: Vec<(Haystack, T)>,
    parts: &'s Mutex<Vec<Vec<(Haystack, T)>>>,
    stop: &'s AtomicBool,
}

impl<T: Send, S: Fn(&Haystack) -> Option<T> + Sync> Visitor for Keep<'_, T, S> {
    fn visit(&mut self, haystack: Haystack) {
        if let Some(t) = (self.search)(&haystack) {
            self.local.push((haystack, t));
        }
    }

    fn done(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<T, S> Drop for Keep<'_, T, S> {
    fn drop(&mut self) {
        let local = std::mem::take(&mut self.local);
        self.parts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(local);
    }
}

/// Second pass over one loaded document: every line with a term occurrence,
/// its matches relative to the line's start. The matcher runs once over the
/// whole text and the matches are sorted into lines: asking grep-searcher for
/// matching lines ran the identifier automaton from each matching line to the
/// next identifier, or to the end of the file when there was none, which
/// made a long file with many matching lines quadratic.
pub fn term_lines(doc: &Document, matcher: &TermMatcher) -> Vec<TermLine> {
    let text = &doc.text;
    let mut lines: Vec<TermLine> = Vec::new();
    // The line holding `pos`: its number and where it starts.
    let (mut line, mut start, mut pos) = (1usize, 0usize, 0usize);
    for m in matcher.find_all(text) {
        if m.start < pos {
            // Matches come sorted by start; never move back (a match never
            // holds a line break, so this does not happen).
            continue;
        }
        for nl in memchr::memchr_iter(b'\n', &text[pos..m.start]) {
            line += 1;
            start = pos + nl + 1;
        }
        pos = m.start;
        let relative = sink::TermMatch {
            term: m.term,
            start: m.start - start,
            end: m.end - start,
        };
        match lines.last_mut() {
            Some(last) if last.line == line => last.matches.push(relative),
            _ => lines.push(TermLine {
                line,
                matches: vec![relative],
            }),
        }
    }
    lines
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod term_lines_tests {
    use super::*;
    use crate::query::analyze;

    /// The lines as `find_all` sees each of them alone.
    fn line_by_line(text: &[u8], matcher: &TermMatcher) -> Vec<TermLine> {
        text.split_inclusive(|&b| b == b'\n')
            .enumerate()
            .filter_map(|(i, piece)| {
                let matches = matcher.find_all(piece);
                (!matches.is_empty()).then_some(TermLine {
                    line: i + 1,
                    matches,
                })
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Matching the whole text finds, line by line, what matching each
        /// line alone finds.
        #[test]
        fn the_whole_text_matches_as_its_lines_do(
            pieces in proptest::collection::vec(0..12usize, 0..80),
        ) {
            const PIECES: &[&str] = &[
                "retry", "maxRetry", "max_retry", "MAX_RETRY", "timeout", " ", "\n", "_",
                "(", "sz", "\u{e9}", "x",
            ];
            let text: String = pieces.iter().map(|&p| PIECES[p]).collect();
            let matcher = TermMatcher::new(&analyze("retry timeout max_retry sz").terms).unwrap();
            let doc = Document {
                key: "t".into(),
                text: text.clone().into_bytes(),
                pages: None,
                cut: None,
                offsets: Default::default(),
                terminator: b'\n',
                binary: None,
            };
            proptest::prop_assert_eq!(term_lines(&doc, &matcher), line_by_line(text.as_bytes(), &matcher));
        }
    }
}
