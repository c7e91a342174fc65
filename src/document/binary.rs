//! rg 13's rule for a file that holds a NUL byte when binary files are
//! searched (`--binary`, `-uuu`): where rg notices the NUL, which decides
//! where its printer stops.
//!
//! rg reads a file one of two ways, and each notices a NUL elsewhere:
//! - as a stream, through a 64 KiB buffer it refills (a file found while
//!   walking, piped stdin, `--no-mmap`): every NUL it reads becomes a line
//!   end, so the lines around one are counted apart (`-c`, `--json`), and it
//!   notices the first NUL when it fills its buffer with it. The lines of the
//!   buffers before are searched as text; from the first line of that buffer
//!   on, the printer stops at the first line it is handed. Where the
//!   buffers end is grep-searcher's business (its first read takes three
//!   bytes, to look for a byte-order mark), so [`noticed`] asks grep-searcher
//!   itself, the crate rg 13 searches with.
//! - through a memory map (a file named on the command line with at most
//!   nine others, `--mmap`), or read whole (`-U`): NULs stay bytes of their
//!   line; a NUL in the first 64 KiB is noticed before any line is searched,
//!   one further in only when a line the printer is handed holds it.
//!
//! Once it noticed a NUL, rg's printer stops at the next line it would print
//! (a match or a context line), and if the file matched (that line counts
//! when it is a match) it prints `PATH: binary file matches (found "\0" byte
//! around offset N)` in place of the rest. `-c`, `-l`, `-q` and `--json`
//! are not stopped: they count every match.
//!
//! Owns that rule as a value, [`Noticed`], made when a file is read
//! ([`noticed`], with its text as rg reads it: [`as_read`]). Does not own
//! which files are searched so (`super::ReadOptions::binary`) or printing
//! (`render::grep` applies the stop and prints the message).

use grep_matcher::{Match, Matcher, NoCaptures, NoError};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};

/// How far into a memory-mapped file rg looks for a NUL before it searches
/// a line: grep-searcher's buffer size (`DEFAULT_BUFFER_CAPACITY`), which
/// its slice search checks up front.
pub const MAP_SNIFF_BYTES: usize = 64 * 1024;

/// How rg 13 reads a file it searches (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Through a buffer it refills: NULs become line ends.
    Stream,
    /// Whole, through a memory map (or a `-U` read): NULs stay.
    Map,
}

/// Where rg notices a file's NUL byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Noticed {
    /// Before it reads the line `line` (1: before any line), the NUL at
    /// byte `offset` of the file.
    Before { line: usize, offset: u64 },
    /// At the first line handed to its printer that holds a NUL (a memory
    /// map, the first NUL past [`MAP_SNIFF_BYTES`]); the offset is of that
    /// line's first NUL.
    InLine,
}

impl Noticed {
    /// Whether the printer stops at the line `number`, which it is handed
    /// after the lines before it, holding `text` (rg's stop, above).
    pub fn stops_at(self, number: usize, text: &[u8]) -> bool {
        match self {
            Noticed::Before { line, .. } => number >= line,
            Noticed::InLine => memchr::memchr(0, text).is_some(),
        }
    }
}

/// `bytes` (a file holding a NUL, as read and decoded) as rg's search reads
/// it: as a stream, each NUL a line end; whole, as it is.
pub fn as_read(mut bytes: Vec<u8>, reading: Reading) -> Vec<u8> {
    if reading == Reading::Stream {
        for byte in bytes.iter_mut().filter(|b| **b == 0) {
            *byte = b'\n';
        }
    }
    bytes
}

/// Where rg notices the first NUL of `bytes` (a file as read and decoded,
/// before [`as_read`]); `None` when it holds none. `universal`: kgrep reads
/// a lone `\r` and a `\r\n` as one line end each (a file; not piped stdin),
/// so a line's number counts them.
pub fn noticed(bytes: &[u8], reading: Reading, universal: bool) -> Option<Noticed> {
    let first = memchr::memchr(0, bytes)?;
    match reading {
        Reading::Map if first < MAP_SNIFF_BYTES => Some(Noticed::Before {
            line: 1,
            offset: first as u64,
        }),
        Reading::Map => Some(Noticed::InLine),
        Reading::Stream => {
            let (boundary, offset) = stream_boundary(bytes).unwrap_or((0, first as u64));
            let before = bytes.get(..boundary).unwrap_or_default();
            Some(Noticed::Before {
                line: line_ends(before, universal) + 1,
                offset,
            })
        }
    }
}

/// Where grep-searcher's stream search of `bytes` had got to when it
/// noticed binary data (the end of the last line it searched before), and
/// the NUL's offset it reports.
fn stream_boundary(bytes: &[u8]) -> Option<(usize, u64)> {
    let mut sink = Boundary::default();
    // Every line is handed to the sink as context (passthru), matching
    // nothing; the buffers are refilled as rg's are (grep-searcher's default
    // buffer, byte-order-mark sniffing on).
    let mut searcher = SearcherBuilder::new()
        .binary_detection(BinaryDetection::convert(0))
        .passthru(true)
        .line_number(false)
        .build();
    searcher.search_reader(Nothing, bytes, &mut sink).ok()?;
    let offset = sink.noticed?;
    Some((usize::try_from(sink.searched).ok()?, offset))
}

/// The line ends in `text`: each `\n`, and with `universal` each lone `\r`.
fn line_ends(text: &[u8], universal: bool) -> usize {
    if !universal {
        return memchr::memchr_iter(b'\n', text).count();
    }
    let lone_cr = memchr::memchr_iter(b'\r', text)
        .filter(|&i| text.get(i + 1) != Some(&b'\n'))
        .count();
    memchr::memchr_iter(b'\n', text).count() + lone_cr
}

/// A matcher that never matches: [`stream_boundary`] wants every line
/// handed over as context.
#[derive(Clone, Copy, Debug)]
struct Nothing;

impl Matcher for Nothing {
    type Captures = NoCaptures;
    type Error = NoError;

    fn find_at(&self, _haystack: &[u8], _at: usize) -> Result<Option<Match>, NoError> {
        Ok(None)
    }

    fn new_captures(&self) -> Result<NoCaptures, NoError> {
        Ok(NoCaptures::new())
    }
}

/// Records how far a search got before it noticed binary data, then stops it.
#[derive(Debug, Default)]
struct Boundary {
    /// The end of the last line handed over, as a byte offset.
    searched: u64,
    /// The NUL's offset, once noticed.
    noticed: Option<u64>,
}

impl Sink for Boundary {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, _: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, line: &SinkContext<'_>) -> Result<bool, std::io::Error> {
        self.searched = line.absolute_byte_offset() + line.bytes().len() as u64;
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, offset: u64) -> Result<bool, std::io::Error> {
        self.noticed = Some(offset);
        Ok(false)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_notices_a_nul_at_the_buffer_that_holds_it() {
        // grep-searcher's first read takes three bytes: `a\nf` holds a line
        // end, so line 1 is searched before the NUL is read (`rg --no-mmap`
        // prints `1:a`, then the message).
        assert_eq!(
            noticed(b"a\nfoo a\0bar a\n", Reading::Stream, true),
            Some(Noticed::Before { line: 2, offset: 7 })
        );
        // `aaa` holds none: the first buffer holds the NUL.
        assert_eq!(
            noticed(b"aaa\nfoo a\0bar\n", Reading::Stream, true),
            Some(Noticed::Before { line: 1, offset: 9 })
        );
        assert_eq!(noticed(b"no nul\n", Reading::Stream, true), None);
    }

    #[test]
    fn a_stream_searches_the_buffers_before_a_late_nul() {
        let mut bytes = b"foo early\n".to_vec();
        for _ in 0..1000 {
            bytes.extend_from_slice(&[b'y'; 99]);
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"nul\0 here\n");
        let Some(Noticed::Before { line, offset }) = noticed(&bytes, Reading::Stream, true) else {
            panic!("a NUL");
        };
        assert_eq!(offset, 100_013);
        // The first buffer's lines (64 KiB of them) were searched.
        assert!(line > 600 && line < 1000, "{line}");
    }

    #[test]
    fn a_map_notices_an_early_nul_before_any_line_and_a_late_one_in_its_line() {
        assert_eq!(
            noticed(b"a\nfoo a\0bar a\n", Reading::Map, true),
            Some(Noticed::Before { line: 1, offset: 7 })
        );
        let mut late = vec![b'x'; MAP_SNIFF_BYTES];
        late.extend_from_slice(b"\n\0\n");
        assert_eq!(noticed(&late, Reading::Map, true), Some(Noticed::InLine));
        assert!(Noticed::InLine.stops_at(3, b"a\0"));
        assert!(!Noticed::InLine.stops_at(3, b"a"));
    }

    #[test]
    fn line_numbers_count_line_ends_as_kgrep_reads_them() {
        assert_eq!(line_ends(b"a\r\nb\rc\n", true), 3);
        assert_eq!(line_ends(b"a\r\nb\rc\n", false), 2);
    }

    #[test]
    fn a_stream_reads_each_nul_as_a_line_end() {
        assert_eq!(as_read(b"a\0b\0".to_vec(), Reading::Stream), b"a\nb\n");
        assert_eq!(as_read(b"a\0b".to_vec(), Reading::Map), b"a\0b");
    }
}
