//! Where a position of a document's text lies in the bytes it was read
//! from, for what prints a place in a file as rg counts it: `-b`'s offsets,
//! `--json`'s `absolute_offset`, `--column`'s columns, `-M`'s measure.
//!
//! kgrep reads a file as rlmgrep does ([`super::normalize`]): a CRLF is one
//! `\n` and each maximal invalid UTF-8 sequence is one U+FFFD (3 bytes). rg
//! searches the raw bytes, so its offsets are the file's; to print the same,
//! the places where the text's length and the file's part are recorded as
//! *edits*: from a text position on, the raw position is the text position
//! plus a delta. A file read unchanged (nearly every source file) records
//! none, and costs nothing. Offsets are into the bytes after decoding
//! (UTF-16, `-E`), as rg's are "in terms of the result of transcoding".
//!
//! It owns the mapping and how it is recorded; it does not decide when one is
//! wanted ([`super::ReadOptions::offsets`]) or print it (`render`).

/// The edits of one document: raw = text position + the delta of the last
/// edit at or before it (0 before the first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offsets {
    /// (text position, delta from there on), by increasing position.
    edits: Vec<(usize, i64)>,
}

impl Offsets {
    /// The raw byte offset of text position `at`.
    pub fn raw(&self, at: usize) -> u64 {
        let i = self.edits.partition_point(|&(pos, _)| pos <= at);
        let delta = i.checked_sub(1).map_or(0, |i| self.edits[i].1);
        u64::try_from(at as i64 + delta).unwrap_or(0)
    }

    /// How many edits are recorded.
    #[cfg(test)]
    pub(crate) fn edits(&self) -> usize {
        self.edits.len()
    }

    /// Records that text position `text_at` is raw position `raw_at`, when
    /// that changes the delta.
    fn mark(&mut self, text_at: usize, raw_at: u64) {
        let delta = raw_at as i64 - text_at as i64;
        let last = self.edits.last().map_or(0, |&(_, d)| d);
        if delta != last {
            self.edits.push((text_at, delta));
        }
    }

    /// Appends one raw line (no line break) to `text` as lossy UTF-8, as
    /// `String::from_utf8_lossy` reads it, recording where its positions lie:
    /// the line starts at `raw_at`. The one place the two are kept in step, for
    /// the loader and the streaming reader alike.
    pub fn push_line(&mut self, text: &mut Vec<u8>, raw_at: u64, line: &[u8]) {
        self.mark(text.len(), raw_at);
        let mut raw = raw_at;
        // `utf8_chunks` is what `from_utf8_lossy` walks: one U+FFFD for each
        // chunk's invalid part.
        for chunk in line.utf8_chunks() {
            text.extend_from_slice(chunk.valid().as_bytes());
            raw += chunk.valid().len() as u64;
            if !chunk.invalid().is_empty() {
                text.extend_from_slice("\u{FFFD}".as_bytes());
                raw += chunk.invalid().len() as u64;
                self.mark(text.len(), raw);
            }
        }
    }
}

/// `bytes` normalised as [`super::normalize`] does (lossy UTF-8; CRLF and a
/// lone CR as `\n`), with the offsets of its positions in `bytes`.
pub fn normalize_tracked(bytes: &[u8]) -> (Vec<u8>, Offsets) {
    let mut text = Vec::with_capacity(bytes.len());
    let mut offsets = Offsets::default();
    let mut at = 0;
    loop {
        let rest = &bytes[at..];
        let Some(i) = memchr::memchr2(b'\n', b'\r', rest) else {
            offsets.push_line(&mut text, at as u64, rest);
            break;
        };
        offsets.push_line(&mut text, at as u64, &rest[..i]);
        text.push(b'\n');
        let crlf = rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n');
        at += i + 1 + usize::from(crlf);
    }
    (text, offsets)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every text position's raw offset, checked against the raw bytes: a
    /// line start maps to the raw line start, and a valid character to the
    /// same character.
    #[test]
    fn crlf_and_invalid_bytes_shift_what_follows() {
        let raw = b"ab\r\ncd\xffe\rf\n\xe9\xe9g";
        let (text, offsets) = normalize_tracked(raw);
        assert_eq!(text, "ab\ncd\u{fffd}e\nf\n\u{fffd}\u{fffd}g".as_bytes());
        assert_eq!(text, super::super::normalize(raw.to_vec()));
        let raw_of = |s: &str| {
            let at = text
                .windows(s.len())
                .position(|w| w == s.as_bytes())
                .unwrap();
            offsets.raw(at)
        };
        assert_eq!(raw_of("ab"), 0);
        assert_eq!(raw_of("cd"), 4);
        assert_eq!(raw_of("e"), 7);
        assert_eq!(raw_of("f"), 9);
        assert_eq!(raw_of("g"), 13);
    }

    #[test]
    fn an_unchanged_text_records_nothing() {
        let (text, offsets) = normalize_tracked("plain\nlines é\n".as_bytes());
        assert_eq!(text, "plain\nlines é\n".as_bytes());
        assert_eq!(offsets, Offsets::default());
        assert_eq!(offsets.raw(7), 7);
        let (_, offsets) = normalize_tracked(b"lone\rcr\r");
        assert_eq!(offsets, Offsets::default());
    }

    /// The tracked normalisation is the loader's, on every kind of input.
    #[test]
    fn tracked_text_is_the_normalised_text() {
        use crate::testing::{push_pieces, rng};
        let pieces: &[&[u8]] = &[
            b"a",
            b"\n",
            b"\r",
            b"\r\n",
            b"\xff",
            b"\xe9t\xc3",
            b"\xc3\xa9",
        ];
        let mut rng = rng(0x000f_f5e7);
        for case in 0..300 {
            let mut bytes = Vec::new();
            push_pieces(&mut rng, &mut bytes, pieces, 30);
            let (text, offsets) = normalize_tracked(&bytes);
            assert_eq!(text, super::super::normalize(bytes.clone()), "case {case}");
            // Each line starts where the raw line does.
            let raw_starts: Vec<u64> = std::iter::once(0)
                .chain(bytes.iter().enumerate().filter_map(|(i, &b)| {
                    let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
                    ends.then_some(i as u64 + 1)
                }))
                .collect();
            let text_starts: Vec<u64> = std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', &text).map(|i| offsets.raw(i + 1)))
                .collect();
            assert_eq!(text_starts, raw_starts, "case {case}");
        }
    }
}
