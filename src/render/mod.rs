//! Rendering: verified results → bytes on stdout.
//!
//! The printers decide nothing: the caller resolves options (context, max
//! count, whether stdout is a terminal, whether colour is allowed) and sorts
//! the files; a printer only lays them out.
//!
//! - [`grep`]: rlmgrep's grep-style output, byte for byte (pipe and terminal).
//! - [`json`]: `--json`, JSON Lines that are a strict superset of `rg --json`.
//! - [`features`]: `--features`, the candidates' ranking features.
//! - [`context`]: which lines a file prints (shared by both printers).
//! - [`binary`]: where a file searched as binary (`--binary`) stops printing.
//! - [`cut`]: the preview window of a long natural-language result line.
//! - [`replace`]: `--replace`'s text of a match line.
//! - [`answer`]: the `--answer` section on stderr, as rlmgrep lays it out.
//! - [`stats`]: `--stats`'s block after the results.
//! - [`signature`]: `--signature` / `--signature-json` output, byte for byte.
//! - [`sanitize`]: makes file and model text safe to write to a terminal.
//! - [`cells`]: terminal cell widths and rich-style tab expansion.
//! - [`wrap`]: rich's word wrap (for the answer).
//! - [`style`]: the ANSI colours and painting text with them.
//!
//! A run's results ([`found`], what the stages found) are printed by
//! [`print`] (grep layout, `--json`, `--dry-run`'s requests, the answer, the
//! signature fields), explained by [`explain`] (`--explain`), and read by any
//! front end through [`results`] (which also fits them to a token budget,
//! with `budget`'s arithmetic).

pub mod answer;
pub mod binary;
pub mod cells;
pub mod context;
pub mod cut;
pub mod explain;
pub mod features;
pub mod found;
pub mod grep;
pub mod json;
pub mod print;
pub mod replace;
pub mod results;
pub mod sanitize;
pub mod signature;
pub mod stats;
pub mod style;
pub mod wrap;

pub use grep::{write_grep, FileResult, GrepOptions};
