//! `--signature` / `--signature-json`: typed output fields instead of matches.
//!
//! - [`spec`]: the spec string (`summary: str, n: int, files: list[str]`) parsed
//!   and checked with rlmgrep's rules and messages;
//! - [`schema`]: the spec as a JSON Schema for the model's request;
//! - [`validate`](mod@validate): a model's reply checked against the spec, coerced where
//!   lossless, every problem listed (so the caller can re-ask once with them).
//!
//! Printing the fields is `render::signature`'s job; asking the model is the
//! LLM layer's. Nothing here does I/O.

mod resolve;
pub mod schema;
pub mod spec;
mod syntax;
mod types;
pub mod validate;

pub use schema::{json_schema, response_format};
pub use spec::{parse, Field, LiteralValue, Spec, SpecError, Type, MAX_SPEC_BYTES, MAX_TYPE_DEPTH};
pub use validate::{validate, Problem, ProblemKind, ValidationError};

#[cfg(test)]
mod tests;
