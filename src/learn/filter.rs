//! Which words may enter the learned thesaurus: no stop words, no keywords of
//! programming languages, no one-letter terms, nothing longer than a few
//! words or characters, no control or hidden format characters (bidi
//! overrides, U+2028), no word so common in the
//! corpus that it identifies nothing, and never a synonym that a loaded
//! thesaurus (or the learned file itself) already maps to another concept:
//! the first mapping wins.
//!
//! Pure: it decides, it does not read or write files.

use crate::query;
use crate::thesaurus::{self, Thesaurus};

use super::store::Doc;

/// One-letter terms match everything.
pub const MIN_TERM_CHARS: usize = 2;
/// Longer than this, a term is not a word code uses for a concept.
pub const MAX_TERM_CHARS: usize = 48;

/// A word in more than this share of the searched files identifies no
/// concept (`return`, `https` in a web client): it is not learned...
pub const MAX_GENERAL_SHARE: f64 = 0.25;
/// ...unless it is in this few files or fewer (small corpora).
pub const GENERAL_MIN_FILES: usize = 4;

/// Keywords and built-in names of common programming languages: every file
/// has them, and a model listing one as a synonym (`return` for "response")
/// is associating, not naming. Sorted, for binary search.
const CODE_KEYWORDS: &[&str] = &[
    "abstract",
    "and",
    "as",
    "async",
    "await",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "def",
    "default",
    "defer",
    "del",
    "do",
    "dyn",
    "elif",
    "else",
    "elseif",
    "endif",
    "enum",
    "except",
    "extends",
    "extern",
    "false",
    "final",
    "finally",
    "fn",
    "for",
    "foreach",
    "from",
    "func",
    "function",
    "goto",
    "if",
    "impl",
    "implements",
    "import",
    "in",
    "instanceof",
    "int",
    "interface",
    "is",
    "lambda",
    "let",
    "loop",
    "match",
    "mod",
    "mut",
    "namespace",
    "new",
    "nil",
    "none",
    "not",
    "null",
    "of",
    "or",
    "package",
    "pass",
    "private",
    "protected",
    "pub",
    "public",
    "raise",
    "return",
    "self",
    "sizeof",
    "static",
    "str",
    "struct",
    "super",
    "switch",
    "then",
    "this",
    "throw",
    "throws",
    "trait",
    "true",
    "try",
    "typedef",
    "typeof",
    "undefined",
    "union",
    "unsafe",
    "use",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Whether a word is a programming-language keyword (see [`CODE_KEYWORDS`]).
pub fn is_code_keyword(word: &str) -> bool {
    CODE_KEYWORDS.binary_search(&word).is_ok()
}

/// Whether a character is one no word or identifier holds: a control
/// character or a hidden format one (a bidi override, U+2028, a zero-width
/// space: `render::sanitize::is_hidden_format`). A term that holds one is
/// junk, or an escape sequence whose letters would split into junk words.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || crate::render::sanitize::is_hidden_format(c)
}

/// Whether a term found in `df` of `files` searched files is too common to
/// stand for a concept.
pub fn too_general(df: usize, files: usize) -> bool {
    df > GENERAL_MIN_FILES && df as f64 > MAX_GENERAL_SHARE * files as f64
}

/// The normalised form of a term worth keeping, or `None` for junk: empty,
/// one character, a stop word or a code keyword (alone), more than
/// [`thesaurus::MAX_SYNONYM_WORDS`] words, over [`MAX_TERM_CHARS`], only
/// digits, or with control or hidden format characters (a bidi override,
/// U+2028, a zero-width space: `render::sanitize::is_hidden_format`), which
/// no identifier or word holds and which would reorder or hide what
/// `--thesaurus-list` and `-v` show of it.
pub fn clean(term: &str) -> Option<String> {
    let term = thesaurus::normalize(term)?;
    let chars = term.chars().count();
    if !(MIN_TERM_CHARS..=MAX_TERM_CHARS).contains(&chars) {
        return None;
    }
    if term.chars().any(is_hidden) || term.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if query::is_stop_word(&term) || is_code_keyword(&term) {
        return None;
    }
    Some(term)
}

/// [`clean`] for a synonym: the same checks, but a one-token synonym keeps
/// its spelling (`registerBlueprint`: its case says where its words begin,
/// so it can match `register_blueprint` and `RegisterBlueprint` in code).
pub fn clean_synonym(term: &str) -> Option<String> {
    clean(term)?;
    thesaurus::spelling(term)
}

/// Whether `term` may be a synonym of concept `name`: nothing in the loaded
/// layers or in the file maps it (or its words' stems: `retries`, `content
/// types`) to a concept with another name.
pub fn free_for(term: &str, name: &str, known: &Thesaurus, doc: &Doc) -> bool {
    let in_layers = known
        .lookup(term)
        .and_then(|i| known.concept(i))
        .is_none_or(|c| c.name == name);
    let in_file = doc.mapped(term).is_none_or(|n| n == name);
    in_layers && in_file
}

/// The terms of a lesson that may be kept for `name`: clean, free, distinct,
/// the name itself left out (it is always mapped).
pub fn keepable(name: &str, terms: &[String], known: &Thesaurus, doc: &Doc) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for term in terms {
        let (Some(key), Some(spelled)) = (clean(term), clean_synonym(term)) else {
            continue;
        };
        let seen = out
            .iter()
            .any(|o| thesaurus::normalize(o).as_deref() == Some(key.as_str()));
        if key == name || seen || !free_for(&key, name, known, doc) {
            continue;
        }
        out.push(spelled);
    }
    out
}

/// Why a lesson named `name` with `terms` is not written (what `write_lessons`
/// skips), in words: its name is junk or another concept's, or every term is
/// junk, the name itself or another concept's.
pub fn refusal(name: &str, terms: &[String], known: &Thesaurus, doc: &Doc) -> String {
    let owner = |term: &str| -> Option<String> {
        known
            .lookup(term)
            .and_then(|i| known.concept(i))
            .map(|c| c.name.clone())
            .or_else(|| doc.mapped(term))
    };
    let Some(clean_name) = clean(name) else {
        return format!("its name {name:?} is a stop word, a keyword, too short or too long");
    };
    if !free_for(&clean_name, &clean_name, known, doc) {
        let other = owner(&clean_name).unwrap_or_default();
        return format!("its name already means the concept {other:?}");
    }
    let reasons: Vec<String> = terms
        .iter()
        .map(|term| match clean(term) {
            None => format!("{term:?} is a stop word, a keyword, too short or too long"),
            Some(t) if t == clean_name => format!("{term:?} is its own name"),
            Some(t) => match owner(&t).filter(|o| *o != clean_name) {
                Some(o) => format!("{term:?} already means {o:?}"),
                None => format!("{term:?} repeats another synonym"),
            },
        })
        .collect();
    if reasons.is_empty() {
        return "it has no synonyms".into();
    }
    format!("no synonym to keep: {}", reasons.join("; "))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::thesaurus::{Concept, Layer};

    fn known() -> Thesaurus {
        let mut t = Thesaurus::new();
        t.add(
            Concept {
                id: 1,
                name: "sleep".into(),
                layer: Layer::Builtin,
                learned: None,
            },
            &["nap".into()],
            false,
        );
        t
    }

    #[test]
    fn junk_is_refused() {
        assert_eq!(clean("  Zibble  "), Some("zibble".into()));
        assert_eq!(clean("zibble   frame"), Some("zibble frame".into()));
        for junk in [
            "",
            "x",
            "the",
            "where",
            "return",
            "Self",
            "a b c d e",
            "12345",
            "tab\u{7}",
            "evil\u{202e}txt",
            "rtl\u{2067}isolate",
            "zero\u{200b}width",
            &"z".repeat(49),
        ] {
            assert_eq!(clean(junk), None, "{junk:?}");
        }
        assert_eq!(clean("404x"), Some("404x".into()));
        // A separator between words is a space between them.
        assert_eq!(clean("two\u{2028}lines"), Some("two lines".into()));
    }

    #[test]
    fn keywords_are_sorted_and_common_words_are_too_general() {
        let mut sorted = CODE_KEYWORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, CODE_KEYWORDS);
        assert!(clean("return value").is_some(), "a phrase is not a keyword");
        // 24 of 84 files: over a quarter.
        assert!(too_general(24, 84));
        assert!(!too_general(13, 84));
        // A small corpus: a word in 4 files of 5 is still kept.
        assert!(!too_general(4, 5));
        assert!(too_general(5, 5));
    }

    #[test]
    fn the_first_mapping_wins() {
        let known = known();
        let mut doc = Doc::empty();
        doc.map("wobble", 7, "jiggle");
        let kept = keepable(
            "gronk",
            &[
                "zibble".into(),
                "nap".into(),
                "naps".into(),
                "wobble".into(),
                "gronk".into(),
                "Zibble".into(),
                "x".into(),
            ],
            &known,
            &doc,
        );
        assert_eq!(kept, vec!["zibble"]);
        assert!(free_for("wobble", "jiggle", &known, &doc));
        assert!(free_for("nap", "sleep", &known, &doc));
    }
}
