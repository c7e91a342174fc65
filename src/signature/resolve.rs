//! What a parsed annotation means: DSPy's name resolution and Python's typing
//! rules (`Optional`, `Union`, `Literal` flattening, generic arity), then
//! rlmgrep's check of which types are supported.
//!
//! The intermediate [`Py`] value is Python's runtime view of the annotation,
//! kept so error messages can quote it exactly as rlmgrep does (`str()` of the
//! annotation: `set[int]`, `typing.Optional[str]`, `<class 'complex'>`). Only
//! the names a spec can sensibly use are known: the builtin types, `NoneType`,
//! and `typing`'s `Any Optional Union Literal List Dict Set FrozenSet Tuple
//! Sequence Mapping Type Text`; any other name is "Unknown name" (DSPy would
//! also try to import it as a module, or find it in rlmgrep's own globals).

use super::syntax::{Ann, Const};
use super::types::{LiteralValue, SpecError, Type};
use crate::python::{json::float_repr, text::repr};

/// Python's runtime view of an annotation.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Py {
    /// A builtin class: `str`, `list`, `NoneType`, …
    Class(Class),
    /// An unsubscripted `typing` object: `typing.Any`, `typing.List`, …
    Special(Special),
    /// A subscripted generic (`list[int]`, `typing.Dict[str, int]`); the base is
    /// a `Class` or a `Special`.
    Generic(Box<Py>, Vec<Py>),
    /// `typing.Union` of at least two distinct members, `None` as `NoneType`.
    Union(Vec<Py>),
    /// `typing.Literal[...]`, flattened and de-duplicated.
    Literal(Vec<Py>),
    Const(Const),
}

/// The builtin classes DSPy's parser knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    Str,
    Int,
    Float,
    Bool,
    List,
    Dict,
    Tuple,
    Set,
    FrozenSet,
    Complex,
    Bytes,
    ByteArray,
    NoneType,
}

const CLASSES: &[(&str, Class)] = &[
    ("str", Class::Str),
    ("int", Class::Int),
    ("float", Class::Float),
    ("bool", Class::Bool),
    ("list", Class::List),
    ("dict", Class::Dict),
    ("tuple", Class::Tuple),
    ("set", Class::Set),
    ("frozenset", Class::FrozenSet),
    ("complex", Class::Complex),
    ("bytes", Class::Bytes),
    ("bytearray", Class::ByteArray),
    ("NoneType", Class::NoneType),
];

impl Class {
    fn name(self) -> &'static str {
        CLASSES
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("object", |(name, _)| name)
    }

    fn subscriptable(self) -> bool {
        matches!(
            self,
            Class::List | Class::Dict | Class::Tuple | Class::Set | Class::FrozenSet
        )
    }
}

/// The `typing` objects a spec may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Special {
    Any,
    Optional,
    Union,
    Literal,
    List,
    Dict,
    Set,
    FrozenSet,
    Tuple,
    Sequence,
    Mapping,
    Type,
}

const SPECIALS: &[(&str, Special)] = &[
    ("Any", Special::Any),
    ("Optional", Special::Optional),
    ("Union", Special::Union),
    ("Literal", Special::Literal),
    ("List", Special::List),
    ("Dict", Special::Dict),
    ("Set", Special::Set),
    ("FrozenSet", Special::FrozenSet),
    ("Tuple", Special::Tuple),
    ("Sequence", Special::Sequence),
    ("Mapping", Special::Mapping),
    ("Type", Special::Type),
];

impl Special {
    fn name(self) -> &'static str {
        SPECIALS
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("Any", |(name, _)| name)
    }

    /// How many arguments a generic alias takes (`None`: not an alias with a
    /// fixed arity).
    fn arity(self) -> Option<usize> {
        match self {
            Special::List
            | Special::Set
            | Special::FrozenSet
            | Special::Sequence
            | Special::Type => Some(1),
            Special::Dict | Special::Mapping => Some(2),
            _ => None,
        }
    }

    /// The Python class of the bare alias, which DSPy refuses as a field type.
    fn alias_class(self) -> Option<&'static str> {
        match self {
            Special::Tuple => Some("typing._TupleType"),
            s if s.arity().is_some() => Some("typing._SpecialGenericAlias"),
            _ => None,
        }
    }
}

fn invalid(msg: String) -> SpecError {
    SpecError::Invalid(msg)
}

/// Resolves an annotation (DSPy's `_parse_type_node`).
pub(super) fn resolve(ann: &Ann) -> Result<Py, SpecError> {
    match ann {
        Ann::Path(path) => resolve_path(path),
        Ann::Const(c) => Ok(Py::Const(c.clone())),
        Ann::Union(parts) => Ok(union(parts.iter().map(resolve).collect::<Result<_, _>>()?)),
        Ann::Subscript(base, args) => {
            let base = resolve(base)?;
            let args = args.iter().map(resolve).collect::<Result<_, _>>()?;
            subscript(base, args)
        }
    }
}

fn resolve_name(name: &str) -> Option<Py> {
    if name == "Text" {
        return Some(Py::Class(Class::Str));
    }
    if let Some((_, s)) = SPECIALS.iter().find(|(n, _)| *n == name) {
        return Some(Py::Special(*s));
    }
    CLASSES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| Py::Class(*c))
}

fn resolve_path(path: &[String]) -> Result<Py, SpecError> {
    let unknown = |name: &str| invalid(format!("Unknown name: {name}"));
    match path {
        [name] => resolve_name(name).ok_or_else(|| unknown(name)),
        [module, attr] if module == "typing" => {
            let found = match resolve_name(attr) {
                Some(Py::Class(Class::Str)) if attr == "Text" => Some(Py::Class(Class::Str)),
                Some(py @ Py::Special(_)) => Some(py),
                _ => None,
            };
            found.ok_or_else(|| unknown(&format!("typing.{attr}")))
        }
        [first, attr, ..] => {
            let base = resolve_path(std::slice::from_ref(first))?;
            Err(invalid(format!(
                "Unknown attribute: {attr} on {}",
                display(&base)
            )))
        }
        [] => Err(unknown("")),
    }
}

fn subscript(base: Py, args: Vec<Py>) -> Result<Py, SpecError> {
    match base {
        Py::Class(c) if c.subscriptable() => Ok(Py::Generic(Box::new(base), args)),
        Py::Class(c) => Err(invalid(format!("type '{}' is not subscriptable", c.name()))),
        Py::Special(Special::Any) => Err(invalid("type 'Any' is not subscriptable".into())),
        Py::Special(Special::Optional) => match <[Py; 1]>::try_from(args) {
            Ok([arg]) => Ok(union(vec![arg, Py::Const(Const::None)])),
            Err(_) => Err(invalid(
                "Optional must have exactly one type argument".into(),
            )),
        },
        Py::Special(Special::Union) => Ok(union(args)),
        Py::Special(Special::Literal) => Ok(literal(args)),
        Py::Special(s) => match s.arity() {
            Some(n) if args.len() != n => Err(invalid(format!(
                "Too {} arguments for typing.{}; actual {}, expected {n}",
                if args.len() > n { "many" } else { "few" },
                s.name(),
                args.len()
            ))),
            _ => Ok(Py::Generic(Box::new(base), args)),
        },
        other => Err(invalid(format!(
            "{} is not a generic class",
            display(&other)
        ))),
    }
}

/// `typing.Union[...]`: nested unions flattened, `None` as `NoneType`,
/// duplicates dropped; a single member is the member itself.
fn union(items: Vec<Py>) -> Py {
    let mut members: Vec<Py> = Vec::new();
    for item in items {
        let flat = match item {
            Py::Union(inner) => inner,
            Py::Const(Const::None) => vec![Py::Class(Class::NoneType)],
            other => vec![other],
        };
        for member in flat {
            if !members.contains(&member) {
                members.push(member);
            }
        }
    }
    if members.len() == 1 {
        members.remove(0)
    } else {
        Py::Union(members)
    }
}

/// `typing.Literal[...]`: nested literals flattened, duplicates dropped.
fn literal(items: Vec<Py>) -> Py {
    let mut values: Vec<Py> = Vec::new();
    for item in items {
        let flat = match item {
            Py::Literal(inner) => inner,
            other => vec![other],
        };
        for value in flat {
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    Py::Literal(values)
}

// ---------------------------------------------------------------------------
// The checks DSPy and pydantic make, in their order

/// DSPy's "Field types must be types": a constant, or a bare generic alias
/// such as `List`, is not a field type.
pub(super) fn check_is_type(py: &Py) -> Result<(), SpecError> {
    let (shown, class) = match py {
        Py::Const(Const::None) => return Ok(()),
        Py::Const(c) => (const_str(c), const_class(c).to_string()),
        Py::Special(s) => match s.alias_class() {
            Some(class) => (format!("typing.{}", s.name()), class.to_string()),
            None => return Ok(()),
        },
        _ => return Ok(()),
    };
    Err(invalid(format!(
        "Field types must be types, but received: {shown} of type <class '{class}'>."
    )))
}

/// What pydantic cannot build a schema for: a bare `Optional`, `Union` or
/// `Literal`, or a constant where a type belongs. (rlmgrep prints pydantic's
/// long error; kgrep says what is wrong.)
pub(super) fn check_buildable(py: &Py, top: bool) -> Result<(), SpecError> {
    let bad = |shown: String| Err(invalid(format!("cannot use {shown} as a type")));
    match py {
        Py::Special(s @ (Special::Optional | Special::Union | Special::Literal)) => {
            bad(format!("typing.{}", s.name()))
        }
        Py::Const(Const::None) => Ok(()),
        Py::Const(c) if !top => bad(const_repr(c)),
        Py::Generic(base, args) => {
            // `Tuple[int, ...]` is a variadic tuple, not a constant used as a type.
            let tuple = matches!(
                **base,
                Py::Class(Class::Tuple) | Py::Special(Special::Tuple)
            );
            args.iter()
                .filter(|a| !(tuple && **a == Py::Const(Const::Ellipsis)))
                .try_for_each(|a| check_buildable(a, false))
        }
        Py::Union(items) => items.iter().try_for_each(|a| check_buildable(a, false)),
        _ => Ok(()),
    }
}

/// rlmgrep's `_is_supported_signature_type`, returning the type it accepts.
pub(super) fn supported(py: &Py) -> Option<Type> {
    match py {
        Py::Class(Class::Str) => Some(Type::Str),
        Py::Class(Class::Int) => Some(Type::Int),
        Py::Class(Class::Float) => Some(Type::Float),
        Py::Class(Class::Bool) => Some(Type::Bool),
        // A bare `typing.List` only gets here as an argument (`list[List]`).
        Py::Class(Class::List) | Py::Special(Special::List) => Some(Type::List(None)),
        Py::Class(Class::Dict) | Py::Special(Special::Dict) => Some(Type::Dict(None)),
        Py::Generic(base, args) => match (&**base, args.as_slice()) {
            (Py::Class(Class::List) | Py::Special(Special::List), [item]) => {
                Some(Type::List(Some(Box::new(supported(item)?))))
            }
            (Py::Class(Class::Dict) | Py::Special(Special::Dict), [key, value])
                if *key == Py::Class(Class::Str) =>
            {
                Some(Type::Dict(Some(Box::new(supported(value)?))))
            }
            _ => None,
        },
        Py::Literal(items) => items
            .iter()
            .map(|item| match item {
                Py::Const(Const::Str(s)) => Some(LiteralValue::Str(s.clone())),
                Py::Const(Const::Int(i)) => Some(LiteralValue::Int(*i)),
                Py::Const(Const::Float(f)) => Some(LiteralValue::Float(*f)),
                Py::Const(Const::Bool(b)) => Some(LiteralValue::Bool(*b)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(Type::Literal),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Python's str() of an annotation

/// `str(annotation)`, as rlmgrep's "unsupported output type" message shows it.
pub(super) fn display(py: &Py) -> String {
    match py {
        Py::Class(c) => format!("<class '{}'>", c.name()),
        Py::Const(c) => const_str(c),
        other => display_arg(other),
    }
}

/// `typing._type_repr`: how a type shows inside `[...]`.
fn display_arg(py: &Py) -> String {
    match py {
        Py::Class(c) => c.name().to_string(),
        Py::Special(s) => format!("typing.{}", s.name()),
        Py::Generic(base, args) => {
            let base = match &**base {
                Py::Special(s) => format!("typing.{}", s.name()),
                other => display_arg(other),
            };
            format!("{base}[{}]", join(args))
        }
        Py::Union(items) => match items.as_slice() {
            [x, Py::Class(Class::NoneType)] | [Py::Class(Class::NoneType), x] => {
                format!("typing.Optional[{}]", display_arg(x))
            }
            _ => format!("typing.Union[{}]", join(items)),
        },
        Py::Literal(items) => format!("typing.Literal[{}]", join(items)),
        Py::Const(c) => const_repr(c),
    }
}

fn join(items: &[Py]) -> String {
    items.iter().map(display_arg).collect::<Vec<_>>().join(", ")
}

/// `str()` of a constant.
fn const_str(c: &Const) -> String {
    match c {
        Const::Str(s) => s.clone(),
        Const::Ellipsis => "Ellipsis".to_string(),
        other => const_repr(other),
    }
}

/// `repr()` of a constant.
fn const_repr(c: &Const) -> String {
    match c {
        Const::Str(s) => repr(s),
        Const::Bytes(b) => format!("b{}", repr(b)),
        Const::Int(i) => i.to_string(),
        Const::Float(f) => float_repr(*f),
        Const::Bool(true) => "True".to_string(),
        Const::Bool(false) => "False".to_string(),
        Const::None => "None".to_string(),
        Const::Ellipsis => "...".to_string(),
    }
}

/// The Python class name of a constant.
fn const_class(c: &Const) -> &'static str {
    match c {
        Const::Str(_) => "str",
        Const::Bytes(_) => "bytes",
        Const::Int(_) => "int",
        Const::Float(_) => "float",
        Const::Bool(_) => "bool",
        Const::None => "NoneType",
        Const::Ellipsis => "ellipsis",
    }
}
