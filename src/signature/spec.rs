//! A `--signature` spec: the fields the model must return and their types.
//!
//! [`parse`] reads rlmgrep's spec strings (`summary: str, n: int, files:
//! list[str]`) and rejects what rlmgrep rejects, with rlmgrep's messages and in
//! rlmgrep's order (DSPy's parser first, then its field checks, then rlmgrep's
//! supported-type check), so the first problem reported is the one rlmgrep
//! would report:
//!
//! 1. `->` anywhere: `--signature accepts output fields only`;
//! 2. nothing but whitespace: `--signature cannot be empty`;
//! 3. syntax (kgrep's own wording, with a column: Python's messages name its
//!    own parser), and duplicate field names (rlmgrep silently keeps the last);
//! 4. names that are not types: `invalid --signature: Unknown name: Foo`,
//!    and typing's arity errors;
//! 5. constants and bare aliases (`x: 3`, `x: List`): `Field types must be types…`;
//! 6. `_`-prefixed names: pydantic's `Fields must not use names with leading
//!    underscores…`;
//! 7. a bare `Optional`/`Union`/`Literal`, or a constant used as a type;
//! 8. `unsupported output type for field 'x': set[int]. Supported types: …`.
//!
//! The messages say `--signature` for both flags, as rlmgrep's do. The caller
//! prints them as `kgrep: <message>` and exits 2.

use std::fmt;

use super::resolve::{self, Py};
use super::syntax::{self, Param};
pub use super::types::{LiteralValue, SpecError, Type, MAX_SPEC_BYTES};
use crate::python::text;

pub use super::syntax::MAX_TYPE_DEPTH;

/// One output field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
}

/// A parsed spec: at least one field, names unique, in the order written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    fields: Vec<Field>,
}

impl Spec {
    /// The fields, in the order written (the order rlmgrep prints them in).
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// Parses a `--signature` / `--signature-json` value.
pub fn parse(spec: &str) -> Result<Spec, SpecError> {
    if spec.contains("->") {
        return Err(SpecError::Arrow);
    }
    if text::strip(spec).is_empty() {
        return Err(SpecError::Empty);
    }
    if spec.len() > MAX_SPEC_BYTES {
        return Err(SpecError::TooLong);
    }
    // The untrimmed text, so columns in messages count from what was typed.
    let params = syntax::parse(spec)?;
    check_unique(&params)?;
    let resolved = params
        .iter()
        .map(|p| match &p.annotation {
            None => Ok(None),
            Some(ann) => resolve::resolve(ann).map(Some),
        })
        .collect::<Result<Vec<Option<Py>>, SpecError>>()?;
    for py in resolved.iter().flatten() {
        resolve::check_is_type(py)?;
    }
    check_underscores(&params)?;
    for py in resolved.iter().flatten() {
        resolve::check_buildable(py, true)?;
    }
    let fields = params
        .iter()
        .zip(&resolved)
        .map(|(param, py)| {
            let ty = match py {
                None => Some(Type::Str),
                Some(py) => resolve::supported(py),
            };
            ty.map(|ty| Field {
                name: param.name.clone(),
                ty,
            })
            .ok_or_else(|| SpecError::Unsupported {
                field: param.name.clone(),
                annotation: py.as_ref().map_or_else(String::new, resolve::display),
            })
        })
        .collect::<Result<Vec<Field>, SpecError>>()?;
    Ok(Spec { fields })
}

/// rlmgrep keeps the last of two same-named fields without a word; kgrep says so.
fn check_unique(params: &[Param]) -> Result<(), SpecError> {
    for (i, param) in params.iter().enumerate() {
        if params[..i].iter().any(|p| p.name == param.name) {
            return Err(SpecError::Invalid(format!(
                "duplicate field name {} (column {})",
                text::repr(&param.name),
                param.column
            )));
        }
    }
    Ok(())
}

/// pydantic's rule, in pydantic's words.
fn check_underscores(params: &[Param]) -> Result<(), SpecError> {
    let Some(param) = params.iter().find(|p| p.name.starts_with('_')) else {
        return Ok(());
    };
    let suggestion = match param.name.trim_start_matches('_') {
        "" => "my_field",
        rest => rest,
    };
    Err(SpecError::Invalid(format!(
        "Fields must not use names with leading underscores; e.g., use {} instead of {}.",
        text::repr(suggestion),
        text::repr(&param.name)
    )))
}

impl fmt::Display for Spec {
    /// The spec in canonical form: `summary: str, files: list[str]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, field) in self.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}: {}", field.name, field.ty)?;
        }
        Ok(())
    }
}
