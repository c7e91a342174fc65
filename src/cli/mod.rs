//! The command line: raw flags (`flags`), their resolution into a plan (`plan`),
//! and the man page and completions generated from the same definitions
//! (`generate`, with the man page's prose in `manual`).

pub mod flags;
pub mod generate;
pub mod manual;
pub mod plan;

pub use flags::Flags;
pub use plan::{plan, Env, Input, Listing, LlmPolicy, Mode, ModelSettings, Plan, PlanError};
