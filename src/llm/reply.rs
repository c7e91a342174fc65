//! The one reply shape every model call uses, and its tolerant parser.
//!
//! Every request asks for one JSON object whose keys are all optional:
//!
//! ```json
//! {"matches":   [{"path": "src/app.py", "line": 12}],
//!  "answer":    "…",
//!  "citations": [{"path": "src/app.py", "line": 12}],
//!  "concepts":  [{"name": "retry", "synonyms": ["backoff"], "related": ["timeout"]}],
//!  "searches":  [{"pattern": "retry_delay"}, {"path": "src/app.py", "start": 1, "end": 40}],
//!  "<signature field>": …}
//! ```
//!
//! so one scripted mock (and rlmgrep's `fake_llm.py`) drives every tier. Models
//! wrap JSON in prose or ```` ```json ```` fences, write lines as strings, or stop
//! mid-object; this module finds the first JSON object in the text and reads what
//! it can. Malformed entries are skipped and counted ([`Reply::malformed`]), never
//! fatal; a reply with no JSON object, or whose known keys have the wrong type,
//! is a [`ReplyError`]; a cut-off object is [`ReplyError::Truncated`] with the
//! complete entries salvaged. Nothing here panics on any input (tested with
//! every prefix and thousands of mutations of real replies). Claims are not
//! trusted here: `verify` checks each one against the real files.

use serde_json::{Map, Value};
use thiserror::Error;

use crate::verify::Claim;

/// How many `{` positions are tried as the start of the reply object; bounds the
/// work on hostile text full of braces.
const MAX_OBJECT_STARTS: usize = 64;

/// The parsed reply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// `(path, line)` claims, unverified, in the model's order.
    pub matches: Vec<Claim>,
    /// The narrative answer (`--answer`).
    pub answer: Option<String>,
    /// Claims backing the answer.
    pub citations: Vec<Claim>,
    /// Concepts taught by the model (expansion).
    pub concepts: Vec<Concept>,
    /// Follow-up searches the model asks for.
    pub searches: Vec<Search>,
    /// Every other key, as sent (signature fields).
    pub extra: Map<String, Value>,
    /// Entries of the known lists that could not be read and were skipped.
    pub malformed: usize,
}

impl Reply {
    /// The reply with every path the prompt sent in place of a file's key
    /// (`paths`: `(sent, key)`, `Prompt::paths`) back to that key: its
    /// claims, citations and range searches name the file, and its answer
    /// says the file's path (it is shown here, never sent).
    pub fn with_keys(mut self, paths: &[(String, String)]) -> Reply {
        if paths.is_empty() {
            return self;
        }
        let key_of = |path: &mut String| {
            if let Some((_, key)) = paths.iter().find(|(sent, _)| sent == path) {
                *path = key.clone();
            }
        };
        self.matches
            .iter_mut()
            .chain(self.citations.iter_mut())
            .for_each(|c| key_of(&mut c.path));
        for search in &mut self.searches {
            if let Search::Range { path, .. } = search {
                key_of(path);
            }
        }
        if let Some(answer) = &mut self.answer {
            for (sent, key) in paths {
                *answer = answer.replace(sent, key);
            }
        }
        self
    }
}

/// A concept proposed by the model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Concept {
    pub name: String,
    pub synonyms: Vec<String>,
    pub related: Vec<String>,
}

/// A follow-up search the model asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// Search the corpus for this text or regex.
    Pattern(String),
    /// Show lines `start..=end` of `path` (1-based; unchecked).
    Range { path: String, start: i64, end: i64 },
}

/// Why a reply could not be read.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ReplyError {
    /// No JSON object anywhere in the text.
    #[error("the model's reply holds no JSON object")]
    NoJson,
    /// A JSON value that is not an object, or a known key of the wrong type.
    #[error("the model's reply has the wrong shape: {0}")]
    WrongShape(String),
    /// The object was cut off; `salvaged` holds its complete entries, if any.
    #[error("the model's reply was cut off mid-JSON")]
    Truncated { salvaged: Option<Box<Reply>> },
}

/// Finds and reads the reply object in a model's text.
pub fn parse_reply(text: &str) -> Result<Reply, ReplyError> {
    match find_object(text) {
        Found::Object(map) => reply_from_map(map),
        Found::NotObject(kind) => Err(ReplyError::WrongShape(format!(
            "expected a JSON object, got {kind}"
        ))),
        Found::Truncated(salvage) => {
            let salvaged = salvage
                .and_then(|map| reply_from_map(map).ok())
                .filter(|r| *r != Reply::default())
                .map(Box::new);
            Err(ReplyError::Truncated { salvaged })
        }
        Found::Nothing => Err(ReplyError::NoJson),
    }
}

/// Reads a reply from an already parsed JSON object.
pub fn reply_from_map(map: Map<String, Value>) -> Result<Reply, ReplyError> {
    let mut reply = Reply::default();
    for (key, value) in map {
        match key.as_str() {
            "matches" => reply.matches = claims(&key, value, &mut reply.malformed)?,
            "citations" => reply.citations = claims(&key, value, &mut reply.malformed)?,
            "answer" => reply.answer = answer(value),
            "concepts" => reply.concepts = concepts(value, &mut reply.malformed)?,
            "searches" => reply.searches = searches(value, &mut reply.malformed)?,
            _ => {
                reply.extra.insert(key, value);
            }
        }
    }
    Ok(reply)
}

enum Found {
    Object(Map<String, Value>),
    NotObject(&'static str),
    Truncated(Option<Map<String, Value>>),
    Nothing,
}

/// The whole text as JSON, else a fenced block, else the first balanced object.
fn find_object(text: &str) -> Found {
    let trimmed = text.trim();
    if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
        return match value {
            Value::Object(map) => Found::Object(map),
            other => Found::NotObject(kind(&other)),
        };
    }
    for block in fenced_blocks(trimmed) {
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(block.trim()) {
            return Found::Object(map);
        }
    }
    first_object(trimmed)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Contents of ```` ``` ```` fences (any info string), in order.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
        let body = &after[body_start..];
        match body.find("```") {
            Some(close) => {
                blocks.push(&body[..close]);
                rest = &body[close + 3..];
            }
            None => {
                blocks.push(body);
                break;
            }
        }
    }
    blocks
}

/// Scans for the first `{` that starts a JSON object (`{` then `"` or `}`),
/// skipping braces in prose. A complete object that parses is the reply; one
/// that does not is skipped whole (its nested objects are not replies). An
/// object left open at the end of the text is truncated: the longest prefix
/// ending after a complete nested value is closed and parsed as the salvage.
fn first_object(text: &str) -> Found {
    let bytes = text.as_bytes();
    let mut from = 0;
    for _ in 0..MAX_OBJECT_STARTS {
        let Some(start) = bytes[from..]
            .iter()
            .position(|b| *b == b'{')
            .map(|i| i + from)
        else {
            break;
        };
        from = start + 1;
        if !opens_object(&bytes[start + 1..]) {
            continue;
        }
        match scan(&bytes[start..]) {
            Scan::Closed(len) => {
                if let Ok(Value::Object(map)) = serde_json::from_str(&text[start..start + len]) {
                    return Found::Object(map);
                }
                from = start + len;
            }
            Scan::Open { cut } => {
                let salvage = cut.and_then(|(len, closing)| {
                    let candidate = format!("{}{closing}", &text[start..start + len]);
                    match serde_json::from_str(&candidate) {
                        Ok(Value::Object(map)) => Some(map),
                        _ => None,
                    }
                });
                return Found::Truncated(salvage);
            }
            Scan::Invalid => {}
        }
    }
    Found::Nothing
}

/// After a `{`: the next non-blank byte starts a key or closes the object.
fn opens_object(rest: &[u8]) -> bool {
    match rest.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'"') | Some(b'}') => true,
        Some(_) => false,
        // `{` at the very end of the text: an object cut off at once.
        None => true,
    }
}

enum Scan {
    /// The object closes after this many bytes.
    Closed(usize),
    /// The text ends inside the object; `cut` is the last point where a nested
    /// value had just closed, with the brackets that would close the rest.
    Open { cut: Option<(usize, String)> },
    /// Brackets that do not match: not JSON.
    Invalid,
}

/// Bracket matching that skips strings; `bytes[0]` is `{`. Only ASCII bytes are
/// compared, so every index returned is a char boundary. Linear: the closing
/// brackets of the salvage are built once, at the end (after the last close
/// only pushes happened, so the stack below the cut's depth is unchanged).
fn scan(bytes: &[u8]) -> Scan {
    let mut stack: Vec<u8> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut cut: Option<(usize, usize)> = None;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => stack.push(b'}'),
            b'[' => stack.push(b']'),
            b'}' | b']' => {
                if stack.pop() != Some(b) {
                    return Scan::Invalid;
                }
                if stack.is_empty() {
                    return Scan::Closed(i + 1);
                }
                cut = Some((i + 1, stack.len()));
            }
            _ => {}
        }
    }
    let cut = cut.map(|(len, depth)| {
        let closing: String = stack[..depth].iter().rev().map(|&c| c as char).collect();
        (len, closing)
    });
    Scan::Open { cut }
}

/// A list of claims: `[{"path","line"}]`, `["path:line"]`, `[["path", line]]`,
/// or `{"path": [lines]}`.
fn claims(key: &str, value: Value, malformed: &mut usize) -> Result<Vec<Claim>, ReplyError> {
    let mut out = Vec::new();
    match value {
        Value::Null => {}
        Value::Array(items) => {
            for item in items {
                match claim(&item) {
                    Some(c) => out.push(c),
                    None => *malformed += 1,
                }
            }
        }
        Value::Object(by_path) => {
            for (path, lines) in by_path {
                let lines = match lines {
                    Value::Array(items) => items,
                    single => vec![single],
                };
                for line in lines {
                    match line_number(&line) {
                        Some(line) => out.push(Claim {
                            path: path.clone(),
                            line,
                        }),
                        None => *malformed += 1,
                    }
                }
            }
        }
        other => {
            return Err(ReplyError::WrongShape(format!(
                "'{key}' is {}, not a list",
                kind(&other)
            )))
        }
    }
    Ok(out)
}

fn claim(item: &Value) -> Option<Claim> {
    match item {
        Value::Object(map) => {
            let path = ["path", "file", "filename"]
                .iter()
                .find_map(|k| map.get(*k))?
                .as_str()?;
            let line = ["line", "line_number", "lineno"]
                .iter()
                .find_map(|k| map.get(*k))?;
            Some(Claim {
                path: path.to_string(),
                line: line_number(line)?,
            })
        }
        Value::String(s) => {
            let (path, line) = s.rsplit_once(':')?;
            let line = line.trim().parse().ok()?;
            (!path.is_empty()).then(|| Claim {
                path: path.to_string(),
                line,
            })
        }
        Value::Array(pair) if pair.len() == 2 => Some(Claim {
            path: pair[0].as_str()?.to_string(),
            line: line_number(&pair[1])?,
        }),
        _ => None,
    }
}

/// A line number from a JSON integer, an integral float, or a numeric string
/// (pydantic's lax coercion, as rlmgrep's `Match` model does).
fn line_number(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            let f = n.as_f64()?;
            (f.fract() == 0.0 && f.abs() < 1e15).then_some(f as i64)
        }),
        Value::String(s) => {
            let s = s.trim();
            s.parse::<i64>().ok().or_else(|| {
                let f: f64 = s.parse().ok()?;
                (f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15).then_some(f as i64)
            })
        }
        _ => None,
    }
}

fn answer(value: Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s),
        other => Some(other.to_string()),
    }
}

fn concepts(value: Value, malformed: &mut usize) -> Result<Vec<Concept>, ReplyError> {
    let items = list("concepts", value)?;
    let mut out = Vec::new();
    for item in items {
        let concept = match item {
            Value::String(name) => Some(Concept {
                name,
                ..Concept::default()
            }),
            Value::Object(map) => {
                let name = ["name", "concept", "term"]
                    .iter()
                    .find_map(|k| map.get(*k)?.as_str());
                name.map(|name| Concept {
                    name: name.to_string(),
                    synonyms: distinct(name, strings(map.get("synonyms"))),
                    related: distinct(name, strings(map.get("related"))),
                })
            }
            _ => None,
        };
        match concept.filter(|c| !c.name.trim().is_empty()) {
            Some(c) => out.push(c),
            None => *malformed += 1,
        }
    }
    Ok(out)
}

fn searches(value: Value, malformed: &mut usize) -> Result<Vec<Search>, ReplyError> {
    let items = list("searches", value)?;
    let mut out = Vec::new();
    for item in items {
        let search = match &item {
            Value::String(p) => Some(Search::Pattern(p.clone())),
            Value::Object(map) => match (map.get("pattern"), map.get("path")) {
                (Some(Value::String(p)), _) => Some(Search::Pattern(p.clone())),
                (_, Some(Value::String(path))) => range(path, map),
                _ => None,
            },
            _ => None,
        };
        match search {
            Some(s) => out.push(s),
            None => *malformed += 1,
        }
    }
    Ok(out)
}

fn range(path: &str, map: &Map<String, Value>) -> Option<Search> {
    let start = map.get("start").and_then(line_number)?;
    let end = map.get("end").and_then(line_number).unwrap_or(start);
    Some(Search::Range {
        path: path.to_string(),
        start,
        end,
    })
}

/// A list value: null is empty, a single object is a list of one.
fn list(key: &str, value: Value) -> Result<Vec<Value>, ReplyError> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => Ok(items),
        Value::Object(_) => Ok(vec![value]),
        other => Err(ReplyError::WrongShape(format!(
            "'{key}' is {}, not a list",
            kind(&other)
        ))),
    }
}

/// Words without repeats (small models repeat themselves), without the
/// concept's own name and without blanks; first spelling and order kept.
fn distinct(name: &str, words: Vec<String>) -> Vec<String> {
    let mut seen = vec![name.trim().to_lowercase()];
    let mut out = Vec::new();
    for word in words {
        let key = word.trim().to_lowercase();
        if !key.is_empty() && !seen.contains(&key) {
            seen.push(key);
            out.push(word.trim().to_string());
        }
    }
    out
}

/// Strings from an array (non-strings skipped), a single string, or nothing.
fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str())
            .map(str::to_string)
            .collect(),
        Some(Value::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use serde_json::json;

    use super::*;

    fn claim(path: &str, line: i64) -> Claim {
        Claim {
            path: path.into(),
            line,
        }
    }

    #[test]
    fn plain_object_with_every_key() {
        let text = r#"{"matches": [{"path": "src/app.py", "line": 9}],
        "answer": "It retries.",
        "citations": [{"path": "src/app.py", "line": 3}],
        "concepts": [{"name": "retry", "synonyms": ["backoff", 7], "related": "timeout"}],
        "searches": [{"pattern": "retry_delay"}, {"path": "src/app.py", "start": 1, "end": 40}],
        "summary": "x", "files": ["a"]}"#;
        let reply = parse_reply(text).unwrap();
        assert_eq!(reply.matches, [claim("src/app.py", 9)]);
        assert_eq!(reply.answer.as_deref(), Some("It retries."));
        assert_eq!(reply.citations, [claim("src/app.py", 3)]);
        assert_eq!(
            reply.concepts,
            [Concept {
                name: "retry".into(),
                synonyms: vec!["backoff".into()],
                related: vec!["timeout".into()],
            }]
        );
        assert_eq!(
            reply.searches,
            [
                Search::Pattern("retry_delay".into()),
                Search::Range {
                    path: "src/app.py".into(),
                    start: 1,
                    end: 40
                }
            ]
        );
        assert_eq!(reply.extra.get("summary"), Some(&json!("x")));
        assert_eq!(reply.extra.get("files"), Some(&json!(["a"])));
        assert_eq!(reply.malformed, 0);
    }

    #[test]
    fn empty_object_is_a_valid_empty_reply() {
        assert_eq!(parse_reply("{}").unwrap(), Reply::default());
        assert_eq!(
            parse_reply(" {\"matches\": null} ").unwrap(),
            Reply::default()
        );
    }

    #[test]
    fn line_numbers_are_coerced_like_pydantic() {
        let text = r#"{"matches": [
        {"path": "a", "line": "12"}, {"path": "a", "line": 13.0}, {"path": "a", "line": " 14 "},
        {"path": "a", "line": 0}, {"path": "a", "line": -1}, {"path": "a", "line": "15.0"},
        {"path": "a", "line": 1.5}, {"path": "a", "line": "x"}, {"path": "a"}, {"line": 3},
        {"file": "b", "line_number": 4}, "c.py:7", ["d.py", "8"], "nocolon", 42
    ]}"#;
        let reply = parse_reply(text).unwrap();
        let want = [
            claim("a", 12),
            claim("a", 13),
            claim("a", 14),
            claim("a", 0),
            claim("a", -1),
            claim("a", 15),
            claim("b", 4),
            claim("c.py", 7),
            claim("d.py", 8),
        ];
        assert_eq!(reply.matches, want);
        assert_eq!(reply.malformed, 6);
    }

    #[test]
    fn matches_keyed_by_path() {
        let reply = parse_reply(r#"{"matches": {"a.rs": [3, "4"], "b.rs": 9}}"#).unwrap();
        assert_eq!(
            reply.matches,
            [claim("a.rs", 3), claim("a.rs", 4), claim("b.rs", 9)]
        );
    }

    #[test]
    fn fenced_and_prose_wrapped_replies() {
        let want = [claim("src/app.py", 9)];
        let texts = [
        "```json\n{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}\n```",
        "Here you go:\n```\n{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}\n```\nDone.",
        "Sure! {\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]} Hope that helps {:}",
        "I think {this} is it: {\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}",
        "```python\nx = {1: 2}\n```\n```json\n{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}\n```",
        "{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9, \"note\": \"a } in a string\"}]} trailing",
    ];
        for text in texts {
            assert_eq!(parse_reply(text).unwrap().matches, want, "{text}");
        }
    }

    #[test]
    fn no_json_and_wrong_shapes_are_errors() {
        assert_eq!(parse_reply(""), Err(ReplyError::NoJson));
        assert_eq!(
            parse_reply("I could not find anything."),
            Err(ReplyError::NoJson)
        );
        assert_eq!(parse_reply("{]"), Err(ReplyError::NoJson));
        for text in ["[1, 2]", "\"matches\"", "42", "null", "true"] {
            assert!(
                matches!(parse_reply(text), Err(ReplyError::WrongShape(_))),
                "{text}"
            );
        }
        for text in [
            r#"{"matches": "src/app.py:9"}"#,
            r#"{"matches": 3}"#,
            r#"{"concepts": "retry"}"#,
            r#"{"searches": 1}"#,
        ] {
            let err = parse_reply(text).unwrap_err();
            assert!(matches!(err, ReplyError::WrongShape(_)), "{text}");
            assert!(err.to_string().contains("not a list"), "{err}");
        }
    }

    #[test]
    fn truncated_json_salvages_complete_matches() {
        let text = r#"{"matches": [{"path": "a.py", "line": 1}, {"path": "b.py", "line": 2}, {"path": "c.py", "li"#;
        match parse_reply(text) {
            Err(ReplyError::Truncated {
                salvaged: Some(reply),
            }) => assert_eq!(reply.matches, [claim("a.py", 1), claim("b.py", 2)]),
            other => panic!("{other:?}"),
        }
        let text = r#"```json
{"answer": "The retry delay is computed in"#;
        assert_eq!(
            parse_reply(text),
            Err(ReplyError::Truncated { salvaged: None })
        );
        let text = r#"{"matches": [{"path": "a.py", "line": 1}], "answer": "cut he"#;
        match parse_reply(text) {
            Err(ReplyError::Truncated { salvaged: Some(r) }) => {
                assert_eq!(r.matches, [claim("a.py", 1)]);
                assert_eq!(r.answer, None);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn concepts_and_searches_tolerate_loose_shapes() {
        let reply = parse_reply(
        r#"{"concepts": ["cache", {"concept": "retry"}, {"name": " "}, {"synonyms": ["x"]}, 5],
            "searches": ["timeout", {"path": "a.rs", "start": "3"}, {"path": "a.rs"}, {"pattern": 1}]}"#,
    )
    .unwrap();
        let names: Vec<&str> = reply.concepts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["cache", "retry"]);
        assert_eq!(
            reply.searches,
            [
                Search::Pattern("timeout".into()),
                Search::Range {
                    path: "a.rs".into(),
                    start: 3,
                    end: 3
                }
            ]
        );
        assert_eq!(reply.malformed, 3 + 2);
        let repeated = parse_reply(
        r#"{"concepts": [{"name": "delay", "synonyms": ["backoff_delay", "Delay", "retry_delay", "retry_delay ", "", "Retry_Delay"]}]}"#,
    )
    .unwrap();
        assert_eq!(
            repeated.concepts[0].synonyms,
            ["backoff_delay", "retry_delay"]
        );
        let single = parse_reply(r#"{"concepts": {"name": "auth"}}"#).unwrap();
        assert_eq!(single.concepts.len(), 1);
        let answer = parse_reply(r#"{"answer": 42}"#).unwrap();
        assert_eq!(answer.answer.as_deref(), Some("42"));
    }

    /// Every plain reply rlmgrep's `fake_llm.py` gives for the contract cases
    /// (fixtures/llm/fake_replies.jsonl, regenerated by make_fake_replies.py).
    #[test]
    fn every_fake_llm_reply_parses_to_its_script() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/llm/fake_replies.jsonl"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut checked = 0;
        for line in text.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let script = &record["script"];
            let reply = parse_reply(record["reply"].as_str().unwrap());
            if script.get("code").is_some() {
                // The fake answers such scripts in DSPy's RLM format, not JSON.
                assert_eq!(reply, Err(ReplyError::NoJson), "{}", record["case"]);
                continue;
            }
            let reply = reply.unwrap();
            let want: Vec<Claim> =
                serde_json::from_value(script["matches"].clone()).unwrap_or_default();
            assert_eq!(reply.matches, want, "{}", record["case"]);
            let answer = script
                .get("answer")
                .and_then(|a| a.as_str())
                .unwrap_or("Scripted answer.");
            assert_eq!(reply.answer.as_deref(), Some(answer), "{}", record["case"]);
            if let Some(serde_json::Value::Object(fields)) = script.get("fields") {
                for (name, value) in fields {
                    let got = match name.as_str() {
                        "matches" | "answer" | "citations" | "concepts" | "searches" => continue,
                        _ => reply.extra.get(name),
                    };
                    assert_eq!(got, Some(value), "{} field {name}", record["case"]);
                }
            }
            assert_eq!(reply.malformed, 0, "{}", record["case"]);
            checked += 1;
        }
        assert!(checked >= 90, "only {checked} fake replies checked");
    }

    use crate::testing::{below, rng};

    const SEEDS: [&str; 4] = [
    r#"{"matches": [{"path": "src/app.py", "line": 9}, {"path": "b", "line": "2"}], "answer": "ok \"quoted\" \\ done"}"#,
    "```json\n{\"concepts\": [{\"name\": \"retry\", \"synonyms\": [\"backoff\"], \"related\": []}]}\n```",
    r#"Sure: {"searches": [{"pattern": "a{2}"}, {"path": "x", "start": 1, "end": 2}], "x": {"y": [1, {"z": null}]}}"#,
    "{\"answer\": \"naïve — 日本語 😀\", \"matches\": {\"a\": [1, 2]}}",
];

    /// Every prefix, every single-byte deletion, and thousands of random edits of
    /// real-looking replies: the parser returns, never panics.
    #[test]
    fn adversarial_inputs_never_panic() {
        let mut rng = rng(0x9e37_79b9_7f4a_7c15);
        let alphabet: Vec<char> = "{}[]\":,\\ `0123456789-.eE\nabcjsonlinepath\u{0}é😀"
            .chars()
            .collect();
        let mut runs = 0;
        for seed in SEEDS {
            assert!(parse_reply(seed).is_ok(), "{seed}");
            let chars: Vec<char> = seed.chars().collect();
            for cut in 0..=chars.len() {
                let prefix: String = chars[..cut].iter().collect();
                let _ = parse_reply(&prefix);
                let mut deleted = chars.clone();
                if cut < deleted.len() {
                    deleted.remove(cut);
                }
                let _ = parse_reply(&deleted.iter().collect::<String>());
                runs += 2;
            }
            for _ in 0..2_000 {
                let mut text = chars.clone();
                for _ in 0..=below(&mut rng, 4) {
                    let at = below(&mut rng, text.len() + 1);
                    let ch = alphabet[below(&mut rng, alphabet.len())];
                    match below(&mut rng, 3) {
                        0 if at < text.len() => text[at] = ch,
                        1 if at < text.len() => {
                            text.remove(at);
                        }
                        _ => text.insert(at, ch),
                    }
                }
                let _ = parse_reply(&text.iter().collect::<String>());
                runs += 1;
            }
        }
        assert!(runs > 8_000);
    }

    #[test]
    fn hostile_shapes_stay_bounded() {
        // Deep nesting: serde_json's recursion limit turns it into an error, not a crash.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse_reply(&deep).is_err());
        let deep_obj = format!("{{\"a\":{}{}}}", "[".repeat(50_000), "]".repeat(50_000));
        assert!(parse_reply(&deep_obj).is_err());
        // Many braces: only the first MAX_OBJECT_STARTS starts are tried.
        let braces = "{".repeat(200_000);
        assert_eq!(parse_reply(&braces), Err(ReplyError::NoJson));
        let keys = "{\"a\": ".repeat(100_000);
        assert!(matches!(
            parse_reply(&keys),
            Err(ReplyError::Truncated { .. })
        ));
        let open = format!("{{\"a\": {}", "[".repeat(100_000));
        assert_eq!(
            parse_reply(&open),
            Err(ReplyError::Truncated { salvaged: None })
        );
        let big = format!(
            "{{\"matches\": [{}]}}",
            vec![r#"{"path":"a","line":1}"#; 20_000].join(",")
        );
        assert_eq!(parse_reply(&big).unwrap().matches.len(), 20_000);
    }

    /// A real reply of the 1.5B local model (llm-server.sh, Anthropic endpoint, no
    /// grammar): a fenced object that loops until `max_tokens` cuts it off.
    #[test]
    fn a_real_cut_off_expansion_is_salvaged() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/llm/qwen_cut_off_expansion.txt"
        );
        let text = std::fs::read_to_string(path).unwrap();
        match parse_reply(&text) {
            Err(ReplyError::Truncated {
                salvaged: Some(reply),
            }) => {
                assert_eq!(reply.concepts.len(), 1);
                assert_eq!(reply.concepts[0].name, "retry");
                assert_eq!(
                    reply.concepts[0].synonyms,
                    ["retries", "attempts", "retrying"]
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
