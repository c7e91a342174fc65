//! Terminal cell widths and tab expansion the way rich does it.
//!
//! rlmgrep prints its terminal output through rich, which replaces every tab
//! by spaces up to the next multiple of [`TAB_SIZE`] cells, counting from the
//! start of the printed line (line number included). Wide characters (CJK,
//! emoji) take two cells and combining marks none, so the column of a tab
//! depends on them. The width table below covers the common wide and
//! zero-width blocks; it is an approximation of rich's full table, and only
//! ever moves a tab stop.

/// rich's default tab size.
pub const TAB_SIZE: usize = 8;

/// Code point ranges that take no cell (combining marks, zero-width joiners,
/// variation selectors).
const ZERO_WIDTH: &[(u32, u32)] = &[
    (0x0300, 0x036f),
    (0x0483, 0x0489),
    (0x0591, 0x05bd),
    (0x0610, 0x061a),
    (0x064b, 0x065f),
    (0x200b, 0x200f),
    (0x20d0, 0x20ff),
    (0xfe00, 0xfe0f),
    (0xfe20, 0xfe2f),
    (0xe0100, 0xe01ef),
];

/// Code point ranges that take two cells (East Asian wide and fullwidth, emoji).
const DOUBLE_WIDTH: &[(u32, u32)] = &[
    (0x1100, 0x115f),
    (0x231a, 0x231b),
    (0x2329, 0x232a),
    (0x23e9, 0x23ec),
    (0x25fd, 0x25fe),
    (0x2614, 0x2615),
    (0x26aa, 0x26ab),
    (0x26bd, 0x26be),
    (0x26f5, 0x26f5),
    (0x26fd, 0x26fd),
    (0x2705, 0x2705),
    (0x270a, 0x270b),
    (0x274c, 0x274c),
    (0x2795, 0x2797),
    (0x2b1b, 0x2b1c),
    (0x2e80, 0x303e),
    (0x3041, 0x33ff),
    (0x3400, 0x4dbf),
    (0x4e00, 0x9fff),
    (0xa000, 0xa4cf),
    (0xa960, 0xa97f),
    (0xac00, 0xd7a3),
    (0xf900, 0xfaff),
    (0xfe10, 0xfe19),
    (0xfe30, 0xfe6f),
    (0xff00, 0xff60),
    (0xffe0, 0xffe6),
    (0x1f300, 0x1f64f),
    (0x1f680, 0x1f6ff),
    (0x1f900, 0x1f9ff),
    (0x1fa70, 0x1faff),
    (0x20000, 0x2fffd),
    (0x30000, 0x3fffd),
];

/// The number of terminal cells `c` occupies (0, 1 or 2).
pub fn char_width(c: char) -> usize {
    let code = u32::from(c);
    if in_ranges(ZERO_WIDTH, code) {
        0
    } else if in_ranges(DOUBLE_WIDTH, code) {
        2
    } else {
        1
    }
}

/// The number of terminal cells `text` occupies (it must hold no tab or newline).
pub fn str_width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

fn in_ranges(ranges: &[(u32, u32)], code: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < code {
                std::cmp::Ordering::Less
            } else if lo > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Replaces each tab in `text` by spaces up to the next tab stop, given that
/// the text starts at cell `start_column` of the line.
pub fn expand_tabs(text: &str, start_column: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut column = start_column;
    for c in text.chars() {
        if c == '\t' {
            let spaces = TAB_SIZE - column % TAB_SIZE;
            out.extend(std::iter::repeat_n(' ', spaces));
            column += spaces;
        } else {
            out.push(c);
            column += char_width(c);
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
    fn width_tables_are_sorted_for_binary_search() {
        for table in [ZERO_WIDTH, DOUBLE_WIDTH] {
            assert!(table.windows(2).all(|w| w[0].1 < w[1].0));
            assert!(table.iter().all(|&(lo, hi)| lo <= hi));
        }
    }
}
