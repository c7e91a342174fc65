//! The values a `--signature` spec is made of: a field's [`Type`], a
//! `Literal[...]` value, and [`SpecError`], why a spec was rejected (rlmgrep's
//! messages). Parsing them is `spec`'s job (with `syntax` and `resolve`, which
//! build these values); this module only defines them and how they print.

use std::fmt;

use thiserror::Error;

use crate::python::{json::float_repr, text};

/// Longest spec accepted, in bytes. A spec is typed on a command line; the bound
/// keeps the parser's work and the schema sent with every model call small.
pub const MAX_SPEC_BYTES: usize = 8 * 1024;

/// The list of supported types, as rlmgrep's message gives it.
const SUPPORTED: &str = "str, int, float, bool, list[T], dict[str, T], Literal[...]";

/// A field's type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Str,
    Int,
    Float,
    Bool,
    /// `list[T]`, or a bare `list` (any JSON values) when `None`.
    List(Option<Box<Type>>),
    /// `dict[str, T]`, or a bare `dict` (any JSON values) when `None`. Keys are
    /// always strings: they are JSON object keys.
    Dict(Option<Box<Type>>),
    /// `Literal[...]`: one of these values (at least one, no duplicates).
    Literal(Vec<LiteralValue>),
}

/// One allowed value of a `Literal[...]`.
#[derive(Clone, Debug, PartialEq)]
pub enum LiteralValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// Why a spec was rejected. `Display` is the whole message after `kgrep: `.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("--signature accepts output fields only")]
    Arrow,
    #[error("--signature cannot be empty")]
    Empty,
    #[error("--signature is longer than {MAX_SPEC_BYTES} bytes")]
    TooLong,
    /// rlmgrep's `invalid --signature: …` family (syntax, names, field rules).
    #[error("invalid --signature: {0}")]
    Invalid(String),
    #[error(
        "unsupported output type for field '{field}': {annotation}. Supported types: {SUPPORTED}"
    )]
    Unsupported { field: String, annotation: String },
}

impl fmt::Display for Type {
    /// Python spelling: `list[str]`, `dict[str, int]`, `Literal['a', 1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Str => f.write_str("str"),
            Type::Int => f.write_str("int"),
            Type::Float => f.write_str("float"),
            Type::Bool => f.write_str("bool"),
            Type::List(None) => f.write_str("list"),
            Type::List(Some(item)) => write!(f, "list[{item}]"),
            Type::Dict(None) => f.write_str("dict"),
            Type::Dict(Some(value)) => write!(f, "dict[str, {value}]"),
            Type::Literal(values) => {
                f.write_str("Literal[")?;
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
        }
    }
}

impl fmt::Display for LiteralValue {
    /// Python `repr()`: `'a'`, `1`, `2.5`, `True`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiteralValue::Str(s) => f.write_str(&text::repr(s)),
            LiteralValue::Int(i) => write!(f, "{i}"),
            LiteralValue::Float(x) => f.write_str(&float_repr(*x)),
            LiteralValue::Bool(true) => f.write_str("True"),
            LiteralValue::Bool(false) => f.write_str("False"),
        }
    }
}
