//! Long lines in the grep-style output of a natural-language query: a
//! preview around the matched words, as ripgrep's `--max-columns-preview`
//! shows the start of a long line, with markers saying how many bytes were
//! left out on each side (`[... 99700 bytes omitted]`).
//!
//! Owns choosing the window; the printer writes it. The caller decides when
//! lines are cut: never for `-a`, literal and regex queries (every byte of a
//! matching line, as grep prints it) or `--json` (full text and offsets).
//!
//! Also the one home of cutting a short text (a message, a quoted value, an
//! excerpt line sent to the model) to a number of characters with `…`:
//! [`ellipsize`].

use std::ops::Range;

/// Lines longer than this many bytes are cut to a window this wide. A
/// minified bundle or a data blob puts 100 KB on one line; the reader (a
/// person, or an agent paying per token) learns nothing more from it than
/// from the words around the match, and 300 bytes holds two or three
/// ordinary lines of code: context enough, a fraction of a screen.
pub const LONG_LINE_BYTES: usize = 300;

/// The part of `text` to print when it is longer than `max` bytes: a window
/// of at most `max` bytes around the matched spans (centred on the first ones
/// that fit), or its start when nothing is known to match. `None` when the
/// line is short enough to print whole. The window never splits a UTF-8
/// character.
pub fn window(text: &[u8], spans: &[Range<usize>], max: usize) -> Option<Range<usize>> {
    if text.len() <= max {
        return None;
    }
    let start = match spans
        .iter()
        .find(|s| s.start < s.end && s.end <= text.len())
    {
        Some(first) => {
            let last = spans
                .iter()
                .filter(|s| {
                    s.start >= first.start && s.end <= text.len() && s.end <= first.start + max
                })
                .map(|s| s.end)
                .max()
                .unwrap_or(first.end);
            let hull = last.saturating_sub(first.start).min(max);
            first.start.saturating_sub((max - hull) / 2)
        }
        None => 0,
    };
    let start = start.min(text.len() - max);
    let mut start = start;
    while start > 0 && is_continuation(text[start]) {
        start -= 1;
    }
    let mut end = (start + max).min(text.len());
    while end < text.len() && end > start && is_continuation(text[end]) {
        end -= 1;
    }
    Some(start..end)
}

/// `text` whole when it has at most `max` characters, else its first
/// `max - 1` characters and `…` (so the result never has more than `max`).
pub fn ellipsize(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The marker for `n` bytes left out, as printed before or after a window.
pub fn omitted(n: usize) -> String {
    format!("[... {n} bytes omitted]")
}

/// What is printed before and after a window that left out `before` and
/// `after` bytes of its line: [`omitted`] markers, each with a space on the
/// window's side; nothing for a side that left nothing out.
pub fn marks((before, after): (usize, usize)) -> (String, String) {
    let mark = |n: usize, f: fn(String) -> String| {
        if n > 0 {
            f(omitted(n))
        } else {
            String::new()
        }
    };
    (mark(before, |m| m + " "), mark(after, |m| format!(" {m}")))
}

/// `text` cut to `w` (a [`window`]) with the [`marks`] of what was left out
/// on each side: the grep-style text's bytes, without colour.
pub fn marked(text: &[u8], w: Range<usize>) -> Vec<u8> {
    let (before, after) = marks((w.start, text.len() - w.end));
    [before.as_bytes(), &text[w], after.as_bytes()].concat()
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    #![allow(clippy::single_range_in_vec_init, clippy::unwrap_used)]

    #[test]
    fn ellipsize_counts_characters_and_the_mark() {
        assert_eq!(super::ellipsize("abc", 3), "abc");
        assert_eq!(super::ellipsize("abcd", 3), "ab…");
        assert_eq!(super::ellipsize("ééééé", 4), "ééé…");
        assert_eq!(super::ellipsize("", 0), "");
        assert_eq!(super::ellipsize("a", 0), "…");
    }

    use super::*;

    #[test]
    fn a_marked_window_says_what_it_left_out_on_each_side() {
        let mut line = vec![b'x'; 1_000];
        line.extend_from_slice(b"needle");
        line.extend(vec![b'y'; 1_000]);
        let w = window(&line, &[1_000..1_006], 100).unwrap();
        let shown = String::from_utf8(marked(&line, w.clone())).unwrap();
        assert_eq!(
            shown,
            format!(
                "[... {} bytes omitted] {} [... {} bytes omitted]",
                w.start,
                String::from_utf8_lossy(&line[w.clone()]),
                line.len() - w.end
            )
        );
        assert!(shown.contains("needle"));
        let start = window(&line, &[], 100).unwrap();
        let start = String::from_utf8(marked(&line, start)).unwrap();
        assert!(start.starts_with("xxx") && start.ends_with(" [... 1906 bytes omitted]"));
    }

    #[test]
    fn short_lines_are_whole() {
        assert_eq!(window(b"retry backoff", &[0..5], 300), None);
        assert_eq!(window(&[b'x'; 300], &[], 300), None);
    }

    #[test]
    fn the_window_is_centred_on_the_match() {
        let mut line = vec![b'x'; 10_000];
        line.extend_from_slice(b"retry backoff");
        line.extend(vec![b'y'; 10_000]);
        let w = window(&line, &[10_000..10_005, 10_006..10_013], 300).unwrap();
        assert_eq!(w.len(), 300);
        assert!(w.start < 10_000 && w.end > 10_013, "{w:?}");
        let before = 10_000 - w.start;
        let after = w.end - 10_013;
        assert!(before.abs_diff(after) <= 1, "{w:?}");
    }

    #[test]
    fn without_a_match_the_start_is_shown_and_edges_stay_in_range() {
        let line = vec![b'x'; 1_000];
        assert_eq!(window(&line, &[], 300), Some(0..300));
        assert_eq!(window(&line, &[990..1_000], 300), Some(700..1_000));
        assert_eq!(window(&line, &[0..3], 300), Some(0..300));
    }

    #[test]
    fn a_character_is_never_split() {
        let line = "é".repeat(1_000);
        let bytes = line.as_bytes();
        let w = window(bytes, &[1001..1003], 301).unwrap();
        assert!(std::str::from_utf8(&bytes[w.clone()]).is_ok(), "{w:?}");
        assert!(w.len() <= 301);
    }
}
