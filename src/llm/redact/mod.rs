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
//! parenthesised value on the next lines), connection strings and DSNs,
//! passwords and secret query values in URLs, webhooks, authorization
//! headers, command lines (`curl -u`, `mysql -p`, `sshpass -p`,
//! `--password`), credentials passed positionally. A secret that looks like
//! a word, under a name that does not say secret, can still get through.

mod files;
mod line;
mod shapes;

use std::sync::LazyLock;

use regex::Regex;

pub use files::is_secret_file;
pub use line::is_secret_name;
pub use shapes::is_secret_token;

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// What each line of a private-key block becomes.
pub const KEY_LINE: &str = "[REDACTED] (private key)";
/// What each line of a bare key body (base64 lines without BEGIN/END) becomes.
pub const KEY_BODY_LINE: &str = "[REDACTED] (key material)";
/// The whole-line replacements.
pub const LINE_MARKERS: [&str; 2] = [KEY_LINE, KEY_BODY_LINE];

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
    let mut count = 0;
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let first_end = lines.iter().position(|l| KEY_END.is_match(l.as_ref()));
    let first_begin = lines.iter().position(|l| KEY_BEGIN.is_match(l.as_ref()));
    // An END before any BEGIN: the excerpt started inside a key block.
    let mut in_key = match (first_end, first_begin) {
        (Some(end), Some(begin)) => end < begin,
        (Some(_), None) => true,
        _ => false,
    };
    // Inside a bare key body (base64 lines without BEGIN/END).
    let mut in_body = false;
    let mut carry = Carry::default();
    for line in lines {
        let line = line.as_ref();
        let begins = KEY_BEGIN.is_match(line);
        if in_key || begins {
            in_key = !KEY_END.is_match(line);
            count += 1;
            out.push(KEY_LINE.to_string());
            carry = Carry::default();
            continue;
        }
        in_body = is_key_body_line(line, in_body);
        if in_body {
            count += 1;
            out.push(KEY_BODY_LINE.to_string());
            carry = Carry::default();
            continue;
        }
        let before = out.last().map_or("", String::as_str);
        let done = step(line, before, &carry);
        if let (Some(piece), Some(last)) = (done.before, out.last_mut()) {
            last.replace_range(piece, REDACTED);
            count += 1;
        }
        count += done.count;
        out.push(done.text);
        carry = done.carry;
    }
    (out, count)
}

/// Lines [`line::redact_line`] may change or leave something open on hold
/// one of these (a superset of its rules, found in one pass over a whole
/// text): a token shape's prefix, an auth scheme, a URL's `user:password@`
/// or webhook, a word that a secret name, a login or connection call or a
/// command line holds, a well-known account name quoted, two literals
/// joined, or a token run long enough to be random or a hex key. A line
/// that may continue a literal of the line before is found by
/// [`SPLIT_LINES`].
static MAY_REDACT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)pass|secret|token|key|credential|pw|bearer|basic|log_?in|logon|sign_?in|auth",
        r"|connect(?:ion)?[ \t]*\(|identified|curl|--user|mysql|mariadb|sig(?:nature)?=|hooks\.slack|discord",
        r"|://[^\s/]*@|[A-Za-z0-9+/_\-]{20}",
        r"|sk-|sk_|rk_|xox|eyj|hf_|npm_|gh[pousr]_|github_pat_|glpat-|aiza",
        r"|akia|asia|abia|acca|agpa|aida|aroa|anpa|aipa",
        r#"|["'](?:root|admin|administrator|sa|postgres|superuser|user|guest|dbuser|dbadmin|sysdba|oracle|ec2-user)["']"#,
        r#"|["'`][ \t\r]*(?:\+|\.\.?|&|\|\||\\)?[ \t\r]*["'`]"#,
    ))
});

/// A literal ending a line and one starting the next (after a joiner at
/// most): a secret split over the two lines may be. The second line is the
/// one [`line::redact_line`]'s step may change.
static SPLIT_LINES: LazyLock<Regex> = LazyLock::new(|| {
    let joiner = r"[ \t\r]*(?:\+|\.\.?|&|\|\||\\)?[ \t\r]*";
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
    let begins = lines_of(&KEY_BEGIN);
    let ends = lines_of(&KEY_END);
    let bodies = lines_of(&BASE64_LINES);
    let mut candidates = lines_of(&MAY_REDACT);
    // The second line of each split (where the match ends).
    candidates.extend(
        SPLIT_LINES
            .find_iter(text)
            .map(|m| starts.partition_point(|&s| s < m.end()) - 1),
    );
    candidates.sort_unstable();
    candidates.dedup();
    if begins.is_empty() && ends.is_empty() && bodies.is_empty() && candidates.is_empty() {
        return None;
    }
    let has = |set: &[usize], i: usize| set.binary_search(&i).is_ok();
    // `redact_lines`' state machine, its pattern tests answered by the scans.
    let mut in_key = match (ends.first(), begins.first()) {
        (Some(end), Some(begin)) => end < begin,
        (Some(_), None) => true,
        _ => false,
    };
    let mut in_body = false;
    let mut carry = Carry::default();
    let mut count = 0;
    let mut out = String::with_capacity(text.len());
    // Where the line before starts in `out`.
    let mut before_start = 0;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let start = out.len();
        if in_key || has(&begins, i) {
            in_key = !has(&ends, i);
            count += 1;
            out.push_str(KEY_LINE);
            carry = Carry::default();
            before_start = start;
            continue;
        }
        in_body = has(&bodies, i) && is_key_body_line(line, in_body);
        if in_body {
            count += 1;
            out.push_str(KEY_BODY_LINE);
            carry = Carry::default();
            before_start = start;
            continue;
        }
        if has(&candidates, i) || carry.is_open() {
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
            let start = out.len();
            out.push_str(&done.text);
            carry = done.carry;
            before_start = start;
        } else {
            out.push_str(line);
            carry = Carry::default();
            before_start = start;
        }
    }
    (count > 0).then_some(Redacted { text: out, count })
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
