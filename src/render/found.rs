//! What a run found, as the printers need it: the query as searched, the
//! results (`rank::Searched`, after the model stage), what the model stage
//! and learning did, the answer, and what a token budget left out.
//!
//! Owns only the value; the stages fill it (`pipeline`), the printers
//! (`print`, `explain`, `results`) read it.

use std::path::PathBuf;
use std::time::Instant;

use crate::budget::LeftOut;
use crate::fallback::consult::Report;
use crate::query::Query;
use crate::rank::Searched;
use crate::render::json::kgrep::Answer as JsonAnswer;

/// What a search found, as the printers need it.
pub struct Found {
    pub q: Query,
    /// The search's own results (the model stage fuses its places into them).
    pub search: Searched,
    pub started: Instant,
    /// What the model stage did, once it ran.
    pub model: Option<Report>,
    /// The answer (`--answer`): in `--json` a message, on stderr otherwise.
    pub answer: Option<JsonAnswer>,
    /// The paths the user named (path arguments or a `--paths-from-stdin`
    /// list), as written: `--json` names files through them, as ripgrep does.
    pub given: Vec<PathBuf>,
    pub cwd: PathBuf,
    /// What `--token-budget` left out, once the output was fitted to it.
    pub left_out: Option<LeftOut>,
    /// The printed lines the model chose, `(haystack, line)`, after fusion:
    /// `--json` gives them `source: model`.
    pub chosen: Vec<(usize, usize)>,
    /// Names of the concepts the run wrote to the learned thesaurus.
    pub learned: Vec<String>,
    /// `-c --include-zero`: the names ([`crate::walk::Haystack::name`]) of
    /// the files searched that print no
    /// count, each with the place in `search.selected` whose file it prints
    /// before (the selection's length: after them all), so that `--sort
    /// path` lists them among the others, as rg does. Empty otherwise.
    pub zero_counts: Vec<(usize, Vec<u8>)>,
}
