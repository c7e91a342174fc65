//! The `--json` wire format as strict types: ripgrep's messages as its
//! `crates/printer/src/json.rs` documents them, kgrep's `data.kgrep` and its
//! own message types as the man page (JSON OUTPUT) documents them. Every
//! struct denies unknown fields, so an undocumented field fails the tests.
//! (Fields exist to be deserialised; not all are read again.)
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(
    tag = "type",
    content = "data",
    rename_all = "lowercase",
    deny_unknown_fields
)]
enum Message {
    Begin(Begin),
    Match(Line),
    Context(Line),
    End(End),
    Summary(Summary),
    Answer(Answer),
    Signature(Signature),
    Request(Request),
}

/// ripgrep's "arbitrary data": exactly one of `text` and `bytes`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    text: Option<String>,
    bytes: Option<String>,
}

impl Data {
    fn decoded(&self) -> Vec<u8> {
        use base64::Engine;
        match (&self.text, &self.bytes) {
            (Some(text), None) => text.as_bytes().to_vec(),
            (None, Some(b64)) => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap();
                assert!(
                    std::str::from_utf8(&bytes).is_err(),
                    "valid UTF-8 sent as bytes"
                );
                bytes
            }
            other => panic!("data must have exactly one of text and bytes: {other:?}"),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Begin {
    path: Data,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    path: Data,
    lines: Data,
    line_number: Option<u64>,
    absolute_offset: u64,
    submatches: Vec<SubMatch>,
    kgrep: Option<LineKgrep>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SubMatch {
    #[serde(rename = "match")]
    m: Data,
    start: usize,
    end: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct End {
    path: Data,
    binary_offset: Option<u64>,
    stats: Stats,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stats {
    elapsed: Duration,
    searches: u64,
    searches_with_match: u64,
    bytes_searched: u64,
    bytes_printed: u64,
    matched_lines: u64,
    matches: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Duration {
    secs: u64,
    nanos: u32,
    human: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Summary {
    elapsed_total: Duration,
    kgrep: Option<RunKgrep>,
    stats: Stats,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LineKgrep {
    source: Source,
    verified: bool,
    score: Option<Score>,
    terms: Vec<Term>,
    concepts: Vec<String>,
    submatch_terms: Vec<usize>,
    #[serde(default)]
    unit: Option<Unit>,
}

/// The code unit holding a line of a natural-language query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Unit {
    kind: String,
    name: Option<String>,
    start: usize,
    end: usize,
    def_line: usize,
    score: f64,
    fields: std::collections::BTreeMap<UnitField, f64>,
    support: f64,
    context: f64,
    line: f64,
    factor: f64,
    length: f64,
    branching: f64,
}

#[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
enum UnitField {
    Name,
    Signature,
    Doc,
    Body,
    Call,
    String,
    Comment,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Source {
    Lexical,
    Thesaurus,
    Fuzzy,
    Model,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Score {
    total: f64,
    terms: f64,
    near: f64,
    merged: f64,
    name: f64,
    factor: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Term {
    text: String,
    concept: Option<String>,
    origin: Origin,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Origin {
    Query,
    Synonym,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunKgrep {
    version: String,
    query: QueryInfo,
    files: Files,
    judge: Option<Judge>,
    model: Option<Model>,
    concepts_learned: Option<Vec<String>>,
    budget: Option<Budget>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Budget {
    max_tokens: u64,
    lines_left_out: u64,
    files_left_out: u64,
    answer_cut: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryInfo {
    text: String,
    kind: Kind,
    terms: Vec<Term>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Natural,
    Literal,
    Regex,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Files {
    scanned: u64,
    loaded: u64,
    skipped: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Judge {
    sufficient: bool,
    coverage: f64,
    confidence: f64,
    diversity: f64,
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Model {
    calls: u64,
    prompt_tokens: u64,
    completion_tokens: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    text: String,
    source: AnswerSource,
    model: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum AnswerSource {
    Model,
    Extractive,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Signature {
    spec: String,
    fields: BTreeMap<String, Value>,
}

/// `--dry-run --json`: a request that would be sent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    stage: RequestStage,
    method: String,
    url: String,
    headers: BTreeMap<String, String>,
    body: BTreeMap<String, Value>,
    fallback: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RequestStage {
    Expansion,
    Selection,
}

/// Parses one message strictly, checks what the types cannot say (offsets,
/// nulls that must be written), and returns its type.
pub fn check_message(line: &str) -> String {
    let msg: Message = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("not a documented message ({e}): {line}"));
    let raw: Value = serde_json::from_str(line).unwrap();
    match &msg {
        Message::Match(l) | Message::Context(l) => check_line(l, line),
        Message::End(e) => {
            e.path.decoded();
            assert!(e.binary_offset.is_none());
            assert_eq!(e.stats.searches, 1, "{line}");
            check_duration(&e.stats.elapsed);
        }
        Message::Begin(b) => {
            b.path.decoded();
        }
        Message::Summary(s) => {
            check_duration(&s.elapsed_total);
            assert!(s.stats.searches_with_match <= s.stats.searches);
            let kgrep = s.kgrep.as_ref().expect("kgrep's summary has data.kgrep");
            // An exact query's match lines each hold a match; a natural-language
            // answer may print a unit's defining line that holds no query term.
            if !matches!(kgrep.query.kind, Kind::Natural) {
                assert!(s.stats.matches >= s.stats.matched_lines, "{line}");
            }
            assert!(!kgrep.version.is_empty() && !kgrep.query.text.is_empty());
            assert!(kgrep.files.loaded + kgrep.files.skipped <= kgrep.files.scanned.max(1));
            for key in ["judge", "model", "concepts_learned", "budget"] {
                assert!(
                    raw["data"]["kgrep"].get(key).is_some(),
                    "{key} must be written: {line}"
                );
            }
        }
        Message::Answer(a) => assert!(!a.text.is_empty()),
        Message::Signature(s) => assert!(!s.spec.is_empty() && !s.fields.is_empty()),
        Message::Request(r) => {
            assert_eq!(r.method, "POST");
            assert!(r.url.starts_with("http"), "{line}");
            assert!(!r.body.is_empty(), "{line}");
        }
    }
    raw["type"].as_str().unwrap().to_string()
}

fn check_duration(d: &Duration) {
    assert!(d.nanos < 1_000_000_000);
    let secs = d.secs as f64 + f64::from(d.nanos) / 1e9;
    assert_eq!(d.human, format!("{secs:0.6}s"));
}

fn check_line(l: &Line, raw: &str) {
    l.path.decoded();
    let text = l.lines.decoded();
    assert!(l.line_number.is_some_and(|n| n > 0), "{raw}");
    let mut previous_end = 0;
    for s in &l.submatches {
        assert!(
            previous_end <= s.start && s.start <= s.end && s.end <= text.len(),
            "{raw}"
        );
        assert_eq!(s.m.decoded(), &text[s.start..s.end], "{raw}");
        previous_end = s.end;
    }
    if let Some(k) = &l.kgrep {
        assert!(k.verified, "{raw}");
        if let Some(u) = &k.unit {
            assert!(!u.kind.is_empty(), "{raw}");
            assert!(u.name.as_ref().is_none_or(|n| !n.is_empty()), "{raw}");
            assert!(u.start <= u.def_line && u.def_line <= u.end, "{raw}");
            assert!(
                l.line_number
                    .is_some_and(|n| u.start as u64 <= n && n <= u.end as u64),
                "the unit holds the line: {raw}"
            );
            let parts = [u.score, u.support, u.context, u.line, u.factor, u.length];
            assert!(parts.iter().all(|x| x.is_finite() && *x >= 0.0), "{raw}");
            assert!(u.branching.is_finite() && u.branching >= 1.0, "{raw}");
            assert!(
                u.fields.values().all(|x| x.is_finite() && *x > 0.0),
                "{raw}"
            );
        }
        if let Some(score) = &k.score {
            let total = (score.terms + score.near + score.merged + score.name) * score.factor;
            assert!((total - score.total).abs() < 1e-9, "{raw}");
            assert_eq!(k.submatch_terms.len(), l.submatches.len(), "{raw}");
            assert!(k.submatch_terms.iter().all(|&t| t < k.terms.len()), "{raw}");
            assert!(!matches!(k.source, Source::Fuzzy | Source::Model));
            assert!(k.terms.iter().all(|t| !t.text.is_empty()), "{raw}");
            for t in &k.terms {
                if let Some(c) = &t.concept {
                    assert!(k.concepts.contains(c), "{raw}");
                }
            }
        }
    }
}

/// kgrep's own message types, written by the library's printer (no model
/// can produce them in the cli tests yet).
pub fn kgrep_only_messages() -> Vec<u8> {
    use kgrep::render::json::kgrep::{Answer, AnswerSource, SignatureOutput};
    use kgrep::render::json::JsonPrinter;
    let mut printer = JsonPrinter::new(Vec::new());
    printer
        .answer(&Answer {
            text: "Retries back off exponentially.".into(),
            source: AnswerSource::Extractive,
            model: None,
        })
        .unwrap();
    let mut fields = serde_json::Map::new();
    fields.insert("files".into(), serde_json::json!(["src/net/client.rs"]));
    printer
        .signature(&SignatureOutput {
            spec: "files: list[str]".into(),
            fields,
        })
        .unwrap();
    printer.into_inner()
}

/// Every key path of a JSON text in document order (`data.path.text`, …),
/// leaving out the subtree at `skip`.
pub fn key_order(json: &str, skip: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut de = serde_json::Deserializer::from_str(json);
    KeyPaths {
        prefix: String::new(),
        skip,
        out: &mut out,
    }
    .deserialize(&mut de)
    .unwrap();
    out
}

struct KeyPaths<'a> {
    prefix: String,
    skip: &'a str,
    out: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for KeyPaths<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeyPaths<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.prefix.is_empty() {
                key
            } else {
                format!("{}.{key}", self.prefix)
            };
            if path == self.skip {
                map.next_value::<serde::de::IgnoredAny>()?;
                continue;
            }
            self.out.push(path.clone());
            map.next_value_seed(KeyPaths {
                prefix: path,
                skip: self.skip,
                out: self.out,
            })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let prefix = format!("{}[]", self.prefix);
        while seq
            .next_element_seed(KeyPaths {
                prefix: prefix.clone(),
                skip: self.skip,
                out: self.out,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}
