//! `path:line` citations in an answer, found and marked.
//!
//! A model's answer cites its claims as `src/app.py:9` (also `src/app.py:9-16`
//! for a range, or `src/app.py:9:5` with a column). The caller checks each
//! citation against the loaded documents — a file that was searched, lines in
//! range — as it checks matches. An unverifiable citation is *marked*, not
//! dropped: deleting words from a sentence can change its meaning, while
//! `src/ghost.py:3 [unverified]` tells the reader exactly what not to trust.
//!
//! What counts as a citation (to keep `10:30`, `http://host:8080/x` and
//! `a:b:c` out): a run of path characters holding a letter and a `.` or a `/`
//! (or the name `<stdin>`), not starting with `//` and not ending in `.` or
//! `/`, then `:` and a line number ≥ 1 not followed by a letter, digit, `_` or
//! `/`. A leading `./` is not part of the file's key.

use std::ops::{Range, RangeInclusive};

/// What [`mark_unverified`] appends after an unverified citation.
pub const UNVERIFIED_MARK: &str = " [unverified]";
/// The name rlmgrep gives piped stdin content.
const STDIN_KEY: &str = "<stdin>";
/// Longest line number read (more digits is not a line number).
const MAX_LINE_DIGITS: usize = 9;

/// One citation in an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// Byte range in the answer: from the path to the last digit.
    pub span: Range<usize>,
    /// The path as written (`./src/app.py`).
    pub path: String,
    /// First cited line (1-based).
    pub line: usize,
    /// Last cited line of a `path:N-M` range.
    pub end_line: Option<usize>,
}

impl Citation {
    /// The path as a document key: without leading `./`.
    pub fn key(&self) -> &str {
        let mut key = self.path.as_str();
        while let Some(rest) = key.strip_prefix("./") {
            key = rest;
        }
        key
    }

    /// Every cited line.
    pub fn lines(&self) -> RangeInclusive<usize> {
        self.line..=self.end_line.unwrap_or(self.line)
    }
}

/// The answer with marks, and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    pub text: String,
    pub verified: usize,
    pub unverified: usize,
}

fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || "_-./+@~%".contains(c)
}

/// Every citation in `text`, in order.
pub fn find_citations(text: &str) -> Vec<Citation> {
    let mut found = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        let start_char = rest.chars().next().unwrap_or(' ');
        let (path_len, is_stdin) = if rest.starts_with(STDIN_KEY) {
            (STDIN_KEY.len(), true)
        } else if is_path_char(start_char) {
            (rest.find(|c| !is_path_char(c)).unwrap_or(rest.len()), false)
        } else {
            pos += start_char.len_utf8();
            continue;
        };
        let path = &rest[..path_len];
        let citation = (is_stdin || plausible_path(path))
            .then(|| line_numbers(&rest[path_len..]))
            .flatten();
        match citation {
            Some((line, end_line, len)) => {
                found.push(Citation {
                    span: pos..pos + path_len + len,
                    path: path.to_string(),
                    line,
                    end_line,
                });
                pos += path_len + len;
            }
            None => pos += path_len.max(start_char.len_utf8()),
        }
    }
    found
}

fn plausible_path(path: &str) -> bool {
    path.chars().any(char::is_alphabetic)
        && (path.contains('.') || path.contains('/'))
        && !path.starts_with("//")
        && !path.ends_with('.')
        && !path.ends_with('/')
}

/// `:N`, `:N-M` or `:N:C` at the start of `rest`: (line, end line, bytes used).
fn line_numbers(rest: &str) -> Option<(usize, Option<usize>, usize)> {
    let after_colon = rest.strip_prefix(':')?;
    let (line, mut used) = number(after_colon)?;
    used += 1;
    let mut end_line = None;
    if let Some(range) = rest[used..].strip_prefix('-') {
        if let Some((end, len)) = number(range).filter(|&(end, _)| end >= line) {
            end_line = Some(end);
            used += 1 + len;
        }
    } else if let Some(col) = rest[used..].strip_prefix(':') {
        if let Some((_, len)) = number(col) {
            used += 1 + len;
        }
    }
    let next = rest[used..].chars().next();
    if next.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '/') {
        return None;
    }
    Some((line, end_line, used))
}

/// A number ≥ 1 of at most [`MAX_LINE_DIGITS`] digits: (value, bytes).
fn number(text: &str) -> Option<(usize, usize)> {
    let len = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    if len == 0 || len > MAX_LINE_DIGITS {
        return None;
    }
    text[..len]
        .parse()
        .ok()
        .filter(|&n| n >= 1)
        .map(|n| (n, len))
}

/// The answer with [`UNVERIFIED_MARK`] after every citation `is_verified`
/// rejects.
pub fn mark_unverified(text: &str, mut is_verified: impl FnMut(&Citation) -> bool) -> Marked {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let (mut verified, mut unverified) = (0, 0);
    for citation in find_citations(text) {
        if is_verified(&citation) {
            verified += 1;
            continue;
        }
        unverified += 1;
        out.push_str(&text[last..citation.span.end]);
        out.push_str(UNVERIFIED_MARK);
        last = citation.span.end;
    }
    out.push_str(&text[last..]);
    Marked {
        text: out,
        verified,
        unverified,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(text: &str) -> Vec<(String, usize, Option<usize>)> {
        find_citations(text)
            .into_iter()
            .map(|c| (c.path, c.line, c.end_line))
            .collect()
    }

    fn one(path: &str, line: usize) -> Vec<(String, usize, Option<usize>)> {
        vec![(path.to_string(), line, None)]
    }

    #[test]
    fn finds_citations_in_prose() {
        assert_eq!(
            cited("connect() in src/app.py:9 retries; see `README.md:11`, (lib/x.rs:3-7)."),
            vec![
                ("src/app.py".to_string(), 9, None),
                ("README.md".to_string(), 11, None),
                ("lib/x.rs".to_string(), 3, Some(7)),
            ]
        );
        assert_eq!(cited("at ./src/app.py:16."), one("./src/app.py", 16));
        assert_eq!(cited("grep says src/app.py:9:5: x"), one("src/app.py", 9));
        assert_eq!(cited("piped: <stdin>:3"), one("<stdin>", 3));
        assert_eq!(cited("café/è.py:2"), one("café/è.py", 2));
    }

    #[test]
    fn ignores_what_only_looks_like_one() {
        for text in [
            "at 10:30:00",
            "http://localhost:8080/api",
            "https://example.com:443",
            "ratio 3.14:2",
            "a:b:c",
            "Makefile:12",
            "src/app.py:0",
            "src/app.py:9abc",
            "src/app.py:1234567890",
            "src/:3",
            "file.:3",
            "src/app.py:",
        ] {
            assert_eq!(cited(text), vec![], "{text}");
        }
        // A backwards range is a single line followed by text.
        assert_eq!(cited("a.py:9-3"), one("a.py", 9));
    }

    #[test]
    fn key_and_lines() {
        let c = &find_citations("./././src/a.py:4-6")[0];
        assert_eq!(c.key(), "src/a.py");
        assert_eq!(c.lines(), 4..=6);
        assert_eq!(c.span, 0..18);
    }

    #[test]
    fn marks_only_unverified_citations() {
        let text = "See src/app.py:9 and ghost.py:1, also src/app.py:99.";
        let marked = mark_unverified(text, |c| c.key() == "src/app.py" && c.line <= 20);
        assert_eq!(
            marked.text,
            "See src/app.py:9 and ghost.py:1 [unverified], also src/app.py:99 [unverified]."
        );
        assert_eq!((marked.verified, marked.unverified), (1, 2));
        let clean = mark_unverified("no citations here", |_| false);
        assert_eq!(clean.text, "no citations here");
        assert_eq!((clean.verified, clean.unverified), (0, 0));
    }

    #[test]
    fn never_panics_on_odd_text() {
        for text in [
            "",
            ":",
            "::1",
            "a.b:1:",
            "é:1",
            "<stdin>",
            "<stdin>:",
            "x.y:1-",
            "\u{0}.a:1",
        ] {
            let _ = mark_unverified(text, |_| false);
        }
    }
}
