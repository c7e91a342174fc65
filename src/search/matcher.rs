//! A `grep_matcher::Matcher` that finds query terms as whole code sub-words.
//!
//! An Aho-Corasick automaton (leftmost-longest, over the lower, Capitalised and
//! UPPER casings of each pattern) finds where a term's stem or word occurs; each occurrence is then checked against the code
//! word around it: it must begin a sub-word (after a non-letter, `_`, or a
//! camelCase/acronym boundary) and that sub-word must share the term's stem. So
//! `retry` matches `retry_count`, `maxRetry`, `RETRIES` and `retrying`, while
//! `rust` never matches inside `trust`. Boundaries are checked after matching,
//! which keeps the automaton small and fast.
//!
//! Also the matcher of a literal or regex query ([`exact`]): ripgrep's, with
//! the query's `-i` and `-w`, or with `-P` fancy-regex's ([`super::fancy`]).

use std::cell::RefCell;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use grep_matcher::{LineTerminator, Match, Matcher, NoCaptures, NoError};

use anyhow::Context;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};

use crate::query::{self, Matching, Query, QueryKind, Term};

/// Endings that may follow a term's stem in a code word and still mean the same
/// thing (`parse` → `parser`, `parsing`). The stemmer handles most inflections;
/// these catch agent nouns and forms it keeps apart.
const SUFFIXES: &[&str] = &[
    "", "e", "s", "es", "ed", "er", "ers", "ing", "ings", "ion", "ions", "ation", "ations", "able",
];

/// Sub-words longer than this are not stemmed: minified blobs and base64 are not
/// words, and stemming them only costs time.
pub const MAX_WORD_LEN: usize = 64;

/// An identifier term longer than this (its parts and the joins between
/// them) is not looked for whole: no code spells one so long, and the
/// automaton's cost grows with the square of a repetitive pattern's length
/// (`retry.retry.…`, 10,000 bytes typed, took half a minute to build). Its
/// parts are still searched as words.
pub const MAX_IDENTIFIER_LEN: usize = 4 * MAX_WORD_LEN;

/// The stemmer never removes more than this many bytes from an English word
/// (`-ization` plus a plural), so longer words cannot share a shorter stem.
const MAX_STRIPPED: usize = 9;

/// One verified occurrence of a term in a haystack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermMatch {
    /// Index of the term in the query's term list.
    pub term: usize,
    /// Byte range of the matched sub-word.
    pub start: usize,
    pub end: usize,
}

/// Patterns up to this many bytes are searched by a second, small automaton.
/// Teddy, the SIMD prefilter, compares as many leading bytes as the shortest
/// pattern has (at most 3 or 4): one 2-letter synonym (`sz`) made every `co`,
/// `se` and `le` in a tree a candidate, and Teddy took 30% of a search. A
/// 3-letter one (`len`, `cfg`) kept it at 3 bytes, and with more patterns
/// than its slim form holds: the cargo pool query's first 1,000 files cost
/// as much as the 6,000 after them, once `len` was dropped as too common.
/// With 3-letter patterns here too: 732-743 M -> 702-716 M instructions on
/// that query, the kernel's 5.19 G -> 5.12 G, outputs identical.
const SHORT_PATTERN_MAX: usize = 3;

/// Matches a set of terms as code sub-words, and identifier terms as whole
/// identifiers.
#[derive(Clone, Debug)]
pub struct TermMatcher {
    /// Patterns longer than `SHORT_PATTERN_MAX`.
    long: Option<Patterns>,
    /// The short ones, searched only where the long ones leave off.
    short: Option<Patterns>,
    /// Identifier terms (`Term::parts`), searched by their own automaton.
    identifiers: Option<Identifiers>,
    stems: Vec<String>,
}

/// The spellings of identifier terms and the term each stands for.
#[derive(Clone, Debug)]
struct Identifiers {
    automaton: AhoCorasick,
    terms: Vec<usize>,
}

/// How the parts of an identifier are joined in code: `snake_case` and
/// `SCREAMING_CASE`, `kebab-case`, `camelCase`/`PascalCase`/`flatcase` (no
/// separator; the automaton ignores ASCII case), paths (`std::fs::read`) and
/// attribute chains (`os.path.join`).
const IDENTIFIER_JOINS: &[&str] = &["_", "-", "", "::", "."];

impl Identifiers {
    fn build(terms: &[Term], keep: &[bool]) -> anyhow::Result<Option<Identifiers>> {
        let mut patterns: Vec<String> = Vec::new();
        let mut owners: Vec<usize> = Vec::new();
        for (i, term) in terms.iter().enumerate() {
            if !term.is_identifier() || !keep.get(i).copied().unwrap_or(false) {
                continue;
            }
            // As for words (`is_searchable`): a part too long to be a code
            // word would cost the automaton the square of its length.
            if term.parts.iter().any(|p| p.len() > MAX_WORD_LEN) {
                continue;
            }
            let joined: usize = term.parts.iter().map(|p| p.len() + 2).sum();
            if joined > MAX_IDENTIFIER_LEN {
                continue;
            }
            let as_spelled = spelled_identifier(term);
            for join in IDENTIFIER_JOINS {
                let casings = identifier_casings(&term.parts, join);
                for pattern in casings.into_iter().chain(as_spelled.clone()) {
                    if !patterns.contains(&pattern) {
                        patterns.push(pattern);
                        owners.push(i);
                    }
                }
            }
        }
        if patterns.is_empty() {
            return Ok(None);
        }
        // The spellings code uses, case-sensitively: an ASCII-case-blind
        // automaton loses its SIMD prefilter (every `t` or `r` of a tree was
        // a candidate for `time_out` or `re_try`: 70% of a kernel search).
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&patterns)?;
        Ok(Some(Identifiers {
            automaton,
            terms: owners,
        }))
    }

    /// Calls `f` for each whole-identifier occurrence at or after `at`, in
    /// order, until it returns false. An occurrence starts a code sub-word and
    /// ends where one ends (an inflection such as `register_blueprints` is
    /// kept; a longer word such as `prog_namespace` is not).
    fn for_each(&self, haystack: &[u8], at: usize, mut f: impl FnMut(TermMatch) -> bool) {
        let input = aho_corasick::Input::new(haystack).span(at..haystack.len());
        for candidate in self.automaton.find_iter(input) {
            let start = candidate.start();
            if !starts_sub_word(haystack, start) {
                continue;
            }
            let Some(end) = identifier_end(haystack, candidate.end()) else {
                continue;
            };
            let Some(&term) = self.terms.get(candidate.pattern().as_usize()) else {
                continue;
            };
            if !f(TermMatch { term, start, end }) {
                return;
            }
        }
    }
}

/// Where an identifier matched up to `end` really ends: at `end` when a new
/// sub-word (or no word) follows, after a known inflection (`s`, `ed`, …)
/// that completes the last sub-word, `None` when the word goes on.
fn identifier_end(h: &[u8], end: usize) -> Option<usize> {
    let mut j = end;
    while h.get(j).is_some_and(u8::is_ascii_lowercase) {
        j += 1;
    }
    let rest = &h[end..j];
    let closed = j == h.len() || !h[j].is_ascii_alphanumeric() || starts_sub_word(h, j);
    (closed && SUFFIXES.iter().any(|s| s.as_bytes() == rest)).then_some(j)
}

/// An automaton and, for each of its patterns, the terms it stands for.
#[derive(Clone, Debug)]
struct Patterns {
    automaton: AhoCorasick,
    terms: Vec<Vec<usize>>,
}

impl Patterns {
    /// `None` when there is no pattern to search.
    fn build(patterns: &[String], terms: &[Vec<usize>]) -> anyhow::Result<Option<Patterns>> {
        if patterns.is_empty() {
            return Ok(None);
        }
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .build(patterns)?;
        Ok(Some(Patterns {
            automaton,
            terms: terms.to_vec(),
        }))
    }
}

/// Whether a term is matched as written rather than as an English code
/// sub-word: a word with non-ASCII letters (`größe`, `données`, `客户`),
/// which the stemmer and the ASCII sub-word rules know nothing of. A CJK
/// term matches anywhere in a run of CJK text (it has no spaces); any other
/// such word matches where no letter or digit glues it to a longer word.
fn is_raw(term: &Term) -> bool {
    !term.text.is_ascii()
}

/// The spellings a raw term is searched in: as typed in lowercase,
/// Capitalised and in CAPITALS (Unicode casing; CJK has none).
fn raw_casings(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut chars = lower.chars();
    let capital: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    let upper = lower.to_uppercase();
    let mut out = vec![lower];
    for other in [capital, upper] {
        if !out.contains(&other) {
            out.push(other);
        }
    }
    out
}

/// The character that ends right before byte `pos` of `h`, if `h` is UTF-8 there.
fn char_before(h: &[u8], pos: usize) -> Option<char> {
    let start = (pos.saturating_sub(4)..pos).find(|&i| {
        h.get(i).is_some_and(|&b| (b & 0xC0) != 0x80)
            && std::str::from_utf8(&h[i..pos]).is_ok_and(|s| s.chars().count() == 1)
    })?;
    std::str::from_utf8(&h[start..pos]).ok()?.chars().next()
}

/// The character that starts at byte `pos` of `h`, if `h` is UTF-8 there.
fn char_at(h: &[u8], pos: usize) -> Option<char> {
    let end =
        (pos + 1..=(pos + 4).min(h.len())).find(|&e| std::str::from_utf8(&h[pos..e]).is_ok())?;
    std::str::from_utf8(&h[pos..end]).ok()?.chars().next()
}

/// Where a raw term's occurrence `start..end` really is one: anywhere for
/// CJK text, else with no letter or digit glued on either side (a
/// camelCase capital after it starts a new word).
fn raw_match_holds(h: &[u8], start: usize, end: usize) -> bool {
    let first = std::str::from_utf8(&h[start..end])
        .ok()
        .and_then(|s| s.chars().next());
    if first.is_some_and(|c| query::cjk_script(c).is_some()) {
        return true;
    }
    let glued_before = char_before(h, start).is_some_and(char::is_alphanumeric);
    let glued_after = char_at(h, end).is_some_and(|c| c.is_alphanumeric() && !c.is_uppercase());
    !glued_before && !glued_after
}

impl TermMatcher {
    /// Builds a matcher for the given terms. Errors only if the automaton cannot be
    /// built (far more patterns than a query produces).
    pub fn new(terms: &[Term]) -> anyhow::Result<TermMatcher> {
        TermMatcher::subset(terms, &vec![true; terms.len()])
    }

    /// A matcher for the terms where `keep` is true; occurrences still carry
    /// their index in `terms`, and `term_count` is still `terms.len()`.
    pub fn subset(terms: &[Term], keep: &[bool]) -> anyhow::Result<TermMatcher> {
        let mut patterns: Vec<String> = Vec::new();
        let mut pattern_terms: Vec<Vec<usize>> = Vec::new();
        let kept = terms
            .iter()
            .enumerate()
            .filter(|(i, t)| keep.get(*i).copied().unwrap_or(false) && !t.is_identifier());
        for (i, term) in kept {
            if !is_searchable(term) {
                continue;
            }
            let spellings: Vec<String> = if is_raw(term) {
                raw_casings(&term.text)
            } else {
                search_patterns(term)
                    .iter()
                    .flat_map(|p| casings(p))
                    .collect()
            };
            for pattern in spellings {
                match patterns.iter().position(|p| *p == pattern) {
                    Some(existing) => pattern_terms[existing].push(i),
                    None => {
                        patterns.push(pattern);
                        pattern_terms.push(vec![i]);
                    }
                }
            }
        }
        let (mut long, mut short) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
        for (pattern, its_terms) in patterns.into_iter().zip(pattern_terms) {
            let part = if pattern.len() > SHORT_PATTERN_MAX {
                &mut long
            } else {
                &mut short
            };
            part.0.push(pattern);
            part.1.push(its_terms);
        }
        Ok(TermMatcher {
            long: Patterns::build(&long.0, &long.1)?,
            short: Patterns::build(&short.0, &short.1)?,
            identifiers: Identifiers::build(terms, keep)?,
            stems: terms.iter().map(|t| t.stem.clone()).collect(),
        })
    }

    /// Number of terms this matcher knows.
    pub fn term_count(&self) -> usize {
        self.stems.len()
    }

    /// Every verified term occurrence in `haystack`, in order of start (a
    /// whole identifier before the sub-words it holds).
    pub fn find_all(&self, haystack: &[u8]) -> Vec<TermMatch> {
        let mut out = Vec::new();
        self.for_each(haystack, 0, |m| {
            out.push(m);
            true
        });
        if let Some(identifiers) = &self.identifiers {
            let words = out.len();
            identifiers.for_each(haystack, 0, |m| {
                out.push(m);
                true
            });
            if out.len() > words {
                out.sort_by_key(|m| (m.start, std::cmp::Reverse(m.end)));
            }
        }
        out
    }

    /// Calls `f` for every occurrence, words and whole identifiers, in no
    /// particular order (for counting).
    pub fn for_every(&self, haystack: &[u8], mut f: impl FnMut(TermMatch)) {
        self.for_each(haystack, 0, |m| {
            f(m);
            true
        });
        if let Some(identifiers) = &self.identifiers {
            identifiers.for_each(haystack, 0, |m| {
                f(m);
                true
            });
        }
    }

    /// The first occurrence, word or whole identifier, at or after `at`.
    pub fn find_first(&self, haystack: &[u8], at: usize) -> Option<TermMatch> {
        let mut word = None;
        self.for_each(haystack, at, |m| {
            word = Some(m);
            false
        });
        let mut identifier = None;
        if let Some(identifiers) = &self.identifiers {
            identifiers.for_each(haystack, at, |m| {
                identifier = Some(m);
                false
            });
        }
        match (word, identifier) {
            (Some(w), Some(i)) => Some(if i.start <= w.start { i } else { w }),
            (w, i) => w.or(i),
        }
    }

    /// Calls `f` for each verified occurrence at or after `at`, in order, until
    /// it returns false. Each automaton's next verified occurrence is kept
    /// until it is passed; a short one that a long one covers (or ends right
    /// before) is searched again from the long one's end, as if the short
    /// patterns were searched only in the gaps the long ones leave. Searching
    /// them gap by gap instead cost one short search per long occurrence: as
    /// much as the long automaton itself where a 2-letter synonym (`sz`)
    /// rides along with a common word (`config`).
    pub fn for_each(&self, haystack: &[u8], at: usize, mut f: impl FnMut(TermMatch) -> bool) {
        if at > haystack.len() {
            return;
        }
        let len = haystack.len();
        let mut next_long = self.next_in(self.long.as_ref(), haystack, at, len);
        let mut next_short = self.next_in(self.short.as_ref(), haystack, at, len);
        loop {
            let found = match (next_short, next_long) {
                (Some(s), Some(l)) if s.start < l.start => {
                    next_short = self.next_in(self.short.as_ref(), haystack, s.end, len);
                    s
                }
                (Some(s), None) => {
                    next_short = self.next_in(self.short.as_ref(), haystack, s.end, len);
                    s
                }
                (short, Some(l)) => {
                    next_long = self.next_in(self.long.as_ref(), haystack, l.end, len);
                    if short.is_some_and(|s| s.start < l.end + SHORT_PATTERN_MAX) {
                        next_short = self.next_in(self.short.as_ref(), haystack, l.end, len);
                    }
                    l
                }
                (None, None) => return,
            };
            if !f(found) {
                return;
            }
        }
    }

    /// The interleaving `for_each` replaced, kept to test it against: the
    /// short patterns searched gap by gap between long occurrences.
    #[cfg(test)]
    fn for_each_gap_by_gap(&self, haystack: &[u8], mut f: impl FnMut(TermMatch)) {
        let mut next_long = self.next_in(self.long.as_ref(), haystack, 0, haystack.len());
        let mut short_from = 0;
        loop {
            let bound = next_long.map_or(haystack.len(), |m| m.start);
            let found = match self.next_in(self.short.as_ref(), haystack, short_from, bound) {
                Some(m) => m,
                None => {
                    let Some(m) = next_long else { return };
                    next_long = self.next_in(self.long.as_ref(), haystack, m.end, haystack.len());
                    m
                }
            };
            short_from = found.end;
            f(found);
        }
    }

    /// The first verified occurrence of `patterns` that starts in `from..bound`.
    fn next_in(
        &self,
        patterns: Option<&Patterns>,
        haystack: &[u8],
        from: usize,
        bound: usize,
    ) -> Option<TermMatch> {
        let patterns = patterns?;
        if from >= bound {
            return None;
        }
        // A pattern starting before `bound` may end after it; the longest one
        // searched here ends at most this far past (the long ones: the end).
        let end = if bound == haystack.len() {
            bound
        } else {
            (bound + SHORT_PATTERN_MAX).min(haystack.len())
        };
        let input = aho_corasick::Input::new(haystack).span(from..end);
        for candidate in patterns.automaton.find_iter(input) {
            let start = candidate.start();
            if start >= bound {
                return None;
            }
            let terms = patterns.terms.get(candidate.pattern().as_usize())?;
            // A pattern with non-ASCII letters is a raw term's (the others'
            // are ASCII); what matched is the pattern.
            if !haystack[start..candidate.end()].is_ascii() {
                if raw_match_holds(haystack, start, candidate.end()) {
                    return Some(TermMatch {
                        term: *terms.first()?,
                        start,
                        end: candidate.end(),
                    });
                }
                continue;
            }
            if !starts_sub_word(haystack, start) {
                continue;
            }
            let word_end = sub_word_end(haystack, start);
            if let Some(term) = self.term_of(terms, &haystack[start..word_end]) {
                return Some(TermMatch {
                    term,
                    start,
                    end: word_end,
                });
            }
        }
        None
    }

    /// Which of the pattern's terms (if any) the sub-word really is. Cheap checks
    /// first (the stem plus a known ending), the stemmer only when they fail.
    fn term_of(&self, terms: &[usize], word: &[u8]) -> Option<usize> {
        if word.len() > MAX_WORD_LEN || !word.is_ascii() {
            return None;
        }
        let mut buf = [0u8; MAX_WORD_LEN];
        let lower = &mut buf[..word.len()];
        lower.copy_from_slice(word);
        lower.make_ascii_lowercase();
        let lower: &[u8] = lower;
        let by_suffix = terms.iter().copied().find(|&t| {
            let stem = self.stems[t].as_bytes();
            lower
                .strip_prefix(stem)
                .is_some_and(|rest| SUFFIXES.iter().any(|s| s.as_bytes() == rest))
        });
        if by_suffix.is_some() {
            return by_suffix;
        }
        let plausible = terms
            .iter()
            .any(|&t| lower.len() <= self.stems[t].len() + MAX_STRIPPED);
        if !plausible {
            return None;
        }
        with_stem(lower, |word_stem| {
            terms.iter().copied().find(|&t| word_stem == self.stems[t])
        })?
    }
}

/// Words whose stems a thread remembers; the cache starts over when full.
/// A tree repeats its words (`CONFIG` in every kernel file, which the
/// stemmer was asked about each time: 11% of a search).
const STEM_CACHE_WORDS: usize = 4096;

/// Calls `f` with the stem of `lower` (ASCII, lowercase), from the cache when
/// this thread has stemmed it before; `None` if it is not UTF-8.
fn with_stem<R>(lower: &[u8], f: impl FnOnce(&str) -> R) -> Option<R> {
    thread_local! {
        static STEMS: RefCell<foldhash::HashMap<Box<[u8]>, Box<str>>> = RefCell::default();
    }
    STEMS.with(|cell| {
        let Ok(mut stems) = cell.try_borrow_mut() else {
            return Some(f(&query::stem(std::str::from_utf8(lower).ok()?)));
        };
        if let Some(stem) = stems.get(lower) {
            return Some(f(stem));
        }
        let stem = query::stem(std::str::from_utf8(lower).ok()?);
        if stems.len() >= STEM_CACHE_WORDS {
            stems.clear();
        }
        let result = f(&stem);
        stems.insert(lower.into(), stem.into_boxed_str());
        Some(result)
    })
}

/// Whether a term can match at all. `term_of` refuses every sub-word longer
/// than `MAX_WORD_LEN`, so a longer term could never be verified; leaving it
/// out of the automaton also bounds what one hostile query word costs, since an
/// automaton's build time grows with the square of a pattern's length (one
/// 8,000-byte word took 2.8 s, 100,000 bytes over a minute).
pub fn is_searchable(term: &Term) -> bool {
    term.stem.len() <= MAX_WORD_LEN && term.text.len() <= MAX_WORD_LEN
}

/// What the automaton looks for: the stem and the query word itself, and for a
/// stem ending in `i` its `y` form (`retri`: `retry`, `retrying`, `retries`).
/// Every inflected form of a word contains one of them, and a short shared
/// prefix (`retr`, which every `return` holds) would flood the verifier.
fn search_patterns(term: &Term) -> Vec<String> {
    let mut out = vec![term.stem.clone()];
    if let Some(base) = term.stem.strip_suffix('i') {
        out.push(format!("{base}y"));
    }
    if !term.text.contains(term.stem.as_str()) {
        out.push(term.text.clone());
    }
    out.retain(|p| !p.is_empty());
    out.dedup();
    out
}

/// An identifier term's own spelling when the casings of its parts may not
/// hold it: a corpus identifier found from a run-together query word keeps
/// the case it is written in (`ShouldBindJSON`, whose acronym no casing of
/// should, bind, json spells). `None` for a lowercase spelling.
fn spelled_identifier(term: &Term) -> Option<String> {
    let text = &term.text;
    let code_like = text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (code_like && text.bytes().any(|b| b.is_ascii_uppercase())).then(|| text.clone())
}

/// The casings a code sub-word comes in: `retry`, `Retry` (camelCase parts,
/// type names) and `RETRY` (constants). Searching these three case-sensitively
/// instead of asking the automaton for ASCII case-insensitivity keeps its SIMD
/// prefilter: measured 10x faster (4.6 GB/s against 0.46 GB/s) on kernel
/// sources. Only oddities such as `rEtRy` are missed.
/// The casings code writes an identifier's parts in, joined by `join`:
/// lower (`re_try`, `retry`), upper (`RE_TRY`), each part capitalised
/// (`ReTry`, `Re_Try`) and camel (`reTry`).
fn identifier_casings(parts: &[String], join: &str) -> Vec<String> {
    let capitalised = |p: &String| {
        let mut c = p.to_ascii_lowercase();
        if let Some(first) = c.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        c
    };
    let lower: Vec<String> = parts.iter().map(|p| p.to_ascii_lowercase()).collect();
    let upper: Vec<String> = parts.iter().map(|p| p.to_ascii_uppercase()).collect();
    let pascal: Vec<String> = parts.iter().map(capitalised).collect();
    let camel: Vec<String> = lower
        .iter()
        .take(1)
        .cloned()
        .chain(parts.iter().skip(1).map(capitalised))
        .collect();
    let mut out: Vec<String> = Vec::new();
    for spelled in [lower, upper, pascal, camel] {
        let joined = spelled.join(join);
        if !out.contains(&joined) {
            out.push(joined);
        }
    }
    out
}

fn casings(pattern: &str) -> Vec<String> {
    let lower = pattern.to_ascii_lowercase();
    let mut capital = lower.clone();
    if let Some(first) = capital.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    let upper = lower.to_ascii_uppercase();
    let mut out = vec![lower, capital, upper];
    out.dedup();
    out
}

/// Whether a code sub-word begins at `pos`: start of text, after a non-alphanumeric
/// byte, after a lowercase letter or digit when this is uppercase (camelCase), or
/// inside an acronym run when this uppercase letter starts a capitalised word
/// (`HTTPServer`: `Server` begins at `S`).
pub fn starts_sub_word(h: &[u8], pos: usize) -> bool {
    if pos == 0 || pos > h.len() {
        return pos == 0;
    }
    let prev = h[pos - 1];
    let cur = h.get(pos).copied().unwrap_or(b' ');
    if !prev.is_ascii_alphanumeric() {
        // Non-ASCII letters before a match glue it to a longer (non-ASCII)
        // word, but CJK text has no spaces: `客户端IP` holds the word `IP`.
        return prev < 0x80 || char_before(h, pos).is_some_and(|c| query::cjk_script(c).is_some());
    }
    if cur.is_ascii_uppercase() && (prev.is_ascii_lowercase() || prev.is_ascii_digit()) {
        return true;
    }
    if cur.is_ascii_uppercase() && prev.is_ascii_uppercase() {
        return h.get(pos + 1).is_some_and(u8::is_ascii_lowercase);
    }
    cur.is_ascii_digit() != prev.is_ascii_digit() && !cur.is_ascii_digit()
}

/// Where the sub-word starting at `start` ends: the next non-alphanumeric byte, a
/// lower→upper case change, a letter/digit change, or an acronym's end.
pub fn sub_word_end(h: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < h.len() {
        let (prev, cur) = (h[i - 1], h[i]);
        if !cur.is_ascii_alphanumeric() {
            break;
        }
        if prev.is_ascii_lowercase() && cur.is_ascii_uppercase() {
            break;
        }
        if prev.is_ascii_digit() != cur.is_ascii_digit() {
            break;
        }
        if prev.is_ascii_uppercase()
            && cur.is_ascii_uppercase()
            && h.get(i + 1).is_some_and(u8::is_ascii_lowercase)
        {
            break;
        }
        i += 1;
    }
    i.min(h.len())
}

impl Matcher for TermMatcher {
    type Captures = NoCaptures;
    type Error = NoError;

    fn find_at(&self, haystack: &[u8], at: usize) -> Result<Option<Match>, NoError> {
        Ok(self
            .find_first(haystack, at)
            .map(|m| Match::new(m.start, m.end)))
    }

    fn new_captures(&self) -> Result<NoCaptures, NoError> {
        Ok(NoCaptures::new())
    }

    /// Terms are letters and digits, so a match never holds a line break: this
    /// lets grep-searcher run the automaton over whole buffers instead of line by
    /// line.
    fn line_terminator(&self) -> Option<LineTerminator> {
        Some(LineTerminator::byte(b'\n'))
    }
}

/// The matcher of a literal or regex query: ripgrep's regex engine, or with
/// `-P` fancy-regex's ([`super::fancy`]).
#[derive(Debug)]
pub enum ExactMatcher {
    Regex(RegexMatcher),
    Fancy(super::fancy::FancyMatcher),
}

/// The groups of an [`ExactMatcher`]'s match, from the engine that found it.
#[derive(Debug)]
pub enum ExactCaptures {
    Regex(grep_regex::RegexCaptures),
    Fancy(super::fancy::SlotCaptures),
}

impl grep_matcher::Captures for ExactCaptures {
    fn len(&self) -> usize {
        match self {
            ExactCaptures::Regex(c) => c.len(),
            ExactCaptures::Fancy(c) => c.len(),
        }
    }

    fn get(&self, i: usize) -> Option<Match> {
        match self {
            ExactCaptures::Regex(c) => c.get(i),
            ExactCaptures::Fancy(c) => c.get(i),
        }
    }
}

/// Why an [`ExactMatcher`] could not decide a match (only `-P`'s engine
/// ever says so).
pub type ExactError = super::fancy::FancyError;

fn never(e: NoError) -> ExactError {
    // NoError is never made; the conversion only satisfies the types.
    super::fancy::FancyError::from(e.to_string())
}

/// Every method ripgrep's matcher speeds the search up with is passed on to
/// it, so the default engine searches exactly as fast as before.
impl Matcher for ExactMatcher {
    type Captures = ExactCaptures;
    type Error = ExactError;

    fn find_at(&self, haystack: &[u8], at: usize) -> Result<Option<Match>, ExactError> {
        match self {
            ExactMatcher::Regex(m) => m.find_at(haystack, at).map_err(never),
            ExactMatcher::Fancy(m) => m.find_at(haystack, at),
        }
    }

    fn new_captures(&self) -> Result<ExactCaptures, ExactError> {
        match self {
            ExactMatcher::Regex(m) => m.new_captures().map(ExactCaptures::Regex).map_err(never),
            ExactMatcher::Fancy(m) => m.new_captures().map(ExactCaptures::Fancy),
        }
    }

    fn capture_count(&self) -> usize {
        match self {
            ExactMatcher::Regex(m) => m.capture_count(),
            ExactMatcher::Fancy(m) => m.capture_count(),
        }
    }

    fn capture_index(&self, name: &str) -> Option<usize> {
        match self {
            ExactMatcher::Regex(m) => m.capture_index(name),
            ExactMatcher::Fancy(m) => m.capture_index(name),
        }
    }

    fn captures_at(
        &self,
        haystack: &[u8],
        at: usize,
        caps: &mut ExactCaptures,
    ) -> Result<bool, ExactError> {
        match (self, caps) {
            (ExactMatcher::Regex(m), ExactCaptures::Regex(c)) => {
                m.captures_at(haystack, at, c).map_err(never)
            }
            (ExactMatcher::Fancy(m), ExactCaptures::Fancy(c)) => m.captures_at(haystack, at, c),
            // Captures come from `new_captures` of the same matcher.
            _ => Ok(false),
        }
    }

    fn try_find_iter<F, E>(&self, haystack: &[u8], matched: F) -> Result<Result<(), E>, ExactError>
    where
        F: FnMut(Match) -> Result<bool, E>,
    {
        match self {
            ExactMatcher::Regex(m) => m.try_find_iter(haystack, matched).map_err(never),
            ExactMatcher::Fancy(m) => m.try_find_iter(haystack, matched),
        }
    }

    fn shortest_match_at(&self, haystack: &[u8], at: usize) -> Result<Option<usize>, ExactError> {
        match self {
            ExactMatcher::Regex(m) => m.shortest_match_at(haystack, at).map_err(never),
            ExactMatcher::Fancy(m) => m.shortest_match_at(haystack, at),
        }
    }

    fn non_matching_bytes(&self) -> Option<&grep_matcher::ByteSet> {
        match self {
            ExactMatcher::Regex(m) => m.non_matching_bytes(),
            ExactMatcher::Fancy(_) => None,
        }
    }

    fn line_terminator(&self) -> Option<LineTerminator> {
        match self {
            ExactMatcher::Regex(m) => m.line_terminator(),
            // No promise that a match never holds a line end: the searcher
            // then hands it one line at a time (as rg -P without -U).
            ExactMatcher::Fancy(_) => None,
        }
    }

    fn find_candidate_line(
        &self,
        haystack: &[u8],
    ) -> Result<Option<grep_matcher::LineMatchKind>, ExactError> {
        match self {
            ExactMatcher::Regex(m) => m.find_candidate_line(haystack).map_err(never),
            ExactMatcher::Fancy(m) => m.find_candidate_line(haystack),
        }
    }
}

/// Whether `-U` lets `matcher`'s matches run over lines, as rg decides it
/// (`Searcher::multi_line_with_matcher`: `-U`, and a pattern that can match
/// a `\n`, `foo\nbar` or `$`): its search then hands on runs of lines,
/// which rg prints, counts and caps (`-m`) as runs. Not `--invert-match`'s
/// lines, which hold no match.
pub fn matches_over_lines(matcher: &ExactMatcher, matching: &Matching) -> bool {
    let terminator = if matching.null_data { 0 } else { b'\n' };
    matching.multiline
        && !matching.invert
        && grep_searcher::SearcherBuilder::new()
            .multi_line(true)
            .line_terminator(LineTerminator::byte(terminator))
            .build()
            .multi_line_with_matcher(matcher)
}

/// The matcher of a literal or regex query (`None` for natural language),
/// with its `-i`, `-S`, `-w`, `-x` and `-P`: the one home of how an exact query
/// matches, for the search and for the spans the printers colour.
pub fn exact(q: &Query) -> anyhow::Result<Option<ExactMatcher>> {
    let (text, fixed) = match &q.kind {
        QueryKind::Literal(text) => (text, true),
        QueryKind::Regex(text) => (text, false),
        QueryKind::Natural => return Ok(None),
    };
    if q.matching.pcre2 && !fixed {
        return super::fancy::FancyMatcher::new(text, &q.matching)
            .map(|m| Some(ExactMatcher::Fancy(m)))
            .map_err(|e| anyhow::anyhow!("invalid regex {text:?} (-P): {e}"));
    }
    let mut builder = RegexMatcherBuilder::new();
    builder
        .fixed_strings(fixed)
        .case_insensitive(q.matching.ignore_case)
        .case_smart(q.matching.smart_case)
        .word(q.matching.word && !q.matching.line)
        .whole_line(q.matching.line)
        // `^` and `$` hold at every line's ends, as in ripgrep, whose `-U`
        // this is for; without `-U` each line is matched on its own anyway.
        .multi_line(q.matching.multiline)
        .dot_matches_new_line(q.matching.multiline && q.matching.dotall)
        .unicode(!q.matching.ascii);
    if q.matching.null_data && !q.matching.multiline {
        // rg 13's `--null-data`: a line ends with a NUL, which no match
        // holds, and a `\n` in it is a byte like another, at which `^` and
        // `$` still hold (its regex is always multi-line).
        builder.multi_line(true).line_terminator(Some(b'\0'));
    }
    if let Some(bytes) = q.matching.size_limit {
        builder.size_limit(bytes);
    }
    if let Some(bytes) = q.matching.dfa_size_limit {
        builder.dfa_size_limit(bytes);
    }
    builder
        .build(text)
        .map(|m| Some(ExactMatcher::Regex(m)))
        .with_context(|| format!("invalid regex {text:?}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::query::analyze;

    fn matcher(q: &str) -> TermMatcher {
        TermMatcher::new(&analyze(q).terms).unwrap()
    }

    fn words_found(q: &str, text: &str) -> Vec<String> {
        matcher(q)
            .find_all(text.as_bytes())
            .into_iter()
            .map(|m| text[m.start..m.end].to_string())
            .collect()
    }

    /// The whole-identifier matches of a query in a text.
    fn identifiers_found(q: &str, text: &str) -> Vec<String> {
        let terms = analyze(q).terms;
        matcher(q)
            .find_all(text.as_bytes())
            .into_iter()
            .filter(|m| terms[m.term].is_identifier())
            .map(|m| text[m.start..m.end].to_string())
            .collect()
    }

    #[test]
    fn cjk_terms_match_inside_cjk_runs_and_latin_words_after_them() {
        assert_eq!(
            words_found("客户端IP在哪里计算", "// 计算客户端IP地址"),
            ["计算", "客户", "IP"],
            "户端 overlaps 客户 (leftmost-longest takes one)"
        );
        assert_eq!(words_found("ip", "客户端IP"), ["IP"]);
        assert!(
            words_found("ip", "éIP").is_empty(),
            "a non-CJK letter glues"
        );
    }

    #[test]
    fn words_with_non_ascii_letters_match_whole_and_as_written() {
        assert_eq!(
            words_found("größe", "größe Größe GRÖSSE größer xgröße"),
            ["größe", "Größe", "GRÖSSE"]
        );
        assert_eq!(words_found("données", "les données_brutes"), ["données"]);
    }

    #[test]
    fn a_query_identifier_matches_in_every_spelling() {
        let text =
            "prog_name progName ProgName PROG_NAME prog-name prog::name prog.name prognames \
                    Prog_Name PROGNAME";
        assert_eq!(
            identifiers_found("set prog_name early", text),
            vec![
                "prog_name",
                "progName",
                "ProgName",
                "PROG_NAME",
                "prog-name",
                "prog::name",
                "prog.name",
                "prognames",
                "Prog_Name",
                "PROGNAME"
            ]
        );
        assert_eq!(
            identifiers_found("prog_name here", "program_name prog_namespace xprog_name"),
            Vec::<String>::new()
        );
        assert_eq!(
            identifiers_found("the CliRunner", "class CliRunner: cli_runners = 1"),
            vec!["CliRunner", "cli_runners"]
        );
        assert_eq!(
            identifiers_found("Value::take it", "impl Value { fn take() }; value_take"),
            vec!["value_take"]
        );
    }

    #[test]
    fn identifier_matches_come_before_the_words_inside_them() {
        let m = matcher("set prog_name");
        let found = m.find_all(b"x = prog_name");
        let spans: Vec<(usize, usize)> = found.iter().map(|m| (m.start, m.end)).collect();
        assert_eq!(spans, vec![(4, 13), (4, 8), (9, 13)]);
        assert_eq!(
            m.find_first(b"x = prog_name", 0).map(|m| (m.start, m.end)),
            Some((4, 13))
        );
    }

    #[test]
    fn code_aware_boundaries() {
        assert_eq!(
            words_found("retry", "retry_count maxRetry RETRY retries retrying"),
            vec!["retry", "Retry", "RETRY", "retries", "retrying"]
        );
        assert!(words_found("rust", "trust entrusted").is_empty());
        assert_eq!(words_found("rust", "Rust rusty_thing"), vec!["Rust"]);
    }

    #[test]
    fn identifier_parts_match() {
        assert_eq!(
            words_found("parse jwt", "parseJwt parse_jwt JwtParser"),
            vec!["parse", "Jwt", "parse", "jwt", "Jwt", "Parser"]
        );
        assert_eq!(words_found("server", "HTTPServer"), vec!["Server"]);
        assert_eq!(words_found("http", "HTTPServer"), vec!["HTTP"]);
    }

    #[test]
    fn unrelated_words_sharing_a_prefix_do_not_match() {
        assert!(words_found("auth", "author authority").is_empty());
        assert!(words_found("connect", "connecticut").is_empty());
        assert_eq!(
            words_found("connection", "connect connected connections"),
            vec!["connect", "connected", "connections"]
        );
    }

    #[test]
    fn matcher_trait_finds_first_verified_match() {
        let m = matcher("rust");
        let hay = b"trust me, Rust is here";
        let found = m.find_at(hay, 0).unwrap().unwrap();
        assert_eq!(&hay[found.start()..found.end()], b"Rust");
        assert_eq!(m.find_at(hay, found.end()).unwrap(), None);
        assert_eq!(m.find_at(hay, hay.len() + 5).unwrap(), None);
    }

    #[test]
    fn short_and_long_patterns_interleave_in_order() {
        let text = "max_sz = size(sz); SZ_MAX resize, Sizes";
        assert_eq!(
            words_found("sz size", text),
            vec!["sz", "size", "sz", "SZ", "Sizes"]
        );
        let m = matcher("sz size");
        let first = m.find_at(text.as_bytes(), 9).unwrap().unwrap();
        assert_eq!(&text[first.start()..first.end()], "size");
        let next = m.find_at(text.as_bytes(), first.end()).unwrap().unwrap();
        assert_eq!(&text[next.start()..next.end()], "sz");
        assert_eq!(m.find_at(b"resize", 0).unwrap(), None);
    }

    #[test]
    fn boundaries() {
        assert!(starts_sub_word(b"maxRetry", 3));
        assert!(!starts_sub_word(b"trust", 1));
        assert!(starts_sub_word(b"a_b", 2));
        assert_eq!(sub_word_end(b"maxRetryCount", 3), 8);
        assert_eq!(sub_word_end(b"HTTPServer", 0), 4);
        assert_eq!(sub_word_end(b"v2api", 1), 2);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Keeping each automaton's next occurrence finds what searching the
        /// short patterns gap by gap found, on texts made of short and long
        /// terms that overlap, touch and change case.
        #[test]
        fn kept_occurrences_match_the_gap_by_gap_search(
            pieces in proptest::collection::vec(0..29usize, 0..60),
        ) {
            const PIECES: &[&str] = &[
                "io", "IO", "os", "OS", "ios", "iOS", "sz", "Sz", "size", "config", "Config",
                "conf", "s", "z", "o", "i", "_", " ", "\n", "x", "ides", "Ides", "id", "len",
                "Len", "length", "cfg", "CFG", "lens",
            ];
            let text: String = pieces.iter().map(|&p| PIECES[p]).collect();
            let m = matcher("io os sz size config id ide len length cfg");
            let mut kept = Vec::new();
            m.for_each(text.as_bytes(), 0, |t| {
                kept.push(t);
                true
            });
            let mut gaps = Vec::new();
            m.for_each_gap_by_gap(text.as_bytes(), |t| gaps.push(t));
            proptest::prop_assert_eq!(kept, gaps);
        }
    }
}
