//! HTML → visible text, in two layouts.
//!
//! - [`convert`] (`.html`/`.htm` files) keeps the file's lines: line N of the
//!   text is what a browser shows of line N of the file. Tags, comments and
//!   `<script>`/`<style>` bodies vanish but their line breaks stay, so line
//!   numbers still point into the source a user opens in an editor. A block
//!   tag (`<p>`, `<td>`, `<br>`…) in the middle of a line becomes a space, so
//!   words in neighbouring cells do not run together.
//! - [`block_text`] (EPUB chapters, which have no useful source lines) lays
//!   text out as a reader sees it: one line per block element, whitespace
//!   collapsed.
//!
//! The tokenizer is a forgiving scan, not a DOM: unclosed tags, stray `<` and
//! unknown entities pass through as text, and it never recurses. Named
//! entities are HTML5's whole list (html-escape's table), character
//! references quick-xml's parser ([`super::xml::char_reference`]).

use html_escape::NAMED_ENTITIES;

use super::text::TextOut;
use super::xml::char_reference;
#[cfg(test)]
use super::Format;
use super::{ConvertError, Converted, Limits};

/// Elements whose content is never shown.
const HIDDEN: &[&str] = &["script", "style", "template", "noscript"];
/// Elements that start a new block (a line in the block layout).
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
];

/// Converts an HTML file, keeping its lines (see the module doc).
pub(super) fn convert(bytes: &[u8], limits: &Limits) -> Result<Converted, ConvertError> {
    let source = String::from_utf8_lossy(bytes);
    let source = source.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(source.len() / 2);
    for token in Tokens::new(&source) {
        match token {
            Token::Text(text) => decode_entities(text, &mut out),
            Token::Markup { raw, name, .. } => {
                let newlines = raw.matches('\n').count();
                if newlines > 0 {
                    out.extend(std::iter::repeat_n('\n', newlines));
                } else if name.is_some_and(is_block)
                    && !out.is_empty()
                    && !out.ends_with([' ', '\n'])
                {
                    out.push(' ');
                }
            }
        }
        if out.len() > limits.max_text_bytes {
            return Err(ConvertError::too_large(format!(
                "HTML text over the {}-byte limit",
                limits.max_text_bytes
            )));
        }
    }
    let text: Vec<&str> = out.split('\n').map(str::trim_end).collect();
    Ok(Converted {
        text: text.join("\n"),
        pages: None,
        unread: Vec::new(),
        cut: None,
    })
}

/// Appends the text of an HTML chapter in the block layout (see the module
/// doc); the `<head>` (title, metadata) is not part of the chapter's text.
pub(super) fn block_text(source: &str, out: &mut TextOut) -> Result<(), ConvertError> {
    let mut decoded = String::new();
    let mut in_head = false;
    for token in Tokens::new(source) {
        match token {
            Token::Markup {
                raw,
                name: Some("head"),
            } => in_head = !raw.starts_with("</"),
            Token::Text(_) if in_head => {}
            Token::Text(text) => {
                decoded.clear();
                decode_entities(text, &mut decoded);
                for (i, word) in decoded.split(char::is_whitespace).enumerate() {
                    if i > 0 {
                        out.separate(' ')?;
                    }
                    out.push_str(word)?;
                }
            }
            Token::Markup {
                name: Some(name), ..
            } if is_block(name) => out.end_row()?,
            Token::Markup { .. } => {}
        }
    }
    out.end_row()
}

fn is_block(name: &str) -> bool {
    BLOCKS.contains(&name)
}

/// A piece of HTML source.
#[derive(Debug, PartialEq, Eq)]
enum Token<'s> {
    /// Text between tags, entities not yet decoded.
    Text(&'s str),
    /// A tag, comment, doctype or hidden element's body; `name` is the
    /// lowercase tag name for tags (opening or closing).
    Markup { raw: &'s str, name: Option<&'s str> },
}

/// Splits HTML source into [`Token`]s.
struct Tokens<'s> {
    rest: &'s str,
    /// Set after an opening tag of a [`HIDDEN`] element: its body is markup.
    hidden: Option<&'static str>,
}

impl<'s> Tokens<'s> {
    fn new(source: &'s str) -> Tokens<'s> {
        Tokens {
            rest: source,
            hidden: None,
        }
    }

    /// Splits `len` bytes off the front.
    fn take(&mut self, len: usize) -> &'s str {
        let len = len.min(self.rest.len());
        let (head, tail) = self.rest.split_at(len);
        self.rest = tail;
        head
    }

    /// The body of a hidden element, up to its closing tag.
    fn hidden_body(&mut self, element: &'static str) -> Token<'s> {
        let end = find_closing(self.rest, element).unwrap_or(self.rest.len());
        Token::Markup {
            raw: self.take(end),
            name: None,
        }
    }

    /// A tag, comment or declaration starting at `<`, or `None` if this `<`
    /// starts no markup (it is text).
    fn markup(&mut self) -> Option<Token<'s>> {
        let rest = self.rest;
        if let Some(body) = rest.strip_prefix("<!--") {
            let end = body.find("-->").map_or(rest.len(), |i| 4 + i + 3);
            return Some(Token::Markup {
                raw: self.take(end),
                name: None,
            });
        }
        let after = rest.as_bytes().get(1).copied()?;
        let is_tag = after.is_ascii_alphabetic() || after == b'/' || after == b'!' || after == b'?';
        if !is_tag {
            return None;
        }
        let end = tag_end(rest);
        let raw = self.take(end);
        let name = tag_name(raw);
        if let Some(name) = name {
            if !raw.starts_with("</") && !raw.ends_with("/>") {
                self.hidden = HIDDEN
                    .iter()
                    .copied()
                    .find(|h| h.eq_ignore_ascii_case(name));
            }
        }
        Some(Token::Markup {
            raw,
            name: name.filter(|_| !raw.starts_with("<!") && !raw.starts_with("<?")),
        })
    }
}

impl<'s> Iterator for Tokens<'s> {
    type Item = Token<'s>;

    fn next(&mut self) -> Option<Token<'s>> {
        if self.rest.is_empty() {
            return None;
        }
        if let Some(element) = self.hidden.take() {
            if !self.rest.starts_with("</") {
                return Some(self.hidden_body(element));
            }
        }
        if self.rest.starts_with('<') {
            if let Some(token) = self.markup() {
                return Some(token);
            }
            return Some(Token::Text(self.take(1)));
        }
        let end = self.rest.find('<').unwrap_or(self.rest.len());
        Some(Token::Text(self.take(end)))
    }
}

/// Where `</element` starts in `text` (ASCII case-insensitive).
fn find_closing(text: &str, element: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find("</") {
        let at = from + i;
        let name = bytes.get(at + 2..at + 2 + element.len())?;
        if name.eq_ignore_ascii_case(element.as_bytes()) {
            return Some(at);
        }
        from = at + 2;
    }
    None
}

/// The length of the tag starting at `<`, through its `>`; quoted attribute
/// values may hold `>`. An unterminated tag runs to the end.
fn tag_end(text: &str) -> usize {
    let mut quote: Option<u8> = None;
    for (i, &b) in text.as_bytes().iter().enumerate().skip(1) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return i + 1,
            _ => {}
        }
    }
    text.len()
}

/// The name of a tag (`<TD class=x>` → `td`, `</p>` → `p`), lowercase only if
/// written so; callers compare case-insensitively through [`lowercase_name`].
fn tag_name(raw: &str) -> Option<&str> {
    let body = raw.strip_prefix("</").or_else(|| raw.strip_prefix('<'))?;
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':'))
        .unwrap_or(body.len());
    let name = &body[..end];
    (!name.is_empty()).then(|| lowercase_name(name))
}

/// Tag names are ASCII; known ones are matched in lowercase. A name already in
/// lowercase is returned as is; others map to the static known name or stay.
fn lowercase_name(name: &str) -> &str {
    if !name.bytes().any(|b| b.is_ascii_uppercase()) {
        return name;
    }
    BLOCKS
        .iter()
        .chain(HIDDEN)
        .copied()
        .find(|known| known.eq_ignore_ascii_case(name))
        .unwrap_or(name)
}

/// Appends `text` with character references decoded (`&amp;`, `&#233;`,
/// `&eacute;`…); unknown or unterminated ones are kept as written.
fn decode_entities(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map(|j| j + 1);
        let decoded = match end {
            Some(end) if rest.as_bytes()[end] == b';' => {
                push_reference(&rest[1..end], out).then_some(end + 1)
            }
            _ => None,
        };
        match decoded {
            Some(len) => rest = &rest[len..],
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// Appends what a reference (without `&` and `;`) stands for: a character
/// reference, or one of HTML5's named entities (html-escape's table of
/// WHATWG's list). False, with nothing appended, when it is unknown.
fn push_reference(name: &str, out: &mut String) -> bool {
    if name.starts_with('#') {
        return char_reference(name).map(|c| out.push(c)).is_some();
    }
    if matches!(name, "nbsp" | "ensp" | "emsp" | "thinsp") {
        // A space to search for, not U+00A0 or U+2002/3/9: `10&nbsp;MB`
        // should match "10 MB".
        out.push(' ');
        return true;
    }
    NAMED_ENTITIES
        .binary_search_by(|&(known, _)| known.cmp(name.as_bytes()))
        .map(|i| out.push_str(NAMED_ENTITIES[i].1))
        .is_ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn lines(html: &str) -> String {
        convert(html.as_bytes(), &Limits::DEFAULT).unwrap().text
    }

    #[test]
    fn visible_text_keeps_the_source_lines() {
        let html = "<!DOCTYPE html>\n<html>\n<head>\n<title>Guide</title>\n<style>\nbody { color: red }\n</style>\n\
                <script>\nvar x = \"<p>not text</p>\";\n</script>\n</head>\n<body>\n<h1>Install</h1>\n\
                <p>Run <code>make</code> &amp; wait.</p>\n</body>\n</html>\n";
        let got = lines(html);
        let want = "\n\n\nGuide\n\n\n\n\n\n\n\n\nInstall\nRun make & wait.\n\n\n";
        assert_eq!(got, want);
        assert_eq!(got.split('\n').count(), html.split('\n').count());
    }

    #[test]
    fn block_tags_on_one_line_become_spaces() {
        assert_eq!(lines("<tr><td>alpha</td><td>beta</td></tr>"), "alpha beta");
        assert_eq!(lines("<p>one<br>two</p>"), "one two");
        assert_eq!(lines("<b>bo</b>ld"), "bold");
    }

    #[test]
    fn comments_and_multiline_tags_keep_their_line_breaks() {
        let got = lines("a<!-- one\ntwo -->b\n<div\n class=\"x\">c</div>");
        assert_eq!(got, "a\nb\n\nc");
    }

    #[test]
    fn entities_decode_and_unknown_ones_stay() {
        assert_eq!(
            lines("caf&eacute; &#233;&#xE9; 10&nbsp;MB &bogus; a&b &lt;tag&gt;"),
            "café éé 10 MB &bogus; a&b <tag>"
        );
    }

    #[test]
    fn html5_entities_beyond_the_old_table() {
        // Greek letters, arrows, maths and a two-code-point entity: none was in
        // the former 138-name table, so they printed as written.
        assert_eq!(
        lines("&alpha;&beta; &check; &rArr; &NotEqualTilde; &Yuml; &amp;&AMP; &#X41;&#0; &#xD800;"),
        "αβ ✓ ⇒ \u{2242}\u{338} Ÿ && A&#0; &#xD800;"
    );
        // The spaces kept as plain spaces to search for.
        assert_eq!(lines("a&ensp;b&emsp;c&thinsp;d"), "a b c d");
    }

    #[test]
    fn stray_angle_brackets_and_unclosed_tags_do_not_lose_text() {
        assert_eq!(lines("if a < b then c"), "if a < b then c");
        assert_eq!(lines("text <unclosed"), "text");
        assert_eq!(lines("<SCRIPT>hidden()</SCRIPT>shown"), "shown");
        assert_eq!(lines("<a title='x > y'>link</a>"), "link");
    }

    #[test]
    fn block_layout_for_chapters() {
        let mut out = TextOut::new(Format::Epub, 1 << 20);
        block_text(
        "<html><head><title>Ch 1</title></head><body><h1>Chapter   One</h1>\n<p>It was a\n  dark night.</p><p>Then&#160;dawn.</p></body></html>",
        &mut out,
    )
    .unwrap();
        assert_eq!(
            out.finish(),
            "Chapter One\nIt was a dark night.\nThen dawn.\n"
        );
    }

    #[test]
    fn oversized_text_is_an_error() {
        let limits = Limits {
            max_text_bytes: 10,
            ..Limits::DEFAULT
        };
        let err = convert(b"<p>more than ten bytes of text</p>", &limits).unwrap_err();
        assert!(matches!(err, ConvertError::TooLarge(_)), "{err}");
    }
}
