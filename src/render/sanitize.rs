//! Terminal-safe text: no byte from a file reaches a terminal as a control code.
//!
//! File lines (and stdin content, which may hold anything) are shown on a TTY
//! only after this pass, so a crafted file cannot move the cursor, retitle the
//! window or hide text with escape sequences. Pipes get the raw bytes instead:
//! there kgrep must stay byte-for-byte compatible with rlmgrep.
//!
//! The choice: **caret notation, as `cat -v` prints it**. Invalid UTF-8 first
//! becomes U+FFFD (one per maximal invalid subpart); then
//! - C0 controls other than tab become `^@` … `^_` (ESC is `^[`, CR is `^M`),
//! - DEL becomes `^?`,
//! - C1 controls (U+0080 … U+009F) become `M-^@` … `M-^_` (CSI is `M-^[`).
//!
//! Tab is kept: the TTY printer expands it to spaces. rlmgrep (through rich)
//! deletes a few controls and lets ESC through; kgrep shows them all instead.
//!
//! [`sanitize`] is for one file line. [`sanitize_text`] is for text that may
//! span lines — a model's answer, a message naming a file — and keeps `\n`.

use std::borrow::Cow;

/// The caret prefix of C0 controls and DEL (`^[` for ESC).
const CARET: char = '^';
/// The prefix `cat -v` puts before the caret form of a C1 control.
const META: &str = "M-";
/// DEL's caret form.
const DEL_CARET: &str = "^?";
/// Offset from a control code to the letter of its caret form (`0x1b + 0x40 = '['`).
const CARET_OFFSET: u32 = 0x40;
/// First and last C1 control code points.
const C1_FIRST: u32 = 0x80;
const C1_LAST: u32 = 0x9f;

/// Returns `bytes` as text with every control character made visible.
///
/// Borrows when the input is valid UTF-8 without controls (the common case).
pub fn sanitize(bytes: &[u8]) -> Cow<'_, str> {
    let text = String::from_utf8_lossy(bytes);
    if !text.chars().any(is_unsafe) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

/// Returns multi-line text with every control character except tab and
/// newline made visible: for model output and messages on a terminal.
pub fn sanitize_text(text: &str) -> Cow<'_, str> {
    let is_unsafe_here = |c: char| c != '\n' && is_unsafe(c);
    if !text.chars().any(is_unsafe_here) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\n' {
            out.push(c);
        } else {
            push_visible(&mut out, c);
        }
    }
    Cow::Owned(out)
}

/// True for characters a terminal would interpret rather than display.
pub fn is_unsafe(c: char) -> bool {
    c != '\t' && c.is_control()
}

/// Appends `c`, or its caret form when it is a control character.
fn push_visible(out: &mut String, c: char) {
    let code = u32::from(c);
    if !is_unsafe(c) {
        out.push(c);
    } else if c == '\u{7f}' {
        out.push_str(DEL_CARET);
    } else if (C1_FIRST..=C1_LAST).contains(&code) {
        out.push_str(META);
        push_caret(out, code - C1_FIRST);
    } else {
        push_caret(out, code);
    }
}

/// Appends the caret form of a C0 control code (`0x00 ..= 0x1f`).
fn push_caret(out: &mut String, code: u32) {
    out.push(CARET);
    out.push(char::from_u32(code + CARET_OFFSET).unwrap_or(char::REPLACEMENT_CHARACTER));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(
            sanitize(b"caf\xc3\xa9\tok"),
            Cow::Borrowed("café\tok")
        ));
    }

    #[test]
    fn escape_sequences_become_carets() {
        assert_eq!(sanitize(b"\x1b[31mred\x1b[0m"), "^[[31mred^[[0m");
        assert_eq!(sanitize(b"a\rb\x07\x00"), "a^Mb^G^@");
        assert_eq!(sanitize(b"del\x7f"), "del^?");
    }

    #[test]
    fn c1_controls_use_meta_caret() {
        // U+009B (CSI) encoded as UTF-8.
        assert_eq!(sanitize("x\u{9b}31m".as_bytes()), "xM-^[31m");
        assert_eq!(sanitize("\u{85}".as_bytes()), "M-^E");
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        assert_eq!(sanitize(b"caf\xe9"), "caf\u{fffd}");
    }

    #[test]
    fn text_keeps_newlines_and_tabs_only() {
        assert!(matches!(sanitize_text("a\n\tb"), Cow::Borrowed("a\n\tb")));
        assert_eq!(
            sanitize_text("answer\n\x1b]0;pwned\x07\r\u{9b}2J"),
            "answer\n^[]0;pwned^G^MM-^[2J"
        );
    }

    #[test]
    fn tab_is_kept() {
        assert_eq!(sanitize(b"\tx\t"), "\tx\t");
    }
}
