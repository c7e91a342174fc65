//! Turning a haystack into the text lines rlmgrep sees.
//!
//! This module owns reading a haystack's bytes and normalising them exactly as
//! rlmgrep's Python does, so line numbers agree with the contract:
//! - a file with a NUL byte is binary (skipped) unless `-a`/`--text`;
//! - files: CRLF and lone CR become `\n`, and invalid UTF-8 becomes one U+FFFD per
//!   maximal invalid subpart (`String::from_utf8_lossy` is exactly Python's
//!   `errors="replace"`); with `-a` a binary file is decoded the same way, NULs kept;
//! - stdin is not normalised at all: `\r` and invalid bytes come back out raw
//!   (Python reads it with `surrogateescape`), and it is never binary, since
//!   rlmgrep reads it as text without a NUL check;
//! - lines are `text.split('\n')`: `"a\n"` has two lines, `""` has one.
//!
//!
//! Documents are converted to text first ([`convert`], issue 8), following
//! rlmgrep's rules for which files that applies to:
//! - every `.pdf` goes through the PDF reader, with or without `-a` (rlmgrep
//!   reads PDFs with pypdf before it looks at bytes), and its lines carry pages;
//! - Office, OpenDocument and EPUB files are converted when they are binary
//!   (hold a NUL, as every zip does) and `-a` is not given; with `-a` their raw
//!   bytes are searched, as rlmgrep does (it skips markitdown then);
//! - `.html`/`.htm` files are converted to their visible text, line for line,
//!   unless `-a` is given (a deliberate difference: rlmgrep searches the
//!   markup; README.md's compatibility table says why).
//!
//! [`is_converted`] tells the search, by name and `-a` alone, which files it
//! must read through [`load`] instead of streaming their bytes.
//!
//! A document that cannot be converted is [`Loaded::Unconvertible`]; the
//! caller warns and skips it. Conversions are kept in a
//! [`cache::ConversionCache`] for the run when [`ReadOptions::cache`] is set.
//!
//! It does not decide which haystacks exist (`walk`) or report skipped files
//! (the caller warns about `Unconvertible` and I/O errors).

pub mod cache;
pub mod convert;

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use crate::walk::{Haystack, Source};
use cache::ConversionCache;
use convert::{ConvertError, Converted, Format, Limits};

/// Largest file `load` reads. The whole text is held in memory (the judge and the
/// LLM prompt need random access to lines), so a runaway file — a multi-GB log or
/// dump — must not exhaust memory; 1 GiB is far past any source file. A larger
/// file makes `load` return an `io::ErrorKind::InvalidData` error, which the
/// caller reports as a warning before skipping the file.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// A haystack's normalised text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The haystack's key.
    pub key: String,
    /// Normalised bytes (UTF-8 for files, raw for stdin); lines split on `\n`.
    pub text: Vec<u8>,
    /// The page of every line, for paginated documents (PDF); `None` otherwise.
    pub pages: Option<Vec<u32>>,
}

impl Document {
    /// Number of lines: one more than the number of `\n` bytes.
    pub fn line_count(&self) -> usize {
        memchr::memchr_iter(b'\n', &self.text).count() + 1
    }

    /// The lines, without their `\n`, as `text.split('\n')` gives them.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        lines(&self.text)
    }

    /// The byte offset where each line starts (the first is always 0).
    pub fn line_starts(&self) -> Vec<usize> {
        std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', &self.text).map(|i| i + 1))
            .collect()
    }
}

/// The lines of `text` without their `\n`, as `text.split('\n')` gives them,
/// found with memchr: a byte-at-a-time split was most of labelling a
/// candidate file's lines (`score::classify_lines`).
pub fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    Lines { rest: Some(text) }
}

/// `split('\n')` over bytes, using memchr so long lines are cheap.
struct Lines<'a> {
    rest: Option<&'a [u8]>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest?;
        match memchr::memchr(b'\n', rest) {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// How to read haystacks.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// `-a`/`--text`: load binary files as text (and skip Office/HTML conversion).
    pub text: bool,
    /// Limits for document conversion.
    pub limits: Limits,
    /// Conversions kept for the run; `None` converts on every read.
    pub cache: Option<Arc<ConversionCache>>,
}

impl ReadOptions {
    /// Options for one run: `-a` as given, default limits, a fresh cache.
    pub fn for_run(text: bool) -> ReadOptions {
        ReadOptions {
            text,
            limits: Limits::DEFAULT,
            cache: Some(Arc::new(ConversionCache::default())),
        }
    }
}

/// The result of loading a haystack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    Text(Document),
    /// The haystack holds a NUL byte and `-a` was not given: skip it.
    Binary,
    /// A document that could not be converted: warn and skip it.
    Unconvertible(ConvertError),
}

/// Whether a haystack may need a conversion (PDF, Office, HTML…), so the
/// search reads it through [`load`] instead of streaming its raw bytes. Decided
/// by name and `-a` alone, before any byte is read: a `.docx` that turns out
/// to be plain text is then still loaded as text by [`load`].
pub fn is_converted(h: &Haystack, opts: &ReadOptions) -> bool {
    let Source::Path(path) = &h.source else {
        return false;
    };
    match Format::of_path(path) {
        Some(Format::Pdf) => true,
        Some(_) => !opts.text,
        None => false,
    }
}

/// Reads and normalises one haystack. A file larger than [`MAX_FILE_BYTES`] gives
/// an `InvalidData` error; other errors are the I/O errors of reading it.
pub fn load(h: &Haystack, opts: &ReadOptions) -> io::Result<Loaded> {
    match &h.source {
        Source::Stdin(bytes) => Ok(from_bytes(h.key.clone(), bytes.clone(), true, opts)),
        Source::Path(path) => {
            if let Some(outcome) = opts.cache.as_ref().and_then(|c| c.get(path)) {
                return Ok(from_converted(h.key.clone(), &outcome));
            }
            let bytes = read_capped(path)?;
            match conversion(path, &bytes, opts) {
                Some(format) => Ok(convert_file(h.key.clone(), path, format, bytes, opts)),
                None => Ok(from_bytes(h.key.clone(), bytes, false, opts)),
            }
        }
    }
}

/// The converter a file goes through, if any (the rules are in the module doc).
pub fn conversion(path: &Path, bytes: &[u8], opts: &ReadOptions) -> Option<Format> {
    let format = Format::of_path(path)?;
    let binary = memchr::memchr(0, bytes).is_some();
    let converted = match format {
        Format::Pdf => true,
        Format::Html => !opts.text && !binary,
        _ => !opts.text && binary,
    };
    converted.then_some(format)
}

fn convert_file(
    key: String,
    path: &Path,
    format: Format,
    bytes: Vec<u8>,
    opts: &ReadOptions,
) -> Loaded {
    let result = convert::convert(format, bytes, &opts.limits);
    match &opts.cache {
        Some(cache) => from_converted(key, &cache.insert(path, result)),
        None => from_converted(key, &result),
    }
}

fn from_converted(key: String, outcome: &Result<Converted, ConvertError>) -> Loaded {
    match outcome {
        Ok(converted) => Loaded::Text(Document {
            key,
            text: converted.text.clone().into_bytes(),
            pages: converted.pages.clone(),
        }),
        Err(err) => Loaded::Unconvertible(err.clone()),
    }
}

/// Normalises bytes already in memory (see the module doc for the rules).
pub fn from_bytes(key: String, bytes: Vec<u8>, is_stdin: bool, opts: &ReadOptions) -> Loaded {
    if is_stdin {
        return Loaded::Text(document(key, bytes));
    }
    if !opts.text && memchr::memchr(0, &bytes).is_some() {
        return Loaded::Binary;
    }
    Loaded::Text(document(key, normalize(bytes)))
}

fn document(key: String, text: Vec<u8>) -> Document {
    Document {
        key,
        text,
        pages: None,
    }
}

/// Python's text-mode decoding: lossy UTF-8, then universal newlines. Valid UTF-8
/// without `\r` (nearly every source file) is returned untouched, without a copy.
fn normalize(bytes: Vec<u8>) -> Vec<u8> {
    let has_cr = memchr::memchr(b'\r', &bytes).is_some();
    let text = match String::from_utf8(bytes) {
        Ok(valid) if !has_cr => return valid.into_bytes(),
        Ok(valid) => valid.into_bytes(),
        Err(err) => match String::from_utf8_lossy(err.as_bytes()) {
            Cow::Owned(fixed) => fixed.into_bytes(),
            Cow::Borrowed(_) => err.into_bytes(),
        },
    };
    if has_cr {
        unify_newlines(&text)
    } else {
        text
    }
}

/// CRLF and lone CR become `\n`.
fn unify_newlines(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = memchr::memchr(b'\r', rest) {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\n');
        let skip = if rest.get(i + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        rest = &rest[i + skip..];
    }
    out.extend_from_slice(rest);
    out
}

/// Reads a whole file, refusing files over [`MAX_FILE_BYTES`]. The limit is
/// checked on the metadata and again while reading, for files that grow or that
/// report no size (procfs).
fn read_capped(path: &Path) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    if len > MAX_FILE_BYTES {
        return Err(too_large(len));
    }
    let capacity = usize::try_from(len).unwrap_or(0).saturating_add(1);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

fn too_large(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("file too large: {len} bytes, over the {MAX_FILE_BYTES}-byte limit"),
    )
}

#[cfg(test)]
mod tests;
