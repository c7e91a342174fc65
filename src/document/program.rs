//! Running a program over a file, for `-z` (a decompressor) and `--pre` (a
//! preprocessor): the file on its stdin, its stdout read as the file's bytes.
//!
//! It owns spawning (never through a shell), reading the output under
//! [`super::MAX_FILE_BYTES`] and turning a failure into one error; it does
//! not decide which files go through which program.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::process::{Command, Stdio};

use super::MAX_FILE_BYTES;

/// Runs `argv` with `input` on its stdin and its stdout read into `out`
/// (at most one byte past the cap; then the program is stopped).
pub(super) fn run<S: AsRef<OsStr>>(argv: &[S], input: File, out: &mut Vec<u8>) -> io::Result<()> {
    let (program, args) = argv.split_first().ok_or(io::ErrorKind::InvalidInput)?;
    let program = program.as_ref();
    let name = program.to_string_lossy();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::from(input))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| io::Error::new(err.kind(), format!("{name}: {err}")))?;
    // Its stderr is read on a thread of its own, so a program that writes
    // much there cannot stall while its stdout is read here.
    let stderr = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    });
    let read = match child.stdout.take() {
        Some(stdout) => stdout.take(MAX_FILE_BYTES + 1).read_to_end(out),
        None => Ok(0),
    };
    if read.is_err() || out.len() as u64 > MAX_FILE_BYTES {
        // Past the cap (or unreadable): stop it rather than wait for it.
        let _ = child.kill();
    }
    let status = child.wait()?;
    let stderr = stderr
        .and_then(|thread| thread.join().ok())
        .unwrap_or_default();
    read?;
    if !status.success() && out.len() as u64 <= MAX_FILE_BYTES {
        // Nothing on its stderr is said as rg 13 says it, not left as a
        // dangling `: `.
        let why = stderr
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("<stderr is empty>");
        return Err(io::Error::other(format!("{name} failed ({status}): {why}")));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::path::Path;

    fn output(argv: &[&str], path: &Path) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        run(argv, File::open(path)?, &mut out).map(|()| out)
    }

    #[test]
    fn a_program_that_fails_or_is_missing_is_an_error_that_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        std::fs::write(&path, b"data\n").unwrap();
        // The file is the program's stdin; what it prints is what is read.
        assert_eq!(output(&["cat"], &path).unwrap(), b"data\n");
        let err = output(&["sh", "-c", "echo bad >&2; exit 3"], &path).unwrap_err();
        assert!(err.to_string().contains("sh failed"), "{err}");
        assert!(err.to_string().ends_with("bad"), "{err}");
        let err = output(&["false"], &path).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("false failed (exit status: 1): <stderr is empty>"),
            "{err}"
        );
        let err = output(&["kgrep-no-such-program"], &path).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(
            err.to_string().starts_with("kgrep-no-such-program: "),
            "{err}"
        );
    }
}
