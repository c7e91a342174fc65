//! The process exit status, decided in one place.
//!
//! kgrep follows grep, ripgrep and rlmgrep: 0 when at least one line was printed,
//! 1 when nothing matched, 2 on an error (even if other inputs matched).

use std::process::ExitCode;

/// What the run amounts to, in the terms scripts branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// At least one line was found (or signature/config commands succeeded).
    Matched,
    /// The search ran and found nothing.
    NoMatch,
    /// A usage, configuration or input error.
    Error,
}

impl ExitStatus {
    /// The numeric code, as documented in the man page.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Matched => 0,
            ExitStatus::NoMatch => 1,
            ExitStatus::Error => 2,
        }
    }

    /// The status of a finished search: an error anywhere wins over matches.
    pub fn of_search(matched: bool, errored: bool) -> ExitStatus {
        if errored {
            ExitStatus::Error
        } else if matched {
            ExitStatus::Matched
        } else {
            ExitStatus::NoMatch
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status.code())
    }
}

/// True when the error chain holds a broken pipe: `kgrep … | head -1` is not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_wins_over_matches() {
        assert_eq!(ExitStatus::of_search(true, true), ExitStatus::Error);
        assert_eq!(ExitStatus::of_search(true, false), ExitStatus::Matched);
        assert_eq!(ExitStatus::of_search(false, false), ExitStatus::NoMatch);
        assert_eq!(ExitStatus::Error.code(), 2);
    }

    #[test]
    fn broken_pipe_is_found_in_the_chain() {
        let io = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "pipe");
        let err = anyhow::Error::new(io).context("writing results");
        assert!(is_broken_pipe(&err));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
