//! The `kgrep` binary: everything lives in the library; this only hands over argv
//! and turns the outcome into the process exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    kgrep::run(std::env::args_os()).into()
}
