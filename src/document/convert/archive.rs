//! Bounded reading of the zip container behind docx, pptx, xlsx, ODF and EPUB.
//!
//! A zip entry's header may claim any size; what counts is what inflates. Each
//! entry is read through a cap ([`Limits::max_zip_entry_bytes`]) and every entry
//! read adds to a per-archive total ([`Limits::max_zip_total_bytes`]), so a zip
//! bomb costs at most the caps, never memory. Archives listing more than
//! [`Limits::max_zip_entries`] entries are refused before any is read.
//!
//! This module does not know what the entries mean; the format modules ask for
//! parts by name.

use std::io::{Cursor, Read};

use zip::result::ZipError;
use zip::ZipArchive;

use super::{ConvertError, Format, Limits};

/// The first bytes of an OLE compound file: what Office writes for a
/// password-protected docx/xlsx/pptx (and for the old binary formats).
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// An open zip-based document.
pub(super) struct Archive<'b> {
    zip: ZipArchive<Cursor<&'b [u8]>>,
    format: Format,
    limits: Limits,
    inflated: u64,
}

impl<'b> Archive<'b> {
    /// Opens the archive, refusing encrypted Office files and crafted directories.
    pub(super) fn open(
        bytes: &'b [u8],
        format: Format,
        limits: &Limits,
    ) -> Result<Archive<'b>, ConvertError> {
        if bytes.starts_with(OLE_MAGIC) {
            return Err(ConvertError::Encrypted(format.name()));
        }
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| zip_error(format, e))?;
        if zip.len() > limits.max_zip_entries {
            return Err(ConvertError::too_large(format!(
                "{} with {} zip entries, over the {}-entry limit",
                format.name(),
                zip.len(),
                limits.max_zip_entries
            )));
        }
        Ok(Archive {
            zip,
            format,
            limits: *limits,
            inflated: 0,
        })
    }

    /// Whether the archive holds an entry called `name`.
    pub(super) fn has(&self, name: &str) -> bool {
        self.zip.index_for_name(name).is_some()
    }

    /// The entry `name` as text (UTF-8, invalid bytes replaced), or `None` when
    /// the archive has no such entry.
    pub(super) fn text(&mut self, name: &str) -> Result<Option<String>, ConvertError> {
        // Valid UTF-8 (nearly every part) becomes the text without a copy.
        Ok(self.bytes(name)?.map(|bytes| {
            String::from_utf8(bytes)
                .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
        }))
    }

    /// The entry `name`, inflated within the limits.
    pub(super) fn bytes(&mut self, name: &str) -> Result<Option<Vec<u8>>, ConvertError> {
        let format = self.format;
        let entry_cap = self.limits.max_zip_entry_bytes.min(
            self.limits
                .max_zip_total_bytes
                .saturating_sub(self.inflated),
        );
        let entry = match self.zip.by_name(name) {
            Ok(entry) => entry,
            Err(ZipError::FileNotFound) => return Ok(None),
            Err(err) => return Err(zip_error(format, err)),
        };
        let mut bytes = Vec::new();
        entry
            .take(entry_cap.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| ConvertError::corrupt(format, format!("{name}: {e}")))?;
        if bytes.len() as u64 > entry_cap {
            return Err(ConvertError::too_large(format!(
                "{}: {name} inflates past the limit (zip bomb?)",
                format.name()
            )));
        }
        self.inflated += bytes.len() as u64;
        Ok(Some(bytes))
    }
}

fn zip_error(format: Format, err: ZipError) -> ConvertError {
    match err {
        ZipError::UnsupportedArchive(ZipError::PASSWORD_REQUIRED) | ZipError::InvalidPassword => {
            ConvertError::Encrypted(format.name())
        }
        other => ConvertError::corrupt(format, other),
    }
}

/// The folder part of a zip path (`word/document.xml` → `word/`).
pub(super) fn folder(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..=i])
}

/// Resolves a relationship or manifest target against the folder of the part
/// that names it: `../media/x` and `/word/x` forms, `%20` escapes decoded.
pub(super) fn resolve(base_folder: &str, target: &str) -> String {
    let target = percent_decode(target);
    let joined = match target.strip_prefix('/') {
        Some(absolute) => absolute.to_string(),
        None => format!("{base_folder}{target}"),
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// `%XX` escapes in a URI path (EPUB hrefs, OOXML targets); a `%` not
/// followed by two hex digits stays, and bytes that are not UTF-8 become U+FFFD.
fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_against_their_folder() {
        assert_eq!(
            resolve("ppt/", "slides/slide1.xml"),
            "ppt/slides/slide1.xml"
        );
        assert_eq!(
            resolve("ppt/slides/", "../notesSlides/n1.xml"),
            "ppt/notesSlides/n1.xml"
        );
        assert_eq!(
            resolve("xl/", "/xl/worksheets/sheet1.xml"),
            "xl/worksheets/sheet1.xml"
        );
        assert_eq!(
            resolve("OEBPS/", "Text/chapter%201.xhtml"),
            "OEBPS/Text/chapter 1.xhtml"
        );
        assert_eq!(resolve("", "../../../etc/passwd"), "etc/passwd");
        assert_eq!(folder("word/document.xml"), "word/");
        assert_eq!(folder("content.opf"), "");
    }

    #[test]
    fn percent_decoding_leaves_stray_percents() {
        assert_eq!(percent_decode("100%25%20sure%"), "100% sure%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%4"), "%4");
        // Escaped UTF-8 decodes to its character; a lone byte that is not
        // UTF-8 becomes U+FFFD.
        assert_eq!(percent_decode("caf%C3%A9%FF"), "café\u{fffd}");
    }
}
