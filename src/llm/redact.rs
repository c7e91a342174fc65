//! Credentials scrubbed from excerpts before anything leaves the machine, and the
//! files that are secrets by nature.
//!
//! Owns: [`redact_lines`] (the one redactor every excerpt passes through in
//! `prompt`), [`redact`] for free text (server error messages), and
//! [`is_secret_file`] (`.env`, `*.pem`, `id_rsa`, …: never sent unless the user
//! opts in). It replaces only the secret part (`[REDACTED]`) and never adds or
//! removes a line, so line numbers in excerpts stay true. It is a safety net,
//! not a guarantee: it knows the key shapes of the major providers, private-key
//! blocks (and bare key bodies: lines of base64 without their BEGIN/END),
//! bearer/basic tokens, passwords in URLs, assignments of secret-looking
//! names, string arguments after the first of a login call, AWS-secret-shaped
//! and random-looking tokens (mixed case and digits, changing class at most
//! characters). A secret that looks like a word can still get through.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// What each line of a private-key block becomes.
pub const KEY_LINE: &str = "[REDACTED] (private key)";
/// What each line of a bare key body (base64 lines without BEGIN/END) becomes.
pub const KEY_BODY_LINE: &str = "[REDACTED] (key material)";
/// The whole-line replacements.
pub const LINE_MARKERS: [&str; 2] = [KEY_LINE, KEY_BODY_LINE];

/// Shortest quoted value treated as a secret in an assignment: shorter ones are
/// lexer tokens (`token = "("`), not credentials.
const MIN_ASSIGNED_SECRET: usize = 4;

/// Key shapes of the major providers, replaced whole.
static TOKEN_SHAPES: LazyLock<Regex> = LazyLock::new(|| {
    let shapes = [
        r"sk-[A-Za-z0-9_\-]{20,}", // OpenAI, Anthropic (sk-ant-…)
        r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|AIPA)[0-9A-Z]{16}", // AWS key ids
        r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}", // GitHub tokens
        r"github_pat_[A-Za-z0-9_]{22,}", // GitHub fine-grained
        r"glpat-[A-Za-z0-9_\-]{20,}", // GitLab
        r"AIza[0-9A-Za-z_\-]{35}", // Google
        r"xox[abposr]-[A-Za-z0-9\-]{10,}", // Slack
        r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}", // Stripe
        r"hf_[A-Za-z0-9]{30,}",    // Hugging Face
        r"npm_[A-Za-z0-9]{36}",    // npm
        r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", // JWT
    ];
    regex(&format!(r"\b(?:{})", shapes.join("|")))
});

/// `Bearer <token>` / `Basic <token>`: the scheme is kept.
static AUTH_SCHEME: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(bearer|basic)(\s+)[A-Za-z0-9\-._~+/]{16,}=*"));

/// `scheme://user:password@host`: the password is replaced.
static URL_PASSWORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s/:@]+:)[^\s/@]+@"));

/// `name = "value"`, `"name": "value"`, `name := 'value'` anywhere on a line.
static QUOTED_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"(["']?)([A-Za-z_][A-Za-z0-9_.\-]*)(["']?\s*(?::=|=>|=|:)\s*)("([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`)"#,
    )
});

/// A whole line `NAME=value` / `name: value` (dotenv, YAML, INI), unquoted.
static LINE_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    regex(r#"^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_.\-]*)(\s*[=:]\s*)([^\s"'`(]+)\s*$"#)
});

static KEY_BEGIN: LazyLock<Regex> =
    LazyLock::new(|| regex(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"));
static KEY_END: LazyLock<Regex> =
    LazyLock::new(|| regex(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"));

/// A run of base64 / base64url characters (a token candidate).
static TOKEN_RUN: LazyLock<Regex> = LazyLock::new(|| regex(r"[A-Za-z0-9+/_\-]+=*"));

/// A call whose name says it logs in: its string arguments after the first
/// are taken for credentials (`login("admin", "…")`).
static LOGIN_CALL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()\n]*)\)"));

/// A string literal inside a call's arguments.
static STRING_LITERAL: LazyLock<Regex> = LazyLock::new(|| regex(r#""([^"\n]*)"|'([^'\n]*)'"#));

/// A bare base64 line (a key body without its BEGIN/END lines).
static BASE64_LINE: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*[A-Za-z0-9+/]+={0,2}\s*$"));

/// Shortest bare base64 line that starts a key body: PEM and OpenSSH bodies
/// are 64 or 70 characters a line; 40 is an AWS secret.
const MIN_KEY_LINE: usize = 40;
/// Shortest token judged random by its shape.
const MIN_RANDOM_TOKEN: usize = 20;
/// The share of neighbouring letters and digits that change class (upper,
/// lower, digit) above which a token is random: about 0.62 for random
/// base64, 0.2 to 0.4 for identifiers and paths (`getUserProfile2Card`: 0.39).
const RANDOM_CLASS_CHANGES: f64 = 0.5;
/// Length of an AWS secret access key (base64, mixed case and digits).
const AWS_SECRET_LEN: usize = 40;

/// Compiles one of the constant patterns above (a unit test compiles them all).
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

/// Redacts the lines of one excerpt; the result has exactly as many lines. A
/// private-key block is blanked from `BEGIN` to `END`, also when the excerpt
/// starts or ends inside it.
pub fn redact_lines<S: AsRef<str>>(lines: &[S]) -> (Vec<String>, usize) {
    let mut count = 0;
    let mut out = Vec::with_capacity(lines.len());
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
    for line in lines {
        let line = line.as_ref();
        let begins = KEY_BEGIN.is_match(line);
        if in_key || begins {
            in_key = !KEY_END.is_match(line);
            count += 1;
            out.push(KEY_LINE.to_string());
            continue;
        }
        in_body = is_key_body_line(line, in_body);
        if in_body {
            count += 1;
            out.push(KEY_BODY_LINE.to_string());
            continue;
        }
        let (line, n) = redact_line(line);
        count += n;
        out.push(line);
    }
    (out, count)
}

/// Lines [`redact_line`] may change hold one of these (a superset of its
/// rules, found in one pass over a whole text): a token shape's prefix, an
/// auth scheme, a URL's `user:password@`, a word that a secret name or a
/// login call holds, or a token run long enough to be random.
static MAY_REDACT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)pass|secret|token|key|credential|pwd|bearer|basic|log_?in|logon|sign_?in|auth|://[^\s/]*@|[A-Za-z0-9+/_\-]{20}|sk-|sk_|rk_|xox|eyj|hf_|npm_|gh[pousr]_|github_pat_|glpat-|aiza|akia|asia|abia|acca|agpa|aida|aroa|anpa|aipa",
    )
});

/// [`BASE64_LINE`] over a whole text: the lines that may be a key body.
static BASE64_LINES: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?m)^[^\S\n]*[A-Za-z0-9+/]+={0,2}[^\S\n]*$"));

/// A whole text (a file, its lines split on `\n`) redacted exactly as
/// [`redact_lines`] redacts its lines, but fast on a large file: one scan of
/// the text per pattern finds the lines a rule could change, and only those
/// are redacted line by line. `None` when nothing was redacted.
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
    let candidates = lines_of(&MAY_REDACT);
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
    let mut count = 0;
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if in_key || has(&begins, i) {
            in_key = !has(&ends, i);
            count += 1;
            out.push_str(KEY_LINE);
            continue;
        }
        in_body = has(&bodies, i) && is_key_body_line(line, in_body);
        if in_body {
            count += 1;
            out.push_str(KEY_BODY_LINE);
            continue;
        }
        if has(&candidates, i) {
            let (line, n) = redact_line(line);
            count += n;
            out.push_str(&line);
        } else {
            out.push_str(line);
        }
    }
    (count > 0).then_some(Redacted { text: out, count })
}

/// Every rule but the key blocks, on one line.
fn redact_line(line: &str) -> (String, usize) {
    let mut count = 0;
    let mut text = TOKEN_SHAPES
        .replace_all(line, |_: &Captures| {
            count += 1;
            REDACTED
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
    text = LOGIN_CALL
        .replace_all(&text, |c: &Captures| {
            if !is_login_name(&c[1]) {
                return c[0].to_string();
            }
            let (args, n) = redact_login_args(&c[2]);
            count += n;
            format!("{}({args})", &c[0][..c[0].len() - c[2].len() - 2])
        })
        .into_owned();
    text = AUTH_SCHEME
        .replace_all(&text, |c: &Captures| {
            count += 1;
            format!("{}{}{REDACTED}", &c[1], &c[2])
        })
        .into_owned();
    text = URL_PASSWORD
        .replace_all(&text, |c: &Captures| {
            count += 1;
            format!("{}{REDACTED}@", &c[1])
        })
        .into_owned();
    text = QUOTED_ASSIGNMENT
        .replace_all(&text, |c: &Captures| {
            let value = c
                .get(5)
                .or(c.get(6))
                .or(c.get(7))
                .map_or("", |m| m.as_str());
            let secret = is_secret_name(&c[2])
                && value.chars().count() >= MIN_ASSIGNED_SECRET
                && !value.contains(char::is_whitespace)
                && !value.contains(REDACTED);
            if !secret {
                return c[0].to_string();
            }
            count += 1;
            let quote = &c[4][..1];
            format!("{}{}{}{quote}{REDACTED}{quote}", &c[1], &c[2], &c[3])
        })
        .into_owned();
    if let Some(c) = LINE_ASSIGNMENT.captures(&text) {
        if is_secret_name(&c[2]) && is_literal(&c[4]) {
            count += 1;
            text = format!("{}{}{}{REDACTED}", &c[1], &c[2], &c[3]);
        }
    }
    (text, count)
}

/// Whether `line` is part of a bare key body: a whole line of base64 that
/// is long and mixed (`MIN_KEY_LINE`), or any base64 line right after one
/// (`in_body`: the body's short last line).
fn is_key_body_line(line: &str, in_body: bool) -> bool {
    if !BASE64_LINE.is_match(line) {
        return false;
    }
    let body = line.trim().trim_end_matches('=');
    in_body || (body.len() >= MIN_KEY_LINE && has_mixed_classes(body))
}

/// Upper and lower case letters and digits, all three.
fn has_mixed_classes(token: &str) -> bool {
    token.bytes().any(|b| b.is_ascii_uppercase())
        && token.bytes().any(|b| b.is_ascii_lowercase())
        && token.bytes().any(|b| b.is_ascii_digit())
}

/// A token that is a credential by its shape alone: an AWS secret (40
/// characters of base64, mixed case and digits), or a long token of mixed
/// classes that changes class at most characters (random, not words).
pub fn is_secret_token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    if body.len() < MIN_RANDOM_TOKEN || !has_mixed_classes(body) {
        return false;
    }
    let aws_secret = body.len() == AWS_SECRET_LEN
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    aws_secret || class_changes(body) >= RANDOM_CLASS_CHANGES
}

/// The share of neighbouring letters or digits of a different class.
fn class_changes(token: &str) -> f64 {
    let class = |b: u8| match b {
        b'A'..=b'Z' => Some(0),
        b'a'..=b'z' => Some(1),
        b'0'..=b'9' => Some(2),
        _ => None,
    };
    let mut pairs = 0usize;
    let mut changes = 0usize;
    for w in token.as_bytes().windows(2) {
        if let (Some(a), Some(b)) = (class(w[0]), class(w[1])) {
            pairs += 1;
            changes += usize::from(a != b);
        }
    }
    if pairs == 0 {
        return 0.0;
    }
    changes as f64 / pairs as f64
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
    let words = crate::query::words(name);
    words.iter().any(|w| WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| matches!((p[0].as_str(), p[1].as_str()), ("log" | "sign", "in")))
}

/// A login call's arguments with every string literal after the first
/// argument redacted (the first is the user name).
fn redact_login_args(args: &str) -> (String, usize) {
    let mut count = 0;
    let mut out = String::with_capacity(args.len());
    let mut last = 0;
    let mut commas = 0;
    for m in STRING_LITERAL.find_iter(args) {
        commas += args[last..m.start()].matches(',').count();
        out.push_str(&args[last..m.start()]);
        let inner = &m.as_str()[1..m.as_str().len() - 1];
        if commas >= 1 && inner.chars().count() >= MIN_ASSIGNED_SECRET && !inner.contains(REDACTED)
        {
            let quote = &m.as_str()[..1];
            out.push_str(&format!("{quote}{REDACTED}{quote}"));
            count += 1;
        } else {
            out.push_str(m.as_str());
        }
        last = m.end();
    }
    out.push_str(&args[last..]);
    (out, count)
}

/// An unquoted value that could be a secret: not a number, boolean or null, and
/// not already redacted.
fn is_literal(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let plain = ["true", "false", "null", "none", "nil", "~", "yes", "no"];
    !value.contains(REDACTED) && !plain.contains(&lower.as_str()) && value.parse::<f64>().is_err()
}

/// Whether an identifier names a credential: one of its words (split on `_`,
/// `.`, `-` and camelCase) is a secret word, or two adjacent words are a secret
/// pair (`api_key`, `clientSecret`). `max_tokens` and `PWD` are not.
pub fn is_secret_name(name: &str) -> bool {
    const WORDS: [&str; 9] = [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "credential",
        "credentials",
        "privatekey",
    ];
    const PAIRS: [(&str, &str); 7] = [
        ("api", "key"),
        ("access", "key"),
        ("private", "key"),
        ("secret", "key"),
        ("auth", "key"),
        ("signing", "key"),
        ("encryption", "key"),
    ];
    // The crate's one identifier splitter: `APIKey` → api, key; `password2`
    // → password, 2.
    let words = crate::query::words(name);
    // `DATABASE_PASS`, `db_pwd`: a last word that abbreviates a password
    // (`PWD` alone is the working directory, `pass_through` no secret).
    let abbreviated = match words.as_slice() {
        [.., last] if last == "pass" => true,
        [_, .., last] => last == "pwd",
        _ => false,
    };
    abbreviated
        || words.iter().any(|w| WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

/// Files that are secrets by nature: their content is never sent to a model
/// unless the user opts in. Templates (`.env.example`, `.env.sample`, …) are not.
pub fn is_secret_file(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
    let in_dir = |dir: &str| path.split('/').any(|part| part == dir);
    const NAMES: [&str; 19] = [
        ".envrc",
        ".netrc",
        "_netrc",
        ".npmrc",
        ".pypirc",
        ".pgpass",
        ".git-credentials",
        ".htpasswd",
        ".dockercfg",
        "credentials",
        "credentials.json",
        "credentials.yml",
        "credentials.yaml",
        "secrets.json",
        "secrets.yml",
        "secrets.yaml",
        "secrets.toml",
        "terraform.tfvars",
        "master.key",
    ];
    const EXTENSIONS: [&str; 9] = [
        "pem", "key", "p12", "pfx", "jks", "keystore", "kdbx", "ppk", "tfvars",
    ];
    const TEMPLATES: [&str; 5] = ["example", "sample", "template", "dist", "defaults"];
    if name == ".env" || name.ends_with(".env") {
        return true;
    }
    if let Some(variant) = name.strip_prefix(".env.") {
        return !TEMPLATES.contains(&variant);
    }
    if NAMES.contains(&name.as_str()) {
        return true;
    }
    if ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"].contains(&name.as_str()) {
        return true;
    }
    if in_dir(".ssh")
        && !name.ends_with(".pub")
        && !["known_hosts", "config"].contains(&name.as_str())
    {
        return true;
    }
    if (in_dir(".docker") && name == "config.json") || (in_dir(".kube") && name == "config") {
        return true;
    }
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Planted credentials of every shape the redactor knows, with the secret part
    /// that must disappear. Built from pieces so this file itself trips no scanner.
    fn planted() -> Vec<(String, String)> {
        let openai = format!("sk-proj-{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4");
        let anthropic = format!("sk-ant-api03-{}", "abcdefghijklmnopqrstuvwxyz012345");
        let aws = format!("AKIA{}", "IOSFODNN7EXAMPLE");
        let github = format!("ghp_{}", "0123456789abcdefghijABCDEFGHIJ012345");
        let github_pat = format!("github_pat_{}", "11ABCDEFG0123456789_abcdefghijklmnop");
        let google = format!("AIza{}", "SyA-0123456789abcdefghijklmnopqrstu");
        let slack = format!("xoxb-{}", "123456789012-abcdefghijkl");
        let stripe = format!("sk_live_{}", "0123456789abcdefABCDEF");
        let (aws_secret, random) = aws_secret_and_random();
        let jwt = format!(
            "eyJhbGciOiJIUzI1NiJ9.{}.{}",
            "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        );
        vec![
            (format!("client = OpenAI(api_key=\"{openai}\")"), openai),
            (format!("ANTHROPIC_API_KEY={anthropic}"), anthropic),
            (format!("aws_access_key_id = {aws}"), aws.clone()),
            (format!("token: {github}"), github),
            (
                format!("url = 'https://x:{github_pat}@github.com'"),
                github_pat,
            ),
            (format!("const key = '{google}';"), google),
            (format!("SLACK={slack}"), slack),
            (format!("stripe.api_key = \"{stripe}\""), stripe),
            (format!("Cookie: session={jwt}"), jwt),
            (
                "curl -H 'Authorization: Bearer abcdef0123456789abcdef0123456789'".into(),
                "abcdef0123456789abcdef0123456789".into(),
            ),
            (
                "DATABASE_URL=postgres://admin:hunter2hunter2@db.internal:5432/app".into(),
                "hunter2hunter2".into(),
            ),
            (
                "DB_PASSWORD=correct-horse-battery".into(),
                "correct-horse-battery".into(),
            ),
            (
                "  export API_KEY=abc123def456".into(),
                "abc123def456".into(),
            ),
            ("password: s3cr3t-value".into(), "s3cr3t-value".into()),
            (
                "{\"client_secret\": \"q8w7e6r5t4\"}".into(),
                "q8w7e6r5t4".into(),
            ),
            ("self.apiKey = \"zxcvbnmasdf\"".into(), "zxcvbnmasdf".into()),
            ("secret_key := `qwertyuiop`".into(), "qwertyuiop".into()),
            // Issue 27: shapes today's rules missed.
            (
                format!("s3 = boto3.client('s3', '{aws}', '{aws_secret}')"),
                aws_secret.clone(),
            ),
            (format!("Session(\"{aws_secret}\")"), aws_secret.clone()),
            (
                "session = login(\"admin\", \"Tr0ub4dor&3x\")".into(),
                "Tr0ub4dor&3x".into(),
            ),
            (
                "client.signIn(user, 'qwerty-horse-77')".into(),
                "qwerty-horse-77".into(),
            ),
            (
                "export DATABASE_PASS=Zr8vTq2LmW9xKc".into(),
                "Zr8vTq2LmW9xKc".into(),
            ),
            ("db_pwd: n0tTh3Pwd".into(), "n0tTh3Pwd".into()),
            (format!("token {random}"), random.clone()),
        ]
    }

    /// An AWS secret's shape (the documentation's example key) and a
    /// random token, built from pieces.
    fn aws_secret_and_random() -> (String, String) {
        (
            format!("wJalrXUtnFEMI/K7MDENG/{}", "bPxRfiCYEXAMPLEKEY"),
            format!("q7Xk2Lp9{}", "Vz3Rt8Wm1Nb6Hc4J"),
        )
    }

    #[test]
    fn every_planted_secret_is_removed() {
        for (line, secret) in planted() {
            let out = redact(&line);
            assert!(!out.text.contains(&secret), "{line} -> {}", out.text);
            assert!(out.text.contains(REDACTED), "{line} -> {}", out.text);
            assert!(out.count >= 1, "{line}");
        }
    }

    #[test]
    fn context_around_a_secret_is_kept() {
        let out = redact("curl -H 'Authorization: Bearer abcdef0123456789abcdef0123456789'");
        assert_eq!(out.text, "curl -H 'Authorization: Bearer [REDACTED]'");
        let out = redact("DATABASE_URL=postgres://admin:hunter2hunter2@db.internal:5432/app");
        assert_eq!(
            out.text,
            "DATABASE_URL=postgres://admin:[REDACTED]@db.internal:5432/app"
        );
        let out = redact("{\"password\": \"hunter22\", \"user\": \"bob\"}");
        assert_eq!(
            out.text,
            "{\"password\": \"[REDACTED]\", \"user\": \"bob\"}"
        );
        let out = redact("DB_PASSWORD=hunter22 ");
        assert_eq!(out.text, "DB_PASSWORD=[REDACTED]");
    }

    #[test]
    fn ordinary_code_is_left_alone() {
        let lines = [
            "MAX_TOKENS = 4096",
            "max_tokens: 512",
            "token = \"(\"",
            "if password == \"\":",
            "password = request.form[\"password\"]",
            "let token = lexer.next_token()?;",
            "PWD=/home/user",
            "TOKEN_LIMIT=true",
            "def check_password(password: str) -> bool:",
            "risk-assessment-framework-document-v2",
            "primary_key = \"user_id\"",
            "author = \"Jane Doe\"",
            "Basic usage: see the README",
            "see https://example.com/a:b@c for details",
            "API_KEY=",
            "password: \"\"",
            "from src.components.UserProfile2Card import index",
            "import '../components/UserProfile2Card/index.js'",
            "commit 3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
            "id = '123e4567-e89b-12d3-a456-426614174000'",
            "let getHttpResponse2Code = parseHttpHeaderValue64(raw);",
            "def login(self, user, password):",
            "login(\"admin\")",
            "first_pass = compile(tree)",
            "bypass = \"none\"",
            "ThisIsAVeryLongIdentifierNameWithoutDigits",
        ];
        for line in lines {
            let out = redact(line);
            assert_eq!(out.text, line, "{line}");
            assert_eq!(out.count, 0, "{line}");
        }
    }

    #[test]
    fn private_key_blocks_are_blanked_line_for_line() {
        let lines = [
            "key = '''",
            "-----BEGIN RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgwMcY2fS7kQq3X",
            "-----END RSA PRIVATE KEY-----",
            "'''",
        ];
        let (out, count) = redact_lines(&lines);
        assert_eq!(out.len(), lines.len());
        assert_eq!(out[0], "key = '''");
        assert_eq!(out[4], "'''");
        assert!(out[1..4].iter().all(|l| l.starts_with(REDACTED)));
        assert_eq!(count, 3);
        // An excerpt that starts inside a block, and one that ends inside it.
        let (out, _) = redact_lines(&[
            "MIIEowIBAAKCAQEA0Z3VS5JJ",
            "-----END PRIVATE KEY-----",
            "x = 1",
        ]);
        assert_eq!(out[2], "x = 1");
        assert!(out[0].starts_with(REDACTED) && out[1].starts_with(REDACTED));
        let (out, _) = redact_lines(&[
            "y",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "b3BlbnNzaC1rZXktdjEAAAAA",
        ]);
        assert_eq!(out[0], "y");
        assert!(out[2].starts_with(REDACTED));
        // Public keys and certificates are not secrets.
        let (out, count) = redact_lines(&[
            "-----BEGIN PUBLIC KEY-----",
            "MIIBIjANBgkq",
            "-----END PUBLIC KEY-----",
        ]);
        assert_eq!(count, 0);
        assert_eq!(out[1], "MIIBIjANBgkq");
    }

    #[test]
    fn bare_key_bodies_are_blanked_with_their_short_last_line() {
        let body = [
            "# the key, without its BEGIN/END lines",
            "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgwMcY2fS7kQq3X",
            "bPxRfiCYEXAMPLEKEYwJalrXUtnFEMI7K7MDENGbPxRfiCYEXAMPLEKEY0a1b2c3",
            "Qk9Vbb9Q==",
            "x = 1",
            "short",
        ];
        let (out, count) = redact_lines(&body);
        assert_eq!(out.len(), body.len());
        assert_eq!(out[0], body[0]);
        assert!(out[1..4].iter().all(|l| l.starts_with(REDACTED)), "{out:?}");
        assert_eq!(&out[4..], &body[4..]);
        assert_eq!(count, 3);
        // A lone short base64-looking word is not a key body.
        let (out, count) = redact_lines(&["return", "value"]);
        assert_eq!((out[0].as_str(), count), ("return", 0));
    }

    #[test]
    fn random_tokens_are_told_from_identifiers_by_their_shape() {
        let (aws, random) = aws_secret_and_random();
        assert!(is_secret_token(&aws));
        assert!(is_secret_token(&random));
        for word in [
            "getUserProfile2Card",
            "src/components/UserProfile2Card/index",
            "3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
            "RETRY_BACKOFF_FACTOR_2",
            "X509Certificate2Collection",
            "utf8ToBase64UrlSafe",
        ] {
            assert!(!is_secret_token(word), "{word}");
        }
    }

    #[test]
    fn redaction_keeps_the_line_count() {
        let text = "a\nsk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4\n\nb\n";
        let out = redact(text);
        assert_eq!(out.text.matches('\n').count(), text.matches('\n').count());
        assert_eq!(out.text, "a\n[REDACTED]\n\nb\n");
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
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn secret_files_by_nature() {
        for path in [
            ".env",
            "app/.env",
            ".env.local",
            ".env.production",
            ".envrc",
            "app/.envrc",
            "prod.env",
            "certs/server.pem",
            "tls/server.key",
            "home/.ssh/id_rsa",
            "id_ed25519",
            ".netrc",
            ".npmrc",
            ".pypirc",
            "~/.aws/credentials",
            "config/credentials.json",
            "config\\secrets.yml",
            "deploy/terraform.tfvars",
            ".ssh/my_deploy_key",
            ".docker/config.json",
            ".kube/config",
            "keystore.jks",
        ] {
            assert!(is_secret_file(path), "{path}");
        }
        for path in [
            ".env.example",
            ".env.sample",
            "src/env.rs",
            "environment.py",
            "id_rsa.pub",
            ".ssh/known_hosts",
            ".ssh/config",
            "src/key.rs",
            "docs/keys.md",
            "config.json",
            "src/credentials_test.py",
            "Makefile",
            ".key",
        ] {
            assert!(!is_secret_file(path), "{path}");
        }
    }

    /// Lines of every kind the rules know, to build documents from.
    fn line_pool() -> Vec<String> {
        let mut pool: Vec<String> = planted().into_iter().map(|(line, _)| line).collect();
        pool.extend(
            [
                "-----BEGIN RSA PRIVATE KEY-----",
                "-----END RSA PRIVATE KEY-----",
                "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgwMcY2fS7kQq3X",
                "Qk9Vbb9Q==",
                "  ",
                "",
                "fn main() {}",
                "let token = lexer.next_token()?;",
                "MAX_TOKENS = 4096",
                "return",
                "see https://example.com/a:b@c for details",
                "x = \"value\"",
                "\r",
                "café ünïcode line",
            ]
            .map(str::to_string),
        );
        pool
    }

    #[test]
    fn a_whole_text_is_redacted_as_its_lines_are() {
        let pool = line_pool();
        // Every ordered pair and triple of pool lines, as a document.
        for a in &pool {
            for b in &pool {
                for c in [&pool[0], &pool[pool.len() - 4], &pool[pool.len() - 13]] {
                    let lines = [a.as_str(), b.as_str(), c.as_str()];
                    let (want, count) = redact_lines(&lines);
                    let text = lines.join("\n");
                    let got = redact_text(&text);
                    let want_text = want.join("\n");
                    match got {
                        Some(r) => assert_eq!((r.text, r.count), (want_text, count), "{lines:?}"),
                        None => assert_eq!((text, 0), (want_text, count), "{lines:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn line_markers_start_with_the_marker() {
        assert!(LINE_MARKERS.iter().all(|m| m.starts_with(REDACTED)));
    }

    #[test]
    fn constant_patterns_compile() {
        for re in [
            &TOKEN_SHAPES,
            &AUTH_SCHEME,
            &URL_PASSWORD,
            &QUOTED_ASSIGNMENT,
            &LINE_ASSIGNMENT,
            &KEY_BEGIN,
            &KEY_END,
            &TOKEN_RUN,
            &LOGIN_CALL,
            &STRING_LITERAL,
            &BASE64_LINE,
            &MAY_REDACT,
            &BASE64_LINES,
        ] {
            assert!(!re.as_str().is_empty());
        }
    }
}
