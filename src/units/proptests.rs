//! Property tests: on any bytes, on code-like token soup, and on the sample
//! files cut anywhere or spliced with random bytes, `parse` never panics and
//! every range it returns lies inside the text on char boundaries, with units
//! sorted, nested and found again by the lookups.

#![allow(clippy::unwrap_used)]

use std::ops::Range;
use std::time::Duration;

use proptest::prelude::*;

use super::tests::SAMPLES;
use super::*;

/// Long enough for any input here even in a loaded debug build: the
/// properties are about output, not the time limit.
const LIMIT: Duration = Duration::from_secs(30);

/// Offsets that fall inside a valid UTF-8 character (invalid bytes are
/// characters of their own).
fn inside_chars(text: &[u8]) -> Vec<bool> {
    let mut inside = vec![false; text.len() + 1];
    let mut at = 0;
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            for i in 1..c.len_utf8() {
                inside[at + i] = true;
            }
            at += c.len_utf8();
        }
        at += chunk.invalid().len();
    }
    inside
}

fn check_range(what: &str, range: &Range<usize>, text: &[u8], inside: &[bool]) {
    assert!(
        range.start <= range.end && range.end <= text.len(),
        "{what} {range:?} outside 0..{}",
        text.len()
    );
    assert!(
        !inside[range.start] && !inside[range.end],
        "{what} {range:?} splits a character"
    );
}

fn within(what: &str, inner: &Range<usize>, outer: &Range<usize>) {
    assert!(
        outer.start <= inner.start && inner.end <= outer.end,
        "{what} {inner:?} outside {outer:?}"
    );
}

/// Everything `parse` promises about its output.
fn check(units: &Units, text: &[u8]) {
    let inside = inside_chars(text);
    let lines = text.iter().filter(|&&b| b == b'\n').count() + 1;
    for (i, unit) in units.units.iter().enumerate() {
        check_range("span", &unit.span, text, &inside);
        check_range("header", &unit.header, text, &inside);
        within("header", &unit.header, &unit.span);
        for range in unit.name.iter().chain(&unit.body).chain(&unit.doc) {
            check_range("name/body/doc", range, text, &inside);
            within("name/body/doc", range, &unit.span);
        }
        assert!(1 <= unit.start_line && unit.start_line <= unit.end_line && unit.end_line <= lines);
        assert!(unit.start_line <= unit.def_line && unit.def_line <= unit.end_line);
        if let Some(parent) = unit.parent {
            assert!(parent < i, "unit {i}'s parent {parent} comes after it");
            within("child span", &unit.span, &units.units[parent].span);
        }
        if i > 0 {
            assert!(
                units.units[i - 1].span.start <= unit.span.start,
                "units out of order"
            );
        }
        if unit.kind == UnitKind::Statements {
            assert_eq!(unit.parent, None);
        }
        if unit.span.is_empty() {
            continue;
        }
        // the lookups find this unit or one inside it
        let at = units.at_byte(unit.span.start).unwrap();
        assert!(
            units.ancestors(at).any(|a| a == i),
            "at_byte misses unit {i}"
        );
        let at = units.at_line(unit.start_line).unwrap();
        assert!(
            units.units[at].start_line <= unit.start_line
                && unit.start_line <= units.units[at].end_line
        );
    }
    // siblings never overlap
    let mut last_end: std::collections::HashMap<Option<usize>, usize> = Default::default();
    for unit in &units.units {
        let end = last_end.entry(unit.parent).or_insert(0);
        assert!(
            *end <= unit.span.start,
            "sibling spans overlap at {:?}",
            unit.span
        );
        *end = unit.span.end;
    }
    for range in units
        .calls
        .iter()
        .chain(&units.strings)
        .chain(&units.comments)
    {
        check_range("call/string/comment", range, text, &inside);
    }
}

fn lang() -> impl Strategy<Value = Lang> {
    prop::sample::select(Lang::ALL.to_vec())
}

const TOKENS: &[&str] = &[
    "fn",
    "def",
    "func",
    "function",
    "class",
    "struct",
    "impl",
    "trait",
    "interface",
    "enum",
    "mod",
    "namespace",
    "type",
    "const",
    "let",
    "var",
    "static",
    "return",
    "if",
    "else",
    "for",
    "import",
    "use",
    "#include",
    "#define",
    "#ifdef",
    "#endif",
    "package",
    "export",
    "default",
    "describe",
    "it",
    "test",
    "@Test",
    "#[test]",
    "#[cfg(test)]",
    "template",
    "public",
    "x",
    "f",
    "A",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ";",
    ":",
    ",",
    ".",
    "=",
    "=>",
    "->",
    "::",
    "*",
    "&",
    "'s'",
    "\"s\"",
    "`t${x}`",
    "\"\"\"doc\"\"\"",
    "r#\"raw\"#",
    "// c",
    "/// d",
    "/* c */",
    "# c",
    "\n",
    "\n\n",
    "    ",
    "\t",
    "é",
    "日本",
    "\u{feff}",
    "\\",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..200).prop_map(|t| t.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes(lang in lang(), text in prop::collection::vec(any::<u8>(), 0..600)) {
        if let Some(units) = parse_within(lang, &text, LIMIT) {
            check(&units, &text);
        }
    }

    #[test]
    fn token_soup_parses_into_sound_units(lang in lang(), text in token_soup()) {
        let units = parse_within(lang, text.as_bytes(), LIMIT).unwrap();
        check(&units, text.as_bytes());
    }

    #[test]
    fn samples_cut_anywhere(sample in 0..SAMPLES.len(), cut in 0.0..1.0f64, splice in prop::collection::vec(any::<u8>(), 0..8)) {
        let (lang, text) = SAMPLES[sample];
        let at = (text.len() as f64 * cut) as usize;
        let cut_text = &text.as_bytes()[..at];
        let units = parse_within(lang, cut_text, LIMIT).unwrap();
        check(&units, cut_text);
        let mut spliced = cut_text.to_vec();
        spliced.extend_from_slice(&splice);
        spliced.extend_from_slice(&text.as_bytes()[at..]);
        let units = parse_within(lang, &spliced, LIMIT).unwrap();
        check(&units, &spliced);
    }

    #[test]
    fn samples_in_the_wrong_grammar(sample in 0..SAMPLES.len(), lang in lang()) {
        let text = SAMPLES[sample].1.as_bytes();
        let units = parse_within(lang, text, LIMIT).unwrap();
        check(&units, text);
    }
}

#[test]
fn samples_hold_the_properties() {
    for (lang, text) in SAMPLES {
        check(&parse(lang, text.as_bytes()).unwrap(), text.as_bytes());
    }
}

/// Seeded mutations of the samples (bytes flipped, dropped, doubled, lines
/// swapped): the same 300 inputs every run, beside proptest's random ones.
#[test]
fn seeded_mutations_of_the_samples() {
    use crate::testing::{below, rng};
    let mut rng = rng(31);
    for round in 0..300 {
        let (lang, text) = SAMPLES[round % SAMPLES.len()];
        let mut bytes = text.as_bytes().to_vec();
        for _ in 0..1 + below(&mut rng, 6) {
            let at = below(&mut rng, bytes.len());
            match below(&mut rng, 4) {
                0 => bytes[at] = below(&mut rng, 256) as u8,
                1 => {
                    bytes.remove(at);
                }
                2 => {
                    let end = (at + below(&mut rng, 40)).min(bytes.len());
                    let copy = bytes[at..end].to_vec();
                    bytes.splice(at..at, copy);
                }
                _ => {
                    let other = below(&mut rng, bytes.len());
                    let (a, b) = (at.min(other), at.max(other));
                    bytes[a..b].reverse();
                }
            }
        }
        let units = parse_within(lang, &bytes, LIMIT).unwrap();
        check(&units, &bytes);
    }
}
