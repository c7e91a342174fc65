//! What kgrep adds to ripgrep's JSON: the `data.kgrep` objects of `match` and
//! `summary` messages, and the payloads of kgrep's own `answer` and `signature`
//! messages.
//!
//! Plain data filled by the pipeline; the printer only serialises it. Every
//! field is always written, `null` when the stage that fills it did not run
//! (so a consumer can tell "no model was consulted" from "zero calls"). The
//! names are a documented contract (man page, "JSON OUTPUT"): add fields, never
//! rename them.

use serde::Serialize;

/// `data.kgrep` of a `match` message: why this line was printed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LineInfo {
    /// Where the line came from.
    pub source: LineSource,
    /// Whether the line was checked against the real file (lines found by
    /// kgrep's own search always are; a model's claims are after `verify`).
    pub verified: bool,
    /// The line's score and its parts; `null` for literal and regex queries.
    pub score: Option<ScoreParts>,
    /// The query terms found on the line, each once, in query order.
    pub terms: Vec<TermInfo>,
    /// The thesaurus concepts of those terms, each once.
    pub concepts: Vec<String>,
    /// For each entry of `submatches`, the index of its term in `terms`
    /// (empty for literal and regex queries).
    pub submatch_terms: Vec<usize>,
    /// The code unit holding the line (the innermost one that holds a query
    /// term), for natural-language queries; omitted otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitInfo>,
}

/// A code unit as ranking saw it (`score::unit`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct UnitInfo {
    /// `function`, `method`, `class`, `struct`, `statements`, … (`definition`
    /// when found by line heuristics rather than a parser).
    pub kind: String,
    pub name: Option<String>,
    /// Its first and last line (1-based, inclusive) and the line holding its name.
    pub start: usize,
    pub end: usize,
    pub def_line: usize,
    /// Its score among the file's units, and the parts of it.
    pub score: f64,
    /// The weight of the query words found in each field (`name`,
    /// `signature`, `doc`, `body`, `call`, `string`, `comment`), fields
    /// without any omitted.
    pub fields: std::collections::BTreeMap<String, f64>,
    /// Bonus for words found in a second field.
    pub support: f64,
    /// Words only an enclosing unit's name holds.
    pub context: f64,
    /// Share of its best line's score.
    pub line: f64,
    /// Multiplier: declarations that only name the words, test code.
    pub factor: f64,
    /// Multiplier among the file's units: long units and containers.
    pub length: f64,
    /// Multiplier among the file's units for a how or what-happens
    /// question: the share of its lines that branch (1 otherwise).
    pub branching: f64,
}

/// Where a printed line came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineSource {
    /// A query word (or the literal / regex itself) occurs on the line.
    #[default]
    Lexical,
    /// Only synonyms from the thesaurus occur on the line.
    Thesaurus,
    /// Found by approximate matching (not produced yet).
    Fuzzy,
    /// Proposed by the language model, then verified.
    Model,
}

/// A line's score, as `score::LineScore` computes it:
/// `total = (terms + near + merged + name) * factor`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ScoreParts {
    pub total: f64,
    /// Weights of the distinct query words (slots) on the line.
    pub terms: f64,
    /// Decaying shares of the query words found only on nearby lines or
    /// elsewhere in the same definition.
    pub near: f64,
    /// Bonus for one identifier joining several query words.
    pub merged: f64,
    /// Bonus for query words in the name the line defines.
    pub name: f64,
    /// Multiplier: the definition bonus, times the discounts for test code and
    /// import lines (1 for a plain line).
    pub factor: f64,
}

/// One query term.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TermInfo {
    /// The term as searched (lowercase).
    pub text: String,
    /// Its thesaurus concept, if any.
    pub concept: Option<String>,
    /// Why it is searched.
    pub origin: TermOrigin,
}

/// Why a term is part of the query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TermOrigin {
    /// A word of the query itself.
    #[default]
    Query,
    /// A synonym from the thesaurus.
    Synonym,
    /// A corpus word close to a query word the corpus lacks (a typo).
    Fuzzy,
    /// Proposed by the language model (query expansion).
    Model,
}

/// `data.kgrep` of the `summary` message: how the run went.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunInfo {
    /// kgrep's version.
    pub version: String,
    /// How the query was understood.
    pub query: QueryInfo,
    /// Files considered, read and skipped (rlmgrep's `Scanned N. Loaded M.`).
    pub files: FileCounts,
    /// The judge's metrics and verdict; `null` when no judge ran.
    pub judge: Option<JudgeInfo>,
    /// Model usage; `null` when no model was consulted.
    pub model: Option<ModelUsage>,
    /// Concepts learned into the local thesaurus; `null` when nothing could be
    /// learned (no model reply), `[]` when a reply taught nothing new.
    pub concepts_learned: Option<Vec<String>>,
    /// What `--token-budget` left out; `null` without a budget.
    pub budget: Option<BudgetInfo>,
}

/// The output budget of a run and what it left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BudgetInfo {
    /// The budget, in estimated tokens (`--token-budget`).
    pub max_tokens: u64,
    /// Match lines left out to stay within it.
    pub lines_left_out: u64,
    /// Files none of whose lines were printed because of it.
    pub files_left_out: u64,
    /// Whether the answer was cut to fit.
    pub answer_cut: bool,
}

/// The query as kgrep read it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct QueryInfo {
    /// The query as typed.
    pub text: String,
    /// `natural`, `literal` or `regex`.
    pub kind: QueryKindName,
    /// Terms searched for a natural-language query (empty otherwise).
    pub terms: Vec<TermInfo>,
}

/// How a query is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QueryKindName {
    #[default]
    Natural,
    Literal,
    Regex,
}

/// File counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FileCounts {
    pub scanned: u64,
    pub loaded: u64,
    pub skipped: u64,
}

/// The judge's view of the offline results.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct JudgeInfo {
    /// Whether the offline results were judged to answer the query.
    pub sufficient: bool,
    pub coverage: f64,
    pub confidence: f64,
    pub diversity: f64,
    /// One line saying why.
    pub reason: String,
}

/// What the language model cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ModelUsage {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// The `answer` message (`--answer`, `--answer-only`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Answer {
    /// The answer text, as the model (or the extractive fallback) wrote it.
    pub text: String,
    /// `model` or `extractive` (quoted from the best lines, offline).
    pub source: AnswerSource,
    /// The model that wrote it; `null` for an extractive answer.
    pub model: Option<String>,
}

/// Who wrote an answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerSource {
    Model,
    #[default]
    Extractive,
}

/// The `signature` message (`--signature`, `--signature-json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SignatureOutput {
    /// The output spec as given, e.g. `summary: str, files: list[str]`.
    pub spec: String,
    /// The typed fields, the object `--signature-json` prints.
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// The `request` message (`--dry-run --json`): one model request that would
/// be sent, keys masked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Request {
    /// `expansion` (the concepts behind the query) or `selection`.
    pub stage: &'static str,
    pub method: &'static str,
    pub url: String,
    /// Header names and values, in the order sent, keys masked.
    pub headers: serde_json::Map<String, serde_json::Value>,
    /// The JSON body, as it would be sent.
    pub body: serde_json::Value,
    /// Sent only if the server has no Responses endpoint (404/405).
    pub fallback: bool,
}
