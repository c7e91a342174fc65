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
//!
//! Text a model wrote is held to more than control codes: it may also carry
//! characters a terminal does not draw but that change what the text around
//! them *looks like* ([`is_hidden_format`]): the bidi embeddings, overrides
//! and isolates (U+202A–U+202E, U+2066–U+2069, which reorder a line so that
//! it reads other than it is: "Trojan Source"), the line and paragraph
//! separators U+2028 and U+2029 (a line break to some viewers, none to
//! others), and the other format characters (zero-width spaces, U+FEFF, the
//! invisible tag characters that can smuggle a whole hidden sentence).
//! [`sanitize_text`] shows each as `<U+202E>`, as `less` shows them; ZWJ and
//! ZWNJ (U+200D, U+200C) stay, since Persian, Indic scripts and emoji need
//! them and they move nothing. File lines ([`sanitize`]) keep them: a file's
//! text on a terminal is the file's.

use std::borrow::Cow;
use std::fmt::Write as _;

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
/// Zero-width non-joiner and joiner: format characters that scripts and
/// emoji sequences need, and that neither reorder nor hide text.
const KEPT_JOINERS: [char; 2] = ['\u{200c}', '\u{200d}'];

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
/// newline, and every [hidden format character](is_hidden_format), made
/// visible: for model output and messages, on a terminal or a pipe.
pub fn sanitize_text(text: &str) -> Cow<'_, str> {
    let is_unsafe_here = |c: char| c != '\n' && (is_unsafe(c) || is_hidden_format(c));
    if !text.chars().any(is_unsafe_here) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\n' {
            out.push(c);
        } else if is_hidden_format(c) {
            let _ = write!(out, "<U+{:04X}>", u32::from(c));
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

/// True for a character that is not drawn but changes how the text around
/// it reads: a format character (Unicode's category Cf: the bidi controls,
/// zero-width spaces, U+FEFF, the tag characters, …) other than ZWJ and
/// ZWNJ, or the line or paragraph separator (U+2028, U+2029).
pub fn is_hidden_format(c: char) -> bool {
    !KEPT_JOINERS.contains(&c)
        && matches!(
            c,
            // Category Cf, Unicode 15.1.
            '\u{ad}'
                | '\u{600}'..='\u{605}'
                | '\u{61c}'
                | '\u{6dd}'
                | '\u{70f}'
                | '\u{890}'..='\u{891}'
                | '\u{8e2}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{110bd}'
                | '\u{110cd}'
                | '\u{13430}'..='\u{1343f}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0001}'
                | '\u{e0020}'..='\u{e007f}'
                // Zl and Zp.
                | '\u{2028}'
                | '\u{2029}'
        )
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
    fn text_shows_bidi_controls_separators_and_hidden_format_characters() {
        assert_eq!(
            sanitize_text("a\u{202e}gnp.exe\u{202c} b\u{2066}c\u{2069}\u{2028}d\u{2029}"),
            "a<U+202E>gnp.exe<U+202C> b<U+2066>c<U+2069><U+2028>d<U+2029>"
        );
        assert_eq!(
            sanitize_text("zero\u{200b}width\u{feff} tag\u{e0041}\u{e007f}"),
            "zero<U+200B>width<U+FEFF> tag<U+E0041><U+E007F>"
        );
        // Joiners, letters of any script and emoji stay as they are.
        let kept = "فارسی\u{200c}ها 👩\u{200d}💻 é";
        assert!(matches!(sanitize_text(kept), Cow::Borrowed(k) if k == kept));
        // A file line keeps them: its text is the file's.
        assert_eq!(sanitize("x\u{202e}y".as_bytes()), "x\u{202e}y");
    }

    #[test]
    fn tab_is_kept() {
        assert_eq!(sanitize(b"\tx\t"), "\tx\t");
    }
}
