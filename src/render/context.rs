//! Which lines a file prints: its match lines, capped by `-m`, and the context
//! lines around them, grouped the way grep (and rlmgrep) groups them.
//!
//! Shared by every printer so the grep-style output and `--json` always show the
//! same lines, and by the excerpts sent to a model (`fallback::excerpts`), the
//! one home of merging line windows. Owns no formatting and no I/O: it maps
//! line numbers to line numbers.

use crate::document::Document;

/// The match lines that will be printed: in `1..=line_count`, sorted, unique,
/// and only the `max_count` lowest when a cap is given (`-m N`).
pub fn selected_lines(lines: &[usize], line_count: usize, max_count: Option<usize>) -> Vec<usize> {
    let mut selected: Vec<usize> = lines
        .iter()
        .copied()
        .filter(|n| (1..=line_count).contains(n))
        .collect();
    selected.sort_unstable();
    selected.dedup();
    if let Some(max) = max_count {
        selected.truncate(max);
    }
    selected
}

/// Inclusive line ranges to print around `matches` (sorted), merged when they
/// overlap or touch. Without context each match is its own one-line group.
pub fn context_groups(
    matches: &[usize],
    before: usize,
    after: usize,
    line_count: usize,
) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &n in matches {
        let start = n.saturating_sub(before).max(1);
        let end = n.saturating_add(after).min(line_count);
        match groups.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => groups.push((start, end)),
        }
    }
    groups
}

/// The number of `doc`'s last line as rg counts lines: the empty "line"
/// after a final `\n` is none ([`Document::last_line`]), and for printing an
/// empty text has no line (0) where a claim keeps rlmgrep's line 1.
pub fn last_line(doc: &Document) -> usize {
    if doc.text.is_empty() {
        0
    } else {
        doc.last_line()
    }
}

/// `--passthru`'s one group: every line of `doc` (none of an empty one; the
/// empty "line" after a last `\n` is none, as in rg), or up to the last of
/// `matches` when `max_count` cut the file's `found` matches (lines, or `-U`
/// runs) there.
pub fn whole_file(
    doc: &Document,
    found: usize,
    matches: &[usize],
    max_count: Option<usize>,
) -> Vec<(usize, usize)> {
    let last = match (max_count, matches.last()) {
        (Some(max), Some(&last)) if found >= max => last,
        _ => last_line(doc),
    };
    if last == 0 {
        Vec::new()
    } else {
        vec![(1, last)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_is_in_range_sorted_unique_and_capped() {
        assert_eq!(
            selected_lines(&[16, 9, 10, 9, 0, 99], 20, None),
            [9, 10, 16]
        );
        assert_eq!(selected_lines(&[33, 10, 20], 40, Some(2)), [10, 20]);
        assert!(selected_lines(&[1], 1, Some(0)).is_empty());
    }

    #[test]
    fn groups_merge_rule() {
        assert_eq!(context_groups(&[5, 8], 1, 1, 20), vec![(4, 9)]);
        assert_eq!(context_groups(&[5, 9], 1, 1, 20), vec![(4, 6), (8, 10)]);
        assert_eq!(context_groups(&[1, 20], 3, 3, 20), vec![(1, 4), (17, 20)]);
        assert_eq!(context_groups(&[2, 3], 0, 0, 20), vec![(2, 3)]);
        assert_eq!(context_groups(&[], 1, 1, 20), vec![]);
    }
}
