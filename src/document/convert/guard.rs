//! The last line of defence around a converter: its own thread, a time limit,
//! and panics turned into errors.
//!
//! The converters bound their work with [`super::Limits`]; this guard is for the
//! bugs nobody found yet in a parser crate fed hostile bytes. A panic becomes
//! [`ConvertError::Panicked`] and prints nothing (a panic hook keeps the
//! converter thread quiet, so stderr holds only the one warning line); a
//! converter still running after the timeout is abandoned — its thread is
//! detached and dies with the process — and the search goes on.
//!
//! It does not bound memory or stack: the converters use iterative parsers and
//! explicit depth limits, and the thread gets a generous stack for what is left.

use std::sync::{mpsc, Once};
use std::thread;
use std::time::Duration;

use super::ConvertError;

/// Name of every converter thread; the panic hook stays silent on them.
const THREAD_NAME: &str = "kgrep-convert";
/// Stack of a converter thread. Only touched pages are committed, so a large
/// reservation costs nothing and leaves room for recursive descent in crates.
const THREAD_STACK_BYTES: usize = 64 << 20;

/// Runs `work` on a converter thread and waits at most `timeout` for it.
pub fn run<F>(
    format: &'static str,
    timeout: Duration,
    work: F,
) -> Result<super::Converted, ConvertError>
where
    F: FnOnce() -> Result<super::Converted, ConvertError> + Send + 'static,
{
    quiet_panics_on_converter_threads();
    let (tx, rx) = mpsc::sync_channel(1);
    let spawned = thread::Builder::new()
        .name(THREAD_NAME.to_string())
        .stack_size(THREAD_STACK_BYTES)
        .spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            // The receiver is gone only after a timeout; nothing is left to tell.
            let _ = tx.send(outcome);
        });
    if let Err(err) = spawned {
        return Err(ConvertError::NoThread(err.to_string()));
    }
    match rx.recv_timeout(timeout) {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => Err(ConvertError::Panicked(format)),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(ConvertError::TimedOut(timeout)),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(ConvertError::Panicked(format)),
    }
}

/// Installs, once per process, a panic hook that prints nothing for converter
/// threads and defers to the previous hook everywhere else.
fn quiet_panics_on_converter_threads() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if thread::current().name() != Some(THREAD_NAME) {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::convert::Converted;

    #[test]
    fn a_result_comes_back() {
        let got = run("test", Duration::from_secs(5), || {
            Ok(Converted {
                text: "hello".into(),
                pages: None,
            })
        });
        assert_eq!(got.map(|c| c.text), Ok("hello".to_string()));
    }

    #[test]
    fn an_error_comes_back() {
        let got = run("test", Duration::from_secs(5), || {
            Err(ConvertError::Encrypted("PDF"))
        });
        assert_eq!(got, Err(ConvertError::Encrypted("PDF")));
    }

    #[test]
    #[allow(clippy::panic)]
    fn a_panic_becomes_an_error() {
        let got = run("test", Duration::from_secs(5), || panic!("boom"));
        assert_eq!(got, Err(ConvertError::Panicked("test")));
    }

    #[test]
    fn a_converter_that_never_ends_is_abandoned() {
        let start = std::time::Instant::now();
        let got = run("test", Duration::from_millis(100), || loop {
            thread::sleep(Duration::from_millis(50));
        });
        assert_eq!(got, Err(ConvertError::TimedOut(Duration::from_millis(100))));
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
