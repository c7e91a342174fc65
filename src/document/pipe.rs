//! Named pipes (FIFOs) named on the command line: read once, then served
//! from memory for the rest of the run.
//!
//! rg searches a FIFO it is given by name (`mkfifo p; rg x p`), reading it
//! as a stream, and blocks until a writer opens it, as any reader of a pipe
//! does; a FIFO found while walking a folder is skipped (`walk`'s rule). A
//! pipe's bytes can be read only once, while a run reads a file several
//! times (the search, then the printers, the code units, the model's
//! excerpts): the first read drains the pipe and keeps its bytes for the run
//! ([`Pipes`], shared by every copy of the run's `ReadOptions`), and every
//! later read gets them. Owns that; not which pipes are searched (`walk`),
//! nor how their bytes read as text (`load`: as a file's, through rg's
//! stream).

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::MAX_FILE_BYTES;

/// What reading one pipe gave: its bytes, or the error's kind and text
/// (`io::Error` is not `Clone`; each later read gets a copy).
type Drained = Result<Arc<Vec<u8>>, (io::ErrorKind, String)>;

/// The pipes a run has read, by path.
#[derive(Debug, Default)]
pub struct Pipes {
    /// One cell per pipe, so that draining one (which waits for its writer)
    /// never holds up another: a shell that writes `q` before `p` must not
    /// find kgrep waiting on `p` with `q` locked.
    drained: Mutex<HashMap<PathBuf, Arc<OnceLock<Drained>>>>,
}

impl Pipes {
    /// The bytes of the pipe at `path`: read to its end by the first call
    /// (waiting for a writer), kept for every later one. Whether the caller
    /// read it from the pipe itself is the second value (for `-v`'s count of
    /// reads).
    pub fn bytes(&self, path: &Path) -> io::Result<(Arc<Vec<u8>>, bool)> {
        let cell = {
            let mut drained = self.drained.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(drained.entry(path.to_path_buf()).or_default())
        };
        let mut first = false;
        let got = cell.get_or_init(|| {
            first = true;
            drain(path)
                .map(Arc::new)
                .map_err(|e| (e.kind(), e.to_string()))
        });
        match got {
            Ok(bytes) => Ok((Arc::clone(bytes), first)),
            Err((kind, text)) => Err(io::Error::new(*kind, text.clone())),
        }
    }
}

/// Reads the pipe to its end, within the limit a file is read within.
fn drain(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(super::too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn fifo(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        path
    }

    #[test]
    fn a_pipe_is_read_once_and_its_bytes_served_again() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = fifo(dir.path(), "p");
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || std::fs::write(path, b"hello\n").unwrap())
        };
        let pipes = Pipes::default();
        let (bytes, first) = pipes.bytes(&path).unwrap();
        writer.join().unwrap();
        assert_eq!((bytes.as_slice(), first), (&b"hello\n"[..], true));
        // No writer now: a second open would wait forever.
        let (again, first) = pipes.bytes(&path).unwrap();
        assert_eq!((again.as_slice(), first), (&b"hello\n"[..], false));
    }

    #[test]
    fn a_missing_pipe_is_an_error_each_time() {
        let dir = tempfile::TempDir::new().unwrap();
        let pipes = Pipes::default();
        let path = dir.path().join("gone");
        for _ in 0..2 {
            let err = pipes.bytes(&path).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::NotFound);
        }
    }
}
