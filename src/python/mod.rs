//! Python's text and JSON semantics, where kgrep must print what rlmgrep (a Python
//! program) printed: `str.isspace`/`strip`, `repr()` of strings and floats, and
//! `json.dumps` with its exact escaping, separators and indentation.
//!
//! Owns only these reproductions; what is printed, and when, belongs to the
//! renderers (`render::answer`, `render::signature`) and to `signature`'s error
//! messages, which quote Python reprs.

pub mod json;
pub mod text;
