//! Expected strings are Python 3.11's own output (`repr`, `json.dumps`).

#![allow(clippy::unwrap_used)]

use super::*;
use serde_json::json;

/// `(value, repr(value))` pairs printed by Python.
const FLOATS: &[(f64, &str)] = &[
    (0.0, "0.0"),
    (-0.0, "-0.0"),
    (1.0, "1.0"),
    (0.5, "0.5"),
    (1e-05, "1e-05"),
    (0.0001, "0.0001"),
    (1e+16, "1e+16"),
    (1000000000000000.0, "1000000000000000.0"),
    (123456789012345.6, "123456789012345.6"),
    (1234567890123456.8, "1234567890123456.8"),
    (1.5e+300, "1.5e+300"),
    (-2.5e-07, "-2.5e-07"),
    (0.1, "0.1"),
    (0.3333333333333333, "0.3333333333333333"),
    (9007199254740992.0, "9007199254740992.0"),
    (5e-324, "5e-324"),
    (1.7976931348623157e+308, "1.7976931348623157e+308"),
    (100.0, "100.0"),
    (120000000000.0, "120000000000.0"),
    (f64::INFINITY, "inf"),
    (f64::NAN, "nan"),
];

#[test]
fn floats_print_as_python_repr() {
    for &(f, want) in FLOATS {
        assert_eq!(float_repr(f), want, "{f:e}");
    }
}

/// The value behind the `dumps` cases below.
fn sample() -> Value {
    json!({
        "a": [1, 2.0, "x\u{e9}\u{2028}\u{7f}\u{85}\u{1}\u{8}\u{c}\n\r\t\"\\/",
              {"k": [], "e": {}}, null, true, false, "\u{1F600}"],
        "n": {"z": 1, "y": [[]]}
    })
}

/// Parses a JSON string literal (Python printed `json.dumps(json.dumps(v, …))`).
fn py(literal: &str) -> String {
    serde_json::from_str(literal).unwrap()
}

#[test]
fn dumps_matches_python_in_every_mode_rlmgrep_uses() {
    let v = sample();
    assert_eq!(
        dumps(&v, &Dumps::COMPACT),
        py(
            r#""{\"a\":[1,2.0,\"x\u00e9\u2028\u007f\u0085\\u0001\\b\\f\\n\\r\\t\\\"\\\\/\",{\"k\":[],\"e\":{}},null,true,false,\"\ud83d\ude00\"],\"n\":{\"z\":1,\"y\":[[]]}}""#
        )
    );
    assert_eq!(
        dumps(&v, &Dumps::INDENT2),
        py(
            r#""{\n  \"a\": [\n    1,\n    2.0,\n    \"x\u00e9\u2028\u007f\u0085\\u0001\\b\\f\\n\\r\\t\\\"\\\\/\",\n    {\n      \"k\": [],\n      \"e\": {}\n    },\n    null,\n    true,\n    false,\n    \"\ud83d\ude00\"\n  ],\n  \"n\": {\n    \"z\": 1,\n    \"y\": [\n      []\n    ]\n  }\n}""#
        )
    );
}

#[test]
fn dumps_with_ensure_ascii_escapes_like_python() {
    let v = sample();
    let default = Dumps {
        ensure_ascii: true,
        indent: None,
        compact: false,
        escape_controls: false,
    };
    assert_eq!(
        dumps(&v, &default),
        py(
            r#""{\"a\": [1, 2.0, \"x\\u00e9\\u2028\\u007f\\u0085\\u0001\\b\\f\\n\\r\\t\\\"\\\\/\", {\"k\": [], \"e\": {}}, null, true, false, \"\\ud83d\\ude00\"], \"n\": {\"z\": 1, \"y\": [[]]}}""#
        )
    );
    let indented = Dumps {
        indent: Some(2),
        ..default
    };
    assert_eq!(
        dumps(&v, &indented),
        py(
            r#""{\n  \"a\": [\n    1,\n    2.0,\n    \"x\\u00e9\\u2028\\u007f\\u0085\\u0001\\b\\f\\n\\r\\t\\\"\\\\/\",\n    {\n      \"k\": [],\n      \"e\": {}\n    },\n    null,\n    true,\n    false,\n    \"\\ud83d\\ude00\"\n  ],\n  \"n\": {\n    \"z\": 1,\n    \"y\": [\n      []\n    ]\n  }\n}""#
        )
    );
}

#[test]
fn escape_controls_hides_del_and_c1_but_keeps_other_text() {
    let opts = Dumps {
        escape_controls: true,
        ..Dumps::COMPACT
    };
    assert_eq!(
        dumps(&json!("a\u{7f}\u{9b}é\u{2028}"), &opts),
        "\"a\\u007f\\u009bé\u{2028}\""
    );
}

#[test]
fn object_keys_keep_their_order() {
    let v: Value = serde_json::from_str(r#"{"py": 2, "md": 1}"#).unwrap();
    assert_eq!(dumps(&v, &Dumps::COMPACT), r#"{"py":2,"md":1}"#);
}

#[test]
fn numbers_keep_their_kind() {
    let v: Value = serde_json::from_str("[1, 1.0, -3, 18446744073709551615, 2.5e-7]").unwrap();
    assert_eq!(
        dumps(&v, &Dumps::COMPACT),
        "[1,1.0,-3,18446744073709551615,2.5e-07]"
    );
}

#[test]
fn del_and_c1_escape_alone_for_serde_json() {
    assert_eq!(escape_del_and_c1("plain é"), Cow::Borrowed("plain é"));
    assert_eq!(
        escape_del_and_c1("a\u{7f}\u{80}\u{9b}\u{9f}\u{a0}\u{1}"),
        "a\\u007f\\u0080\\u009b\\u009f\u{a0}\u{1}"
    );
    assert!(!is_del_or_c1('~') && !is_del_or_c1('\u{a0}') && !is_del_or_c1('\u{1b}'));
}
