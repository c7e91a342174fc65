//! rlmgrep's grep-style printer, byte for byte; and ripgrep's `-l`/`-c`
//! lists of the same files ([`write_list`]).
//!
//! The contract is `rlmgrep-contract/README.md`, "What the goldens show":
//!
//! ```text
//! ./src/app.py          heading: "./" + key, unless the key starts with "." or "/"
//! 4-<TAB>               context line  N-<TAB>text
//! 5:<TAB>DEFAULT_PORT…  match line    N:<TAB>text   (+ <TAB>page=N for PDFs)
//! --                    between disjoint groups of one file
//!                       empty line between files
//! ```
//!
//! Context ranges merge when they overlap or touch; without context there are
//! no `--` lines at all. `max_count` keeps the N lowest lines of each file, and
//! 0 leaves only the headings. File order is the caller's (rlmgrep sorts by key).
//! Which lines print is [`super::context`]'s rule, shared with `--json`.
//! Columns, `-o` parts and counts follow rg 13's printer: a match line it
//! finds no match in prints whole without a column
//! ([`FileResult::every_match`]), and `-U` runs of lines by its multi-line
//! rules ([`Block`]).
//!
//! On a pipe, line text is written as raw bytes (stdin may hold invalid UTF-8,
//! which must come back out unchanged). On a terminal the output is what rich
//! printed for rlmgrep: a cyan `===== Matches =====` header, magenta headings,
//! green line numbers, tabs expanded, the body stripped of trailing whitespace,
//! then an empty line; `No matches` stands in for an empty body. Terminal text
//! goes through [`super::sanitize`] first. rich also word-wraps lines longer
//! than the terminal; kgrep leaves that to the terminal (no golden covers it).
//!
//! Colour is ripgrep's palette: magenta paths, green line numbers, bold red
//! matched text (the byte spans the caller passes; rlmgrep had no match
//! highlighting, so without spans the terminal bytes are exactly rlmgrep's).
//! It applies wherever the caller turns it on, a pipe included
//! (`--color always`); the layout still follows `tty`. rlmgrep's layout
//! writes it as rich did; ripgrep's flat lines and lists as rg 13 does
//! ([`write_rg_painted`]). This module does not decide whether stdout is a
//! terminal or colour is wanted.
//!
//! A file searched as binary (`--binary`) stops where rg's printer stops,
//! with rg's `binary file matches` line in its place ([`super::binary`]);
//! with `--null-data` a NUL ends each printed line, as in rg.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;

use super::cells::{expand_tabs, str_width};
use super::context::{context_groups, last_line, selected_lines, whole_file};
use super::sanitize::sanitize;
use super::style::{paint, write_painted, write_rg_painted, Painter, Palette, CYAN};
use crate::document::Document;

/// Separator between disjoint context groups of one file, unless
/// `--context-separator` names another.
const GROUP_SEPARATOR: &[u8] = b"--";
/// Prefix rlmgrep puts before keys that are not already `.`- or `/`-rooted.
const HEADING_PREFIX: &str = "./";
/// Marker after a match line's fields (path, number, column, offset),
/// unless `--field-match-separator` names another.
const MATCH_MARK: &[u8] = b":";
/// Marker after a context line's fields, unless
/// `--field-context-separator` names another.
const CONTEXT_MARK: &[u8] = b"-";
/// First line of the terminal output.
const TTY_HEADER: &str = "===== Matches =====";
/// Terminal body when nothing was found.
const TTY_NO_MATCHES: &str = "No matches";

/// The frozen options of one grep-style rendering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrepOptions {
    /// Context lines before each match (`-B`, or `-C`).
    pub before: usize,
    /// Context lines after each match (`-A`, or `-C`).
    pub after: usize,
    /// Keep only the N lowest match lines of each file (`-m N`).
    pub max_count: Option<usize>,
    /// stdout is a terminal: rlmgrep's rich-rendered "Matches" section.
    pub tty: bool,
    /// Write ANSI colours (in either layout).
    pub color: bool,
    /// The colours of paths, line numbers, columns and matches (`--colors`).
    pub palette: Palette,
    /// Cut lines longer than this many bytes to a preview around their spans
    /// with `[... N bytes omitted]` markers ([`super::cut`]); `None` prints
    /// every line whole, byte for byte.
    pub long_lines: Option<usize>,
    /// `-o`: print each match line's spans, one part a line (`N:<TAB>part`;
    /// an empty match, of `^` or `x*`, is an empty part, as rg prints it), in
    /// place of the line; context lines stay whole, as ripgrep prints them.
    /// `-c` then counts the parts.
    pub only_matching: bool,
    /// `--no-heading` or `--vimgrep`: ripgrep's flat lines in place of
    /// rlmgrep's layout, on a pipe and a terminal alike.
    pub flat: Option<Flat>,
    /// `--trim`: leave out the ASCII whitespace a printed line (or its
    /// window) starts with, as `rg --trim` does.
    pub trim: bool,
    /// `-N`: no line numbers (and no tab after them), as `rg -N` prints.
    pub no_numbers: bool,
    /// `-I`: no file paths (no heading; no `PATH:` in flat lines), as
    /// `rg -I` prints.
    pub no_paths: bool,
    /// `--column`: a match line's first matched byte's column (1-based; 1
    /// when no span is known) after its number, as `rg --column` prints.
    pub column: bool,
    /// `-M NUM`: a line longer than NUM bytes prints as ripgrep's `[Omitted
    /// long matching line]` (or `context line`); with `--max-columns-preview`
    /// (`preview`), as its NUM-byte window around the match, with kgrep's
    /// `[... N bytes omitted]` markers. Replaces the natural-language cut.
    pub max_columns: Option<MaxColumns>,
    /// What parts two context groups: `--` by default.
    pub group_separator: GroupSeparator,
    /// `--passthru`: every line of each file prints, the match lines as `N:`
    /// and the rest as context (`-A`, `-B` and `-C` have nothing left to
    /// add); with `max_count`, a file ends at its last match printed.
    pub passthru: bool,
    /// `-b`: each line's byte offset in its file (a part's, with `-o`; each
    /// match's, with `--vimgrep`) after its number and column, as `rg -b`
    /// prints it ([`Document::raw_offset`]).
    pub byte_offset: bool,
    /// What follows each field of a match line and of a context line.
    pub fields: FieldSeparators,
    /// `--path-separator`: the byte printed for each `/` of a path.
    pub path_separator: Option<u8>,
    /// `-0`/`--null`: a listed path (`-l`, `-c`, `--files`) ends with a NUL
    /// byte instead of its line end or `:`, and a flat line's path instead
    /// of its mark, as rg's does, for `xargs -0`; rlmgrep's headings do not
    /// change.
    pub null: bool,
    /// `--null-data`: every line printed (a heading, a separator, a list's
    /// entry too) ends with a NUL byte in place of its `\n`, as rg's does;
    /// the blank line between files stays one.
    pub null_data: bool,
}

impl GrepOptions {
    /// What ends a printed line.
    fn line_end(&self) -> &'static [u8] {
        if self.null_data {
            b"\0"
        } else {
            b"\n"
        }
    }
}

/// `--field-match-separator` and `--field-context-separator`: the marks
/// after a line's path, number, column and offset (`:` and `-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSeparators {
    pub matched: Vec<u8>,
    pub context: Vec<u8>,
}

impl Default for FieldSeparators {
    fn default() -> FieldSeparators {
        FieldSeparators {
            matched: MATCH_MARK.to_vec(),
            context: CONTEXT_MARK.to_vec(),
        }
    }
}

impl FieldSeparators {
    fn mark(&self, is_match: bool) -> &[u8] {
        if is_match {
            &self.matched
        } else {
            &self.context
        }
    }
}

/// The line between two context groups (`--`, or `--context-separator`'s),
/// or none at all (`--no-context-separator`: not even an empty line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSeparator(pub Option<Vec<u8>>);

impl Default for GroupSeparator {
    fn default() -> GroupSeparator {
        GroupSeparator(Some(GROUP_SEPARATOR.to_vec()))
    }
}

/// `-M NUM` and whether `--max-columns-preview` was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxColumns {
    pub max: usize,
    pub preview: bool,
}

/// ripgrep's flat lines: `PATH:N:text` for a match, `PATH-N-text` for
/// context, `--` between groups (and between files when there is context);
/// no headings, no tab and no blank lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flat {
    /// `--vimgrep`: `PATH:N:COLUMN:text`, a match line once per match (its
    /// 1-based byte column; 1 when no span is known), as editors read it.
    pub columns: bool,
}

/// Byte ranges of matched text within a line (its `\n` excluded), by line number.
pub type Spans = BTreeMap<usize, Vec<Range<usize>>>;

/// One file to print and its verified match lines (1-based).
#[derive(Clone, Debug)]
pub struct FileResult<'a> {
    /// The loaded document the lines refer to.
    pub doc: &'a Document,
    /// The name its heading and lists print: the document's key, or, for a
    /// file whose name is not UTF-8, the name's real bytes (the caller's
    /// [`crate::walk::Haystack::name`]).
    pub name: Cow<'a, [u8]>,
    /// Match lines; sorted and de-duplicated here, out-of-range ones skipped.
    /// None, with `-o`: no line of the file has a part to print, and the
    /// file prints nothing, not even its heading.
    pub lines: Vec<usize>,
    /// Matched text to colour; empty when colour is off or nothing is known.
    /// For a replaced line, the replacements' places in its new text.
    pub spans: Spans,
    /// `--replace`: match lines printed with their matches replaced
    /// ([`super::replace`]), by line number; `-o` prints each replacement,
    /// an empty one too, as rg does.
    pub replaced: BTreeMap<usize, Vec<u8>>,
    /// The spans are every match rg's printer finds on each line (a literal
    /// or regex query's): a match line with none (its only match was the
    /// empty one at the end of a last line without a newline) prints as
    /// rg's does, whole and without a column, `-o` or not. Otherwise a line
    /// without spans has column 1.
    pub every_match: bool,
    /// With `-U` and a pattern that matches over lines: the runs of match
    /// lines, printed by rg's multi-line rules ([`Block`]).
    pub blocks: Option<Vec<Block>>,
}

impl<'a> FileResult<'a> {
    /// A file with match lines and no spans to colour.
    pub fn new(doc: &'a Document, lines: Vec<usize>) -> FileResult<'a> {
        FileResult {
            doc,
            name: Cow::Borrowed(doc.key.as_bytes()),
            lines,
            spans: Spans::new(),
            replaced: BTreeMap::new(),
            every_match: false,
            blocks: None,
        }
    }
}

/// A run of consecutive match lines that `-U` matches span, as rg 13's
/// searcher hands one to its printer, and the matches its printer finds in
/// it. rg prints such a run by its own rules, which this printer follows:
/// `-c` and `--count-matches` count its matches; `-o` prints the non-empty
/// part of each match on each line, with the column of the match's start
/// in the run (not in the line) and its offset; `--vimgrep` prints the line
/// each match starts on, once per match; `--column` gives every line the
/// column of the run's first match in the run. A run with no match (the
/// only one found was the empty match at the end of the text) prints its
/// lines whole, without a column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its first and last line numbers.
    pub first: usize,
    pub last: usize,
    /// From its first line's start to past its last line's `\n`, in the
    /// document's text.
    pub range: Range<usize>,
    /// Its matches, as text offsets, in order.
    pub matches: Vec<Range<usize>>,
}

impl Block {
    fn holds(&self, number: usize) -> bool {
        self.first <= number && number <= self.last
    }

    /// rg's `-o` parts on the line `line` (text offsets, its `\n`
    /// excluded): the non-empty pieces of the matches over it, each with
    /// its match's start.
    fn parts(&self, line: Range<usize>) -> Vec<(Range<usize>, usize)> {
        let mut parts = Vec::new();
        let mut at = line.start;
        let mut index = 0;
        while at < line.end {
            let Some(m) = self.matches.get(index) else {
                break;
            };
            if m.end <= at {
                index += 1;
            } else if at < m.start {
                at = line.end.min(m.start);
            } else {
                let upto = line.end.min(m.end);
                parts.push((at..upto, m.start));
                at = upto;
            }
        }
        parts
    }

    /// The matches `--vimgrep` prints on the line `line` (text offsets, its
    /// `\n` excluded): those that start on it, unless empty at its start
    /// (rg 13 prints no line for those).
    fn starting_on(&self, line: Range<usize>) -> impl Iterator<Item = &Range<usize>> {
        self.matches
            .iter()
            .filter(move |m| line.start <= m.start && m.start <= line.end && line.start < m.end)
    }
}

/// How a match line's matches are known, for its column and its
/// `--vimgrep` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known<'a> {
    /// Its spans, if any (natural language; column 1 without one).
    Spans,
    /// Its spans are every match on it ([`FileResult::every_match`]).
    Every,
    /// It is a line of a `-U` run.
    Run(&'a Block),
}

/// One printed line, before it is formatted for a pipe or a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row<'a> {
    Heading(&'a [u8]),
    Line {
        number: usize,
        is_match: bool,
        /// The text printed: the whole line, or its preview window.
        text: &'a [u8],
        /// Matched text, in bytes of the whole line.
        spans: &'a [Range<usize>],
        page: Option<u32>,
        /// Bytes of the line left out before and after `text` (marked).
        omitted: (usize, usize),
        /// Where `text` starts in the whole line: past the left-out bytes and
        /// the whitespace `--trim` took.
        start: usize,
        /// Where the line lies in its file, when what prints needs it.
        at: Option<LineAt<'a>>,
        /// How its matches are known.
        known: Known<'a>,
    },
    /// A line longer than `-M` allows, left out (`[Omitted long … line]`).
    Omitted {
        number: usize,
        is_match: bool,
        /// Matched text, in bytes of the line.
        spans: &'a [Range<usize>],
        /// How many matches it holds, as far as its spans say, when the
        /// printer finds them anyway (colour, columns, a replacement), as
        /// rg's then does.
        matches: Option<usize>,
        /// Where the line lies in its file, when what prints needs it.
        at: Option<LineAt<'a>>,
        /// How its matches are known.
        known: Known<'a>,
    },
    /// One matched part of a match line (`-o`), coloured whole.
    Part {
        number: usize,
        /// 1-based byte column of the part in its line.
        column: usize,
        text: &'a [u8],
        page: Option<u32>,
        /// `-b`: the part's byte offset.
        offset: Option<u64>,
        /// `-M`, which measures each part alone, as rg's does: `None` when
        /// the part is longer than NUM bytes, printed as rg's `[Omitted long
        /// matching line]`; else the bytes `--max-columns-preview`'s window
        /// left out before and after `text` (none: whole).
        cut: Option<(usize, usize)>,
    },
    GroupBreak,
    FileBreak,
    /// A file searched as binary stopped here ([`super::binary`]): `PATH:
    /// binary file matches (…)`, the NUL's offset.
    Binary {
        name: &'a [u8],
        offset: u64,
    },
}

impl Row<'_> {
    /// The line a row prints (of a line, an omitted line or a part).
    fn number(&self) -> Option<usize> {
        match *self {
            Row::Line { number, .. } | Row::Omitted { number, .. } | Row::Part { number, .. } => {
                Some(number)
            }
            _ => None,
        }
    }
}

/// A printed line's place in its file, where what prints says where in
/// the file's bytes, as rg counts them: `-b`'s offsets, `--column`'s and
/// `--vimgrep`'s columns, and the length `-M` measures. A line kgrep reads
/// as its file holds it (valid UTF-8, no `\r`) is where its text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LineAt<'a> {
    doc: &'a Document,
    /// The line's first byte in the document's text.
    start: usize,
    /// Its length there, without its `\n`.
    len: usize,
    /// `--replace` printed it replaced: its columns are of the new text,
    /// counted from the line's offset, as rg counts them.
    replaced: bool,
}

impl LineAt<'_> {
    /// The byte offset in the file of byte `column` (0-based) of the line.
    fn offset(self, column: usize) -> u64 {
        if self.replaced {
            self.doc.raw_offset(self.start) + column as u64
        } else {
            self.doc.raw_offset(self.start + column)
        }
    }

    /// The 1-based byte column in the file's line of byte `column` (0-based)
    /// of the text's.
    fn column(self, column: usize) -> usize {
        let bytes = self.offset(column).saturating_sub(self.offset(0));
        usize::try_from(bytes).map_or(column, |b| b) + 1
    }

    /// The bytes `-M` measures, as rg does: the line's in the file with its
    /// terminator (a CRLF's two); a replaced line's `printed` bytes and the
    /// `\r` of its CRLF, as rg replaces in the line without its `\n`.
    fn measured(self, printed: usize) -> u64 {
        let end = self.start + self.len;
        let terminator = if end < self.doc.text.len() {
            self.doc
                .raw_offset(end + 1)
                .saturating_sub(self.doc.raw_offset(end))
        } else {
            0
        };
        if self.replaced {
            printed as u64 + terminator.saturating_sub(1)
        } else {
            self.doc.raw_offset(end).saturating_sub(self.offset(0)) + terminator
        }
    }
}

/// Writes `files` grep-style and returns how many match lines were printed.
pub fn write_grep(
    out: &mut dyn Write,
    files: &[FileResult<'_>],
    opts: &GrepOptions,
) -> io::Result<usize> {
    let rows = layout(files, opts);
    // Match lines printed: each line row, or each line that printed parts
    // (a line's parts are consecutive rows); a binary file's message, which
    // prints only for a file that matched, counts as one.
    let mut last_part = None;
    let matches = rows
        .iter()
        .filter(|row| match **row {
            Row::Line { is_match, .. } | Row::Omitted { is_match, .. } => is_match,
            Row::Part { number, .. } => last_part.replace(number) != Some(number),
            Row::Binary { .. } => true,
            _ => false,
        })
        .count();
    if let Some(flat) = opts.flat {
        write_flat(out, &rows, opts, flat)?;
    } else if opts.tty {
        write_tty(out, &rows, opts)?;
    } else {
        write_plain(out, &rows, opts)?;
    }
    Ok(matches)
}

/// Writes `files` as `-l` (`counts` false) or `-c` (`counts` true) list
/// them, as ripgrep does: each file that has a match line left after
/// `max_count`, one per line, as its heading (`./src/app.py`), and with
/// `counts` a `:` and its number of match lines. No `Matches` section on a
/// terminal (a list of paths is for the next command), but the path is
/// sanitised there as a heading is. `zeros` (`-c --include-zero`): keys
/// with a count of 0, each written before the file at its index in `files`
/// (past the end: after them all). Returns how many match lines there are.
pub fn write_list(
    out: &mut dyn Write,
    files: &[FileResult<'_>],
    opts: &GrepOptions,
    counts: bool,
    zeros: &[(usize, &[u8])],
) -> io::Result<usize> {
    let mut total = 0;
    let mut zeros = zeros.iter().peekable();
    for (index, file) in files.iter().enumerate() {
        while let Some((_, name)) = zeros.next_if(|(place, _)| *place <= index) {
            write_listed(out, name, Some(0), opts)?;
        }
        // A file list is of files with a match line, `-o` or not (as `rg -l
        // -o`); the parts are counted for `-c` with `-o` or --count-matches,
        // and with `-U` over lines (rg counts the matches of its runs).
        let lines = match_count(file, opts.max_count);
        let matches = if counts && (opts.only_matching || file.blocks.is_some()) {
            part_count(file, opts.max_count)
        } else {
            lines
        };
        // A match line rg finds no match in (`$` at the end of a last line
        // without a newline) still lists its file, with `:0`, as rg's does;
        // a `-U` run is listed by its matches.
        let listed = if file.every_match && file.blocks.is_none() {
            lines
        } else {
            matches
        };
        if listed == 0 {
            continue;
        }
        total += lines;
        write_listed(out, &file.name, counts.then_some(matches), opts)?;
    }
    for (_, name) in zeros {
        write_listed(out, name, Some(0), opts)?;
    }
    Ok(total)
}

/// Writes the files a search would read (`--files`, `--files-without-match`),
/// one path a line, as [`write_list`] writes its paths; returns how many.
pub fn write_paths<'k>(
    out: &mut dyn Write,
    names: impl IntoIterator<Item = &'k [u8]>,
    opts: &GrepOptions,
) -> io::Result<usize> {
    let mut count = 0;
    for name in names {
        write_listed(out, name, None::<usize>, opts)?;
        count += 1;
    }
    Ok(count)
}

/// One line of a list: the path, and with `count` a `:` and the count. With
/// `-0` the NUL takes the place of the count's `:`, or of the line end when
/// there is no count; with `-I` a count is written alone, no path and no NUL
/// (`rg -I -c` prints `3`), while a path with no count is still written (`rg
/// -I -l` lists paths).
fn write_listed(
    out: &mut dyn Write,
    name: &[u8],
    count: Option<impl std::fmt::Display>,
    opts: &GrepOptions,
) -> io::Result<()> {
    match count {
        Some(count) if opts.no_paths => write!(out, "{count}")?,
        Some(count) => {
            write_path(out, name, opts)?;
            let sep = if opts.null { "\0" } else { ":" };
            write!(out, "{sep}{count}")?;
        }
        None => {
            write_path(out, name, opts)?;
            if opts.null {
                return out.write_all(b"\0");
            }
        }
    }
    out.write_all(opts.line_end())
}

/// A name as a list prints it: its heading, sanitised on a terminal,
/// coloured as a heading when asked; no line end.
fn write_path(out: &mut dyn Write, name: &[u8], opts: &GrepOptions) -> io::Result<()> {
    let path = printed_path(name, opts);
    write_rg_painted(out, &shown(&path, opts.tty), &opts.palette.path, opts.color)
}

/// A name's [`heading`] as the grep-style output prints it: each `/` as
/// `--path-separator`'s byte, when one is given (rg's rule; `--json` keeps
/// paths as they are, as rg's does).
fn printed_path(name: &[u8], opts: &GrepOptions) -> Vec<u8> {
    let mut path = heading(name);
    if let Some(separator) = opts.path_separator {
        for byte in path.iter_mut().filter(|b| **b == b'/') {
            *byte = separator;
        }
    }
    path
}

/// How many match lines of `file` print: its lines in range, each once, the
/// lowest `max_count`.
pub fn match_count(file: &FileResult<'_>, max_count: Option<usize>) -> usize {
    printed_lines(file, max_count).len()
}

/// The match lines of `file` that print: each once, in range, the lowest
/// `max_count`; with `-U` runs ([`Block`]), the lines of its first
/// `max_count` runs, as rg's `-m` counts what its searcher hands over.
fn printed_lines(file: &FileResult<'_>, max_count: Option<usize>) -> Vec<usize> {
    let count = file.doc.line_count();
    match (&file.blocks, max_count) {
        (Some(blocks), Some(max)) => {
            let kept = &blocks[..max.min(blocks.len())];
            selected_lines(&file.lines, count, None)
                .into_iter()
                .filter(|&n| kept.iter().any(|b| b.holds(n)))
                .collect()
        }
        _ => selected_lines(&file.lines, count, max_count),
    }
}

/// How many parts `-o` prints of `file`: the spans of its printed match
/// lines, empty ones too (rg counts the empty matches of `x*`); with `-U`
/// over lines, the matches of its runs, as rg counts them.
pub fn part_count(file: &FileResult<'_>, max_count: Option<usize>) -> usize {
    let selected = printed_lines(file, max_count);
    // A `-U` run counts its matches once (a match may hold lines).
    if let Some(blocks) = &file.blocks {
        return blocks
            .iter()
            .filter(|b| selected.binary_search(&b.first).is_ok())
            .map(|b| b.matches.len())
            .sum();
    }
    selected
        .iter()
        .filter_map(|n| file.spans.get(n))
        .map(Vec::len)
        .sum()
}

/// The heading rlmgrep prints for a document's name (its key, with a
/// non-UTF-8 file name's raw bytes: [`crate::walk::Haystack::name`]): `./`
/// prepended unless the name already starts with `.` or `/` (`./src/app.py`,
/// but `.secret_notes.md`, `../README.md`, `/abs/x`). The one home of this
/// rule.
pub fn heading(name: &[u8]) -> Vec<u8> {
    if name.starts_with(b".") || name.starts_with(b"/") {
        name.to_vec()
    } else {
        [HEADING_PREFIX.as_bytes(), name].concat()
    }
}

/// Lays every file out as rows.
fn layout<'a>(files: &'a [FileResult<'a>], opts: &GrepOptions) -> Vec<Row<'a>> {
    let mut rows = Vec::new();
    let mut body = Vec::new();
    for file in files {
        layout_file(&mut body, file, opts);
        let binary = file
            .doc
            .binary
            .map(|noticed| binary_stop(&mut body, file, noticed, opts));
        // `--passthru` keeps every file: an empty one prints nothing, as in rg.
        // `-o` prints a file only with parts: one whose lines the caller left
        // all out for having none prints no heading (`-m 0` still prints
        // headings alone, as rlmgrep does). Nor does a binary file with no
        // line and no message left.
        let partless = opts.only_matching && file.lines.is_empty();
        let message = binary.flatten();
        if body.is_empty() && (opts.passthru || partless || binary.is_some()) && message.is_none() {
            continue;
        }
        // rg names a binary file that printed only its message in the
        // message; its flat lines' `--` between files goes before a line
        // only (its headings' blank line before the message too).
        let message_only = body.is_empty() && message.is_some();
        let parted = !(message_only && opts.flat.is_some());
        if !rows.is_empty() && parted {
            rows.push(Row::FileBreak);
        }
        if !message_only {
            rows.push(Row::Heading(&file.name));
        }
        rows.append(&mut body);
        if let Some(offset) = message {
            rows.push(Row::Binary {
                name: &file.name,
                offset,
            });
        }
    }
    rows
}

/// A file searched as binary: its rows up to where rg's printer stops
/// ([`super::binary`]), and the offset its message names, if it prints one.
fn binary_stop(
    body: &mut Vec<Row<'_>>,
    file: &FileResult<'_>,
    noticed: crate::document::binary::Noticed,
    opts: &GrepOptions,
) -> Option<u64> {
    let matches = printed_lines(file, opts.max_count);
    let found = selected_lines(&file.lines, file.doc.line_count(), None).len();
    let handed = super::binary::Handed {
        before: opts.before,
        after: opts.after,
        passthru: opts.passthru,
        capped: opts.max_count.is_some_and(|max| found >= max),
    };
    let numbers: Vec<Option<usize>> = body.iter().map(Row::number).collect();
    let stop = super::binary::stop(&numbers, &matches, file.doc, noticed, handed);
    if let Some(at) = stop.at {
        body.truncate(at);
    }
    stop.message
}

/// Appends one file's line rows (not its heading).
fn layout_file<'a>(rows: &mut Vec<Row<'a>>, file: &'a FileResult<'a>, opts: &GrepOptions) {
    let doc = file.doc;
    let count = doc.line_count();
    let matches = printed_lines(file, opts.max_count);
    let groups = if opts.passthru {
        let found = selected_lines(&file.lines, count, None).len();
        whole_file(doc, found, &matches, opts.max_count)
    } else if opts.flat.is_some() {
        // rg's flat lines never show the empty "line" after a final `\n`
        // as context; rlmgrep's layout does.
        context_groups(&matches, opts.before, opts.after, last_line(doc))
    } else {
        context_groups(&matches, opts.before, opts.after, count)
    };
    let mut lines = doc.lines_at(groups.iter().flat_map(|&(start, end)| start..=end));
    for (number, text) in &file.replaced {
        if let Some(line) = lines.get_mut(number) {
            *line = text;
        }
    }
    let page = |number: usize| {
        doc.pages
            .as_ref()
            .and_then(|pages| pages.get(number - 1).copied())
    };
    let is_match = |number: usize| matches.binary_search(&number).is_ok();
    // Each line's start in the text, found once for the file when what
    // prints needs a place in the file.
    let placed = opts.byte_offset
        || opts.column
        || opts.flat.is_some_and(|f| f.columns)
        || opts.max_columns.is_some()
        || file.blocks.is_some();
    let starts = placed.then(|| doc.line_starts());
    let at = |number: usize| {
        let starts = starts.as_ref()?;
        let start = *starts.get(number.checked_sub(1)?)?;
        let end = starts.get(number).map_or(doc.text.len(), |&s| s - 1);
        Some(LineAt {
            doc,
            start,
            len: end - start,
            replaced: file.replaced.contains_key(&number),
        })
    };
    let known = |number: usize| match &file.blocks {
        Some(blocks) => blocks
            .iter()
            .find(|b| b.holds(number))
            .map_or(Known::Spans, Known::Run),
        None if file.every_match && file.replaced.is_empty() => Known::Every,
        None => Known::Spans,
    };
    let line_row = |number: usize| {
        let text = lines.get(&number).copied().unwrap_or_default();
        let spans = file.spans.get(&number).map_or(&[][..], Vec::as_slice);
        let cut = line_window(opts.max_columns, opts.long_lines, text, spans);
        let (shown, omitted) = match cut {
            Some(w) => (&text[w.clone()], (w.start, text.len() - w.end)),
            None => (text, (0, 0)),
        };
        let trimmed = if opts.trim { trim_len(shown) } else { 0 };
        Row::Line {
            number,
            is_match: is_match(number),
            text: &shown[trimmed..],
            spans,
            page: page(number),
            omitted,
            start: omitted.0 + trimmed,
            at: at(number),
            known: known(number),
        }
    };
    let too_long = |number: usize| {
        opts.max_columns.is_some_and(|m| {
            let measured = |text: &[u8]| match at(number) {
                Some(at) => at.measured(text.len()),
                None => text.len() as u64,
            };
            !m.preview
                && lines
                    .get(&number)
                    .is_some_and(|text| measured(text) > m.max as u64)
        })
    };
    let counted = |number: usize| {
        opts.color
            || opts.column
            || opts.flat.is_some_and(|f| f.columns)
            || file.replaced.contains_key(&number)
    };
    // `-o`'s parts of a match line, an empty match's too (a span past the
    // line's end is skipped); `-M` measures each part, as rg 13 does.
    let parts = |number: usize| {
        let text = lines.get(&number).copied().unwrap_or_default();
        let spans = file.spans.get(&number).map_or(&[][..], Vec::as_slice);
        spans.iter().filter_map(move |span| {
            let part = text.get(span.clone())?;
            let at = at(number);
            let measured = at.map_or(part.len() as u64, |at| {
                at.offset(span.end).saturating_sub(at.offset(span.start))
            });
            let cut = part_cut(part, measured, opts.max_columns);
            Some(Row::Part {
                number,
                column: at.map_or(span.start + 1, |at| at.column(span.start)),
                text: shown_part(part, cut, opts.trim),
                page: page(number),
                offset: at.map(|at| at.offset(span.start)),
                cut,
            })
        })
    };
    let push_rows = |rows: &mut Vec<Row<'a>>, number: usize| {
        if opts.only_matching && is_match(number) {
            let spans = file.spans.get(&number).map_or(&[][..], Vec::as_slice);
            match known(number) {
                // rg prints a match line it finds no match in whole, with
                // no column, `-o` or not.
                Known::Every if spans.is_empty() => {}
                Known::Run(block) if block.matches.is_empty() => {}
                Known::Run(block) => {
                    if let Some(at) = at(number) {
                        let text = lines.get(&number).copied().unwrap_or_default();
                        let line = (text, page(number), number);
                        rows.extend(run_parts(block, at, line, (opts.max_columns, opts.trim)));
                    }
                    return;
                }
                Known::Every | Known::Spans => {
                    rows.extend(parts(number));
                    return;
                }
            }
        }
        if too_long(number) {
            let spans = file.spans.get(&number).map_or(&[][..], Vec::as_slice);
            rows.push(Row::Omitted {
                number,
                is_match: is_match(number),
                spans,
                matches: counted(number).then_some(spans.len()),
                at: at(number),
                known: known(number),
            });
            return;
        }
        rows.push(line_row(number));
    };
    if opts.before == 0 && opts.after == 0 && !opts.passthru {
        for &number in &matches {
            push_rows(rows, number);
        }
        return;
    }
    for (index, &(start, end)) in groups.iter().enumerate() {
        if index > 0 && opts.group_separator.0.is_some() {
            rows.push(Row::GroupBreak);
        }
        for number in start..=end {
            push_rows(rows, number);
        }
    }
}

/// `-o`'s rows for the line `number` of a `-U` run (its text `text`, at
/// `at`): each non-empty part of a match on it, with the column of the
/// match's start in the run and the match's offset, as rg 13 prints them.
fn run_parts<'a>(
    block: &Block,
    at: LineAt<'_>,
    (text, page, number): (&'a [u8], Option<u32>, usize),
    (max_columns, trim): (Option<MaxColumns>, bool),
) -> Vec<Row<'a>> {
    let doc = at.doc;
    let line = at.start..at.start + at.len;
    block
        .parts(line)
        .into_iter()
        .filter_map(|(part, start)| {
            let shown = text.get(part.start - at.start..part.end - at.start)?;
            let column = doc
                .raw_offset(start)
                .saturating_sub(doc.raw_offset(block.range.start))
                + 1;
            let measured = doc
                .raw_offset(part.end)
                .saturating_sub(doc.raw_offset(part.start));
            let cut = part_cut(shown, measured, max_columns);
            Some(Row::Part {
                number,
                column: usize::try_from(column).unwrap_or(usize::MAX),
                text: shown_part(shown, cut, trim),
                page,
                offset: Some(doc.raw_offset(start)),
                cut,
            })
        })
        .collect()
}

/// How `-M` cuts an `-o` part `measured` bytes long, as rg 13 measures
/// each part: `None` leaves it out; otherwise the bytes left out before and
/// after it (`--max-columns-preview`'s window, the part being all match).
fn part_cut(part: &[u8], measured: u64, max_columns: Option<MaxColumns>) -> Option<(usize, usize)> {
    match max_columns {
        Some(m) if !m.preview && measured > m.max as u64 => None,
        Some(MaxColumns { max, preview: true }) => {
            let whole = 0..part.len();
            let w = super::cut::window(part, std::slice::from_ref(&whole), max).unwrap_or(whole);
            Some((w.start, part.len() - w.end))
        }
        _ => Some((0, 0)),
    }
}

/// What of a part prints under its [`part_cut`], less the whitespace it
/// starts with under `--trim`: rg 13 trims each `-o` part as it trims a
/// line (its column and offset stay the match's).
fn shown_part(part: &[u8], cut: Option<(usize, usize)>, trim: bool) -> &[u8] {
    let shown = match cut {
        Some((before, after)) => &part[before..part.len() - after],
        None => part,
    };
    if trim {
        &shown[trim_len(shown)..]
    } else {
        shown
    }
}

/// How many bytes `--trim` leaves out at the start of `text`: the ASCII
/// spaces rg 13 trims (tab, vertical tab, form feed, carriage return and
/// space, and a `\n`, which only a `--null-data` line holds: rg trims all
/// but the line's terminator).
fn trim_len(text: &[u8]) -> usize {
    text.iter()
        .take_while(|&&b| matches!(b, b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b' '))
        .count()
}

/// The column `--column` prints for a match line (`None`: none, as rg
/// prints a line it finds no match in): its first span's, or 1 when no
/// span is known ([`Known::Spans`]); in a `-U` run, the column of the
/// run's first match in the run.
fn line_column(spans: &[Range<usize>], at: Option<LineAt<'_>>, known: Known<'_>) -> Option<usize> {
    match known {
        Known::Spans => Some(first_column(spans, at)),
        Known::Every => (!spans.is_empty()).then(|| first_column(spans, at)),
        Known::Run(block) => {
            let first = block.matches.first()?;
            let column = match at {
                Some(at) => at
                    .doc
                    .raw_offset(first.start)
                    .saturating_sub(at.doc.raw_offset(block.range.start)),
                None => first.start.saturating_sub(block.range.start) as u64,
            };
            Some(usize::try_from(column + 1).unwrap_or(usize::MAX))
        }
    }
}

/// The `N:` or `N-` prefix of a line row, without its tab: `N:COL:` with
/// `--column` (match lines only, as rg), `N:COL:OFFSET:` with `-b` too,
/// `COL:` or nothing with `-N`.
fn line_prefix(
    number: usize,
    is_match: bool,
    column: Option<usize>,
    offset: Option<u64>,
    opts: &GrepOptions,
) -> Prefix<'_> {
    prefix(
        number,
        is_match,
        column.filter(|_| opts.column && is_match),
        offset,
        opts,
    )
}

/// [`line_prefix`] of a whole line (printed or left out): its first match's
/// column, its offset.
fn row_prefix<'o>(
    number: usize,
    is_match: bool,
    (spans, known): (&[Range<usize>], Known<'_>),
    at: Option<LineAt<'_>>,
    opts: &'o GrepOptions,
) -> Prefix<'o> {
    let column = line_column(spans, at, known);
    line_prefix(number, is_match, column, at.map(|at| at.offset(0)), opts)
}

/// The fields of a line: its number unless `-N`, `column` as given, its
/// offset with `-b`.
fn prefix(
    number: usize,
    is_match: bool,
    column: Option<usize>,
    offset: Option<u64>,
    opts: &GrepOptions,
) -> Prefix<'_> {
    Prefix {
        number: (!opts.no_numbers).then(|| number.to_string()),
        column,
        offset: offset.filter(|_| opts.byte_offset),
        mark: opts.fields.mark(is_match),
    }
}

/// The fields before a line's text, each followed by its mark.
struct Prefix<'o> {
    number: Option<String>,
    column: Option<usize>,
    offset: Option<u64>,
    mark: &'o [u8],
}

impl Prefix<'_> {
    fn is_empty(&self) -> bool {
        self.number.is_none() && self.column.is_none() && self.offset.is_none()
    }

    /// `COL:` and `OFFSET:` (or nothing): what follows the number.
    fn rest(&self) -> Vec<u8> {
        let mut rest = Vec::new();
        let column = self.column.map(|c| c as u64);
        for field in [column, self.offset].into_iter().flatten() {
            rest.extend_from_slice(field.to_string().as_bytes());
            rest.extend_from_slice(self.mark);
        }
        rest
    }
}

/// The column `--column` prints for a line: its first span's, an empty one
/// too, as rg's (`x*` on `abx` is column 1), in the file's line when its
/// place is known; 1 when no span is known.
fn first_column(spans: &[Range<usize>], at: Option<LineAt<'_>>) -> usize {
    let start = spans.first().map_or(0, |s| s.start);
    at.map_or(start + 1, |at| at.column(start))
}

/// The part of a line to print when it is cut (`None`: whole, or left out
/// by `-M` without a preview): `--max-columns-preview`'s window, else a
/// long natural-language line's (`long_lines`). The one rule for the text
/// and for `Results::files`.
pub(crate) fn line_window(
    max_columns: Option<MaxColumns>,
    long_lines: Option<usize>,
    text: &[u8],
    spans: &[Range<usize>],
) -> Option<Range<usize>> {
    match max_columns {
        Some(MaxColumns { max, preview: true }) => super::cut::window(text, spans, max),
        Some(_) => None,
        None => long_lines.and_then(|max| super::cut::window(text, spans, max)),
    }
}

/// The text of a line `-M` left out, as ripgrep writes it: with its number
/// of matches when the printer finds them anyway (colour, `--column`,
/// `--vimgrep`, a replacement: `matches` is then known) and there are some.
pub(crate) fn omitted_text(is_match: bool, matches: Option<usize>) -> String {
    match (is_match, matches) {
        (false, _) => "[Omitted long context line]".to_string(),
        (true, Some(n)) if n > 0 => format!("[Omitted long line with {n} matches]"),
        (true, _) => "[Omitted long matching line]".to_string(),
    }
}

/// The `<TAB>page=N` suffix of a PDF line.
fn page_suffix(page: Option<u32>) -> String {
    page.map(|p| format!("\tpage={p}")).unwrap_or_default()
}

/// Pipe output: raw bytes, one row per line; colours only when asked.
fn write_plain(out: &mut dyn Write, rows: &[Row<'_>], opts: &GrepOptions) -> io::Result<()> {
    let color = opts.color;
    for row in rows {
        match *row {
            // `-I`: no heading, and no line for it.
            Row::Heading(_) if opts.no_paths => continue,
            Row::Heading(name) => {
                write_painted(out, &printed_path(name, opts), &opts.palette.path, color)?
            }
            Row::Line {
                number,
                is_match,
                text,
                spans,
                page,
                omitted,
                start,
                at,
                known,
            } => {
                write_prefix(
                    out,
                    &row_prefix(number, is_match, (spans, known), at, opts),
                    line_color(opts),
                )?;
                let painter = (
                    color,
                    write_painted as Painter,
                    opts.palette.matched.as_str(),
                );
                write_body(out, (text, start), spans, omitted, page, painter, false)?;
            }
            Row::Omitted {
                number,
                is_match,
                spans,
                matches,
                at,
                known,
            } => {
                write_prefix(
                    out,
                    &row_prefix(number, is_match, (spans, known), at, opts),
                    line_color(opts),
                )?;
                out.write_all(omitted_text(is_match, matches).as_bytes())?;
            }
            Row::Part {
                number,
                column,
                text,
                page,
                offset,
                cut,
            } => {
                let prefix = line_prefix(number, true, Some(column), offset, opts);
                write_prefix(out, &prefix, line_color(opts))?;
                write_part(
                    out,
                    text,
                    cut,
                    page,
                    (color, write_painted, &opts.palette.matched),
                )?;
            }
            Row::GroupBreak => write_separator(out, opts, false)?,
            Row::FileBreak => {}
            Row::Binary { name, offset } => write_binary(out, name, offset, opts)?,
        }
        // The blank line between files and rg's message end with `\n`
        // whatever ends the lines (`--null-data`).
        match row {
            Row::FileBreak | Row::Binary { .. } => out.write_all(b"\n")?,
            _ => out.write_all(opts.line_end())?,
        }
    }
    Ok(())
}

/// rg's line for a file searched as binary that stopped
/// ([`super::binary`]): its path (unless `-I`) and `: `, then the message;
/// no line end.
fn write_binary(
    out: &mut dyn Write,
    name: &[u8],
    offset: u64,
    opts: &GrepOptions,
) -> io::Result<()> {
    if !opts.no_paths {
        let path = shown(&printed_path(name, opts), opts.tty).into_owned();
        write_rg_painted(out, &path, &opts.palette.path, opts.color)?;
        out.write_all(b": ")?;
    }
    out.write_all(super::binary::message(offset).as_bytes())
}

/// A part's text after its prefix (`-o`): painted whole (an empty part is an
/// empty line, with no colour codes, as rg's), with its window's markers and
/// a PDF line's page; or `-M`'s `[Omitted long matching line]` when `cut`
/// left it out.
fn write_part(
    out: &mut dyn Write,
    text: &[u8],
    cut: Option<(usize, usize)>,
    page: Option<u32>,
    (color, paint, sgr): (bool, Painter, &str),
) -> io::Result<()> {
    let Some(omitted) = cut else {
        return out.write_all(omitted_text(true, None).as_bytes());
    };
    let (before, after) = super::cut::marks(omitted);
    out.write_all(before.as_bytes())?;
    paint(out, text, sgr, color && !text.is_empty())?;
    out.write_all(after.as_bytes())?;
    out.write_all(page_suffix(page).as_bytes())
}

/// A line's text after its prefix: its window's markers, its spans painted
/// when asked (by `paint`), a PDF line's page; sanitised for a terminal
/// (`tty`).
fn write_body(
    out: &mut dyn Write,
    (text, start): (&[u8], usize),
    spans: &[Range<usize>],
    omitted: (usize, usize),
    page: Option<u32>,
    (color, paint, sgr): (bool, Painter, &str),
    tty: bool,
) -> io::Result<()> {
    let (before, after) = super::cut::marks(omitted);
    out.write_all(before.as_bytes())?;
    let spans = shifted(spans, start, text.len());
    for (piece, matched) in segments(text, &spans) {
        paint(out, &shown(piece, tty), sgr, color && matched)?;
    }
    out.write_all(after.as_bytes())?;
    out.write_all(page_suffix(page).as_bytes())
}

/// The context groups' separator (no line end), sanitised on a terminal;
/// nothing when there is none (the layout then has no such row).
fn write_separator(out: &mut dyn Write, opts: &GrepOptions, tty: bool) -> io::Result<()> {
    let separator = opts.group_separator.0.as_deref().unwrap_or_default();
    out.write_all(&shown(separator, tty))
}

/// Bytes as printed: sanitised on a terminal, raw on a pipe.
fn shown(bytes: &[u8], tty: bool) -> std::borrow::Cow<'_, [u8]> {
    if tty {
        sanitize(bytes).into_owned().into_bytes().into()
    } else {
        bytes.into()
    }
}

/// ripgrep's flat lines ([`Flat`]): each row prefixed by its file's path;
/// on a terminal, every text sanitised as rlmgrep's layout's is.
fn write_flat(
    out: &mut dyn Write,
    rows: &[Row<'_>],
    opts: &GrepOptions,
    flat: Flat,
) -> io::Result<()> {
    let (color, tty) = (opts.color, opts.tty);
    // Files are parted as context groups are, when there is context and a
    // separator to part them with.
    let context =
        (opts.before > 0 || opts.after > 0) && !opts.passthru && opts.group_separator.0.is_some();
    // The current file's path, as printed.
    let mut path = Vec::new();
    // `PATH:N:` (`PATH-N-` for context), then `COLUMN:` and `OFFSET:` when
    // given; `-I` leaves the path out, `-N` the number, and `-0` ends the
    // path with a NUL in place of its mark, as rg's does.
    // Coloured as rg writes them: each field between resets, a column and
    // an offset too.
    let write_fields = |out: &mut dyn Write, path: &[u8], fields: &Prefix<'_>| -> io::Result<()> {
        if !opts.no_paths {
            write_rg_painted(out, path, &opts.palette.path, color)?;
            out.write_all(if opts.null { b"\0" } else { fields.mark })?;
        }
        if let Some(number) = &fields.number {
            write_rg_painted(out, number.as_bytes(), &opts.palette.line, color)?;
            out.write_all(fields.mark)?;
        }
        let column = fields.column.map(|c| c as u64);
        for field in [column, fields.offset].into_iter().flatten() {
            write_rg_painted(
                out,
                field.to_string().as_bytes(),
                &opts.palette.column,
                color,
            )?;
            out.write_all(fields.mark)?;
        }
        Ok(())
    };
    // rg leaves the matches plain when `--colors match:none` cleared their
    // colour (its other fields still print between resets).
    let painter = (
        color && !opts.palette.matched.is_empty(),
        write_rg_painted as Painter,
        opts.palette.matched.as_str(),
    );
    for row in rows {
        match *row {
            Row::Heading(name) => path = shown(&printed_path(name, opts), tty).into_owned(),
            Row::FileBreak | Row::GroupBreak if context => {
                write_separator(out, opts, tty)?;
                out.write_all(opts.line_end())?;
            }
            Row::FileBreak | Row::GroupBreak => {}
            Row::Binary { name, offset } => {
                write_binary(out, name, offset, opts)?;
                out.write_all(b"\n")?;
            }
            Row::Line {
                number,
                is_match,
                text,
                spans,
                page,
                omitted,
                start,
                at,
                known,
            } => {
                for (column, offset, painted) in
                    flat_places(is_match, (spans, known), at, opts, flat)
                {
                    write_fields(out, &path, &prefix(number, is_match, column, offset, opts))?;
                    write_body(out, (text, start), painted, omitted, page, painter, tty)?;
                    out.write_all(opts.line_end())?;
                }
            }
            Row::Omitted {
                number,
                is_match,
                spans,
                matches,
                at,
                known,
            } => {
                for (column, offset, _) in flat_places(is_match, (spans, known), at, opts, flat) {
                    write_fields(out, &path, &prefix(number, is_match, column, offset, opts))?;
                    out.write_all(omitted_text(is_match, matches).as_bytes())?;
                    out.write_all(opts.line_end())?;
                }
            }
            Row::Part {
                number,
                column,
                text,
                page,
                offset,
                cut,
            } => {
                let column = (flat.columns || opts.column).then_some(column);
                write_fields(out, &path, &prefix(number, true, column, offset, opts))?;
                write_part(out, &shown(text, tty), cut, page, painter)?;
                out.write_all(opts.line_end())?;
            }
        }
    }
    Ok(())
}

/// One printing of a flat line: its column and offset (when they print) and
/// the spans it colours.
type FlatPlace<'s> = (Option<usize>, Option<u64>, &'s [Range<usize>]);

/// The column and offset of each time a flat line prints, and the spans it
/// colours, as rg prints them: with `--vimgrep` a match line once per
/// match, an empty one too (column 1 when no span is known), with `-b` each
/// match's offset, colouring that match alone (rg 13's `--vimgrep --color`);
/// any other line once, without a column or with its first with `--column`,
/// with `-b` the line's offset, colouring every match.
fn flat_places<'s>(
    is_match: bool,
    (spans, known): (&'s [Range<usize>], Known<'_>),
    at: Option<LineAt<'_>>,
    opts: &GrepOptions,
    flat: Flat,
) -> Vec<FlatPlace<'s>> {
    let offset = at.map(|at| at.offset(0));
    if !(is_match && flat.columns) {
        let column = line_column(spans, at, known).filter(|_| is_match && opts.column);
        return vec![(column, offset, spans)];
    }
    match known {
        // rg prints a match line it finds no match in once, with no column.
        Known::Every if spans.is_empty() => return vec![(None, offset, spans)],
        Known::Run(block) if block.matches.is_empty() => return vec![(None, offset, spans)],
        // A `-U` match prints on the line it starts on, once, colouring
        // the part of that match the line holds.
        Known::Run(block) => {
            let Some(at) = at else {
                return vec![(None, offset, spans)];
            };
            let line = at.start..at.start + at.len;
            return block
                .starting_on(line)
                .map(|m| {
                    let (from, to) = (m.start - at.start, m.end - at.start);
                    let first = spans.partition_point(|s| s.end <= from);
                    let last = spans.partition_point(|s| s.start < to).max(first);
                    (Some(at.column(from)), offset, &spans[first..last])
                })
                .collect();
        }
        Known::Every | Known::Spans => {}
    }
    let mut places: Vec<_> = spans
        .iter()
        .map(|s| {
            let own = std::slice::from_ref(s);
            match at {
                Some(at) => (Some(at.column(s.start)), Some(at.offset(s.start)), own),
                None => (Some(s.start + 1), None, own),
            }
        })
        .collect();
    if places.is_empty() {
        places.push((Some(1), offset, spans));
    }
    places
}

/// The line numbers' colour when the output is coloured (`None`: plain).
fn line_color(opts: &GrepOptions) -> Option<&str> {
    opts.color.then_some(opts.palette.line.as_str())
}

/// A pipe line's `N:` or `N-` (`N:COL:`, `COL:`) and its tab; nothing when
/// `-N` leaves no field.
fn write_prefix(out: &mut dyn Write, prefix: &Prefix, color: Option<&str>) -> io::Result<()> {
    if prefix.is_empty() {
        return Ok(());
    }
    if let Some(number) = &prefix.number {
        write_painted(
            out,
            number.as_bytes(),
            color.unwrap_or_default(),
            color.is_some(),
        )?;
        out.write_all(prefix.mark)?;
    }
    out.write_all(&prefix.rest())?;
    out.write_all(b"\t")
}

/// Spans of the whole line as spans of its window (starting `offset` bytes
/// in, `len` long); spans outside it are dropped, those across its edges
/// clipped.
fn shifted(spans: &[Range<usize>], offset: usize, len: usize) -> Vec<Range<usize>> {
    spans
        .iter()
        .filter_map(|s| {
            let start = s.start.max(offset) - offset;
            let end = s.end.min(offset + len).saturating_sub(offset);
            (start < end).then_some(start..end)
        })
        .collect()
}

/// A line cut at its match spans: `(piece, is_matched_text)` in order.
/// Matches that touch (`foo` twice in `foofoo`) are one piece, painted once,
/// as rg 13 paints them. Spans out of order, overlapping or out of range are
/// ignored, so bad input can only lose colour, never text.
fn segments<'a>(text: &'a [u8], spans: &[Range<usize>]) -> Vec<(&'a [u8], bool)> {
    let mut out = Vec::with_capacity(spans.len() * 2 + 1);
    let mut at = 0;
    // Where the matched piece last pushed starts, while `at` is its end.
    let mut matched_from: Option<usize> = None;
    for span in spans {
        if span.start < at || span.end > text.len() || span.start >= span.end {
            continue;
        }
        match matched_from {
            Some(from) if span.start == at => {
                out.pop();
                out.push((&text[from..span.end], true));
            }
            _ => {
                if span.start > at {
                    out.push((&text[at..span.start], false));
                }
                out.push((&text[span.clone()], true));
                matched_from = Some(span.start);
            }
        }
        at = span.end;
    }
    if at < text.len() || out.is_empty() {
        out.push((&text[at..], false));
    }
    out
}

/// A terminal line's `N:` or `N-` (`N:COL:`, `COL:`) and its tab, expanded;
/// and the column after them. Nothing when `-N` leaves no field.
fn tty_prefix(prefix: &Prefix, color: Option<&str>) -> (String, usize) {
    if prefix.is_empty() {
        return (String::new(), 0);
    }
    let mut line = String::new();
    // A separator's bytes as the terminal's text (sanitised, as a line's).
    let mark = sanitize(prefix.mark);
    if let Some(number) = &prefix.number {
        line = format!(
            "{}{mark}",
            paint(number, color.unwrap_or_default(), color.is_some())
        );
    }
    let rest = sanitize(&prefix.rest()).into_owned();
    line.push_str(&rest);
    let column = prefix
        .number
        .as_deref()
        .map_or(0, |n| str_width(n) + str_width(&mark))
        + str_width(&rest);
    let tab = expand_tabs("\t", column);
    line.push_str(&tab);
    (line, column + tab.len())
}

/// Terminal output: rlmgrep's "Matches" section as rich rendered it.
fn write_tty(out: &mut dyn Write, rows: &[Row<'_>], opts: &GrepOptions) -> io::Result<()> {
    let color = opts.color;
    let body: Vec<String> = rows
        .iter()
        .filter(|row| !(opts.no_paths && matches!(row, Row::Heading(_))))
        .map(|row| tty_row(row, opts))
        .collect();
    let body = body.join("\n");
    // rlmgrep strips the joined body before printing it.
    let body = body.trim_end();
    let body = if body.is_empty() {
        TTY_NO_MATCHES
    } else {
        body
    };
    writeln!(out, "{}", paint(TTY_HEADER, CYAN, color))?;
    writeln!(out, "{body}")?;
    writeln!(out)
}

/// One terminal line: sanitised, tabs expanded, coloured when asked.
fn tty_row(row: &Row<'_>, opts: &GrepOptions) -> String {
    let color = opts.color;
    match *row {
        Row::Heading(name) => {
            let text = expand_tabs(&sanitize(&printed_path(name, opts)), 0);
            paint(&text, &opts.palette.path, color)
        }
        Row::Line {
            number,
            is_match,
            text,
            spans,
            page,
            omitted,
            start,
            at,
            known,
        } => {
            let prefix = row_prefix(number, is_match, (spans, known), at, opts);
            let (mut line, mut column) = tty_prefix(&prefix, line_color(opts));
            let (before, after) = super::cut::marks(omitted);
            column += str_width(&before);
            line.push_str(&before);
            for (piece, matched) in segments(text, &shifted(spans, start, text.len())) {
                let piece = expand_tabs(&sanitize(piece), column);
                column += str_width(&piece);
                line.push_str(&paint(&piece, &opts.palette.matched, color && matched));
            }
            column += str_width(&after);
            line.push_str(&after);
            line.push_str(&expand_tabs(&page_suffix(page), column));
            line
        }
        Row::Omitted {
            number,
            is_match,
            spans,
            matches,
            at,
            known,
        } => {
            let prefix = row_prefix(number, is_match, (spans, known), at, opts);
            let (mut line, _) = tty_prefix(&prefix, line_color(opts));
            line.push_str(&omitted_text(is_match, matches));
            line
        }
        Row::Part {
            number,
            column,
            text,
            page,
            offset,
            cut,
        } => {
            let prefix = line_prefix(number, true, Some(column), offset, opts);
            let (mut line, mut column) = tty_prefix(&prefix, line_color(opts));
            let Some(omitted) = cut else {
                line.push_str(&omitted_text(true, None));
                return line;
            };
            let (before, after) = super::cut::marks(omitted);
            column += str_width(&before);
            line.push_str(&before);
            let part = expand_tabs(&sanitize(text), column);
            column += str_width(&part);
            line.push_str(&paint(
                &part,
                &opts.palette.matched,
                color && !part.is_empty(),
            ));
            column += str_width(&after);
            line.push_str(&after);
            line.push_str(&expand_tabs(&page_suffix(page), column));
            line
        }
        Row::GroupBreak => {
            let separator = opts.group_separator.0.as_deref().unwrap_or_default();
            sanitize(separator).into_owned()
        }
        Row::FileBreak => String::new(),
        Row::Binary { name, offset } => {
            let message = super::binary::message(offset);
            if opts.no_paths {
                return message;
            }
            let path = expand_tabs(&sanitize(&printed_path(name, opts)), 0);
            format!("{}: {message}", paint(&path, &opts.palette.path, color))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::single_range_in_vec_init)]

    use super::*;

    use crate::testing::doc;

    fn numbered(n: usize) -> Vec<u8> {
        (1..=n)
            .map(|i| format!("l{i}"))
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes()
    }

    fn opts(before: usize, after: usize, max_count: Option<usize>) -> GrepOptions {
        GrepOptions {
            before,
            after,
            max_count,
            ..GrepOptions::default()
        }
    }

    fn render(files: &[(&Document, &[usize])], opts: &GrepOptions) -> (String, usize) {
        let files: Vec<FileResult> = files
            .iter()
            .map(|&(doc, lines)| FileResult::new(doc, lines.to_vec()))
            .collect();
        let mut out = Vec::new();
        let count = write_grep(&mut out, &files, opts).unwrap();
        (String::from_utf8(out).unwrap(), count)
    }

    /// `--passthru`'s group: every line but the empty one after a last
    /// newline, none of an empty file, and with -m up to the last match kept
    /// only when the file has that many.
    #[test]
    fn passthru_groups_the_whole_file() {
        let d = doc("k", "a\nretry\nb\nretry\nc\n");
        assert_eq!(whole_file(&d, 2, &[2, 4], None), [(1, 5)]);
        assert_eq!(whole_file(&d, 2, &[2], Some(1)), [(1, 2)]);
        assert_eq!(whole_file(&d, 2, &[2, 4], Some(2)), [(1, 4)]);
        assert_eq!(whole_file(&d, 2, &[2, 4], Some(3)), [(1, 5)]);
        assert_eq!(whole_file(&doc("k", "x"), 0, &[], None), [(1, 1)]);
        assert!(whole_file(&doc("k", ""), 0, &[], None).is_empty());
        let o = GrepOptions {
            passthru: true,
            ..GrepOptions::default()
        };
        let empty = doc("e", "");
        let (out, n) = render(&[(&empty, &[]), (&d, &[4])], &o);
        assert_eq!(out, "./k\n1-\ta\n2-\tretry\n3-\tb\n4:\tretry\n5-\tc\n");
        assert_eq!(n, 1);
    }

    #[test]
    fn heading_prefix_rule() {
        assert_eq!(heading(b"src/app.py"), b"./src/app.py");
        assert_eq!(heading(b"<stdin>"), b"./<stdin>");
        assert_eq!(heading(b".secret_notes.md"), b".secret_notes.md");
        assert_eq!(heading(b"../README.md"), b"../README.md");
        assert_eq!(heading(b"/abs/docs/guide.md"), b"/abs/docs/guide.md");
        assert_eq!(heading(b"caf\xe9.rs"), b"./caf\xe9.rs");
    }

    #[test]
    fn match_lines_sorted_and_unique() {
        let d = doc("a", numbered(20));
        let (out, count) = render(&[(&d, &[16, 9, 10, 9])], &opts(0, 0, None));
        assert_eq!(out, "./a\n9:\tl9\n10:\tl10\n16:\tl16\n");
        assert_eq!(count, 3);
    }

    #[test]
    fn no_separator_without_context() {
        let d = doc("a", numbered(10));
        let (out, _) = render(&[(&d, &[2, 7])], &opts(0, 0, None));
        assert!(!out.contains("--"));
    }

    #[test]
    fn files_separated_by_an_empty_line() {
        let a = doc("a", b"x\ny");
        let b = doc("b", b"z");
        let (out, count) = render(&[(&a, &[2]), (&b, &[1])], &opts(0, 0, None));
        assert_eq!(out, "./a\n2:\ty\n\n./b\n1:\tz\n");
        assert_eq!(count, 2);
    }

    #[test]
    fn disjoint_groups_are_separated() {
        let d = doc("a", numbered(20));
        let (out, count) = render(&[(&d, &[5, 13])], &opts(1, 1, None));
        assert_eq!(
            out,
            "./a\n4-\tl4\n5:\tl5\n6-\tl6\n--\n12-\tl12\n13:\tl13\n14-\tl14\n"
        );
        assert_eq!(count, 2);
    }

    #[test]
    fn overlapping_ranges_merge() {
        let d = doc("a", numbered(20));
        let (out, _) = render(&[(&d, &[5, 7])], &opts(1, 1, None));
        assert_eq!(out, "./a\n4-\tl4\n5:\tl5\n6-\tl6\n7:\tl7\n8-\tl8\n");
    }

    #[test]
    fn touching_ranges_merge() {
        // ctx_C1_adjacent: 4..6 and 7..9 touch.
        let d = doc("a", numbered(20));
        let (out, _) = render(&[(&d, &[5, 8])], &opts(1, 1, None));
        assert!(!out.contains("--"));
        assert_eq!(out.lines().count(), 7);
    }

    #[test]
    fn context_is_clamped_to_the_file() {
        let d = doc("a", numbered(3));
        let (out, _) = render(&[(&d, &[1, 3])], &opts(2, 2, None));
        assert_eq!(out, "./a\n1:\tl1\n2-\tl2\n3:\tl3\n");
    }

    #[test]
    fn after_and_before_are_independent() {
        let d = doc("a", numbered(30));
        let (out, _) = render(&[(&d, &[9, 10, 20])], &opts(0, 2, None));
        assert_eq!(
            out,
            "./a\n9:\tl9\n10:\tl10\n11-\tl11\n12-\tl12\n--\n20:\tl20\n21-\tl21\n22-\tl22\n"
        );
        let (out, _) = render(&[(&d, &[1, 6])], &opts(2, 0, None));
        assert_eq!(out, "./a\n1:\tl1\n--\n4-\tl4\n5-\tl5\n6:\tl6\n");
    }

    #[test]
    fn trailing_empty_line_is_printable() {
        let d = doc("<stdin>", b"alpha\nbeta\n");
        let (out, _) = render(&[(&d, &[2])], &opts(1, 1, None));
        assert_eq!(out, "./<stdin>\n1-\talpha\n2:\tbeta\n3-\t\n");
    }

    #[test]
    fn max_count_keeps_the_lowest_lines() {
        let d = doc("a", numbered(40));
        let (out, count) = render(&[(&d, &[33, 10, 20])], &opts(1, 1, Some(2)));
        assert_eq!(
            out,
            "./a\n9-\tl9\n10:\tl10\n11-\tl11\n--\n19-\tl19\n20:\tl20\n21-\tl21\n"
        );
        assert_eq!(count, 2);
    }

    #[test]
    fn max_count_zero_prints_headings_only() {
        let a = doc("README.md", b"x");
        let b = doc("src/app.py", b"y");
        let (out, count) = render(&[(&a, &[1]), (&b, &[1])], &opts(0, 0, Some(0)));
        assert_eq!(out, "./README.md\n\n./src/app.py\n");
        assert_eq!(count, 0);
    }

    #[test]
    fn out_of_range_lines_are_skipped() {
        let d = doc("a", b"x");
        let (out, count) = render(&[(&d, &[0, 1, 2])], &opts(1, 1, None));
        assert_eq!(out, "./a\n1:\tx\n");
        assert_eq!(count, 1);
    }

    #[test]
    fn pdf_lines_carry_their_page() {
        let d = Document {
            key: "m.pdf".into(),
            text: b"===== Page 1 =====\nA\n\n===== Page 2 =====\nB\n".to_vec(),
            pages: Some(vec![1, 1, 1, 2, 2, 2]),
            cut: None,
            offsets: Default::default(),
            terminator: b'\n',
            binary: None,
        };
        let (out, _) = render(&[(&d, &[4])], &opts(1, 1, None));
        assert_eq!(
            out,
            "./m.pdf\n3-\t\tpage=1\n4:\t===== Page 2 =====\tpage=2\n5-\tB\tpage=2\n"
        );
    }

    #[test]
    fn raw_bytes_pass_through_on_a_pipe() {
        let d = doc("<stdin>", b"ok\ncaf\xe9\r\n\x1b[31m");
        let files = [FileResult::new(&d, vec![2, 3])];
        let mut out = Vec::new();
        write_grep(&mut out, &files, &opts(0, 0, None)).unwrap();
        assert_eq!(out, b"./<stdin>\n2:\tcaf\xe9\r\n3:\t\x1b[31m\n");
    }

    fn tty(color: bool) -> GrepOptions {
        GrepOptions {
            tty: true,
            color,
            ..GrepOptions::default()
        }
    }

    #[test]
    fn only_matching_prints_the_parts_of_match_lines_and_whole_context() {
        let d = doc("a", b"x foo y foo\nctx\nfoo\n");
        let mut file = FileResult::new(&d, vec![1, 3]);
        // An empty match (`foo|$` at the line's end) is an empty part.
        file.spans = Spans::from([(1, vec![2..5, 8..11, 11..11]), (3, vec![0..3])]);
        let files = [file];
        let mut o = opts(1, 0, None);
        o.only_matching = true;
        let mut out = Vec::new();
        let printed = write_grep(&mut out, &files, &o).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "./a\n1:\tfoo\n1:\tfoo\n1:\t\n2-\tctx\n3:\tfoo\n"
        );
        // Two lines printed parts; -c counts the four parts, as `rg -oc`.
        assert_eq!(printed, 2);
        let mut out = Vec::new();
        write_list(&mut out, &files, &o, true, &[]).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "./a:4\n");
        // On a terminal, the part is sanitised and painted whole.
        let mut t = tty(true);
        t.only_matching = true;
        let mut out = Vec::new();
        write_grep(&mut out, &files, &t).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("\x1b[32m3\x1b[0m:      \x1b[1m\x1b[31mfoo\x1b[0m"),
            "{out:?}"
        );
    }

    #[test]
    fn flat_lines_name_their_file_and_are_sanitised_on_a_terminal() {
        let d = doc("src/a.rs", b"x\n\x1b]0;t\x07 foo\nz\n");
        let mut file = FileResult::new(&d, vec![2]);
        file.spans = Spans::from([(2, vec![8..11])]);
        let files = [file];
        let mut o = opts(0, 1, None);
        o.flat = Some(Flat { columns: false });
        let mut out = Vec::new();
        assert_eq!(write_grep(&mut out, &files, &o).unwrap(), 1);
        assert_eq!(out, b"./src/a.rs:2:\x1b]0;t\x07 foo\n./src/a.rs-3-z\n");
        // A terminal never gets the escape; --vimgrep adds the column.
        o.tty = true;
        o.flat = Some(Flat { columns: true });
        let mut out = Vec::new();
        write_grep(&mut out, &files, &o).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("./src/a.rs:2:9:"), "{out:?}");
        assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    }

    #[test]
    fn trim_keeps_the_colour_on_the_match_in_both_layouts() {
        let d = doc("a", b"    let x = foo;\n");
        let mut file = FileResult::new(&d, vec![1]);
        file.spans = Spans::from([(1, vec![12..15])]);
        let files = [file];
        for (tty, expected) in [
            (
                false,
                "\x1b[32m1\x1b[0m:\tlet x = \x1b[1m\x1b[31mfoo\x1b[0m;\n",
            ),
            (
                true,
                "\x1b[32m1\x1b[0m:      let x = \x1b[1m\x1b[31mfoo\x1b[0m;",
            ),
        ] {
            let o = GrepOptions {
                tty,
                color: true,
                trim: true,
                ..GrepOptions::default()
            };
            let mut out = Vec::new();
            write_grep(&mut out, &files, &o).unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(out.contains(expected), "{out:?}");
        }
    }

    #[test]
    fn tty_colors_and_expands_tabs() {
        let d = doc("src/app.py", b"a\n\tb");
        let (out, count) = render(&[(&d, &[2])], &tty(true));
        assert_eq!(
            out,
            "\x1b[36m===== Matches =====\x1b[0m\n\x1b[35m./src/app.py\x1b[0m\n\
             \x1b[32m2\x1b[0m:              b\n\n"
        );
        assert_eq!(count, 1);
    }

    #[test]
    fn tty_without_color_drops_only_the_escapes() {
        let d = doc("src/app.py", b"a\n\tb");
        let (out, _) = render(&[(&d, &[2])], &tty(false));
        assert_eq!(
            out,
            "===== Matches =====\n./src/app.py\n2:              b\n\n"
        );
    }

    #[test]
    fn tty_no_matches() {
        let (out, count) = render(&[], &tty(true));
        assert_eq!(out, "\x1b[36m===== Matches =====\x1b[0m\nNo matches\n\n");
        assert_eq!(count, 0);
        let (out, _) = render(&[], &tty(false));
        assert_eq!(out, "===== Matches =====\nNo matches\n\n");
    }

    #[test]
    fn tty_strips_the_end_of_the_body() {
        let d = doc("a", b"x\ntrailing   \n");
        let (out, _) = render(&[(&d, &[2])], &tty(false));
        assert_eq!(out, "===== Matches =====\n./a\n2:      trailing\n\n");
    }

    #[test]
    fn tty_sanitises_control_characters() {
        let d = doc("<stdin>", b"\x1b]0;title\x07\rx\xe9");
        let (out, _) = render(&[(&d, &[1])], &tty(false));
        assert_eq!(
            out,
            "===== Matches =====\n./<stdin>\n1:      ^[]0;title^G^Mx\u{fffd}\n\n"
        );
        assert!(!out.contains('\x1b'));
    }

    fn list(files: &[(&Document, &[usize])], opts: &GrepOptions, counts: bool) -> (String, usize) {
        let files: Vec<FileResult> = files
            .iter()
            .map(|&(doc, lines)| FileResult::new(doc, lines.to_vec()))
            .collect();
        let mut out = Vec::new();
        let total = write_list(&mut out, &files, opts, counts, &[]).unwrap();
        (String::from_utf8(out).unwrap(), total)
    }

    #[test]
    fn a_list_names_each_file_with_a_match_line_once_and_counts_its_lines() {
        let a = doc("src/a.py", numbered(9));
        let b = doc("/abs/b.py", numbered(3));
        let none = doc("c.py", numbered(3));
        // Line 7 of b is out of range and line 2 of a is named twice: neither
        // counts, as neither prints.
        let files: [(&Document, &[usize]); 3] = [(&b, &[1, 7]), (&a, &[2, 2, 5]), (&none, &[])];
        assert_eq!(
            list(&files, &opts(3, 3, None), false),
            ("/abs/b.py\n./src/a.py\n".to_string(), 3)
        );
        assert_eq!(
            list(&files, &opts(0, 0, None), true),
            ("/abs/b.py:1\n./src/a.py:2\n".to_string(), 3)
        );
        assert_eq!(
            list(&files, &opts(0, 0, Some(1)), true),
            ("/abs/b.py:1\n./src/a.py:1\n".to_string(), 2)
        );
        assert_eq!(
            list(&files, &opts(0, 0, Some(0)), false),
            (String::new(), 0)
        );
    }

    #[test]
    fn a_list_on_a_terminal_sanitises_paths_and_a_pipe_keeps_their_bytes() {
        let d = doc("x\x1b[2Jy.txt", b"one");
        let (out, _) = list(&[(&d, &[1])], &tty(false), false);
        assert_eq!(out, "./x^[[2Jy.txt\n");
        let (out, _) = list(&[(&d, &[1])], &opts(0, 0, None), false);
        assert_eq!(out, "./x\x1b[2Jy.txt\n");
    }

    fn with_spans<'a>(doc: &'a Document, line: usize, spans: &[Range<usize>]) -> FileResult<'a> {
        let mut f = FileResult::new(doc, vec![line]);
        f.spans.insert(line, spans.to_vec());
        f
    }

    #[test]
    fn pipe_with_color_uses_ripgreps_palette_on_raw_bytes() {
        let d = doc("src/a.rs", b"x\nlet retry = caf\xe9 retry;");
        let files = [with_spans(&d, 2, &[4..9, 17..22])];
        let mut out = Vec::new();
        let opts = GrepOptions {
            color: true,
            ..opts(0, 0, None)
        };
        write_grep(&mut out, &files, &opts).unwrap();
        assert_eq!(
            out,
            b"\x1b[35m./src/a.rs\x1b[0m\n\x1b[32m2\x1b[0m:\tlet \x1b[1m\x1b[31mretry\x1b[0m = caf\xe9 \
              \x1b[1m\x1b[31mretry\x1b[0m;\n"
        );
    }

    #[test]
    fn pipe_without_color_ignores_spans() {
        let d = doc("a", b"let retry = 1;");
        let files = [with_spans(&d, 1, &[4..9])];
        let mut out = Vec::new();
        write_grep(&mut out, &files, &opts(0, 0, None)).unwrap();
        assert_eq!(out, b"./a\n1:\tlet retry = 1;\n");
    }

    #[test]
    fn tty_paints_matches_and_keeps_tab_stops() {
        let d = doc("a", b"\tretry\tx\x1b");
        let files = [with_spans(&d, 1, &[1..6])];
        let mut out = Vec::new();
        write_grep(&mut out, &files, &tty(true)).unwrap();
        let out = String::from_utf8(out).unwrap();
        // "1:", the separator tab to column 8, the line's tab to 16, the match,
        // a tab to 24, then the sanitised ESC: the same cells as without colour.
        assert!(
            out.contains(&format!(
                "\x1b[32m1\x1b[0m:{}\x1b[1m\x1b[31mretry\x1b[0m{}x^[",
                " ".repeat(14),
                " ".repeat(3)
            )),
            "{out:?}"
        );
        let mut plain = Vec::new();
        write_grep(&mut plain, &files, &tty(false)).unwrap();
        assert_eq!(
            String::from_utf8(plain).unwrap(),
            format!(
                "===== Matches =====\n./a\n1:{}retry{}x^[\n\n",
                " ".repeat(14),
                " ".repeat(3)
            )
        );
    }

    #[test]
    fn bad_spans_lose_colour_not_text() {
        let text = b"abcdef";
        let pieces = segments(text, &[2..4, 3..5, 5..99, 4..4]);
        let joined: Vec<u8> = pieces.iter().flat_map(|(p, _)| p.iter().copied()).collect();
        assert_eq!(joined, text);
        assert_eq!(pieces.iter().filter(|(_, m)| *m).count(), 1);
        assert_eq!(segments(b"", &[]), vec![(&b""[..], false)]);
    }

    #[test]
    fn touching_matches_are_one_piece() {
        let pieces = segments(b"foofoo barfoo", &[0..3, 3..6, 10..13]);
        assert_eq!(
            pieces,
            vec![
                (&b"foofoo"[..], true),
                (&b" bar"[..], false),
                (&b"foo"[..], true)
            ]
        );
    }

    #[test]
    fn tty_page_suffix_tab_is_expanded() {
        let d = Document {
            key: "m.pdf".into(),
            text: b"Demo".to_vec(),
            pages: Some(vec![1]),
            cut: None,
            offsets: Default::default(),
            terminator: b'\n',
            binary: None,
        };
        let (out, _) = render(&[(&d, &[1])], &tty(false));
        assert_eq!(
            out,
            "===== Matches =====\n./m.pdf\n1:      Demo    page=1\n\n"
        );
    }

    /// Renders two files' match lines with spans, in the pipe layout.
    fn fields(o: GrepOptions) -> String {
        let a = doc("a", b"one hello\ntwo\nthree hello hello\n");
        let b = doc("b", b"hello\n");
        let mut first = FileResult::new(&a, vec![1, 3]);
        first.spans = Spans::from([(1, vec![4..9]), (3, vec![6..11, 12..17])]);
        let mut second = FileResult::new(&b, vec![1]);
        second.spans = Spans::from([(1, vec![0..5])]);
        let mut out = Vec::new();
        write_grep(&mut out, &[first, second], &o).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn no_numbers_no_paths_and_columns_as_rg_prints_them() {
        // `rg -N --heading`: no number, and here no tab either.
        let o = GrepOptions {
            no_numbers: true,
            ..GrepOptions::default()
        };
        assert_eq!(
            fields(o),
            "./a\none hello\nthree hello hello\n\n./b\nhello\n"
        );
        // `rg -I --heading`: no heading, a blank line between files.
        let o = GrepOptions {
            no_paths: true,
            ..GrepOptions::default()
        };
        assert_eq!(
            fields(o),
            "1:\tone hello\n3:\tthree hello hello\n\n1:\thello\n"
        );
        // `rg --column`: the first match's column; context lines keep `N-`.
        let o = GrepOptions {
            column: true,
            after: 1,
            ..GrepOptions::default()
        };
        assert_eq!(
            fields(o),
            "./a\n1:5:\tone hello\n2-\ttwo\n3:7:\tthree hello hello\n4-\t\n\n./b\n1:1:\thello\n2-\t\n"
        );
        // Both: `COL:` alone; and flat lines lose their path and number.
        let o = GrepOptions {
            column: true,
            no_numbers: true,
            ..GrepOptions::default()
        };
        assert_eq!(
            fields(o),
            "./a\n5:\tone hello\n7:\tthree hello hello\n\n./b\n1:\thello\n"
        );
        let o = GrepOptions {
            column: true,
            no_numbers: true,
            no_paths: true,
            flat: Some(Flat { columns: false }),
            ..GrepOptions::default()
        };
        assert_eq!(fields(o), "5:one hello\n7:three hello hello\n1:hello\n");
    }

    #[test]
    fn max_columns_omits_or_previews_long_lines_and_still_counts_them() {
        let o = GrepOptions {
            max_columns: Some(MaxColumns {
                max: 12,
                preview: false,
            }),
            before: 1,
            ..GrepOptions::default()
        };
        let a = doc(
            "a",
            b"a context line that is long\nhello\nx\nthree hello hello\n",
        );
        let (out, count) = render(&[(&a, &[2, 4])], &o);
        assert_eq!(
            out,
            "./a\n1-\t[Omitted long context line]\n2:\thello\n3-\tx\n4:\t[Omitted long matching line]\n"
        );
        assert_eq!(count, 2, "an omitted match line is still a match");
        // The preview: NUM bytes of the line, marked where bytes are left out.
        let o = GrepOptions {
            max_columns: Some(MaxColumns {
                max: 12,
                preview: true,
            }),
            ..GrepOptions::default()
        };
        let (out, _) = render(&[(&a, &[4])], &o);
        assert_eq!(out, "./a\n4:\tthree hello  [... 5 bytes omitted]\n");
    }
}
