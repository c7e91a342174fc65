//! Where rg 13's printer stops in a file searched as binary (`--binary`:
//! `document::binary` notes where rg notices its NUL byte), and whether it
//! then prints `binary file matches (found "\0" byte around offset N)`.
//!
//! Once rg noticed the NUL, its printer stops at the next line it is handed,
//! a match or a context line, without printing it (a `--` before it still
//! prints). Its message follows if the file matched: a match printed before,
//! or the line it stopped at, when that is a match. Which lines rg hands over
//! before it notices a NUL it reads as a stream: those of the buffers before
//! the one that holds it, each match there with the context around it (after
//! a match, up to the buffer's end); a line before the NUL that is only the
//! context of a match past it is handed over after. A stream is read to its
//! end, so its NUL is noticed even after the last line printed, unless `-m`
//! stopped the search first.
//!
//! Owns that rule over a file's printed rows, given as line numbers. Does
//! not own where the NUL is noticed (`document::binary`) or the rows
//! (`grep`, which prints the message in each layout: [`message`]).

use crate::document::binary::Noticed;
use crate::document::Document;

/// How the file's lines are handed to rg's printer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Handed {
    /// `-B`: lines before each match.
    pub before: usize,
    /// `-A`: lines after each match.
    pub after: usize,
    /// `--passthru`: every line, in order.
    pub passthru: bool,
    /// `-m` stopped the search at its last match (and its context).
    pub capped: bool,
}

/// What prints of a binary file's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The first row that does not print (`None`: all of them do).
    pub at: Option<usize>,
    /// The message's offset, when it prints.
    pub message: Option<u64>,
}

/// rg's stop in `doc`'s rows, in print order: each a line number (`None`
/// for a separator); `matches` are the file's match lines (sorted) that
/// would print.
pub fn stop(
    rows: &[Option<usize>],
    matches: &[usize],
    doc: &Document,
    noticed: Noticed,
    handed: Handed,
) -> Stop {
    let is_match = |n: usize| matches.binary_search(&n).is_ok();
    let texts = match noticed {
        Noticed::InLine => doc.line_ranges_at(rows.iter().flatten().copied()),
        Noticed::Before { .. } => Default::default(),
    };
    let holds_nul = |n: usize| {
        texts
            .get(&n)
            .and_then(|range| doc.text.get(range.clone()))
            .and_then(|text| memchr::memchr(0, text))
    };
    let stops = |n: usize| match noticed {
        Noticed::Before { line, .. } => !is_early(n, line, matches, handed),
        Noticed::InLine => holds_nul(n).is_some(),
    };
    let at = rows.iter().position(|row| row.is_some_and(&stops));
    let printed = &rows[..at.unwrap_or(rows.len())];
    let stopped_at = at.and_then(|i| rows[i]);
    let matched =
        printed.iter().flatten().any(|&n| is_match(n)) || stopped_at.is_some_and(is_match);
    let offset = match (noticed, stopped_at) {
        (Noticed::Before { offset, .. }, Some(_)) => Some(offset),
        (Noticed::Before { offset, .. }, None) => (!handed.capped).then_some(offset),
        (Noticed::InLine, Some(n)) => {
            let start = texts.get(&n).map_or(0, |range| range.start);
            holds_nul(n).map(|i| doc.raw_offset(start + i))
        }
        (Noticed::InLine, None) => None,
    };
    Stop {
        at,
        message: offset.filter(|_| matched),
    }
}

/// Whether rg hands the line `n` to its printer before it notices the NUL
/// at the line `noticed`: a line before it that is a match, or the context
/// of a match before it.
fn is_early(n: usize, noticed: usize, matches: &[usize], handed: Handed) -> bool {
    if n >= noticed {
        return false;
    }
    handed.passthru
        || matches
            .iter()
            .take_while(|&&m| m < noticed)
            .any(|&m| n + handed.before >= m && n <= m + handed.after)
}

/// The message, after the file's path and `: ` when it prints one.
pub fn message(offset: u64) -> String {
    format!("binary file matches (found \"\\0\" byte around offset {offset})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::doc;

    fn before(line: usize) -> Noticed {
        Noticed::Before { line, offset: 99 }
    }

    fn rows(numbers: &[usize]) -> Vec<Option<usize>> {
        numbers.iter().map(|&n| Some(n)).collect()
    }

    #[test]
    fn the_first_line_handed_over_after_the_nul_stops_the_file() {
        let d = doc("a", "l1\nl2\nl3\nl4\n");
        // Matches 1 and 3, the NUL noticed before line 2 (a stream).
        let got = stop(&rows(&[1, 3]), &[1, 3], &d, before(2), Handed::default());
        assert_eq!(
            got,
            Stop {
                at: Some(1),
                message: Some(99)
            }
        );
        // Noticed before any line (a memory map): nothing prints but the
        // message.
        let got = stop(&rows(&[1, 3]), &[1, 3], &d, before(1), Handed::default());
        assert_eq!(got.at, Some(0));
        assert_eq!(got.message, Some(99));
        // A stream is read to its end: the NUL after the last match still
        // brings the message, unless -m stopped the search.
        let all = stop(&rows(&[1]), &[1], &d, before(3), Handed::default());
        assert_eq!((all.at, all.message), (None, Some(99)));
        let capped = Handed {
            capped: true,
            ..Handed::default()
        };
        assert_eq!(stop(&rows(&[1]), &[1], &d, before(3), capped).message, None);
    }

    #[test]
    fn a_file_that_stops_at_a_context_line_before_any_match_did_not_match() {
        let d = doc("a", "l1\nl2\nl3\n");
        let context = Handed {
            before: 1,
            ..Handed::default()
        };
        // `rg --binary -B1 bar`: the context line 1 stops the file.
        let got = stop(&rows(&[1, 2]), &[2], &d, before(1), context);
        assert_eq!(
            got,
            Stop {
                at: Some(0),
                message: None
            }
        );
    }

    #[test]
    fn context_before_the_nul_prints_when_an_earlier_match_hands_it_over() {
        let d = doc("a", "1\n2\n3\n4\n5\n6\n7\n");
        let context = Handed {
            before: 2,
            after: 1,
            ..Handed::default()
        };
        // Match 2 (rows 1-3), match 6 (rows 4-7) past the NUL noticed at 5:
        // row 3 is 2's context, row 4 only 6's, handed over late.
        let got = stop(
            &rows(&[1, 2, 3, 4, 5, 6, 7]),
            &[2, 6],
            &d,
            before(5),
            context,
        );
        assert_eq!(got.at, Some(3));
        assert_eq!(got.message, Some(99));
    }

    #[test]
    fn a_late_nul_in_a_map_stops_at_the_line_that_holds_it() {
        let mut d = doc("a", "x\ny\0z\nw\n");
        d.offsets = Default::default();
        let got = stop(
            &rows(&[1, 2, 3]),
            &[1, 2, 3],
            &d,
            Noticed::InLine,
            Handed::default(),
        );
        assert_eq!(got.at, Some(1));
        assert_eq!(got.message, Some(3));
        // No printed line holds one: no message.
        let none = stop(
            &rows(&[1, 3]),
            &[1, 3],
            &d,
            Noticed::InLine,
            Handed::default(),
        );
        assert_eq!((none.at, none.message), (None, None));
    }

    #[test]
    fn the_message_is_rgs() {
        assert_eq!(
            message(20),
            "binary file matches (found \"\\0\" byte around offset 20)"
        );
    }
}
