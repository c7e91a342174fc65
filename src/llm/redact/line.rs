//! The rules that find a secret on one line by its context: a secret-named
//! assignment in any language's syntax (a Markdown table's row too),
//! connection strings and URLs,
//! authorization headers, command lines, credentials passed positionally,
//! and a token split over several string literals. Each replaces only the
//! secret part with `[REDACTED]`.
//!
//! Owns the names that say "secret" ([`is_secret_name`]), the string
//! literals of a line ([`literals`]) and what a line leaves open for the next
//! ([`Opens`]: a YAML block scalar, a parenthesised or next-line value).
//! Does not own the shapes of tokens (`redact::shapes`), the state carried
//! from line to line or key blocks (`redact`), nor secret files
//! (`redact::files`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::shapes::{
    is_hex_key, is_random_literal, is_secret_token, looks_random, names_a_digest,
    names_a_digest_nearby, secret_ranges, TOKEN_RUN, TOKEN_SHAPES,
};
use super::{regex, REDACTED};

/// Shortest quoted value treated as a secret in an assignment: shorter ones are
/// lexer tokens (`token = "("`), not credentials.
const MIN_ASSIGNED_SECRET: usize = 4;
/// Lines of a parenthesised secret value (`PASSWORD = (` … `)`) redacted
/// at most.
pub(super) const PAREN_LINES: usize = 8;

/// What a line leaves open: the value of its secret-named assignment goes on
/// on the next lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Opens {
    #[default]
    Nothing,
    /// `password: |` / `password: >-`: the lines indented deeper than this
    /// many bytes are the value.
    Block(usize),
    /// `PASSWORD = (` (or `= ("first piece"`): the literals up to `)`.
    Paren,
    /// `PASSWORD =` or `PASSWORD = \`: the next line's literals.
    NextLine,
}

/// One line redacted: its text, how many secrets were replaced, and what it
/// leaves open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Line {
    pub text: String,
    pub count: usize,
    pub opens: Opens,
}

/// A string literal on one line: `line[start..end]` is its content, between
/// its quotes (at `start - 1` and at `end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Literal {
    pub start: usize,
    pub end: usize,
}

impl Literal {
    fn content<'a>(&self, line: &'a str) -> &'a str {
        &line[self.start..self.end]
    }
}

/// The string literals of a line, in order: `"…"`, `'…'` and `` `…` ``,
/// with backslash escapes. An apostrophe after a letter or digit (`don't`)
/// opens none, nor does a quote never closed on the line (`&'static str`).
pub(super) fn literals(line: &str) -> Vec<Literal> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        let opens = matches!(q, b'"' | b'\'' | b'`')
            && !(q == b'\'' && (i > 0 && b[i - 1].is_ascii_alphanumeric() || is_lifetime(b, i)));
        if opens {
            let mut j = i + 1;
            let mut close = None;
            while j < b.len() {
                if b[j] == b'\\' {
                    j += 2;
                    continue;
                }
                if b[j] == q {
                    close = Some(j);
                    break;
                }
                j += 1;
            }
            if let Some(j) = close {
                out.push(Literal {
                    start: i + 1,
                    end: j,
                });
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Whether the apostrophe at `i` starts a Rust lifetime (`&'static str`,
/// `<'a>`), not a literal: after `&` or `<`, a name not closed by `'`.
fn is_lifetime(b: &[u8], i: usize) -> bool {
    let after_ref = i > 0 && matches!(b[i - 1], b'&' | b'<');
    let name = b[i + 1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    after_ref && name > 0 && b.get(i + 1 + name) != Some(&b'\'')
}

/// What may stand between two pieces of one string: nothing (C and
/// Python's adjacent literals), `+`, `.` (PHP), `..` (Lua), `&` (VB), `||`
/// (SQL), or a line continuation.
static JOINER: LazyLock<Regex> = LazyLock::new(|| regex(&format!("^{JOINED}$")));

/// [`JOINER`]'s text, also in the patterns that find lines to redact.
pub(super) const JOINED: &str = r"[ \t\r]*(?:\+|\.\.?|&|\|\||\\)?[ \t\r]*";

/// The literals of `line` chained by joiners (`"ghp_" + "…"`), each chain
/// of two or more pieces.
fn chains(line: &str, lits: &[Literal]) -> Vec<Vec<Literal>> {
    let mut out: Vec<Vec<Literal>> = Vec::new();
    let mut chain: Vec<Literal> = Vec::new();
    for lit in lits {
        let joined = chain
            .last()
            .is_some_and(|prev| JOINER.is_match(&line[prev.end + 1..lit.start - 1]));
        if !joined && chain.len() > 1 {
            out.push(std::mem::take(&mut chain));
        }
        if !joined {
            chain.clear();
        }
        chain.push(*lit);
    }
    if chain.len() > 1 {
        out.push(chain);
    }
    out
}

/// The pieces of `pieces` (literals of `line`, in order, joined into one
/// string; `prefix` is a piece from an earlier line, joined before them)
/// that hold part of a secret once joined. Returns which of `pieces` to
/// redact, and whether `prefix` is part of one.
fn split_secret(line: &str, prefix: &str, pieces: &[Literal]) -> (Vec<Literal>, bool) {
    let mut joined = prefix.to_string();
    let mut spans = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let start = joined.len();
        joined.push_str(piece.content(line));
        spans.push(start..joined.len());
    }
    if joined.contains(REDACTED) {
        return (Vec::new(), false);
    }
    let before = pieces.first().map_or("", |p| &line[..p.start - 1]);
    let ranges = secret_ranges(&joined, before);
    let hits = |span: &Range<usize>| {
        span.start < span.end
            && ranges
                .iter()
                .any(|r| r.start < span.end && span.start < r.end)
    };
    let redact: Vec<Literal> = pieces
        .iter()
        .zip(&spans)
        .filter(|(_, span)| hits(span))
        .map(|(p, _)| *p)
        .collect();
    let prefix_hit = hits(&(0..prefix.len()));
    // A piece alone that is the whole secret was redacted already; a split
    // one spans two pieces at least.
    if redact.len() + usize::from(prefix_hit) < 2 {
        return (Vec::new(), false);
    }
    (redact, prefix_hit)
}

/// `line` with the content of each literal replaced by [`REDACTED`].
fn blank_literals(line: &str, lits: &[Literal], count: &mut usize) -> String {
    let ranges: Vec<Range<usize>> = lits.iter().map(|l| l.start..l.end).collect();
    blank(line, ranges, count)
}

/// `text` with each range replaced by [`REDACTED`]: ranges sorted, the
/// second of two that overlap dropped, ranges that are empty or overlap a
/// marker already there (`-p[REDACTED` read as a value) kept as they are.
fn blank(text: &str, mut ranges: Vec<Range<usize>>, count: &mut usize) -> String {
    ranges.sort_by_key(|r| (r.start, r.end));
    let markers: Vec<Range<usize>> = text
        .match_indices(REDACTED)
        .map(|(i, m)| i..i + m.len())
        .collect();
    let marked = |r: &Range<usize>| markers.iter().any(|m| m.start < r.end && r.start < m.end);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for r in ranges {
        if r.start < last || r.start >= r.end || marked(&r) {
            continue;
        }
        out.push_str(&text[last..r.start]);
        out.push_str(REDACTED);
        *count += 1;
        last = r.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Splits of a secret over literals on one line: `"ghp_" + "…"`, `"AKIA"
/// "…"`, a JWT in three pieces.
fn split_literals(line: &str, count: &mut usize) -> String {
    let lits = literals(line);
    let mut redact = Vec::new();
    for chain in chains(line, &lits) {
        redact.extend(split_secret(line, "", &chain).0);
    }
    blank_literals(line, &redact, count)
}

/// The last literal of a line when the next line may continue it: nothing
/// but a joiner after it (`x = ("wJalr…"`, `"AKIA" +`), no whitespace in it.
pub(super) fn tail_literal(line: &str) -> Option<Range<usize>> {
    let last = *literals(line).last()?;
    let content = last.content(line);
    let open = JOINER.is_match(&line[last.end + 1..])
        && !content.is_empty()
        && !content.contains(char::is_whitespace)
        && !content.contains(REDACTED);
    open.then_some(last.start..last.end)
}

/// `line` when it continues the literal `tail` of the line before (it
/// starts with a literal, after a joiner at most): its pieces of a secret
/// that is split over the two lines redacted, and whether `tail` is one.
pub(super) fn continue_tail(tail: &str, line: &str, count: &mut usize) -> (String, bool) {
    let lits = literals(line);
    let Some(first) = lits.first() else {
        return (line.to_string(), false);
    };
    if !JOINER.is_match(&line[..first.start - 1]) {
        return (line.to_string(), false);
    }
    let chain = chains(line, &lits)
        .into_iter()
        .find(|c| c.first() == Some(first))
        .unwrap_or_else(|| vec![*first]);
    let (redact, tail_hit) = split_secret(line, tail, &chain);
    (blank_literals(line, &redact, count), tail_hit)
}

/// Whether `text` is string literals and joiners only (`"a" + "b"`,
/// `"piece")`): a string value, not an expression (`(user + ":" + pw)`)
/// nor a tuple (`("a", "b")`).
fn is_string_value(text: &str) -> bool {
    let mut rest = String::with_capacity(text.len());
    let mut last = 0;
    for lit in literals(text) {
        rest.push_str(&text[last..lit.start - 1]);
        last = lit.end + 1;
    }
    rest.push_str(&text[last..]);
    rest.chars()
        .all(|c| c.is_whitespace() || "+.&|\\();".contains(c))
}

/// Every literal of a line of a secret value that goes on from the line
/// before (`PASSWORD = (` … `)`), when not empty and the line is a string
/// value.
pub(super) fn blank_value_literals(line: &str, count: &mut usize) -> String {
    if !is_string_value(line) {
        return line.to_string();
    }
    let lits: Vec<Literal> = literals(line)
        .into_iter()
        .filter(|l| !l.content(line).trim().is_empty())
        .collect();
    blank_literals(line, &lits, count)
}

/// `Bearer <token>` / `Basic <token>`: the scheme is kept.
static AUTH_SCHEME: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{16,}=*"));

/// An `Authorization` header's name and separator: its value follows.
static AUTH_HEADER: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"(?i)\b(?:proxy-)?authorization(["']?)(\s*[:=]\s*)"#));

/// `scheme://user:password@host` and `redis://:password@host`: the password.
static URL_PASSWORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s/:@]*:)[^\s/@]+@"));

/// A URL's query or fragment: `?token=…&api_key=…`, `#access_token=…`.
static URL_QUERY: LazyLock<Regex> = LazyLock::new(|| regex(r"[?#]([^\s'`\x22<>]+)"));

/// A Slack or Discord webhook: its path is the secret.
static WEBHOOK: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)(hooks\.slack\.com/(?:services|workflows|triggers)/|discord(?:app)?\.com/api/webhooks/)[A-Za-z0-9_/\-]+",
    )
});

/// A quoted key-length hex string, or one after `=` / `:` (not in
/// backticks: Markdown's code span around a commit in prose).
static HEX_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"(["']|[=:][^\S\n]*)((?:0x)?[0-9A-Fa-f]{32,128})(["'`]|[^0-9A-Za-z]|$)"#)
});

/// `name = "value"`, `"name": "value"`, `name := 'value'`, and with a type
/// between (`password: str = "…"`, `const DB_PASSWORD: &str = "…"`,
/// `static TOKEN: &'static str = "…"`, `var password string = "…"`).
static QUOTED_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    let ty = r"[&*]?\s*(?:'[A-Za-z_]+\s+)?(?:mut\s+)?[A-Za-z_][A-Za-z0-9_.:<>\[\]]*";
    regex(&format!(
        r#"(["']?)([A-Za-z_][A-Za-z0-9_.\-]*)(["']?\s*(?::=|=>|=|:|:\s*{ty}\s*=|\s+{ty}\s*=)\s*)("([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`)"#
    ))
});

/// A secret's name as a literal, then a literal: the next argument
/// (`define('DB_PASSWORD', '…')`), an index assigned (`ENV["API_KEY"] =
/// "…"`, `||=`, `??=`), an XML `key="…" value="…"` pair.
static NAMED_LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:"([A-Za-z_][A-Za-z0-9_.\-]*)"|'([A-Za-z_][A-Za-z0-9_.\-]*)')(?:\s*,|\s*\]\s*(?:\|\||\?\?)?=|\s+value\s*=)\s*(?:"([^"\n]*)"|'([^'\n]*)')"#,
    )
});

/// A secret-named assignment's fallback literal: `SECRET =
/// process.env.SECRET || "…"`, `?? "…"`, `os.getenv("S") or "…"`.
static FALLBACK: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"\b([A-Za-z_][A-Za-z0-9_.]*)\s*(?::\s*[A-Za-z_][^=\n]*)?=[^=][^=;\n]*?(?:\|\||\?\?|\bor\b)\s*(?:"([^"\n]*)"|'([^'\n]*)')"#,
    )
});

/// A `login` command's `-p PASSWORD` (`docker login -u bot -p …`,
/// `podman login`, `oc login`).
static LOGIN_PASSWORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"\blogin\b[^\n]*?\s-p\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s"']+))"#));

/// `<password>…</password>`, `<ns:secret>…</ns:secret>`: an XML element's
/// text on one line (the names compared in code).
static XML_ELEMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"<([A-Za-z_][A-Za-z0-9_.:\-]*)>([^<>\s]+)</([A-Za-z_][A-Za-z0-9_.:\-]*)>")
});

/// C's `#define DB_PASSWD "…"` (quoted: an unquoted value is a macro).
static DEFINE: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"^(\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\s+)(?:"([^"\n]*)"|'([^'\n]*)')"#)
});

/// A whole line `NAME=value` / `name: value` (dotenv, YAML, INI), unquoted.
static LINE_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_.\-]*)(\s*[=:]\s*)([^\s"'`(]+)\s*$"#)
});

/// `name=value` inside a line, unquoted: in a connection string, a libpq
/// DSN, a header written as text, a command's `--password=…`, an
/// environment variable before a command.
static INLINE_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(^|[^A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_.\-]*)(\s*[=:]\s*)([^\s;&,'`\x22()\[\]{}<>|=\\][^\s;&,'`\x22()\[\]{}<>|\\]*)",
    )
});

/// A secret word, then its value as prose writes it: `password
/// Hunter2Hunter2`, `token is …`, `password = …` in a query.
static WORD_THEN_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(password|passwd|passphrase|pwd|token|secret|api[_ -]?key)(\s*[=:]\s*|\s+(?:is\s+|was\s+)?)([^\s'`\x22,;:.()\[\]{}<>&\\]+)([^\s]?)",
    )
});

/// A name, then a value shaped like a token after `:`, `=`, `=>`, `:=` or
/// a space (`token: … # prod`, `{api_key: …}`, `f(token=…, x)`, `the
/// token is …`, `X-Api-Key …;`): [`named_tokens`] redacts it when the name
/// is a secret's and the value random ([`looks_random`]), where the rules
/// that read syntax take it for code or prose.
static NAME_THEN_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"([A-Za-z_][A-Za-z0-9_.\-]*)["']?(\s*(?:=>|:=|[:=])\s*|\s+(?:is\s+|was\s+)?)([A-Za-z0-9+/_\-]{20,}=*)"#,
    )
});

/// SQL's `IDENTIFIED BY '…'` and `PASSWORD '…'`.
static SQL_PASSWORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"(?i)\b(identified\s+by|password)(\s+)(?:'([^'\n]*)'|"([^"\n]*)")"#));

/// `curl -u user:password` and `--user user:password`: the password.
static CLI_USER: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"(?:^|[\s"'\[(,])(-u|--user)(?:\s+|=|["']\s*,\s*["'])["']?[^\s:"',]+:([^\s"',)\]]+)"#)
});

/// mysql's `-pPASSWORD` and `-p'PASSWORD'` (`-p` alone asks for it).
static MYSQL_PASSWORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"(?:^|[\s"'\[(,])-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s"',)\]]+))"#));

/// `sshpass -p '…'`.
static SSHPASS: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"\bsshpass\s+-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s"']+))"#));

/// `--password PW`, `--token=PW`, and in an argument list `"--password",
/// "PW"`.
static SECRET_FLAG: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(?:^|[\s"'\[(,])--?([A-Za-z][A-Za-z0-9_\-]*)(\s+|=|["']\s*,\s*["'])(?:'([^'\n]*)'|"([^"\n]*)"|([^\s"',)\]]+))"#,
    )
});

/// A call: its name and its arguments (without nested parentheses).
static CALL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()\n]*)\)"));

/// Two literals in brackets assigned to a name: `auth = ("admin", "…")`,
/// `credentials: ['u', '…']`.
static PAIR_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"\b([A-Za-z_][A-Za-z0-9_.]*)["']?\s*(?:=|:)\s*[(\[]\s*(?:"[^"\n]*"|'[^'\n]*')\s*,\s*("([^"\n]*)"|'([^'\n]*)')\s*[)\]]"#,
    )
});

/// A literal that is a well-known account name, then a literal after it:
/// `("root", "…")`, `connect(host, "admin", "…")`.
static USER_THEN_LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?i)(?:"(?:{ACCOUNTS})"|'(?:{ACCOUNTS})')\s*,\s*("([^"\n]*)"|'([^'\n]*)')"#
    ))
});

/// Well-known account names ([`USER_THEN_LITERAL`]), as alternatives.
pub(super) const ACCOUNTS: &str =
    "root|admin|administrator|sa|postgres|superuser|user|guest|dbuser|dbadmin|sysdba|oracle|ec2-user";

/// `password: |`, `- token: >-`: a YAML block scalar under a secret name.
static OPENS_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"^(\s*)(?:-\s+)?["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*:\s*[|>][-+0-9]*\s*(?:#.*)?$"#)
});

/// `PASSWORD = (` (a value in parentheses, maybe not closed on the line).
static OPENS_PAREN: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*(?::=|=>|=|:)\s*\(([^()\n]*)(\)?)"#)
});

/// `PASSWORD =` or `PASSWORD = \` ending a line: the value is on the next.
static OPENS_NEXT: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*(?::=|=>|=)\s*\\?\s*$"#));

/// Every pattern above, for the test that compiles them all.
#[cfg(test)]
pub(super) fn patterns() -> Vec<&'static Regex> {
    vec![
        &JOINER,
        &AUTH_SCHEME,
        &AUTH_HEADER,
        &URL_PASSWORD,
        &URL_QUERY,
        &WEBHOOK,
        &HEX_VALUE,
        &QUOTED_ASSIGNMENT,
        &DEFINE,
        &NAMED_LITERAL,
        &FALLBACK,
        &LOGIN_PASSWORD,
        &XML_ELEMENT,
        &LINE_ASSIGNMENT,
        &INLINE_ASSIGNMENT,
        &WORD_THEN_VALUE,
        &NAME_THEN_TOKEN,
        &SQL_PASSWORD,
        &CLI_USER,
        &MYSQL_PASSWORD,
        &SSHPASS,
        &SECRET_FLAG,
        &CALL,
        &PAIR_ASSIGNMENT,
        &USER_THEN_LITERAL,
        &OPENS_BLOCK,
        &OPENS_PAREN,
        &OPENS_NEXT,
    ]
}

/// How many times a changed line is redacted again at most, so that
/// redacting the result once more changes nothing: a rule may judge its
/// text by words another rule, later in the pass, then replaces (a hex key
/// after `Password=ConnStrPw02x;` looks named as an `Id`'s digest until the
/// password is `[REDACTED]`). A round runs only after one that changed
/// the line; this bounds them.
const MAX_ROUNDS: usize = 3;

/// Every rule but the key blocks and what goes on from the line before, on
/// one line.
pub(super) fn redact_line(line: &str) -> Line {
    let mut out = redact_line_once(line);
    for _ in 1..MAX_ROUNDS {
        if out.count == 0 {
            break;
        }
        let again = redact_line_once(&out.text);
        if again.count == 0 {
            break;
        }
        out = Line {
            text: again.text,
            count: out.count + again.count,
            opens: again.opens,
        };
    }
    out
}

/// One pass of every rule over `line` (see [`redact_line`]).
fn redact_line_once(line: &str) -> Line {
    let mut count = 0;
    // Split pieces first: each rule below sees a piece alone.
    let mut text = split_literals(line, &mut count);
    text = TOKEN_SHAPES
        .replace_all(&text, |c: &Captures| {
            count += 1;
            format!("{}{REDACTED}", &c[1])
        })
        .into_owned();
    text = WEBHOOK
        .replace_all(&text, |c: &Captures| {
            count += 1;
            format!("{}{REDACTED}", &c[1])
        })
        .into_owned();
    text = TOKEN_RUN
        .replace_all(&text, |c: &Captures| {
            if is_secret_token(&c[0]) {
                count += 1;
                REDACTED.to_string()
            } else {
                c[0].to_string()
            }
        })
        .into_owned();
    text = hex_keys(&text, &mut count);
    text = calls(&text, &mut count);
    text = pairs(&text, &mut count);
    text = AUTH_SCHEME
        .replace_all(&text, |c: &Captures| {
            count += 1;
            format!("{}{}{REDACTED}", &c[1], &c[2])
        })
        .into_owned();
    text = auth_headers(&text, &mut count);
    text = URL_PASSWORD
        .replace_all(&text, |c: &Captures| {
            if c[0].ends_with(&format!("{REDACTED}@")) {
                return c[0].to_string();
            }
            count += 1;
            format!("{}{REDACTED}@", &c[1])
        })
        .into_owned();
    text = url_queries(&text, &mut count);
    text = command_lines(&text, &mut count);
    text = replace_groups(&text, &SQL_PASSWORD, &[3, 4], &mut count, |_, v| {
        is_secret_literal(v) && !is_placeholder(v)
    });
    text = quoted_assignments(&text, &mut count);
    text = named_values(&text, &mut count);
    text = replace_groups(&text, &DEFINE, &[3, 4], &mut count, |c, v| {
        is_secret_name(&c[2]) && is_secret_literal(v)
    });
    if let Some(c) = LINE_ASSIGNMENT.captures(&text) {
        // `password: |` opens a block scalar: the value is below. Code is
        // no value: `token = line[start:pos]`, `KEYS = {`, `password =
        // self.password`, `self.passwd = passwd`.
        let value = c[4].trim_end_matches([',', ';']);
        let block = value.starts_with(['|', '>']);
        let last_part = c[2].rsplit('.').next().unwrap_or("");
        let code = value.contains(['[', ']', '{', '}'])
            || names_a_variable(value)
            || value.eq_ignore_ascii_case(last_part)
            || ["self.", "this."]
                .iter()
                .any(|p| value.starts_with(p) || c[2].starts_with(p));
        if is_secret_name(&c[2]) && is_literal(value) && !block && !code {
            count += 1;
            text = format!("{}{}{}{REDACTED}", &c[1], &c[2], &c[3]);
        }
    }
    text = inline_assignments(&text, &mut count);
    text = named_tokens(&text, &mut count);
    text = random_literals(&text, &mut count);
    text = table_values(&text, &mut count);
    text = replace_groups(&text, &WORD_THEN_VALUE, &[3], &mut count, |c, v| {
        // Prose: not a call, a member, a type or a path (`token =
        // Literal::new(0)`, `password: Option<&[u8]>`).
        let after = c.get(4).map_or("", |m| m.as_str());
        let value = (v.len() >= 8 && super::shapes::has_mixed_classes(v)) || looks_random(v);
        value && !matches!(after, "(" | "[" | "." | ":" | "<" | "{")
    });
    let (text, opens) = opens(&text, &mut count);
    Line { text, count, opens }
}

/// `text` with each given group of each match of `re` replaced by
/// [`REDACTED`] when `secret` says the match and the group's text (no
/// marker in it) are one.
fn replace_groups(
    text: &str,
    re: &Regex,
    groups: &[usize],
    count: &mut usize,
    secret: impl Fn(&Captures, &str) -> bool,
) -> String {
    let mut ranges = Vec::new();
    for c in re.captures_iter(text) {
        for &g in groups {
            if let Some(m) = c.get(g) {
                if !m.as_str().contains(REDACTED) && secret(&c, m.as_str()) {
                    ranges.push(m.range());
                }
            }
        }
    }
    blank(text, ranges, count)
}

/// Hex keys: quoted, or after `=` / `:`, unless the words before say digest.
fn hex_keys(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    for c in HEX_VALUE.captures_iter(text) {
        let (Some(open), Some(hex), Some(close)) = (c.get(1), c.get(2), c.get(3)) else {
            continue;
        };
        let quoted = open.as_str().starts_with(['"', '\'']);
        // A quoted key is the whole literal, not part of it.
        if quoted && open.as_str() != close.as_str() {
            continue;
        }
        if is_hex_key(hex.as_str()) && !names_a_digest(&text[..hex.start()]) {
            ranges.push(hex.range());
        }
    }
    blank(text, ranges, count)
}

/// A function name that logs in or authenticates (`login`, `signIn`,
/// `authenticate`, `basic_auth`, `set_password`).
fn is_login_name(name: &str) -> bool {
    const WORDS: [&str; 10] = [
        "login",
        "logon",
        "signin",
        "authenticate",
        "auth",
        "password",
        "passwd",
        "credentials",
        "credential",
        "passphrase",
    ];
    let lower = name.to_ascii_lowercase();
    if !["log", "sign", "auth", "pass", "cred"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return false;
    }
    let words = crate::query::words(name);
    words.iter().any(|w| WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| matches!((p[0].as_str(), p[1].as_str()), ("log" | "sign", "in")))
}

/// A setter of a secret (`setPassword`, `set_api_key`, `setClientSecret`).
fn is_setter_of_a_secret(name: &str) -> bool {
    crate::query::words(name)
        .first()
        .is_some_and(|w| w == "set")
        && is_secret_name(name)
}

/// A function that opens a connection (`connect`, `getConnection`,
/// `create_connection`; not `failConnectionWithCode`): a user name and a
/// password follow the address.
fn is_connect_name(name: &str) -> bool {
    name.to_ascii_lowercase().contains("connect")
        && crate::query::words(name)
            .last()
            .is_some_and(|w| w == "connect" || w == "connection")
}

/// A function that reads a setting with a default (`os.getenv("X",
/// "default")`, `config.get`, `ENV.fetch`, `getProperty`).
fn is_lookup_name(name: &str) -> bool {
    const NAMES: [&str; 8] = [
        "getenv",
        "get",
        "fetch",
        "env",
        "getproperty",
        "setdefault",
        "getstring",
        "getvalue",
    ];
    NAMES.contains(&name.to_ascii_lowercase().as_str())
}

/// Credentials passed to a call: the one argument of a secret's setter
/// (`setPassword("…")`), every literal after the first argument of a login
/// call, literals from the third positional argument of a connection
/// (`getConnection(url, "root", "…")`), and the default of a
/// lookup of a secret (`jwt_secret = os.getenv("JWT", "…")`).
fn calls(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    for c in CALL.captures_iter(text) {
        let (Some(name), Some(args)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let name_str = name.as_str();
        let (from, keywords, spaced) =
            if is_setter_of_a_secret(name_str) && !args.as_str().contains(',') {
                // `ds.setPassword("…")`: its one argument is the secret.
                (0, true, false)
            } else if is_login_name(name_str) {
                (1, true, true)
            } else if is_connect_name(name_str) {
                // A password has no spaces; a message does.
                (2, false, false)
            } else if is_lookup_name(name_str) {
                (1, true, true)
            } else {
                continue;
            };
        let lits = argument_literals(args.as_str(), from, keywords);
        let lookup = from == 1 && !is_login_name(name_str);
        if lits.is_empty() || lookup && !looks_up_a_secret(text, name.start(), args.as_str()) {
            continue;
        }
        for lit in lits {
            if !spaced && lit.content(args.as_str()).contains(char::is_whitespace) {
                continue;
            }
            ranges.push(args.start() + lit.start..args.start() + lit.end);
        }
    }
    blank(text, ranges, count)
}

/// Whether a lookup at `at` in `text` reads a secret: an identifier before it
/// names one (`jwt_secret = os.getenv(`), or its first argument does
/// (`config.get("password", …)`).
fn looks_up_a_secret(text: &str, at: usize, args: &str) -> bool {
    let identifiers_before = text[..at]
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(is_secret_name);
    let first = literals(args)
        .first()
        .is_some_and(|l| is_secret_name(l.content(args)));
    identifiers_before || first
}

/// The literals (content ranges in `args`) of the arguments from the
/// `from`th (0-based, commas counted outside literals) that may hold a
/// secret: not empty, no marker; `name=` keyword arguments only if
/// `keywords`.
fn argument_literals(args: &str, from: usize, keywords: bool) -> Vec<Literal> {
    static KEYWORD: LazyLock<Regex> = LazyLock::new(|| regex(r"[A-Za-z_][A-Za-z0-9_]*\s*[=:]\s*$"));
    let mut out = Vec::new();
    let mut commas = 0;
    let mut last = 0;
    for lit in literals(args) {
        let between = &args[last..lit.start - 1];
        commas += between.matches(',').count();
        last = lit.end + 1;
        let before = between.rsplit(',').next().unwrap_or(between);
        let content = lit.content(args);
        // `config.get(section, "password")`: a literal naming a secret is
        // the name of a setting, not its value.
        let names_a_setting = is_secret_name(content)
            && content
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
        if commas >= from
            && (keywords || !KEYWORD.is_match(before))
            && content.chars().count() >= MIN_ASSIGNED_SECRET
            && !content.contains(REDACTED)
            && !names_a_setting
        {
            out.push(lit);
        }
    }
    out
}

/// `auth = ("admin", "…")` (a pair assigned to a login or secret name) and
/// `("root", "…")` (a well-known account, then a password-like literal):
/// the second literal.
fn pairs(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    for c in PAIR_ASSIGNMENT.captures_iter(text) {
        let (Some(value), Some(inner)) = (c.get(2), c.get(3).or(c.get(4))) else {
            continue;
        };
        let name = &c[1];
        // `("oauth_get_sbs", "oauth_urlencode")`: names, not a password.
        static SNAKE: LazyLock<Regex> = LazyLock::new(|| regex(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$"));
        if (is_login_name(name) || is_secret_name(name))
            && !inner.as_str().trim().is_empty()
            && !inner.as_str().contains(REDACTED)
            && !SNAKE.is_match(inner.as_str())
        {
            ranges.push(value.start() + 1..value.end() - 1);
        }
    }
    for c in USER_THEN_LITERAL.captures_iter(text) {
        let Some(inner) = c.get(2).or(c.get(3)) else {
            continue;
        };
        if is_password_like(inner.as_str()) {
            ranges.push(inner.range());
        }
    }
    blank(text, ranges, count)
}

/// A value that looks like a password rather than a word or a label: no
/// whitespace, not a path or address, a digit or a symbol in it.
fn is_password_like(value: &str) -> bool {
    let len = value.chars().count();
    (MIN_ASSIGNED_SECRET..=128).contains(&len)
        && !value.contains(char::is_whitespace)
        && !value.contains('/')
        && !value.contains(REDACTED)
        && value
            .chars()
            .any(|c| c.is_ascii_digit() || "!@#$%^&*+=?~".contains(c))
}

/// An `Authorization` header's credential, its scheme kept: a quoted value
/// (`"Authorization": "Token …"`, `authorization = 'Bearer …'`), or one
/// written as header text (`'Authorization: Token …'`, a header line).
fn auth_headers(text: &str, count: &mut usize) -> String {
    const SCHEMES: [&str; 9] = [
        "bearer",
        "basic",
        "token",
        "digest",
        "negotiate",
        "ntlm",
        "apikey",
        "key",
        "hmac",
    ];
    let lits = literals(text);
    let mut ranges = Vec::new();
    for c in AUTH_HEADER.captures_iter(text) {
        let (Some(whole), Some(sep)) = (c.get(0), c.get(2)) else {
            continue;
        };
        let after = &text[whole.end()..];
        let value = if let Some(lit) = lits.iter().find(|l| l.start == whole.end() + 1) {
            // A quoted value.
            lit.start..lit.end
        } else {
            let in_literal = lits
                .iter()
                .any(|l| l.start <= whole.start() && whole.end() <= l.end);
            let line_start = text[..whole.start()].trim().is_empty();
            if !sep.as_str().contains(':') || !(in_literal || line_start) {
                continue;
            }
            let end = after.find(['"', '\'', '`']).unwrap_or(after.len());
            whole.end()..whole.end() + end
        };
        let v = &text[value.clone()];
        let lead = v.len() - v.trim_start().len();
        let trimmed = v.trim();
        let (first, rest) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        let rest = rest.trim();
        let credential =
            if !rest.is_empty() && first.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
                let at = value.start + lead + trimmed.len() - rest.len();
                at..at + rest.len()
            } else if rest.is_empty()
                && !SCHEMES.contains(&first.to_ascii_lowercase().as_str())
                && first.len() >= 8
                && !first.chars().all(char::is_alphabetic)
            {
                value.start + lead..value.start + lead + first.len()
            } else {
                continue;
            };
        // `OAuth realm="…"`: parameters follow the scheme, not a credential.
        let param = text[credential.clone()].ends_with('=');
        if !is_placeholder(&text[credential.clone()]) && !param {
            ranges.push(credential);
        }
    }
    blank(text, ranges, count)
}

/// A quoted value that may be a secret: not a marker, a format string, a
/// constant's name (`"TRUNCATE"`, `"PRIVATEBLOB"`: capitals only), a path
/// of code (`"$serde_json::private::Number"`), a variable (`"$DB_PASS"`).
fn is_secret_literal(value: &str) -> bool {
    static VARIABLE: LazyLock<Regex> = LazyLock::new(|| regex(r"^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$"));
    let constant = value.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    !value.is_empty()
        && !value.contains(REDACTED)
        && !is_template(value)
        && !constant
        && !value.contains("::")
        && !VARIABLE.is_match(value)
}

/// A format string (`"%s:%s"`, `'{0}:{1}'`, `"{user}:{pw}"`): a value is
/// formatted into it, it is none itself.
fn is_template(value: &str) -> bool {
    static PLACEHOLDER: LazyLock<Regex> =
        LazyLock::new(|| regex(r"%[-+ #0-9.]*[sdifxXro]|\{[A-Za-z0-9_]*\}"));
    PLACEHOLDER.is_match(value)
}

/// A value that stands for another (`{token}`, `${TOKEN}`, `%s`, `<key>`,
/// `:password`): not a secret itself.
fn is_placeholder(value: &str) -> bool {
    value.is_empty()
        || value.starts_with(['{', '$', '%', '<', '+', '*', '?', '…'])
        || value.starts_with("...")
        || (value.starts_with(':') && value.len() > 1)
        || value.contains(REDACTED)
}

/// Whether `value`, written as `name=value` in a URL query or inside a
/// string (a connection string, a DSN), is a secret: the name says so
/// ([`is_secret_name`], or a field name such as `pwd`, `key`, `sig` when the
/// value looks like a password: digits, symbols or mixed case), and the
/// value is no placeholder, keyword or dotted name (`key=str.lower`).
fn is_secret_value(name: &str, value: &str) -> bool {
    const FIELDS: [&str; 7] = ["pwd", "pw", "pass", "key", "sig", "signature", "auth"];
    static DOTTED: LazyLock<Regex> =
        LazyLock::new(|| regex(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$"));
    let field = FIELDS.contains(&name.to_ascii_lowercase().as_str());
    // Prose punctuation after a word is no part of it (`KEY=value: …`).
    let word = value.trim_end_matches([':', '.', '!', '?']);
    let mixed = word.chars().any(|c| !c.is_ascii_alphabetic())
        || (word.chars().any(|c| c.is_ascii_uppercase())
            && word.chars().any(|c| c.is_ascii_lowercase()));
    value.chars().count() >= MIN_ASSIGNED_SECRET
        && !is_placeholder(value)
        && is_literal(value)
        && !DOTTED.is_match(value)
        && (is_secret_name(name) || field && mixed)
}

/// A URL query's secret values: `?password=…`, `&api_key=…`, `?token=…`,
/// `#access_token=…`.
fn url_queries(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    for query in URL_QUERY.captures_iter(text).filter_map(|c| c.get(1)) {
        let mut at = query.start();
        for param in query.as_str().split(['&', ';', '#', '?']) {
            if let Some((name, value)) = param.split_once('=') {
                let plain = name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-[]".contains(c));
                if plain && !name.is_empty() && is_secret_value(name, value) {
                    let start = at + name.len() + 1;
                    ranges.push(start..start + value.len());
                }
            }
            at += param.len() + 1;
        }
    }
    blank(text, ranges, count)
}

/// Passwords on command lines: `curl -u user:…`, `mysql -p…`, `sshpass -p
/// …`, `docker login -p …`, `--password …` / `--token=…` (also as an
/// argument list).
fn command_lines(text: &str, count: &mut usize) -> String {
    let lower = text.to_ascii_lowercase();
    let mut text = replace_groups(text, &CLI_USER, &[2], count, |c, v| {
        (&c[1] == "--user" || lower.contains("curl"))
            && !v.chars().all(|ch| ch.is_ascii_digit())
            && !is_placeholder(v)
    });
    if lower.contains("mysql") || lower.contains("mariadb") {
        text = replace_groups(&text, &MYSQL_PASSWORD, &[1, 2, 3], count, |_, v| {
            !is_placeholder(v)
        });
    }
    text = replace_groups(&text, &SSHPASS, &[1, 2, 3], count, |_, v| {
        !is_placeholder(v)
    });
    text = replace_groups(&text, &LOGIN_PASSWORD, &[1, 2, 3], count, |_, v| {
        !is_placeholder(v)
    });
    replace_groups(&text, &SECRET_FLAG, &[3, 4, 5], count, |c, v| {
        const NOT_VALUES: [&str; 15] = [
            "file", "path", "dir", "env", "stdin", "fd", "command", "cmd", "prompt", "length",
            "policy", "helper", "store", "type", "mode",
        ];
        let name = &c[1];
        let last = crate::query::words(name).pop().unwrap_or_default();
        // `--token to pass …`: after a space, a lower-case word is prose.
        let prose = c[2].trim().is_empty() && v.chars().all(|ch| ch.is_ascii_lowercase());
        let value = !v.starts_with('-') && !is_placeholder(v) && !prose;
        value && is_secret_name(name) && !NOT_VALUES.contains(&last.as_str())
    })
}

/// Quoted values of secret-named assignments, typed or not.
fn quoted_assignments(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    let mut at = 0;
    while let Some(c) = QUOTED_ASSIGNMENT.captures_at(text, at) {
        let (Some(name), Some(quoted), Some(value)) =
            (c.get(2), c.get(4), c.get(5).or(c.get(6)).or(c.get(7)))
        else {
            break;
        };
        let v = value.as_str();
        let short = is_password_abbreviation(name.as_str()) && !v.contains(['/', '\\']);
        let secret = (is_secret_name(name.as_str()) || short) && is_assigned_secret(v);
        if secret {
            ranges.push(quoted.start() + 1..quoted.end() - 1);
            at = quoted.end();
        } else {
            // `const password = "…"`, `let token = "…"`: the typed form
            // reads the keyword as the name and the name as its type, so
            // the search goes on from after the word it took for a name.
            at = name.end();
        }
    }
    blank(text, ranges, count)
}

/// `pw` or `pwd` alone: no secret's name (`pw = PrintWriter(out)`, `PWD`
/// the working directory), but one when a quoted value that is no path is
/// assigned to it (`pw = "…"`; not `PWD = "/home/app"`).
fn is_password_abbreviation(name: &str) -> bool {
    name.eq_ignore_ascii_case("pw") || name.eq_ignore_ascii_case("pwd")
}

/// A literal written beside a secret's name (as an argument, an index's
/// value, a fallback, an XML element's text) that is a secret, and no
/// placeholder.
fn is_named_secret(name: &str, value: &str) -> bool {
    is_secret_name(name) && is_assigned_secret(value) && !is_placeholder(value)
}

/// A quoted value assigned to a secret's name that is one: long enough,
/// no whitespace (a message), no placeholder or constant.
fn is_assigned_secret(value: &str) -> bool {
    value.chars().count() >= MIN_ASSIGNED_SECRET
        && !value.contains(char::is_whitespace)
        && is_secret_literal(value)
}

/// The value after a secret's name written as a literal: the next argument
/// (`define('DB_PASSWORD', '…')`, `os.Setenv("API_TOKEN", "…")`), an index
/// assigned (`ENV["API_KEY"] ||= "…"`), an XML pair (`<add
/// key="ApiSecret" value="…"/>`); an XML element named as a secret
/// (`<password>…</password>`); and the fallback of a secret-named
/// assignment (`SECRET = process.env.SECRET || "…"`).
fn named_values(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    for c in NAMED_LITERAL.captures_iter(text) {
        let (Some(name), Some(value)) = (c.get(1).or(c.get(2)), c.get(3).or(c.get(4))) else {
            continue;
        };
        if is_named_secret(name.as_str(), value.as_str()) {
            ranges.push(value.range());
        }
    }
    for c in FALLBACK.captures_iter(text) {
        let (Some(name), Some(value)) = (c.get(1), c.get(2).or(c.get(3))) else {
            continue;
        };
        if is_named_secret(name.as_str(), value.as_str()) {
            ranges.push(value.range());
        }
    }
    for c in XML_ELEMENT.captures_iter(text) {
        let (Some(open), Some(value), Some(close)) = (c.get(1), c.get(2), c.get(3)) else {
            continue;
        };
        let name = open.as_str().rsplit(':').next().unwrap_or_default();
        if open.as_str() == close.as_str() && is_named_secret(name, value.as_str()) {
            ranges.push(value.range());
        }
    }
    blank(text, ranges, count)
}

/// `name=value` inside a line: any inside a string literal (a connection
/// string, a DSN, a header as text: `X-Api-Key: …` when the name has a
/// hyphen), and outside one a value that does not look like code (`--password=…`,
/// `DB_PASSWORD=… ./run`, a query's `password=…`; not `password=pw`,
/// `password=self.password`, `token=next_token()`).
fn inline_assignments(text: &str, count: &mut usize) -> String {
    let lits = literals(text);
    let mut ranges = Vec::new();
    for c in INLINE_ASSIGNMENT.captures_iter(text) {
        let (Some(name), Some(sep), Some(value)) = (c.get(2), c.get(3), c.get(4)) else {
            continue;
        };
        let v = value.as_str();
        if is_placeholder(v) {
            continue;
        }
        let inside = lits
            .iter()
            .any(|l| l.start <= name.start() && value.end() <= l.end);
        let colon = sep.as_str().contains(':');
        let secret = if inside {
            // `Password=…;`, `password=… dbname=…`, `X-Api-Key: …`; not
            // prose (`a key= function`).
            let header = colon && name.as_str().contains('-');
            (header || sep.as_str() == "=") && is_secret_value(name.as_str(), v)
        } else {
            !colon
                && sep.as_str() == "="
                && is_secret_name(name.as_str())
                && !looks_like_code(name.as_str(), v, &text[value.end()..])
        };
        if secret {
            ranges.push(value.range());
        }
    }
    blank(text, ranges, count)
}

/// Random values written after a secret's name ([`NAME_THEN_TOKEN`]) in
/// any syntax: `token: … # prod` (not the whole line: a comment follows),
/// `{api_key: …}`, `f(token=…, retry)`, `the token is …`, `auth_token …`,
/// `X-Api-Key …;`. The value must look random (mixed case, or in one
/// case letters and digits alternating with high entropy: a lower-case
/// hex or base-36 token, a UUID), so a type, a variable, a snake_case
/// identifier or a word after the name is kept; a hex value the words
/// before call a digest ([`names_a_digest`], as for hex keys) is too.
fn named_tokens(text: &str, count: &mut usize) -> String {
    let mut ranges = Vec::new();
    let mut at = 0;
    while let Some(c) = NAME_THEN_TOKEN.captures_at(text, at) {
        let (Some(name), Some(value)) = (c.get(1), c.get(3)) else {
            break;
        };
        let v = value.as_str();
        let digest =
            v.bytes().all(|b| b.is_ascii_hexdigit()) && names_a_digest(&text[..value.start()]);
        if is_secret_name(name.as_str()) && looks_random(v) && !digest {
            ranges.push(value.range());
            at = value.end();
        } else {
            at = name.end();
        }
    }
    blank(text, ranges, count)
}

/// Quoted literals that are random in one case whatever names them
/// ([`is_random_literal`]: `key = "9f2kq8x1m3z7w4p6"`, `Client("…")`,
/// `headers["X-Api"] = "…"`, `{"client_id": …, "value": "…"}`), unless
/// the words just before call the value a digest, a revision or an id
/// ([`names_a_digest_nearby`]: `"sha1": "…"`, `rev = "…"`,
/// `request_id = "…"`), or the line does and the value is hex, as for hex
/// keys (`"checksum foo 1.0 (registry+…)" = "…"`, `GUID_X: PCSTR =
/// s!("…")`). Not in backticks: a Markdown code span names a thing
/// (`` `chacha20poly1305` ``, a commit). Mixed case is
/// [`is_secret_token`]'s anywhere.
fn random_literals(text: &str, count: &mut usize) -> String {
    let ranges = literals(text)
        .into_iter()
        .filter(|l| {
            let value = l.content(text);
            let before = &text[..l.start - 1];
            let hex = value.bytes().all(|b| b.is_ascii_hexdigit());
            let digest = names_a_digest_nearby(before) || hex && names_a_digest(before);
            !text[l.start - 1..].starts_with('`') && is_random_literal(value) && !digest
        })
        .map(|l| l.start..l.end)
        .collect();
    blank(text, ranges, count)
}

/// Most words in a Markdown table cell read as a secret's name (`API key`,
/// `Client secret`); a longer cell is a description.
const MAX_TABLE_NAME_WORDS: usize = 3;

/// The cells of a Markdown table row (`| name | value |`, leading `|`
/// required: `a | b` is code), as ranges of `text` between unescaped
/// pipes; empty when `text` is no row.
fn table_cells(text: &str) -> Vec<Range<usize>> {
    let lead = text.len() - text.trim_start().len();
    if !text[lead..].starts_with('|') {
        return Vec::new();
    }
    let b = text.as_bytes();
    let pipes: Vec<usize> = (lead..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .collect();
    pipes.windows(2).map(|w| w[0] + 1..w[1]).collect()
}

/// `cell` (a range of `text`) without its spaces and a code span's or
/// emphasis' marks around it (`` `DB_PASSWORD` ``, `**token**`).
fn cell_content(text: &str, cell: &Range<usize>) -> Range<usize> {
    let raw = &text[cell.clone()];
    let start = cell.start + raw.len() - raw.trim_start().len();
    let inner = raw.trim();
    let bare = inner.trim_start_matches(['`', '*']);
    let start = start + inner.len() - bare.len();
    let bare = bare.trim_end_matches(['`', '*']);
    start..start + bare.len()
}

/// A value in the Markdown table cell after a cell naming a secret
/// (`| password | hunter2-xyz |`, `` | `API_KEY` | `…` | ``): the name and
/// the value are in cells of their own, where no rule that reads `=` or
/// `:` sees them. The value must read as a password (a digit or a symbol,
/// no spaces or `/`: [`is_password_like`]) or be random ([`looks_random`]),
/// so a type (`| token | string |`), a description or a path stays.
fn table_values(text: &str, count: &mut usize) -> String {
    let cells = table_cells(text);
    let mut ranges = Vec::new();
    for pair in cells.windows(2) {
        let name = &text[cell_content(text, &pair[0])];
        let value = cell_content(text, &pair[1]);
        let v = &text[value.clone()];
        let short = crate::query::words(name).len() <= MAX_TABLE_NAME_WORDS;
        let secret = (is_password_like(v) || looks_random(v))
            && !is_placeholder(v)
            && is_literal(v)
            && is_secret_literal(v);
        if short && is_secret_name(name) && secret {
            ranges.push(value);
        }
    }
    blank(text, ranges, count)
}

/// Whether an unquoted value after `name=` reads as code rather than a
/// secret: too short, a keyword or number, a member or a call
/// (`self.password`, `next_token()`), a variable named like a secret or
/// like the name (`password=db_password`, `token=token`), a snake_case or
/// camelCase identifier.
fn looks_like_code(name: &str, value: &str, after: &str) -> bool {
    let ident = value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let lower_start = value.starts_with(|c: char| c.is_ascii_lowercase());
    let snake = ident && value.contains('_') && !value.contains(|c: char| c.is_ascii_uppercase());
    let camel = ident
        && lower_start
        && value.contains(|c: char| c.is_ascii_uppercase())
        && !value.contains(|c: char| c.is_ascii_digit());
    value.chars().count() < MIN_ASSIGNED_SECRET
        // An argument of a call: `f(password_mgr=auth)`.
        || after.starts_with([',', ')'])
        || !is_literal(value)
        || value.contains('.')
        || value.contains("->")
        || value.contains("::")
        || after.starts_with(['(', '[', '.'])
        || names_a_variable(value)
        || value.eq_ignore_ascii_case(name)
        || snake
        || camel
}

/// A value that is a variable named like a secret (`password = passwd`,
/// `token=api_token`), not one (`n0tTh3Pwd` ends in `pwd` too, but mixes
/// case and digits as no name does).
fn names_a_variable(value: &str) -> bool {
    is_secret_name(value) && !super::shapes::has_mixed_classes(value)
}

/// What a line leaves open for the next (a secret-named assignment whose
/// value goes on), with the literals of its value already on this line
/// redacted (`aws_secret = ("first piece"`).
fn opens(text: &str, count: &mut usize) -> (String, Opens) {
    if let Some(c) = OPENS_BLOCK.captures(text) {
        if is_secret_name(&c[2]) {
            return (text.to_string(), Opens::Block(c[1].len()));
        }
    }
    for c in OPENS_PAREN.captures_iter(text) {
        let (Some(whole), Some(inner), Some(close)) = (c.get(0), c.get(2), c.get(3)) else {
            continue;
        };
        if !is_secret_name(&c[1]) {
            continue;
        }
        let closed = !close.as_str().is_empty();
        let at_end = text[whole.end()..].trim().is_empty();
        if !closed && !at_end || !is_string_value(inner.as_str()) {
            continue;
        }
        let lits: Vec<Literal> = literals(inner.as_str())
            .into_iter()
            .filter(|l| !l.content(inner.as_str()).trim().is_empty())
            .map(|l| Literal {
                start: inner.start() + l.start,
                end: inner.start() + l.end,
            })
            .collect();
        let text = blank_literals(text, &lits, count);
        let opens = if closed { Opens::Nothing } else { Opens::Paren };
        return (text, opens);
    }
    if let Some(c) = OPENS_NEXT.captures(text) {
        if is_secret_name(&c[1]) {
            return (text.to_string(), Opens::NextLine);
        }
    }
    (text.to_string(), Opens::Nothing)
}

/// An unquoted value that could be a secret: not a number, boolean or null, and
/// not already redacted.
fn is_literal(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let plain = [
        "true",
        "false",
        "null",
        "none",
        "nil",
        "~",
        "yes",
        "no",
        "undefined",
    ];
    !value.contains(REDACTED) && !plain.contains(&lower.as_str()) && value.parse::<f64>().is_err()
}

/// Whether an identifier names a credential: one of its words (split on `_`,
/// `.`, `-` and camelCase) is a secret word, or two adjacent words are a secret
/// pair (`api_key`, `clientSecret`). `max_tokens` and `PWD` are not.
pub(super) fn is_secret_name(name: &str) -> bool {
    // Every secret word and pair holds one of these: most names hold none,
    // and are not split.
    let lower = name.to_ascii_lowercase();
    if !["pass", "secret", "token", "key", "cred", "pw"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return false;
    }
    const WORDS: [&str; 10] = [
        "password",
        "pgpassword",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "credential",
        "credentials",
        "privatekey",
    ];
    const PAIRS: [(&str, &str); 11] = [
        ("api", "key"),
        ("access", "key"),
        ("private", "key"),
        ("secret", "key"),
        ("auth", "key"),
        ("signing", "key"),
        ("encryption", "key"),
        ("account", "key"),
        ("shared", "key"),
        ("master", "key"),
        ("app", "key"),
    ];
    // The crate's one identifier splitter: `APIKey` → api, key; `password2`
    // → password, 2.
    let words = crate::query::words(name);
    // `DATABASE_PASS`, `db_pwd`, `ADMIN_PW`: a last word that abbreviates a
    // password (`PWD` alone is the working directory, `pass_through` no
    // secret).
    let abbreviated = match words.as_slice() {
        [.., last] if last == "pass" => true,
        [_, .., last] => last == "pwd" || last == "pw",
        _ => false,
    };
    // `token_type`, `password_field`, `API_KEY_ENV`, `secret_name`: a last
    // word that says what the name holds is about the secret, not it.
    let about = words.len() > 1
        && words
            .last()
            .is_some_and(|w| DESCRIPTORS.contains(&w.as_str()));
    !about
        && (abbreviated
            || words.iter().any(|w| WORDS.contains(&w.as_str()))
            || words
                .windows(2)
                .any(|p| PAIRS.contains(&(p[0].as_str(), p[1].as_str()))))
}

/// Last words of a name that say what it holds is about a secret (its
/// type, size, name, where it is read or how it is asked for), not the
/// secret itself.
const DESCRIPTORS: [&str; 48] = [
    "type", "types", "kind", "count", "counter", "len", "length", "size", "name", "names", "id",
    "ids", "index", "idx", "pos", "start", "end", "field", "fields", "label", "url", "uri",
    "endpoint", "file", "path", "dir", "env", "var", "prefix", "suffix", "format", "header",
    "param", "column", "limit", "max", "min", "policy", "mgr", "manager", "handler", "class",
    "regex", "pattern", "prompt", "hint", "message", "expires",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_found_with_escapes_apostrophes_and_lifetimes() {
        let line = r#"static T: &'static str = "a\"b"; // don't 'x'"#;
        let found: Vec<&str> = literals(line).iter().map(|l| l.content(line)).collect();
        assert_eq!(found, [r#"a\"b"#, "x"]);
        assert!(literals("it's").is_empty());
    }

    #[test]
    fn chains_join_adjacent_and_concatenated_literals() {
        let line = r#"x = "a" + "b" "c", "d" .. 'e' ; f("g")"#;
        let lits = literals(line);
        let got: Vec<Vec<&str>> = chains(line, &lits)
            .iter()
            .map(|c| c.iter().map(|l| l.content(line)).collect())
            .collect();
        assert_eq!(got, [vec!["a", "b", "c"], vec!["d", "e"]]);
    }

    #[test]
    fn a_tail_literal_is_one_the_next_line_may_continue() {
        let tail = |l: &str| tail_literal(l).map(|r| l[r].to_string());
        assert_eq!(tail("k = (\"AKIA\"").as_deref(), Some("AKIA"));
        assert_eq!(tail("k = \"AKIA\" +").as_deref(), Some("AKIA"));
        assert_eq!(tail("k = \"AKIA\",").as_deref(), None);
        assert_eq!(tail("f(\"a b\"").as_deref(), None);
        assert_eq!(tail("x = 1").as_deref(), None);
    }

    #[test]
    fn secret_names() {
        for name in [
            "password",
            "DB_PASSWORD",
            "apiKey",
            "api-key",
            "client_secret",
            "GITHUB_TOKEN",
            "aws_secret_access_key",
            "SECRET_KEY_BASE",
            "passphrase",
            // Split like every identifier in kgrep (`query::words`): an acronym
            // ends before its next word, digits are a word of their own.
            "APIKey",
            "OAuth2Token",
            "password2",
            "DATABASE_PASS",
            "smtp_pass",
            "db_pwd",
            "ADMIN_PW",
            "AccountKey",
            "APP_KEY",
            "DB_PASSWD",
            "X-Api-Key",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            "max_tokens",
            "tokenizer",
            "PWD",
            "primary_key",
            "author",
            "keyboard",
            "secretary",
            "pass_through",
            "bypass",
            "first_pass_count",
            "pw",
            "MAX_TOKENS",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn unquoted_values_that_read_as_code_are_kept() {
        for (name, value, after) in [
            ("password", "pw", ""),
            ("password", "self.password", ""),
            ("token", "next_token", "()"),
            ("password", "db_password", ""),
            ("token", "token", ""),
            ("secret", "SECRET", ""),
            ("password", "new_pw", ""),
            ("password", "userPass", ""),
            ("token", "None", ""),
            ("password", "getpass", "()"),
        ] {
            assert!(looks_like_code(name, value, after), "{name}={value}{after}");
        }
        for value in ["Hunter2Hunter2", "hunter22", "s3cr3t-value", "ConnStrPw02x"] {
            assert!(!looks_like_code("password", value, ""), "{value}");
        }
    }
}
