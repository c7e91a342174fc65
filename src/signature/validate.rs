//! A model's reply checked against a spec, and coerced where that loses nothing.
//!
//! The reply is the JSON object the model returned (other keys, such as
//! `answer` or `matches`, are ignored). Each declared field must be present and
//! of its type. Coercions, all lossless:
//!
//! | type | also accepted | becomes |
//! |---|---|---|
//! | `int` | a float with no fractional part and at most 2^53; a string of an integer (`"3"`, `" -3 "`) | the integer |
//! | `float` | an integer exactly representable as a float; a string of a decimal number (`"0.5"`, `"1e-5"`) | the float (`1` prints as `1.0`, as rlmgrep's pydantic does) |
//! | `bool` | `"true"` / `"false"`, any case | the boolean |
//! | `str` | a number | its text as Python prints it (`3`, `0.5`) |
//! | `list[T]`, `dict[str, T]` | a string holding that JSON (models sometimes quote it) | the parsed value, checked |
//! | `Literal[...]` | a number equal to an allowed number (`1.0` for `Literal[1]`) | the allowed value |
//!
//! Nothing else is coerced: `1` is not `true`, `"yes"` is not a bool, `null`
//! is no field's value, a bare value is not a one-item list. Every problem is
//! collected (up to [`MAX_PROBLEMS_KEPT`]) with its path (`files[2]`,
//! `counts["py"]`), so the caller can re-ask the model once with the whole list.

use std::fmt;

use serde_json::{Map, Number, Value};
use thiserror::Error;

use super::schema::literal_json;
use super::spec::{LiteralValue, Spec, Type};
use crate::python::json::{self as pyjson, Dumps};

/// Problems kept in a [`ValidationError`]; the rest are only counted. A reply
/// with a long wrong list would otherwise make an error message (and the
/// re-ask prompt) as long as the reply.
pub const MAX_PROBLEMS_KEPT: usize = 20;
/// Characters of a wrong value quoted in a problem.
pub const MAX_QUOTED_CHARS: usize = 60;
/// Largest magnitude up to which every integer is exactly a float (2^53).
const MAX_EXACT_FLOAT_INT: f64 = 9_007_199_254_740_992.0;

/// One way the reply misses the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where: a field name, then `[index]` or `["key"]` steps.
    pub path: String,
    pub kind: ProblemKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The field is not in the reply.
    Missing,
    /// The value does not have (and cannot losslessly become) the type.
    Mismatch {
        /// The type, as written in a spec (`list[str]`, `one of 'a', 'b'`).
        expected: String,
        /// The value, as compact JSON, shortened.
        found: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ProblemKind::Missing => write!(f, "{}: missing", self.path),
            ProblemKind::Mismatch { expected, found } => {
                write!(f, "{}: expected {expected}, got {found}", self.path)
            }
        }
    }
}

/// The reply does not match the spec.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub struct ValidationError {
    problems: Vec<Problem>,
    /// Problems beyond [`MAX_PROBLEMS_KEPT`].
    more: usize,
}

impl ValidationError {
    /// The problems kept, in field order.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// How many problems there were in all.
    pub fn count(&self) -> usize {
        self.problems.len() + self.more
    }
}

impl fmt::Display for ValidationError {
    /// `the reply does not match the signature: n: expected int, got "three"; …`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the reply does not match the signature: ")?;
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        if self.more > 0 {
            write!(f, "; and {} more", self.more)?;
        }
        Ok(())
    }
}

/// Checks `reply` against `spec`; returns the declared fields, in spec order,
/// with coerced values.
pub fn validate(
    spec: &Spec,
    reply: &Map<String, Value>,
) -> Result<Map<String, Value>, ValidationError> {
    let mut checker = Checker::default();
    let mut out = Map::new();
    for field in spec.fields() {
        match reply.get(&field.name) {
            None => checker.push(field.name.clone(), ProblemKind::Missing),
            Some(value) => {
                if let Some(v) = checker.check(&field.ty, value, &field.name) {
                    out.insert(field.name.clone(), v);
                }
            }
        }
    }
    if checker.problems.is_empty() {
        Ok(out)
    } else {
        Err(ValidationError {
            problems: checker.problems,
            more: checker.more,
        })
    }
}

#[derive(Default)]
struct Checker {
    problems: Vec<Problem>,
    more: usize,
}

impl Checker {
    fn push(&mut self, path: String, kind: ProblemKind) {
        if self.problems.len() < MAX_PROBLEMS_KEPT {
            self.problems.push(Problem { path, kind });
        } else {
            self.more += 1;
        }
    }

    fn mismatch(&mut self, ty: &Type, value: &Value, path: &str) -> Option<Value> {
        let expected = match ty {
            Type::Literal(values) => {
                let shown: Vec<String> = values.iter().map(ToString::to_string).collect();
                format!("one of {}", shown.join(", "))
            }
            other => other.to_string(),
        };
        self.push(
            path.to_string(),
            ProblemKind::Mismatch {
                expected,
                found: quote(value),
            },
        );
        None
    }

    /// The value as `ty`, or `None` after recording why not.
    fn check(&mut self, ty: &Type, value: &Value, path: &str) -> Option<Value> {
        let coerced = match ty {
            Type::Str => as_str(value),
            Type::Int => as_int(value),
            Type::Float => as_float(value),
            Type::Bool => as_bool(value),
            Type::Literal(values) => as_literal(values, value),
            Type::List(item) => {
                return match container(value, '[') {
                    Some(Value::Array(items)) => self.list(item.as_deref(), &items, path),
                    _ => self.mismatch(ty, value, path),
                }
            }
            Type::Dict(item) => {
                return match container(value, '{') {
                    Some(Value::Object(map)) => self.dict(item.as_deref(), &map, path),
                    _ => self.mismatch(ty, value, path),
                }
            }
        };
        match coerced {
            Some(v) => Some(v),
            None => self.mismatch(ty, value, path),
        }
    }

    fn list(&mut self, item: Option<&Type>, items: &[Value], path: &str) -> Option<Value> {
        let Some(item) = item else {
            return Some(Value::Array(items.to_vec()));
        };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, v) in items.iter().enumerate() {
            match self.check(item, v, &format!("{path}[{i}]")) {
                Some(v) => out.push(v),
                None => ok = false,
            }
        }
        ok.then_some(Value::Array(out))
    }

    fn dict(&mut self, item: Option<&Type>, map: &Map<String, Value>, path: &str) -> Option<Value> {
        let Some(item) = item else {
            return Some(Value::Object(map.clone()));
        };
        let mut out = Map::new();
        let mut ok = true;
        for (key, v) in map {
            let mut step = String::new();
            pyjson::write_string(&mut step, key, &Dumps::COMPACT);
            match self.check(item, v, &format!("{path}[{step}]")) {
                Some(v) => {
                    out.insert(key.clone(), v);
                }
                None => ok = false,
            }
        }
        ok.then_some(Value::Object(out))
    }
}

/// A list or object, or a string holding one as JSON (opened by `open`).
fn container(value: &Value, open: char) -> Option<Value> {
    match value {
        Value::String(s) if s.trim_start().starts_with(open) => serde_json::from_str(s.trim()).ok(),
        Value::Array(_) | Value::Object(_) => Some(value.clone()),
        _ => None,
    }
}

fn as_str(value: &Value) -> Option<Value> {
    match value {
        Value::String(_) => Some(value.clone()),
        Value::Number(n) => Some(Value::String(pyjson::number(n))),
        _ => None,
    }
}

fn as_int(value: &Value) -> Option<Value> {
    match value {
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(value.clone()),
        Value::Number(n) => {
            let f = n.as_f64()?;
            (f.fract() == 0.0 && f.abs() <= MAX_EXACT_FLOAT_INT).then(|| Value::from(f as i64))
        }
        Value::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let t = t.strip_prefix('+').unwrap_or(t);
            t.parse::<i64>()
                .map(Value::from)
                .or_else(|_| t.parse::<u64>().map(Value::from))
                .ok()
        }
        _ => None,
    }
}

fn as_float(value: &Value) -> Option<Value> {
    let f = match value {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                exact_float(i128::from(i))?
            } else if let Some(u) = n.as_u64() {
                exact_float(i128::from(u))?
            } else {
                n.as_f64()?
            }
        }
        Value::String(s) => {
            let t = s.trim();
            let numeric = t.bytes().any(|b| b.is_ascii_digit())
                && t.bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
            if !numeric {
                return None;
            }
            t.parse::<f64>().ok()?
        }
        _ => return None,
    };
    Number::from_f64(f).map(Value::Number)
}

/// `i` as a float, when the float is exactly `i`.
fn exact_float(i: i128) -> Option<f64> {
    let f = i as f64;
    (f as i128 == i).then_some(f)
}

fn as_bool(value: &Value) -> Option<Value> {
    match value {
        Value::Bool(_) => Some(value.clone()),
        Value::String(s) if s.trim().eq_ignore_ascii_case("true") => Some(Value::Bool(true)),
        Value::String(s) if s.trim().eq_ignore_ascii_case("false") => Some(Value::Bool(false)),
        _ => None,
    }
}

fn as_literal(values: &[LiteralValue], value: &Value) -> Option<Value> {
    let matched = values.iter().find(|lit| match (lit, value) {
        (LiteralValue::Str(a), Value::String(b)) => a == b,
        (LiteralValue::Bool(a), Value::Bool(b)) => a == b,
        (LiteralValue::Int(a), Value::Number(n)) => match n.as_i64() {
            Some(i) => i == *a,
            None => !n.is_u64() && n.as_f64() == Some(*a as f64) && (*a as f64) as i64 == *a,
        },
        (LiteralValue::Float(a), Value::Number(n)) => n.as_f64() == Some(*a),
        _ => false,
    })?;
    Some(literal_json(matched))
}

/// A wrong value as compact JSON, cut to [`MAX_QUOTED_CHARS`].
fn quote(value: &Value) -> String {
    let text = pyjson::dumps(value, &Dumps::COMPACT);
    crate::render::cut::ellipsize(&text, MAX_QUOTED_CHARS + 1)
}
