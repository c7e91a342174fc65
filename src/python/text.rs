//! Python `str` semantics: which characters are whitespace (`str.isspace`, the
//! `\s` of `re`), `strip`/`rstrip`, and `repr()` of a string.
//!
//! rlmgrep strips answers with `str.strip()` and its signature text with
//! `rstrip()`; rich wraps on `\s`. Python's whitespace set is Unicode's
//! White_Space plus the information separators U+001C–U+001F, so Rust's
//! `char::is_whitespace` is not quite it.

/// Python's `str.isspace()` for one character (also what `\s` matches in `re`).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{0b}'
            | '\u{0c}'
            | '\r'
            | '\u{1c}'..='\u{1f}'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// `text.strip()`.
pub fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `text.rstrip()`.
pub fn rstrip(text: &str) -> &str {
    text.trim_end_matches(is_space)
}

/// `repr(text)`: quoted with `'` unless the text holds a `'` and no `"`;
/// backslash, the quote, `\n`, `\r`, `\t` escaped by name, other unprintable
/// characters as `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
pub fn repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let code = u32::from(c);
                if code < 0x100 {
                    out.push_str(&format!("\\x{code:02x}"));
                } else if code < 0x1_0000 {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable()` for one character, approximated: controls,
/// separators other than the space, and the common format characters are not
/// printable. (Python also counts unassigned code points; kgrep's messages
/// quote type specs, where those do not occur.)
fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || is_space(c) {
        return false;
    }
    !matches!(
        c,
        '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e000}'..='\u{f8ff}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_pythons() {
        for c in [
            '\u{1c}', '\u{1f}', '\u{85}', '\u{a0}', '\u{3000}', '\u{2028}',
        ] {
            assert!(is_space(c), "{c:?}");
        }
        for c in ['\u{200b}', '\u{feff}', 'x', '\u{180e}'] {
            assert!(!is_space(c), "{c:?}");
        }
        assert_eq!(strip("\u{1c} \u{a0}a b\n\u{3000}"), "a b");
        assert_eq!(rstrip("  a \n\n"), "  a");
    }

    #[test]
    fn repr_picks_quotes_like_python() {
        // Expected values are Python 3.11's repr().
        assert_eq!(repr("a"), "'a'");
        assert_eq!(repr("it's"), "\"it's\"");
        assert_eq!(repr("it's \"x\""), "'it\\'s \"x\"'");
        assert_eq!(repr("a\nb\\"), "'a\\nb\\\\'");
        assert_eq!(
            repr("\u{7}\u{a0}é\u{200b}\u{e000}"),
            "'\\x07\\xa0é\\u200b\\ue000'"
        );
        assert_eq!(repr(""), "''");
    }
}
