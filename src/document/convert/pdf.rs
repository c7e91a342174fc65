//! PDF → text, page by page, laid out exactly as rlmgrep lays it out.
//!
//! rlmgrep (`ingest._read_pdf`) extracts each page with pypdf and builds:
//!
//! ```text
//! ===== Page 1 =====       one marker line per page, page 1 first
//! <the page's text>        split on "\n" (CRLF/CR normalised); an empty page gives one empty line
//! ===== Page 2 =====
//! …
//! ```
//!
//! joined with `\n`, every line tagged with its page (the `<TAB>page=N` suffix).
//! A page whose extraction fails is an empty page, not a failed document.
//! The text of one page comes from [`layout`], a port of pypdf's plain
//! extraction on top of lopdf's parser, so lines and line numbers agree with
//! rlmgrep on ordinary PDFs (the contract's `plain_pdf` goldens byte for byte).
//!
//! This module owns loading the PDF (lopdf, with its decompression bound),
//! refusing encrypted and oversized ones, and the page layout; it does not
//! know about files or warnings.

mod font;
mod layout;
mod resources;
mod type1;

use lopdf::{DecompressError, Document, LoadOptions};

use super::{ConvertError, Converted, Format, Limits};

/// The marker line that starts each page, as rlmgrep writes it.
pub fn page_marker(page: u32) -> String {
    format!("===== Page {page} =====")
}

/// Converts a PDF held in memory.
pub fn convert(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let doc = load(bytes, limits)?;
    let pages = doc.get_pages();
    if pages.len() > limits.max_pdf_pages {
        return Err(ConvertError::too_large(format!(
            "PDF of {} pages, over the {}-page limit",
            pages.len(),
            limits.max_pdf_pages
        )));
    }
    let mut budget = layout::Budget::new(limits);
    let mut out = PageLines::default();
    let mut any_text = false;
    for (page, id) in (1u32..).zip(pages.values()) {
        let text = match layout::page_text(&doc, *id, &mut budget) {
            Ok(text) => text,
            Err(layout::PageError::Limit(err)) => return Err(err),
            // pypdf raising on one page gives rlmgrep an empty page, not a skipped file.
            Err(layout::PageError::Unreadable) => String::new(),
        };
        any_text |= !text.trim().is_empty();
        out.push_page(page, &text, limits)?;
    }
    // lopdf rebuilds a damaged file's cross-references; when that still leaves
    // no text at all (a file cut short keeps its page tree but loses the
    // content streams), the file is reported, not searched as blank pages.
    if doc.xref_recovery.is_some() && !any_text {
        return Err(ConvertError::corrupt(
            Format::Pdf,
            "damaged or truncated, no text recoverable",
        ));
    }
    Ok(out.finish())
}

/// Loads the document, bounding every stream it inflates while loading.
fn load(bytes: &[u8], limits: &Limits) -> Result<Document, ConvertError> {
    let options = LoadOptions {
        max_decompressed_size: Some(limits.max_pdf_stream_bytes),
        ..LoadOptions::default()
    };
    let doc = Document::load_mem_with_options(bytes, options).map_err(load_error)?;
    // lopdf opens PDFs whose user password is empty (owner-password "protection")
    // on its own; anything else stays encrypted and has no readable text.
    if doc.is_encrypted() && !doc.was_encrypted() {
        return Err(ConvertError::Encrypted(Format::Pdf.name()));
    }
    Ok(doc)
}

fn load_error(err: lopdf::Error) -> ConvertError {
    match err {
        lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit }) => {
            ConvertError::too_large(format!("a PDF stream inflates past the {limit}-byte limit"))
        }
        lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => {
            ConvertError::Encrypted(Format::Pdf.name())
        }
        other => ConvertError::corrupt(Format::Pdf, other),
    }
}

/// rlmgrep's line list and page map, built page by page.
#[derive(Default)]
struct PageLines {
    text: String,
    pages: Vec<u32>,
}

impl PageLines {
    fn push_line(&mut self, line: &str, page: u32) {
        if !self.pages.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(line);
        self.pages.push(page);
    }

    fn push_page(&mut self, page: u32, text: &str, limits: &Limits) -> Result<(), ConvertError> {
        self.push_line(&page_marker(page), page);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        if text.is_empty() {
            self.push_line("", page);
        } else {
            for line in text.split('\n') {
                self.push_line(line, page);
            }
        }
        if self.text.len() > limits.max_text_bytes {
            return Err(ConvertError::too_large(format!(
                "PDF text over the {}-byte limit",
                limits.max_text_bytes
            )));
        }
        Ok(())
    }

    /// A PDF without pages is one empty line with no page, as in rlmgrep (whose
    /// page map then no longer matches the line count and is dropped).
    fn finish(self) -> Converted {
        let pages = (!self.pages.is_empty()).then_some(self.pages);
        Converted {
            text: self.text,
            pages,
        }
    }
}

#[cfg(test)]
mod tests;
