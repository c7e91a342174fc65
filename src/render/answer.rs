//! The `--answer` section on stderr, laid out as rlmgrep prints it:
//!
//! ```text
//! ===== Answer =====          cyan when colour is on
//! <the answer, stripped, word-wrapped to 80 columns>
//!                             an empty line
//! ```
//!
//! rlmgrep prints nothing for an empty answer and `No answer` for one that is
//! only whitespace (`if answer:` then `answer.strip() or "No answer"`).
//!
//! Of rich's treatment of the text, kgrep keeps what changes bytes a script or
//! an agent could rely on: the stripping, the deletion of CR/BEL/BS/VT/FF, tab
//! expansion and the word wrap at the console width ([`super::wrap`], checked
//! against rich itself). It deliberately drops rich's *markup* and *emoji
//! codes*: rich swallows anything that looks like a tag — `[bold]`, but also
//! `list[str]` and `d[key]` in an answer about code — turns `a:b:c` into an
//! emoji when `b` is an emoji name, and crashes rlmgrep on a stray `[/tag]`.
//! kgrep prints the model's text literally. Nor does it reproduce rich's
//! colouring of numbers and strings in the answer on a terminal.
//!
//! The model's text is made safe by [`super::sanitize`] whether or not stderr
//! is a terminal (issue 27): after rich's deletions, every other control
//! character (ESC, C1 controls such as CSI) is shown in caret form, so a
//! reply cannot drive a terminal that a pipe ends in (`2>&1 | less -R`), nor
//! write the clipboard (OSC 52). This is where kgrep differs from rich,
//! which lets ESC through. The caller decides colour and the width
//! ([`console_width`] gives rich's rule, [`terminal_columns`] the terminal's
//! width it falls back on).

use std::io::{self, Write};

use super::sanitize::sanitize_text;
use super::style::{paint, CYAN};
use super::wrap::wrap;
use crate::python::text::strip;

/// The section's first line.
pub const HEADER: &str = "===== Answer =====";
/// What a whitespace-only answer prints as.
pub const NO_ANSWER: &str = "No answer";
/// rich's width when the console is not a terminal and `COLUMNS` is unset.
pub const DEFAULT_WIDTH: usize = 80;

/// How the section is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerStyle {
    /// Wrap width in terminal cells.
    pub width: usize,
    /// Colour the header (`--color` resolved against stderr and `NO_COLOR`).
    pub color: bool,
}

impl Default for AnswerStyle {
    fn default() -> AnswerStyle {
        AnswerStyle {
            width: DEFAULT_WIDTH,
            color: false,
        }
    }
}

/// The whole section, or an empty string when the answer is empty.
pub fn answer_section(answer: &str, style: &AnswerStyle) -> String {
    if answer.is_empty() {
        return String::new();
    }
    let body = match strip(answer) {
        "" => NO_ANSWER,
        body => body,
    };
    // rich's deletions first (as `wrap` makes them), then every other
    // control made visible.
    let kept = super::wrap::without_stripped_controls(body);
    let body = sanitize_text(&kept);
    let mut out = String::with_capacity(body.len() + 64);
    // rich's style for the header: cyan.
    out.push_str(&paint(HEADER, CYAN, style.color));
    out.push('\n');
    for line in wrap(&body, style.width) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Writes [`answer_section`] (nothing for an empty answer).
pub fn write_answer<W: Write>(out: &mut W, answer: &str, style: &AnswerStyle) -> io::Result<()> {
    out.write_all(answer_section(answer, style).as_bytes())
}

/// rich's console width: `COLUMNS` when it is a positive number, else the
/// width of the first terminal among stdin, stdout and stderr, else 80.
pub fn console_width(columns: Option<&str>, terminal: Option<usize>) -> usize {
    columns
        .filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|c| c.parse().ok())
        .or(terminal)
        .filter(|&w| w > 0)
        .unwrap_or(DEFAULT_WIDTH)
}

/// The width in columns of the first terminal among stdin, stdout and stderr
/// (rich's order), if any is one.
pub fn terminal_columns() -> Option<usize> {
    use terminal_size::{terminal_size_of, Width};
    let width =
        |size: Option<(Width, terminal_size::Height)>| size.map(|(Width(w), _)| usize::from(w));
    width(terminal_size_of(std::io::stdin()))
        .or_else(|| width(terminal_size_of(std::io::stdout())))
        .or_else(|| width(terminal_size_of(std::io::stderr())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(answer: &str) -> String {
        answer_section(answer, &AnswerStyle::default())
    }

    #[test]
    fn empty_prints_nothing_and_blank_prints_no_answer() {
        assert_eq!(plain(""), "");
        assert_eq!(plain(" \n\t"), "===== Answer =====\nNo answer\n\n");
    }

    #[test]
    fn markup_and_emoji_codes_print_literally() {
        assert_eq!(
            plain("see the [/bold] tag, list[str] and a:fire:b"),
            "===== Answer =====\nsee the [/bold] tag, list[str] and a:fire:b\n\n"
        );
    }

    #[test]
    fn colour_and_terminal_safety() {
        let coloured = AnswerStyle {
            width: 80,
            color: true,
        };
        assert_eq!(
            answer_section("a\u{1b}[2Jb", &coloured),
            "\u{1b}[36m===== Answer =====\u{1b}[0m\na^[[2Jb\n\n"
        );
        // Terminal or pipe: ESC, an OSC 52 clipboard write and C1 controls
        // are shown, never sent raw; CR is deleted, as rich does.
        assert_eq!(plain("a\u{1b}b\r"), "===== Answer =====\na^[b\n\n");
        assert_eq!(
            plain("x\u{1b}]52;c;cHduZWQ=\u{7}y\u{9b}2J"),
            "===== Answer =====\nx^[]52;c;cHduZWQ=yM-^[2J\n\n"
        );
    }

    #[test]
    fn width_follows_richs_rule() {
        assert_eq!(console_width(None, None), 80);
        assert_eq!(console_width(Some("120"), Some(100)), 120);
        assert_eq!(console_width(Some("wide"), Some(100)), 100);
        assert_eq!(console_width(Some("0"), None), 80);
        assert_eq!(console_width(None, Some(0)), 80);
        assert_eq!(console_width(Some(""), Some(60)), 60);
        // A wide terminal is used when COLUMNS is unset; COLUMNS=0 still wins
        // over it and falls back to 80, as `int(columns) or 80` does in rich.
        assert_eq!(console_width(None, Some(132)), 132);
        assert_eq!(console_width(Some("0"), Some(132)), 80);
        assert_eq!(console_width(Some("100"), Some(132)), 100);
    }

    #[test]
    fn a_wide_terminal_wraps_wider() {
        let words = "word ".repeat(20);
        let at = |terminal| {
            let style = AnswerStyle {
                width: console_width(None, terminal),
                ..AnswerStyle::default()
            };
            answer_section(&words, &style)
        };
        let body = words.trim_end();
        assert_eq!(at(Some(132)), format!("===== Answer =====\n{body}\n\n"));
        let narrow = at(None);
        // Sixteen words and the space after the last (rich keeps a space that fits).
        assert_eq!(narrow.lines().nth(1).map(str::len), Some(80));
        assert_eq!(narrow.lines().count(), 4);
    }
}
