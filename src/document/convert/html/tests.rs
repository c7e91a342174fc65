#![allow(clippy::unwrap_used)]

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
