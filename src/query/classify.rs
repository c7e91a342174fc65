//! How a query is searched: exactly (a quoted string, an identifier, regex
//! syntax that compiles — like ripgrep) or as natural language; and what a
//! question asks for (`Ask`: a place, how it is done, what happens).
//!
//! Owns the literal/regex/natural decision and the tests it is made of
//! (`looks_like_regex`, `is_identifier_like`), and the question's form.
//! Does not own what a natural query's terms are (`query`), how a literal or
//! regex is matched (`search`), nor how a question's form weighs (`score`).

use super::{plain, terms_of_read, QueryKind, Term};

/// Decides how a query is searched. Natural language unless the query is clearly
/// code: a quoted string, an identifier, or regex syntax that compiles.
pub fn classify(raw: &str) -> QueryKind {
    classified(raw).0
}

/// A natural-language query as [`classified`] read it: its words
/// ([`plain`]), how it asks and its content terms before thesaurus
/// expansion.
pub(super) struct Read {
    pub(super) plain: String,
    pub(super) ask: Ask,
    pub(super) terms: Vec<Term>,
}

/// [`classify`], and for a natural-language query the reading that decided
/// it, so that [`super::analyze_with`] reads the query once.
pub(super) fn classified(raw: &str) -> (QueryKind, Option<Read>) {
    let trimmed = raw.trim();
    if let Some(inner) = quoted(trimmed) {
        return (QueryKind::Literal(inner.to_string()), None);
    }
    if looks_like_regex(trimmed) && grep_regex::RegexMatcher::new(trimmed).is_ok() {
        return (QueryKind::Regex(trimmed.to_string()), None);
    }
    // Only escapes (`\t`, `\$`, `\x20`, `\pL`, `\A`): no word is written,
    // so nothing reads as code or prose; a regex, as rg reads it.
    if escapes_only(trimmed) {
        return (QueryKind::Regex(trimmed.to_string()), None);
    }
    // Look-around is a regex's, never code's (`foo(?=bar)` is no call): read
    // as words, which the pipeline says (`notes`), not as the text it is.
    if is_identifier_like(trimmed) && !regex_only_syntax(trimmed) && !repeated_wordless(trimmed) {
        return (QueryKind::Literal(trimmed.to_string()), None);
    }
    let plain = plain(raw);
    let ask = Ask::of(raw);
    let terms = terms_of_read(&plain, ask);
    if terms.is_empty() && !trimmed.is_empty() {
        // No word, and regex syntax in one token (`$`, `.`, `x?`, `(x)?`,
        // `[.]`): a regex, as rg reads it.
        if wordless_regex(trimmed) {
            return (QueryKind::Regex(trimmed.to_string()), None);
        }
        // Only stop words or punctuation: nothing to rank, so search it as written.
        return (QueryKind::Literal(trimmed.to_string()), None);
    }
    (QueryKind::Natural, Some(Read { plain, ask, terms }))
}

/// Whether `classify` made the literal `literal` of a query that reads as
/// natural language but has no word worth searching (only stop words,
/// one-letter words or punctuation: "how do I", "the"), rather than of a
/// quoted string or an identifier. Such a search is capped and explained.
pub fn is_wordless(raw: &str, literal: &str) -> bool {
    let trimmed = raw.trim();
    literal == trimmed && quoted(trimmed).is_none() && !is_identifier_like(trimmed)
}

/// What the syntax tree of a regex holds, as far as reading a query
/// without words needs: any regex syntax (anything but letters written as
/// themselves), escapes, a letter or digit written as itself, a line break.
#[derive(Default)]
struct Written {
    syntax: bool,
    escape: bool,
    verbatim_word: bool,
    line_break: bool,
}

impl Written {
    /// How `s` is written, or `None` when it does not parse as a regex.
    fn of(s: &str) -> Option<Written> {
        use regex_syntax::ast::{self, Ast};
        struct Reader<'s> {
            text: &'s str,
            found: Written,
        }
        impl Reader<'_> {
            fn literal(&mut self, lit: &ast::Literal) {
                if lit.kind == ast::LiteralKind::Verbatim {
                    self.found.verbatim_word |= lit.c.is_alphanumeric();
                } else {
                    self.found.syntax = true;
                    self.found.escape = true;
                }
                self.found.line_break |= lit.c == '\n';
            }
        }
        impl ast::Visitor for Reader<'_> {
            type Output = Written;
            type Err = ();
            fn finish(self) -> Result<Written, ()> {
                Ok(self.found)
            }
            fn visit_pre(&mut self, node: &Ast) -> Result<(), ()> {
                match node {
                    Ast::Concat(_) => {}
                    Ast::Literal(lit) => self.literal(lit),
                    other => {
                        self.found.syntax = true;
                        let span = other.span();
                        let text = self.text.get(span.start.offset..span.end.offset);
                        self.found.escape |= text.is_some_and(|t| t.starts_with('\\'));
                    }
                }
                Ok(())
            }
            fn visit_class_set_item_pre(&mut self, item: &ast::ClassSetItem) -> Result<(), ()> {
                match item {
                    ast::ClassSetItem::Literal(lit) => self.literal(lit),
                    ast::ClassSetItem::Range(range) => {
                        self.literal(&range.start);
                        self.literal(&range.end);
                    }
                    _ => {}
                }
                Ok(())
            }
        }
        let tree = ast::parse::Parser::new().parse(s).ok()?;
        let reader = Reader {
            text: s,
            found: Written::default(),
        };
        ast::visit(&tree, reader).ok()
    }
}

/// A regex made of escapes only (`\t`, `\$`, `\(`, `\x20`, `\pL`, `\A`,
/// `\.+`), with no letter or digit written as itself, that the engine
/// compiles: what rg searches as the regex it is.
fn escapes_only(s: &str) -> bool {
    Written::of(s).is_some_and(|w| w.escape && !w.verbatim_word)
        && grep_regex::RegexMatcher::new(s).is_ok()
}

/// A query with no word to search for that is one token of regex syntax
/// the engine compiles (`$`, `.`, `x?`, `(x)?`, `[.]`, `()`): searched as
/// rg searches it. Not text with no regex syntax (`--`, `!`, `->`), words
/// with spaces between them ("what is g?" asks a question), nor a doubled
/// quantifier (`C++`, `i++`: names, as [`has_repetition`] says).
fn wordless_regex(s: &str) -> bool {
    let doubled = ["++", "**", "??", "+*", "*+"].iter().any(|d| s.contains(d));
    !s.contains(char::is_whitespace)
        && !doubled
        && Written::of(s).is_some_and(|w| w.syntax)
        && grep_regex::RegexMatcher::new(s).is_ok()
}

/// A token whose words are one letter each that ends in a quantifier
/// (`(x)?`, `(a|b)+`): a pattern, not a name, though its parenthesis looks
/// like a call's; a [`wordless_regex`] when the engine compiles it.
fn repeated_wordless(s: &str) -> bool {
    plain_words(s).all(|w| w.chars().count() == 1)
        && s.ends_with(['?', '*', '+'])
        && wordless_regex(s)
}

/// Whether the query `raw` (not quoted) writes a line break in regex
/// syntax that compiles (`foo\nbar`, `a\n`): with `-U` it is a regex,
/// as rg's pattern is, whatever words it holds.
pub(super) fn spans_lines(raw: &str) -> bool {
    let trimmed = raw.trim();
    quoted(trimmed).is_none()
        && Written::of(trimmed).is_some_and(|w| w.line_break)
        && grep_regex::RegexMatcherBuilder::new()
            .multi_line(true)
            .build(trimmed)
            .is_ok()
}

/// The text inside matching double or single quotes around the whole query.
fn quoted(s: &str) -> Option<&str> {
    let bytes = s.as_bytes();
    if bytes.len() < 3 {
        return None;
    }
    let (first, last) = (bytes[0], bytes[bytes.len() - 1]);
    if (first == b'"' || first == b'\'') && first == last {
        let inner = &s[1..s.len() - 1];
        if !inner.contains(first as char) {
            return Some(inner);
        }
    }
    None
}

/// Regex syntax that natural language does not produce: escapes such as `\b` or
/// `\d`, `.*`, character classes, anchors, alternation without spaces, repetition
/// counts, inline flags. A bare `?` or `*` is not enough ("what sets the timeout?").
pub fn looks_like_regex(s: &str) -> bool {
    if s.is_empty() {
        return false;
    }
    let escape = s.as_bytes().windows(2).any(|w| {
        w[0] == b'\\'
            && matches!(
                w[1],
                b'b' | b'B'
                    | b'd'
                    | b'D'
                    | b'w'
                    | b'W'
                    | b's'
                    | b'S'
                    | b'.'
                    | b'('
                    | b')'
                    | b'['
                    | b'|'
                    | b'+'
                    | b'*'
                    | b'?'
                    | b'{'
            )
    });
    // An ellipsis is prose ("the 'did you mean ...?' hint"), not `.?`.
    let no_ellipsis = s.replace("...", " ");
    let dot_repeat = [".*", ".+", ".?"].iter().any(|r| no_ellipsis.contains(r));
    let class = has_char_class(s) || (!s.contains(char::is_whitespace) && has_class_in_word(s));
    let anchors = s.starts_with('^') || (s.ends_with('$') && s.len() > 1 && !s.contains(' '));
    let alternation = s.contains('|') && !s.contains(" | ") && !s.contains(' ');
    let flags = s.starts_with("(?");
    let counts = has_repetition_count(s);
    let repeats = !s.contains(char::is_whitespace) && has_repetition(s);
    escape || dot_repeat || class || anchors || alternation || flags || counts || repeats
}

/// Look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) or a back-reference (`\1`):
/// regex syntax that words never spell, and that the regex engine refuses.
pub fn regex_only_syntax(raw: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|s| raw.contains(s))
        || raw
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'\\' && (b'1'..=b'9').contains(&w[1]))
}

/// A `*`, `+` or `?` right after what it repeats (a letter, digit, `_`, a
/// group's `)`, a class's `]`): `a*b`, `(a+)+b`, `colou?r`, `x+y`. Not a
/// doubled one (`C++`, `i++`: code names, not patterns) nor a `?` that ends
/// the text (`timeout?` asks a question). The caller checks the text has no
/// space: "what is a+b" stays a question.
fn has_repetition(s: &str) -> bool {
    let b = s.as_bytes();
    (1..b.len()).any(|i| {
        let atom = b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b')' | b']');
        let next = b.get(i + 1).copied();
        let doubled = next.is_some_and(|n| matches!(n, b'*' | b'+' | b'?'));
        let quantifier = match b[i] {
            b'*' | b'+' => true,
            b'?' => next.is_some(),
            _ => false,
        };
        atom && quantifier && !doubled
    })
}

/// Each `[…]` of `s` (its body up to the first `]`) with the text after it,
/// left to right.
fn brackets(s: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = s;
    std::iter::from_fn(move || {
        let open = rest.find('[')?;
        let after = &rest[open + 1..];
        let close = after.find(']')?;
        rest = &after[close + 1..];
        Some((&after[..close], rest))
    })
}

/// `[a-z]`, `[^"]`, `[0-9_]`-style classes (not `[markdown links]` or `arr[0]`).
fn has_char_class(s: &str) -> bool {
    brackets(s).any(|(body, _)| {
        body.starts_with('^')
            || (body.len() >= 3
                && body
                    .as_bytes()
                    .windows(3)
                    .any(|w| w[1] == b'-' && w[0] != b' ' && w[2] != b' '))
            || body.starts_with('\\')
            || body.starts_with(':')
    })
}

/// A class of letters or digits that a word goes on after: `gr[ae]y`,
/// `back[o]ff`, `[Rr]etry`. Not an index (`arr[0]`, `map[key]`, `x[i].y`),
/// after which the word does not go on. The caller checks the text has no
/// space.
fn has_class_in_word(s: &str) -> bool {
    brackets(s).any(|(body, after)| {
        let goes_on = after
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
        goes_on && !body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// `{2}`, `{1,3}`, `{2,}` after something.
fn has_repetition_count(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        if b != b'{' || i == 0 {
            return false;
        }
        let rest = &bytes[i + 1..];
        let Some(end) = rest.iter().position(|&c| c == b'}') else {
            return false;
        };
        let body = &rest[..end];
        !body.is_empty()
            && body[0].is_ascii_digit()
            && body.iter().all(|c| c.is_ascii_digit() || *c == b',')
    })
}

/// One token that reads as code rather than a word: `parse_args`, `maxRetry`,
/// `MAX_RETRIES`, `std::io`, `os.path.join`, `connect()`, `--no-ignore`, `Vec<u8>`.
/// A plain word such as `retry` or `Retry` stays natural language (so it is stemmed).
pub fn is_identifier_like(s: &str) -> bool {
    if s.is_empty() || s.chars().any(char::is_whitespace) {
        return false;
    }
    let has_alpha = s.chars().any(|c| c.is_alphabetic());
    if !has_alpha {
        return false;
    }
    let code_punct = s.contains('_')
        || s.contains("::")
        || s.contains("->")
        || s.contains('(')
        || s.contains('<')
        || s.contains('#')
        || s.starts_with('-')
        || s.starts_with('@')
        || s.starts_with('$')
        || (s.contains('.') && !s.ends_with('.') && !s.starts_with('.'));
    let camel = s
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let all_caps = s.len() >= 2
        && s.chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase)
        && s.chars().filter(|c| c.is_alphabetic()).count() >= 2;
    let digits = s.chars().any(|c| c.is_ascii_digit());
    code_punct || camel || all_caps || digits
}

/// What a question's first words ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ask {
    /// "where is …", "which …": a place or a definition.
    Where,
    /// "how does …", "why …": the code that does it.
    How,
    /// "what happens when …": the handling of a case.
    Happens,
    #[default]
    Other,
}

/// How a request to the tool opens ("can you show me …", "please explain
/// …", "I want to know …"): words about asking, not about the code. Each is
/// a run of lowercase words; [`without_request`] drops them from the front,
/// one after another.
const REQUESTS: &[&[&str]] = &[
    &["please"],
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["show", "me"],
    &["tell", "me"],
    &["help", "me"],
    &["give", "me"],
    &["let", "me", "know"],
    &["i", "want", "to", "know"],
    &["i", "need", "to", "know"],
    &["i", "would", "like", "to", "know"],
    &["i", "like", "to", "know"],
    &["i", "wonder"],
];

/// Verbs that open a request when a question word follows ("find where the
/// pool is sized", "explain how retries back off"); otherwise they are what
/// the code does ("find config in parent folders").
const REQUEST_VERBS: &[&str] = &["show", "tell", "find", "explain", "describe"];

/// The words a question opens with.
const QUESTION_WORDS: &[&str] = &["where", "how", "which", "what", "why", "when", "whether"];

/// `text` without the request it opens with ([`REQUESTS`], any case and
/// punctuation): "Can you show me where the config is loaded?" is the
/// question "where the config is loaded?". Unchanged when nothing would be
/// left.
pub fn without_request(text: &str) -> String {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let words: Vec<String> = tokens
        .iter()
        .map(|t| {
            t.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let mut at = 0;
    loop {
        let phrase = REQUESTS.iter().find(|p| {
            words.len() > at + p.len() && p.iter().zip(&words[at..]).all(|(a, b)| a == b)
        });
        if let Some(phrase) = phrase {
            at += phrase.len();
        } else if words
            .get(at + 1)
            .is_some_and(|w| QUESTION_WORDS.contains(&w.as_str()))
            && REQUEST_VERBS.contains(&words[at].as_str())
        {
            at += 1;
        } else {
            break;
        }
    }
    if at == 0 {
        return text.to_string();
    }
    tokens[at..].join(" ")
}

/// Stems of the verbs that say a choice is made ("… decide …", "… pick …"):
/// typed among keywords, they ask how the code chooses, as a how-question
/// does ("logger decide event given level actually emitted dropped"). Not
/// `select`, which as often names a query or a widget. Sorted.
const DECISION_STEMS: &[&str] = &["choos", "decid", "determin", "pick"];

/// Stems of the verbs a change description opens with ("Fix …", "Add …",
/// "Remove …"; `made` has its own): a commit subject, not a search for
/// code. The query's scaffolding words (`query::SCAFFOLD_STEMS`), which
/// weigh less, are another list: "remove" opens a commit subject yet names
/// what code does. Sorted.
const CHANGE_VERB_STEMS: &[&str] = &[
    "add",
    "allow",
    "avoid",
    "bump",
    "chang",
    "clean",
    "correct",
    "deprec",
    "disabl",
    "drop",
    "enabl",
    "ensur",
    "fix",
    "implement",
    "improv",
    "introduc",
    "made",
    "make",
    "merg",
    "move",
    "prevent",
    "refactor",
    "remov",
    "renam",
    "replac",
    "restor",
    "revert",
    "simplifi",
    "support",
    "switch",
    "tweak",
    "updat",
    "upgrad",
    "use",
];

/// The runs of letters and digits of `text`, in order: its words as the
/// question's shape reads them (not split at case changes, as
/// `words::for_each_word` splits identifiers).
fn plain_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Whether a word of `plain` (lowercase) is a verb of choice
/// ([`DECISION_STEMS`]).
fn asks_a_choice(plain: &str) -> bool {
    plain_words(plain).any(|w| {
        DECISION_STEMS
            .binary_search(&super::stem(w).as_str())
            .is_ok()
    })
}

/// Words that say a question asks for a collection of things ("where is the
/// list of built-in commands registered", "where are the file formats mapped
/// to their parsers"): its answer is usually one table, a constant or
/// variable initialized with every entry (`score::unit`). Sorted.
const COLLECTION_WORDS: &[&str] = &[
    "array",
    "list",
    "lists",
    "mapped",
    "mapping",
    "registered",
    "registry",
    "table",
    "tables",
];

/// Heads that say the same before "of": "the set of characters", "a map of
/// names". Alone, *set* and *map* are verbs as often as nouns.
const COLLECTION_HEADS: &[&str] = &["map", "set"];

impl Ask {
    /// What unit scoring reads the query `raw` as, given how it asks (`self`,
    /// its [`Ask::of`]; kept for a question): a
    /// query of keywords ("default allowed methods cross-origin configured")
    /// looks for the code that does the thing, as a where-question does, or
    /// as a how-question when a word of it says a choice is made
    /// ([`DECISION_STEMS`]); unless it opens with a change verb (a commit
    /// subject: "fixed support for IPv6 literals", whose change may be to a
    /// type or an interface).
    pub fn for_units(self, raw: &str) -> Ask {
        if self != Ask::Other {
            return self;
        }
        let plain = without_request(raw).to_lowercase();
        let first = plain_words(&plain).find(|w| !super::is_stop_word(w));
        match first {
            Some(w)
                if CHANGE_VERB_STEMS
                    .binary_search(&super::stem(w).as_str())
                    .is_ok() =>
            {
                Ask::Other
            }
            Some(_) if asks_a_choice(&plain) => Ask::How,
            Some(_) => Ask::Where,
            None => Ask::Other,
        }
    }

    /// Whether `raw`, read as `self` by unit scoring ([`Ask::for_units`]),
    /// asks where a collection is defined or registered: a where-question
    /// with a word of [`COLLECTION_WORDS`], or "set of", "map of".
    pub fn asks_for_collection(self, raw: &str) -> bool {
        if self != Ask::Where {
            return false;
        }
        let plain = raw.to_lowercase();
        let words: Vec<&str> = plain_words(&plain).collect();
        words
            .iter()
            .any(|w| COLLECTION_WORDS.binary_search(w).is_ok())
            || words
                .windows(2)
                .any(|p| p[1] == "of" && COLLECTION_HEADS.contains(&p[0]))
    }

    /// Whether `raw` (asked as `self`) is a search typed as keywords: not a
    /// question, read as looking for code (`for_units`: it opens with no
    /// change verb), and typed in lowercase from its first letter, as people
    /// type into a search box ("default log level when nothing configured").
    /// A commit subject opens with a capital ("Optional percent encoding
    /// behaviour") or a change verb ("fix parse error when …").
    pub fn typed_as_search(self, raw: &str) -> bool {
        self == Ask::Other
            && self.for_units(raw) != Ask::Other
            && without_request(raw)
                .chars()
                .find(|c| c.is_alphabetic())
                .is_some_and(char::is_lowercase)
    }

    /// From the query as typed (after any request it opens with).
    ///
    /// A question may open with a clause that sets the scene ("When every
    /// connection is checked out, how does the pool decide …", "If the file
    /// is missing, what happens?"): it asks as the words after that clause's
    /// comma do.
    pub fn of(raw: &str) -> Ask {
        let lower = without_request(raw).to_lowercase();
        let asked = Ask::opening(&lower);
        if asked != Ask::Other {
            return asked;
        }
        match lower.split_once(',') {
            Some((clause, rest)) if Ask::sets_the_scene(clause) => Ask::opening(rest),
            _ => Ask::Other,
        }
    }

    /// How `lower` asks by its first words.
    fn opening(lower: &str) -> Ask {
        let words: Vec<&str> = plain_words(lower).collect();
        match words.as_slice() {
            ["what", "happens" | "happen", ..] => Ask::Happens,
            ["where" | "which", ..] => Ask::Where,
            ["how" | "why", ..] => Ask::How,
            _ => Ask::Other,
        }
    }

    /// Whether `clause` (lowercase, before a comma) is one that sets the
    /// scene for the question after it: it opens with a word of time or
    /// condition.
    fn sets_the_scene(clause: &str) -> bool {
        const OPENERS: &[&str] = &[
            "after", "assuming", "before", "during", "given", "if", "in", "once", "since",
            "suppose", "unless", "when", "whenever", "while", "with",
        ];
        plain_words(clause)
            .next()
            .is_some_and(|w| OPENERS.contains(&w))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_search_is_typed_in_lowercase_without_a_change_verb() {
        let search = |q: &str| Ask::of(q).typed_as_search(q);
        assert!(search("default log level when nothing configured"));
        assert!(search("please, retry backoff max delay"));
        // A commit subject: a capital, or a change verb first.
        assert!(!search("Optional percent encoding behaviour"));
        assert!(!search("fix parse error when no status text"));
        // A question is not a search, however it is typed.
        assert!(!search("where is the retry delay computed"));
        assert!(!search(""));
    }

    #[test]
    fn keywords_look_for_code_and_a_change_does_not() {
        for (query, ask) in [
            (
                "default allowed methods cross-origin configured",
                Ask::Where,
            ),
            ("fixed support for IPv6 literal strings in url", Ask::Other),
            ("Remove the retry limit", Ask::Other),
            ("added custom params serializer", Ask::Other),
            ("how does it retry", Ask::How),
            ("the", Ask::Other),
            // Keywords that say a choice is made ask how the code chooses.
            (
                "logger decide event given level actually emitted dropped",
                Ask::How,
            ),
            ("pool picks idle connection", Ask::How),
            ("Decided to drop the cache", Ask::How),
            ("fix how the pool picks a connection", Ask::Other),
        ] {
            assert_eq!(Ask::of(query).for_units(query), ask, "{query}");
        }
        for list in [DECISION_STEMS, CHANGE_VERB_STEMS] {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, list);
        }
    }

    #[test]
    fn a_where_question_about_a_list_asks_for_a_collection() {
        for (query, collection) in [
            (
                "Where is the list of all built-in commands registered?",
                true,
            ),
            (
                "Where are the built-in file formats mapped to the parser?",
                true,
            ),
            ("where is the set of characters that get escaped", true),
            ("default list of excluded directories", true),
            // Not a where-question.
            ("How does the parser walk the list of tokens?", false),
            ("Add a list of commands", false),
            // *set* and *map* as verbs, or inside another word.
            ("Where is the default timeout set?", false),
            (
                "Where is the reset of the offset of the buffer done?",
                false,
            ),
            ("Where is the config loaded?", false),
        ] {
            let ask = Ask::of(query).for_units(query);
            assert_eq!(ask.asks_for_collection(query), collection, "{query}");
        }
        let mut sorted = COLLECTION_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, COLLECTION_WORDS);
    }

    #[test]
    fn a_request_is_read_as_its_question() {
        assert_eq!(
            without_request("Can you please show me where the config is loaded?"),
            "where the config is loaded?"
        );
        assert_eq!(
            without_request("I want to know how retries back off"),
            "how retries back off"
        );
        assert_eq!(Ask::of("Please, explain how retries back off"), Ask::How);
        assert_eq!(Ask::of("find where the pool is sized"), Ask::Where);
        // A clause that sets the scene, then the question.
        assert_eq!(
            Ask::of("When every connection is checked out, how does the pool decide?"),
            Ask::How
        );
        assert_eq!(
            Ask::of("If the file is missing, what happens?"),
            Ask::Happens
        );
        // Any other words before a comma are not a scene.
        assert_eq!(Ask::of("Retry, how it backs off"), Ask::Other);
        assert_eq!(Ask::of("when the file is missing"), Ask::Other);
        assert_eq!(
            Ask::of("Could you tell me what happens when it fails"),
            Ask::Happens
        );
        // Only the opening words, and never all of them.
        assert_eq!(without_request("show help on error"), "show help on error");
        assert_eq!(without_request("Show me help"), "help");
        assert_eq!(without_request("explain"), "explain");
        assert_eq!(
            without_request("where does it find the config"),
            "where does it find the config"
        );
    }
    #[test]
    fn identifiers_are_literal() {
        for q in [
            "parse_args",
            "maxRetry",
            "MAX_RETRIES",
            "std::io",
            "os.path.join",
            "connect()",
            "Vec<u8>",
            "--no-ignore",
            "sha256",
        ] {
            assert_eq!(classify(q), QueryKind::Literal(q.to_string()), "{q}");
        }
        for q in ["retry", "Retry", "database", "timeout?"] {
            assert_eq!(classify(q), QueryKind::Natural, "{q}");
        }
    }

    #[test]
    fn quoted_strings_are_literal_without_quotes() {
        assert_eq!(
            classify("\"database unreachable\""),
            QueryKind::Literal("database unreachable".into())
        );
        assert_eq!(
            classify("'max retries'"),
            QueryKind::Literal("max retries".into())
        );
    }

    #[test]
    fn regex_syntax_is_regex() {
        for q in [
            r"fn\s+main",
            "retry|backoff",
            "^import",
            r"\bconnect\b",
            "[a-z]+_id",
            "colou?r.*",
            "x{2,3}",
            "(?i)retry",
            "a*b",
            "(a+)+b",
            "(a*)*b",
            "colou?r",
            "x+y",
            "gr[ae]y",
            "back[o]ff",
            "[Rr]etry",
        ] {
            assert_eq!(classify(q), QueryKind::Regex(q.to_string()), "{q}");
        }
        for q in [
            "what sets the timeout?",
            "where is retry | backoff used",
            "see [the docs] here",
            "cost in $",
            "what does a+b compute",
            "timeout?",
            "how does it choose the 'did you mean ...?' suggestion",
            "what happens when the list is empty...?",
            "wait... what retries the request",
        ] {
            assert_eq!(classify(q), QueryKind::Natural, "{q}");
        }
    }

    #[test]
    fn an_index_is_not_a_character_class() {
        for q in ["arr[0]", "map[key]", "args[i].name", "see [the docs]"] {
            assert!(!matches!(classify(q), QueryKind::Regex(_)), "{q}");
        }
    }

    #[test]
    fn doubled_quantifiers_are_not_patterns() {
        for q in ["C++", "c++", "i++", "g++"] {
            assert!(!matches!(classify(q), QueryKind::Regex(_)), "{q}");
        }
    }

    #[test]
    fn invalid_regex_falls_back() {
        assert_ne!(classify("foo(|"), QueryKind::Regex("foo(|".into()));
    }

    #[test]
    fn look_around_is_no_identifier() {
        // `foo(bar)` is a call, searched as written; `foo(?=bar)` and a
        // back-reference are a regex's syntax, read as words.
        assert_eq!(classify("foo(bar)"), QueryKind::Literal("foo(bar)".into()));
        for q in ["foo(?=bar)", "get(?!Foo)x", "(retry)\\1"] {
            assert_eq!(classify(q), QueryKind::Natural, "{q}");
        }
    }

    #[test]
    fn a_wordless_regex_is_a_regex_and_plain_punctuation_is_text() {
        // No word, regex syntax in one token: rg's regex (checked with rg 13).
        for q in ["$", "^", "x?", "(x)?", ".", "...", "()", "[.]", "a?", "$$"] {
            assert_eq!(classify(q), QueryKind::Regex(q.to_string()), "{q}");
        }
        // No regex syntax, a doubled quantifier, words with spaces, or a
        // regex the engine refuses: the text as written.
        for q in [
            "--",
            "!",
            "->",
            ";",
            "C++",
            "what is g?",
            "how do I",
            "?",
            "*",
        ] {
            assert_eq!(classify(q), QueryKind::Literal(q.to_string()), "{q}");
        }
    }

    #[test]
    fn escapes_alone_are_a_regex() {
        for q in [
            r"\t", r"\$", r"\(", r"\.", r"\$x", r"\x20", r"\PL", r"\p{L}", r"\A", r"\z", r"\d+",
            r"\w+", r"\s+", r"\bfoo\b", r"\(\)", r"\u0041",
        ] {
            assert_eq!(classify(q), QueryKind::Regex(q.to_string()), "{q}");
        }
        // A word written as itself with an escape the list does not name
        // stays what it was: a path, words.
        assert_eq!(classify(r"src\net"), QueryKind::Natural);
        assert!(spans_lines(r"foo\nbar") && spans_lines(r"a\n") && !spans_lines("foo"));
        assert!(!spans_lines(r#""foo\nbar""#));
    }

    #[test]
    fn only_stop_words_is_searched_literally() {
        assert_eq!(
            classify("where is the"),
            QueryKind::Literal("where is the".into())
        );
    }
}
