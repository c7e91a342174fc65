//! The stderr notes that say how a query was read, when the output alone
//! would not: a query with no word to search for (searched as exact text), a
//! query whose words are all too long to search, and a one-word query read as
//! natural language whose lines were left out (issue 28, items 3 and 8), or
//! searched as the identifier it spells run together (`csvformat`), and a
//! regex that asks for a line end without `-U`, and a regex the engine
//! refuses, searched as words.
//!
//! Owns the wording and when each is said; the reading itself is `query`'s.

use crate::cli::{Listing, Mode, Plan};
use crate::messages;
use crate::query::{Origin, Query, QueryKind};
use crate::rank::Searched;
use crate::score::RankedFile;
use crate::search::{matcher, LoadStats};

/// A regex that asks for a line end (`\n`), or a pattern that holds one
/// (`-F`, `-x` or `-e` with a newline in it), matches nothing line by line:
/// when it found nothing, say that `-U` lets it span lines (ripgrep refuses
/// such a pattern without `-U` and says the same). The newline is shown as
/// `\n`, so the note stays one line.
fn line_end_without_multiline(q: &Query, search: &Searched) -> Option<String> {
    let (text, holds_line_end) = match &q.kind {
        QueryKind::Regex(text) => (text, text.contains("\\n") || text.contains('\n')),
        QueryKind::Literal(text) => (text, text.contains('\n')),
        QueryKind::Natural => return None,
    };
    // With `--null-data` a line may hold one: a NUL ends it.
    let one_line = !q.matching.multiline && !q.matching.null_data;
    (one_line && search.selected.is_empty() && holds_line_end).then(|| {
        format!(
            "'{}' holds a line end (\\n), which a line never does: pass -U to let a match span lines",
            preview(&text.replace('\n', "\\n"))
        )
    })
}

/// A query written as a regex that the regex engine refuses (look-around,
/// a back-reference, an unclosed group) is read as natural language, as any
/// query that is not a regex is; ripgrep would refuse it. Say so, with the
/// engine's reason, so a ranked answer to words is not mistaken for the
/// regex's matches.
fn regex_read_as_words(q: &Query) -> Option<String> {
    let raw = q.raw.trim();
    let as_words = match &q.kind {
        QueryKind::Natural => true,
        // No word to search for: searched as the text it is (`wordless`).
        QueryKind::Literal(text) => crate::query::is_wordless(raw, text),
        QueryKind::Regex(_) => false,
    };
    if !as_words || !(crate::query::looks_like_regex(raw) || crate::query::regex_only_syntax(raw)) {
        return None;
    }
    let err = grep_regex::RegexMatcher::new(raw).err()?.to_string();
    let reason = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or("not a valid regex");
    let searched = if q.kind == QueryKind::Natural {
        "its words were searched as natural language"
    } else {
        "it was searched as the text it is"
    };
    Some(format!(
        "'{}' looks like a regex but is not one the default engine runs ({reason}); \
         {searched}; -P runs it as a regex",
        preview(raw)
    ))
}

/// Says, on stderr, what the reader of the output could not tell about how
/// the query was read (the wordless note is `find`'s, which caps the search).
pub(super) fn how_it_was_read(plan: &Plan, q: &Query, search: &Searched) {
    if q.kind == QueryKind::Natural && !q.terms.iter().any(matcher::is_searchable) {
        // The query had words, none of which a line can hold as a word.
        messages::line(&format!(
            "{:?} has no word that can be searched for (each is longer than {} bytes)",
            preview(q.raw.trim()),
            matcher::MAX_WORD_LEN
        ));
    }
    if let Some(note) = line_end_without_multiline(q, search) {
        messages::line(&note);
    }
    if let Some(note) = regex_read_as_words(q) {
        // A warning, so an MCP result carries it too.
        messages::warn(&note);
    }
    let one_word = one_word(q, search).or_else(|| run_together_word(q, search));
    if let Some(note) = one_word.filter(|_| prints_lines(plan)) {
        // A warning, so an MCP result carries it too.
        messages::warn(&note);
    }
}

/// Says, on stderr, which words of the query no file holds, when the lines
/// printed are kgrep's own ranking. Called after the model stage, on the
/// query and results as they stand then (an expansion may have found a form
/// of them); `model_chose` when the printed lines are the model's verified
/// claims, which it does not describe: "the lines printed hold the query's
/// other words" is kgrep's ranking's reason, not the model's (and rlmgrep
/// says nothing of the kind).
pub(super) fn words_no_file_holds(plan: &Plan, q: &Query, search: &Searched, model_chose: bool) {
    if !prints_lines(plan) || model_chose {
        return;
    }
    if let Some(note) = words_in_no_file(q, search) {
        messages::warn(&note);
    }
}

/// Whether the run prints lines (or an answer resting on them), the only
/// runs a note on which lines were printed is for.
fn prints_lines(plan: &Plan) -> bool {
    matches!(plan.mode, Mode::Grep | Mode::Answer) && plan.listing != Listing::Quiet
}

/// The words of a natural-language query that no file holds in any form
/// (stemmed, as a synonym, corrected, or joined into an identifier) while
/// other words of it printed lines: "how does the flux capacitor zorblat
/// work" printed the lines holding "work", as if they answered it. Said
/// when they are most of its words (over 26% of 390 everyday questions held
/// some word no file did); `None` when they are not, or nothing printed.
fn words_in_no_file(q: &Query, search: &Searched) -> Option<String> {
    if q.kind != QueryKind::Natural || search.selected.is_empty() {
        return None;
    }
    let held = |slot: usize| {
        q.terms
            .iter()
            .enumerate()
            .any(|(t, term)| term.slot == slot && search.df.get(t).is_some_and(|&df| df > 0))
    };
    // Each word of the query once: the first term of its slot (not a
    // joined form such as `in_pieces`, which shares the slot of `pieces`).
    let mut slots: Vec<(usize, &str)> = Vec::new();
    for term in q.terms.iter().filter(|t| t.origin == Origin::Query) {
        if !slots.iter().any(|&(s, _)| s == term.slot) {
            slots.push((term.slot, &term.text));
        }
    }
    let missing: Vec<&str> = slots
        .iter()
        .filter(|&&(s, _)| !held(s))
        .map(|&(_, w)| w)
        .collect();
    // A long question holds words no code uses ("versus", "together"):
    // said only when most of its words are in no file.
    if missing.is_empty() || 2 * missing.len() <= slots.len() {
        return None;
    }
    // At least two are missing: one of two is not most of them, and a
    // query of one word that no file holds prints nothing.
    let quoted: Vec<String> = missing
        .iter()
        .map(|w| format!("'{}'", preview(w)))
        .collect();
    let (last, rest) = quoted.split_last()?;
    Some(format!(
        "no file holds any of {} or {last} in any form: the lines printed hold the query's \
         other words, not these",
        rest.join(", ")
    ))
}

/// What happened to a query with no word to search for: one stderr line.
pub(super) fn wordless(raw: &str, total: usize, max: usize) -> String {
    let mut note = format!(
        "{:?} has no word to search for (stop words, one-letter words and punctuation are skipped); \
         searched for the exact text instead",
        preview(raw.trim())
    );
    if max > 0 && total > max {
        note.push_str(&format!(
            ": the first {max} of {total} matching lines (--max-lines), quote the query or pass -F to see them all"
        ));
    }
    note
}

/// Why nothing was searched: `no readable files`, and when some were
/// skipped as binary, how to search them.
pub(super) fn no_readable_files(stats: &LoadStats) -> String {
    match stats.binary {
        0 => "no readable files".to_string(),
        1 => "no readable files (1 binary file skipped; -a searches it as text)".to_string(),
        n => format!("no readable files ({n} binary files skipped; -a searches them as text)"),
    }
}

/// The start of a query for a message: a query of any length must not
/// flood stderr.
fn preview(raw: &str) -> String {
    const CHARS: usize = 40;
    match raw.char_indices().nth(CHARS) {
        Some((cut, _)) => format!("{}…", &raw[..cut]),
        None => raw.to_string(),
    }
}

/// What happened to a one-word query read as natural language when lines
/// holding the word were left out (issue 28, item 3): one stderr line saying
/// how it was read and how to print every match. A word is ranked like any
/// query (stemmed, with synonyms, the best places first, `--max-lines`), which
/// is what makes `kgrep retry` useful on a big tree; but `rg Abort` users
/// expect every line, so the cut is never silent. `None` when every line
/// holding it is printed, or no file holds it.
fn one_word(q: &Query, search: &Searched) -> Option<String> {
    let (raw, typed) = one_word_terms(q)?;
    let holding = typed
        .iter()
        .filter_map(|&t| search.df.get(t))
        .max()
        .copied()
        .unwrap_or(0);
    if holding == 0 || !left_out(q, search, &typed, holding) {
        return None;
    }
    let files = if holding == 1 { "file" } else { "files" };
    let shown = preview(raw);
    // The command to copy only when the whole query fits in the note; a
    // single quote in it is closed, escaped and reopened, as a shell reads it.
    let quoted = if shown == raw {
        format!(" (kgrep '\"{}\"')", raw.replace('\'', "'\\''"))
    } else {
        String::new()
    };
    Some(format!(
        "{shown:?} was read as natural language: the best places of the {holding} {files} \
         holding it in some form (stemmed, with synonyms), ranked; to print every line \
         holding it exactly, as ripgrep would, quote it{quoted} or pass -F"
    ))
}

/// A one-word query in no file, searched as the identifier it spells run
/// together (`csvformat`: `CSVFormat`, `csv_format`, `typo`'s reading), when
/// lines holding it were left out: the output shows other spellings than
/// the one typed and only the best places, so say what was searched and how
/// to print every spelling, as [`one_word`] says for a word the files hold.
/// `None` when a file holds the word as typed (then `one_word` speaks), no
/// identifier was found, or every line holding it printed.
fn run_together_word(q: &Query, search: &Searched) -> Option<String> {
    let (raw, typed) = one_word_terms(q)?;
    if typed
        .iter()
        .any(|&t| search.df.get(t).is_some_and(|&df| df > 0))
    {
        return None;
    }
    let slot = q.terms[*typed.first()?].slot;
    let (t, identifier) = q
        .terms
        .iter()
        .enumerate()
        .find(|(_, t)| t.slot == slot && t.origin == Origin::Fuzzy && !t.parts.is_empty())?;
    let holding = search.df.get(t).copied().unwrap_or(0);
    if holding == 0 || !left_out(q, search, &typed, holding) {
        return None;
    }
    let files = if holding == 1 { "file" } else { "files" };
    let mut note = format!(
        "{:?} is in no file: it was searched as the identifier it spells, {}, in any \
         spelling, and ranked: the best places of the {holding} {files} holding it",
        preview(raw),
        identifier.text
    );
    // Identifier parts are letters and digits: the regex needs no escape.
    let plain = |p: &String| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric());
    if identifier.parts.iter().all(plain) {
        note.push_str(&format!(
            "; to print every line holding one of its spellings, as ripgrep would, pass a \
             regex (kgrep -i '{}')",
            identifier.parts.join("[-_]?")
        ));
    }
    Some(note)
}

/// The raw text and typed terms of a query of one natural-language word
/// (one slot: CJK text has no spaces, but several words).
fn one_word_terms(q: &Query) -> Option<(&str, Vec<usize>)> {
    let raw = q.raw.trim();
    if q.kind != QueryKind::Natural || raw.contains(char::is_whitespace) {
        return None;
    }
    let typed: Vec<usize> = (0..q.terms.len())
        .filter(|&t| q.terms[t].origin == Origin::Query)
        .collect();
    let first = q.terms[*typed.first()?].slot;
    if typed.iter().any(|&t| q.terms[t].slot != first) {
        return None;
    }
    Some((raw, typed))
}

/// Whether the output left out lines holding the word of the `typed`
/// terms' slot (in any form the search gave it): some of the `holding`
/// files that hold it printed none, or a ranked file's line holding it did
/// not print.
fn left_out(q: &Query, search: &Searched, typed: &[usize], holding: usize) -> bool {
    let slots = typed.iter().fold(0u64, |acc, &t| {
        acc | crate::score::slot_bit(q.terms[t].slot)
    });
    let lines_holding = |f: &RankedFile| -> Vec<usize> {
        f.lines
            .iter()
            .filter(|l| l.slots & slots != 0)
            .map(|l| l.line)
            .collect()
    };
    let mut printed_files = 0;
    let mut all_lines = true;
    for f in &search.ranked {
        let holds = lines_holding(f);
        let printed = search
            .selected
            .iter()
            .find(|(h, _)| *h == f.haystack)
            .map(|(_, lines)| lines.as_slice())
            .unwrap_or_default();
        if holds.iter().any(|n| printed.contains(n)) {
            printed_files += 1;
        }
        all_lines &= holds.iter().all(|n| printed.contains(n));
    }
    !(all_lines && printed_files >= holding)
}

/// `-v`: the learned concepts the query's terms came from.
pub(super) fn learned_used(used: &[(String, crate::thesaurus::Standing)]) {
    if used.is_empty() {
        return;
    }
    let names: Vec<String> = used
        .iter()
        .map(|(n, s)| format!("{n} ({})", s.name()))
        .collect();
    messages::verbose(&format!(
        "thesaurus: from the learned layer: {}",
        names.join(", ")
    ));
}

/// `-v`: how often the run read each file from disk, the search's read
/// included (`document::counted_reads`): each file once, or the ones read
/// more.
pub(super) fn reads(counts: &std::collections::HashMap<String, u32>) {
    let mut again: Vec<(&String, &u32)> = counts.iter().filter(|(_, &n)| n > 1).collect();
    again.sort();
    messages::verbose(&format!(
        "reads: {} files read from disk, {}",
        counts.len(),
        if again.is_empty() {
            "each once".to_string()
        } else {
            format!("{} of them more than once", again.len())
        }
    ));
    for (key, n) in again {
        messages::verbose(&format!("reads: {key} read {n} times"));
    }
}
