//! `grep_searcher::Sink`s that collect what the searcher finds; they never print.
//!
//! `FirstMatchSink` says whether a file matches at all and `LineSink` keeps
//! only line numbers (exact literal and regex queries). Also `TermLine`, what
//! the second pass keeps of a matching line (`term_lines`, which needs no
//! searcher). The first pass counts without a sink (`count`).

use grep_searcher::{Searcher, Sink, SinkError, SinkFinish, SinkMatch};

pub use super::matcher::TermMatch;

/// Errors while sinking are I/O errors from the searcher itself.
pub type SinkIoError = std::io::Error;

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
