//! Rendering: verified results → bytes on stdout.
//!
//! The printers decide nothing: the caller resolves options (context, max
//! count, whether stdout is a terminal, whether colour is allowed) and sorts
//! the files; a printer only lays them out.
//!
//! - [`grep`]: rlmgrep's grep-style output, byte for byte (pipe and terminal).
//! - [`sanitize`]: makes file text safe to write to a terminal.
//! - [`cells`]: terminal cell widths and rich-style tab expansion.

pub mod cells;
pub mod grep;
pub mod sanitize;

pub use grep::{write_grep, FileResult, GrepOptions};
