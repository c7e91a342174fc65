//! The command line: raw flags (`flags`), their resolution into a plan (`plan`),
//! and the man page and completions generated from the same definitions
//! (`generate`).

pub mod flags;
pub mod generate;
pub mod plan;

pub use flags::Flags;
pub use plan::{plan, Env, Input, LlmPolicy, Mode, ModelSettings, Plan, PlanError};
