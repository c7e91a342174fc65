//! A spec as a JSON Schema, for the model's structured-output request
//! (OpenAI's `response_format: {"type": "json_schema", …}`, or the same schema
//! in a prompt for servers without structured output).
//!
//! The schema describes the declared fields only; the LLM layer may merge these
//! `properties` into its own reply object (`answer`, `matches`, …). Nothing
//! here validates a reply: a server may ignore the schema, so
//! `signature::validate` checks every reply anyway.

use serde_json::{json, Map, Value};

use super::spec::{LiteralValue, Spec, Type};

/// The name the schema is given in `response_format` (OpenAI requires one:
/// letters, digits, `_` and `-`).
pub const SCHEMA_NAME: &str = "kgrep_signature";

/// The JSON Schema of one type.
pub fn type_schema(ty: &Type) -> Value {
    match ty {
        Type::Str => json!({"type": "string"}),
        Type::Int => json!({"type": "integer"}),
        Type::Float => json!({"type": "number"}),
        Type::Bool => json!({"type": "boolean"}),
        Type::List(None) => json!({"type": "array"}),
        Type::List(Some(item)) => json!({"type": "array", "items": type_schema(item)}),
        Type::Dict(None) => json!({"type": "object"}),
        Type::Dict(Some(value)) => {
            json!({"type": "object", "additionalProperties": type_schema(value)})
        }
        Type::Literal(values) => literal_schema(values),
    }
}

/// `{"enum": [...]}`, with a `type` when all values share one JSON type.
fn literal_schema(values: &[LiteralValue]) -> Value {
    let kinds: Vec<&str> = values
        .iter()
        .map(|v| match v {
            LiteralValue::Str(_) => "string",
            LiteralValue::Int(_) => "integer",
            LiteralValue::Float(_) => "number",
            LiteralValue::Bool(_) => "boolean",
        })
        .collect();
    let numeric = kinds.iter().all(|k| *k == "integer" || *k == "number");
    let kind = if kinds.iter().all(|k| *k == kinds[0]) {
        Some(kinds[0])
    } else if numeric {
        Some("number")
    } else {
        None
    };
    let mut schema = Map::new();
    if let Some(kind) = kind {
        schema.insert("type".into(), json!(kind));
    }
    schema.insert(
        "enum".into(),
        Value::Array(values.iter().map(literal_json).collect()),
    );
    Value::Object(schema)
}

/// A literal value as JSON (`Literal[1.0]` stays a float).
pub fn literal_json(value: &LiteralValue) -> Value {
    match value {
        LiteralValue::Str(s) => json!(s),
        LiteralValue::Int(i) => json!(i),
        LiteralValue::Float(f) => {
            serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
        }
        LiteralValue::Bool(b) => json!(b),
    }
}

/// The object schema of a whole spec: every field required, no others.
pub fn json_schema(spec: &Spec) -> Value {
    let mut properties = Map::new();
    for field in spec.fields() {
        properties.insert(field.name.clone(), type_schema(&field.ty));
    }
    let required: Vec<Value> = spec.fields().iter().map(|f| json!(f.name)).collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// Whether OpenAI's strict mode can take the schema: it needs every object
/// closed and every array typed, so `dict`, `dict[str, T]`, and a bare `list`
/// rule it out.
pub fn strict_compatible(spec: &Spec) -> bool {
    fn fits(ty: &Type) -> bool {
        match ty {
            Type::List(Some(item)) => fits(item),
            Type::List(None) | Type::Dict(_) => false,
            _ => true,
        }
    }
    spec.fields().iter().all(|f| fits(&f.ty))
}

/// The `response_format` value of an OpenAI-compatible chat request.
pub fn response_format(spec: &Spec) -> Value {
    json!({
        "type": "json_schema",
        "json_schema": {
            "name": SCHEMA_NAME,
            "schema": json_schema(spec),
            "strict": strict_compatible(spec),
        }
    })
}
