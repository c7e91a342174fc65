//! Python's `json.dumps`, byte for byte, for the option sets rlmgrep uses, and
//! Python's `repr()` of a float (which `json.dumps` and `str()` both print).
//!
//! - Floats print as Python prints them: the shortest digits that round-trip,
//!   fixed notation for exponents −4 … 15 (`1.0`, `0.0001`, `1e+16`, `1e-05`).
//!   serde_json would print `1e16` and `1e-5`.
//! - Strings escape `"`, `\`, `\n`, `\r`, `\t`, `\b`, `\f` by name and other
//!   C0 controls as `\u00XX` (lowercase hex); with `ensure_ascii` every
//!   non-ASCII character too (as UTF-16 units, so astral characters become a
//!   surrogate pair), DEL included. kgrep adds one option, `escape_controls`,
//!   that also escapes DEL, the C1 controls and the hidden format characters
//!   (`render::sanitize::is_hidden_format`: bidi controls, U+2028, …), for a
//!   terminal and for text a model wrote; the JSON still means the same.
//! - `indent` puts one item per line; empty arrays and objects stay `[]`/`{}`.
//!
//! The value is a `serde_json::Value`: integers print as integers, floats as
//! floats, object keys in the map's order (kgrep enables serde_json's
//! `preserve_order`, so that is the order the model wrote them in).

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::{Number, Value};

/// Python's `json.dumps` keyword arguments, as far as rlmgrep uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dumps {
    /// `ensure_ascii` (Python's default is `True`).
    pub ensure_ascii: bool,
    /// `indent`: `None` for one line.
    pub indent: Option<usize>,
    /// `separators=(",", ":")` instead of Python's defaults `", "`/`": "`
    /// (`","`/`": "` when indenting).
    pub compact: bool,
    /// kgrep's addition: also escape DEL, C1 controls and hidden format
    /// characters ([`is_terminal_unsafe`]).
    pub escape_controls: bool,
}

impl Dumps {
    /// `json.dumps(v, ensure_ascii=False, separators=(",", ":"))`: `--signature-json`.
    pub const COMPACT: Dumps = Dumps {
        ensure_ascii: false,
        indent: None,
        compact: true,
        escape_controls: false,
    };
    /// `json.dumps(v, ensure_ascii=False, indent=2)`: values in `--signature`.
    pub const INDENT2: Dumps = Dumps {
        ensure_ascii: false,
        indent: Some(2),
        compact: false,
        escape_controls: false,
    };
}

/// `json.dumps(value, **opts)`.
pub fn dumps(value: &Value, opts: &Dumps) -> String {
    let mut out = String::new();
    write_value(&mut out, value, opts, 0);
    out
}

/// Python's `repr(float)` (also `str(float)`): `1.0`, `0.5`, `1e-05`, `1e+16`,
/// `inf`, `nan`.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits, as Python's repr does;
    // only the layout differs.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let mut out = String::from(sign);
    if (-4..16).contains(&exp) {
        fixed(&mut out, &digits, exp);
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    out
}

/// Fixed notation of `0.d1d2… × 10^(exp+1)`, always with a fractional part.
fn fixed(out: &mut String, digits: &str, exp: i32) {
    if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits);
        return;
    }
    let int_len = usize::try_from(exp).unwrap_or(0) + 1;
    if digits.len() <= int_len {
        out.push_str(digits);
        for _ in digits.len()..int_len {
            out.push('0');
        }
        out.push_str(".0");
    } else {
        out.push_str(&digits[..int_len]);
        out.push('.');
        out.push_str(&digits[int_len..]);
    }
}

/// A JSON number as Python prints it: integers exactly, floats by [`float_repr`]
/// (`NaN`/`Infinity` cannot occur: serde_json numbers are finite).
pub fn number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        float_repr(n.as_f64().unwrap_or(f64::NAN))
    }
}

fn write_value(out: &mut String, value: &Value, opts: &Dumps, level: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => write_string(out, s, opts),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(item_separator(opts));
                }
                newline(out, opts, level + 1);
                write_value(out, item, opts, level + 1);
            }
            newline(out, opts, level);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(item_separator(opts));
                }
                newline(out, opts, level + 1);
                write_string(out, key, opts);
                out.push_str(if opts.compact { ":" } else { ": " });
                write_value(out, item, opts, level + 1);
            }
            newline(out, opts, level);
            out.push('}');
        }
    }
}

/// Python's item separator: `", "` without indent, `","` with it (the newline
/// follows), `","` when compact.
fn item_separator(opts: &Dumps) -> &'static str {
    if opts.compact || opts.indent.is_some() {
        ","
    } else {
        ", "
    }
}

fn newline(out: &mut String, opts: &Dumps, level: usize) {
    if let Some(indent) = opts.indent {
        out.push('\n');
        for _ in 0..indent * level {
            out.push(' ');
        }
    }
}

/// A JSON string with Python's escaping (see the module doc).
pub fn write_string(out: &mut String, text: &str, opts: &Dumps) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => push_u_escape(out, c),
            c if opts.ensure_ascii && !(' '..='~').contains(&c) => push_u_escape(out, c),
            c if opts.escape_controls && is_terminal_unsafe(c) => push_u_escape(out, c),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// DEL and the C1 controls (U+007F..=U+009F), which a terminal may act on,
/// and the hidden format characters, which change how the text around them
/// reads ([`crate::render::sanitize::is_hidden_format`]): what
/// `escape_controls` adds to the C0 escapes. The one home of this rule, for
/// `render::json`'s serde_json formatter too.
pub fn is_terminal_unsafe(c: char) -> bool {
    ('\u{7f}'..='\u{9f}').contains(&c) || crate::render::sanitize::is_hidden_format(c)
}

/// `text` with each [`is_terminal_unsafe`] character as a `\uXXXX` escape,
/// everything else as it is (borrowed when there is none).
pub fn escape_terminal_unsafe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_terminal_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_terminal_unsafe(c) {
            push_u_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `\uXXXX` per UTF-16 unit, lowercase hex, as Python writes them.
fn push_u_escape(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{unit:04x}");
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    //! Expected strings are Python 3.11's own output (`repr`, `json.dumps`).

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
    fn escape_controls_hides_del_c1_and_format_characters_but_keeps_other_text() {
        let opts = Dumps {
            escape_controls: true,
            ..Dumps::COMPACT
        };
        assert_eq!(
            dumps(
                &json!("a\u{7f}\u{9b}é\u{2028}\u{202e}\u{200d}\u{e0041}"),
                &opts
            ),
            "\"a\\u007f\\u009bé\\u2028\\u202e\u{200d}\\udb40\\udc41\""
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
    fn terminal_unsafe_characters_escape_alone_for_serde_json() {
        assert_eq!(escape_terminal_unsafe("plain é"), Cow::Borrowed("plain é"));
        assert_eq!(
            escape_terminal_unsafe("a\u{7f}\u{80}\u{9b}\u{9f}\u{a0}\u{1}\u{2066}"),
            "a\\u007f\\u0080\\u009b\\u009f\u{a0}\u{1}\\u2066"
        );
        for c in ['~', '\u{a0}', '\u{1b}', '\u{200d}'] {
            assert!(!is_terminal_unsafe(c), "{c:?}");
        }
    }
}
