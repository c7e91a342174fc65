//! Messages to stderr, always prefixed `kgrep: `, and the global "errored" flag.
//!
//! A per-input error (a missing path, an unreadable file) is reported here and the
//! run goes on; the flag turns into exit code 2 at the end, as in ripgrep. Nothing
//! in here decides what to print on stdout.
//!
//! Messages often quote file names and file or model text; on a terminal they
//! are sanitised (`render::sanitize`) so such text cannot drive the terminal.
//! A pipe gets the bytes unchanged, as rlmgrep wrote them.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static ERRORED: AtomicBool = AtomicBool::new(false);
static VERBOSE: AtomicBool = AtomicBool::new(false);
static QUIET: AtomicBool = AtomicBool::new(false);

/// Runs `f` with per-input errors and warnings unprinted (they still count for
/// the exit status): for a second pass over inputs already reported once.
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let was = QUIET.swap(true, Ordering::SeqCst);
    let out = f();
    QUIET.store(was, Ordering::SeqCst);
    out
}

/// Writes one `kgrep: `-prefixed line to stderr. Failures to write are ignored:
/// there is nowhere left to report them.
pub fn line(msg: &str) {
    let mut err = std::io::stderr().lock();
    let msg = if err.is_terminal() {
        crate::render::sanitize::sanitize_text(msg)
    } else {
        Cow::Borrowed(msg)
    };
    let _ = writeln!(err, "kgrep: {msg}");
}

/// A warning: printed, but the exit status is untouched.
pub fn warn(msg: &str) {
    if !QUIET.load(Ordering::SeqCst) {
        line(msg);
    }
}

/// An error about one input: printed, and the run will exit 2.
pub fn error(msg: &str) {
    set_errored();
    if !QUIET.load(Ordering::SeqCst) {
        line(msg);
    }
}

/// A line printed only with `-v`.
pub fn verbose(msg: &str) {
    if is_verbose() {
        line(msg);
    }
}

/// Marks the run as failed without printing (the caller already reported).
pub fn set_errored() {
    ERRORED.store(true, Ordering::SeqCst);
}

/// Whether any error was reported so far.
pub fn errored() -> bool {
    ERRORED.load(Ordering::SeqCst)
}

/// Turns `-v` output on or off for the whole process.
pub fn set_verbose(on: bool) {
    VERBOSE.store(on, Ordering::SeqCst);
}

/// Whether `-v` was given.
pub fn is_verbose() -> bool {
    VERBOSE.load(Ordering::SeqCst)
}
