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

use super::offsets::Offsets;
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
/// [`STREAMED_TEXT_BYTES`] (stdin and converted documents never are, nor any
/// file with `--null-data` or `--binary`, whose lines these are not).
pub fn streamed<'h>(h: &'h Haystack, opts: &ReadOptions) -> Option<&'h Path> {
    let Source::Path(path) = &h.source else {
        return None;
    };
    if is_converted(h, opts) || opts.null_data || opts.binary.is_some() {
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
    walk_lines(path, |line| f(line.number, line.text))
}

/// One line as [`walk_lines`] reads it.
struct Line<'a> {
    number: usize,
    /// Where the line starts in the file.
    raw_at: u64,
    /// Its bytes in the file, without the break.
    raw: &'a [u8],
    /// Its text: `raw` as lossy UTF-8.
    text: &'a [u8],
}

/// [`for_each_line`], with each line's raw bytes and place in the file.
fn walk_lines(path: &Path, mut f: impl FnMut(Line<'_>) -> ControlFlow<()>) -> io::Result<bool> {
    let mut file = File::open(path)?;
    let mut buf = vec![0u8; CHUNK];
    // The current line's bytes, when it spans chunks.
    let mut pending: Vec<u8> = Vec::new();
    let mut fixed = String::new();
    let mut number = 1usize;
    // Where the current line starts, and where the chunk left to read does.
    let (mut raw_at, mut consumed) = (0u64, 0u64);
    let mut after_cr = false;
    let mut nul = false;
    // `known_valid`: the line lies in a part of a chunk already checked.
    let mut emit = |raw: &[u8], number: usize, raw_at: u64, known_valid: bool| {
        let text = if known_valid || std::str::from_utf8(raw).is_ok() {
            raw
        } else {
            fixed.clear();
            fixed.push_str(&String::from_utf8_lossy(raw));
            fixed.as_bytes()
        };
        f(Line {
            number,
            raw_at,
            raw,
            text,
        })
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
            consumed += 1;
            raw_at += 1;
        }
        // One check of the chunk spares one per line (a character cut by the
        // chunk's end only ends the checked part early).
        let mut valid = match std::str::from_utf8(chunk) {
            Ok(_) => chunk.len(),
            Err(err) => err.valid_up_to(),
        };
        while let Some(i) = memchr::memchr2(b'\n', b'\r', chunk) {
            let flow = if pending.is_empty() {
                emit(&chunk[..i], number, raw_at, i <= valid)
            } else {
                pending.extend_from_slice(&chunk[..i]);
                let flow = emit(&pending, number, raw_at, false);
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
            consumed += next as u64;
            raw_at = consumed;
            valid = valid.saturating_sub(next);
        }
        pending.extend_from_slice(chunk);
        consumed += chunk.len() as u64;
    }
    let _ = emit(&pending, number, raw_at, false);
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
    let mut offsets = Offsets::default();
    // Whether the line before was kept (the first line has none before it).
    let mut after_kept = true;
    let nul = walk_lines(path, |line| {
        if line.number > 1 {
            text.push(b'\n');
        }
        let kept = keep(line.number);
        if opts.offsets && (kept || after_kept) {
            // A kept line lies where the file has it, and so does the start of
            // the line after it (where its terminator ends). The rest of a gap
            // is never printed or measured: marking its lines would cost an
            // edit a line, the memory a hollow load is for saving.
            offsets.push_line(&mut text, line.raw_at, if kept { line.raw } else { &[] });
        } else if kept {
            text.extend_from_slice(line.text);
        }
        after_kept = kept;
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
        offsets,
        terminator: b'\n',
        binary: None,
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
        offsets: false,
        search_zip: false,
        pre: None,
        binary: None,
        null_data: false,
        pipes: Default::default(),
        naming: Default::default(),
    });

    /// Streamed lines are the loaded text's lines, for every kind of line
    /// break and invalid UTF-8, wherever the chunks end.
    #[test]
    fn streamed_lines_are_the_loaded_lines() {
        use crate::testing::{below, push_pieces, rng};
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
            push_pieces(&mut rng, &mut bytes, pieces, 40);
            assert_eq!(streamed_lines(&bytes), loaded_lines(&bytes), "case {case}");
        }
        assert_eq!(streamed_lines(b""), vec![Vec::<u8>::new()]);
        assert_eq!(streamed_lines(b"a\n"), vec![b"a".to_vec(), Vec::new()]);
    }

    /// `f.log` in `dir` (not written yet), its haystack, and reading options
    /// that ask for its byte places.
    fn log_with_offsets(dir: &Path) -> (std::path::PathBuf, Haystack, ReadOptions) {
        let path = dir.join("f.log");
        let h = Haystack {
            key: "f.log".into(),
            source: Source::Path(path.clone()),
        };
        let opts = ReadOptions {
            offsets: true,
            ..TEXT.clone()
        };
        (path, h, opts)
    }

    /// With offsets asked for, a hollow load's kept lines lie where the
    /// loaded text's do in the file, wherever the chunks end.
    #[test]
    fn a_hollow_load_knows_where_its_lines_lie_in_the_file() {
        use crate::testing::{below, push_pieces, rng};
        let pieces: &[&[u8]] = &[b"ab", b"\n", b"\r", b"\r\n", b"\xff", b"\xc3\xa9", b" "];
        let dir = tempfile::tempdir().unwrap();
        let (path, h, opts) = log_with_offsets(dir.path());
        let mut rng = rng(0x00ff_5e75);
        for case in 0..60 {
            let mut bytes = Vec::new();
            if case % 6 == 0 {
                bytes.resize(CHUNK - 1 - below(&mut rng, 3), b'q');
            }
            push_pieces(&mut rng, &mut bytes, pieces, 40);
            std::fs::write(&path, &bytes).unwrap();
            let whole = match super::super::from_bytes("k".into(), bytes.clone(), false, &opts) {
                Loaded::Text(d) => d,
                other => panic!("{other:?}"),
            };
            // Lines 1, 4, 7, …: gaps of two lines.
            let keep = |n: usize| n % 3 == 1;
            let Loaded::Text(hollow) = load_hollow(&h, &path, &opts, keep).unwrap() else {
                panic!("not text");
            };
            let (whole_starts, hollow_starts) = (whole.line_starts(), hollow.line_starts());
            assert_eq!(whole_starts.len(), hollow_starts.len(), "case {case}");
            for (n, (&w, &o)) in whole_starts.iter().zip(&hollow_starts).enumerate() {
                // A kept line, or the line after one.
                if !keep(n + 1) && !keep(n) {
                    continue;
                }
                assert_eq!(
                    whole.raw_offset(w),
                    hollow.raw_offset(o),
                    "case {case} line {}",
                    n + 1
                );
                if keep(n + 1) {
                    // Within a kept line too: its end.
                    let len = whole.line(&whole_starts, n + 1).unwrap().len();
                    assert_eq!(
                        whole.raw_offset(w + len),
                        hollow.raw_offset(o + len),
                        "case {case} line {}",
                        n + 1
                    );
                }
            }
        }
    }

    /// A hollow load of a long file keeps few edits: one or two a kept line,
    /// none for the lines of a gap.
    #[test]
    fn a_hollow_load_marks_no_line_of_a_gap() {
        let dir = tempfile::tempdir().unwrap();
        let (path, h, opts) = log_with_offsets(dir.path());
        let line = |i: usize| format!("line {i}\r\n").into_bytes();
        let bytes: Vec<u8> = (0..10_000).flat_map(line).collect();
        std::fs::write(&path, &bytes).unwrap();
        let Loaded::Text(doc) = load_hollow(&h, &path, &opts, |n| n == 5_000).unwrap() else {
            panic!("not text");
        };
        assert!(doc.offsets.edits() <= 3, "{}", doc.offsets.edits());
        // Line 5,000 starts after the 4,999 lines before it, CRLFs and all.
        let want: usize = (0..4_999).map(|i| line(i).len()).sum();
        assert_eq!(doc.raw_offset(doc.line_starts()[4_999]), want as u64);
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
