//! Credentials scrubbed from excerpts before anything leaves the machine, and the
//! files that are secrets by nature.
//!
//! Owns: [`redact_lines`] (the one redactor every excerpt passes through in
//! `prompt`), [`redact`] for free text (server error messages), and
//! [`is_secret_file`] (`.env`, `*.pem`, `id_rsa`, …: never sent unless the user
//! opts in). It replaces only the secret part (`[REDACTED]`) and never adds or
//! removes a line, so line numbers in excerpts stay true. It is a safety net,
//! not a guarantee: it knows the key shapes of the major providers, private-key
//! blocks, bearer/basic tokens, passwords in URLs and assignments of
//! secret-looking names; an unlabelled random string can still get through.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// What a secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

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
    for line in lines {
        let line = line.as_ref();
        let begins = KEY_BEGIN.is_match(line);
        if in_key || begins {
            in_key = !KEY_END.is_match(line);
            count += 1;
            out.push(format!("{REDACTED} (private key)"));
            continue;
        }
        let (line, n) = redact_line(line);
        count += n;
        out.push(line);
    }
    (out, count)
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
    words.iter().any(|w| WORDS.contains(&w.as_str()))
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
    const NAMES: [&str; 18] = [
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
#[path = "redact_tests.rs"]
mod tests;
