//! rlmgrep's grep-style printer, byte for byte.
//!
//! The contract is `rlmgrep-contract/README.md`, "What the goldens show":
//!
//! ```text
//! ./src/app.py          heading: "./" + key, unless the key starts with "." or "/"
//! 4-<TAB>               context line  N-<TAB>text
//! 5:<TAB>DEFAULT_PORT…  match line    N:<TAB>text   (+ <TAB>page=N for PDFs)
//! --                    between disjoint groups of one file
//!                       empty line between files
//! ```
//!
//! Context ranges merge when they overlap or touch; without context there are
//! no `--` lines at all. `max_count` keeps the N lowest lines of each file, and
//! 0 leaves only the headings. File order is the caller's (rlmgrep sorts by key).
//!
//! On a pipe, line text is written as raw bytes (stdin may hold invalid UTF-8,
//! which must come back out unchanged). On a terminal the output is what rich
//! printed for rlmgrep: a cyan `===== Matches =====` header, magenta headings,
//! green line numbers, tabs expanded, the body stripped of trailing whitespace,
//! then an empty line; `No matches` stands in for an empty body. Terminal text
//! goes through [`super::sanitize`] first. rich also word-wraps lines longer
//! than the terminal; kgrep leaves that to the terminal (no golden covers it).
//! This module does not decide whether stdout is a terminal or colour is wanted.

use std::io::{self, Write};

use super::cells::{expand_tabs, str_width};
use super::sanitize::sanitize;
use crate::document::Document;

/// Separator between disjoint context groups of one file.
const GROUP_SEPARATOR: &str = "--";
/// Prefix rlmgrep puts before keys that are not already `.`- or `/`-rooted.
const HEADING_PREFIX: &str = "./";
/// Marker after a match line's number.
const MATCH_MARK: char = ':';
/// Marker after a context line's number.
const CONTEXT_MARK: char = '-';
/// First line of the terminal output.
const TTY_HEADER: &str = "===== Matches =====";
/// Terminal body when nothing was found.
const TTY_NO_MATCHES: &str = "No matches";
/// SGR sequences rich emits for the styles rlmgrep uses.
const CYAN: &str = "\x1b[36m";
const MAGENTA: &str = "\x1b[35m";
const GREEN: &str = "\x1b[32m";
const RESET: &str = "\x1b[0m";

/// The frozen options of one grep-style rendering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrepOptions {
    /// Context lines before each match (`-B`, or `-C`).
    pub before: usize,
    /// Context lines after each match (`-A`, or `-C`).
    pub after: usize,
    /// Keep only the N lowest match lines of each file (`-m N`).
    pub max_count: Option<usize>,
    /// stdout is a terminal: rlmgrep's rich-rendered "Matches" section.
    pub tty: bool,
    /// Colour the terminal output (false with `NO_COLOR`); ignored on a pipe.
    pub color: bool,
}

/// One file to print and its verified match lines (1-based).
#[derive(Clone, Debug)]
pub struct FileResult<'a> {
    /// The loaded document the lines refer to.
    pub doc: &'a Document,
    /// Match lines; sorted and de-duplicated here, out-of-range ones skipped.
    pub lines: Vec<usize>,
}

/// One printed line, before it is formatted for a pipe or a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row<'a> {
    Heading(&'a str),
    Line {
        number: usize,
        is_match: bool,
        text: &'a [u8],
        page: Option<u32>,
    },
    GroupBreak,
    FileBreak,
}

/// Writes `files` grep-style and returns how many match lines were printed.
pub fn write_grep(
    out: &mut dyn Write,
    files: &[FileResult<'_>],
    opts: &GrepOptions,
) -> io::Result<usize> {
    let rows = layout(files, opts);
    let matches = rows
        .iter()
        .filter(|row| matches!(row, Row::Line { is_match: true, .. }))
        .count();
    if opts.tty {
        write_tty(out, &rows, opts.color)?;
    } else {
        write_plain(out, &rows)?;
    }
    Ok(matches)
}

/// The heading rlmgrep prints for a document key.
pub fn heading(key: &str) -> String {
    if key.starts_with('.') || key.starts_with('/') {
        key.to_string()
    } else {
        format!("{HEADING_PREFIX}{key}")
    }
}

/// The match lines that will be printed: in range, sorted, unique, capped.
fn selected_lines(lines: &[usize], line_count: usize, max_count: Option<usize>) -> Vec<usize> {
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
/// overlap or touch.
fn context_groups(
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

/// Lays every file out as rows.
fn layout<'a>(files: &'a [FileResult<'a>], opts: &GrepOptions) -> Vec<Row<'a>> {
    let mut rows = Vec::new();
    for (index, file) in files.iter().enumerate() {
        if index > 0 {
            rows.push(Row::FileBreak);
        }
        rows.push(Row::Heading(&file.doc.key));
        layout_file(&mut rows, file, opts);
    }
    rows
}

/// Appends one file's line rows (not its heading).
fn layout_file<'a>(rows: &mut Vec<Row<'a>>, file: &'a FileResult<'a>, opts: &GrepOptions) {
    let doc = file.doc;
    let lines: Vec<&[u8]> = doc.lines().collect();
    let matches = selected_lines(&file.lines, lines.len(), opts.max_count);
    let line_row = |number: usize| Row::Line {
        number,
        is_match: matches.binary_search(&number).is_ok(),
        text: lines[number - 1],
        page: doc
            .pages
            .as_ref()
            .and_then(|pages| pages.get(number - 1).copied()),
    };
    if opts.before == 0 && opts.after == 0 {
        rows.extend(matches.iter().map(|&n| line_row(n)));
        return;
    }
    let groups = context_groups(&matches, opts.before, opts.after, lines.len());
    for (index, &(start, end)) in groups.iter().enumerate() {
        if index > 0 {
            rows.push(Row::GroupBreak);
        }
        rows.extend((start..=end).map(line_row));
    }
}

/// The `N:` or `N-` prefix of a line row.
fn line_prefix(number: usize, is_match: bool) -> (String, char) {
    let mark = if is_match { MATCH_MARK } else { CONTEXT_MARK };
    (number.to_string(), mark)
}

/// The `<TAB>page=N` suffix of a PDF line.
fn page_suffix(page: Option<u32>) -> String {
    page.map(|p| format!("\tpage={p}")).unwrap_or_default()
}

/// Pipe output: raw bytes, one row per line.
fn write_plain(out: &mut dyn Write, rows: &[Row<'_>]) -> io::Result<()> {
    for row in rows {
        match *row {
            Row::Heading(key) => out.write_all(heading(key).as_bytes())?,
            Row::Line {
                number,
                is_match,
                text,
                page,
            } => {
                let (number, mark) = line_prefix(number, is_match);
                write!(out, "{number}{mark}\t")?;
                out.write_all(text)?;
                out.write_all(page_suffix(page).as_bytes())?;
            }
            Row::GroupBreak => out.write_all(GROUP_SEPARATOR.as_bytes())?,
            Row::FileBreak => {}
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Terminal output: rlmgrep's "Matches" section as rich rendered it.
fn write_tty(out: &mut dyn Write, rows: &[Row<'_>], color: bool) -> io::Result<()> {
    let body: Vec<String> = rows.iter().map(|row| tty_row(row, color)).collect();
    let body = body.join("\n");
    // rlmgrep strips the joined body before printing it.
    let body = body.trim_end();
    let body = if body.is_empty() {
        TTY_NO_MATCHES
    } else {
        body
    };
    writeln!(out, "{}", paint(TTY_HEADER, CYAN, color))?;
    writeln!(out, "{body}")?;
    writeln!(out)
}

/// One terminal line: sanitised, tabs expanded, coloured when asked.
fn tty_row(row: &Row<'_>, color: bool) -> String {
    match *row {
        Row::Heading(key) => {
            let text = expand_tabs(&sanitize(heading(key).as_bytes()), 0);
            paint(&text, MAGENTA, color)
        }
        Row::Line {
            number,
            is_match,
            text,
            page,
        } => {
            let (number, mark) = line_prefix(number, is_match);
            let mut line = String::from('\t');
            line.push_str(&sanitize(text));
            line.push_str(&page_suffix(page));
            let column = str_width(&number) + 1;
            format!(
                "{}{mark}{}",
                paint(&number, GREEN, color),
                expand_tabs(&line, column)
            )
        }
        Row::GroupBreak => GROUP_SEPARATOR.to_string(),
        Row::FileBreak => String::new(),
    }
}

/// `text` wrapped in an SGR colour and a reset, or unchanged without colour.
fn paint(text: &str, sgr: &str, color: bool) -> String {
    if color {
        format!("{sgr}{text}{RESET}")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn doc(key: &str, text: &[u8]) -> Document {
        Document {
            key: key.to_string(),
            text: text.to_vec(),
            pages: None,
        }
    }

    fn numbered(n: usize) -> Vec<u8> {
        (1..=n)
            .map(|i| format!("l{i}"))
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes()
    }

    fn opts(before: usize, after: usize, max_count: Option<usize>) -> GrepOptions {
        GrepOptions {
            before,
            after,
            max_count,
            ..GrepOptions::default()
        }
    }

    fn render(files: &[(&Document, &[usize])], opts: &GrepOptions) -> (String, usize) {
        let files: Vec<FileResult> = files
            .iter()
            .map(|&(doc, lines)| FileResult {
                doc,
                lines: lines.to_vec(),
            })
            .collect();
        let mut out = Vec::new();
        let count = write_grep(&mut out, &files, opts).unwrap();
        (String::from_utf8(out).unwrap(), count)
    }

    #[test]
    fn heading_prefix_rule() {
        assert_eq!(heading("src/app.py"), "./src/app.py");
        assert_eq!(heading("<stdin>"), "./<stdin>");
        assert_eq!(heading(".secret_notes.md"), ".secret_notes.md");
        assert_eq!(heading("../README.md"), "../README.md");
        assert_eq!(heading("/abs/docs/guide.md"), "/abs/docs/guide.md");
    }

    #[test]
    fn match_lines_sorted_and_unique() {
        let d = doc("a", &numbered(20));
        let (out, count) = render(&[(&d, &[16, 9, 10, 9])], &opts(0, 0, None));
        assert_eq!(out, "./a\n9:\tl9\n10:\tl10\n16:\tl16\n");
        assert_eq!(count, 3);
    }

    #[test]
    fn no_separator_without_context() {
        let d = doc("a", &numbered(10));
        let (out, _) = render(&[(&d, &[2, 7])], &opts(0, 0, None));
        assert!(!out.contains("--"));
    }

    #[test]
    fn files_separated_by_an_empty_line() {
        let a = doc("a", b"x\ny");
        let b = doc("b", b"z");
        let (out, count) = render(&[(&a, &[2]), (&b, &[1])], &opts(0, 0, None));
        assert_eq!(out, "./a\n2:\ty\n\n./b\n1:\tz\n");
        assert_eq!(count, 2);
    }

    #[test]
    fn disjoint_groups_are_separated() {
        let d = doc("a", &numbered(20));
        let (out, count) = render(&[(&d, &[5, 13])], &opts(1, 1, None));
        assert_eq!(
            out,
            "./a\n4-\tl4\n5:\tl5\n6-\tl6\n--\n12-\tl12\n13:\tl13\n14-\tl14\n"
        );
        assert_eq!(count, 2);
    }

    #[test]
    fn overlapping_ranges_merge() {
        let d = doc("a", &numbered(20));
        let (out, _) = render(&[(&d, &[5, 7])], &opts(1, 1, None));
        assert_eq!(out, "./a\n4-\tl4\n5:\tl5\n6-\tl6\n7:\tl7\n8-\tl8\n");
    }

    #[test]
    fn touching_ranges_merge() {
        // ctx_C1_adjacent: 4..6 and 7..9 touch.
        let d = doc("a", &numbered(20));
        let (out, _) = render(&[(&d, &[5, 8])], &opts(1, 1, None));
        assert!(!out.contains("--"));
        assert_eq!(out.lines().count(), 7);
    }

    #[test]
    fn context_is_clamped_to_the_file() {
        let d = doc("a", &numbered(3));
        let (out, _) = render(&[(&d, &[1, 3])], &opts(2, 2, None));
        assert_eq!(out, "./a\n1:\tl1\n2-\tl2\n3:\tl3\n");
    }

    #[test]
    fn after_and_before_are_independent() {
        let d = doc("a", &numbered(30));
        let (out, _) = render(&[(&d, &[9, 10, 20])], &opts(0, 2, None));
        assert_eq!(
            out,
            "./a\n9:\tl9\n10:\tl10\n11-\tl11\n12-\tl12\n--\n20:\tl20\n21-\tl21\n22-\tl22\n"
        );
        let (out, _) = render(&[(&d, &[1, 6])], &opts(2, 0, None));
        assert_eq!(out, "./a\n1:\tl1\n--\n4-\tl4\n5-\tl5\n6:\tl6\n");
    }

    #[test]
    fn trailing_empty_line_is_printable() {
        let d = doc("<stdin>", b"alpha\nbeta\n");
        let (out, _) = render(&[(&d, &[2])], &opts(1, 1, None));
        assert_eq!(out, "./<stdin>\n1-\talpha\n2:\tbeta\n3-\t\n");
    }

    #[test]
    fn max_count_keeps_the_lowest_lines() {
        let d = doc("a", &numbered(40));
        let (out, count) = render(&[(&d, &[33, 10, 20])], &opts(1, 1, Some(2)));
        assert_eq!(
            out,
            "./a\n9-\tl9\n10:\tl10\n11-\tl11\n--\n19-\tl19\n20:\tl20\n21-\tl21\n"
        );
        assert_eq!(count, 2);
    }

    #[test]
    fn max_count_zero_prints_headings_only() {
        let a = doc("README.md", b"x");
        let b = doc("src/app.py", b"y");
        let (out, count) = render(&[(&a, &[1]), (&b, &[1])], &opts(0, 0, Some(0)));
        assert_eq!(out, "./README.md\n\n./src/app.py\n");
        assert_eq!(count, 0);
    }

    #[test]
    fn out_of_range_lines_are_skipped() {
        let d = doc("a", b"x");
        let (out, count) = render(&[(&d, &[0, 1, 2])], &opts(1, 1, None));
        assert_eq!(out, "./a\n1:\tx\n");
        assert_eq!(count, 1);
    }

    #[test]
    fn pdf_lines_carry_their_page() {
        let d = Document {
            key: "m.pdf".into(),
            text: b"===== Page 1 =====\nA\n\n===== Page 2 =====\nB\n".to_vec(),
            pages: Some(vec![1, 1, 1, 2, 2, 2]),
        };
        let (out, _) = render(&[(&d, &[4])], &opts(1, 1, None));
        assert_eq!(
            out,
            "./m.pdf\n3-\t\tpage=1\n4:\t===== Page 2 =====\tpage=2\n5-\tB\tpage=2\n"
        );
    }

    #[test]
    fn raw_bytes_pass_through_on_a_pipe() {
        let d = doc("<stdin>", b"ok\ncaf\xe9\r\n\x1b[31m");
        let files = [FileResult {
            doc: &d,
            lines: vec![2, 3],
        }];
        let mut out = Vec::new();
        write_grep(&mut out, &files, &opts(0, 0, None)).unwrap();
        assert_eq!(out, b"./<stdin>\n2:\tcaf\xe9\r\n3:\t\x1b[31m\n");
    }

    fn tty(color: bool) -> GrepOptions {
        GrepOptions {
            tty: true,
            color,
            ..GrepOptions::default()
        }
    }

    #[test]
    fn tty_colors_and_expands_tabs() {
        let d = doc("src/app.py", b"a\n\tb");
        let (out, count) = render(&[(&d, &[2])], &tty(true));
        assert_eq!(
            out,
            "\x1b[36m===== Matches =====\x1b[0m\n\x1b[35m./src/app.py\x1b[0m\n\
             \x1b[32m2\x1b[0m:              b\n\n"
        );
        assert_eq!(count, 1);
    }

    #[test]
    fn tty_without_color_drops_only_the_escapes() {
        let d = doc("src/app.py", b"a\n\tb");
        let (out, _) = render(&[(&d, &[2])], &tty(false));
        assert_eq!(
            out,
            "===== Matches =====\n./src/app.py\n2:              b\n\n"
        );
    }

    #[test]
    fn tty_no_matches() {
        let (out, count) = render(&[], &tty(true));
        assert_eq!(out, "\x1b[36m===== Matches =====\x1b[0m\nNo matches\n\n");
        assert_eq!(count, 0);
        let (out, _) = render(&[], &tty(false));
        assert_eq!(out, "===== Matches =====\nNo matches\n\n");
    }

    #[test]
    fn tty_strips_the_end_of_the_body() {
        let d = doc("a", b"x\ntrailing   \n");
        let (out, _) = render(&[(&d, &[2])], &tty(false));
        assert_eq!(out, "===== Matches =====\n./a\n2:      trailing\n\n");
    }

    #[test]
    fn tty_sanitises_control_characters() {
        let d = doc("<stdin>", b"\x1b]0;title\x07\rx\xe9");
        let (out, _) = render(&[(&d, &[1])], &tty(false));
        assert_eq!(
            out,
            "===== Matches =====\n./<stdin>\n1:      ^[]0;title^G^Mx\u{fffd}\n\n"
        );
        assert!(!out.contains('\x1b'));
    }

    #[test]
    fn tty_page_suffix_tab_is_expanded() {
        let d = Document {
            key: "m.pdf".into(),
            text: b"Demo".to_vec(),
            pages: Some(vec![1]),
        };
        let (out, _) = render(&[(&d, &[1])], &tty(false));
        assert_eq!(
            out,
            "===== Matches =====\n./m.pdf\n1:      Demo    page=1\n\n"
        );
    }

    #[test]
    fn groups_merge_rule() {
        assert_eq!(context_groups(&[5, 8], 1, 1, 20), vec![(4, 9)]);
        assert_eq!(context_groups(&[5, 9], 1, 1, 20), vec![(4, 6), (8, 10)]);
        assert_eq!(context_groups(&[1, 20], 3, 3, 20), vec![(1, 4), (17, 20)]);
        assert_eq!(context_groups(&[], 1, 1, 20), vec![]);
    }
}
