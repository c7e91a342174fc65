//! What text extraction needs from a PDF font: how to turn string bytes into
//! characters, and how wide each code is (to tell word gaps from letter gaps).
//!
//! Decoding is lopdf's (`/Encoding`, `/Differences`, `/ToUnicode` CMaps), except
//! that a simple font with a `/ToUnicode` map is decoded through the map, as
//! pypdf does: subset fonts often carry meaningless glyph names and only the
//! map is right. Widths come from `/Widths` (simple fonts) or `/W` (CID fonts);
//! the standard 14 fonts written without widths get typical values.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Encoding, Object};

use super::resources::{dict, number, resolve};

/// Codes read from one `/W` range: a wider range is hostile, not a font.
const MAX_W_RANGE: i64 = 65_536;
/// Width, in thousandths of an em, assumed for a code with no known width.
const DEFAULT_WIDTH: f64 = 500.0;
/// pypdf's word-gap fallback when a font gives its space no width.
const FALLBACK_SPACE_WIDTH: f64 = 200.0;

/// A font as the extractor uses it.
pub(super) struct Font<'d> {
    encoding: Option<Encoding<'d>>,
    /// Type0 (CID) fonts use two-byte codes; simple fonts one.
    two_byte: bool,
    widths: HashMap<u32, f64>,
    default_width: f64,
    /// Width of the space glyph, thousandths of an em.
    pub space_width: f64,
}

impl<'d> Font<'d> {
    /// The font before any `Tf`, or for an unknown font name: WinAnsi, as pypdf.
    pub(super) fn fallback() -> Font<'static> {
        Font {
            encoding: Some(Encoding::SimpleEncoding(b"WinAnsiEncoding")),
            two_byte: false,
            widths: HashMap::new(),
            default_width: DEFAULT_WIDTH,
            space_width: 250.0,
        }
    }

    /// Reads a font dictionary. `unicode_source` is the dictionary to take the
    /// encoding from (see [`decoding_dict`]).
    pub(super) fn new(
        doc: &'d Document,
        font: &'d Dictionary,
        unicode_source: &'d Dictionary,
    ) -> Font<'d> {
        let two_byte =
            font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type0".as_slice());
        let encoding = unicode_source.get_font_encoding(doc).ok();
        let (widths, default_width) = if two_byte {
            cid_widths(doc, font)
        } else {
            simple_widths(doc, font)
        };
        let space_width = widths
            .get(&32)
            .copied()
            .filter(|w| *w > 0.0)
            .unwrap_or_else(|| standard_space_width(font, two_byte));
        Font {
            encoding,
            two_byte,
            widths,
            default_width,
            space_width,
        }
    }

    /// The characters of a string operand, and the summed width of its codes
    /// (thousandths of an em) with the number of codes.
    pub(super) fn decode(&self, bytes: &[u8]) -> (String, f64, usize) {
        let text = match &self.encoding {
            Some(encoding) => encoding
                .bytes_to_string(bytes)
                .unwrap_or_else(|_| self.latin1(bytes)),
            None => self.latin1(bytes),
        };
        let (mut width, mut codes) = (0.0, 0);
        for code in self.codes(bytes) {
            width += self
                .widths
                .get(&code)
                .copied()
                .unwrap_or(self.default_width);
            codes += 1;
        }
        (text, width, codes)
    }

    fn codes<'b>(&self, bytes: &'b [u8]) -> Box<dyn Iterator<Item = u32> + 'b> {
        if self.two_byte {
            Box::new(
                bytes
                    .chunks(2)
                    .map(|c| c.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b))),
            )
        } else {
            Box::new(bytes.iter().map(|&b| u32::from(b)))
        }
    }

    /// Last resort for bytes no encoding maps: Latin-1 for simple fonts; a
    /// CID font without a map has no recoverable text.
    fn latin1(&self, bytes: &[u8]) -> String {
        if self.two_byte {
            String::new()
        } else {
            bytes.iter().map(|&b| char::from(b)).collect()
        }
    }
}

/// The dictionary to read the encoding from. lopdf prefers `/Encoding` over
/// `/ToUnicode`; for a simple font with both, a copy without `/Encoding`
/// makes it use the map. `None` means "the font itself".
pub(super) fn decoding_dict(font: &Dictionary) -> Option<Dictionary> {
    let simple = font.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Type0".as_slice());
    if simple && font.has(b"ToUnicode") && font.has(b"Encoding") {
        let mut copy = font.clone();
        copy.remove(b"Encoding");
        Some(copy)
    } else {
        None
    }
}

/// `/FirstChar` + `/Widths`, and `/MissingWidth` from the descriptor.
fn simple_widths(doc: &Document, font: &Dictionary) -> (HashMap<u32, f64>, f64) {
    let mut widths = HashMap::new();
    let first = font.get(b"FirstChar").ok().and_then(number).unwrap_or(0.0);
    let array = font
        .get(b"Widths")
        .ok()
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_array().ok());
    if let Some(array) = array {
        for (i, w) in array.iter().take(256).enumerate() {
            if let Some(w) = resolve(doc, w).and_then(number) {
                widths.insert(first as u32 + i as u32, w);
            }
        }
    }
    let missing = font
        .get(b"FontDescriptor")
        .ok()
        .and_then(|o| dict(doc, o))
        .and_then(|d| d.get(b"MissingWidth").ok())
        .and_then(number)
        .filter(|w| *w > 0.0);
    let default = missing.unwrap_or_else(|| standard_glyph_width(font));
    (widths, default)
}

/// `/W` and `/DW` of a Type0 font's descendant.
fn cid_widths(doc: &Document, font: &Dictionary) -> (HashMap<u32, f64>, f64) {
    let mut widths = HashMap::new();
    let descendant = font
        .get(b"DescendantFonts")
        .ok()
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_array().ok())
        .and_then(|a| a.first())
        .and_then(|o| dict(doc, o));
    let Some(descendant) = descendant else {
        return (widths, 1000.0);
    };
    let default = descendant
        .get(b"DW")
        .ok()
        .and_then(number)
        .unwrap_or(1000.0);
    let w = descendant
        .get(b"W")
        .ok()
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_array().ok());
    if let Some(w) = w {
        read_w_array(doc, w, &mut widths);
    }
    (widths, default)
}

/// `/W` is a list of `c [w1 w2 …]` and `c_first c_last w` entries.
fn read_w_array(doc: &Document, w: &[Object], widths: &mut HashMap<u32, f64>) {
    let mut i = 0;
    while i < w.len() {
        let Some(first) = number(&w[i]).map(|f| f as i64) else {
            return;
        };
        match w.get(i + 1).and_then(|o| resolve(doc, o)) {
            Some(Object::Array(list)) => {
                for (k, v) in list.iter().take(MAX_W_RANGE as usize).enumerate() {
                    if let (Some(v), Ok(code)) = (number(v), u32::try_from(first + k as i64)) {
                        widths.insert(code, v);
                    }
                }
                i += 2;
            }
            Some(last) => {
                let (Some(last), Some(v)) = (number(last), w.get(i + 2).and_then(number)) else {
                    return;
                };
                let last = (last as i64).min(first + MAX_W_RANGE);
                for code in first..=last {
                    if let Ok(code) = u32::try_from(code) {
                        widths.insert(code, v);
                    }
                }
                i += 3;
            }
            None => return,
        }
    }
}

fn base_font(font: &Dictionary) -> String {
    font.get(b"BaseFont")
        .and_then(Object::as_name)
        .map(|n| String::from_utf8_lossy(n).to_ascii_lowercase())
        .unwrap_or_default()
}

/// Typical glyph width of a standard font written without `/Widths`.
fn standard_glyph_width(font: &Dictionary) -> f64 {
    if base_font(font).contains("courier") {
        600.0
    } else {
        DEFAULT_WIDTH
    }
}

/// The space width of the standard 14 fonts (their AFM metrics), else pypdf's fallback.
fn standard_space_width(font: &Dictionary, two_byte: bool) -> f64 {
    if two_byte {
        return FALLBACK_SPACE_WIDTH;
    }
    let name = base_font(font);
    if name.contains("courier") {
        600.0
    } else if name.contains("times") {
        250.0
    } else if name.contains("helvetica") || name.contains("arial") {
        278.0
    } else {
        FALLBACK_SPACE_WIDTH
    }
}
