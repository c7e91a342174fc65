//! Converting documents (PDF, Office, OpenDocument, EPUB, HTML) to searchable text.
//!
//! This module owns deciding which files are converted ([`Format::of_path`]), the
//! limits every converter works under ([`Limits`]), the errors a conversion can
//! end in ([`ConvertError`]), and the guard around each conversion ([`convert`]):
//! it runs on its own thread, with a time limit, and a panic inside a parser
//! crate becomes an error instead of a crash. The formats themselves live in the
//! submodules, one per format family; they are plain functions from bytes to
//! [`Converted`] and know nothing about files, threads or warnings.
//!
//! It does not read files, decide the NUL rule or `-a` (see `document`), or
//! report a failed conversion (the caller warns and skips the file).
//!
//! Issue 8. PDFs follow rlmgrep's layout exactly (see [`pdf`]); the other
//! formats are converted in-process where rlmgrep shells out to markitdown, so
//! their text layout is kgrep's own and documented in README.md.

mod archive;
mod epub;
mod guard;
mod html;
mod odf;
mod ooxml;
mod pdf;
#[cfg(test)]
pub(crate) mod testdoc;
mod text;
mod xml;

use std::path::Path;
use std::time::Duration;

/// Largest document file kgrep converts. Parsers hold the whole file and more
/// (lopdf keeps every object in memory), and two conversions run at once on a
/// two-core machine; 256 MiB is far past a text document, and a scanned PDF that
/// size holds images, not text.
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;
/// Most pages of a PDF kgrep reads: extraction costs about a millisecond per
/// page, so a larger PDF would dominate a search; it is skipped with a warning.
pub const MAX_PDF_PAGES: usize = 5_000;
/// Most bytes one PDF stream (a page's content, a font map, an object stream)
/// may inflate to: a small compressed stream must not become gigabytes.
pub const MAX_PDF_STREAM_BYTES: usize = 64 << 20;
/// Most decompressed content bytes interpreted per PDF, pages and forms
/// together: a form drawn a million times must not be parsed a million times.
pub const MAX_PDF_CONTENT_BYTES: usize = 512 << 20;
/// Most nested form XObjects followed when extracting PDF text.
pub const MAX_PDF_FORM_DEPTH: usize = 8;
/// Most entries a zip-based document (docx, xlsx, odt, epub…) may list. Real
/// documents have tens to a few thousand; more is a crafted archive.
pub const MAX_ZIP_ENTRIES: usize = 20_000;
/// Most bytes one zip entry may inflate to, whatever its header claims: the
/// zip-bomb guard. A 4,000-page Word document's XML is about 50 MiB.
pub const MAX_ZIP_ENTRY_BYTES: u64 = 128 << 20;
/// Most bytes inflated per zip-based document, all entries read together.
pub const MAX_ZIP_TOTAL_BYTES: u64 = 512 << 20;
/// Most bytes of text one document may convert to; the whole text is held in
/// memory like a text file's, so this matches the scale of `MAX_FILE_BYTES`.
pub const MAX_TEXT_BYTES: usize = 256 << 20;
/// Longest one conversion may run before it is abandoned. The limits above
/// bound the work; this is the last line of defence against a parser that
/// loops on hostile input, so a search never hangs on one file.
pub const CONVERT_TIMEOUT: Duration = Duration::from_secs(30);

/// The document formats kgrep converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pdf,
    Docx,
    Pptx,
    Xlsx,
    /// OpenDocument text, spreadsheet or presentation (one reader for all).
    Odf,
    Epub,
    Html,
}

impl Format {
    /// The format a file name says it is in, by extension (case-insensitive).
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "pdf" => Format::Pdf,
            "docx" | "docm" => Format::Docx,
            "pptx" | "pptm" => Format::Pptx,
            "xlsx" | "xlsm" => Format::Xlsx,
            "odt" | "ods" | "odp" => Format::Odf,
            "epub" => Format::Epub,
            "html" | "htm" | "xhtml" => Format::Html,
            _ => return None,
        })
    }

    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pdf => "PDF",
            Format::Docx => "Word document",
            Format::Pptx => "PowerPoint presentation",
            Format::Xlsx => "Excel workbook",
            Format::Odf => "OpenDocument file",
            Format::Epub => "EPUB book",
            Format::Html => "HTML page",
        }
    }
}

/// The limits a conversion works under; [`Limits::DEFAULT`] is the named
/// constants above. Tests shrink them to exercise the guards cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_document_bytes: u64,
    pub max_pdf_pages: usize,
    pub max_pdf_stream_bytes: usize,
    pub max_pdf_content_bytes: usize,
    pub max_zip_entries: usize,
    pub max_zip_entry_bytes: u64,
    pub max_zip_total_bytes: u64,
    pub max_text_bytes: usize,
    pub timeout: Duration,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_document_bytes: MAX_DOCUMENT_BYTES,
        max_pdf_pages: MAX_PDF_PAGES,
        max_pdf_stream_bytes: MAX_PDF_STREAM_BYTES,
        max_pdf_content_bytes: MAX_PDF_CONTENT_BYTES,
        max_zip_entries: MAX_ZIP_ENTRIES,
        max_zip_entry_bytes: MAX_ZIP_ENTRY_BYTES,
        max_zip_total_bytes: MAX_ZIP_TOTAL_BYTES,
        max_text_bytes: MAX_TEXT_BYTES,
        timeout: CONVERT_TIMEOUT,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// A converted document: its text (lines split on `\n`) and, for PDFs, the
/// page of every line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    pub text: String,
    /// One entry per line of `text`; `None` for formats without pages.
    pub pages: Option<Vec<u32>>,
}

/// Why a document could not be converted. Each is reported as one warning
/// line, `skip <file>: <error>`, and the file is skipped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    #[error("encrypted {0} (needs a password)")]
    Encrypted(&'static str),
    #[error("unreadable {format}: {detail}")]
    Corrupt {
        format: &'static str,
        detail: String,
    },
    #[error("{0}")]
    TooLarge(String),
    #[error("gave up after {} s converting it", .0.as_secs())]
    TimedOut(Duration),
    #[error("the {0} reader crashed on it")]
    Panicked(&'static str),
    #[error("cannot start a converter thread: {0}")]
    NoThread(String),
}

impl ConvertError {
    pub(crate) fn corrupt(format: Format, detail: impl std::fmt::Display) -> ConvertError {
        ConvertError::Corrupt {
            format: format.name(),
            detail: first_line(&detail.to_string()),
        }
    }

    pub(crate) fn too_large(what: impl std::fmt::Display) -> ConvertError {
        ConvertError::TooLarge(first_line(&what.to_string()))
    }
}

/// Messages are one line: a parser's multi-line error keeps its first line.
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").trim().to_string()
}

/// Converts `bytes` in `format`, guarded: panics caught, and for the formats
/// read by parser crates, on a converter thread within `limits.timeout`.
pub fn convert(format: Format, bytes: Vec<u8>, limits: &Limits) -> Result<Converted, ConvertError> {
    if bytes.len() as u64 > limits.max_document_bytes {
        return Err(ConvertError::too_large(format!(
            "{} of {} bytes, over the {}-byte limit for documents",
            format.name(),
            bytes.len(),
            limits.max_document_bytes
        )));
    }
    if format == Format::Html {
        // kgrep's own linear scan: no parser crate to isolate, nothing that loops.
        return guard::run_here(format.name(), || convert_unguarded(format, &bytes, limits));
    }
    let limits = *limits;
    guard::run(format.name(), limits.timeout, move || {
        convert_unguarded(format, &bytes, &limits)
    })
}

/// The conversion itself, on the caller's thread; [`convert`] is the safe entry.
pub fn convert_unguarded(
    format: Format,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Converted, ConvertError> {
    match format {
        Format::Pdf => pdf::convert(bytes, limits),
        Format::Docx => ooxml::docx(bytes, limits),
        Format::Pptx => ooxml::pptx(bytes, limits),
        Format::Xlsx => ooxml::xlsx(bytes, limits),
        Format::Odf => odf::convert(bytes, limits),
        Format::Epub => epub::convert(bytes, limits),
        Format::Html => html::convert(bytes, limits),
    }
}

#[cfg(test)]
mod tests;
