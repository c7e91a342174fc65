//! Conditional compilation inside C and C++ function bodies, hidden from the
//! parser. tree-sitter's C grammar parses `#if … #else … #endif` only where
//! each branch is a whole statement or declaration; inside a body, a branch
//! that holds a label, half an `if`, or an opening brace its sibling branch
//! repeats breaks the parse, and error recovery then swallows the rest of the
//! file (lz4's `LZ4_decompress_generic` turned the file's last 400 lines,
//! `LZ4_decompress_safe` among them, into one error).
//!
//! Owns [`masked`]: a copy of the text in which every preprocessor line
//! inside a function's body is blanked, with the `#elif`/`#else` branches of
//! a conditional that opens there, so the parser sees the first branch only,
//! as a compiler sees one. Conditionals outside bodies (around whole
//! functions, in structs, in `extern "C"` blocks) stay: the grammar parses
//! them. Bytes and lines keep their offsets, so
//! the units found in the copy are the original's. Does not own parsing or
//! deciding when the copy is used (`super::parse_within`).
//!
//! Written by hand: no crate offers a C preprocessor's line structure without
//! evaluating it, and this only needs braces, strings, comments and
//! directive lines.

/// The text with the preprocessor lines inside function bodies ([`Braces`])
/// blanked, and the later branches of the conditionals that open there;
/// `None` when there is no such line, or when the braces do not balance (the
/// copy would be no better).
pub(super) fn masked(text: &[u8]) -> Option<Vec<u8>> {
    // The copy, made at the first line blanked: most files have none.
    let mut out: Option<Vec<u8>> = None;
    let mut braces = Braces::default();
    let mut open: Vec<Conditional> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let end = line_end(text, at);
        let first = skip_blanks(text, at, end);
        let in_later_branch = open.last().is_some_and(|c| c.later);
        if text.get(first) == Some(&b'#') {
            // A directive runs on over lines ending in a backslash.
            let mut stop = end;
            while stop > at && ends_continued(text, at, stop) && stop < text.len() {
                stop = line_end(text, stop + 1);
            }
            let inside = braces.in_body() || in_later_branch;
            let blanked = match directive(text, first + 1, stop) {
                b"if" | b"ifdef" | b"ifndef" => {
                    open.push(Conditional {
                        inside,
                        later: false,
                    });
                    inside
                }
                b"elif" | b"else" | b"elifdef" | b"elifndef" => match open.last_mut() {
                    Some(c) => {
                        c.later = c.inside;
                        c.inside
                    }
                    None => false,
                },
                b"endif" => open.pop().is_some_and(|c| c.inside),
                _ => inside,
            };
            if blanked {
                blank(out.get_or_insert_with(|| text.to_vec()), at, stop);
            }
            at = stop + 1;
            continue;
        }
        if in_later_branch {
            // A later branch: the parser sees the first one only.
            blank(out.get_or_insert_with(|| text.to_vec()), at, end);
        } else {
            braces.read(text, at, end)?;
        }
        at = end + 1;
    }
    out.filter(|_| braces.open.is_empty())
}

/// A conditional (`#if` … `#endif`) open at a point of the text.
struct Conditional {
    /// It opened inside a function's body: its directives and later
    /// branches are blanked.
    inside: bool,
    /// Its current branch is a later one (`#elif`, `#else`) to blank.
    later: bool,
}

/// The braces open at a point of the text, each with whether it is a
/// function's body or inside one (not a struct's, an initializer's, an
/// `extern "C"` block's or a namespace's).
#[derive(Default)]
struct Braces {
    open: Vec<bool>,
    /// The code's last character that is not a blank or in a comment.
    last: u8,
    /// The code's last word (`const` in `int f() const {`).
    word: Vec<u8>,
    /// The byte before is part of `word`.
    in_word: bool,
}

impl Braces {
    fn in_body(&self) -> bool {
        self.open.last() == Some(&true)
    }

    /// Reads the line `start..end`, skipping strings, character literals and
    /// comments; `None` when a brace closes one that is not open. A block
    /// comment or a raw string spanning lines is rare enough in bodies to be
    /// read as code: a wrong count only means the copy is not used.
    fn read(&mut self, text: &[u8], start: usize, end: usize) -> Option<()> {
        let mut i = start;
        self.in_word = false;
        while i < end {
            let c = text[i];
            match c {
                b'/' if text.get(i + 1) == Some(&b'/') => break,
                b'/' if text.get(i + 1) == Some(&b'*') => {
                    i = find_comment_end(text, i + 2, end);
                    continue;
                }
                b'"' | b'\'' => {
                    i += 1;
                    while i < end && text[i] != c {
                        i += if text[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'{' => {
                    let body = self.in_body() || self.opens_body();
                    self.open.push(body);
                }
                b'}' => {
                    self.open.pop()?;
                }
                _ => {}
            }
            let identifier = c.is_ascii_alphanumeric() || c == b'_';
            if identifier {
                if !self.in_word {
                    self.word.clear();
                }
                self.word.push(c);
            }
            self.in_word = identifier;
            if !c.is_ascii_whitespace() {
                self.last = c;
            }
            i += 1;
        }
        Some(())
    }

    /// A `{` here opens a function's body: it follows a parameter list,
    /// perhaps with a C++ qualifier after it.
    fn opens_body(&self) -> bool {
        self.last == b')'
            || self.last.is_ascii_alphabetic()
                && matches!(
                    self.word.as_slice(),
                    b"const" | b"noexcept" | b"override" | b"final" | b"volatile"
                )
    }
}

/// Where the line starting at `at` ends (its newline, or the text's end).
fn line_end(text: &[u8], at: usize) -> usize {
    text[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |i| at + i)
}

fn skip_blanks(text: &[u8], mut at: usize, end: usize) -> usize {
    while at < end && matches!(text[at], b' ' | b'\t') {
        at += 1;
    }
    at
}

/// The line `start..end` ends in a backslash (before any `\r`).
fn ends_continued(text: &[u8], start: usize, end: usize) -> bool {
    let line = &text[start..end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.ends_with(b"\\")
}

/// The directive's word after `#` and any blanks (`if`, `else`, `define`).
fn directive(text: &[u8], at: usize, end: usize) -> &[u8] {
    let start = skip_blanks(text, at, end);
    let len = text[start..end]
        .iter()
        .position(|b| !b.is_ascii_alphanumeric() && *b != b'_')
        .unwrap_or(end - start);
    &text[start..start + len]
}

/// Spaces over `start..end`, newlines kept.
fn blank(out: &mut [u8], start: usize, end: usize) {
    for b in &mut out[start..end] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// Just past the `*/` that closes a comment opened before `at`, on this line;
/// the line's end when it closes later.
fn find_comment_end(text: &[u8], at: usize, end: usize) -> usize {
    text[at..end]
        .windows(2)
        .position(|w| w == b"*/")
        .map_or(end, |i| at + i + 2)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn show(text: &str) -> Option<String> {
        masked(text.as_bytes()).map(|m| String::from_utf8(m).unwrap())
    }

    #[test]
    fn a_conditional_inside_a_body_keeps_its_first_branch_only() {
        let text = "int f(int a)\n{\n#if FAST\n    if (a) {\n#else\n    if (!a) {\n#endif\n        a++;\n    }\n    return a;\n}\n";
        let out = show(text).unwrap();
        assert_eq!(
            out,
            "int f(int a)\n{\n        \n    if (a) {\n     \n             \n      \n        a++;\n    }\n    return a;\n}\n"
        );
        assert_eq!(out.len(), text.len());
    }

    #[test]
    fn top_level_conditionals_and_directives_stay() {
        let text = "#include <a.h>\n#ifdef _WIN32\nint f(void) { return 1; }\n#else\nint f(void) { return 2; }\n#endif\n";
        assert_eq!(show(text), None);
        // `extern "C"`, a struct and an initializer are not bodies.
        let text = "#ifdef __cplusplus\nextern \"C\" {\n#endif\n#define A 1\nstruct s {\n#if B\n    int b;\n#endif\n};\nint t[] = {\n#if C\n    1,\n#endif\n};\n#ifdef __cplusplus\n}\n#endif\n";
        assert_eq!(show(text), None);
    }

    #[test]
    fn a_cpp_method_body_after_a_qualifier_is_a_body() {
        let text = "namespace n {\nint A::f() const {\n#if X\n    return 1;\n#else\n    return 2;\n#endif\n}\n}\n";
        let out = show(text).unwrap();
        assert!(
            out.contains("return 1;") && !out.contains("return 2;"),
            "{out}"
        );
    }

    #[test]
    fn nested_conditionals_and_continued_lines_inside_a_body() {
        let text = "void g(void)\n{\n#if A\n#  if B\n    x();\n#  else\n    y();\n#  endif\n#else\n    z();\n#endif\n#define M(a) \\\n    (a)\n    w('{', \"}\"); /* { */\n}\n";
        let out = show(text).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[4], "    x();");
        assert!(lines[6].trim().is_empty(), "{out}");
        assert!(lines[9].trim().is_empty(), "{out}");
        assert!(lines[12].trim().is_empty(), "{out}");
        assert_eq!(lines[13], "    w('{', \"}\"); /* { */");
        assert_eq!(out.len(), text.len());
    }

    #[test]
    fn unbalanced_braces_give_up() {
        assert_eq!(show("}\n#if A\nint x;\n#endif\n"), None);
        assert_eq!(show("void f(void) {\n#if A\n    x();\n#endif\n"), None);
    }
}
