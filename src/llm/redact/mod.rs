//! Credentials scrubbed from excerpts, queries and file paths before anything
//! leaves the machine, and the files that are secrets by nature.
//!
//! Owns: [`redact_lines`] (the one redactor every excerpt passes through in
//! `prompt`) and [`redact_text`] (the same on a whole file, fast), [`redact`]
//! for free text (the query, server error messages), [`redact_path`] (a
//! secret written in a file's path), and [`is_secret_file`] (`.env`,
//! `*.pem`, `id_rsa`, `terraform.tfstate`, …: never sent unless the user
//! opts in; `files`). It replaces only the secret part (`[REDACTED]`) and
//! never adds or removes a line, so line numbers in excerpts stay true.
//!
//! It is a safety net, not a guarantee. It knows: the key shapes of the
//! major providers, random-looking and key-length hex tokens (`shapes`),
//! also split over string literals (`"ghp_" + "…"`, over two lines too);
//! private-key blocks (and bare key bodies: lines of base64 without their
//! BEGIN/END); and by their context (`line`) assignments of secret-looking
//! names in any syntax (typed, `#define`, a YAML block scalar or a
//! parenthesised value on the next lines, a Markdown table's next cell),
//! connection strings and DSNs,
//! passwords and secret query values in URLs, webhooks, authorization
//! headers, command lines (`curl -u`, `mysql -p`, `sshpass -p`,
//! `--password`), credentials passed positionally, and a token in one case
//! (lower-case hex or letters and digits, a UUID: random by its entropy and
//! how its letters and digits alternate) written after a secret's name in
//! any syntax (`token: … # comment`, `f(api_key=…)`, `the token is …`), or
//! as a whole quoted literal of 16 or more (`Client("…")`, `key = "…"`)
//! that no word just before calls a digest or an id. A secret that looks
//! like a word, or a token in one case outside quotes (which only a name
//! tells from a digest), under a name that does not say secret, can still
//! get through.

mod files;
mod line;
mod shapes;

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

pub use files::is_secret_file;
pub use shapes::{holds_random_run, is_secret_token};

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// What each line of a private-key block becomes.
const KEY_LINE: &str = "[REDACTED] (private key)";
/// What each line of a bare key body (base64 lines without BEGIN/END) becomes.
const KEY_BODY_LINE: &str = "[REDACTED] (key material)";

static KEY_BEGIN: LazyLock<Regex> =
    LazyLock::new(|| regex(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"));
static KEY_END: LazyLock<Regex> =
    LazyLock::new(|| regex(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"));

/// A bare base64 line (a key body without its BEGIN/END lines).
static BASE64_LINE: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*[A-Za-z0-9+/]+={0,2}\s*$"));

/// Shortest bare base64 line that starts a key body: PEM and OpenSSH bodies
/// are 64 or 70 characters a line; 40 is an AWS secret.
const MIN_KEY_LINE: usize = 40;

/// Compiles one of the constant patterns of this module and its submodules
/// (a unit test compiles them all).
fn regex(pattern: &str) -> Regex {
    #[allow(clippy::expect_used)]
    Regex::new(pattern).expect("constant redaction pattern compiles")
}

/// Text with its secrets replaced, and how many were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    pub count: usize,
}

/// Redacts free text (any number of lines; line breaks kept).
pub fn redact(text: &str) -> Redacted {
    let lines: Vec<&str> = text.split('\n').collect();
    let (lines, count) = redact_lines(&lines);
    Redacted {
        text: lines.join("\n"),
        count,
    }
}

/// A file path with every part that holds a secret redacted
/// (`src/sk-proj-….py` → `src/[REDACTED].py`), or `None` when no part does.
/// Each part is redacted as free text is.
pub fn redact_path(path: &str) -> Option<String> {
    let mut count = 0;
    let parts: Vec<String> = path
        .split('/')
        .map(|part| {
            let r = redact(part);
            count += r.count;
            r.text
        })
        .collect();
    (count > 0).then(|| parts.join("/"))
}

/// Longest server error message kept for a warning, in chars.
pub const MAX_MESSAGE_CHARS: usize = 200;

/// One printable line: `secret` (the API key, if any) and credentials redacted,
/// control characters dropped, whitespace collapsed, cut to a short length.
pub(crate) fn one_line(text: &str, secret: Option<&str>) -> String {
    let mut text = text.to_string();
    if let Some(secret) = secret.filter(|k| k.len() >= 4) {
        // In any case: a server may echo the key upper- or lower-cased.
        text = without_phrase(&text, secret);
    }
    let text = redact(&text).text;
    let words: Vec<&str> = text.split_whitespace().collect();
    let line: String = words
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    crate::render::cut::ellipsize(&line, MAX_MESSAGE_CHARS + 1)
}

/// `text` with every occurrence of `phrase` (a known secret, such as the
/// API key), in any letter case, replaced by [`REDACTED`].
pub fn without_phrase(text: &str, phrase: &str) -> String {
    match regex::RegexBuilder::new(&regex::escape(phrase))
        .case_insensitive(true)
        .build()
    {
        Ok(re) => re.replace_all(text, REDACTED).into_owned(),
        // An escaped literal always compiles; were it ever too long to,
        // the exact replacement still applies.
        Err(_) => text.replace(phrase, REDACTED),
    }
}

/// [`without_phrase`], and then every run of at least `min` characters of
/// `phrase` (in any ASCII letter case) replaced by [`REDACTED`]: a server
/// that echoes part of the API key (its last 16 characters, its first 20)
/// gets no part of it shown that is long enough to narrow a guess. Pieces
/// that touch or overlap are one run, elided once.
pub fn without_pieces(text: &str, phrase: &str, min: usize) -> String {
    let whole = without_phrase(text, phrase);
    let bytes = phrase.as_bytes();
    if min == 0 || bytes.len() <= min {
        return whole;
    }
    // Pieces of the key's bytes, cut where the key's characters allow.
    let pieces: Vec<&str> = (0..=bytes.len() - min)
        .filter_map(|start| phrase.get(start..start + min))
        .collect();
    let Ok(finder) = aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&pieces)
    else {
        return whole;
    };
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for found in finder.find_overlapping_iter(&whole) {
        match runs.last_mut() {
            Some(last) if found.start() <= last.end => last.end = last.end.max(found.end()),
            _ => runs.push(found.range()),
        }
    }
    if runs.is_empty() {
        return whole;
    }
    let mut out = String::with_capacity(whole.len());
    let mut at = 0;
    for run in runs {
        out.push_str(&whole[at..run.start]);
        out.push_str(REDACTED);
        at = run.end;
    }
    out.push_str(&whole[at..]);
    out
}

/// What a line leaves open for the next one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Carry {
    /// Inside a secret's YAML block scalar: lines indented deeper than this
    /// are its value.
    block: Option<usize>,
    /// Inside a secret's parentheses (`PASSWORD = (`): this many more lines
    /// at most, up to the one with `)`.
    paren: usize,
    /// The line before ended a secret's assignment (`PASSWORD =`).
    next: bool,
}

impl Carry {
    fn is_open(&self) -> bool {
        *self != Carry::default()
    }
}

/// What one line became: its text as sent, the secrets replaced, what it
/// leaves open, and the range of the line before (as sent) that is a piece
/// of a secret split over both lines (the caller redacts it there).
struct Step {
    text: String,
    count: usize,
    carry: Carry,
    before: Option<std::ops::Range<usize>>,
}

/// One line through the rules, given the line before (`before`, as sent)
/// and what it left open.
fn step(line: &str, before: &str, carry: &Carry) -> Step {
    if let Some(indent) = carry.block {
        let lead = line.len() - line.trim_start().len();
        let open = Carry {
            block: Some(indent),
            ..Carry::default()
        };
        let kept = line.trim().is_empty() || (lead > indent && line.trim() == REDACTED);
        if kept || lead > indent {
            let (text, count) = if kept {
                (line.to_string(), 0)
            } else {
                (format!("{}{REDACTED}", &line[..lead]), 1)
            };
            return Step {
                text,
                count,
                carry: open,
                before: None,
            };
        }
    }
    let out = line::redact_line(line);
    let mut text = out.text;
    let mut count = out.count;
    if carry.paren > 0 || carry.next {
        text = line::blank_value_literals(&text, &mut count);
    }
    // A literal ending the line before that this line's first literal
    // continues: a secret split over two lines.
    let mut split = None;
    if let Some(tail) = line::tail_literal(before) {
        let hit;
        (text, hit) = line::continue_tail(&before[tail.clone()], &text, &mut count);
        split = hit.then_some(tail);
    }
    let mut next = Carry::default();
    match out.opens {
        line::Opens::Block(indent) => next.block = Some(indent),
        line::Opens::Paren => next.paren = line::PAREN_LINES,
        line::Opens::NextLine => next.next = true,
        line::Opens::Nothing => {}
    }
    if carry.paren > 0 && !text.contains(')') {
        next.paren = next.paren.max(carry.paren - 1);
    }
    Step {
        text,
        count,
        carry: next,
        before: split,
    }
}

/// Redacts the lines of one excerpt; the result has exactly as many lines. A
/// private-key block is blanked from `BEGIN` to `END`, also when the excerpt
/// starts or ends inside it.
pub fn redact_lines<S: AsRef<str>>(lines: &[S]) -> (Vec<String>, usize) {
    let lines: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let (text, count) = redact_each(&lines, None, Some(&mut starts));
    starts.push(text.len() + 1);
    let out = starts
        .windows(2)
        .map(|w| text[w[0]..w[1] - 1].to_string())
        .collect();
    (out, count)
}

/// Lines [`line::redact_line`] may change or leave something open on hold
/// one of these (a superset of its rules, found in one pass over a whole
/// text): a token shape's prefix, an auth scheme, a URL's `user:password@`
/// or webhook, a word that a secret name, a login or connection call or a
/// command line holds, a well-known account name quoted, two literals
/// joined, a token run long enough to be random or a hex key, or a quoted
/// literal that starts with 16 letters and digits (a random one in one
/// case). A line
/// that may continue a literal of the line before is found by
/// [`SPLIT_LINES`].
static MAY_REDACT: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        concat!(
            r"(?i)pass|secret|token|key|credential|pw|bearer|basic|log_?in|logon|sign_?in|auth",
            r"|connect(?:ion)?[ \t]*\(|identified|curl|--user|mysql|mariadb|sig(?:nature)?=|hooks\.slack|discord",
            r"|://[^\s/]*@|[A-Za-z0-9+/_\-]{{20}}|[\x22'][A-Za-z0-9]{{16}}",
            r"|sk_|rk_|{shapes}",
            r#"|["'](?:{accounts})["']"#,
            r#"|["'`]{joined}["'`]"#,
        ),
        shapes = shapes::SHAPES.join("|"),
        accounts = line::ACCOUNTS,
        joined = line::JOINED,
    ))
});

/// A literal ending a line and one starting the next (after a joiner at
/// most): a secret split over the two lines may be. The second line is the
/// one [`line::redact_line`]'s step may change.
static SPLIT_LINES: LazyLock<Regex> = LazyLock::new(|| {
    let joiner = line::JOINED;
    regex(&format!(r#"["'`]{joiner}\n{joiner}["'`]"#))
});

/// [`BASE64_LINE`] over a whole text: the lines that may be a key body.
static BASE64_LINES: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?m)^[^\S\n]*[A-Za-z0-9+/]+={0,2}[^\S\n]*$"));

/// A whole text (a file, its lines split on `\n`) redacted exactly as
/// [`redact_lines`] redacts its lines, but fast on a large file: one scan of
/// the text per pattern finds the lines a rule could change, and only those
/// (and the lines a line before left something open for) are redacted line
/// by line. `None` when nothing was redacted.
pub fn redact_text(text: &str) -> Option<Redacted> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect();
    let lines_of = |re: &Regex| -> Vec<usize> {
        let mut out: Vec<usize> = re
            .find_iter(text)
            .map(|m| starts.partition_point(|&s| s <= m.start()) - 1)
            .collect();
        out.dedup();
        out
    };
    let mut scan = Scan {
        begins: lines_of(&KEY_BEGIN),
        ends: lines_of(&KEY_END),
        bodies: lines_of(&BASE64_LINES),
        candidates: lines_of(&MAY_REDACT),
    };
    // The second line of each split (where the match ends).
    scan.candidates.extend(
        SPLIT_LINES
            .find_iter(text)
            .map(|m| starts.partition_point(|&s| s < m.end()) - 1),
    );
    scan.candidates.sort_unstable();
    scan.candidates.dedup();
    if [&scan.begins, &scan.ends, &scan.bodies, &scan.candidates]
        .iter()
        .all(|set| set.is_empty())
    {
        return None;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let (text, count) = redact_each(&lines, Some(&scan), None);
    (count > 0).then_some(Redacted { text, count })
}

/// The lines of a whole text that a rule may apply to, found by one scan of
/// the text per pattern; a superset of the lines each rule changes.
struct Scan {
    begins: Vec<usize>,
    ends: Vec<usize>,
    bodies: Vec<usize>,
    candidates: Vec<usize>,
}

impl Scan {
    fn has(set: &[usize], i: usize) -> bool {
        set.binary_search(&i).is_ok()
    }
}

/// The redactor of [`redact_lines`] and [`redact_text`]: `lines` redacted and
/// joined with `\n`, and how many secrets were. A private-key block is
/// blanked from `BEGIN` to `END`, a bare key body whole; any other line goes
/// through [`step`] with what the line before left open. With a `scan`, its
/// sets answer the pattern tests, and a line no rule may change (and the
/// line before left nothing open for) is copied as it is. `starts`, when
/// given, receives where each line starts in the result.
fn redact_each(
    lines: &[&str],
    scan: Option<&Scan>,
    mut starts: Option<&mut Vec<usize>>,
) -> (String, usize) {
    // Whether line `i` may match what `set` holds the scan's lines of, or
    // matches `re` when there is no scan.
    let may = |i: usize, set: fn(&Scan) -> &[usize]| scan.is_none_or(|s| Scan::has(set(s), i));
    let is = |i: usize, re: &Regex, set: fn(&Scan) -> &[usize]| match scan {
        Some(s) => Scan::has(set(s), i),
        None => re.is_match(lines[i]),
    };
    let begins = |i| is(i, &KEY_BEGIN, |s| &s.begins);
    let ends = |i| is(i, &KEY_END, |s| &s.ends);
    // An END before any BEGIN: the text started inside a key block.
    let mut in_key = match (
        (0..lines.len()).find(|&i| ends(i)),
        (0..lines.len()).find(|&i| begins(i)),
    ) {
        (Some(end), Some(begin)) => end < begin,
        (Some(_), None) => true,
        _ => false,
    };
    // Inside a bare key body (base64 lines without BEGIN/END).
    let mut in_body = false;
    let mut carry = Carry::default();
    let mut count = 0;
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    // Where the line before starts in `out`.
    let mut before_start = 0;
    for (i, &line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // A stray END (no BEGIN since the last one) is blanked too: it holds
        // no secret, but left as it is, a second redaction would read it as
        // the end of a block the text starts inside and blank the lines
        // before it again.
        let text: Cow<'_, str> = if in_key || begins(i) || ends(i) {
            in_key = !ends(i);
            count += 1;
            carry = Carry::default();
            Cow::Borrowed(KEY_LINE)
        } else {
            in_body = may(i, |s| &s.bodies) && is_key_body_line(line, in_body);
            if in_body {
                count += 1;
                carry = Carry::default();
                Cow::Borrowed(KEY_BODY_LINE)
            } else if may(i, |s| &s.candidates) || carry.is_open() {
                let start = out.len();
                let before = out
                    .get(before_start..start.saturating_sub(1).max(before_start))
                    .unwrap_or("");
                let done = step(line, before, &carry);
                count += done.count;
                if let Some(piece) = done.before {
                    out.replace_range(
                        before_start + piece.start..before_start + piece.end,
                        REDACTED,
                    );
                    count += 1;
                }
                carry = done.carry;
                Cow::Owned(done.text)
            } else {
                carry = Carry::default();
                Cow::Borrowed(line)
            }
        };
        before_start = out.len();
        if let Some(starts) = starts.as_deref_mut() {
            starts.push(before_start);
        }
        out.push_str(&text);
    }
    (out, count)
}

/// Whether `line` is part of a bare key body: a whole line of base64 that
/// is long and mixed (`MIN_KEY_LINE`), or any base64 line right after one
/// (`in_body`: the body's short last line).
fn is_key_body_line(line: &str, in_body: bool) -> bool {
    if !BASE64_LINE.is_match(line) {
        return false;
    }
    let body = line.trim().trim_end_matches('=');
    in_body || (body.len() >= MIN_KEY_LINE && shapes::has_mixed_classes(body))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
