//! Terminal cell widths and tab expansion the way rich does it: the one home
//! of both for every printer ([`super::grep`] and [`super::wrap`]).
//!
//! rlmgrep prints its terminal output through rich, which replaces every tab
//! by spaces up to the next multiple of [`TAB_SIZE`] cells, counting from the
//! start of the printed line (line number included). Wide characters (CJK,
//! emoji) take two cells and combining marks none, so the column of a tab
//! depends on them. A character's cells come from the `unicode-width` crate
//! (Unicode's East Asian Width and zero-width properties, ambiguous characters
//! narrow); controls take none, as in rich. A zero-width joiner glues the next
//! character into its cluster, which then adds no cell (rich's `cell_len`).

use unicode_width::UnicodeWidthChar;

/// rich's default tab size.
pub const TAB_SIZE: usize = 8;

/// Zero-width joiner: the next character belongs to the same cluster.
const ZWJ: char = '\u{200d}';

/// The number of terminal cells `c` occupies on its own (0, 1 or 2); controls
/// take none.
pub fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The number of terminal cells `text` occupies (it must hold no tab or
/// newline): rich's `cell_len`, a character after a zero-width joiner adding
/// none.
pub fn str_width(text: &str) -> usize {
    let mut cells = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        cells += char_width(c);
        if c == ZWJ {
            chars.next();
        }
    }
    cells
}

/// The cells of a run of characters (see [`str_width`]).
pub fn cell_len(chars: &[char]) -> usize {
    clusters(chars).iter().map(|&(_, _, cells)| cells).sum()
}

/// Clusters of `chars`: `(start, end, cells)`. A zero-width character joins the
/// cluster before it; a zero-width joiner also takes the character after it.
pub fn clusters(chars: &[char]) -> Vec<(usize, usize, usize)> {
    let mut spans: Vec<(usize, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let w = char_width(c);
        let joins = c == ZWJ && i + 1 < chars.len();
        let step = if joins { 2 } else { 1 };
        match spans.last_mut() {
            Some(last) if w == 0 => last.1 = i + step,
            _ => spans.push((i, i + step, w)),
        }
        i += step;
    }
    spans
}

/// rich's `expand_tabs` for `text` starting at cell `start_column` of its
/// line: each tab becomes a space, then spaces up to the next multiple of
/// [`TAB_SIZE`] cells (cells counted per tab-separated part, as rich counts
/// them).
pub fn expand_tabs(text: &str, start_column: usize) -> String {
    if !text.contains('\t') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + TAB_SIZE);
    let mut column = start_column;
    let mut parts = text.split('\t').peekable();
    while let Some(part) = parts.next() {
        let start = out.len();
        out.push_str(part);
        if parts.peek().is_some() {
            out.push(' ');
            column += str_width(&out[start..]);
            while !column.is_multiple_of(TAB_SIZE) {
                out.push(' ');
                column += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_goes_to_the_next_stop() {
        // "4-" then a tab: six spaces (golden tty_stdout_context).
        assert_eq!(expand_tabs("\t", 2), " ".repeat(6));
        assert_eq!(
            expand_tabs("\t    try:", 3),
            format!("{}    try:", " ".repeat(5))
        );
    }

    #[test]
    fn tab_at_a_stop_is_a_full_tab() {
        assert_eq!(expand_tabs("\t", 8), " ".repeat(8));
        assert_eq!(expand_tabs("1234567\tx", 0), "1234567 x");
        assert_eq!(
            expand_tabs("12345678\tx", 0),
            format!("12345678{}x", " ".repeat(8))
        );
    }

    #[test]
    fn wide_characters_count_two_cells() {
        assert_eq!(char_width('界'), 2);
        assert_eq!(char_width('é'), 1);
        assert_eq!(char_width('\u{301}'), 0);
        assert_eq!(str_width("界a"), 3);
        assert_eq!(expand_tabs("界\tx", 0), "界      x");
    }

    #[test]
    fn wide_cjk_outside_the_old_table() {
        // CJK Unified Ideographs Extension G (U+30000 block) and a Tangut
        // ideograph: both wide, neither in the former hand table's ranges.
        assert_eq!(char_width('\u{31350}'), 2);
        assert_eq!(char_width('\u{17000}'), 2);
        assert_eq!(expand_tabs("\u{17000}\tx", 0), "\u{17000}      x");
    }

    #[test]
    fn combining_marks_take_no_cell() {
        // Devanagari vowel sign and a Thai mark, outside the old table.
        assert_eq!(char_width('\u{093f}'), 1, "spacing mark keeps its cell");
        assert_eq!(char_width('\u{0941}'), 0);
        assert_eq!(char_width('\u{0e31}'), 0);
        assert_eq!(str_width("e\u{301}\u{1ab0}"), 1);
        assert_eq!(expand_tabs("e\u{301}\tx", 0), "e\u{301}       x");
    }

    #[test]
    fn emoji_take_two_cells() {
        // U+1F7E0 (orange circle) and U+1FAE0 (melting face) were missing.
        assert_eq!(char_width('😀'), 2);
        assert_eq!(char_width('\u{1f7e0}'), 2);
        assert_eq!(char_width('\u{1fae0}'), 2);
        // A ZWJ sequence counts its first emoji only, as rich does.
        assert_eq!(str_width("👩\u{200d}💻"), 2);
        assert_eq!(expand_tabs("👩\u{200d}💻\tx", 0), "👩\u{200d}💻      x");
    }

    #[test]
    fn controls_take_no_cell() {
        assert_eq!(char_width('\u{1b}'), 0);
        assert_eq!(char_width('\u{85}'), 0);
    }
}
