//! What becomes a unit, per language: one function a language, matching the
//! node kinds of its grammar, deciding kind, name, body, docstring and whether
//! the unit is test code.
//!
//! Test code, by language: Rust `#[test]`-like attributes (`#[tokio::test]`,
//! `#[rstest]`, `#[bench]`, `#[test_case]`) and anything under `#[cfg(test)]`;
//! Python `test*` functions and `Test*` / `*Test(s)` / `TestCase` classes; Go
//! `TestX(t *testing.T)`, `BenchmarkX`, `FuzzX` and `ExampleX`; Java methods
//! annotated `@Test` (or `@ParameterizedTest`, `@TestFactory`, …) and classes
//! named `Test*` / `*Test(s)` / `*IT` or holding test methods; JS/TS
//! `describe` / `it` / `test` / hooks called with a callback; C++ GoogleTest
//! `TEST*(…)` bodies. Anything inside test code is test code (`extract`).
//!
//! The syntax around units (comments, strings, wrappers) is `lang`'s; walking
//! the tree and extents are `extract`'s.

use std::ops::Range;

use tree_sitter::Node;

use super::lang::{is_require, last_identifier, string_content};
use super::{Lang, UnitKind};

/// Where a node that may be a unit sits.
pub(super) struct Site<'t, 'a> {
    pub lang: Lang,
    pub text: &'a [u8],
    pub node: Node<'t>,
    pub parent: Option<Node<'t>>,
    /// The unit's outermost node: `node`, or a wrapper holding it (`export`,
    /// a decorator list, `template<…>`, a one-variable declaration).
    pub outer: Node<'t>,
    /// `outer` is at the top level (of the file, a module or a namespace).
    pub top: bool,
    /// The innermost unit holding `outer`: its kind, and whether it is a
    /// JS/TS call with a callback.
    pub enclosing: Option<(UnitKind, bool)>,
    /// The text of the attributes and decorators just before `outer`.
    pub attrs: &'a [u8],
}

/// A unit found at a node.
pub(super) struct Found {
    pub kind: UnitKind,
    pub name: Option<Range<usize>>,
    pub body: Option<Range<usize>>,
    /// A Python docstring (the string node, quotes included).
    pub docstring: Option<Range<usize>>,
    pub test: bool,
    /// A JS/TS call with a callback (`describe('x', () => …)`).
    pub call: bool,
}

impl Found {
    fn new(kind: UnitKind, name: Option<Range<usize>>, body: Option<Node>) -> Found {
        Found {
            kind,
            name,
            body: body.map(|b| b.byte_range()),
            docstring: None,
            test: false,
            call: false,
        }
    }

    fn test(mut self, test: bool) -> Found {
        self.test = test;
        self
    }
}

/// The unit whose node is `site.node`, if it is one.
pub(super) fn detect(site: &Site) -> Option<Found> {
    let mut found = match site.lang {
        Lang::Rust => rust(site),
        Lang::Python => python(site),
        Lang::Go => go(site),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js(site),
        Lang::Java => java(site),
        Lang::C | Lang::Cpp => c_family(site),
    }?;
    let in_type = site.enclosing.is_some_and(|(kind, _)| kind.is_container());
    if found.kind == UnitKind::Function && in_type && !found.call {
        found.kind = UnitKind::Method;
    }
    Some(found)
}

fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_name(name)
}

fn name_field(node: Node) -> Option<Range<usize>> {
    field(node, "name").map(|n| n.byte_range())
}

fn text<'a>(site: &Site<'_, 'a>, node: Node) -> &'a [u8] {
    site.text.get(node.byte_range()).unwrap_or_default()
}

fn text_of<'a>(site: &Site<'_, 'a>, range: &Option<Range<usize>>) -> &'a [u8] {
    range
        .clone()
        .and_then(|r| site.text.get(r))
        .unwrap_or_default()
}

fn rust(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    let associated = matches!(site.enclosing, Some((Impl | Trait, _)));
    let item = site.top || associated;
    let (kind, body) = match n.kind() {
        "function_item" => (Function, field(n, "body")),
        "function_signature_item" => (Function, None),
        "struct_item" => (Struct, field(n, "body")),
        "enum_item" => (Enum, field(n, "body")),
        "union_item" => (Union, field(n, "body")),
        "trait_item" => (Trait, field(n, "body")),
        "impl_item" => (Impl, field(n, "body")),
        "mod_item" => (Module, Some(field(n, "body")?)),
        "type_item" => (TypeAlias, field(n, "type")),
        "const_item" if item => (Const, field(n, "value")),
        "static_item" if item => (Var, field(n, "value")),
        "macro_definition" => {
            let name = name_field(n);
            let body = macro_rules_body(n);
            let mut found = Found::new(Macro, name, None);
            found.body = body;
            return Some(found);
        }
        _ => return None,
    };
    let name = if kind == Impl {
        field(n, "type").and_then(last_identifier)
    } else {
        name_field(n)
    };
    Some(Found::new(kind, name, body).test(rust_attrs_test(site.attrs)))
}

/// `macro_rules! m { … }`: the rules, from the opening bracket on.
fn macro_rules_body(node: Node) -> Option<Range<usize>> {
    let mut cursor = node.walk();
    let open = node
        .children(&mut cursor)
        .find(|c| matches!(c.kind(), "{" | "(" | "["))?;
    Some(open.start_byte()..node.end_byte())
}

/// Attributes that make an item test code: `#[test]`, `#[tokio::test]`,
/// `#[rstest]`, `#[bench]`, `#[test_case(…)]`, `#[cfg(test)]`.
fn rust_attrs_test(attrs: &[u8]) -> bool {
    if attrs.is_empty() {
        return false;
    }
    let attrs = String::from_utf8_lossy(attrs);
    attrs.split("#[").skip(1).any(|attr| {
        let path_end = attr.find(['(', ']', '=']).unwrap_or(attr.len());
        let path: String = attr[..path_end]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let last = path.rsplit("::").next().unwrap_or_default();
        match last {
            "test" | "bench" | "rstest" | "quickcheck" => true,
            "cfg" => {
                // the words of the condition, quoted values left out
                let args: String = attr[path_end..]
                    .split('"')
                    .step_by(2)
                    .collect::<Vec<_>>()
                    .join(" ");
                let mut words = args.split(|c: char| !c.is_alphanumeric() && c != '_');
                let words: Vec<&str> = words.by_ref().filter(|w| !w.is_empty()).collect();
                words.contains(&"test") && !words.contains(&"not")
            }
            other => other.starts_with("test_"),
        }
    })
}

fn python(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    match n.kind() {
        "function_definition" => {
            let name = name_field(n);
            let body = field(n, "body");
            let test = starts_word(text_of(site, &name), b"test");
            let mut found = Found::new(Function, name, body).test(test);
            found.docstring = body.and_then(python_docstring);
            Some(found)
        }
        "class_definition" => {
            let name = name_field(n);
            let body = field(n, "body");
            let named = text_of(site, &name);
            let bases = field(n, "superclasses").map(|b| text(site, b));
            let test = is_test_class(named) || bases.is_some_and(|b| contains(b, b"TestCase"));
            let mut found = Found::new(Class, name, body).test(test);
            found.docstring = body.and_then(python_docstring);
            Some(found)
        }
        // `NAME = value` at module level or in a class body (the statement
        // wraps it): a class attribute is a constant or a default as often
        // as a module's (`_preferred_ciphers = (…)`).
        "assignment"
            if site.outer != n && (site.top || matches!(site.enclosing, Some((Class, _)))) =>
        {
            let left = field(n, "left").filter(|l| l.kind() == "identifier")?;
            let right = field(n, "right");
            let name = Some(left.byte_range());
            Some(match right {
                Some(lambda) if lambda.kind() == "lambda" => {
                    Found::new(Function, name, field(lambda, "body"))
                }
                _ if is_constant_name(text(site, left)) => Found::new(Const, name, right),
                _ => Found::new(Var, name, right),
            })
        }
        "type_alias_statement" if site.top => {
            let name = field(n, "left").and_then(last_identifier);
            Some(Found::new(TypeAlias, name, field(n, "right")))
        }
        _ => None,
    }
}

/// The docstring of a function or class body: its first statement, a string.
fn python_docstring(body: Node) -> Option<Range<usize>> {
    let mut cursor = body.walk();
    let first = body
        .named_children(&mut cursor)
        .find(|c| c.kind() != "comment")?;
    if first.kind() != "expression_statement" || first.named_child_count() != 1 {
        return None;
    }
    let string = first.named_child(0)?;
    (string.kind() == "string").then(|| string.byte_range())
}

/// `name` is `prefix` or starts with it as a word: `test_parse`, `testParse`,
/// `TestParser`, not `testimony` or `Testable`.
fn starts_word(name: &[u8], prefix: &[u8]) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.first().is_none_or(|c| !c.is_ascii_lowercase()))
}

/// `TestParser`, `ParserTest`, `ParserTests`.
fn is_test_class(name: &[u8]) -> bool {
    starts_word(name, b"Test") || name.ends_with(b"Test") || name.ends_with(b"Tests")
}

/// `MAX_SIZE`, `HTTP2`: upper case letters, digits and underscores.
fn is_constant_name(name: &[u8]) -> bool {
    name.iter().any(u8::is_ascii_uppercase) && !name.iter().any(u8::is_ascii_lowercase)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn go(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    match n.kind() {
        "function_declaration" => {
            let name = name_field(n);
            let params = field(n, "parameters").map(|p| text(site, p));
            let test = go_test(text_of(site, &name), params.unwrap_or_default());
            Some(Found::new(Function, name, field(n, "body")).test(test))
        }
        "method_declaration" => Some(Found::new(Method, name_field(n), field(n, "body"))),
        "type_spec" => {
            let ty = field(n, "type")?;
            let name = name_field(n);
            Some(match ty.kind() {
                "struct_type" => {
                    let mut cursor = ty.walk();
                    let fields = ty
                        .named_children(&mut cursor)
                        .find(|c| c.kind() == "field_declaration_list");
                    Found::new(Struct, name, fields)
                }
                "interface_type" => {
                    let mut found = Found::new(Interface, name, None);
                    found.body = from_open_brace(ty);
                    found
                }
                _ => Found::new(TypeAlias, name, Some(ty)),
            })
        }
        "type_alias" => Some(Found::new(TypeAlias, name_field(n), field(n, "type"))),
        "const_spec" if site.top => Some(Found::new(Const, name_field(n), field(n, "value"))),
        "var_spec" if site.top => {
            let value = field(n, "value");
            let func = value
                .filter(|v| v.named_child_count() == 1)
                .and_then(|v| v.named_child(0))
                .filter(|f| f.kind() == "func_literal");
            Some(match func {
                Some(func) => Found::new(Function, name_field(n), field(func, "body")),
                None => Found::new(Var, name_field(n), value),
            })
        }
        _ => None,
    }
}

/// `{ … }` of a node written `keyword { … }`.
fn from_open_brace(node: Node) -> Option<Range<usize>> {
    let mut cursor = node.walk();
    let open = node.children(&mut cursor).find(|c| c.kind() == "{")?;
    Some(open.start_byte()..node.end_byte())
}

/// `go test`'s rule: `TestX(t *testing.T)`, `BenchmarkX(b *testing.B)`,
/// `FuzzX(f *testing.F)`, `TestMain(m *testing.M)`, and `ExampleX()`.
fn go_test(name: &[u8], params: &[u8]) -> bool {
    let takes_testing = contains(params, b"testing.");
    let starts = |prefix| starts_word(name, prefix);
    ((starts(b"Test") || starts(b"Benchmark") || starts(b"Fuzz")) && takes_testing)
        || starts(b"Example")
}

fn is_function_value(node: Node) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// Callees that define tests with a callback (Jest, Mocha, Vitest, Jasmine).
const JS_TEST_CALLEES: &[&[u8]] = &[
    b"describe",
    b"it",
    b"test",
    b"suite",
    b"context",
    b"specify",
    b"beforeEach",
    b"afterEach",
    b"beforeAll",
    b"afterAll",
    b"before",
    b"after",
    b"bench",
    b"xit",
    b"xdescribe",
    b"xtest",
    b"fit",
    b"fdescribe",
];

fn js(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    let under_export = site.parent.is_some_and(|p| p.kind() == "export_statement");
    match n.kind() {
        "function_declaration" | "generator_function_declaration" => {
            Some(Found::new(Function, name_field(n), field(n, "body")))
        }
        "function_signature" => Some(Found::new(Function, name_field(n), None)),
        "function_expression" | "arrow_function" | "generator_function" if under_export => {
            Some(Found::new(Function, name_field(n), field(n, "body")))
        }
        "class_declaration" | "abstract_class_declaration" => {
            Some(Found::new(Class, name_field(n), field(n, "body")))
        }
        "class" if under_export => Some(Found::new(Class, name_field(n), field(n, "body"))),
        "interface_declaration" => Some(Found::new(Interface, name_field(n), field(n, "body"))),
        "type_alias_declaration" => Some(Found::new(TypeAlias, name_field(n), field(n, "value"))),
        "enum_declaration" => Some(Found::new(Enum, name_field(n), field(n, "body"))),
        "internal_module" | "module" => {
            let name = field(n, "name").and_then(|name| match name.kind() {
                "string" => Some(string_content(name)),
                _ => last_identifier(name),
            });
            Some(Found::new(Module, name, field(n, "body")))
        }
        "method_definition" => Some(Found::new(Method, name_field(n), field(n, "body"))),
        "abstract_method_signature" => Some(Found::new(Method, name_field(n), None)),
        "field_definition" | "public_field_definition" => {
            let value = field(n, "value").filter(|v| is_function_value(*v))?;
            let name = field(n, "property").or_else(|| field(n, "name"));
            Some(Found::new(
                Method,
                name.map(|k| k.byte_range()),
                field(value, "body"),
            ))
        }
        "pair" => {
            let value = field(n, "value").filter(|v| is_function_value(*v))?;
            let name = field(n, "key").and_then(|key| match key.kind() {
                "string" => Some(string_content(key)),
                "computed_property_name" => None,
                _ => Some(key.byte_range()),
            });
            Some(Found::new(Method, name, field(value, "body")))
        }
        "variable_declarator" => js_declarator(site),
        "assignment_expression" if site.outer != n => {
            let right = field(n, "right").filter(|r| is_function_value(*r))?;
            let left = field(n, "left")?;
            let kind = if contains(text(site, left), b".prototype.") {
                Method
            } else {
                Function
            };
            let name = match left.kind() {
                "identifier" => Some(left.byte_range()),
                "member_expression" => field(left, "property").map(|p| p.byte_range()),
                _ => None, // `this[method] = …`
            };
            Some(Found::new(kind, name, field(right, "body")))
        }
        "call_expression" if site.outer != n => js_call(site),
        _ => None,
    }
}

/// `const f = () => …` (a function, at any depth), `const A = class …`, and
/// top-level `const` / `let` / `var` (not `require`).
fn js_declarator(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    let name = field(n, "name")
        .filter(|name| name.kind() == "identifier")
        .map(|name| name.byte_range());
    let value = field(n, "value");
    match value {
        Some(v) if is_function_value(v) => Some(Found::new(Function, name, field(v, "body"))),
        Some(v) if v.kind() == "class" => Some(Found::new(Class, name, field(v, "body"))),
        _ if !site.top || value.is_some_and(|v| is_require(v, site.text)) => None,
        _ => {
            let declaration = site.parent?;
            let constant = declaration.kind() == "lexical_declaration"
                && field(declaration, "kind").is_some_and(|k| k.kind() == "const");
            Some(Found::new(if constant { Const } else { Var }, name, value))
        }
    }
}

/// A statement-level call whose last argument is a function: `describe('x',
/// () => …)`, `app.get('/path', (c) => …)`. Named by its first string
/// argument; without one, by its callee, and then only where it does not sit
/// inside a function (`items.forEach(x => …)` in a body is not a unit).
fn js_call(site: &Site) -> Option<Found> {
    let n = site.node;
    let args = field(n, "arguments").filter(|a| a.kind() == "arguments")?;
    let mut cursor = args.walk();
    let args: Vec<Node> = args
        .named_children(&mut cursor)
        .filter(|a| a.kind() != "comment")
        .collect();
    let callback = args.last().filter(|a| is_function_value(**a))?;
    let titled = args
        .first()
        .filter(|a| matches!(a.kind(), "string" | "template_string"))
        .map(|a| string_content(*a))
        .filter(|r| !r.is_empty());
    let outside_functions = site.enclosing.is_none_or(|(_, call)| call);
    if titled.is_none() && !outside_functions {
        return None;
    }
    let callee = field(n, "function")?;
    let name = titled.or_else(|| last_identifier(callee));
    let test = js_root_callee(site, callee).is_some_and(|root| JS_TEST_CALLEES.contains(&root));
    let mut found = Found::new(UnitKind::Function, name, field(*callback, "body")).test(test);
    found.call = true;
    Some(found)
}

/// `describe` in `describe.each(table)`, `it` in `it.only`.
fn js_root_callee<'a>(site: &Site<'_, 'a>, callee: Node) -> Option<&'a [u8]> {
    let mut node = callee;
    for _ in 0..16 {
        node = match node.kind() {
            "identifier" => return Some(text(site, node)),
            "member_expression" => field(node, "object")?,
            "call_expression" => field(node, "function")?,
            _ => return None,
        };
    }
    None
}

fn java(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    let kind = match n.kind() {
        "class_declaration" => {
            let name = name_field(n);
            let named = text_of(site, &name);
            let test = is_test_class(named) || named.ends_with(b"IT");
            return Some(Found::new(Class, name, field(n, "body")).test(test));
        }
        "record_declaration" => Class,
        "interface_declaration" | "annotation_type_declaration" => Interface,
        "enum_declaration" => Enum,
        "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
            let test = java_modifiers(site, n).test;
            return Some(Found::new(Method, name_field(n), field(n, "body")).test(test));
        }
        "field_declaration" | "constant_declaration" => {
            let declarator = field(n, "declarator")?;
            let modifiers = java_modifiers(site, n);
            let constant = n.kind() == "constant_declaration" || modifiers.is_static_final;
            let kind = if constant { Const } else { Var };
            return Some(Found::new(
                kind,
                name_field(declarator),
                field(declarator, "value"),
            ));
        }
        _ => return None,
    };
    Some(Found::new(kind, name_field(n), field(n, "body")))
}

struct JavaModifiers {
    test: bool,
    is_static_final: bool,
}

/// Test annotations (`@Test`, `@ParameterizedTest`, `@RepeatedTest`,
/// `@TestFactory`, `@TestTemplate`) and `static final`.
fn java_modifiers(site: &Site, node: Node) -> JavaModifiers {
    let mut out = JavaModifiers {
        test: false,
        is_static_final: false,
    };
    let mut cursor = node.walk();
    let Some(modifiers) = node.children(&mut cursor).find(|c| c.kind() == "modifiers") else {
        return out;
    };
    let (mut is_static, mut is_final) = (false, false);
    let mut cursor = modifiers.walk();
    for child in modifiers.children(&mut cursor) {
        match child.kind() {
            "static" => is_static = true,
            "final" => is_final = true,
            "annotation" | "marker_annotation" => {
                let name = field(child, "name").and_then(last_identifier);
                let name = text_of(site, &name);
                out.test |= name.ends_with(b"Test") || starts_word(name, b"Test");
            }
            _ => {}
        }
    }
    out.is_static_final = is_static && is_final;
    out
}

fn c_family(site: &Site) -> Option<Found> {
    use UnitKind::*;
    let n = site.node;
    let cpp = site.lang == Lang::Cpp;
    let in_type = site.enclosing.is_some_and(|(kind, _)| kind.is_container());
    match n.kind() {
        "function_definition" => {
            let declarator = field(n, "declarator");
            let name = declarator.and_then(last_identifier);
            let qualified = declarator.is_some_and(|d| is_qualified(d));
            let named = text_of(site, &name);
            let test = cpp
                && named.starts_with(b"TEST")
                && named.iter().all(|c| c.is_ascii_uppercase() || *c == b'_');
            let kind = if qualified { Method } else { Function };
            Some(Found::new(kind, name, field(n, "body")).test(test))
        }
        "declaration" | "field_declaration" => {
            let declarator = field(n, "declarator")?;
            let name = last_identifier(declarator);
            if is_prototype(declarator) {
                let method = n.kind() == "field_declaration";
                let kind = if method { Method } else { Function };
                return (site.top || in_type).then(|| Found::new(kind, name, None));
            }
            if !site.top || n.kind() == "field_declaration" {
                return None;
            }
            let value = field(declarator, "value");
            if let Some(lambda) = value.filter(|v| v.kind() == "lambda_expression") {
                return Some(Found::new(Function, name, field(lambda, "body")));
            }
            let mut cursor = n.walk();
            let constant = n.children(&mut cursor).any(|c| {
                c.kind() == "type_qualifier" && matches!(text(site, c), b"const" | b"constexpr")
            });
            Some(Found::new(if constant { Const } else { Var }, name, value))
        }
        "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier" => {
            let body = field(n, "body")?;
            let kind = match n.kind() {
                "struct_specifier" => Struct,
                "union_specifier" => Union,
                "enum_specifier" => Enum,
                _ => Class,
            };
            let typedef = (site.outer != n)
                .then(|| site.parent.filter(|p| p.kind() == "type_definition"))
                .flatten()
                .and_then(|t| field(t, "declarator"))
                .and_then(last_identifier);
            let name = typedef.or_else(|| field(n, "name").and_then(last_identifier));
            Some(Found::new(kind, name, Some(body)))
        }
        "type_definition" => {
            let ty = field(n, "type");
            if ty.is_some_and(|t| t.kind().ends_with("_specifier") && field(t, "body").is_some()) {
                return None; // the struct, union or enum is the unit
            }
            let name = field(n, "declarator").and_then(last_identifier);
            Some(Found::new(TypeAlias, name, ty))
        }
        "alias_declaration" => Some(Found::new(TypeAlias, name_field(n), field(n, "type"))),
        "namespace_definition" => {
            let name = field(n, "name").and_then(last_identifier);
            Some(Found::new(Module, name, field(n, "body")))
        }
        "preproc_def" | "preproc_function_def" => {
            Some(Found::new(Macro, name_field(n), field(n, "value")))
        }
        _ => None,
    }
}

/// A declarator that declares a function (`f(int)`, `*f(void)`), not a
/// function pointer (`(*f)(int)`).
fn is_prototype(declarator: Node) -> bool {
    let mut node = declarator;
    for _ in 0..16 {
        node = match node.kind() {
            "function_declarator" => {
                return field(node, "declarator")
                    .is_some_and(|d| d.kind() != "parenthesized_declarator");
            }
            "pointer_declarator" | "reference_declarator" | "attributed_declarator" => {
                match field(node, "declarator")
                    .or_else(|| node.named_child(node.named_child_count().saturating_sub(1) as u32))
                {
                    Some(inner) => inner,
                    None => return false,
                }
            }
            _ => return false,
        };
    }
    false
}

/// `Foo::bar` in `void Foo::bar() {}`: a method defined outside its class.
fn is_qualified(declarator: Node) -> bool {
    let mut node = declarator;
    for _ in 0..16 {
        if node.kind() == "qualified_identifier" {
            return true;
        }
        node = match field(node, "declarator") {
            Some(inner) => inner,
            None => return false,
        };
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_test_attributes() {
        assert!(rust_attrs_test(b"#[test]"));
        assert!(rust_attrs_test(
            b"#[tokio::test(flavor = \"multi_thread\")]"
        ));
        assert!(rust_attrs_test(b"#[cfg(test)]"));
        assert!(rust_attrs_test(b"#[cfg(all(test, unix))]"));
        assert!(rust_attrs_test(b"#[inline]\n#[test_case(1)]"));
        assert!(!rust_attrs_test(b"#[cfg(not(test))]"));
        assert!(!rust_attrs_test(b"#[derive(Debug)]"));
        assert!(!rust_attrs_test(b"#[cfg(feature = \"test-utils\")]"));
        assert!(!rust_attrs_test(b""));
    }

    #[test]
    fn go_test_names() {
        assert!(go_test(b"TestParse", b"(t *testing.T)"));
        assert!(go_test(b"Test", b"(t *testing.T)"));
        assert!(go_test(b"BenchmarkParse", b"(b *testing.B)"));
        assert!(go_test(b"ExampleParse", b"()"));
        assert!(!go_test(b"Testify", b"(t *testing.T)"));
        assert!(!go_test(b"TestParse", b"(x int)"));
    }

    #[test]
    fn test_names() {
        assert!(starts_word(b"test_parse", b"test"));
        assert!(starts_word(b"testParse", b"test"));
        assert!(starts_word(b"test", b"test"));
        assert!(!starts_word(b"testimony", b"test"));
        assert!(is_test_class(b"TestParser"));
        assert!(is_test_class(b"ParserTests"));
        assert!(!is_test_class(b"Testable"));
        assert!(!is_test_class(b"Parser"));
    }

    #[test]
    fn constant_names() {
        assert!(is_constant_name(b"MAX_SIZE"));
        assert!(is_constant_name(b"HTTP2"));
        assert!(!is_constant_name(b"app"));
        assert!(!is_constant_name(b"_"));
    }
}
