//! Counting term occurrences in a stream (or a text in memory): the first
//! pass's own reader.
//!
//! Owns reading a file in chunks and running the matcher once over each, cut
//! where no word can straddle the cut. The first pass needs only counts, so
//! grep-searcher's line machinery (a search per matching line, then the line
//! searched again for its terms) was work for nothing. Does not decide which
//! files to read (`scan`) or what a match is (`matcher`).

use std::cell::RefCell;
use std::io::{ErrorKind, Read};

use super::matcher::TermMatcher;

/// Bytes read at a time.
pub(super) const CHUNK: usize = 64 * 1024;

/// A buffer grown past this (by a long run of text with no separator to cut
/// at) is freed after its file rather than kept for the next.
const KEEP_BUFFER_MAX: usize = 4 * CHUNK;

/// What counting one stream found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Counted {
    /// Occurrences of each of the matcher's terms.
    pub counts: Vec<u32>,
    /// Bytes read (the whole stream unless it was binary).
    pub bytes: usize,
    /// A NUL byte was found: reading stopped there, counts are partial.
    pub binary: bool,
    /// The stream opens with a UTF-16 byte-order mark: reading stopped
    /// there, and the caller decodes the file (`document::load`) to count it.
    pub utf16: bool,
}

/// What ends a raw count early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stops {
    /// A NUL byte: the file is binary (not with `-a`).
    pub binary: bool,
    /// A UTF-16 byte-order mark at the start: the caller decodes the file
    /// (not with `-E none`, which reads its raw bytes).
    pub utf16: bool,
}

thread_local! {
    /// Each thread's read buffer, kept between files.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Counts the matcher's terms in `reader`, `chunk` bytes at a time, until
/// one of `stops` (if any) is met.
pub(super) fn count_reader(
    reader: &mut impl Read,
    matcher: &TermMatcher,
    stops: Stops,
    chunk: usize,
) -> std::io::Result<Counted> {
    BUFFER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buf) => {
            let counted = count_with(&mut buf, reader, matcher, stops, chunk);
            if buf.capacity() > KEEP_BUFFER_MAX {
                *buf = Vec::new();
            }
            counted
        }
        Err(_) => count_with(&mut Vec::new(), reader, matcher, stops, chunk),
    })
}

fn count_with(
    buf: &mut Vec<u8>,
    reader: &mut impl Read,
    matcher: &TermMatcher,
    stops: Stops,
    chunk: usize,
) -> std::io::Result<Counted> {
    let chunk = chunk.max(1);
    let mut out = Counted {
        counts: vec![0; matcher.term_count()],
        ..Counted::default()
    };
    // Bytes at the front of `buf` carried over from the last read.
    let mut kept = 0;
    loop {
        if buf.len() < kept + chunk {
            buf.resize(kept + chunk, 0);
        }
        let n = match reader.read(&mut buf[kept..kept + chunk]) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let filled = kept + n;
        if stops.utf16 && out.bytes == 0 && crate::document::utf16(&buf[..filled]).is_some() {
            out.utf16 = true;
            return Ok(out);
        }
        out.bytes += n;
        if stops.binary && memchr::memchr(0, &buf[kept..filled]).is_some() {
            out.binary = true;
            return Ok(out);
        }
        if n == 0 {
            count_into(&mut out.counts, matcher, &buf[..filled]);
            return Ok(out);
        }
        // The carried bytes hold no cut (they follow the last one), so only
        // the new ones are looked at: a long run without one costs linear time.
        let Some(cut) = safe_cut(&buf[kept..filled]).map(|c| kept + c) else {
            kept = filled;
            continue;
        };
        count_into(&mut out.counts, matcher, &buf[..cut]);
        buf.copy_within(cut..filled, 0);
        kept = filled - cut;
    }
}

/// Where `text` can be cut with no word and no identifier across the cut:
/// just after its last ASCII byte that is neither a letter or digit nor one
/// an identifier joins its parts with (`_ - : .`), so the next piece starts
/// exactly as it would in the whole text; `None` if it has none.
fn safe_cut(text: &[u8]) -> Option<usize> {
    text.iter()
        .rposition(|b| b.is_ascii() && !b.is_ascii_alphanumeric() && !b"_-:.".contains(b))
        .map(|i| i + 1)
}

/// Counts the matcher's terms in a file's bytes already in memory, as
/// [`count_reader`] counts them from a stream: with `stops.binary`, a NUL
/// byte makes it binary (skipped by the caller, so the counts are not made).
pub(super) fn count_bytes(matcher: &TermMatcher, bytes: &[u8], stops: Stops) -> Counted {
    if stops.utf16 && crate::document::utf16(bytes).is_some() {
        return Counted {
            counts: vec![0; matcher.term_count()],
            utf16: true,
            ..Counted::default()
        };
    }
    if stops.binary && memchr::memchr(0, bytes).is_some() {
        return Counted {
            counts: vec![0; matcher.term_count()],
            bytes: bytes.len(),
            binary: true,
            utf16: false,
        };
    }
    Counted {
        counts: count_text(matcher, bytes),
        bytes: bytes.len(),
        binary: false,
        utf16: false,
    }
}

/// Counts the matcher's terms in a text already in memory (a converted
/// document). Matches never hold a line break, so this counts what the
/// reader counts.
pub(super) fn count_text(matcher: &TermMatcher, text: &[u8]) -> Vec<u32> {
    let mut counts = vec![0; matcher.term_count()];
    count_into(&mut counts, matcher, text);
    counts
}

fn count_into(counts: &mut [u32], matcher: &TermMatcher, text: &[u8]) {
    matcher.for_every(text, |m| {
        if let Some(c) = counts.get_mut(m.term) {
            *c = c.saturating_add(1);
        }
    });
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::query::analyze;

    /// Stops at a NUL byte (`binary`) and at a UTF-16 mark, as without `-a`.
    fn stops(binary: bool) -> Stops {
        Stops {
            binary,
            utf16: true,
        }
    }

    fn counts(q: &str, text: &[u8], chunk: usize) -> Counted {
        let m = TermMatcher::new(&analyze(q).terms).unwrap();
        count_reader(&mut &text[..], &m, stops(true), chunk).unwrap()
    }

    #[test]
    fn every_chunk_size_counts_the_same() {
        let text = b"retry_count = maxRetry(RETRIES); timeout\nretrying; trust\n\xc3\xa9retry";
        let whole = counts("retry timeout", text, CHUNK);
        assert_eq!(whole.bytes, text.len());
        assert!(!whole.binary);
        for chunk in 1..text.len() + 2 {
            assert_eq!(counts("retry timeout", text, chunk), whole, "chunk {chunk}");
        }
        let m = TermMatcher::new(&analyze("retry timeout").terms).unwrap();
        assert_eq!(whole.counts, {
            let mut c = vec![0; m.term_count()];
            count_into(&mut c, &m, text);
            c
        });
        assert_eq!(whole.counts.iter().sum::<u32>(), 5);
    }

    #[test]
    fn bytes_in_memory_count_as_the_stream_does() {
        let m = TermMatcher::new(&analyze("retry timeout").terms).unwrap();
        let text = b"retry_count = maxRetry(RETRIES); timeout\nretrying; trust\n";
        let streamed = count_reader(&mut &text[..], &m, stops(true), 7).unwrap();
        assert_eq!(count_bytes(&m, text, stops(true)), streamed);
        assert!(count_bytes(&m, b"retry\0", stops(true)).binary);
        assert!(!count_bytes(&m, b"retry\0", stops(false)).binary);
    }

    #[test]
    fn a_nul_byte_stops_the_count() {
        let found = counts("retry", b"retry\nretry\0retry", 4);
        assert!(found.binary);
        let m = TermMatcher::new(&analyze("retry").terms).unwrap();
        let text = count_reader(&mut &b"retry\0retry"[..], &m, stops(false), CHUNK).unwrap();
        assert!(!text.binary);
        assert_eq!(text.counts.iter().sum::<u32>(), 2);
    }

    /// A UTF-16 byte-order mark stops the count at once, with or without
    /// binary detection, in memory or streamed: the caller decodes the file.
    #[test]
    fn a_utf16_mark_is_left_to_the_caller() {
        let m = TermMatcher::new(&analyze("retry").terms).unwrap();
        let text = b"\xFF\xFEr\0e\0t\0r\0y\0";
        for detect_binary in [true, false] {
            let streamed = count_reader(&mut &text[..], &m, stops(detect_binary), CHUNK).unwrap();
            assert!(streamed.utf16 && !streamed.binary);
            assert_eq!(streamed.counts, [0]);
            assert!(count_bytes(&m, text, stops(detect_binary)).utf16);
        }
        // `-E none`: raw bytes, a NUL makes them binary.
        let raw = Stops {
            binary: true,
            utf16: false,
        };
        let counted = count_reader(&mut &text[..], &m, raw, CHUNK).unwrap();
        assert!(counted.binary && !counted.utf16);
        assert!(count_bytes(&m, text, raw).binary);
        assert!(!counts("retry", b"\xEF\xBB\xBFretry", CHUNK).utf16);
    }

    /// Pieces a code text is made of, word parts and separators of every kind.
    const PIECES: &[&str] = &[
        "retry", "Retry", "RETRIES", "timeout", "Timeouts", "re", "try", "max", "_", " ", "\n",
        "(", "2", "\u{e9}", "\u{2014}", "\t", "x",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Cut anywhere the reader may cut, a text counts as it does whole.
        #[test]
        fn counts_do_not_depend_on_the_chunk_size(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..60),
            chunk in 1usize..40,
        ) {
            let text: String = pieces.iter().map(|&p| PIECES[p]).collect();
            let m = TermMatcher::new(&analyze("retry timeout max_retry").terms).unwrap();
            let mut whole = vec![0; m.term_count()];
            count_into(&mut whole, &m, text.as_bytes());
            let counted = count_reader(&mut text.as_bytes(), &m, stops(true), chunk).unwrap();
            proptest::prop_assert_eq!(counted.counts, whole);
            proptest::prop_assert_eq!(counted.bytes, text.len());
        }
    }

    #[test]
    fn cuts_fall_after_ascii_separators_only() {
        assert_eq!(safe_cut(b"ab cd"), Some(3));
        assert_eq!(safe_cut(b"abcd"), None);
        assert_eq!(safe_cut(b"a\xc3\xa9b"), None);
        assert_eq!(safe_cut(b"a_b"), None, "inside an identifier");
        assert_eq!(safe_cut(b"a_b c::d"), Some(4));
    }
}
