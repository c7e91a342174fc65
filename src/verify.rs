//! Verification: the model's claims checked against the documents actually loaded.
//!
//! A claim is a `(path, line)` pair proposed by the model. It survives only when
//! `path` is exactly the key of a loaded document (so `./src/app.py`, hidden,
//! ignored and never-loaded files are dropped) and `1 <= line <= line_count`.
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

/// Removes verified lines that are empty or only whitespace: they exist, but
/// they answer nothing (small models cite the blank line after a function).
/// Not counted in `dropped` (that count is rlmgrep's, for claims that do not
/// exist); returns how many were removed.
pub fn drop_blank(verified: &mut Verified, docs: &BTreeMap<String, Document>) -> usize {
    let mut removed = 0;
    for (key, lines) in verified.files.iter_mut() {
        let Some(doc) = docs.get(key) else { continue };
        let texts: Vec<&[u8]> = doc.lines().collect();
        let before = lines.len();
        lines.retain(|&n| {
            texts
                .get(n.wrapping_sub(1))
                .is_some_and(|t| !t.iter().all(u8::is_ascii_whitespace))
        });
        removed += before - lines.len();
    }
    verified.files.retain(|_, lines| !lines.is_empty());
    removed
}

/// The claim's line as an index into its document, or `None` if it does not exist.
fn verified_line(claim: &Claim, docs: &BTreeMap<String, Document>) -> Option<usize> {
    let doc = docs.get(&claim.path)?;
    let line = usize::try_from(claim.line).ok()?;
    (1..=doc.line_count()).contains(&line).then_some(line)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn doc(key: &str, text: &str) -> Document {
        Document {
            key: key.to_string(),
            text: text.as_bytes().to_vec(),
            pages: None,
        }
    }

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
        assert_eq!(drop_blank(&mut v, &d), 3);
        assert_eq!(lines(&v, "a.txt"), vec![1]);
        assert!(!v.files.contains_key("b.txt"));
        assert_eq!(v.dropped, 0);
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
    fn trailing_newline_gives_a_valid_empty_last_line() {
        let d = docs(&[("a", "one\ntwo\n")]);
        let v = verify(&claims(&[("a", 3), ("a", 4)]), &d);
        assert_eq!(lines(&v, "a"), vec![3]);
        assert_eq!(v.dropped, 1);
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
}
