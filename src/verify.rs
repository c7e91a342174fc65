//! Verification: the model's claims checked against the documents actually loaded.
//!
//! A claim is a `(path, line)` pair proposed by the model. It survives only when
//! `path` is exactly the key of a loaded document (so `./src/app.py`, hidden,
//! ignored and never-loaded files are dropped) and `1 <= line <= last_line`
//! ([`Document::last_line`]): the empty "line" after a file's final `\n`,
//! which rlmgrep's `text.split("\n")` counts and ripgrep does not, is not a
//! line of the file, and a claim of it is dropped like one past the end.
//! This module does not print: the caller warns `dropped K unverified matches`
//! and hands [`Verified::files`] to the renderer.
//!
//! Counting, as rlmgrep 0.1.37 does it (goldens `hallucinated_mixed`,
//! `hallucinated_only`, `dot_slash_path_dropped`, `plain_duplicates`,
//! `answer_after_dropped`): every claim that fails the check adds one to
//! `dropped`, each time it appears; a valid claim repeated is kept once and
//! never counted. In other words, de-duplication happens only among verified
//! claims.

use std::collections::{BTreeMap, BTreeSet};

use crate::document::Document;

/// One `(path, line)` pair proposed by the model, before verification.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct Claim {
    /// The document key the model named, compared byte for byte.
    pub path: String,
    /// The 1-based line number the model named; may be out of range or negative.
    pub line: i64,
}

/// The claims that survived verification.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Verified match lines per document key: sorted, de-duplicated, never empty.
    pub files: BTreeMap<String, Vec<usize>>,
    /// How many claims named an unknown path or a line outside the document.
    pub dropped: usize,
}

impl Verified {
    /// True when no claim survived.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Checks every claim against `docs` (keyed by [`Document::key`]).
pub fn verify(claims: &[Claim], docs: &BTreeMap<String, Document>) -> Verified {
    let mut kept: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut dropped = 0;
    for claim in claims {
        match verified_line(claim, docs) {
            Some(line) => {
                kept.entry(claim.path.clone()).or_default().insert(line);
            }
            None => dropped += 1,
        }
    }
    let files = kept
        .into_iter()
        .map(|(path, lines)| (path, lines.into_iter().collect()))
        .collect();
    Verified { files, dropped }
}

/// Why a verified line is not printed as the model's answer: it exists, but
/// it says nothing about the query. Not counted in `dropped` (that count is
/// rlmgrep's, for claims that do not exist).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mute {
    /// Empty or only whitespace (small models cite the blank line after a
    /// function).
    pub blank: usize,
    /// Punctuation and keywords only (`});`, `else:`, `}`), or a comment or
    /// import that holds none of the query's words: a small model that
    /// miscounts lines lands on these, and they locate nothing.
    pub empty: usize,
}

impl Mute {
    /// All the lines removed.
    pub fn total(self) -> usize {
        self.blank + self.empty
    }
}

/// Removes the verified lines that say nothing ([`Mute`]). `holds_query_word`
/// tells, for a document key and a line number, whether the line holds one of
/// the query's words (the offline ranking scored it): such a comment or import
/// is kept, since the query may be about it.
pub fn drop_mute(
    verified: &mut Verified,
    docs: &BTreeMap<String, Document>,
    holds_query_word: &dyn Fn(&str, usize) -> bool,
) -> Mute {
    let mut mute = Mute::default();
    for (key, lines) in verified.files.iter_mut() {
        let Some(doc) = docs.get(key) else { continue };
        let texts: Vec<&[u8]> = doc.lines().collect();
        let kinds = crate::score::kind::classify_lines(&doc.text);
        lines.retain(|&n| {
            let i = n.wrapping_sub(1);
            let Some(text) = texts.get(i) else {
                return false;
            };
            if text.iter().all(u8::is_ascii_whitespace) {
                mute.blank += 1;
                return false;
            }
            let kind = kinds.get(i).copied().unwrap_or_default();
            let aside = kind.comment || kind.import;
            let says = kind.definition || has_word(text);
            if !says || (aside && !holds_query_word(key, n)) {
                mute.empty += 1;
                return false;
            }
            true
        });
    }
    verified.files.retain(|_, lines| !lines.is_empty());
    mute
}

/// The files of `verified` none of whose lines *locates*: holds one of the
/// query's words (`holds_query_word`, as for [`drop_mute`]) or defines a name.
/// A model's claim on such a line is weak evidence (small models miscount
/// lines); the fusion gives these files no vote (`fallback::fuse`).
pub fn not_locating(
    verified: &Verified,
    docs: &BTreeMap<String, Document>,
    holds_query_word: &dyn Fn(&str, usize) -> bool,
) -> Vec<String> {
    verified
        .files
        .iter()
        .filter(|&(key, lines)| {
            let Some(doc) = docs.get(key) else {
                return true;
            };
            let kinds = crate::score::kind::classify_lines(&doc.text);
            !lines.iter().any(|&n| {
                holds_query_word(key, n)
                    || kinds
                        .get(n.wrapping_sub(1))
                        .is_some_and(|k| k.definition && !k.comment)
            })
        })
        .map(|(key, _)| key.clone())
        .collect()
}

/// Whether a line holds a word: two or more characters with a letter, not a
/// programming-language keyword.
fn has_word(text: &[u8]) -> bool {
    String::from_utf8_lossy(text)
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| {
            w.chars().count() >= 2
                && w.chars().any(char::is_alphabetic)
                && !crate::learn::filter::is_code_keyword(&w.to_lowercase())
        })
}

/// The claim's line as an index into its document, or `None` if it does not exist.
fn verified_line(claim: &Claim, docs: &BTreeMap<String, Document>) -> Option<usize> {
    let doc = docs.get(&claim.path)?;
    let line = usize::try_from(claim.line).ok()?;
    (1..=doc.last_line()).contains(&line).then_some(line)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    use crate::testing::doc;

    fn docs(list: &[(&str, &str)]) -> BTreeMap<String, Document> {
        list.iter()
            .map(|(k, t)| (k.to_string(), doc(k, t)))
            .collect()
    }

    fn claims(list: &[(&str, i64)]) -> Vec<Claim> {
        list.iter()
            .map(|&(path, line)| Claim {
                path: path.to_string(),
                line,
            })
            .collect()
    }

    fn lines(v: &Verified, key: &str) -> Vec<usize> {
        v.files.get(key).cloned().unwrap_or_default()
    }

    #[test]
    fn blank_lines_are_removed_but_not_counted_as_dropped() {
        let d = docs(&[("a.txt", "fn a() {\n\n   \t\n}"), ("b.txt", "\n")]);
        let mut v = verify(
            &claims(&[("a.txt", 1), ("a.txt", 2), ("a.txt", 3), ("b.txt", 1)]),
            &d,
        );
        let mute = drop_mute(&mut v, &d, &|_, _| false);
        assert_eq!(mute, Mute { blank: 3, empty: 0 });
        assert_eq!(lines(&v, "a.txt"), vec![1]);
        assert!(!v.files.contains_key("b.txt"));
        assert_eq!(v.dropped, 0);
    }

    #[test]
    fn punctuation_and_keyword_lines_say_nothing() {
        let text = "def run(x):\n    if x:\n        go(x)\n    else:\n        stop()\n    });\n}\n";
        let d = docs(&[("a.py", text)]);
        let mut v = verify(
            &claims(&[
                ("a.py", 1),
                ("a.py", 3),
                ("a.py", 4),
                ("a.py", 6),
                ("a.py", 7),
            ]),
            &d,
        );
        let mute = drop_mute(&mut v, &d, &|_, _| true);
        assert_eq!(lines(&v, "a.py"), vec![1, 3], "{mute:?}");
        assert_eq!(mute, Mute { blank: 0, empty: 3 });
        assert_eq!(lines(&v, "a.py"), vec![1, 3]);
    }

    #[test]
    fn comments_and_imports_count_only_with_a_query_word() {
        let text = "from .exceptions import SSLError\n# Read the contents.\n# redirects are limited here\nlimit = 30\n";
        let d = docs(&[("m.py", text)]);
        let mut v = verify(
            &claims(&[("m.py", 1), ("m.py", 2), ("m.py", 3), ("m.py", 4)]),
            &d,
        );
        // The offline ranking scored line 3 (it holds a query word).
        let mute = drop_mute(&mut v, &d, &|key, n| key == "m.py" && n == 3);
        assert_eq!(mute, Mute { blank: 0, empty: 2 });
        assert_eq!(lines(&v, "m.py"), vec![3, 4]);
    }

    #[test]
    fn a_file_left_with_nothing_is_removed() {
        let d = docs(&[("a.rs", "/// Docs only.\n}\n"), ("b.rs", "pub fn b() {}\n")]);
        let mut v = verify(&claims(&[("a.rs", 1), ("a.rs", 2), ("b.rs", 1)]), &d);
        assert_eq!(drop_mute(&mut v, &d, &|_, _| false).total(), 2);
        assert!(!v.files.contains_key("a.rs"));
        assert_eq!(lines(&v, "b.rs"), vec![1]);
    }

    #[test]
    fn keeps_valid_claims_sorted() {
        let d = docs(&[("a.txt", "1\n2\n3\n4")]);
        let v = verify(&claims(&[("a.txt", 4), ("a.txt", 1), ("a.txt", 3)]), &d);
        assert_eq!(lines(&v, "a.txt"), vec![1, 3, 4]);
        assert_eq!(v.dropped, 0);
    }

    #[test]
    fn valid_duplicates_are_kept_once_and_not_counted() {
        // plain_duplicates: 10, 10, 16, 16 -> 10, 16 and no warning.
        let d = docs(&[("a.txt", "x\n".repeat(20).as_str())]);
        let v = verify(
            &claims(&[("a.txt", 10), ("a.txt", 10), ("a.txt", 16), ("a.txt", 16)]),
            &d,
        );
        assert_eq!(lines(&v, "a.txt"), vec![10, 16]);
        assert_eq!(v.dropped, 0);
    }

    #[test]
    fn unknown_path_and_out_of_range_lines_are_dropped() {
        // hallucinated_mixed: one kept, four dropped.
        let d = docs(&[
            ("src/app.py", "x\n".repeat(33).as_str()),
            ("README.md", "r"),
        ]);
        let v = verify(
            &claims(&[
                ("src/app.py", 10),
                ("src/missing.py", 1),
                ("src/app.py", 0),
                ("src/app.py", 999),
                ("README.md", -1),
            ]),
            &d,
        );
        assert_eq!(v.files.len(), 1);
        assert_eq!(lines(&v, "src/app.py"), vec![10]);
        assert_eq!(v.dropped, 4);
    }

    #[test]
    fn invalid_duplicates_are_each_counted() {
        let d = docs(&[("a.txt", "x")]);
        let v = verify(&claims(&[("nope", 1), ("nope", 1), ("a.txt", 2)]), &d);
        assert!(v.is_empty());
        assert_eq!(v.dropped, 3);
    }

    #[test]
    fn path_must_equal_the_key_exactly() {
        // dot_slash_path_dropped
        let d = docs(&[("src/app.py", "a\nb\nc")]);
        let v = verify(&claims(&[("./src/app.py", 3)]), &d);
        assert!(v.is_empty());
        assert_eq!(v.dropped, 1);
    }

    #[test]
    fn the_empty_line_after_a_final_newline_is_not_a_line() {
        // rlmgrep's split gives "one\ntwo\n" a third, empty line; ripgrep
        // counts two, and so does verification.
        let d = docs(&[
            ("a", "one\ntwo\n"),
            ("b", "one\n\n"),
            ("c", "\n"),
            ("d", "x"),
        ]);
        let v = verify(
            &claims(&[
                ("a", 2),
                ("a", 3),
                ("a", 4),
                ("b", 2),
                ("b", 3),
                ("c", 1),
                ("c", 2),
                ("d", 1),
            ]),
            &d,
        );
        assert_eq!(lines(&v, "a"), vec![2]);
        // A real empty line before the final newline is a line.
        assert_eq!(lines(&v, "b"), vec![2]);
        assert_eq!(lines(&v, "c"), vec![1]);
        assert_eq!(lines(&v, "d"), vec![1]);
        assert_eq!(v.dropped, 4);
    }

    #[test]
    fn empty_document_has_line_one() {
        let d = docs(&[("empty", "")]);
        let v = verify(&claims(&[("empty", 1), ("empty", 2)]), &d);
        assert_eq!(lines(&v, "empty"), vec![1]);
        assert_eq!(v.dropped, 1);
    }

    #[test]
    fn claims_deserialise_from_the_model_json() {
        let c: Vec<Claim> = serde_json::from_str(r#"[{"path": "src/app.py", "line": 3}]"#).unwrap();
        assert_eq!(c, claims(&[("src/app.py", 3)]));
    }

    #[test]
    fn a_file_locates_by_a_query_word_or_a_definition() {
        let d = docs(&[
            ("a.py", "x = 1\ndef evict(self):\n"),
            ("b.py", "self.scope = scope\n"),
            ("c.py", "limit = 30\n"),
        ]);
        let claimed = verify(&claims(&[("a.py", 2), ("b.py", 1), ("c.py", 1)]), &d);
        let words = |key: &str, n: usize| key == "c.py" && n == 1;
        assert_eq!(not_locating(&claimed, &d, &words), vec!["b.py".to_string()]);
        let first = verify(&claims(&[("a.py", 1)]), &d);
        assert_eq!(not_locating(&first, &d, &words), vec!["a.py".to_string()]);
    }
}
