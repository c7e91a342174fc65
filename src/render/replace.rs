//! `--replace`: a match line's text with each match replaced, as `rg
//! --replace` prints it (`$1`, `${name}`, `$0`; `$$` for `$`).
//!
//! Owns the replaced text of the lines a search selected and where each
//! replacement sits in it (the spans the printer colours, `-o` prints and
//! `--vimgrep` counts columns in). Does not decide which lines print, nor
//! read the pattern (`search::matcher::exact` builds the matcher the search
//! used, so the same `-i`, `-w` and `-x` hold). The interpolation is
//! grep-matcher's, the one ripgrep's printer uses.

use std::collections::BTreeMap;
use std::ops::Range;

use grep_matcher::{Captures, Matcher};

/// A line's text after replacement, and the byte range of each replacement
/// in it (empty for an empty replacement: `-o` still prints it, as rg does).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replaced {
    pub text: Vec<u8>,
    pub spans: Vec<Range<usize>>,
}

/// Every match of `matcher` in `line` (no line end) replaced by
/// `replacement`; `None` when nothing matches on the line alone.
pub fn replace_line<M: Matcher>(matcher: &M, line: &[u8], replacement: &[u8]) -> Option<Replaced> {
    replace_past(matcher, line, 0, replacement)
}

/// [`replace_line`] on the part of `line` past its first `skip` bytes, which
/// are kept as they are (a UTF-8 byte-order mark the search skipped,
/// `document::skipped_bom`).
fn replace_past<M: Matcher>(
    matcher: &M,
    line: &[u8],
    skip: usize,
    replacement: &[u8],
) -> Option<Replaced> {
    let kept = line.get(..skip)?;
    let line = line.get(skip..)?;
    let mut caps = matcher.new_captures().ok()?;
    let mut out = Replaced {
        text: kept.to_vec(),
        spans: Vec::new(),
    };
    let mut last = 0;
    let mut any = false;
    let searched = matcher.captures_iter(line, &mut caps, |caps| {
        let Some(m) = caps.get(0) else {
            return true;
        };
        any = true;
        out.text.extend_from_slice(&line[last..m.start()]);
        let start = out.text.len();
        caps.interpolate(
            |name| matcher.capture_index(name),
            line,
            replacement,
            &mut out.text,
        );
        out.spans.push(start..out.text.len());
        last = m.end();
        true
    });
    if searched.is_err() || !any {
        return None;
    }
    out.text.extend_from_slice(&line[last..]);
    Some(out)
}

/// The replaced text of each of `lines` that matches, by line number, from
/// `(number, text)` pairs; line 1 past the `skip_first` bytes the search
/// skipped (a byte-order mark), which it keeps.
pub fn replace_lines<'t, M: Matcher>(
    matcher: &M,
    lines: impl IntoIterator<Item = (usize, &'t [u8])>,
    replacement: &str,
    skip_first: usize,
) -> BTreeMap<usize, Replaced> {
    lines
        .into_iter()
        .filter_map(|(n, text)| {
            let skip = if n == 1 { skip_first } else { 0 };
            Some((
                n,
                replace_past(matcher, text, skip, replacement.as_bytes())?,
            ))
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::single_range_in_vec_init)]
mod tests {
    use super::*;
    use grep_regex::RegexMatcherBuilder;

    fn replaced(pattern: &str, line: &str, with: &str) -> Option<(String, Vec<Range<usize>>)> {
        let m = RegexMatcherBuilder::new().build(pattern).unwrap();
        replace_line(&m, line.as_bytes(), with.as_bytes())
            .map(|r| (String::from_utf8(r.text).unwrap(), r.spans))
    }

    #[test]
    fn groups_names_and_dollars_interpolate_as_ripgrep_does() {
        // `rg -r '${1}x$2$$' '(al)(pha)'` on "alpha retry" prints "alxpha$ retry".
        assert_eq!(
            replaced("(al)(pha)", "alpha retry", "${1}x$2$$"),
            Some(("alxpha$ retry".to_string(), vec![0..7]))
        );
        assert_eq!(
            replaced("(?P<w>al)pha", "alpha", "${w}!"),
            Some(("al!".to_string(), vec![0..3]))
        );
        // An unknown group is empty, as in rg.
        assert_eq!(
            replaced("retry", "a retry", "$9"),
            Some(("a ".to_string(), vec![2..2]))
        );
    }

    #[test]
    fn every_match_is_replaced_and_its_place_kept() {
        assert_eq!(
            replaced("retry", "retry retry", "[$0]"),
            Some(("[retry] [retry]".to_string(), vec![0..7, 8..15]))
        );
        // Empty matches too: `rg -r X 'z*'` on "gamma" prints "XgXaXmXmXaX".
        assert_eq!(
            replaced("z*", "gamma", "X").map(|r| r.0),
            Some("XgXaXmXmXaX".to_string())
        );
    }

    #[test]
    fn a_line_without_a_match_has_no_replacement() {
        assert_eq!(replaced("retry", "nothing here", "X"), None);
    }

    #[test]
    fn word_matching_replaces_the_word_not_its_borders() {
        let m = RegexMatcherBuilder::new()
            .word(true)
            .build("retry")
            .unwrap();
        let r = replace_line(&m, b"a retry, retrying", b"<$0>").unwrap();
        assert_eq!(String::from_utf8(r.text).unwrap(), "a <retry>, retrying");
    }

    /// Line 1's skipped byte-order mark is kept and not searched: `^def`
    /// replaces the `def` after it, as the search matched it.
    #[test]
    fn a_skipped_mark_is_kept_before_the_replaced_line() {
        let m = RegexMatcherBuilder::new().build("^def").unwrap();
        let lines = [(1, &b"\xEF\xBB\xBFdef f"[..]), (2, &b"def g"[..])];
        let got = replace_lines(&m, lines, "fn", 3);
        assert_eq!(got[&1].text, b"\xEF\xBB\xBFfn f");
        assert_eq!(got[&1].spans, [3..5]);
        assert_eq!(got[&2].text, b"fn g");
        assert!(replace_lines(&m, [(1, &b"\xEF\xBB\xBFdef"[..])], "fn", 0).is_empty());
    }
}
