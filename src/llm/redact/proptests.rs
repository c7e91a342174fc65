//! Property tests: on documents mixed at random from the pieces every rule
//! knows (secret names, quotes, joiners, key blocks, multi-byte text), the
//! redactor never panics, keeps every line, agrees between its whole-text
//! fast path and its line path, changes nothing the second time, and never
//! lets a provider-shaped key or a planted secret line through, whatever
//! lines surround it.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use super::tests::{line_pool, planted};
use super::*;

/// Pieces of lines: every pool line's words, and the characters the rules
/// look at (quotes, joiners, separators, multi-byte letters).
fn pieces() -> Vec<String> {
    let mut out: Vec<String> = line_pool()
        .iter()
        .flat_map(|line| {
            line.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    out.extend(
        [
            "\"",
            "'",
            "`",
            "(",
            ")",
            "=",
            ":",
            ",",
            "+",
            "@",
            "/",
            "\\",
            "#",
            "--",
            "-p",
            "é",
            "\u{3c3}",
            "\u{1f600}",
            "[REDACTED",
            "]",
            "\t",
            "\r",
            "password",
            "token",
            "key",
            "Bearer",
            "https://",
            "user:",
            "-----BEGIN",
            "PRIVATE KEY-----",
        ]
        .map(str::to_string),
    );
    out.sort();
    out.dedup();
    out
}

/// A line of up to 10 pieces, each followed by a separator (or none).
fn line(pieces: &'static [String]) -> impl Strategy<Value = String> {
    const SEPARATORS: &[&str] = &[" ", "", " ", "=", ": ", "\"", "'", ", ", " + "];
    prop::collection::vec((0..pieces.len(), 0..SEPARATORS.len()), 0..10).prop_map(move |parts| {
        parts
            .iter()
            .map(|&(p, s)| format!("{}{}", pieces[p], SEPARATORS[s]))
            .collect()
    })
}

/// A document: up to 8 lines, some whole pool lines, some mixed.
fn document() -> impl Strategy<Value = Vec<String>> {
    static PIECES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(pieces);
    static POOL: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(line_pool);
    let whole = (0..POOL.len()).prop_map(|i| POOL[i].clone());
    prop::collection::vec(prop_oneof![whole, line(&PIECES)], 0..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn lines_are_kept_and_both_paths_agree(doc in document()) {
        let (lines, count) = redact_lines(&doc);
        prop_assert_eq!(lines.len(), doc.len());
        prop_assert!(lines.iter().all(|l| !l.contains('\n')));
        let text = doc.join("\n");
        let want = lines.join("\n");
        match redact_text(&text) {
            Some(r) => prop_assert_eq!((r.text, r.count), (want, count)),
            None => prop_assert_eq!((text, 0), (want, count)),
        }
    }

    #[test]
    fn redacting_again_changes_nothing(doc in document()) {
        let once = redact(&doc.join("\n"));
        let twice = redact(&once.text);
        prop_assert_eq!(&twice.text, &once.text);
        prop_assert_eq!(twice.count, 0);
    }

    #[test]
    fn a_planted_secret_line_is_redacted_among_any_lines(
        before in document(),
        after in document(),
        which in 0usize..64,
    ) {
        let planted = planted();
        let (line, secret) = &planted[which % planted.len()];
        let mut doc = before.clone();
        doc.push(line.clone());
        doc.extend(after);
        let (out, _) = redact_lines(&doc);
        prop_assert!(
            !out[before.len()].contains(secret.as_str()),
            "{:?} -> {:?}",
            doc,
            out
        );
    }

    #[test]
    fn a_provider_key_is_redacted_between_any_pieces(
        before in line(&PIECES_FOR_KEYS),
        after in line(&PIECES_FOR_KEYS),
        which in 0usize..64,
    ) {
        let keys = provider_keys();
        let key = &keys[which % keys.len()];
        let doc = format!("{before} {key} {after}");
        let out = redact(&doc).text;
        // The key as its own word (a piece may hold it glued to a name, as
        // `DigestAKIA…` does: an identifier, not a key).
        prop_assert!(!out.split_whitespace().any(|w| w == key), "{:?} -> {:?}", doc, out);
    }
}

static PIECES_FOR_KEYS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(pieces);

/// Keys whose shape alone says what they are (a provider's prefix), built
/// from pieces so this file trips no scanner.
fn provider_keys() -> Vec<String> {
    vec![
        format!("sk-proj-{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"),
        format!("sk-ant-api03-{}", "abcdefghijklmnopqrstuvwxyz012345"),
        format!("AKIA{}", "IOSFODNN7EXAMPLE"),
        format!("ghp_{}", "0123456789abcdefghijABCDEFGHIJ012345"),
        format!("github_pat_{}", "11ABCDEFG0123456789_abcdefghijklmnop"),
        format!("AIza{}", "SyA-0123456789abcdefghijklmnopqrstu"),
        format!("xoxb-{}", "123456789012-abcdefghijkl"),
        format!("sk_live_{}", "0123456789abcdefABCDEF"),
    ]
}
