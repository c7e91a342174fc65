//! A loaded haystack's text, split into lines the way rlmgrep splits them.
//!
//! Interface stub: the walk branch owns this file and replaces it on merge.
//! Lines are `text.split(b'\n')`, so `"a\n"` has two lines (`"a"`, `""`) and
//! `""` has one. `text` is already normalised for files (CRLF → LF, invalid
//! UTF-8 replaced) and raw bytes for stdin.

/// One loaded document: its key (the path as rlmgrep prints it, minus the
/// `./` heading prefix), its text and, for PDFs, the page of every line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The path key, e.g. `src/app.py` or `<stdin>`.
    pub key: String,
    /// The normalised text.
    pub text: Vec<u8>,
    /// For PDFs, the 1-based page of each line (index = line - 1).
    pub pages: Option<Vec<u32>>,
}

impl Document {
    /// The number of lines: one more than the number of `\n` bytes.
    pub fn line_count(&self) -> usize {
        memchr::memchr_iter(b'\n', &self.text).count() + 1
    }

    /// The lines, without their `\n`.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        self.text.split(|&b| b == b'\n')
    }

    /// The byte offset where each line starts.
    pub fn line_starts(&self) -> Vec<usize> {
        std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', &self.text).map(|i| i + 1))
            .collect()
    }
}
