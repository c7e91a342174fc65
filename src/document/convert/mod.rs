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
/// zip-bomb guard. A 4,000-page Word document's XML is about 50 MiB; a
/// 367 KB `.docx` holding 120 MiB of it cost 12 s and 1.1 GB (issue 28).
pub const MAX_ZIP_ENTRY_BYTES: u64 = 64 << 20;
/// Most bytes inflated per zip-based document, all entries read together.
pub const MAX_ZIP_TOTAL_BYTES: u64 = 256 << 20;
/// Most text a zip-based document (Office, OpenDocument, EPUB) converts to;
/// the rest is cut, with a warning. The 4,000-page document above is about
/// 12 MB of text; past this, the text is a generator's, not a writer's, and
/// searching it all costs seconds per query.
pub const MAX_ZIP_TEXT_BYTES: usize = 16 << 20;
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
    pub max_zip_text_bytes: usize,
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
        max_zip_text_bytes: MAX_ZIP_TEXT_BYTES,
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
    /// Parts of the document that could not be read (`page 2 could not be
    /// read`), their text missing from `text`: each is reported like an
    /// unreadable file, and the rest is searched.
    pub unread: Vec<String>,
    /// Set when `text` is only the document's start: its text reached this
    /// many bytes ([`Limits::max_zip_text_bytes`]) and the rest was not read.
    pub cut: Option<usize>,
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
#[allow(clippy::unwrap_used)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn formats_by_extension() {
        let cases = [
            ("a.pdf", Some(Format::Pdf)),
            ("A.PDF", Some(Format::Pdf)),
            ("r.docx", Some(Format::Docx)),
            ("s.xlsx", Some(Format::Xlsx)),
            ("d.pptx", Some(Format::Pptx)),
            ("t.odt", Some(Format::Odf)),
            ("t.ods", Some(Format::Odf)),
            ("t.odp", Some(Format::Odf)),
            ("b.epub", Some(Format::Epub)),
            ("i.html", Some(Format::Html)),
            ("i.htm", Some(Format::Html)),
            ("old.doc", None),
            ("main.rs", None),
            ("pdf", None),
        ];
        for (name, want) in cases {
            assert_eq!(Format::of_path(Path::new(name)), want, "{name}");
        }
    }

    #[test]
    fn every_format_converts_through_the_guard() {
        use testdoc::*;
        let docs: Vec<(Format, Vec<u8>, &str)> = vec![
            (Format::Pdf, pdf(&[&["alpha page"]]), "alpha page"),
            (
                Format::Docx,
                docx(&[w_para(None, "beta para")]),
                "beta para",
            ),
            (
                Format::Pptx,
                pptx(&[(1, &["gamma slide"], None)]),
                "gamma slide",
            ),
            (
                Format::Xlsx,
                xlsx(&[("S", &[&["delta cell"]])]),
                "delta cell",
            ),
            (
                Format::Odf,
                odf(
                    "application/vnd.oasis.opendocument.text",
                    "<office:text><text:p>epsilon</text:p></office:text>",
                ),
                "epsilon",
            ),
            (
                Format::Epub,
                epub(&[("c.xhtml", "<p>zeta</p>")], &[0]),
                "zeta",
            ),
            (Format::Html, b"<p>eta</p>".to_vec(), "eta"),
        ];
        for (format, bytes, needle) in docs {
            let got = convert(format, bytes, &Limits::DEFAULT).unwrap();
            assert!(got.text.contains(needle), "{format:?}: {:?}", got.text);
            assert_eq!(got.pages.is_some(), format == Format::Pdf);
        }
    }

    #[test]
    fn documents_over_the_size_limit_are_refused_unread() {
        let limits = Limits {
            max_document_bytes: 10,
            ..Limits::DEFAULT
        };
        let err = convert(Format::Docx, vec![0; 11], &limits).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Word document of 11 bytes, over the 10-byte limit for documents"
        );
    }

    /// Hostile bytes of every kind through every converter: an error or text,
    /// never a panic (the guard would turn one into `Panicked`, which fails here).
    #[test]
    fn garbage_never_crashes_a_converter() {
        let seeds: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"PK\x03\x04".to_vec(),
            b"%PDF-1.7\n".to_vec(),
            b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj trailer << /Root 1 0 R >>"
                .to_vec(),
            testdoc::zip(&[("word/document.xml", b"<w:p><w:t>unclosed")]),
            testdoc::zip(&[("content.xml", b"\xff\xfe<<<>>>&&&")]),
            testdoc::zip(&[("META-INF/container.xml", b"<rootfile full-path='../../x'/>")]),
            (0u8..=255).cycle().take(4096).collect(),
        ];
        let formats = [
            Format::Pdf,
            Format::Docx,
            Format::Pptx,
            Format::Xlsx,
            Format::Odf,
            Format::Epub,
            Format::Html,
        ];
        for seed in &seeds {
            for format in formats {
                let got = convert(format, seed.clone(), &Limits::DEFAULT);
                assert!(
                    !matches!(
                        got,
                        Err(ConvertError::Panicked(_)) | Err(ConvertError::TimedOut(_))
                    ),
                    "{format:?} on {:?}: {got:?}",
                    String::from_utf8_lossy(&seed[..seed.len().min(40)])
                );
            }
        }
    }

    #[test]
    fn errors_are_one_line() {
        let err = ConvertError::corrupt(Format::Pdf, "first\nsecond");
        assert_eq!(err.to_string(), "unreadable PDF: first");
        assert_eq!(
            ConvertError::TimedOut(CONVERT_TIMEOUT).to_string(),
            "gave up after 30 s converting it"
        );
    }

    use crate::testing::{below, rng};

    /// Valid documents with random bytes flipped, cut or duplicated: every
    /// converter gives text or an error, never a panic or a hang. Runs 300
    /// mutations; `KGREP_FUZZ_ITERS=100000 cargo test --release mutated` runs more.
    #[test]
    fn mutated_documents_never_crash_a_converter() {
        use testdoc::*;
        let iterations: usize = std::env::var("KGREP_FUZZ_ITERS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300);
        let two_pages: &[&[&str]] = &[&["first page text"], &["second (page) text"]];
        let seeds: Vec<(Format, Vec<u8>)> = vec![
            (Format::Pdf, pdf(two_pages)),
            (Format::Pdf, encrypted_pdf(&pdf(two_pages), "")),
            (
                Format::Docx,
                docx(&[w_para(None, "para"), w_table(&[&["a", "b"]])]),
            ),
            (Format::Xlsx, xlsx(&[("S", &[&["x", "1"]])])),
            (Format::Pptx, pptx(&[(1, &["slide"], Some("notes"))])),
            (
                Format::Odf,
                odf(
                    "application/vnd.oasis.opendocument.text",
                    "<office:text><text:p>p</text:p></office:text>",
                ),
            ),
            (Format::Epub, epub(&[("a.xhtml", "<p>chapter</p>")], &[0])),
            (
                Format::Html,
                b"<html><body><p>x &amp; y</p><script>z</script></body></html>".to_vec(),
            ),
        ];
        let limits = Limits {
            timeout: std::time::Duration::from_secs(10),
            ..Limits::DEFAULT
        };
        let mut rng = rng(0x5eed_1234_abcd_ef01);
        for i in 0..iterations {
            let (format, seed) = &seeds[i % seeds.len()];
            let mut bytes = seed.clone();
            match below(&mut rng, 4) {
                0 => {
                    for _ in 0..=below(&mut rng, 8) {
                        let at = below(&mut rng, bytes.len());
                        bytes[at] = below(&mut rng, 256) as u8;
                    }
                }
                1 => bytes.truncate(below(&mut rng, bytes.len())),
                2 => {
                    let at = below(&mut rng, bytes.len());
                    let len = below(&mut rng, 64).min(bytes.len() - at);
                    let chunk = bytes[at..at + len].to_vec();
                    bytes.splice(at..at, chunk);
                }
                _ => {
                    let at = below(&mut rng, bytes.len());
                    bytes.drain(at..(at + below(&mut rng, 32)).min(bytes.len()));
                }
            }
            let got = convert(*format, bytes, &limits);
            assert!(
                !matches!(
                    got,
                    Err(ConvertError::Panicked(_)) | Err(ConvertError::TimedOut(_))
                ),
                "iteration {i}, {format:?}: {got:?}"
            );
        }
    }

    #[test]
    fn encrypted_opendocument_and_drm_epub_are_reported() {
        let manifest = br#"<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>"#;
        let odt = testdoc::zip(&[
            ("mimetype", b"application/vnd.oasis.opendocument.text"),
            ("content.xml", b"\x8f\x12 ciphertext"),
            ("META-INF/manifest.xml", manifest),
        ]);
        assert_eq!(
            convert(Format::Odf, odt, &Limits::DEFAULT),
            Err(ConvertError::Encrypted("OpenDocument file"))
        );
        let book = testdoc::epub(&[("c.xhtml", "<p>secret</p>")], &[0]);
        let with_encryption = |uri: &str| {
            let xml = format!(
                r#"<encryption><EncryptedData><CipherData><CipherReference URI="{uri}"/></CipherData></EncryptedData></encryption>"#
            );
            let mut entries = unzip(&book);
            entries.push(("META-INF/encryption.xml".to_string(), xml.into_bytes()));
            let refs: Vec<(&str, &[u8])> = entries
                .iter()
                .map(|(n, b)| (n.as_str(), b.as_slice()))
                .collect();
            testdoc::zip(&refs)
        };
        assert_eq!(
            convert(
                Format::Epub,
                with_encryption("OEBPS/Text/c.xhtml"),
                &Limits::DEFAULT
            ),
            Err(ConvertError::Encrypted("EPUB book"))
        );
        // Obfuscated fonts leave the text readable.
        let got = convert(
            Format::Epub,
            with_encryption("OEBPS/Fonts/f.otf"),
            &Limits::DEFAULT,
        )
        .unwrap();
        assert_eq!(got.text, "secret\n");
    }

    /// The entries of a zip, for tests that add one.
    fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        use std::io::Read;
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        (0..zip.len())
            .map(|i| {
                let mut entry = zip.by_index(i).unwrap();
                let mut data = Vec::new();
                entry.read_to_end(&mut data).unwrap();
                (entry.name().unwrap().to_string(), data)
            })
            .collect()
    }
}
