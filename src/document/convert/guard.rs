//! The last line of defence around a converter: another thread, a time limit,
//! and panics turned into errors.
//!
//! The converters bound their work with [`super::Limits`]; this guard is for the
//! bugs nobody found yet in a parser crate fed hostile bytes. A panic becomes
//! [`ConvertError::Panicked`] and prints nothing (a panic hook keeps converter
//! threads quiet, so stderr holds only the one warning line); a converter
//! still running after the timeout is abandoned — its thread is left to finish
//! or die with the process — and the search goes on.
//!
//! Each thread that converts (a rayon worker of the search) has one converter
//! thread of its own, started on first use and reused for every document after:
//! starting a thread per document cost more than converting a small one. A
//! converter that timed out is replaced by a fresh one.
//!
//! It does not bound memory or stack: the converters use iterative parsers and
//! explicit depth limits, and the thread gets a generous stack for what is left.

use std::cell::RefCell;
use std::sync::{mpsc, Once};
use std::thread;
use std::time::Duration;

use super::{ConvertError, Converted};

/// Name of every converter thread; the panic hook stays silent on them.
const THREAD_NAME: &str = "kgrep-convert";
/// Stack of a converter thread. Only touched pages are committed, so a large
/// reservation costs nothing and leaves room for recursive descent in crates.
const THREAD_STACK_BYTES: usize = 64 << 20;

type Outcome = Result<Converted, ConvertError>;
type Work = Box<dyn FnOnce() -> Outcome + Send>;
/// A conversion to run, and where to send what became of it.
type Job = (Work, mpsc::SyncSender<thread::Result<Outcome>>);

thread_local! {
    /// This thread's converter thread, once started.
    static CONVERTER: RefCell<Option<mpsc::Sender<Job>>> = const { RefCell::new(None) };
    /// Set while [`run_here`] runs a converter on the caller's thread.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `work` on the calling thread with panics caught, for converters that
/// are kgrep's own linear scans (HTML): no thread hop, and no time limit
/// needed, since they cannot loop.
pub(super) fn run_here<F>(format: &'static str, work: F) -> Outcome
where
    F: FnOnce() -> Outcome,
{
    quiet_panics_on_converter_threads();
    QUIET.with(|q| q.set(true));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
    QUIET.with(|q| q.set(false));
    outcome.unwrap_or(Err(ConvertError::Panicked(format)))
}

/// Runs `work` on this thread's converter thread and waits at most `timeout`.
pub(super) fn run<F>(format: &'static str, timeout: Duration, work: F) -> Outcome
where
    F: FnOnce() -> Outcome + Send + 'static,
{
    quiet_panics_on_converter_threads();
    let (reply, outcome) = mpsc::sync_channel(1);
    submit((Box::new(work), reply))?;
    match outcome.recv_timeout(timeout) {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => Err(ConvertError::Panicked(format)),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            // The converter is stuck in this job: the next one gets a new thread.
            CONVERTER.with(|c| c.borrow_mut().take());
            Err(ConvertError::TimedOut(timeout))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            CONVERTER.with(|c| c.borrow_mut().take());
            Err(ConvertError::Panicked(format))
        }
    }
}

/// Hands a job to this thread's converter, starting one if there is none or
/// the last one is gone.
fn submit(job: Job) -> Result<(), ConvertError> {
    CONVERTER.with(|cell| {
        let mut converter = cell.borrow_mut();
        let job = match converter.as_ref() {
            Some(tx) => match tx.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        let tx = start_converter().map_err(|e| ConvertError::NoThread(e.to_string()))?;
        tx.send(job)
            .map_err(|_| ConvertError::NoThread("the converter thread exited".into()))?;
        *converter = Some(tx);
        Ok(())
    })
}

/// Starts a converter thread: it runs jobs one by one, panics caught, until
/// its sender is dropped.
fn start_converter() -> std::io::Result<mpsc::Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name(THREAD_NAME.to_string())
        .stack_size(THREAD_STACK_BYTES)
        .spawn(move || {
            for (work, reply) in rx {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
                // The receiver is gone only after a timeout; nothing is left to tell.
                let _ = reply.send(outcome);
            }
        })?;
    Ok(tx)
}

/// Installs, once per process, a panic hook that prints nothing for converter
/// threads and defers to the previous hook everywhere else.
fn quiet_panics_on_converter_threads() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = thread::current().name() == Some(THREAD_NAME) || QUIET.with(|q| q.get());
            if !quiet {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_comes_back() {
        let got = run("test", Duration::from_secs(5), || {
            Ok(Converted {
                text: "hello".into(),
                pages: None,
                unread: Vec::new(),
                cut: None,
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
    fn here_a_panic_is_caught_too() {
        assert_eq!(
            run_here("test", || panic!("boom")),
            Err(ConvertError::Panicked("test"))
        );
        assert_eq!(
            run_here("test", || Err(ConvertError::Encrypted("x"))),
            Err(ConvertError::Encrypted("x"))
        );
    }

    #[test]
    fn the_converter_survives_a_panic_and_a_timeout() {
        let ok = || {
            Ok(Converted {
                text: "fine".into(),
                pages: None,
                unread: Vec::new(),
                cut: None,
            })
        };
        let _ = run("test", Duration::from_secs(5), || panic!("boom"));
        assert!(run("test", Duration::from_secs(5), ok).is_ok());
        let _ = run("test", Duration::from_millis(50), || loop {
            thread::sleep(Duration::from_millis(20));
        });
        assert!(run("test", Duration::from_secs(5), ok).is_ok());
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
