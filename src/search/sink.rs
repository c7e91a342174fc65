//! `grep_searcher::Sink`s that collect what the searcher finds; they never print.
//!
//! `CountSink` tallies term occurrences per file (the cheap first pass over every
//! file); `TermLineSink` keeps each matching line with its term occurrences (the
//! second pass over the best files); `LineSink` keeps only line numbers (exact
//! literal and regex queries).

use grep_searcher::{Searcher, Sink, SinkError, SinkFinish, SinkMatch};

use super::matcher::{TermMatch, TermMatcher};

/// Errors while sinking are I/O errors from the searcher itself.
pub type SinkIoError = std::io::Error;

/// Counts verified occurrences of each term; notes binary data and the number
/// of bytes searched.
pub struct CountSink<'m> {
    pub matcher: &'m TermMatcher,
    pub counts: Vec<u32>,
    /// A NUL byte was found (the search stopped there).
    pub binary: bool,
    /// Bytes searched.
    pub bytes: usize,
}

impl<'m> CountSink<'m> {
    pub fn new(matcher: &'m TermMatcher) -> CountSink<'m> {
        CountSink {
            matcher,
            counts: vec![0; matcher.term_count()],
            binary: false,
            bytes: 0,
        }
    }
}

impl Sink for CountSink<'_> {
    type Error = SinkIoError;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, SinkIoError> {
        let counts = &mut self.counts;
        self.matcher.for_each(mat.bytes(), 0, |m| {
            if let Some(c) = counts.get_mut(m.term) {
                *c = c.saturating_add(1);
            }
            true
        });
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> Result<bool, SinkIoError> {
        self.binary = true;
        Ok(false)
    }

    fn finish(&mut self, _: &Searcher, finish: &SinkFinish) -> Result<(), SinkIoError> {
        self.bytes = usize::try_from(finish.byte_count()).unwrap_or(usize::MAX);
        Ok(())
    }
}

/// Stops at the first match: does this file match at all?
#[derive(Default)]
pub struct FirstMatchSink {
    pub matched: bool,
    /// A NUL byte was found before any match (the search stopped there).
    pub binary: bool,
    /// Bytes searched (the whole file when nothing matched).
    pub bytes: usize,
}

impl Sink for FirstMatchSink {
    type Error = SinkIoError;

    fn matched(&mut self, _: &Searcher, _: &SinkMatch<'_>) -> Result<bool, SinkIoError> {
        self.matched = true;
        Ok(false)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> Result<bool, SinkIoError> {
        self.binary = true;
        Ok(false)
    }

    fn finish(&mut self, _: &Searcher, finish: &SinkFinish) -> Result<(), SinkIoError> {
        self.bytes = usize::try_from(finish.byte_count()).unwrap_or(usize::MAX);
        Ok(())
    }
}

/// One line that holds at least one term, with where each term occurs in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLine {
    /// 1-based line number.
    pub line: usize,
    /// Term occurrences, byte offsets relative to the line start.
    pub matches: Vec<TermMatch>,
}

/// Collects every line with a term occurrence.
pub struct TermLineSink<'m> {
    pub matcher: &'m TermMatcher,
    pub lines: Vec<TermLine>,
}

impl Sink for TermLineSink<'_> {
    type Error = SinkIoError;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, SinkIoError> {
        let first = line_number(mat)?;
        // A match may span several lines only in multi-line mode, which is off; still,
        // attribute each occurrence to its own line.
        for (offset, piece) in mat.bytes().split_inclusive(|&b| b == b'\n').enumerate() {
            let matches = self.matcher.find_all(piece);
            if !matches.is_empty() {
                self.lines.push(TermLine {
                    line: first + offset,
                    matches,
                });
            }
        }
        Ok(true)
    }
}

/// Collects the line numbers of matching lines.
#[derive(Default)]
pub struct LineSink {
    pub lines: Vec<usize>,
}

impl Sink for LineSink {
    type Error = SinkIoError;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, SinkIoError> {
        let first = line_number(mat)?;
        let count = mat.lines().count().max(1);
        self.lines.extend(first..first + count);
        Ok(true)
    }
}

fn line_number(mat: &SinkMatch<'_>) -> Result<usize, SinkIoError> {
    let n = mat
        .line_number()
        .ok_or_else(|| SinkIoError::error_message("line numbers are not enabled"))?;
    usize::try_from(n).map_err(SinkIoError::error_message)
}
