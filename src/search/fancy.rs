//! `-P`/`--pcre2`: the regex engine for look-around and back-references,
//! where ripgrep links PCRE2. It is fancy-regex (pure Rust: no C library to
//! build or find), behind grep-matcher's `Matcher` so that the search, the
//! printers' spans and `--replace` use it as they use the default engine.
//!
//! Owns building the matcher from a pattern and the matching flags (`-i`,
//! `-S`, `-w`, `-x`, `-U`) and its match-time errors (a pattern that
//! backtracks past the engine's limit on a line). Does not decide which
//! engine a query gets (`matcher::exact`), nor read the query.

use std::fmt;

use fancy_regex::{Regex, RegexBuilder};
use grep_matcher::{Captures, Match, Matcher};

use crate::query::Matching;

/// A pattern compiled by fancy-regex, with its flags applied.
#[derive(Debug)]
pub struct FancyMatcher {
    re: Regex,
    /// Each group's name (`None` for the whole match and unnamed groups).
    names: Vec<Option<String>>,
}

/// Why a match could not be decided (fancy-regex gives up on a pattern that
/// backtracks too much, where PCRE2 would hit its own limit).
#[derive(Debug)]
pub struct FancyError(String);

impl fmt::Display for FancyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FancyError {}

impl From<String> for FancyError {
    fn from(message: String) -> FancyError {
        FancyError(message)
    }
}

/// The groups of one match: each group's byte range, or `None`.
#[derive(Clone, Debug, Default)]
pub struct SlotCaptures(Vec<Option<Match>>);

impl Captures for SlotCaptures {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, i: usize) -> Option<Match> {
        self.0.get(i).copied().flatten()
    }
}

impl FancyMatcher {
    /// Compiles `pattern` as `matching` asks: `-w` and `-x` wrap it as rg's
    /// PCRE2 mode does (`(?<!\w)…(?!\w)`, `^…$`), `-S` is case-insensitive
    /// unless the pattern spells an upper-case letter.
    pub fn new(pattern: &str, matching: &Matching) -> Result<FancyMatcher, FancyError> {
        let wrapped = if matching.line {
            format!("^(?:{pattern})$")
        } else if matching.word {
            format!(r"(?<!\w)(?:{pattern})(?!\w)")
        } else {
            pattern.to_string()
        };
        let ignore_case =
            matching.ignore_case || (matching.smart_case && !has_upper_case_literal(pattern));
        let mut builder = RegexBuilder::new(&wrapped);
        builder
            .case_insensitive(ignore_case)
            // `^` and `$` hold at every line's ends, as in ripgrep (a line
            // may come with its `\n`; with -U the text holds many).
            .multi_line(true)
            .dot_matches_new_line(matching.multiline && matching.dotall)
            .unicode_mode(!matching.ascii);
        if let Some(bytes) = matching.size_limit {
            builder.delegate_size_limit(bytes);
        }
        if let Some(bytes) = matching.dfa_size_limit {
            builder.delegate_dfa_size_limit(bytes);
        }
        let re = builder.build().map_err(|e| FancyError(e.to_string()))?;
        let names = re.capture_names().map(|n| n.map(str::to_string)).collect();
        Ok(FancyMatcher { re, names })
    }
}

/// Whether `pattern` is a regex only this engine runs, so that `--engine
/// auto` gives it this one: it writes look-around or a back-reference, the
/// default engine refuses it and this one compiles it. Text searched with
/// -F never is.
pub fn only_it_runs(pattern: &str, fixed: bool) -> bool {
    !fixed
        && crate::query::regex_only_syntax(pattern)
        && grep_regex::RegexMatcher::new(pattern).is_err()
        && Regex::new(pattern).is_ok()
}

/// Whether `pattern` spells an upper-case letter itself, not in an escape
/// (`\W`, `\S`) or a class name (`\p{Lu}`): `-S`'s test, as ripgrep's.
fn has_upper_case_literal(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('p' | 'P') => {
                    // `\pL` or `\p{Name}`.
                    if chars.next() == Some('{') {
                        for c in chars.by_ref() {
                            if c == '}' {
                                break;
                            }
                        }
                    }
                }
                _ => continue,
            },
            c if c.is_uppercase() => return true,
            _ => {}
        }
    }
    false
}

impl Matcher for FancyMatcher {
    type Captures = SlotCaptures;
    type Error = FancyError;

    fn find_at(&self, haystack: &[u8], at: usize) -> Result<Option<Match>, FancyError> {
        self.re
            .find_from_pos(haystack, at)
            .map(|m| m.map(|m| Match::new(m.start(), m.end())))
            .map_err(|e| FancyError(e.to_string()))
    }

    fn new_captures(&self) -> Result<SlotCaptures, FancyError> {
        Ok(SlotCaptures(vec![None; self.re.captures_len()]))
    }

    fn capture_count(&self) -> usize {
        self.re.captures_len()
    }

    fn capture_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.as_deref() == Some(name))
    }

    fn captures_at(
        &self,
        haystack: &[u8],
        at: usize,
        caps: &mut SlotCaptures,
    ) -> Result<bool, FancyError> {
        let found = self
            .re
            .captures_from_pos(haystack, at)
            .map_err(|e| FancyError(e.to_string()))?;
        let Some(found) = found else {
            return Ok(false);
        };
        caps.0 = (0..self.re.captures_len())
            .map(|i| found.get(i).map(|m| Match::new(m.start(), m.end())))
            .collect();
        Ok(true)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn spans(pattern: &str, matching: &Matching, text: &str) -> Vec<(usize, usize)> {
        let m = FancyMatcher::new(pattern, matching).unwrap();
        let mut out = Vec::new();
        m.find_iter(text.as_bytes(), |found| {
            out.push((found.start(), found.end()));
            true
        })
        .unwrap();
        out
    }

    #[test]
    fn look_around_and_back_references_match() {
        let plain = Matching::default();
        assert_eq!(
            spans("alpha(?= retry)", &plain, "alpha retry alpha"),
            [(0, 5)]
        );
        assert_eq!(spans(r"(?<=alpha )\w+", &plain, "alpha retry"), [(6, 11)]);
        assert_eq!(spans(r"(\w+) \1", &plain, "a retry retry b"), [(2, 13)]);
    }

    #[test]
    fn word_line_and_case_flags_hold() {
        let word = Matching {
            word: true,
            ..Matching::default()
        };
        assert_eq!(spans("retr", &word, "retry retr"), [(6, 10)]);
        let line = Matching {
            line: true,
            ..Matching::default()
        };
        assert!(spans("retr", &line, "retry").is_empty());
        assert_eq!(spans("retry", &line, "retry"), [(0, 5)]);
        let smart = Matching {
            smart_case: true,
            ..Matching::default()
        };
        assert_eq!(spans(r"retry\W", &smart, "RETRY!"), [(0, 6)]);
        assert!(spans("Retry", &smart, "RETRY").is_empty());
    }

    #[test]
    fn invalid_utf8_is_searched_around() {
        let m = FancyMatcher::new("retry", &Matching::default()).unwrap();
        let found = m.find(b"a\xff retry").unwrap().unwrap();
        assert_eq!((found.start(), found.end()), (3, 8));
    }

    #[test]
    fn named_groups_have_indexes() {
        let m = FancyMatcher::new(r"(?P<w>\w+)(?=!)", &Matching::default()).unwrap();
        assert_eq!(m.capture_index("w"), Some(1));
        let mut caps = m.new_captures().unwrap();
        assert!(m.captures_at(b"so fancy!", 0, &mut caps).unwrap());
        assert_eq!(caps.get(1), Some(Match::new(3, 8)));
    }

    #[test]
    fn a_bad_pattern_is_an_error() {
        assert!(FancyMatcher::new("(", &Matching::default()).is_err());
    }
}
