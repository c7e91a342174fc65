//! Compressed files, for `-z/--search-zip`: which files are, and their
//! decompressed bytes.
//!
//! The names and commands are rg's (`grep-cli`'s defaults), so `kgrep -z`
//! searches the files `rg -z` does, as the same text: gzip in-process
//! (`flate2`, already compiled in for zip-based documents), every other
//! format through the program rg runs (`xz -d -c`, `zstd -q -d -c`, …),
//! given the file on stdin, never through a shell ([`super::program`]). The
//! output is capped at [`super::MAX_FILE_BYTES`], as a plain file's size is,
//! so a small bomb cannot fill memory.
//!
//! It does not decide when `-z` applies (`ReadOptions::search_zip`) or read
//! the text the bytes hold (`super::from_bytes` does, as for any file).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::MAX_FILE_BYTES;

/// How one kind of compressed file is decompressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// `*.gz`, `*.tgz`: in-process.
    Gzip,
    /// Any other: rg's program and its arguments.
    Program(&'static [&'static str]),
}

/// rg's file names and the programs it decompresses them with.
const KINDS: &[(&str, Compression)] = &[
    ("gz", Compression::Gzip),
    ("tgz", Compression::Gzip),
    ("bz2", Compression::Program(&["bzip2", "-d", "-c"])),
    ("tbz2", Compression::Program(&["bzip2", "-d", "-c"])),
    ("xz", Compression::Program(&["xz", "-d", "-c"])),
    ("txz", Compression::Program(&["xz", "-d", "-c"])),
    ("lz4", Compression::Program(&["lz4", "-d", "-c"])),
    (
        "lzma",
        Compression::Program(&["xz", "--format=lzma", "-d", "-c"]),
    ),
    ("br", Compression::Program(&["brotli", "-d", "-c"])),
    ("zst", Compression::Program(&["zstd", "-q", "-d", "-c"])),
    ("zstd", Compression::Program(&["zstd", "-q", "-d", "-c"])),
    ("Z", Compression::Program(&["uncompress", "-c"])),
];

impl Compression {
    /// The compression a file's name says it has (its extension, case
    /// sensitive as rg's globs are), if any.
    pub fn of_path(path: &Path) -> Option<Compression> {
        let ext = path.extension().and_then(OsStr::to_str)?;
        KINDS
            .iter()
            .find(|(name, _)| *name == ext)
            .map(|&(_, kind)| kind)
    }
}

/// The decompressed bytes of the file at `path`. An error says why: the data
/// is not of its kind, the program is missing or failed (its first line of
/// stderr), or the output passed [`MAX_FILE_BYTES`].
pub fn decompress(path: &Path, kind: Compression) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let mut out = Vec::new();
    match kind {
        Compression::Gzip => {
            flate2::read::MultiGzDecoder::new(file)
                .take(MAX_FILE_BYTES + 1)
                .read_to_end(&mut out)
                .map_err(|err| {
                    io::Error::new(io::ErrorKind::InvalidData, format!("gzip: {err}"))
                })?;
        }
        Compression::Program(argv) => super::program::run(argv, file, &mut out)?,
    }
    if out.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("decompresses to over the {MAX_FILE_BYTES}-byte limit"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzipped(text: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(text).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn names_are_rgs() {
        let of = |name: &str| Compression::of_path(Path::new(name));
        assert_eq!(of("a.log.gz"), Some(Compression::Gzip));
        assert_eq!(of("x.tgz"), Some(Compression::Gzip));
        assert!(matches!(
            of("a.zst"),
            Some(Compression::Program(["zstd", ..]))
        ));
        assert!(matches!(
            of("a.Z"),
            Some(Compression::Program(["uncompress", ..]))
        ));
        assert_eq!(of("a.GZ"), None);
        assert_eq!(of("a.z"), None);
        assert_eq!(of("gz"), None);
        assert_eq!(of("a.txt"), None);
    }

    #[test]
    fn gzip_members_are_read_in_turn_and_garbage_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gz");
        // Two members, as `cat a.gz b.gz` makes: gzip -d reads both.
        let mut bytes = gzipped(b"one\n");
        bytes.extend(gzipped(b"two\n"));
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(decompress(&path, Compression::Gzip).unwrap(), b"one\ntwo\n");
        std::fs::write(&path, b"not gzip").unwrap();
        let err = decompress(&path, Compression::Gzip).unwrap_err();
        assert!(err.to_string().starts_with("gzip: "), "{err}");
    }
}
