//! kgrep: natural-language code search on the command line, a fast, offline-first
//! drop-in replacement for `rlmgrep`.
//!
//! ```text
//! argv ─cli─▶ Plan ─walk─▶ Haystacks ─search─▶ hits ─score─▶ ranked files ─judge─▶ verdict
//!        query + thesaurus ─▶ Terms ─┘     (rank: one query's results, rank::Searched)
//!   verdict "not sufficient" ─fallback::consult (llm)─▶ verified claims ─▶ fused results
//!   results ─render─▶ stdout        results + what the model taught ─learn::step─▶ thesaurus
//! ```
//!
//! Each stage is a module taking plain values and returning plain values;
//! `pipeline` only wires them together. `rank` runs search, score and judge
//! for one query and hands the rest of the run one value (`rank::Searched`);
//! `fallback::consult` is the model stage, over any `llm::Llm`; `verify`
//! checks every line a model proposes against the file; `learn::step` keeps
//! what a model taught; `render` prints. Only `walk`, `document`, `search`,
//! `llm`'s client, `learn`'s store, `render` and `progress` (stderr, on a
//! terminal) touch the outside world. `report` turns ranked lines into what
//! the printers take (match spans, `--json` data). `units` parses a candidate
//! file of a known language (tree-sitter) into code units — functions,
//! classes, top-level statements — as plain data for `score`. No stability
//! promise: this library exists so the binary, the tests and the benchmarks
//! can call each stage directly.

#![warn(unreachable_pub)]

pub mod answer;
pub mod budget;
pub mod cli;
pub mod config;
pub mod document;
pub mod exit;
pub mod fallback;
pub mod judge;
pub mod learn;
pub mod llm;
pub mod mcp;
pub mod messages;
pub mod own_file;
pub mod paths;
pub mod pipeline;
pub mod progress;
pub mod python;
pub mod query;
pub mod rank;
pub mod render;
pub mod report;
pub mod score;
pub mod search;
pub mod session;
pub mod signature;
#[cfg(test)]
pub(crate) mod testing;
pub mod thesaurus;
pub mod typo;
pub mod units;
pub mod verify;
pub mod walk;

use std::ffi::OsString;

use exit::ExitStatus;

/// Runs kgrep with the given argv and returns the exit status: parses it and
/// hands the flags to the front end they name.
pub fn run<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let flags = match cli::Flags::parse_args(args) {
        Ok(flags) => flags,
        Err(err) => return pipeline::clap_exit(&err),
    };
    messages::set_verbose(flags.verbose);
    // The two front ends: the MCP server, or the command line (`--generate`
    // wins over `--mcp`, as it always has).
    let result = if flags.mcp && flags.generate.is_none() {
        Ok(mcp::serve_stdio(flags))
    } else {
        pipeline::run(flags)
    };
    match result {
        Ok(status) => status,
        Err(err) if exit::is_broken_pipe(&err) => ExitStatus::Matched,
        Err(err) => {
            messages::line(&format!("{err:#}"));
            ExitStatus::Error
        }
    }
}
