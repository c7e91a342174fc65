//! `--signature` and `--signature-json` on stdout, byte for byte as rlmgrep.
//!
//! `--signature` (rlmgrep's `_render_signature_markdown`):
//!
//! ```text
//! ===== Signature Output =====
//!
//! ----- summary -----
//! connect() opens the database connection.
//!
//! ----- files -----
//! [
//!   "src/app.py:9"
//! ]
//! ```
//!
//! Scalars print as Python's `str()` (`3`, `0.5`, the string itself), booleans
//! as `true`/`false`, a missing value as `null`; lists and dicts as
//! `json.dumps(value, ensure_ascii=False, indent=2)`. The whole text is
//! `rstrip()`ped (so the last field's trailing blank line — and any trailing
//! whitespace of its value — goes) and ends in one newline.
//!
//! `--signature-json`: `json.dumps(payload, ensure_ascii=False,
//! separators=(",", ":"))` and a newline: non-ASCII kept, floats as Python
//! prints them (`1.0`), keys in spec order.
//!
//! The values are the validated fields (`signature::validate`); fields are
//! printed in spec order. rlmgrep printed a bound method's repr for a field
//! named `items` (or any other `Prediction` method name); kgrep prints the
//! value. Control characters and hidden format characters (bidi controls,
//! U+2028, …: `sanitize::is_hidden_format`) in values are made visible in
//! `--signature`'s text, and `\u`-escaped in `--signature-json`, on a
//! terminal or not (rlmgrep printed them raw): the values are a model's
//! text, and a pipe often ends in a terminal. The JSON still means the
//! same; its bytes are rlmgrep's for any value without such characters.

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::sanitize::sanitize_text;
use crate::python::json::{dumps, number, Dumps};
use crate::python::text::rstrip;
use crate::signature::Spec;

/// First line of `--signature`.
pub const HEADER: &str = "===== Signature Output =====";
/// What `--signature` prints for a spec without fields (rlmgrep; kgrep's
/// parser never yields one, but the layout is kept whole).
pub const NO_FIELDS: &str = "No output fields returned.";

/// Which flag asked for the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureFormat {
    /// `--signature`: sectioned text.
    Text,
    /// `--signature-json`: one compact JSON object.
    Json,
}

/// `--signature`'s text, ending in a newline.
pub fn signature_text(spec: &Spec, values: &Map<String, Value>) -> String {
    let mut lines: Vec<String> = vec![HEADER.to_string(), String::new()];
    for field in spec.fields() {
        lines.push(format!("----- {} -----", field.name));
        let value = values.get(&field.name).unwrap_or(&Value::Null);
        lines.push(match value {
            Value::Null => "null".to_string(),
            Value::Bool(true) => "true".to_string(),
            Value::Bool(false) => "false".to_string(),
            Value::Number(n) => number(n),
            Value::String(s) => s.clone(),
            other => dumps(other, &Dumps::INDENT2),
        });
        lines.push(String::new());
    }
    if lines.len() == 2 {
        lines.push(NO_FIELDS.to_string());
        lines.push(String::new());
    }
    let mut out = rstrip(&lines.join("\n")).to_string();
    out.push('\n');
    out
}

/// `--signature-json`'s line, ending in a newline. `escape_controls` also
/// escapes DEL, C1 controls and hidden format characters.
pub fn signature_json(spec: &Spec, values: &Map<String, Value>, escape_controls: bool) -> String {
    let payload: Map<String, Value> = spec
        .fields()
        .iter()
        .map(|f| {
            let value = values.get(&f.name).cloned().unwrap_or(Value::Null);
            (f.name.clone(), value)
        })
        .collect();
    let opts = Dumps {
        escape_controls,
        ..Dumps::COMPACT
    };
    let mut out = dumps(&Value::Object(payload), &opts);
    out.push('\n');
    out
}

/// Writes the output of `format`, the same on a terminal or a pipe.
pub fn write_signature<W: Write>(
    out: &mut W,
    format: SignatureFormat,
    spec: &Spec,
    values: &Map<String, Value>,
) -> io::Result<()> {
    // Made safe on a pipe too, as `--answer`'s text is (issue 27): a pipe
    // often ends in a terminal (`| less -R`, `2>&1 | tee`), and a reply
    // steered by a searched file must not drive it, write the clipboard
    // (OSC 52) nor reorder what it shows (bidi overrides). Only those
    // characters change.
    let text = match format {
        SignatureFormat::Json => signature_json(spec, values, true),
        SignatureFormat::Text => sanitize_text(&signature_text(spec, values)).into_owned(),
    };
    out.write_all(text.as_bytes())
}

/// rlmgrep writes an empty line to stderr before the output when both stdout
/// and stderr are terminals ("visual separation in interactive terminals").
pub fn stderr_separator(stdout_tty: bool, stderr_tty: bool) -> bool {
    stdout_tty && stderr_tty
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::signature::parse;
    use serde_json::json;

    fn values(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn missing_values_print_null_and_only_the_end_is_stripped() {
        let spec = parse("a: str, b: int").unwrap();
        assert_eq!(
            signature_text(&spec, &values(json!({"a": "x  \n\n"}))),
            "===== Signature Output =====\n\n----- a -----\nx  \n\n\n\n----- b -----\nnull\n"
        );
        assert_eq!(
            signature_text(&spec, &values(json!({"b": 1, "a": "x"}))),
            "===== Signature Output =====\n\n----- a -----\nx\n\n----- b -----\n1\n"
        );
        let last = parse("a: str").unwrap();
        assert_eq!(
            signature_text(&last, &values(json!({"a": "x \n\t\n"}))),
            "===== Signature Output =====\n\n----- a -----\nx\n"
        );
        assert_eq!(
            signature_json(&spec, &values(json!({"b": 2})), false),
            "{\"a\":null,\"b\":2}\n"
        );
    }

    #[test]
    fn a_field_named_items_prints_its_value() {
        let spec = parse("items: list[str]").unwrap();
        assert_eq!(
            signature_text(&spec, &values(json!({"items": ["a"]}))),
            "===== Signature Output =====\n\n----- items -----\n[\n  \"a\"\n]\n"
        );
    }

    #[test]
    fn output_is_safe_on_a_terminal_or_a_pipe() {
        let spec = parse("s: str").unwrap();
        let v = values(json!({"s": "a\u{1b}[2J\u{9b} \u{202e}b\u{2028}c"}));
        let mut out = Vec::new();
        write_signature(&mut out, SignatureFormat::Text, &spec, &v).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "===== Signature Output =====\n\n----- s -----\na^[[2JM-^[ <U+202E>b<U+2028>c\n"
        );
        let mut out = Vec::new();
        write_signature(&mut out, SignatureFormat::Json, &spec, &v).unwrap();
        let json = String::from_utf8(out).unwrap();
        assert_eq!(json, "{\"s\":\"a\\u001b[2J\\u009b \\u202eb\\u2028c\"}\n");
        // The same value, decoded.
        let decoded: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(decoded["s"], v["s"]);
    }

    #[test]
    fn separator_only_between_two_terminals() {
        assert!(stderr_separator(true, true));
        assert!(!stderr_separator(true, false));
        assert!(!stderr_separator(false, true));
    }
}
