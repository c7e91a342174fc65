//! Spec parsing against DSPy 3.1.3 + rlmgrep 0.1.37 (the outcomes in
//! [`RLMGREP`] were produced by running rlmgrep's `build_custom_signature` on
//! each spec), kgrep's own rules, schema, validation, and adversarial input.

#![allow(clippy::unwrap_used)]

use serde_json::{json, Map, Value};

use super::*;

/// `(spec, outcome)`: `Ok` holds the fields as kgrep spells them (rlmgrep's
/// annotation with `typing.List` as `list` and so on), `Err` rlmgrep's exact
/// message.
const RLMGREP: &[(&str, Result<&str, &str>)] = &[
    ("summary: str, n: int, items: list[str]", Ok("summary: str, n: int, items: list[str]")),
    ("x: set[int]", Err("unsupported output type for field 'x': set[int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("a: str -> b: str", Err("--signature accepts output fields only")),
    ("   ", Err("--signature cannot be empty")),
    ("a, b", Ok("a: str, b: str")),
    ("x: Foo", Err("invalid --signature: Unknown name: Foo")),
    ("x: Literal[\"a\",\"b\"]", Ok("x: Literal['a', 'b']")),
    ("x: list[list[dict[str, Literal[1, \"a\", True]]]]", Ok("x: list[list[dict[str, Literal[1, 'a', True]]]]")),
    ("x: List[str]", Ok("x: list[str]")),
    ("x: Optional[int]", Err("unsupported output type for field 'x': typing.Optional[int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: int | None", Err("unsupported output type for field 'x': typing.Optional[int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: str,", Ok("x: str")),
    ("x: dict[int, str]", Err("unsupported output type for field 'x': dict[int, str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[int, str]", Err("unsupported output type for field 'x': list[int, str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("directory: str", Ok("directory: str")),
    ("_x: int", Err("invalid --signature: Fields must not use names with leading underscores; e.g., use 'x' instead of '_x'.")),
    ("__x: int", Err("invalid --signature: Fields must not use names with leading underscores; e.g., use 'x' instead of '__x'.")),
    ("_: int", Err("invalid --signature: Fields must not use names with leading underscores; e.g., use 'my_field' instead of '_'.")),
    ("x: int[str]", Err("invalid --signature: type 'int' is not subscriptable")),
    ("x: List[int, str]", Err("invalid --signature: Too many arguments for typing.List; actual 2, expected 1")),
    ("x: Dict[str]", Err("invalid --signature: Too few arguments for typing.Dict; actual 1, expected 2")),
    ("x: Optional[int, str]", Err("invalid --signature: Optional must have exactly one type argument")),
    ("x: Union[int]", Ok("x: int")),
    ("x: Union[int, str]", Err("unsupported output type for field 'x': typing.Union[int, str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Union[int, None, str]", Err("unsupported output type for field 'x': typing.Union[int, NoneType, str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Any", Err("unsupported output type for field 'x': typing.Any. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: complex", Err("unsupported output type for field 'x': <class 'complex'>. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[complex]", Err("unsupported output type for field 'x': list[complex]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: NoneType", Err("unsupported output type for field 'x': <class 'NoneType'>. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[None]", Err("unsupported output type for field 'x': list[None]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: 3", Err("invalid --signature: Field types must be types, but received: 3 of type <class 'int'>.")),
    ("x: True", Err("invalid --signature: Field types must be types, but received: True of type <class 'bool'>.")),
    ("x: 1.5", Err("invalid --signature: Field types must be types, but received: 1.5 of type <class 'float'>.")),
    ("x: set", Err("unsupported output type for field 'x': <class 'set'>. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Set[int]", Err("unsupported output type for field 'x': typing.Set[int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: typing.List[str]", Ok("x: list[str]")),
    ("x: typing.Optional[str]", Err("unsupported output type for field 'x': typing.Optional[str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Literal[None]", Err("unsupported output type for field 'x': typing.Literal[None]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Literal[int]", Err("unsupported output type for field 'x': typing.Literal[int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Literal['a', \"b\", 1, 2.5, True]", Ok("x: Literal['a', 'b', 1, 2.5, True]")),
    ("x: set[Literal['it''s']]", Err("unsupported output type for field 'x': set[typing.Literal['its']]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[Literal[\"it's\"]]", Err("unsupported output type for field 'x': set[typing.Literal[\"it's\"]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[Literal['a\\nb']]", Err("unsupported output type for field 'x': set[typing.Literal['a\\nb']]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Text", Ok("x: str")),
    ("x: Sequence[str]", Err("unsupported output type for field 'x': typing.Sequence[str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Tuple[int, ...]", Err("unsupported output type for field 'x': typing.Tuple[int, ...]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: dict[str, set[int]]", Err("unsupported output type for field 'x': dict[str, set[int]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: List", Err("invalid --signature: Field types must be types, but received: typing.List of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: Dict", Err("invalid --signature: Field types must be types, but received: typing.Dict of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: list[list]", Ok("x: list[list]")),
    ("x: Literal['a','a']", Ok("x: Literal['a']")),
    ("x: set[Literal[1, True]]", Err("unsupported output type for field 'x': set[typing.Literal[1, True]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: foo.Bar", Err("invalid --signature: Unknown name: foo")),
    ("x: bytes", Err("unsupported output type for field 'x': <class 'bytes'>. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: frozenset[str]", Err("unsupported output type for field 'x': frozenset[str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: type[int]", Err("invalid --signature: Unknown name: type")),
    ("x: Literal[b'x']", Err("unsupported output type for field 'x': typing.Literal[b'x']. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("café: str", Ok("café: str")),
    ("match: str", Ok("match: str")),
    ("x: set[Optional[int]]", Err("unsupported output type for field 'x': set[typing.Optional[int]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: dict[str, Optional[int]]", Err("unsupported output type for field 'x': dict[str, typing.Optional[int]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[Any]", Err("unsupported output type for field 'x': list[typing.Any]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[str] | None", Err("unsupported output type for field 'x': typing.Optional[list[str]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[int | str]", Err("unsupported output type for field 'x': list[typing.Union[int, str]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[typing.List[int]]", Err("unsupported output type for field 'x': set[typing.List[int]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[Literal[1.0, 1e16, 1e-5]]", Err("unsupported output type for field 'x': set[typing.Literal[1.0, 1e+16, 1e-05]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: int | str | None", Err("unsupported output type for field 'x': typing.Union[int, str, NoneType]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[None]", Err("unsupported output type for field 'x': set[None]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[NoneType]", Err("unsupported output type for field 'x': set[NoneType]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Type[int]", Err("unsupported output type for field 'x': typing.Type[int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: str = 'a'", Ok("x: str")),
    ("x: str = foo(1, [2])", Ok("x: str")),
    ("x: Tuple", Err("invalid --signature: Field types must be types, but received: typing.Tuple of type <class 'typing._TupleType'>.")),
    ("x: Sequence", Err("invalid --signature: Field types must be types, but received: typing.Sequence of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: Set", Err("invalid --signature: Field types must be types, but received: typing.Set of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: Type", Err("invalid --signature: Field types must be types, but received: typing.Type of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: Mapping", Err("invalid --signature: Field types must be types, but received: typing.Mapping of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: FrozenSet", Err("invalid --signature: Field types must be types, but received: typing.FrozenSet of type <class 'typing._SpecialGenericAlias'>.")),
    ("x: ...", Err("invalid --signature: Field types must be types, but received: Ellipsis of type <class 'ellipsis'>.")),
    ("x: b'x'", Err("invalid --signature: Field types must be types, but received: b'x' of type <class 'bytes'>.")),
    ("x: Any[int]", Err("invalid --signature: type 'Any' is not subscriptable")),
    ("x: list[int][str]", Err("invalid --signature: list[int] is not a generic class")),
    ("x: str.x", Err("invalid --signature: Unknown attribute: x on <class 'str'>")),
    ("x: list[int,]", Ok("x: list[int]")),
    ("x: Literal[Literal['a'], 'b']", Ok("x: Literal['a', 'b']")),
    ("x: set[Literal['a', Literal[1]]]", Err("unsupported output type for field 'x': set[typing.Literal['a', 1]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Literal['a', int]", Err("unsupported output type for field 'x': typing.Literal['a', int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Optional[None]", Err("unsupported output type for field 'x': <class 'NoneType'>. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Union[None, None]", Err("unsupported output type for field 'x': <class 'NoneType'>. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[Union[int, list[str]]]", Err("unsupported output type for field 'x': set[typing.Union[int, list[str]]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: NoneType[int]", Err("invalid --signature: type 'NoneType' is not subscriptable")),
    ("x: set[typing.Dict]", Err("unsupported output type for field 'x': set[typing.Dict]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: list[List]", Ok("x: list[list]")),
    ("x: dict[str, Dict]", Ok("x: dict[str, dict]")),
    ("x: list[Literal[1.5, 'a b']]", Ok("x: list[Literal[1.5, 'a b']]")),
    ("x: dict[Text, int]", Ok("x: dict[str, int]")),
    ("x: Literal[True, 1]", Ok("x: Literal[True, 1]")),
    ("x: set[Literal[True, 1, 1.0]]", Err("unsupported output type for field 'x': set[typing.Literal[True, 1, 1.0]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("a: str, b: list[Foo], c: set[int]", Err("invalid --signature: Unknown name: Foo")),
    ("a: set[int], b: Foo", Err("invalid --signature: Unknown name: Foo")),
    ("a: 3, _b: int", Err("invalid --signature: Field types must be types, but received: 3 of type <class 'int'>.")),
    ("_b: int, a: 3", Err("invalid --signature: Field types must be types, but received: 3 of type <class 'int'>.")),
    ("_b: set[int]", Err("invalid --signature: Fields must not use names with leading underscores; e.g., use 'b' instead of '_b'.")),
    ("a: Optional, _b: int", Err("invalid --signature: Fields must not use names with leading underscores; e.g., use 'b' instead of '_b'.")),
    ("x: Union[int, Literal['a']]", Err("unsupported output type for field 'x': typing.Union[int, typing.Literal['a']]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[float]", Err("unsupported output type for field 'x': set[float]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Dict[int, str]", Err("unsupported output type for field 'x': typing.Dict[int, str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Mapping[str, int]", Err("unsupported output type for field 'x': typing.Mapping[str, int]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("ok: bool, score: float, counts: dict[str, int], tags: list[str], note: str, empty: list[str]", Ok("ok: bool, score: float, counts: dict[str, int], tags: list[str], note: str, empty: list[str]")),
    ("x: list[\n  str\n]", Ok("x: list[str]")),
    ("x: typing.Text", Ok("x: str")),
    ("x: dict", Ok("x: dict")),
    ("x: list", Ok("x: list")),
    ("x: Literal['\\u00e9\\x41\\101']", Ok("x: Literal['éAA']")),
    ("x: set[Literal[r'a\\d']]", Err("unsupported output type for field 'x': set[typing.Literal['a\\\\d']]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[Literal['a\\d']]", Err("unsupported output type for field 'x': set[typing.Literal['a\\\\d']]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: int | str", Err("unsupported output type for field 'x': typing.Union[int, str]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: set[Literal[1_000, 0.5e1]]", Err("unsupported output type for field 'x': set[typing.Literal[1000, 5.0]]. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]")),
    ("x: Literal[.5]", Ok("x: Literal[0.5]")),
    ("x: typing.Literal['a']", Ok("x: Literal['a']")),
    ("x: typing.Dict[str, bool]", Ok("x: dict[str, bool]")),
];

#[test]
fn specs_parse_as_rlmgrep_parses_them() {
    for (spec, want) in RLMGREP {
        let got = parse(spec)
            .map(|s| s.to_string())
            .map_err(|e| e.to_string());
        let want = want.map(str::to_string).map_err(str::to_string);
        assert_eq!(got, want, "spec {spec:?}");
    }
}

/// Where kgrep knowingly differs from rlmgrep (README, compatibility).
#[test]
fn kgrep_rejects_what_rlmgrep_silently_mangles() {
    let err = |spec: &str| parse(spec).unwrap_err().to_string();
    // rlmgrep keeps the last `a` and drops the first without a word.
    assert_eq!(
        err("a: str, b: int, a: int"),
        "invalid --signature: duplicate field name 'a' (column 17)"
    );
    // rlmgrep: `*`, `**k` and `/` make fields silently vanish.
    assert!(err("x: int, *, y: str").contains("'*', '**' and '/' parameters are not output fields"));
    assert!(err("x: int, **k").contains("parameters are not output fields"));
    assert!(err("x: int, /, y: str").contains("parameters are not output fields"));
    // rlmgrep: `x: None` becomes a str field.
    assert_eq!(
        err("x: None"),
        "unsupported output type for field 'x': None. Supported types: str, int, float, bool, list[T], dict[str, T], Literal[...]"
    );
}

#[test]
fn negative_numbers_work_in_literals() {
    // DSPy cannot parse a unary minus; kgrep can.
    let spec = parse("level: Literal[-1, 0, 1.5, -2.5e-3]").unwrap();
    assert_eq!(spec.to_string(), "level: Literal[-1, 0, 1.5, -0.0025]");
}

#[test]
fn syntax_errors_say_where() {
    let err = |spec: &str| parse(spec).unwrap_err().to_string();
    assert_eq!(
        err("x: str y: int"),
        "invalid --signature: expected ',' between fields at column 8, found 'y'"
    );
    assert_eq!(
        err("x: list["),
        "invalid --signature: expected a type at the end"
    );
    assert_eq!(
        err("x: list[]"),
        "invalid --signature: expected a type inside '[]' at column 9, found ']'"
    );
    assert_eq!(
        err("x,,y"),
        "invalid --signature: expected a field name at column 3, found ','"
    );
    assert_eq!(
        err(":"),
        "invalid --signature: expected a field name at column 1, found ':'"
    );
    assert_eq!(
        err("class: str"),
        "invalid --signature: 'class' is a Python keyword, not a field name (column 1)"
    );
    assert_eq!(
        err("None: str"),
        "invalid --signature: 'None' is a Python keyword, not a field name (column 1)"
    );
    assert_eq!(
        err("1x: str"),
        "invalid --signature: invalid number \"1\" at column 1"
    );
    assert_eq!(
        err("x: str  # the summary"),
        "invalid --signature: comments are not allowed (column 9)"
    );
    assert_eq!(
        err("x: Literal['a"),
        "invalid --signature: unterminated string starting at column 12"
    );
    assert_eq!(
        err("x: f'a'"),
        "invalid --signature: f-strings are not allowed (column 4)"
    );
    assert_eq!(
        err("x: str = 'a', y: int"),
        "invalid --signature: field 'y' without a default follows a field with one (column 15)"
    );
    assert_eq!(
        err("x: Literal[1e400]"),
        "invalid --signature: 1e400 at column 12 is not a finite number"
    );
    assert_eq!(
        err("x: Literal[99999999999999999999]"),
        "invalid --signature: integer 99999999999999999999 at column 12 is too large"
    );
    assert_eq!(
        err("x: Optional"),
        "invalid --signature: cannot use typing.Optional as a type"
    );
    assert_eq!(
        err("x: set[...]"),
        "invalid --signature: cannot use ... as a type"
    );
}

#[test]
fn columns_count_from_what_was_typed_and_any_whitespace_separates() {
    assert_eq!(
        parse("  x: str y").unwrap_err().to_string(),
        "invalid --signature: expected ',' between fields at column 10, found 'y'"
    );
    assert_eq!(
        parse("\u{a0}x:\u{a0}str,\u{3000}y: int\n")
            .unwrap()
            .to_string(),
        "x: str, y: int"
    );
    assert_eq!(
        parse("x: \u{1}str").unwrap_err().to_string(),
        "invalid --signature: unexpected character '\\x01' at column 4"
    );
}

#[test]
fn arrow_wins_over_everything_and_length_is_bounded() {
    assert_eq!(parse("x: Literal['->']"), Err(SpecError::Arrow));
    assert_eq!(parse(" \n\t\u{3000}"), Err(SpecError::Empty));
    assert_eq!(parse(""), Err(SpecError::Empty));
    let long = format!("x: Literal[{}]", "'a', ".repeat(MAX_SPEC_BYTES / 5));
    assert_eq!(parse(&long), Err(SpecError::TooLong));
}

#[test]
fn nesting_is_bounded() {
    let nested = |depth: usize| format!("x: {}str{}", "list[".repeat(depth), "]".repeat(depth));
    let ok = parse(&nested(MAX_TYPE_DEPTH)).unwrap();
    assert_eq!(
        ok.to_string(),
        format!("x: {}", &nested(MAX_TYPE_DEPTH)[3..])
    );
    let err = parse(&nested(MAX_TYPE_DEPTH + 1)).unwrap_err().to_string();
    assert!(err.contains("types nest deeper than 32 levels"), "{err}");
    // Chained subscripts count too.
    let chained = format!("x: list{}", "[int]".repeat(MAX_TYPE_DEPTH + 1));
    assert!(parse(&chained)
        .unwrap_err()
        .to_string()
        .contains("deeper than"));
    // A long union is flat, not deep.
    let union = format!("x: {}", vec!["int"; 1000].join(" | "));
    assert_eq!(parse(&union).unwrap().to_string(), "x: int");
}

#[test]
fn fields_keep_their_order_and_types() {
    let spec = parse("b: list[dict[str, float]], a: Literal['x', 2], c").unwrap();
    let names: Vec<&str> = spec.fields().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["b", "a", "c"]);
    assert_eq!(
        spec.field("b").unwrap().ty,
        Type::List(Some(Box::new(Type::Dict(Some(Box::new(Type::Float))))))
    );
    assert_eq!(
        spec.field("a").unwrap().ty,
        Type::Literal(vec![LiteralValue::Str("x".into()), LiteralValue::Int(2)])
    );
    assert_eq!(spec.field("c").unwrap().ty, Type::Str);
}

// ---------------------------------------------------------------------------
// Schema

#[test]
fn schema_describes_every_type() {
    let spec = parse(
        "s: str, i: int, f: float, b: bool, l: list, ls: list[str], d: dict, \
         di: dict[str, int], lit: Literal['a', 'b'], num: Literal[1, 2.5], mix: Literal['a', 1]",
    )
    .unwrap();
    let schema = json_schema(&spec);
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "s": {"type": "string"},
                "i": {"type": "integer"},
                "f": {"type": "number"},
                "b": {"type": "boolean"},
                "l": {"type": "array"},
                "ls": {"type": "array", "items": {"type": "string"}},
                "d": {"type": "object"},
                "di": {"type": "object", "additionalProperties": {"type": "integer"}},
                "lit": {"type": "string", "enum": ["a", "b"]},
                "num": {"type": "number", "enum": [1, 2.5]},
                "mix": {"enum": ["a", 1]},
            },
            "required": ["s", "i", "f", "b", "l", "ls", "d", "di", "lit", "num", "mix"],
            "additionalProperties": false,
        })
    );
    let keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys[..3],
        ["s", "i", "f"],
        "properties keep the spec's order"
    );
}

#[test]
fn response_format_is_strict_only_when_openai_allows_it() {
    let strict = response_format(&parse("a: str, b: list[Literal['x']]").unwrap());
    assert_eq!(strict["type"], "json_schema");
    assert_eq!(strict["json_schema"]["name"], schema::SCHEMA_NAME);
    assert_eq!(strict["json_schema"]["strict"], true);
    for loose in ["a: dict[str, int]", "a: list", "a: list[dict]"] {
        assert_eq!(
            response_format(&parse(loose).unwrap())["json_schema"]["strict"],
            false,
            "{loose}"
        );
    }
}

// ---------------------------------------------------------------------------
// Validation

fn reply(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn ok(spec: &str, v: Value) -> Value {
    Value::Object(validate(&parse(spec).unwrap(), &reply(v)).unwrap())
}

fn problems(spec: &str, v: Value) -> Vec<String> {
    validate(&parse(spec).unwrap(), &reply(v))
        .unwrap_err()
        .problems()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn exact_values_pass_unchanged_in_spec_order() {
    let got = ok(
        "summary: str, n: int, files: list[str]",
        json!({"files": ["a.py:1"], "answer": "ignored", "n": 3, "summary": "s"}),
    );
    assert_eq!(got, json!({"summary": "s", "n": 3, "files": ["a.py:1"]}));
    let keys: Vec<&String> = got.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["summary", "n", "files"]);
}

#[test]
fn lossless_coercions() {
    assert_eq!(ok("n: int", json!({"n": "3"})), json!({"n": 3}));
    assert_eq!(ok("n: int", json!({"n": " -3 "})), json!({"n": -3}));
    assert_eq!(ok("n: int", json!({"n": 3.0})), json!({"n": 3}));
    assert_eq!(
        ok("n: int", json!({"n": "18446744073709551615"})),
        json!({"n": u64::MAX})
    );
    let f = ok("x: float", json!({"x": 1}));
    assert!(f["x"].is_f64(), "an int becomes a float, printed 1.0");
    assert_eq!(f, json!({"x": 1.0}));
    assert_eq!(ok("x: float", json!({"x": "1e-5"})), json!({"x": 1e-5}));
    assert_eq!(ok("b: bool", json!({"b": "TRUE"})), json!({"b": true}));
    assert_eq!(ok("b: bool", json!({"b": "false"})), json!({"b": false}));
    assert_eq!(ok("s: str", json!({"s": 3})), json!({"s": "3"}));
    assert_eq!(ok("s: str", json!({"s": 0.5})), json!({"s": "0.5"}));
    assert_eq!(
        ok("l: list[int]", json!({"l": "[1, \"2\"]"})),
        json!({"l": [1, 2]})
    );
    assert_eq!(
        ok("d: dict[str, bool]", json!({"d": "{\"a\": true}"})),
        json!({"d": {"a": true}})
    );
    assert_eq!(ok("k: Literal[1, 'a']", json!({"k": 1.0})), json!({"k": 1}));
    assert_eq!(ok("k: Literal[1.5]", json!({"k": 1.5})), json!({"k": 1.5}));
    assert_eq!(
        ok("l: list", json!({"l": [1, "x", null]})),
        json!({"l": [1, "x", null]})
    );
    assert_eq!(
        ok("d: dict", json!({"d": {"z": [1]}})),
        json!({"d": {"z": [1]}})
    );
}

#[test]
fn lossy_or_wrong_values_are_all_reported() {
    assert_eq!(
        problems(
            "summary: str, n: int, ok: bool, files: list[str], counts: dict[str, int], kind: Literal['a', 'b']",
            json!({"n": "three", "ok": 1, "files": ["x", 2.5, null], "counts": {"py": 1.5}, "kind": "c"})
        ),
        [
            "summary: missing",
            "n: expected int, got \"three\"",
            "ok: expected bool, got 1",
            "files[2]: expected str, got null",
            "counts[\"py\"]: expected int, got 1.5",
            "kind: expected one of 'a', 'b', got \"c\"",
        ]
    );
    assert_eq!(
        problems("n: int", json!({"n": 1e20})),
        ["n: expected int, got 1e+20"]
    );
    assert_eq!(
        problems("n: int", json!({"n": true})),
        ["n: expected int, got true"]
    );
    assert_eq!(
        problems("n: int", json!({"n": "3.0"})),
        ["n: expected int, got \"3.0\""]
    );
    assert_eq!(
        problems("x: float", json!({"x": "nan"})),
        ["x: expected float, got \"nan\""]
    );
    assert_eq!(
        problems("x: float", json!({"x": "inf"})),
        ["x: expected float, got \"inf\""]
    );
    assert_eq!(
        problems("x: float", json!({"x": 9_007_199_254_740_993_i64})),
        ["x: expected float, got 9007199254740993"]
    );
    assert_eq!(
        problems("b: bool", json!({"b": "yes"})),
        ["b: expected bool, got \"yes\""]
    );
    assert_eq!(
        problems("s: str", json!({"s": true})),
        ["s: expected str, got true"]
    );
    assert_eq!(
        problems("l: list[str]", json!({"l": "a"})),
        ["l: expected list[str], got \"a\""]
    );
    assert_eq!(
        problems("l: list[str]", json!({"l": "[oops"})),
        ["l: expected list[str], got \"[oops\""]
    );
    assert_eq!(
        problems("d: dict", json!({"d": [1]})),
        ["d: expected dict, got [1]"]
    );
    assert_eq!(
        problems("k: Literal[1]", json!({"k": "1"})),
        ["k: expected one of 1, got \"1\""]
    );
    assert_eq!(
        problems("k: Literal[1]", json!({"k": true})),
        ["k: expected one of 1, got true"]
    );
}

#[test]
fn error_message_is_bounded() {
    let spec = parse("l: list[int]").unwrap();
    let many: Vec<Value> = (0..500).map(|i| json!(format!("x{i}"))).collect();
    let err = validate(&spec, &reply(json!({"l": many}))).unwrap_err();
    assert_eq!(err.problems().len(), validate::MAX_PROBLEMS_KEPT);
    assert_eq!(err.count(), 500);
    let msg = err.to_string();
    assert!(
        msg.starts_with("the reply does not match the signature: l[0]: expected int, got \"x0\"; ")
    );
    assert!(msg.ends_with("; and 480 more"), "{msg}");
    let long = "y".repeat(500);
    let err = validate(&parse("n: int").unwrap(), &reply(json!({"n": long}))).unwrap_err();
    assert!(err.to_string().ends_with(&format!(
        "got \"{}…",
        "y".repeat(validate::MAX_QUOTED_CHARS - 1)
    )));
}

// ---------------------------------------------------------------------------
// Adversarial input: never a panic, and what parses prints back to itself

/// A small deterministic generator (xorshift64*), so the test needs no crate
/// and fails the same way every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const PIECES: &[&str] = &[
    "a",
    "b",
    "x",
    "_",
    "é",
    "1",
    "-",
    "2.5",
    "1e9",
    ":",
    ",",
    " ",
    "[",
    "]",
    "|",
    ".",
    "=",
    "'",
    "\"",
    "\\",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "Literal",
    "Optional",
    "Union",
    "List",
    "Dict",
    "typing",
    "None",
    "True",
    "...",
    "*",
    "/",
    "(",
    ")",
    "{",
    "}",
    "#",
    "\n",
    "b'",
    "r'",
    "->",
    "\u{0}",
    "\u{1F600}",
    "\u{a0}",
    "set",
    "Any",
    "Foo",
    "'a'",
    "\"b\"",
];

#[test]
fn random_specs_never_panic_and_round_trip() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let len = 1 + rng.next() % 24;
        let spec: String = (0..len).map(|_| rng.pick(PIECES)).collect();
        if let Ok(s) = parse(&spec) {
            parsed += 1;
            assert_eq!(parse(&s.to_string()).as_ref(), Ok(&s), "{spec:?} → {s}");
        }
    }
    assert!(
        parsed > 100,
        "the generator should also produce valid specs ({parsed})"
    );
}

#[test]
fn structured_random_specs_round_trip_and_validate_their_own_examples() {
    let mut rng = Rng(42);
    for _ in 0..2_000 {
        let fields = 1 + rng.next() % 4;
        let spec: Vec<String> = (0..fields)
            .map(|i| format!("f{i}: {}", random_type(&mut rng, 0)))
            .collect();
        let spec = parse(&spec.join(", ")).unwrap();
        assert_eq!(parse(&spec.to_string()).unwrap(), spec);
        let example: Map<String, Value> = spec
            .fields()
            .iter()
            .map(|f| (f.name.clone(), example(&f.ty)))
            .collect();
        let got = validate(&spec, &example).unwrap();
        assert_eq!(got, example, "{spec}");
    }
}

fn random_type(rng: &mut Rng, depth: usize) -> String {
    let leaf = [
        "str",
        "int",
        "float",
        "bool",
        "list",
        "dict",
        "Literal['a', 1, 2.5, True]",
    ];
    if depth >= 4 || rng.next().is_multiple_of(3) {
        return rng.pick(&leaf).to_string();
    }
    if rng.next().is_multiple_of(2) {
        format!("list[{}]", random_type(rng, depth + 1))
    } else {
        format!("dict[str, {}]", random_type(rng, depth + 1))
    }
}

/// A value of type `ty`.
fn example(ty: &Type) -> Value {
    match ty {
        Type::Str => json!("s"),
        Type::Int => json!(7),
        Type::Float => json!(0.25),
        Type::Bool => json!(false),
        Type::List(None) => json!([1, "two"]),
        Type::List(Some(item)) => json!([example(item), example(item)]),
        Type::Dict(None) => json!({"k": null}),
        Type::Dict(Some(item)) => json!({"k": example(item), "j": example(item)}),
        Type::Literal(values) => schema::literal_json(&values[0]),
    }
}
