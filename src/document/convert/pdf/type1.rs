//! The built-in encoding of embedded Type 1 fonts.
//!
//! A Type 1 font written without `/Encoding` (or with `/Differences` but no
//! `/BaseEncoding`) and without `/ToUnicode` means "the encoding inside the font
//! program". TeX's math and symbol fonts are the common case: their codes are
//! not StandardEncoding (code 58 is a period in cmmi10, code 15 a bullet in
//! cmsy10). pypdf reads the program's `/Encoding` array; so does this module:
//! it finds the `dup <code> /<glyph> put` entries in the program's clear-text
//! part and turns them into a `/Differences` array that lopdf decodes.
//!
//! lopdf refuses a whole `/Differences` array if one glyph name is not in its
//! glyph list, so each name is checked first and unknown ones are left out.
//! Results are kept per document: fonts repeat on every page.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Encoding, Object, ObjectId};
use memchr::memmem;

use super::resources::{dict, resolve};

/// Most bytes of a font program read to find its encoding; the clear-text
/// part that holds it comes first and is a few kilobytes.
const MAX_PROGRAM_BYTES: usize = 4 << 20;

/// `(code, glyph name)` entries of a font program's encoding.
type EncodingEntries = Vec<(i64, Vec<u8>)>;

/// Built-in encodings and glyph-name checks already worked out for a document.
#[derive(Default)]
pub(super) struct Type1Cache {
    /// By font program (`/FontFile`) object: the `(code, glyph)` pairs, or
    /// `None` when the program uses StandardEncoding or has none readable.
    programs: HashMap<ObjectId, Option<EncodingEntries>>,
    /// Whether lopdf knows a glyph name.
    glyphs: HashMap<Vec<u8>, bool>,
}

impl Type1Cache {
    /// A copy of `font` with its built-in encoding spelled out as
    /// `/Differences` (the font's own differences applied on top), or `None`
    /// when the font does not use a built-in encoding.
    pub(super) fn decoding_dict(
        &mut self,
        doc: &Document,
        font: &Dictionary,
    ) -> Option<Dictionary> {
        if !uses_builtin_encoding(doc, font) {
            return None;
        }
        let program_id = font
            .get(b"FontDescriptor")
            .ok()
            .and_then(|o| dict(doc, o))
            .and_then(|d| d.get(b"FontFile").ok())
            .and_then(|o| o.as_reference().ok())?;
        let pairs = self
            .programs
            .entry(program_id)
            .or_insert_with(|| read_program_encoding(doc, program_id))
            .clone()?;
        let mut differences = Vec::new();
        for (code, glyph) in pairs {
            if self.is_known_glyph(doc, &glyph) {
                differences.push(Object::Integer(code));
                differences.push(Object::Name(glyph));
            }
        }
        differences.extend(own_differences(doc, font));
        let mut encoding = Dictionary::new();
        encoding.set("Type", Object::Name(b"Encoding".to_vec()));
        encoding.set("Differences", Object::Array(differences));
        let mut copy = font.clone();
        copy.set("Encoding", Object::Dictionary(encoding));
        Some(copy)
    }

    fn is_known_glyph(&mut self, doc: &Document, glyph: &[u8]) -> bool {
        *self.glyphs.entry(glyph.to_vec()).or_insert_with(|| {
            let mut probe = Dictionary::new();
            probe.set("Type", Object::Name(b"Font".to_vec()));
            let mut encoding = Dictionary::new();
            encoding.set(
                "Differences",
                Object::Array(vec![Object::Integer(0), Object::Name(glyph.to_vec())]),
            );
            probe.set("Encoding", Object::Dictionary(encoding));
            matches!(probe.get_font_encoding(doc), Ok(Encoding::Differences(_)))
        })
    }
}

/// A simple Type 1 font with no Unicode map and no base encoding named.
fn uses_builtin_encoding(doc: &Document, font: &Dictionary) -> bool {
    let type1 = font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type1".as_slice());
    if !type1 || font.has(b"ToUnicode") {
        return false;
    }
    match font.get(b"Encoding").ok().and_then(|o| resolve(doc, o)) {
        None => true,
        Some(Object::Dictionary(encoding)) => !encoding.has(b"BaseEncoding"),
        Some(_) => false,
    }
}

/// The font's own `/Differences`, to apply after the built-in ones.
fn own_differences(doc: &Document, font: &Dictionary) -> Vec<Object> {
    font.get(b"Encoding")
        .ok()
        .and_then(|o| dict(doc, o))
        .and_then(|e| e.get(b"Differences").ok())
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_array().ok())
        .cloned()
        .unwrap_or_default()
}

fn read_program_encoding(doc: &Document, program: ObjectId) -> Option<EncodingEntries> {
    let stream = doc.get_object(program).ok()?.as_stream().ok()?;
    let bytes = stream
        .get_plain_content_with_limit(MAX_PROGRAM_BYTES)
        .ok()?;
    parse_encoding(&bytes)
}

/// The `dup <code> /<glyph> put` entries of a Type 1 program's `/Encoding`,
/// or `None` for `/Encoding StandardEncoding def` or no encoding at all.
pub(super) fn parse_encoding(program: &[u8]) -> Option<EncodingEntries> {
    let start = memmem::find(program, b"/Encoding")?;
    let rest = &program[start + b"/Encoding".len()..];
    // The encrypted part follows `eexec`; the encoding is always before it.
    let end = memmem::find(rest, b"eexec").unwrap_or(rest.len());
    let rest = &rest[..end];
    let tokens: Vec<&[u8]> = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .take_while(|t| *t != b"def")
        .collect();
    if tokens.first() == Some(&&b"StandardEncoding"[..]) {
        return None;
    }
    let pairs: EncodingEntries = tokens
        .windows(4)
        .filter(|w| w[0] == b"dup" && w[3] == b"put")
        .filter_map(|w| {
            let code: i64 = std::str::from_utf8(w[1]).ok()?.parse().ok()?;
            let glyph = w[2].strip_prefix(b"/")?;
            ((0..=255).contains(&code) && !glyph.is_empty()).then(|| (code, glyph.to_vec()))
        })
        .collect();
    (!pairs.is_empty()).then_some(pairs)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn encoding_entries_are_read_up_to_def() {
        let program = b"%!PS-AdobeFont-1.0: CMSY10\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n\
            dup 15 /bullet put\ndup 58 /period put\nreadonly def\ncurrentdict end\ncurrentfile eexec\n\xff\xfe dup 1 /x put";
        assert_eq!(
            parse_encoding(program).unwrap(),
            [(15, b"bullet".to_vec()), (58, b"period".to_vec())]
        );
    }

    #[test]
    fn standard_encoding_and_no_encoding_are_none() {
        assert_eq!(
            parse_encoding(b"/Encoding StandardEncoding def eexec"),
            None
        );
        assert_eq!(parse_encoding(b"/FontName /X def eexec"), None);
    }
}
