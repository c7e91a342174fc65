//! Progress on stderr for people at a terminal: a spinner with the elapsed time
//! while kgrep walks a large tree, searches it, or waits for a model.
//!
//! Owns when progress shows: only when stderr is a terminal (never in a pipe,
//! a file or an agent's captured stderr, so scripts see exactly the messages
//! they always saw), and only once a stage has run for [`SHOW_AFTER`] (a fast
//! run draws nothing at all). The spinner is cleared before anything else is
//! printed. Does not own what the stages do: callers wrap a stage in
//! [`Spinner::start`] and [`Spinner::finish`] it.

use std::borrow::Cow;
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A stage shorter than this shows no progress: a spinner that flashes for a
/// few milliseconds is noise, and most kgrep runs end well within it.
pub const SHOW_AFTER: Duration = Duration::from_millis(250);

/// How often the spinner redraws: smooth enough to look alive, cheap enough
/// not to compete with the search for a core.
pub const TICK: Duration = Duration::from_millis(100);

/// Environment variable that overrides [`SHOW_AFTER`], in milliseconds (for
/// slow terminals, and so tests can make progress appear at once).
pub const DELAY_ENV: &str = "KGREP_PROGRESS_DELAY_MS";

/// The spinner's layout: spinner, what is happening, elapsed time.
const TEMPLATE: &str = "{spinner} {msg} {elapsed}";

/// Where progress may be drawn.
pub enum Target {
    /// Nowhere: stderr is not a terminal.
    Hidden,
    /// An indicatif target (stderr, or a test's terminal).
    Draw(ProgressDrawTarget),
}

impl Target {
    /// stderr when it is a terminal, nowhere otherwise.
    pub fn stderr() -> Target {
        Target::for_stderr(std::io::stderr().is_terminal())
    }

    /// The target for a stderr that is, or is not, a terminal.
    pub fn for_stderr(is_terminal: bool) -> Target {
        if is_terminal {
            Target::Draw(ProgressDrawTarget::stderr())
        } else {
            Target::Hidden
        }
    }
}

/// The delay before progress shows: [`DELAY_ENV`] if it is a number of
/// milliseconds, else [`SHOW_AFTER`].
pub fn show_after() -> Duration {
    delay_from(std::env::var(DELAY_ENV).ok().as_deref())
}

fn delay_from(value: Option<&str>) -> Duration {
    value
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(SHOW_AFTER, Duration::from_millis)
}

/// A spinner for one stage; hidden until the stage has run for a while.
pub struct Spinner {
    running: Option<Running>,
}

struct Running {
    bar: ProgressBar,
    /// Dropping it wakes the thread that would show the bar.
    stop: Sender<()>,
    shower: JoinHandle<()>,
}

impl Spinner {
    /// A spinner on stderr (if it is a terminal) saying `msg`, e.g.
    /// `Spinner::start("asking the model")`.
    pub fn start(msg: impl Into<Cow<'static, str>>) -> Spinner {
        Spinner::start_on(Target::stderr(), msg, show_after())
    }

    /// A spinner on `target`, shown once `delay` has passed.
    pub fn start_on(target: Target, msg: impl Into<Cow<'static, str>>, delay: Duration) -> Spinner {
        let Target::Draw(target) = target else {
            return Spinner { running: None };
        };
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
            bar.set_style(style);
        }
        bar.set_message(msg);
        let (stop, stopped) = mpsc::channel::<()>();
        let shown = bar.clone();
        let shower = std::thread::spawn(move || {
            if stopped.recv_timeout(delay) == Err(RecvTimeoutError::Timeout) {
                shown.set_draw_target(target);
                shown.enable_steady_tick(TICK);
            }
        });
        Spinner {
            running: Some(Running { bar, stop, shower }),
        }
    }

    /// Whether this spinner can ever draw (stderr is a terminal).
    pub fn is_active(&self) -> bool {
        self.running.is_some()
    }

    /// Changes what the spinner says.
    pub fn set_message(&self, msg: impl Into<Cow<'static, str>>) {
        if let Some(running) = &self.running {
            running.bar.set_message(msg);
        }
    }

    /// Stops the spinner and erases it.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(Running { bar, stop, shower }) = self.running.take() {
            drop(stop);
            let _ = shower.join();
            bar.finish_and_clear();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    use indicatif::TermLike;

    use super::*;

    /// A terminal that records what is drawn on it.
    #[derive(Clone, Debug, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().unwrap().clone()
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.write_str("<clear>")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn on(screen: &Screen) -> Target {
        Target::Draw(ProgressDrawTarget::term_like(Box::new(screen.clone())))
    }

    #[test]
    fn not_a_terminal_means_no_spinner() {
        assert!(matches!(Target::for_stderr(false), Target::Hidden));
        let spinner = Spinner::start_on(Target::Hidden, "scanning", Duration::ZERO);
        assert!(!spinner.is_active());
        spinner.finish();
    }

    #[test]
    fn a_fast_stage_draws_nothing() {
        let screen = Screen::default();
        let spinner = Spinner::start_on(on(&screen), "scanning", Duration::from_secs(30));
        assert!(spinner.is_active());
        let started = Instant::now();
        spinner.finish();
        // finish() does not wait out the delay.
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(screen.text(), "");
    }

    #[test]
    fn a_slow_stage_shows_its_message_and_elapsed_time_then_clears() {
        let screen = Screen::default();
        let spinner = Spinner::start_on(on(&screen), "asking the model", Duration::ZERO);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !screen.text().contains("asking the model") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        spinner.set_message("still asking");
        spinner.finish();
        let text = screen.text();
        assert!(text.contains("asking the model 0s"), "{text:?}");
        assert!(text.ends_with("<clear>"), "{text:?}");
    }

    #[test]
    fn delay_comes_from_the_environment_when_it_is_a_number() {
        assert_eq!(delay_from(None), SHOW_AFTER);
        assert_eq!(delay_from(Some("0")), Duration::ZERO);
        assert_eq!(delay_from(Some(" 40 ")), Duration::from_millis(40));
        assert_eq!(delay_from(Some("soon")), SHOW_AFTER);
    }
}
