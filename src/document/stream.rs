//! Large plain files line by line, without holding them: the lines exactly
//! as [`super::load`] normalises them (lossy UTF-8, `\r\n` and a lone `\r` as
//! line breaks), read through a fixed buffer.
//!
//! A natural-language search used to load a whole file to score its lines
//! and again to print them: a 1 GB log cost 1 GB of memory (issue 28). A file
//! over [`STREAMED_TEXT_BYTES`] is now scored as it streams past (`pipeline`)
//! and loaded *hollow* for printing: every line keeps its number, but only
//! the lines asked for keep their text. Does not own which lines those are
//! (the caller's) or converted documents (always loaded whole, within
//! `convert`'s limits).

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::Path;

use super::{is_converted, Document, Loaded, ReadOptions};
use crate::walk::{Haystack, Source};

/// Plain files larger than this are streamed rather than loaded whole by a
/// natural-language search. Far past a source file (the largest in a Linux
/// tree is about 1 MB), so code is read as before; a log or a data dump is
/// not held in memory.
pub const STREAMED_TEXT_BYTES: u64 = 16 << 20;

/// Bytes read at a time.
const CHUNK: usize = 1 << 20;

/// The file a haystack streams from, when it is a plain file larger than
/// [`STREAMED_TEXT_BYTES`] (stdin and converted documents never are).
pub fn streamed<'h>(h: &'h Haystack, opts: &ReadOptions) -> Option<&'h Path> {
    let Source::Path(path) = &h.source else {
        return None;
    };
    if is_converted(h, opts) {
        return None;
    }
    let len = std::fs::metadata(path).ok()?.len();
    // A UTF-16 file, or any with -E naming an encoding, is decoded whole by
    // `load` (these lines are raw bytes').
    let raw = !opts.decoding.forced() && !super::opens_utf16(path);
    (len > STREAMED_TEXT_BYTES && raw).then_some(path)
}

/// Calls `f` with each line of the file (its number from 1, its text without
/// the break) as `load` would split its normalised text, until `f` breaks.
/// Returns whether the file holds a NUL byte (`load` calls such a file
/// binary unless `-a`).
pub fn for_each_line(
    path: &Path,
    mut f: impl FnMut(usize, &[u8]) -> ControlFlow<()>,
) -> io::Result<bool> {
    let mut file = File::open(path)?;
    let mut buf = vec![0u8; CHUNK];
    // The current line's bytes, when it spans chunks.
    let mut pending: Vec<u8> = Vec::new();
    let mut fixed = String::new();
    let mut number = 1usize;
    let mut after_cr = false;
    let mut nul = false;
    // `known_valid`: the line lies in a part of a chunk already checked.
    let mut emit = |line: &[u8], number: usize, known_valid: bool| -> ControlFlow<()> {
        if known_valid || std::str::from_utf8(line).is_ok() {
            return f(number, line);
        }
        fixed.clear();
        fixed.push_str(&String::from_utf8_lossy(line));
        f(number, fixed.as_bytes())
    };
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let mut chunk = &buf[..n];
        nul |= memchr::memchr(0, chunk).is_some();
        if std::mem::take(&mut after_cr) && chunk.first() == Some(&b'\n') {
            chunk = &chunk[1..];
        }
        // One check of the chunk spares one per line (a character cut by the
        // chunk's end only ends the checked part early).
        let mut valid = match std::str::from_utf8(chunk) {
            Ok(_) => chunk.len(),
            Err(err) => err.valid_up_to(),
        };
        while let Some(i) = memchr::memchr2(b'\n', b'\r', chunk) {
            let flow = if pending.is_empty() {
                emit(&chunk[..i], number, i <= valid)
            } else {
                pending.extend_from_slice(&chunk[..i]);
                let flow = emit(&pending, number, false);
                pending.clear();
                flow
            };
            if flow.is_break() {
                return Ok(nul);
            }
            number += 1;
            let mut next = i + 1;
            if chunk[i] == b'\r' {
                match chunk.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => after_cr = true,
                }
            }
            chunk = &chunk[next..];
            valid = valid.saturating_sub(next);
        }
        pending.extend_from_slice(chunk);
    }
    let _ = emit(&pending, number, false);
    Ok(nul)
}

/// The file's document with only the lines `keep` accepts holding their
/// text: the others are empty, so every line keeps its number and the text
/// costs a byte per line elsewhere. Binary (a NUL byte without `-a`) as
/// `load` would say.
pub fn load_hollow(
    h: &Haystack,
    path: &Path,
    opts: &ReadOptions,
    keep: impl Fn(usize) -> bool,
) -> io::Result<Loaded> {
    let mut text = Vec::new();
    let nul = for_each_line(path, |n, line| {
        if n > 1 {
            text.push(b'\n');
        }
        if keep(n) {
            text.extend_from_slice(line);
        }
        ControlFlow::Continue(())
    })?;
    super::count_read(&h.key);
    if nul && !opts.text {
        return Ok(Loaded::Binary);
    }
    Ok(Loaded::Text(Document {
        key: h.key.clone(),
        text,
        pages: None,
        cut: None,
    }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn streamed_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.log");
        std::fs::write(&path, bytes).unwrap();
        let mut out = Vec::new();
        for_each_line(&path, |n, line| {
            assert_eq!(n, out.len() + 1);
            out.push(line.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
        out
    }

    fn loaded_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
        match super::super::from_bytes("k".into(), bytes.to_vec(), false, &TEXT) {
            Loaded::Text(d) => d.lines().map(<[u8]>::to_vec).collect(),
            other => panic!("{other:?}"),
        }
    }

    static TEXT: std::sync::LazyLock<ReadOptions> = std::sync::LazyLock::new(|| ReadOptions {
        text: true,
        limits: super::super::Limits::DEFAULT,
        cache: None,
        voice: crate::messages::Voice::Loud,
        reread: std::sync::Arc::default(),
        decoding: super::super::Decoding::Sniff,
    });

    /// Streamed lines are the loaded text's lines, for every kind of line
    /// break and invalid UTF-8, wherever the chunks end.
    #[test]
    fn streamed_lines_are_the_loaded_lines() {
        use crate::testing::{below, rng};
        let pieces: &[&[u8]] = &[
            b"a",
            b"xyz",
            b"\n",
            b"\r",
            b"\r\n",
            b"\xff",
            b"\xe9t\xc3",
            b"\xc3\xa9",
            b"\0",
            b" ",
        ];
        let mut rng = rng(0x5742_0015);
        for case in 0..300 {
            let mut bytes = Vec::new();
            // Some cases straddle the chunk size, so breaks fall on its edge.
            if case % 10 == 0 {
                bytes.resize(CHUNK - 1 - below(&mut rng, 3), b'q');
            }
            for _ in 0..below(&mut rng, 40) {
                bytes.extend_from_slice(pieces[below(&mut rng, pieces.len())]);
            }
            assert_eq!(streamed_lines(&bytes), loaded_lines(&bytes), "case {case}");
        }
        assert_eq!(streamed_lines(b""), vec![Vec::<u8>::new()]);
        assert_eq!(streamed_lines(b"a\n"), vec![b"a".to_vec(), Vec::new()]);
    }

    #[test]
    fn a_hollow_load_keeps_numbers_and_only_the_lines_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.log");
        std::fs::write(&path, b"one\r\ntwo\nthree\rfour\n").unwrap();
        let h = Haystack {
            key: "f.log".into(),
            source: Source::Path(path.clone()),
        };
        let Loaded::Text(doc) = load_hollow(&h, &path, &TEXT, |n| n == 2 || n == 4).unwrap() else {
            panic!("not text");
        };
        assert_eq!(doc.text, b"\ntwo\n\nfour\n");
        std::fs::write(&path, b"a\0b\n").unwrap();
        let opts = ReadOptions {
            text: false,
            ..TEXT.clone()
        };
        assert_eq!(
            load_hollow(&h, &path, &opts, |_| true).unwrap(),
            Loaded::Binary
        );
    }
}
