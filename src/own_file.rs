//! Opening the files kgrep reads and writes for itself (its configs, the
//! thesaurus layers, the learned store and its lock, imports), never the
//! corpus (`walk` and `document` read that).
//!
//! Any of them may be planted: a project's `.kgrep/thesaurus.json` comes
//! with the project, and could be a FIFO (a read that never returns), a
//! device (`/dev/zero`, a read that never ends) or a symlink to anywhere. So
//! [`read`] opens without blocking (`O_NONBLOCK`: opening a FIFO returns at
//! once), checks on the open file that it is a regular file, and reads at
//! most [`MAX_BYTES`]; with [`Follow::No`] (files a project plants) a
//! symlink is not followed (`O_NOFOLLOW`). [`open_lock`] opens a lock file
//! the same way, creating it if needed but never through a symlink.
//! Errors are `io::Error`s whose message says what was refused; the callers
//! turn them into a warning, or exit 2 where the user named the file.
//!
//! Does not decide where the files are (`paths`) or what is in them.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Largest file kgrep reads for itself: a thesaurus of a million synonyms is
/// a few tens of megabytes; anything larger is a mistake or an attack.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// Whether a symlink at the path is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    /// The user's own files (configs, the user's learned thesaurus, a path
    /// they named): a symlink is how dotfile managers install them.
    Yes,
    /// Files a project brings (`.kgrep/…`): a symlink could point anywhere.
    No,
}

/// `Ok` unless the folder `dir` is a symlink. A project's `.kgrep` folder
/// comes with the project (git keeps links), and `O_NOFOLLOW` guards only a
/// path's last part: through a linked `.kgrep`, kgrep would read another
/// folder's `thesaurus.json` and write its lessons and lock there. A folder
/// that does not exist yet is `Ok` (it is made as a plain folder).
pub fn not_a_linked_dir(dir: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is a symbolic link; a project's folder is not used through one",
                dir.display()
            ),
        )),
        _ => Ok(()),
    }
}

/// The whole file at `path`, if it is a regular file of at most `limit`
/// bytes. Never blocks on a FIFO and never reads past `limit + 1` bytes.
pub fn read(path: &Path, follow: Follow, limit: u64) -> io::Result<Vec<u8>> {
    let file = open(path, follow, OpenOptions::new().read(true))?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(limit)).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_to_string(path: &Path, follow: Follow, limit: u64) -> io::Result<String> {
    String::from_utf8(read(path, follow, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Opens (creating it if needed, never truncating) the lock file at `path`
/// for writing: a symlink there is not followed, so a planted one creates
/// nothing where it points; anything but a regular file is refused.
pub fn open_lock(path: &Path) -> io::Result<File> {
    let file = open(
        path,
        Follow::No,
        OpenOptions::new().create(true).truncate(false).write(true),
    )?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    Ok(file)
}

fn not_regular(meta: &std::fs::Metadata) -> io::Error {
    let what = if meta.is_dir() {
        "a folder"
    } else {
        "not a regular file (a FIFO, socket or device)"
    };
    io::Error::new(io::ErrorKind::InvalidInput, format!("it is {what}"))
}

#[cfg(unix)]
fn open(path: &Path, follow: Follow, options: &mut OpenOptions) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
    if follow == Follow::No {
        flags |= libc::O_NOFOLLOW;
    }
    options.custom_flags(flags).open(path).map_err(|err| {
        // O_NOFOLLOW on a symlink: ELOOP, which says nothing useful.
        if follow == Follow::No && err.raw_os_error() == Some(libc::ELOOP) {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is a symbolic link, which kgrep does not follow here",
            )
        } else {
            err
        }
    })
}

#[cfg(not(unix))]
fn open(path: &Path, follow: Follow, options: &mut OpenOptions) -> io::Result<File> {
    if follow == Follow::No
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is a symbolic link, which kgrep does not follow here",
        ));
    }
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(not_regular(&meta));
        }
    }
    options.open(path)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(&path, Follow::No, 10).unwrap(), b"0123456789");
        let err = read(&path, Follow::No, 9).unwrap_err();
        assert!(err.to_string().contains("larger than 9 bytes"), "{err}");
        assert_eq!(
            read(&dir.path().join("none"), Follow::Yes, 9)
                .unwrap_err()
                .kind(),
            io::ErrorKind::NotFound
        );
        assert!(read(dir.path(), Follow::Yes, 9).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_planted_symlinks_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(Path::new("/dev/zero"), Follow::Yes, MAX_BYTES).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path and mode.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read(&fifo, Follow::Yes, MAX_BYTES).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let target = dir.path().join("target");
        std::fs::write(&target, "x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert_eq!(read(&link, Follow::Yes, 9).unwrap(), b"x");
        let err = read(&link, Follow::No, 9).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_file_is_never_created_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        let lock = dir.path().join("t.json.lock");
        std::os::unix::fs::symlink(&outside, &lock).unwrap();
        let err = open_lock(&lock).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(!outside.exists());
        let fresh = dir.path().join("u.json.lock");
        open_lock(&fresh).unwrap();
        std::fs::write(&fresh, "keep").unwrap();
        open_lock(&fresh).unwrap();
        assert_eq!(std::fs::read_to_string(&fresh).unwrap(), "keep");
    }
}
