//! `--json`: JSON Lines, a strict superset of `rg --json`, so a consumer of
//! ripgrep's output reads kgrep's unchanged.
//!
//! ripgrep's messages, with its field names, nesting and order
//! (`crates/printer/src/json.rs` and `jsont.rs` in ripgrep; the summary is
//! `print_stats` in `crates/core/main.rs`, whose keys come out sorted):
//!
//! ```text
//! {"type":"begin","data":{"path":P}}
//! {"type":"match","data":{"path":P,"lines":D,"line_number":N,"absolute_offset":N,
//!                         "submatches":[{"match":D,"start":N,"end":N}…],"kgrep":{…}}}
//! {"type":"context","data":{"path":P,"lines":D,"line_number":N,"absolute_offset":N,"submatches":[]}}
//! (`"line_number":null` in both with `-N`, as rg's)
//! {"type":"end","data":{"path":P,"binary_offset":null,"stats":STATS}}   (N with --binary)
//! {"data":{"elapsed_total":DUR,"kgrep":{…},"stats":STATS},"type":"summary"}
//! ```
//!
//! `P` and `D` are `{"text":…}` for valid UTF-8 and `{"bytes":<base64>}`
//! otherwise; `lines` includes its `\n`; offsets are bytes (`start`/`end` into
//! `lines`, `absolute_offset` into the file). `begin`/`end` frame only
//! files that print a line; the `summary` is always written, and its `stats`
//! add up the `end` messages (ripgrep's rule). kgrep's additions live only
//! under `data.kgrep` ([`kgrep`]) and in message types of its own, written
//! before the summary: `{"type":"answer","data":{…}}`,
//! `{"type":"signature","data":{…}}` and, with `--dry-run`,
//! `{"type":"request","data":{…}}`.
//!
//! Where kgrep differs from rg for the same search, by design: lines are
//! kgrep's decoded text (a file's CRLF reads as LF and invalid UTF-8 as U+FFFD,
//! as rlmgrep reads files; piped stdin is raw), so `lines`, `submatches`'
//! offsets and `bytes_searched` refer to that text (`absolute_offset` is
//! the line's in the file, as rg's: [`crate::document::offsets`]); the empty "line" after a final newline
//! (which the grep-style output can show as context) is never a message;
//! `elapsed` of a file is the time spent re-reading and printing it, since the
//! search itself ran earlier for all files at once. On a terminal (caller's
//! choice, [`JsonPrinter::escape_controls`]) DEL, C1 controls and hidden
//! format characters (bidi controls, U+2028, …) are written as `\u` escapes
//! too, so no file text reaches the terminal raw. Text a model wrote — the
//! `answer` and `signature` messages, the summary's learned concepts — is
//! escaped so on a pipe as well: it is not a file's bytes to keep, and a
//! pipe often ends in a terminal (the JSON still means the same).
//!
//! The printer decides nothing: which lines match, their spans and their
//! `data.kgrep` come from the caller; which lines print (context, `-m`,
//! `--passthru`) is [`super::context`]'s rule, the same as the grep-style
//! output's.

pub mod kgrep;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;
use std::time::Duration;

use base64::Engine;
use serde::{Serialize, Serializer};

use super::context::{context_groups, selected_lines, whole_file};
use crate::document::binary::Noticed;
use crate::document::Document;
use crate::python::json::escape_terminal_unsafe;
use kgrep::{Answer, LineInfo, Request, RunInfo, SignatureOutput};

/// Options of one `--json` rendering (the same as the grep printer's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonOptions {
    /// Context lines before each match.
    pub before: usize,
    /// Context lines after each match.
    pub after: usize,
    /// Keep only the N lowest match lines of each file.
    pub max_count: Option<usize>,
    /// `-N`: every line's `line_number` is `null`, as `rg --json -N` writes it.
    pub no_line_numbers: bool,
    /// `--passthru`: every line of each file is a message (a file with no
    /// match too), the others as `context`, as `rg --passthru --json` writes
    /// them; with `max_count`, a file ends at its last match kept.
    pub passthru: bool,
}

/// One file's results, as the caller found them.
#[derive(Clone, Debug)]
pub struct JsonFile<'a> {
    /// The searched text.
    pub doc: &'a Document,
    /// The file name to print, as raw bytes (not UTF-8 for some file names).
    pub path: Cow<'a, [u8]>,
    /// The match lines; sorted and capped here, out-of-range ones skipped.
    pub matches: Vec<MatchLine>,
    /// Time spent on this file, reported as `stats.elapsed` of its `end`.
    pub elapsed: Duration,
    /// The matches are `-U` runs of lines (`report::match_messages`):
    /// `-m N` keeps the first N, as rg's does.
    pub runs: bool,
    /// The submatches of context lines, by line number: `--invert-match`'s
    /// context lines hold the pattern, and rg reports its matches in them
    /// (other context lines have none, and need no entry).
    pub context_submatches: BTreeMap<usize, Vec<Range<usize>>>,
}

/// One match line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchLine {
    /// 1-based line number.
    pub number: usize,
    /// How many lines the message holds from `number` on: more than one for
    /// a run of lines that `-U` matches span (rg writes one message for
    /// it, and counts each of its lines as matched).
    pub lines: usize,
    /// Matched byte ranges within the line (within the run's text, for
    /// more than one), in order. Ranges out of order or out of it are
    /// dropped.
    pub submatches: Vec<Range<usize>>,
    /// `data.kgrep`; the key is left out when `None`.
    pub kgrep: Option<LineInfo>,
}

/// Writes `--json` messages and keeps the totals for the summary.
pub struct JsonPrinter<W> {
    out: W,
    totals: Stats,
    escape_controls: bool,
    silent: bool,
}

impl<W: Write> JsonPrinter<W> {
    pub fn new(out: W) -> JsonPrinter<W> {
        JsonPrinter {
            out,
            totals: Stats::default(),
            escape_controls: false,
            silent: false,
        }
    }

    /// Write no `begin`, `match`, `context` or `end` message, only count
    /// what they hold (`-q --json`, whose `--stats` summary counts the
    /// matches and no bytes printed, as rg's).
    pub fn silent(mut self, yes: bool) -> JsonPrinter<W> {
        self.silent = yes;
        self
    }

    /// Also write DEL and the C1 controls as `\u` escapes, for a terminal:
    /// serde_json escapes only the C0 controls, and a terminal may act on the
    /// others. The JSON means the same; only its bytes differ from ripgrep's.
    pub fn escape_controls(mut self, yes: bool) -> JsonPrinter<W> {
        self.escape_controls = yes;
        self
    }

    /// Writes one file's `begin`, `match`/`context` and `end` messages (nothing
    /// when no match line survives `-m`). Returns the match lines written.
    pub fn file(&mut self, file: &JsonFile<'_>, opts: &JsonOptions) -> io::Result<usize> {
        let doc = file.doc;
        let lines: Vec<&[u8]> = doc.lines().collect();
        // Every line a message holds is a match line (`-U` runs hold more
        // than one), for `-m` and the context around it.
        let mut messages: Vec<&MatchLine> = file.matches.iter().collect();
        if file.runs {
            messages.sort_by_key(|m| m.number);
            messages.truncate(opts.max_count.unwrap_or(usize::MAX));
        }
        let numbers: Vec<usize> = messages
            .iter()
            .flat_map(|m| m.number..m.number + m.lines.max(1))
            .collect();
        let max_count = if file.runs { None } else { opts.max_count };
        let selected = selected_lines(&numbers, lines.len(), max_count);
        let groups = if opts.passthru {
            let found = if file.runs {
                file.matches.len()
            } else {
                selected_lines(&numbers, lines.len(), None).len()
            };
            whole_file(doc, found, &selected, opts.max_count)
        } else {
            context_groups(&selected, opts.before, opts.after, lines.len())
        };
        if groups.is_empty() {
            return Ok(0);
        }
        let found: BTreeMap<usize, &MatchLine> =
            file.matches.iter().map(|m| (m.number, m)).collect();
        let path = Data::from_bytes(&file.path);
        let mut stats = Stats {
            elapsed: file.elapsed,
            searches: 1,
            searches_with_match: u64::from(!selected.is_empty()),
            bytes_searched: doc.text.len() as u64,
            ..Stats::default()
        };
        stats.bytes_printed += self.message(&Message::Begin(Begin { path: path.clone() }))?;
        let starts = doc.line_starts();
        // The lines a message of a run of lines (`-U`) already wrote.
        let mut written_to = 0;
        // A binary file's NUL, as rg's search notices it (`--binary`): the
        // JSON printer is not stopped by it, but reports it.
        let mut binary_offset = match doc.binary {
            Some(Noticed::Before { offset, .. }) => Some(offset),
            Some(Noticed::InLine) | None => None,
        };
        for (first, last) in groups {
            for number in first..=last {
                if is_phantom_line(doc, number, lines.len()) || number <= written_to {
                    continue;
                }
                let is_match = selected.binary_search(&number).is_ok();
                let mine = is_match.then(|| found.get(&number).copied()).flatten();
                let count = mine.map_or(1, |m| m.lines.max(1));
                let text = lines_with_terminator(doc, &starts, number, count);
                let offset = doc.raw_offset(starts[number - 1]);
                if doc.binary == Some(Noticed::InLine) && binary_offset.is_none() {
                    binary_offset =
                        memchr::memchr(0, text).map(|i| doc.raw_offset(starts[number - 1] + i));
                }
                let shown = (!opts.no_line_numbers).then_some(number);
                let context = (!is_match).then(|| file.context_submatches.get(&number));
                let spans = match (mine, context.flatten()) {
                    (Some(m), _) => &m.submatches[..],
                    (None, Some(spans)) => &spans[..],
                    (None, None) => &[],
                };
                let line = Line::new(&path, text, shown, offset, spans, mine);
                if is_match {
                    stats.matched_lines += count as u64;
                    stats.matches += line.submatches.len() as u64;
                }
                written_to = number + count - 1;
                let msg = if is_match {
                    Message::Match(line)
                } else {
                    Message::Context(line)
                };
                stats.bytes_printed += self.message(&msg)?;
            }
        }
        let end = End {
            path,
            binary_offset,
            stats: stats.clone(),
        };
        self.message(&Message::End(end))?;
        let printed = stats.matched_lines as usize;
        self.totals.add(&stats);
        Ok(printed)
    }

    /// Writes an `answer` message, escaped as for a terminal wherever it
    /// goes (model text).
    pub fn answer(&mut self, answer: &Answer) -> io::Result<()> {
        write_line(&mut self.out, &Message::Answer(answer), true).map(drop)
    }

    /// Writes a `signature` message, escaped as for a terminal wherever it
    /// goes (model text).
    pub fn signature(&mut self, output: &SignatureOutput) -> io::Result<()> {
        write_line(&mut self.out, &Message::Signature(output), true).map(drop)
    }

    /// Writes a `request` message (`--dry-run`).
    pub fn request(&mut self, request: &Request) -> io::Result<()> {
        self.message(&Message::Request(request)).map(drop)
    }

    /// Writes the final `summary`: wall time since the run started, the totals
    /// of every `end` so far, and kgrep's run information. Escaped as for a
    /// terminal wherever it goes: it may name concepts a model taught.
    pub fn summary(&mut self, elapsed_total: Duration, run: Option<&RunInfo>) -> io::Result<()> {
        let summary = Summary {
            data: SummaryData {
                elapsed_total: SortedDuration(elapsed_total),
                kgrep: run,
                stats: SortedStats(&self.totals),
            },
            kind: "summary",
        };
        write_line(&mut self.out, &summary, true).map(drop)
    }

    /// The writer back, for the caller to flush.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn message(&mut self, msg: &Message<'_>) -> io::Result<u64> {
        if self.silent {
            return Ok(0);
        }
        write_line(&mut self.out, msg, self.escape_controls)
    }
}

/// One JSON value and a newline; returns the bytes written.
fn write_line(
    out: &mut impl Write,
    value: &impl Serialize,
    escape_controls: bool,
) -> io::Result<u64> {
    let mut buf = Vec::new();
    if escape_controls {
        let mut ser = serde_json::Serializer::with_formatter(&mut buf, TerminalSafe);
        value.serialize(&mut ser).map_err(io::Error::other)?;
    } else {
        serde_json::to_writer(&mut buf, value).map_err(io::Error::other)?;
    }
    buf.push(b'\n');
    out.write_all(&buf)?;
    Ok(buf.len() as u64)
}

/// serde_json's compact format, with DEL and C1 controls escaped too (as
/// [`crate::python::json::escape_terminal_unsafe`] escapes them), and the
/// hidden format characters with them.
struct TerminalSafe;

impl serde_json::ser::Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        w.write_all(escape_terminal_unsafe(fragment).as_bytes())
    }
}

/// The empty "line" after a text's final `\n`: rlmgrep counts it, ripgrep
/// never reports it, and `--json` follows ripgrep.
fn is_phantom_line(doc: &Document, number: usize, line_count: usize) -> bool {
    number == line_count && line_count > 1 && doc.text.last() == Some(&doc.terminator)
}

/// `count` lines from line `number` (1-based) on, with their `\n`, as
/// ripgrep reports `lines`.
fn lines_with_terminator<'d>(
    doc: &'d Document,
    starts: &[usize],
    number: usize,
    count: usize,
) -> &'d [u8] {
    let start = starts[number - 1];
    let end = starts
        .get(number + count - 1)
        .copied()
        .unwrap_or(doc.text.len());
    &doc.text[start..end]
}

/// ripgrep's "arbitrary data": `{"text":…}` for UTF-8, else `{"bytes":base64}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Data<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
}

impl<'a> Data<'a> {
    pub fn from_bytes(bytes: &'a [u8]) -> Data<'a> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Data::Text(text),
            Err(_) => Data::Bytes(bytes),
        }
    }
}

impl Serialize for Data<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = s.serialize_struct("Data", 1)?;
        match self {
            Data::Text(text) => state.serialize_field("text", text)?,
            Data::Bytes(bytes) => state.serialize_field(
                "bytes",
                &base64::engine::general_purpose::STANDARD.encode(bytes),
            )?,
        }
        state.end()
    }
}

/// The envelope of every message but the summary: `{"type":…,"data":…}`.
#[derive(Serialize)]
#[serde(tag = "type", content = "data", rename_all = "lowercase")]
enum Message<'a> {
    Begin(Begin<'a>),
    End(End<'a>),
    Match(Line<'a>),
    Context(Line<'a>),
    Answer(&'a Answer),
    Signature(&'a SignatureOutput),
    Request(&'a Request),
}

#[derive(Serialize)]
struct Begin<'a> {
    path: Data<'a>,
}

#[derive(Serialize)]
struct End<'a> {
    path: Data<'a>,
    /// Where rg notices a binary file's NUL byte (`--binary`: see
    /// `document::binary`); `null` for any other file (binary files are
    /// otherwise skipped, or searched whole as text with `-a`).
    binary_offset: Option<u64>,
    stats: Stats,
}

/// A `match` or `context` message.
#[derive(Serialize)]
struct Line<'a> {
    path: Data<'a>,
    lines: Data<'a>,
    /// `null` with `-N`, as rg's.
    line_number: Option<u64>,
    absolute_offset: u64,
    submatches: Vec<SubMatch<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kgrep: Option<&'a LineInfo>,
}

impl<'a> Line<'a> {
    fn new(
        path: &Data<'a>,
        text: &'a [u8],
        number: Option<usize>,
        offset: u64,
        spans: &[Range<usize>],
        found: Option<&'a MatchLine>,
    ) -> Line<'a> {
        // A `-U` match may hold the last `\n` (`foo\n`), as rg reports it.
        let submatches = valid_spans(spans, text.len());
        Line {
            path: path.clone(),
            lines: Data::from_bytes(text),
            line_number: number.map(|n| n as u64),
            absolute_offset: offset,
            submatches: submatches
                .into_iter()
                .map(|r| SubMatch {
                    m: Data::from_bytes(&text[r.clone()]),
                    start: r.start,
                    end: r.end,
                })
                .collect(),
            kgrep: found.and_then(|m| m.kgrep.as_ref()),
        }
    }
}

/// Spans in order, non-overlapping, inside a line of `len` bytes.
fn valid_spans(spans: &[Range<usize>], len: usize) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for span in spans {
        let after_previous = match out.last() {
            Some(previous) => span.start >= previous.end,
            None => true,
        };
        if after_previous && span.start <= span.end && span.end <= len {
            out.push(span.clone());
        }
    }
    out
}

#[derive(Serialize)]
struct SubMatch<'a> {
    #[serde(rename = "match")]
    m: Data<'a>,
    start: usize,
    end: usize,
}

/// ripgrep's per-file statistics (and, summed, the summary's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub elapsed: Duration,
    pub searches: u64,
    pub searches_with_match: u64,
    pub bytes_searched: u64,
    pub bytes_printed: u64,
    pub matched_lines: u64,
    pub matches: u64,
}

impl Stats {
    fn add(&mut self, other: &Stats) {
        self.elapsed += other.elapsed;
        self.searches += other.searches;
        self.searches_with_match += other.searches_with_match;
        self.bytes_searched += other.bytes_searched;
        self.bytes_printed += other.bytes_printed;
        self.matched_lines += other.matched_lines;
        self.matches += other.matches;
    }
}

/// ripgrep's human-readable duration: seconds with six decimals.
fn human(d: Duration) -> String {
    format!("{:0.6}s", d.as_secs_f64())
}

/// `end` stats, in ripgrep's field order.
impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = s.serialize_struct("Stats", 7)?;
        state.serialize_field("elapsed", &InOrderDuration(self.elapsed))?;
        state.serialize_field("searches", &self.searches)?;
        state.serialize_field("searches_with_match", &self.searches_with_match)?;
        state.serialize_field("bytes_searched", &self.bytes_searched)?;
        state.serialize_field("bytes_printed", &self.bytes_printed)?;
        state.serialize_field("matched_lines", &self.matched_lines)?;
        state.serialize_field("matches", &self.matches)?;
        state.end()
    }
}

/// A duration in `end` stats: `secs`, `nanos`, `human`.
struct InOrderDuration(Duration);

impl Serialize for InOrderDuration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = s.serialize_struct("Duration", 3)?;
        state.serialize_field("secs", &self.0.as_secs())?;
        state.serialize_field("nanos", &self.0.subsec_nanos())?;
        state.serialize_field("human", &human(self.0))?;
        state.end()
    }
}

/// A duration in the summary, whose keys ripgrep writes sorted.
struct SortedDuration(Duration);

impl Serialize for SortedDuration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = s.serialize_struct("Duration", 3)?;
        state.serialize_field("human", &human(self.0))?;
        state.serialize_field("nanos", &self.0.subsec_nanos())?;
        state.serialize_field("secs", &self.0.as_secs())?;
        state.end()
    }
}

/// The summary's stats, keys sorted as ripgrep writes them.
struct SortedStats<'a>(&'a Stats);

impl Serialize for SortedStats<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let st = self.0;
        let mut state = s.serialize_struct("Stats", 7)?;
        state.serialize_field("bytes_printed", &st.bytes_printed)?;
        state.serialize_field("bytes_searched", &st.bytes_searched)?;
        state.serialize_field("elapsed", &SortedDuration(st.elapsed))?;
        state.serialize_field("matched_lines", &st.matched_lines)?;
        state.serialize_field("matches", &st.matches)?;
        state.serialize_field("searches", &st.searches)?;
        state.serialize_field("searches_with_match", &st.searches_with_match)?;
        state.end()
    }
}

/// `{"data":{…},"type":"summary"}`: sorted keys, as ripgrep prints it.
#[derive(Serialize)]
struct Summary<'a> {
    data: SummaryData<'a>,
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Serialize)]
struct SummaryData<'a> {
    elapsed_total: SortedDuration,
    #[serde(skip_serializing_if = "Option::is_none")]
    kgrep: Option<&'a RunInfo>,
    stats: SortedStats<'a>,
}
