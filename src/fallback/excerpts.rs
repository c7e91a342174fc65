//! What the model sees: numbered excerpts of the retrieved files, never the
//! whole corpus.
//!
//! Owns turning a file's focus lines (its best lines) into windows of lines
//! with some context, merged when they touch (`render::context`'s rule, the
//! one home of window merging), capped per file. The prompt builder
//! (`llm::prompt`) then spends the token budget on them in order.

use crate::document::Document;
use crate::llm::Excerpt;
use crate::render::context::{context_groups, selected_lines};
use crate::score::RankedFile;

/// Excerpts of a run's results: the printed files first (`selected`, each
/// haystack with its printed lines), then the other ranked files, at most
/// `files` of them, each around its printed lines and its `best` best lines.
/// `load` reads a haystack (by index); files it cannot read are skipped.
pub fn of_results(
    selected: &[(usize, Vec<usize>)],
    ranked: &[RankedFile],
    mut load: impl FnMut(usize) -> Option<Document>,
    files: usize,
    best: usize,
) -> Vec<Excerpt> {
    let mut order: Vec<usize> = selected.iter().map(|(h, _)| *h).collect();
    for f in ranked {
        if !order.contains(&f.haystack) {
            order.push(f.haystack);
        }
    }
    let mut out = Vec::new();
    for h in order.into_iter().take(files) {
        let Some(doc) = load(h) else { continue };
        let mut focus: Vec<usize> = selected
            .iter()
            .filter(|(s, _)| *s == h)
            .flat_map(|(_, lines)| lines.iter().copied())
            .collect();
        if let Some(file) = ranked.iter().find(|f| f.haystack == h) {
            focus.extend(file.best_lines(best));
        }
        out.extend(excerpts_for(&doc, &focus));
    }
    out
}

/// Lines shown before and after each focus line.
pub const CONTEXT_LINES: usize = 4;
/// At most this many lines of one file are sent.
pub const MAX_LINES_PER_FILE: usize = 60;
/// A line longer than this many bytes is cut (minified code, data).
pub const MAX_LINE_BYTES: usize = 400;

/// Windows of `doc` around `focus` lines (1-based, any order), with
/// `CONTEXT_LINES` around each, merged when they overlap or touch, in line
/// order, `MAX_LINES_PER_FILE` at most (the earliest windows first).
pub fn excerpts_for(doc: &Document, focus: &[usize]) -> Vec<Excerpt> {
    let count = doc.line_count();
    // The same windows as grep context around printed lines.
    let focus = selected_lines(focus, count, None);
    let ranges = context_groups(&focus, CONTEXT_LINES, CONTEXT_LINES, count);
    let lines: Vec<&[u8]> = doc.lines().collect();
    let mut budget = MAX_LINES_PER_FILE;
    let mut out = Vec::new();
    for (start, end) in ranges {
        if budget == 0 {
            break;
        }
        let end = end.min(start + budget - 1);
        budget -= end - start + 1;
        out.push(Excerpt {
            path: doc.key.clone(),
            first_line: start,
            lines: (start..=end)
                .map(|n| line_text(lines.get(n - 1).copied().unwrap_or_default()))
                .collect(),
        });
    }
    out
}

fn line_text(bytes: &[u8]) -> String {
    let bytes = &bytes[..bytes.len().min(MAX_LINE_BYTES)];
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn doc(n: usize) -> Document {
        let text: Vec<String> = (1..=n).map(|i| format!("line {i}")).collect();
        crate::testing::doc("src/a.rs", text.join("\n"))
    }

    #[test]
    fn windows_merge_and_clamp() {
        let d = doc(30);
        let e = excerpts_for(&d, &[3, 8, 25]);
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].first_line, e[0].lines.len()), (1, 12));
        assert_eq!(e[0].lines[0], "line 1");
        assert_eq!((e[1].first_line, e[1].lines.len()), (21, 9));
        assert!(excerpts_for(&d, &[0, 99]).is_empty());
    }

    #[test]
    fn files_are_capped() {
        let d = doc(1000);
        let focus: Vec<usize> = (1..=100).map(|i| i * 10).collect();
        let total: usize = excerpts_for(&d, &focus).iter().map(|e| e.lines.len()).sum();
        assert_eq!(total, MAX_LINES_PER_FILE);
    }
}
