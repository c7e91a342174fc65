//! The syntax around units, per language: which grammar parses it, which
//! nodes are comments, string literals, calls and imports, which nodes are
//! transparent (their children sit at the top level, like `export` or
//! `#ifdef`), and which wrap a unit's node (a decorator list, `template<…>`).
//! Node kinds are tree-sitter's, as each grammar crate names them.
//!
//! What a unit is lives in `detect`; walking the tree in `extract`.

use std::ops::Range;

use tree_sitter::{Language, Node};

use super::Lang;

/// The grammar that parses `lang`.
pub(super) fn grammar(lang: Lang) -> Language {
    match lang {
        Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        Lang::Python => tree_sitter_python::LANGUAGE.into(),
        Lang::Go => tree_sitter_go::LANGUAGE.into(),
        Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Lang::Java => tree_sitter_java::LANGUAGE.into(),
        Lang::C => tree_sitter_c::LANGUAGE.into(),
        Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
    }
}

pub(super) fn is_comment(kind: &str) -> bool {
    matches!(
        kind,
        "comment" | "line_comment" | "block_comment" | "html_comment"
    )
}

/// A string literal whose content is recorded (docstrings aside).
pub(super) fn is_string(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Rust => matches!(kind, "string_literal" | "raw_string_literal"),
        Lang::Python => kind == "string",
        Lang::Go => matches!(kind, "interpreted_string_literal" | "raw_string_literal"),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            matches!(kind, "string" | "template_string")
        }
        Lang::Java => kind == "string_literal",
        Lang::C | Lang::Cpp => matches!(kind, "string_literal" | "raw_string_literal"),
    }
}

/// The children of a string literal that are its content (not its quotes).
fn is_string_content(kind: &str) -> bool {
    matches!(
        kind,
        "string_content"
            | "string_fragment"
            | "escape_sequence"
            | "raw_string_content"
            | "multiline_string_fragment"
            | "interpreted_string_literal_content"
            | "raw_string_literal_content"
            | "interpolation"
            | "template_substitution"
            | "string_interpolation"
            | "format_specifier"
    )
}

/// The content of a string literal node: from its first content child to its
/// last, or an empty range after the opening quote when it is empty.
pub(super) fn string_content(node: Node) -> Range<usize> {
    let mut first: Option<Range<usize>> = None;
    let mut last = None;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if is_string_content(child.kind()) {
            first.get_or_insert(child.byte_range());
            last = Some(child.byte_range());
        }
    }
    match (first, last) {
        (Some(first), Some(last)) => first.start..last.end,
        _ => {
            let at = node.child(0).map_or(node.start_byte(), |c| c.end_byte());
            let at = at.min(node.end_byte());
            at..at
        }
    }
}

/// An import-like node: never a unit nor a statement, and its strings and
/// calls are not recorded.
pub(super) fn is_import(lang: Lang, node: Node, text: &[u8]) -> bool {
    let kind = node.kind();
    match lang {
        Lang::Rust => {
            matches!(kind, "use_declaration" | "extern_crate_declaration")
                || (kind == "mod_item" && node.child_by_field_name("body").is_none())
        }
        Lang::Python => matches!(
            kind,
            "import_statement" | "import_from_statement" | "future_import_statement"
        ),
        Lang::Go => matches!(kind, "import_declaration" | "package_clause"),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => match kind {
            "import_statement" | "import_alias" => true,
            // `const x = require('x')`, `const { a } = await import('a')`
            "lexical_declaration" | "variable_declaration" => {
                let mut cursor = node.walk();
                let mut values = node
                    .named_children(&mut cursor)
                    .filter(|d| d.kind() == "variable_declarator")
                    .map(|d| d.child_by_field_name("value"))
                    .peekable();
                values.peek().is_some() && values.all(|v| v.is_some_and(|v| is_require(v, text)))
            }
            // `export { a } from 'b'`, `export * from 'c'`, `export { a, b }`
            "export_statement" => {
                node.child_by_field_name("declaration").is_none()
                    && node.child_by_field_name("value").is_none()
            }
            _ => false,
        },
        Lang::Java => matches!(
            kind,
            "package_declaration" | "import_declaration" | "module_declaration"
        ),
        Lang::C | Lang::Cpp => matches!(
            kind,
            "preproc_include" | "using_declaration" | "namespace_alias_definition" | "preproc_call"
        ),
    }
}

/// A node whose children sit where the node sits: at the top level when it
/// does (so a constant under `export` or `#ifdef` is a top-level constant).
pub(super) fn is_transparent(lang: Lang, kind: &str) -> bool {
    if kind == "ERROR" {
        return true;
    }
    match lang {
        Lang::Rust => matches!(
            kind,
            "source_file" | "declaration_list" | "foreign_mod_item"
        ),
        Lang::Python => matches!(
            kind,
            "module" | "expression_statement" | "decorated_definition"
        ),
        Lang::Go => matches!(
            kind,
            "source_file"
                | "const_declaration"
                | "var_declaration"
                | "var_spec_list"
                | "type_declaration"
        ),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => matches!(
            kind,
            "program"
                | "export_statement"
                | "lexical_declaration"
                | "variable_declaration"
                | "expression_statement"
                | "ambient_declaration"
                | "statement_block"
        ),
        Lang::Java => kind == "program",
        // The containers, and what wraps a definition: `extern "C" { … }`
        // and `template <…>`.
        Lang::C | Lang::Cpp => {
            is_container(lang, kind)
                || matches!(kind, "linkage_specification" | "template_declaration")
        }
    }
}

/// A node whose children are top-level statements when it is at the top
/// level: the file, and blocks such as `#ifdef … #endif` or `extern "C" {…}`.
pub(super) fn is_container(lang: Lang, kind: &str) -> bool {
    if kind == "ERROR" {
        return true;
    }
    match lang {
        Lang::Rust => matches!(kind, "source_file" | "declaration_list"),
        Lang::Python => kind == "module",
        Lang::Go => kind == "source_file",
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            matches!(kind, "program" | "statement_block")
        }
        Lang::Java => kind == "program",
        Lang::C | Lang::Cpp => matches!(
            kind,
            "translation_unit"
                | "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif"
                | "preproc_elifdef"
                | "declaration_list"
        ),
    }
}

/// `parent` is part of the unit whose node is `child`: the unit's extent and
/// header start at `parent` (a decorator list, `export`, `template<…>`, a
/// declaration of one variable).
pub(super) fn is_wrapper(lang: Lang, parent: Node, child: Node) -> bool {
    match (lang, parent.kind()) {
        (Lang::Python, "decorated_definition") => true,
        (Lang::Python, "expression_statement") => parent.named_child_count() == 1,
        (
            Lang::Go,
            "type_declaration" | "const_declaration" | "var_declaration" | "var_spec_list",
        ) => only_named_child(parent, child),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, kind) => match kind {
            "export_statement" | "ambient_declaration" => true,
            "expression_statement" => parent.named_child(0) == Some(child),
            "lexical_declaration" | "variable_declaration" => only_named_child(parent, child),
            _ => false,
        },
        (Lang::C | Lang::Cpp, "template_declaration") => true,
        (Lang::C | Lang::Cpp, "type_definition") => {
            parent.child_by_field_name("type") == Some(child)
        }
        _ => false,
    }
}

/// `child` is the one named child of `parent` that is not a comment.
fn only_named_child(parent: Node, child: Node) -> bool {
    let mut cursor = parent.walk();
    let mut others = parent
        .named_children(&mut cursor)
        .filter(|c| !is_comment(c.kind()) && *c != child);
    others.next().is_none()
}

/// Attribute-like siblings that belong to the unit after them (Rust
/// `#[…]`, TypeScript member decorators).
pub(super) fn is_attribute(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Rust => kind == "attribute_item",
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => kind == "decorator",
        _ => false,
    }
}

/// Not a statement even at the top level.
pub(super) fn is_filler(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Rust => matches!(kind, "inner_attribute_item" | "attribute_item" | "shebang"),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            matches!(kind, "empty_statement" | "hash_bang_line")
        }
        Lang::C | Lang::Cpp => kind == "preproc_directive",
        _ => false,
    }
}

/// The node naming the callee if `node` is a call: `foo` in `foo(x)`, `a.b.bar`
/// in `a.b.bar()`, `Foo` in `new Foo()`, `vec` in `vec![]`.
pub(super) fn callee(lang: Lang, node: Node) -> Option<Node> {
    let field = match (lang, node.kind()) {
        (_, "call_expression") => "function",
        (Lang::Python, "call") => "function",
        (Lang::Rust, "macro_invocation") => "macro",
        (Lang::Java, "method_invocation") => "name",
        (Lang::Java, "object_creation_expression") => "type",
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "new_expression") => "constructor",
        (Lang::Cpp, "new_expression") => "type",
        _ => return None,
    };
    node.child_by_field_name(field)
}

/// Identifier-like leaves: what a callee or a name finally is.
fn is_identifier(kind: &str) -> bool {
    matches!(
        kind,
        "identifier"
            | "property_identifier"
            | "field_identifier"
            | "type_identifier"
            | "private_property_identifier"
            | "shorthand_property_identifier"
            | "namespace_identifier"
            | "package_identifier"
            | "destructor_name"
            | "operator_name"
            | "constant"
            | "metavariable"
    )
}

/// The last identifier of a callee, a type or a declarator: `bar` in
/// `a.b.bar`, `Foo` in `a::Foo<T>`, `make` in `std::make<T>`, `fn` in
/// `*fn(int x)`. Bounded, so no input nests it deep.
pub(super) fn last_identifier(node: Node) -> Option<Range<usize>> {
    const FIELDS: &[&str] = &[
        "name",
        "property",
        "field",
        "attribute",
        "declarator",
        "function",
        "type",
        "constructor",
        "macro",
    ];
    let mut node = node;
    for _ in 0..32 {
        if is_identifier(node.kind()) {
            return Some(node.byte_range());
        }
        let next = FIELDS
            .iter()
            .find_map(|f| node.child_by_field_name(f))
            .or_else(|| last_named_child(node));
        node = next?;
    }
    None
}

fn last_named_child(node: Node) -> Option<Node> {
    let count = node.named_child_count();
    (0..count)
        .rev()
        .filter_map(|i| node.named_child(i as u32))
        .find(|c| !is_comment(c.kind()) && !c.kind().contains("argument"))
}

/// Rust macro bodies are token trees: `name(…)` and `name!(…)` inside one
/// are calls the grammar does not parse. Pushes the callee identifiers among
/// `tree`'s direct children.
pub(super) fn token_tree_calls(tree: Node, out: &mut Vec<Range<usize>>) {
    let mut cursor = tree.walk();
    let children: Vec<Node> = tree.children(&mut cursor).collect();
    let opens = |n: Option<&Node>| {
        n.is_some_and(|n| n.kind() == "token_tree" && n.child(0).is_some_and(|c| c.kind() == "("))
    };
    for (i, name) in children.iter().enumerate() {
        if name.kind() != "identifier" {
            continue;
        }
        let next = children.get(i + 1);
        let bang = next.is_some_and(|n| n.kind() == "!")
            && children
                .get(i + 2)
                .is_some_and(|n| n.kind() == "token_tree");
        if bang || opens(next) {
            out.push(name.byte_range());
        }
    }
}

/// Nodes between a container and the container inside it: not statements
/// themselves (`extern "C" { … }`, Rust `extern { … }`).
pub(super) fn is_passage(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Rust => kind == "foreign_mod_item",
        Lang::C | Lang::Cpp => kind == "linkage_specification",
        _ => false,
    }
}

/// `require('x')`, `require('x').y`, `await import('x')`: an import.
pub(super) fn is_require(value: Node, text: &[u8]) -> bool {
    let mut node = value;
    for _ in 0..8 {
        node = match node.kind() {
            "await_expression" => match node.named_child(0) {
                Some(inner) => inner,
                None => return false,
            },
            "member_expression" => match node.child_by_field_name("object") {
                Some(object) => object,
                None => return false,
            },
            "call_expression" => {
                let callee = node.child_by_field_name("function");
                return callee.is_some_and(|c| {
                    matches!(text.get(c.byte_range()), Some(b"require" | b"import"))
                });
            }
            _ => return false,
        };
    }
    false
}
