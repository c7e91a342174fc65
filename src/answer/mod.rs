//! What `--answer` says besides the model's own text, as pure functions the
//! pipeline calls:
//!
//! - [`citations`]: the `path:line` citations in an answer, and the answer with
//!   every citation the caller could not verify marked ` [unverified]`;
//! - [`offline`]: the extractive answer printed when no model is configured
//!   (the best lines with their locations, labelled as such), its stderr note,
//!   and the message of the signature modes, which cannot run without a model.
//!
//! Laying the answer out on stderr is `render::answer`'s job; verifying a
//! citation against the files is the caller's (it holds the documents).

pub mod citations;
pub mod offline;

pub use citations::{find_citations, mark_unverified, Citation, Marked, UNVERIFIED_MARK};
pub use offline::{extractive_answer, model_required, offline_answer_note, BestLine, NoModel};
