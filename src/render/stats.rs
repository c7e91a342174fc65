//! `--stats`: ripgrep's statistics block after the results, as `rg --stats`
//! writes it (not for `--json`, whose summary message carries the same).
//!
//! Owns the block's wording and layout. Does not count: the caller gives the
//! numbers (what printed, from the printers' own rules; what was searched,
//! from the search's load statistics; the time since the run started).

use std::io::{self, Write};
use std::time::Duration;

/// What a run printed and searched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// The matched parts of the printed match lines (what `-o` prints).
    pub matches: usize,
    /// The printed match lines.
    pub matched_lines: usize,
    /// The files with a printed match line.
    pub files_matched: usize,
    /// The files read as text.
    pub files_searched: usize,
    /// The bytes of the results written to stdout, before this block.
    pub bytes_printed: usize,
    /// The bytes of the files read as text.
    pub bytes_searched: u64,
    /// From the start of the run to its results.
    pub searching: Duration,
    /// From the start of the run to this block.
    pub total: Duration,
}

/// Writes `stats` as ripgrep does: an empty line, then one count a line.
pub fn write_stats(out: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    write!(
        out,
        "\n{} matches\n{} matched lines\n{} files contained matches\n{} files searched\n\
         {} bytes printed\n{} bytes searched\n{:.6} seconds spent searching\n{:.6} seconds\n",
        stats.matches,
        stats.matched_lines,
        stats.files_matched,
        stats.files_searched,
        stats.bytes_printed,
        stats.bytes_searched,
        stats.searching.as_secs_f64(),
        stats.total.as_secs_f64(),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_ripgreps() {
        let stats = Stats {
            matches: 3,
            matched_lines: 2,
            files_matched: 1,
            files_searched: 2,
            bytes_printed: 24,
            bytes_searched: 35,
            searching: Duration::from_micros(5239),
            total: Duration::from_micros(8837),
        };
        let mut out = Vec::new();
        write_stats(&mut out, &stats).unwrap();
        // `rg --stats retry` on the same two files, its times aside.
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\n3 matches\n2 matched lines\n1 files contained matches\n2 files searched\n\
             24 bytes printed\n35 bytes searched\n0.005239 seconds spent searching\n\
             0.008837 seconds\n"
        );
    }
}
