//! Messages to stderr, always prefixed `kgrep: `, and the global "errored" flag.
//!
//! A per-input error (a missing path, an unreadable file) is reported here and the
//! run goes on; the flag turns into exit code 2 at the end, as in ripgrep. Nothing
//! in here decides what to print on stdout.
//!
//! Messages often quote file names and file or model text; they are
//! sanitised (`render::sanitize`) whether or not stderr is a terminal, so
//! such text cannot drive a terminal, even one a pipe ends in (`2>&1 | less
//! -R`) (issue 27). Only control characters change; rlmgrep's messages hold
//! none.
//!
//! A long-lived process (`kgrep --mcp`) runs each request inside [`capture`],
//! which also collects that request's warnings and errors, so a tool result
//! can say what went wrong.
//!
//! A stage that returns what to say rather than saying it (the model stage,
//! `fallback::consult`) returns [`Note`]s, which its caller [`say`]s; what a
//! stage it calls prints meanwhile is [`hold`]ed and returned as notes too,
//! so everything is said in the order it happened.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static ERRORED: AtomicBool = AtomicBool::new(false);
static VERBOSE: AtomicBool = AtomicBool::new(false);
/// Warnings and errors of the run being captured (`capture`), if one is.
static CAPTURED: Mutex<Option<Recorded>> = Mutex::new(None);
/// Lines held instead of printed ([`hold`]), if some are.
static HELD: Mutex<Option<Vec<Note>>> = Mutex::new(None);

/// Something to say on stderr, as a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A `-v` line ([`verbose`]).
    Verbose(String),
    /// A warning ([`warn`]).
    Warn(String),
    /// A line said always ([`line`]), recorded by nothing.
    Line(String),
}

/// Says a note as its kind is said.
pub fn say(note: &Note) {
    match note {
        Note::Verbose(msg) => verbose(msg),
        Note::Warn(msg) => warn(msg),
        Note::Line(msg) => line(msg),
    }
}

/// Runs `f` holding every line it would print on stderr, and returns them
/// (as [`Note::Line`]s, in order) for the caller to say later. Warnings are
/// recorded for [`capture`] when reported, as always; `-v` lines are held
/// only when `-v` is on. Not reentrant.
pub fn hold<T>(f: impl FnOnce() -> T) -> (T, Vec<Note>) {
    *held() = Some(Vec::new());
    let out = f();
    let lines = held().take().unwrap_or_default();
    (out, lines)
}

fn held() -> std::sync::MutexGuard<'static, Option<Vec<Note>>> {
    HELD.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What [`capture`] collected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// The warnings and per-input errors reported, in order, without the
    /// `kgrep: ` prefix (printed ones and quiet ones alike), each once.
    pub lines: Vec<String>,
    /// Whether an error was reported (what would make a CLI run exit 2).
    pub errored: bool,
}

/// Runs `f` as one request of a long-lived process (the MCP server): the
/// warnings and errors it reports are collected as well as printed, and the
/// "errored" flag is the request's own (restored afterwards), so one failed
/// search does not mark the next ones. Not reentrant.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Captured) {
    let was_errored = ERRORED.swap(false, Ordering::SeqCst);
    *captured() = Some(Recorded::default());
    let out = f();
    let lines = captured().take().unwrap_or_default().lines;
    let errored = ERRORED.swap(was_errored, Ordering::SeqCst);
    (out, Captured { lines, errored })
}

fn captured() -> std::sync::MutexGuard<'static, Option<Recorded>> {
    CAPTURED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn record(msg: &str) {
    if let Some(recorded) = captured().as_mut() {
        recorded.add(msg);
    }
}

/// What a [`capture`] has recorded so far: each message once. A second
/// pass over the same inputs reports them again, quietly (`Voice::Quiet`),
/// and an MCP result listed `unknown type 'x', treating as extension '.x'`
/// twice, the walk's and the filter check's.
#[derive(Debug, Default)]
struct Recorded {
    lines: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Recorded {
    fn add(&mut self, msg: &str) {
        if self.seen.insert(msg.to_string()) {
            self.lines.push(msg.to_string());
        }
    }
}

/// Whether a per-input error or warning is printed; it is recorded and counts
/// for the exit status either way. Carried by the options of a walk or a read
/// (`WalkOptions::voice`, `ReadOptions::voice`), so each pass says it itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Voice {
    /// Printed: the first pass over the inputs.
    #[default]
    Loud,
    /// Not printed: a second pass over inputs already reported once.
    Quiet,
}

/// Writes one `kgrep: `-prefixed line to stderr, its control characters
/// made visible (`render::sanitize`), terminal or not. Failures to write are
/// ignored: there is nowhere left to report them.
pub fn line(msg: &str) {
    if let Some(held) = held().as_mut() {
        held.push(Note::Line(msg.to_string()));
        return;
    }
    let mut err = std::io::stderr().lock();
    let msg = crate::render::sanitize::sanitize_text(msg);
    let _ = writeln!(err, "kgrep: {msg}");
}

/// A warning: printed, but the exit status is untouched.
pub fn warn(msg: &str) {
    warn_in(Voice::Loud, msg);
}

/// A warning about one input, printed unless `voice` is quiet.
pub fn warn_in(voice: Voice, msg: &str) {
    record(msg);
    if voice == Voice::Loud {
        line(msg);
    }
}

/// An error about one input: printed, and the run will exit 2.
pub fn error(msg: &str) {
    error_in(Voice::Loud, msg);
}

/// An error about one input, printed unless `voice` is quiet; the run will
/// exit 2 either way.
pub fn error_in(voice: Voice, msg: &str) {
    set_errored();
    record(msg);
    if voice == Voice::Loud {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_reported_again_is_recorded_once() {
        let mut recorded = Recorded::default();
        for msg in ["unknown type 'x'", "a: no such file", "unknown type 'x'"] {
            recorded.add(msg);
        }
        recorded.add("a: no such file");
        assert_eq!(recorded.lines, ["unknown type 'x'", "a: no such file"]);
    }
}
