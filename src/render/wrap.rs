//! rich's word wrap, as rlmgrep's `console.print(answer)` applies it: each line
//! of the text is divided into lines of at most `width` terminal cells
//! (rich 15's `Text.wrap` with `overflow="fold"` and the default justify).
//!
//! The rules, which are rich's and look arbitrary only in isolation:
//! - a "word" is `\s*\S+\s*` (Python's whitespace), so a word carries the
//!   whitespace after it, and the first word the whitespace before it;
//! - a word fits when its cells *without* trailing whitespace fit in what is
//!   left of the line; then the line grows by its cells *with* whitespace;
//! - a word that does not fit starts the next line; one wider than a whole
//!   line is folded into `width`-cell pieces;
//! - trailing whitespace is then removed from a line only as far as the line
//!   is longer than `width` *characters*, so `"…; a "` keeps its space;
//! - a line still wider than `width` cells is cut to it (a wide character cut
//!   in half becomes a space);
//! - tabs expand to the next multiple of 8 cells first, and BEL, BS, VT, FF
//!   and CR are deleted before anything else (rich's `strip_control_codes`).
//!
//! Cell widths, clusters and tab expansion are [`super::cells`]'s (controls
//! take no cell, as in rich; a zero-width joiner glues the next character into
//! the same cluster when folding).

use super::cells::{cell_len, clusters, expand_tabs};
use crate::python::text::is_space;

/// Control codes rich deletes from any text it prints.
const STRIPPED_CONTROLS: &[char] = &['\u{7}', '\u{8}', '\u{b}', '\u{c}', '\r'];

/// `text` without the control codes rich deletes (BEL, BS, VT, FF, CR).
pub fn without_stripped_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains(STRIPPED_CONTROLS) {
        std::borrow::Cow::Owned(text.replace(STRIPPED_CONTROLS, ""))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// rich's line wrapping of `text` (which may hold newlines) to `width` cells.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let text = without_stripped_controls(text);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let chars: Vec<char> = if line.contains('\t') {
            expand_tabs(line, 0).chars().collect()
        } else {
            line.chars().collect()
        };
        let breaks = divide_line(&chars, width);
        let mut bounds = Vec::with_capacity(breaks.len() + 2);
        bounds.push(0);
        bounds.extend(breaks);
        bounds.push(chars.len());
        for pair in bounds.windows(2) {
            let mut piece: Vec<char> = chars[pair[0]..pair[1]].to_vec();
            rstrip_end(&mut piece, width);
            out.push(truncate(&piece, width));
        }
    }
    out
}

/// `(start, end)` of each `\s*\S+\s*` word, from the start of the line.
fn words(chars: &[char]) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut pos = 0;
    loop {
        let start = pos;
        let mut i = pos;
        while i < chars.len() && is_space(chars[i]) {
            i += 1;
        }
        if i == chars.len() {
            return words;
        }
        while i < chars.len() && !is_space(chars[i]) {
            i += 1;
        }
        while i < chars.len() && is_space(chars[i]) {
            i += 1;
        }
        words.push((start, i));
        pos = i;
    }
}

fn rstrip(chars: &[char]) -> &[char] {
    let end = chars
        .iter()
        .rposition(|&c| !is_space(c))
        .map_or(0, |i| i + 1);
    &chars[..end]
}

/// rich's `divide_line`: the character offsets to break the line at.
fn divide_line(chars: &[char], width: usize) -> Vec<usize> {
    let mut breaks = Vec::new();
    let mut offset = 0usize;
    for (start, end) in words(chars) {
        let word = &chars[start..end];
        let word_length = cell_len(rstrip(word));
        if width.saturating_sub(offset) >= word_length && offset <= width {
            offset += cell_len(word);
        } else if word_length > width {
            let pieces = chop_cells(word, width);
            let mut piece_start = start;
            for (i, piece) in pieces.iter().enumerate() {
                if piece_start != 0 {
                    breaks.push(piece_start);
                }
                if i + 1 == pieces.len() {
                    offset = cell_len(piece);
                } else {
                    piece_start += piece.len();
                }
            }
        } else if offset != 0 && start != 0 {
            breaks.push(start);
            offset = cell_len(word);
        }
    }
    breaks
}

/// rich's `chop_cells`: pieces of at most `width` cells, split between clusters.
fn chop_cells(chars: &[char], width: usize) -> Vec<Vec<char>> {
    let mut lines = Vec::new();
    let mut line_start = 0;
    let mut line_size = 0;
    for (start, _end, cells) in clusters(chars) {
        if line_size + cells > width {
            lines.push(chars[line_start..start].to_vec());
            line_start = start;
            line_size = 0;
        }
        line_size += cells;
    }
    if line_size > 0 {
        lines.push(chars[line_start..].to_vec());
    }
    lines
}

/// rich's `rstrip_end`: drop trailing whitespace, but only as many characters
/// as the line is longer than `size` (a character count, as in rich).
fn rstrip_end(chars: &mut Vec<char>, size: usize) {
    if chars.len() <= size {
        return;
    }
    let excess = chars.len() - size;
    let trailing = chars.len() - rstrip(chars).len();
    chars.truncate(chars.len() - trailing.min(excess));
}

/// rich's `truncate` with fold: a line wider than `width` cells is cut there;
/// a double-width cluster cut in half becomes a space.
fn truncate(chars: &[char], width: usize) -> String {
    if cell_len(chars) <= width {
        return chars.iter().collect();
    }
    let mut out = String::new();
    let mut used = 0;
    for (start, end, cells) in clusters(chars) {
        if used + cells > width {
            if used < width {
                out.push(' ');
            }
            break;
        }
        out.extend(&chars[start..end]);
        used += cells;
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Cases printed by rich 15.0.0 itself (`fixtures/rich/make_wrap_cases.py`).
    const CASES: &str = include_str!("../../fixtures/rich/wrap_cases.jsonl");

    #[test]
    fn wraps_exactly_as_rich_prints() {
        let mut count = 0;
        for line in CASES.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let text = case["text"].as_str().unwrap();
            let width = case["width"].as_u64().unwrap() as usize;
            let mut got = wrap(text, width).join("\n");
            got.push('\n');
            assert_eq!(
                got,
                case["printed"].as_str().unwrap(),
                "{text:?} at width {width}"
            );
            count += 1;
        }
        assert!(count > 250);
    }

    #[test]
    fn readable_examples() {
        assert_eq!(wrap("aaa bbb ccc ddd", 10), ["aaa bbb ", "ccc ddd"]);
        assert_eq!(wrap("x abcdefghij y", 4), ["x ", "abcd", "efgh", "ij y"]);
        assert_eq!(wrap("a\r\n\nb\u{7}", 80), ["a", "", "b"]);
        assert_eq!(wrap("", 80), [""]);
    }
}
