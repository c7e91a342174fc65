//! The tools as `tools/list` describes them: name, description, `inputSchema`
//! and `outputSchema` (JSON Schema 2020-12, MCP's default dialect).
//!
//! Owns the wording agents read and the shapes of arguments and results;
//! `tools` parses arguments by the same names and builds results of these
//! shapes (tests validate real results against the schemas).

use serde_json::{json, Value};

use super::tools::{Tool, DEFAULT_MAX_TOKENS, MAX_CONTEXT};

/// The definitions of every tool, in `tools/list` order.
pub fn definitions() -> Vec<Value> {
    [Tool::Search, Tool::Answer, Tool::Explain]
        .into_iter()
        .map(definition)
        .collect()
}

/// One tool's definition.
pub fn definition(tool: Tool) -> Value {
    let (title, description) = match tool {
        Tool::Search => (
            "Search code (natural language, identifier or regex)",
            "Find the lines that answer a question about a code base or its documents. \
             The query is natural language (\"where is the retry delay computed\"), an \
             identifier or \"quoted literal\" (exact, case-sensitive), or a regex; kgrep \
             decides as its command line does. Returns grep-style text (a ./path heading, \
             then N:<TAB>line for matches and N-<TAB>line for context), best files first \
             for natural language; structuredContent has the same files and lines with \
             scores and the query terms each line matched. Offline unless a model is \
             configured and the offline results look insufficient.",
        ),
        Tool::Answer => (
            "Answer a question from the code, with citations",
            "Answer a question about a code base in a few sentences with path:line \
             citations, then the lines it rests on. With a language model configured the \
             answer is written by it and its citations are checked against the files; \
             without one (or with offline: true) it is an extractive answer quoting the \
             best lines, labelled as such.",
        ),
        Tool::Explain => (
            "Explain why lines ranked",
            "Run a search and say, for each printed line, why it was printed: its score \
             decomposed (query words on the line and near it, identifier bonus, line kind) \
             and its file's score.",
        ),
    };
    json!({
        "name": tool.name(),
        "title": title,
        "description": description,
        "inputSchema": input_schema(),
        "outputSchema": output_schema(tool),
        "annotations": {
            "title": title,
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false,
        },
    })
}

/// The arguments every tool takes.
fn input_schema() -> Value {
    let strings = |description: &str| json!({"type": "array", "items": {"type": "string"}, "description": description});
    json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "description": "What to find: a question in natural language, an identifier, a \"quoted literal\" or a regex.",
            },
            "paths": strings("Files or directories to search, relative to the server's working directory (default: the whole directory)."),
            "globs": strings("Only files matching these globs (ripgrep syntax; a leading ! excludes), e.g. [\"*.rs\", \"!tests/**\"]."),
            "types": strings("Only files of these ripgrep types, e.g. [\"py\", \"rust\", \"md\"]."),
            "context": {
                "type": "integer",
                "minimum": 0,
                "maximum": MAX_CONTEXT,
                "description": "Lines of context before and after each match (default 0).",
            },
            "max_lines": {
                "type": "integer",
                "minimum": 0,
                "description": "Most matching lines for a natural-language query, best first (default 15; 0: every strong line). Literal and regex queries return every match, within max_tokens.",
            },
            "max_tokens": {
                "type": "integer",
                "minimum": 1,
                "description": format!("Most tokens of results to return (estimated at three bytes a token); lines past it are left out and counted in left_out (default {DEFAULT_MAX_TOKENS})."),
            },
            "offline": {
                "type": "boolean",
                "description": "Never consult a language model (default: only when one is configured and the offline results look insufficient).",
            },
        },
        "required": ["query"],
        "additionalProperties": false,
    })
}

/// What a tool returns as `structuredContent`.
fn output_schema(tool: Tool) -> Value {
    let mut properties = json!({
        "query": {
            "type": "object",
            "description": "The query as kgrep read it.",
            "properties": {
                "text": {"type": "string", "description": "The query, or its start when it is long (see cut)."},
                "kind": {"enum": ["natural", "literal", "regex"]},
                "cut": {"type": "boolean", "description": "Present (true) when text is only the start of a query too long to echo within max_tokens."},
                "bytes": {"type": "integer", "description": "The whole query's length in bytes, when cut."},
            },
            "required": ["text", "kind"],
        },
        "files": {
            "type": "array",
            "description": "Files printed, in print order (best first for natural language).",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "score": {"type": ["number", "null"], "description": "Rank score (natural language)."},
                    "lines": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "line": {"type": "integer", "minimum": 1},
                                "text": {"type": "string", "description": "The line; one over 300 bytes is a window around its matches with [... N bytes omitted] markers, as in the text."},
                                "match": {"type": "boolean", "description": "A match line, not context."},
                                "score": {"type": ["number", "null"]},
                                "terms": {"type": "array", "items": {"type": "string"}, "description": "Query terms on the line."},
                                "source": {"enum": ["lexical", "thesaurus", "fuzzy", "model"]},
                            },
                            "required": ["line", "text", "match"],
                        },
                    },
                },
                "required": ["path", "score", "lines"],
            },
        },
        "model_consulted": {"type": "boolean", "description": "Whether a language model was called."},
        "sufficient": {"type": ["boolean", "null"], "description": "Whether the offline results were judged to answer the query (null: no judge, for literal and regex queries)."},
        "judge_reason": {"type": ["string", "null"]},
        "files_scanned": {"type": "integer", "minimum": 0},
        "files_loaded": {"type": "integer", "minimum": 0},
        "left_out": {
            "type": "object",
            "description": "What max_tokens left out.",
            "properties": {
                "max_tokens": {"type": "integer"},
                "lines": {"type": "integer", "minimum": 0},
                "files": {"type": "integer", "minimum": 0},
                "answer_cut": {"type": "boolean"},
            },
            "required": ["max_tokens", "lines", "files", "answer_cut"],
        },
        "warnings": {"type": "array", "items": {"type": "string"}},
    });
    let mut required = vec![
        "query",
        "files",
        "model_consulted",
        "sufficient",
        "left_out",
        "warnings",
    ];
    if let Some(props) = properties.as_object_mut() {
        match tool {
            Tool::Search => {}
            Tool::Answer => {
                props.insert(
                    "answer".into(),
                    json!({
                        "type": "object",
                        "properties": {
                            "text": {"type": "string"},
                            "source": {"enum": ["model", "extractive"]},
                            "model": {"type": ["string", "null"]},
                        },
                        "required": ["text", "source", "model"],
                    }),
                );
                required.push("answer");
            }
            Tool::Explain => {
                props.insert(
                    "explanations".into(),
                    json!({"type": "array", "items": {"type": "string"}, "description": "One per printed file and line, in print order."}),
                );
                required.push("explanations");
            }
        }
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
    })
}
