//! The first pass of every search: each file once, streamed.
//!
//! `scan_terms` counts query terms per file (natural language); `search_exact`
//! finds the matching lines of literal and regex queries. Both keep only files
//! with hits.

use std::cell::RefCell;

use grep_matcher::{LineTerminator, Matcher};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};

use super::count;
use super::matcher::TermMatcher;
use super::sink::{FirstMatchSink, LineSink};
use super::{each_file_until, each_listed, list, load, Corpus, Counters, Found, LoadStats};
use crate::document::{self, ReadOptions};
use crate::messages;
use crate::query::{Origin, Term};
use crate::walk::{Haystack, Source};

/// A tree of at most this many files is counted in full, every file with
/// every term (nothing is common), and its files are kept as read for the
/// run's later stages.
pub(super) const SMALL_TREE_FILES: usize = 1000;
/// Files of a bigger tree counted with every term, spread evenly over it, to
/// decide which terms are too common to count in the rest of the first pass.
/// 300 rather than 1,000 (the sample when it was also the small tree's size):
/// on a cargo registry (7,257 files) the pool question's CPU time went 192 ->
/// 167 ms (`perf stat -r 10`), its wall time stayed (110 -> 113 ms; 106 ->
/// 104 ms median over 60 alternated runs): on two idle cores the walk and the
/// rest of the pass, not the sample, bound it. A term in a tenth of the
/// files is in 30 of the sample on average.
pub const SAMPLE_FILES: usize = 300;
/// Files of the sample kept aside, hits or not, as a sample of the corpus's
/// vocabulary (for typo correction when a query word matches nothing).
pub(super) const VOCABULARY_SAMPLE: usize = 50;

/// A term found in more than this share of the sampled files is common: its
/// idf is below ln(1/0.1) ≈ 2.3 against 7–11 for a rare term in a big tree, so
/// it hardly changes which files are candidates, while matching it everywhere
/// costs most of the pass.
pub const COMMON_TERM_SHARE: f64 = 0.1;

/// A searcher over one stream or slice. `detect_binary`: stop at the first NUL
/// byte (the file is then binary and skipped, as rlmgrep decides).
/// `sniff_bom`: search a text that opens with a byte-order mark as the text
/// it encodes (grep-searcher's default); off for `-E none`
/// ([`sniffs_bom`]), whose files are searched as their bytes, as rg's are.
/// `terminator`: the byte that ends a line (NUL with `--null-data`).
fn searcher(line_numbers: bool, detect_binary: bool, sniff_bom: bool, terminator: u8) -> Searcher {
    let binary = if detect_binary {
        BinaryDetection::quit(0)
    } else {
        BinaryDetection::none()
    };
    SearcherBuilder::new()
        .line_number(line_numbers)
        .binary_detection(binary)
        .bom_sniffing(sniff_bom)
        .line_terminator(LineTerminator::byte(terminator))
        .build()
}

/// Whether a stream search stops at a file's first NUL byte, the file then
/// skipped as binary: not with `-a` (or `--null-data`), nor with
/// `--binary`, which searches it (`document::binary`).
fn skips_binary(read: &ReadOptions) -> bool {
    !read.text && read.binary.is_none()
}

/// Whether searchers decode a text that opens with a byte-order mark
/// ([`ReadOptions::sniffs_bom`]; kgrep's documents are otherwise decoded as
/// `-E` asks before they are searched).
fn sniffs_bom(read: &ReadOptions) -> bool {
    read.sniffs_bom()
}

thread_local! {
    /// This thread's slice searchers (without and with line numbers, each
    /// sniffing byte-order marks or not), kept between texts: building one
    /// zeroes a 64 kB buffer, which across a kernel's 78k files was 5% of a
    /// search. Slices never grow that buffer.
    static SLICE_SEARCHERS: RefCell<[Option<Searcher>; 4]> =
        const { RefCell::new([None, None, None, None]) };
}

/// Runs `f` with this thread's searcher for slices (see `SLICE_SEARCHERS`),
/// whose lines end with `\n`; one for another `terminator` (`--null-data`)
/// is made for the call.
pub(super) fn with_slice_searcher<R>(
    line_numbers: bool,
    sniff_bom: bool,
    terminator: u8,
    f: impl FnOnce(&mut Searcher) -> R,
) -> R {
    if terminator != b'\n' {
        return f(&mut searcher(line_numbers, false, sniff_bom, terminator));
    }
    SLICE_SEARCHERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut searchers) => {
            let slot = usize::from(line_numbers) + 2 * usize::from(sniff_bom);
            f(searchers[slot]
                .get_or_insert_with(|| searcher(line_numbers, false, sniff_bom, terminator)))
        }
        // Re-entered from inside a search: a fresh one.
        Err(_) => f(&mut searcher(line_numbers, false, sniff_bom, terminator)),
    })
}

/// A plain file on disk that can be searched as raw bytes (not with `-E`
/// naming an encoding: every file is then decoded by `load`).
fn streamable<'h>(h: &'h Haystack, read: &ReadOptions) -> Option<&'h std::path::Path> {
    match &h.source {
        Source::Path(path) if !document::is_converted(h, read) && !read.decoding.forced() => {
            Some(path)
        }
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
    /// Terms the sample found common but that were counted everywhere after
    /// all, since too few files held a rarer word of the query (see
    /// [`scan_terms`]).
    pub recounted: Vec<bool>,
    /// Document frequency of each term over the loaded files.
    pub df: Vec<usize>,
    /// Up to `VOCABULARY_SAMPLE` of the files read, with or without hits.
    pub sample: Vec<Haystack>,
}

/// Which terms the sample found too common to count in the rest of the pass.
struct Sampled {
    /// Files of the sample read as text.
    files: usize,
    /// Of those, how many hold each term.
    df: Vec<usize>,
    common: Vec<bool>,
}

impl Sampled {
    /// `counts`: the term counts of each sample file read as text. `partial`:
    /// the sample is not the whole tree (else nothing is common: every file is
    /// counted with every term anyway).
    fn new(counts: &[&[u32]], terms: usize, partial: bool) -> Sampled {
        let files = counts.len();
        let df: Vec<usize> = (0..terms)
            .map(|t| {
                counts
                    .iter()
                    .filter(|c| c.get(t).is_some_and(|&n| n > 0))
                    .count()
            })
            .collect();
        let share = |df: usize| df as f64 / files.max(1) as f64;
        let mut common: Vec<bool> = df.iter().map(|&d| share(d) > COMMON_TERM_SHARE).collect();
        if !partial || common.iter().all(|&c| c) {
            common = vec![false; terms];
        }
        Sampled { files, df, common }
    }
}

/// Spread evenly over `len` haystacks in key order: which are the sample
/// (all of them in a small tree). Chosen by position, never by which files a
/// thread happened to read first, so a search gives the same results every
/// time, and from the whole tree, not its first folders.
fn sample_positions(len: usize) -> Vec<bool> {
    let mut in_sample = vec![len <= SMALL_TREE_FILES; len];
    if len > SMALL_TREE_FILES {
        for i in 0..SAMPLE_FILES {
            in_sample[i * len / SAMPLE_FILES] = true;
        }
    }
    in_sample
}

/// What the caller of [`scan_terms`] does with the counts, which decides what
/// the first pass may leave uncounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Only document frequencies (a common term's may be estimated).
    Frequencies,
    /// The best files by their counts, this many of them: a common term is
    /// left uncounted only while enough files hold a rarer word of the query
    /// itself (see [`scan_terms`]).
    Best(usize),
    /// Every file that holds a term, each with exact counts: nothing is
    /// left uncounted (`--max-lines 0` prints every such file).
    Every,
}

/// First pass: term counts of every file that holds a query term. The tree is
/// listed first; an even sample of it is counted with every term, the rest
/// without the terms the sample found common (see `COMMON_TERM_SHARE`).
///
/// Leaving common terms out is safe only while rarer words of the query pick
/// the candidates: a file holding a rare query word outranks one holding
/// common words alone. So when fewer than `Want::Best`'s files hold a word the
/// user typed that was counted (every typed word common: `render widget`
/// where 15% of the files hold both, `value` in every file), the common terms
/// are counted in the rest of the tree after all, and every file holding
/// them is a candidate with its exact counts. Without this, such a query
/// printed nothing once a tree had more than `SMALL_TREE_FILES` files.
pub fn scan_terms(
    corpus: Corpus<'_>,
    terms: &[Term],
    read: &ReadOptions,
    want: Want,
) -> anyhow::Result<TermScan> {
    let listing = list(corpus);
    // A small tree's files are kept as read for the run's later searches.
    let small = listing.len() <= SMALL_TREE_FILES;
    let partial = !small && want != Want::Every;
    let in_sample = if partial {
        sample_positions(listing.len())
    } else {
        vec![true; listing.len()]
    };
    let counters = Counters::default();
    // An empty tree builds no automaton (start-up in an empty folder).
    let full = match listing.len() {
        0 => None,
        _ => Some(TermMatcher::new(terms)?),
    };
    let first = each_listed(
        &listing,
        |i| in_sample[i],
        |h| count_file(h, full.as_ref()?, read, &counters, small),
    );
    let counted: Vec<&[u32]> = first.iter().map(|(_, (c, _))| c.as_slice()).collect();
    let mut sampled = Sampled::new(&counted, terms.len(), partial);
    let mut recounted = vec![false; terms.len()];
    // When every typed word is common, or even one more sample file holding
    // a rarer one, scaled to the tree, would not make enough, the common
    // terms are counted in this pass rather than in one more after it
    // (`size length` in a kernel, `render widget` in 2,000 files).
    if let Want::Best(wanted) = want {
        let anchors = anchor_terms(terms, &sampled.common);
        let sampled_files = in_sample.iter().filter(|&&s| s).count().max(1);
        let at_most = (anchored(&first, &anchors) + 1) * listing.len() / sampled_files;
        let none = !anchors.iter().any(|&a| a);
        if (none || at_most < wanted) && sampled.common.iter().any(|&c| c) {
            recounted = std::mem::replace(&mut sampled.common, vec![false; terms.len()]);
        }
    }
    let keep: Vec<bool> = sampled.common.iter().map(|c| !c).collect();
    // Nothing common (always so in a small tree): the same automaton.
    let rebuilt;
    let reduced = match &full {
        Some(full) if keep.iter().all(|&k| k) => Some(full),
        Some(_) => {
            rebuilt = TermMatcher::subset(terms, &keep)?;
            Some(&rebuilt)
        }
        None => None,
    };
    let mut second = each_listed(
        &listing,
        |i| !in_sample[i],
        |h| {
            count_file(h, reduced?, read, &counters, small)
                .filter(|(c, _)| c.iter().any(|&n| n > 0))
        },
    );
    if let Want::Best(wanted) = want {
        let anchors = anchor_terms(terms, &sampled.common);
        let counted = anchored(&first, &anchors) + anchored(&second, &anchors);
        if counted < wanted && sampled.common.iter().any(|&c| c) {
            // The rest of the tree once more, with the common terms alone; what
            // it reads was read (and any error reported) by the pass before.
            let common = TermMatcher::subset(terms, &sampled.common)?;
            let quiet = read.quiet();
            let again = Counters::default();
            let more = each_listed(
                &listing,
                |i| !in_sample[i],
                |h| {
                    count_file(h, &common, &quiet, &again, false)
                        .filter(|(c, _)| c.iter().any(|&n| n > 0))
                },
            );
            second = merge_counts(second, more);
            recounted = std::mem::replace(&mut sampled.common, vec![false; terms.len()]);
        }
    }
    let step = (first.len() / VOCABULARY_SAMPLE).max(1);
    let vocabulary = first.iter().step_by(step).take(VOCABULARY_SAMPLE);
    let vocabulary: Vec<Haystack> = vocabulary.map(|(h, _)| h.clone()).collect();
    let mut found: Vec<(Haystack, (Vec<u32>, usize))> = first.into_iter().chain(second).collect();
    found.sort_by(|a, b| a.0.key.cmp(&b.0.key));
    let stats = counters.stats();
    let mut haystacks = Vec::with_capacity(found.len());
    let mut files = Vec::with_capacity(found.len());
    for (h, (mut counts, len)) in found {
        for (c, _) in counts
            .iter_mut()
            .zip(&sampled.common)
            .filter(|(_, &common)| common)
        {
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
    let df = document_frequencies(&files, &sampled, stats.loaded);
    Ok(TermScan {
        haystacks,
        files,
        mean_len: counters.mean_len(),
        stats,
        scanned: listing.scanned,
        common: sampled.common,
        recounted,
        df,
        sample: vocabulary,
    })
}

/// The terms whose hits pick the candidates when common terms are left out:
/// the words the user typed at full weight (not a synonym, not scaffolding
/// such as `fix`), or every typed word when all are scaffolding, less the
/// common ones.
fn anchor_terms(terms: &[Term], common: &[bool]) -> Vec<bool> {
    let typed = |t: &Term| t.origin == Origin::Query;
    let full = terms.iter().any(|t| typed(t) && t.weight >= 1.0);
    terms
        .iter()
        .zip(common)
        .map(|(t, &c)| !c && typed(t) && (t.weight >= 1.0 || !full))
        .collect()
}

/// How many of `files` hold one of the `anchors` terms.
fn anchored<T>(files: &[(Haystack, (Vec<u32>, T))], anchors: &[bool]) -> usize {
    files
        .iter()
        .filter(|(_, (c, _))| c.iter().zip(anchors).any(|(&n, &a)| a && n > 0))
        .count()
}

/// Adds the counts of `more` (other terms, same files or new ones) into
/// `found`; both are sorted by key, and so is the result.
fn merge_counts<T>(
    found: Vec<(Haystack, (Vec<u32>, T))>,
    more: Vec<(Haystack, (Vec<u32>, T))>,
) -> Vec<(Haystack, (Vec<u32>, T))> {
    let mut out = Vec::with_capacity(found.len() + more.len());
    let mut more = more.into_iter().peekable();
    for (h, (mut counts, len)) in found {
        while let Some(m) = more.next_if(|m| m.0.key < h.key) {
            out.push(m);
        }
        if let Some((_, (extra, _))) = more.next_if(|m| m.0.key == h.key) {
            for (c, e) in counts.iter_mut().zip(extra) {
                *c = c.saturating_add(e);
            }
        }
        out.push((h, (counts, len)));
    }
    out.extend(more);
    out
}

/// Exact for counted terms; for common ones, the sample's share scaled up.
fn document_frequencies(files: &[FileTerms], sampled: &Sampled, loaded: usize) -> Vec<usize> {
    (0..sampled.common.len())
        .map(|t| {
            if sampled.common[t] {
                (sampled.df[t] * loaded / sampled.files.max(1)).max(1)
            } else {
                files.iter().filter(|f| f.counts[t] > 0).count()
            }
        })
        .collect()
}

/// Counts terms in one file; `None` when it is binary or unreadable (counted
/// and reported). In a `small` tree (counted whole in one pass), the bytes of
/// a plain file read whole are kept for the run (`document::Reread`), and a
/// file read before in the run is counted from them.
fn count_file(
    h: &Haystack,
    matcher: &TermMatcher,
    read: &ReadOptions,
    counters: &Counters,
    small: bool,
) -> Option<(Vec<u32>, usize)> {
    let Some(path) = streamable(h, read) else {
        let doc = load(h, read, counters)?;
        return Some((count::count_text(matcher, &doc.text), doc.text.len()));
    };
    // A small tree's file read before in the run is counted from memory;
    // one read now is read whole and kept (a big one's are streamed).
    let kept = if small { read.reread.raw(&h.key) } else { None };
    let stops = count::Stops {
        binary: !read.text,
        utf16: read.decoding == document::Decoding::Sniff,
    };
    let counted = match kept {
        Some(bytes) => Ok(count::count_bytes(matcher, &bytes, stops)),
        None => std::fs::File::open(path).and_then(|mut file| {
            document::count_read(&h.key);
            if small {
                if let Some(bytes) = read_small(&mut file)? {
                    let c = count::count_bytes(matcher, &bytes, stops);
                    if !c.binary && !c.utf16 {
                        read.reread.keep_raw(&h.key, bytes);
                    }
                    return Ok(c);
                }
            }
            count::count_reader(&mut file, matcher, stops, count::CHUNK)
        }),
    };
    if matches!(&counted, Ok(c) if c.utf16) {
        // Its raw bytes hold NULs; `load` decodes it, as rg does.
        let doc = load(h, read, counters)?;
        return Some((count::count_text(matcher, &doc.text), doc.text.len()));
    }
    let (result, c) = match counted {
        Ok(c) => (Ok(()), c),
        Err(err) => (Err(err), count::Counted::default()),
    };
    finish_stream(h, result, c.binary, c.bytes, counters, read)?;
    Some((c.counts, c.bytes))
}

/// The whole of a file of at most `SMALL_FILE_BYTES`, or `None` (it is
/// streamed).
fn read_small(file: &mut std::fs::File) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let len = file.metadata()?.len();
    if len > SMALL_FILE_BYTES {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0) + 1);
    file.read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// A small tree's files up to this size are read whole and kept for the run
/// (`document::Reread::keep_raw`); larger ones are streamed.
const SMALL_FILE_BYTES: u64 = 256 * 1024;

/// Records how a streamed file ended: `None` if it was skipped.
fn finish_stream(
    h: &Haystack,
    result: Result<(), std::io::Error>,
    binary: bool,
    bytes: usize,
    counters: &Counters,
    read: &ReadOptions,
) -> Option<()> {
    match result {
        Err(err) => {
            counters.skipped(&h.key);
            messages::error_in(read.voice, &format!("{}: {err}", read.naming.name(h)));
            None
        }
        Ok(()) if binary => {
            counters.binary(&h.key);
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

/// How [`search_exact`] searches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Exact {
    /// Stream plain files to their first match before loading them.
    pub prefilter: bool,
    /// `-q`: stop once a file matched.
    pub first_only: bool,
    /// `-U`: a match may span lines.
    pub multiline: bool,
    /// `--invert-match`: a file's lines that hold no match (without
    /// `prefilter`, so a file with none is read whole).
    pub invert: bool,
    /// Keep every file read, one with no match too (`--passthru`).
    pub keep_all: bool,
}

/// The lines of `text` (1-based) not in `matched` (sorted): `--invert-match`'s.
/// The empty "line" after a final `\n` (a final `terminator`) is no line, as
/// in ripgrep.
fn inverted(matched: &[usize], text: &[u8], terminator: u8) -> Vec<usize> {
    let newlines = memchr::memchr_iter(terminator, text).count();
    let lines = if text.last().is_some_and(|&b| b != terminator) {
        newlines + 1
    } else {
        newlines
    };
    let mut matched = matched.to_vec();
    matched.sort_unstable();
    (1..=lines)
        .filter(|n| matched.binary_search(n).is_err())
        .collect()
}

/// Exact search: every matching line of every file. With `prefilter`, plain
/// files are first streamed until their first match and only files that match
/// are loaded and normalised for their line numbers; safe for patterns whose
/// matches cannot depend on that normalisation (CR removal, U+FFFD for invalid
/// UTF-8): literals without line breaks or U+FFFD. With `first_only`
/// (`-q`), files are no longer read once one has matched, and the walk
/// stops, as ripgrep's does.
pub fn search_exact<M>(
    corpus: Corpus<'_>,
    matcher: &M,
    read: &ReadOptions,
    how: Exact,
) -> Found<ExactFile>
where
    M: Matcher + Sync,
{
    let Exact {
        prefilter,
        first_only,
        multiline,
        invert,
        keep_all,
    } = how;
    let counters = Counters::default();
    // Set by the first match under `-q`: no file is read after it, and the
    // walk quits.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (found, scanned) = each_file_until(
        corpus,
        |h| {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            if prefilter {
                if let Some(path) = streamable(h, read) {
                    let mut first = FirstMatchSink::default();
                    // A fresh searcher: its buffer grows to the longest line of the
                    // file, which a kept one would hold on to.
                    let result = searcher(
                        false,
                        skips_binary(read),
                        sniffs_bom(read),
                        read.terminator(),
                    )
                    .search_path(matcher, path, &mut first);
                    if !first.matched {
                        finish_stream(h, result, first.binary, first.bytes, &counters, read);
                        return None;
                    }
                }
            }
            let doc = load(h, read, &counters)?;
            let mut sink = LineSink::default();
            let result = if multiline {
                // `-U`: a searcher of its own, which hands the matcher the
                // whole text (the kept ones go line by line).
                let mut s = SearcherBuilder::new()
                    .line_number(true)
                    .multi_line(true)
                    .bom_sniffing(sniffs_bom(read))
                    .line_terminator(LineTerminator::byte(doc.terminator))
                    .build();
                s.search_slice(matcher, &doc.text, &mut sink)
            } else {
                with_slice_searcher(true, sniffs_bom(read), doc.terminator, |s| {
                    s.search_slice(matcher, &doc.text, &mut sink)
                })
            };
            if let Err(err) = result {
                messages::error_in(read.voice, &format!("{}: {err}", read.naming.name(h)));
                return None;
            }
            if invert {
                sink.lines = inverted(&sink.lines, &doc.text, doc.terminator);
            }
            if sink.lines.is_empty() && !keep_all {
                return None;
            }
            if first_only {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            Some(sink.lines)
        },
        &stop,
    );
    let (haystacks, hits) = found.into_iter().unzip();
    Found {
        haystacks,
        hits,
        stats: counters.stats(),
        scanned,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::query::analyze;
    use crate::walk::Source;

    #[test]
    fn inverted_lines_are_the_others_and_no_line_follows_a_last_newline() {
        assert_eq!(inverted(&[2], b"a\nb\nc", b'\n'), [1, 3]);
        assert_eq!(inverted(&[2], b"a\nb\nc\n", b'\n'), [1, 3]);
        assert_eq!(inverted(&[1], b"a\n", b'\n'), Vec::<usize>::new());
        assert_eq!(inverted(&[], b"", b'\n'), Vec::<usize>::new());
        assert_eq!(inverted(&[], b"\n", b'\n'), [1]);
        // `--null-data`: a NUL ends a line, a `\n` is inside one.
        assert_eq!(inverted(&[1], b"a\nb\0c\0", 0), [2]);
    }

    #[test]
    fn a_small_tree_is_its_own_sample() {
        assert_eq!(sample_positions(3), vec![true; 3]);
        assert!(sample_positions(SMALL_TREE_FILES).iter().all(|&s| s));
    }

    #[test]
    fn a_big_tree_is_sampled_evenly_from_start_to_end() {
        let len = SMALL_TREE_FILES * 5 / 2;
        let sample = sample_positions(len);
        let taken: Vec<usize> = (0..len).filter(|&i| sample[i]).collect();
        assert_eq!(taken.len(), SAMPLE_FILES);
        assert_eq!(taken[0], 0);
        let gap = len.div_ceil(SAMPLE_FILES);
        assert!(taken[SAMPLE_FILES - 1] >= len - gap);
        assert!(taken.windows(2).all(|w| w[1] - w[0] <= gap));
    }

    #[test]
    fn only_a_partial_sample_makes_terms_common() {
        let (a, b, none) = ([1u32, 0], [1u32, 1], [0u32, 0]);
        let mut counts: Vec<&[u32]> = vec![&a, &b, &a, &a];
        let few = counts.clone();
        counts.resize(10, &none);
        let partial = Sampled::new(&counts, 2, true);
        assert_eq!(partial.df, vec![4, 1]);
        assert_eq!(partial.common, vec![true, false]);
        assert_eq!(Sampled::new(&counts, 2, false).common, vec![false, false]);
        // Every term common: nothing would be counted, so nothing is common.
        assert_eq!(Sampled::new(&few, 2, true).common, vec![false, false]);
    }

    fn file(i: usize, text: &str) -> Haystack {
        Haystack {
            key: format!("f{i:05}.rs"),
            source: Source::Stdin(text.as_bytes().to_vec()),
        }
    }

    #[test]
    fn common_terms_are_estimated_and_rare_ones_counted_exactly() {
        let n = SMALL_TREE_FILES * 2;
        let files: Vec<Haystack> = (0..n)
            .map(|i| match i {
                7 | 1501 => file(i, "let size = retry_count;\n"),
                _ => file(i, "let size = 1;\n"),
            })
            .collect();
        let terms = analyze("retry size").terms;
        let read = ReadOptions::for_run(false);
        let scan = scan_terms(Corpus::List(&files), &terms, &read, Want::Best(1)).unwrap();
        let size = terms.iter().position(|t| t.text == "size").unwrap();
        let retry = terms.iter().position(|t| t.text == "retry").unwrap();
        assert!(scan.common[size] && !scan.common[retry]);
        assert_eq!(scan.df[size], n);
        assert_eq!(scan.df[retry], 2);
        let keys: Vec<&str> = scan.haystacks.iter().map(|h| h.key.as_str()).collect();
        assert_eq!(keys, vec!["f00007.rs", "f01501.rs"]);
        assert!(scan.files.iter().all(|f| f.counts[size] == 0));
        assert_eq!(scan.sample.len(), VOCABULARY_SAMPLE);
        // Spread like the sample: every 6th of its 300 files, every 40th file.
        assert_eq!(scan.sample[1].key, "f00040.rs");
    }

    #[test]
    fn common_words_are_counted_everywhere_when_no_rarer_query_word_picks_files() {
        let n = SMALL_TREE_FILES * 2;
        // `size` in every file, `dump` (a synonym-like extra word) in a few:
        // no typed word is rare, so the common one is counted after all.
        let files: Vec<Haystack> = (0..n)
            .map(|i| match i {
                7 | 1501 => file(i, "let size = dump();\n"),
                _ => file(i, "let size = 1;\n"),
            })
            .collect();
        let mut terms = analyze("size").terms;
        terms.push(Term {
            origin: Origin::Synonym,
            ..analyze("dump").terms[0].clone()
        });
        let read = ReadOptions::for_run(false);
        let scan = scan_terms(Corpus::List(&files), &terms, &read, Want::Best(40)).unwrap();
        assert!(scan.common.iter().all(|&c| !c));
        assert!(scan.recounted[0] && !scan.recounted[1]);
        assert_eq!(scan.df, vec![n, 2]);
        assert_eq!(scan.files.len(), n);
        assert!(scan.files.iter().all(|f| f.counts[0] == 1));
        // Only document frequencies wanted: the estimate stands.
        let estimated = scan_terms(Corpus::List(&files), &terms, &read, Want::Frequencies).unwrap();
        assert!(estimated.common[0]);
        assert_eq!(estimated.files.len(), 2);
        // Every file wanted: nothing is left uncounted, nothing is sampled.
        let every = scan_terms(Corpus::List(&files), &terms, &read, Want::Every).unwrap();
        assert!(every.common.iter().all(|&c| !c));
        assert_eq!(every.files.len(), n);
    }

    #[test]
    fn common_words_are_counted_after_the_pass_when_the_sample_promised_enough() {
        // 20,000 files, `dump` typed but in one file (the sample's first):
        // the sample promises up to 133 files holding it, the pass finds one,
        // so `size` is counted in the rest of the tree after it.
        let n = SMALL_TREE_FILES * 20;
        let files: Vec<Haystack> = (0..n)
            .map(|i| match i {
                0 => file(i, "let size = dump();\n"),
                _ => file(i, "let size = 1;\n"),
            })
            .collect();
        let terms = analyze("size dump").terms;
        let read = ReadOptions::for_run(false);
        let scan = scan_terms(Corpus::List(&files), &terms, &read, Want::Best(40)).unwrap();
        let size = terms.iter().position(|t| t.text == "size").unwrap();
        assert!(scan.recounted[size]);
        assert_eq!(scan.df[size], n);
        assert_eq!(scan.files.len(), n);
    }

    #[test]
    fn merged_counts_add_up_and_stay_in_key_order() {
        let h = |i: usize| file(i, "");
        let found = vec![(h(1), (vec![1, 0], 10)), (h(3), (vec![2, 0], 30))];
        let more = vec![
            (h(0), (vec![0, 5], 0)),
            (h(3), (vec![0, 1], 30)),
            (h(4), (vec![0, 2], 40)),
        ];
        let merged = merge_counts(found, more);
        let keys: Vec<(&str, Vec<u32>)> = merged
            .iter()
            .map(|(h, (c, _))| (h.key.as_str(), c.clone()))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("f00000.rs", vec![0, 5]),
                ("f00001.rs", vec![1, 0]),
                ("f00003.rs", vec![2, 1]),
                ("f00004.rs", vec![0, 2]),
            ]
        );
    }
}
