//! The one rule for what may leave the machine. Everything kgrep sends a
//! model (excerpts, the vocabulary word list, follow-up results, file names,
//! the query) is taken from what this module lets through:
//!
//! - a secret file by nature ([`redact::is_secret_file`]: `.env`, `.envrc`,
//!   `id_rsa`, `*.pem`, …) is never read for a prompt: [`is_withheld`] is
//!   asked before the file is loaded, and its name is never sent;
//! - any other file is redacted ([`redact::redact_lines`]) as a whole, line
//!   by line, before anything cuts it into excerpts or splits it into words
//!   ([`document`]): a key block is known from BEGIN to END, a key body's
//!   short last line follows its long lines, a value on the lines after its
//!   name is known from the name, and a secret is replaced whole, never word
//!   by word (where no rule would recognise a fragment);
//! - vocabulary words come only from lines that held no secret and hold no
//!   random-looking run ([`vocabulary_line`]), and a word that is or looks
//!   like one is not sent ([`word`]);
//! - a file's path is sent with each part that is a secret redacted
//!   ([`path`]: `src/[REDACTED].py`); the prompt numbers them so that the
//!   model's claims map back to the file (`prompt`, `Reply::with_keys`);
//! - free text sent as it is (the query) is redacted the same way ([`text`]).
//!
//! The model stage reads documents for a prompt only through [`document`];
//! `prompt` applies the same rule once more to what it assembles, so a
//! request built by hand gets it too. Does not decide whether a model is
//! called (`fallback::decide`) and does no I/O: the caller loads the file
//! (after asking [`is_withheld`]) and passes it in.

use std::borrow::Cow;

use super::redact::{self, REDACTED};
use crate::document::Document;

/// Whether the file with this key is withheld from every model: it is never
/// read for a prompt, and its name is never sent.
pub fn is_withheld(key: &str) -> bool {
    redact::is_secret_file(key)
}

/// `doc` as a model may see it: `None` for a withheld file; otherwise every
/// line redacted (`redact::redact_text`, one scan of the whole text), as many
/// lines as before (line numbers stay true). Invalid UTF-8 becomes U+FFFD,
/// as in every excerpt.
pub fn document(doc: Document) -> Option<Document> {
    if is_withheld(&doc.key) {
        return None;
    }
    let text = String::from_utf8_lossy(&doc.text);
    let redacted = match redact::redact_text(&text) {
        Some(r) => r.text,
        None if matches!(text, Cow::Borrowed(_)) => return Some(doc),
        None => text.into_owned(),
    };
    Some(Document {
        text: redacted.into_bytes(),
        ..doc
    })
}

/// Free text (the query) with its secrets replaced.
pub fn text(text: &str) -> String {
    redact::redact(text).text
}

/// A file's path as it may be sent: `None` when no part of it is a secret
/// (it is sent as it is), else the path with those parts redacted
/// (`src/sk-proj-….py` → `src/[REDACTED].py`).
pub fn path(key: &str) -> Option<String> {
    redact::redact_path(key)
}

/// Longest vocabulary word sent, in chars: identifiers are split into their
/// words (`query::words`), and no word of code is this long; a longer run of
/// letters is data (a lower-case password, a piece of an encoded key).
pub const MAX_WORD_CHARS: usize = 24;

/// One vocabulary word as it may be sent: `None` when the word is (or
/// holds) a secret, looks like one (a random token, a run of letters
/// longer than [`MAX_WORD_CHARS`]), or is a redaction marker's word.
pub fn word(word: &str) -> Option<String> {
    let word = word.trim();
    let r = redact::redact(word);
    let secret = r.count > 0 || redact::is_secret_token(word);
    let data = word.chars().count() > MAX_WORD_CHARS;
    (!secret && !data && !word.is_empty()).then_some(r.text)
}

/// A line of a redacted document as vocabulary words may be taken from it:
/// `None` when the line held a secret (a marker is in it). Its other words
/// (`mysql`, `uroot` around a redacted `-p…`) could be the secret's own
/// pieces that no rule saw, and the marker's words (`redacted`, `private`,
/// `key`, `material`) are not the corpus's vocabulary. Nor when it holds a
/// random run of letters and digits (`redact::holds_random_run`: a token
/// no name said was secret, a digest): splitting it into words
/// (`query::words` cuts at each digit) would send its letters as words
/// that no rule on one word can tell from a project's own.
pub fn vocabulary_line(line: &str) -> Option<&str> {
    (!line.contains(REDACTED) && !redact::holds_random_run(line)).then_some(line)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    use crate::testing::doc;

    #[test]
    fn paths_with_a_secret_in_them_are_redacted() {
        let key = format!("AKIA{}", "IOSFODNN7EXAMPLE");
        assert_eq!(
            path(&format!("src/{key}.py")).as_deref(),
            Some("src/[REDACTED].py")
        );
        assert_eq!(path("src/app.py"), None);
    }

    #[test]
    fn secret_files_are_withheld_whole() {
        assert!(document(doc(".env", "A=1\n")).is_none());
        assert!(document(doc("deploy/.envrc", "export X=1\n")).is_none());
        assert!(document(doc("home/.ssh/id_rsa", "x")).is_none());
        assert!(is_withheld("certs/server.pem"));
        assert!(!is_withheld("src/env.rs"));
    }

    #[test]
    fn a_whole_file_is_redacted_before_it_is_cut() {
        let text = "key = '''\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJ\n\
                    b3BlbnNzaC1rZXktdjEAAAAA\n-----END RSA PRIVATE KEY-----\n'''\nPASSWORD=hunter2hunter2\nok";
        let out = document(doc("src/keys.py", text)).unwrap();
        let lines: Vec<String> = out
            .lines()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        assert_eq!(lines.len(), text.split('\n').count());
        assert_eq!(lines[0], "key = '''");
        // A window starting at line 4 (inside the block) is redacted too,
        // which an excerpt redacted alone could not know from its END line
        // if the window stopped before it.
        assert!(lines[2..5].iter().all(|l| l.starts_with(REDACTED)));
        assert_eq!(lines[6], "PASSWORD=[REDACTED]");
        assert_eq!(lines[7], "ok");
        // A file with nothing to redact is passed through as it is.
        let plain = doc("a.rs", "fn main() {}\n");
        assert_eq!(document(plain.clone()).unwrap(), plain);
    }

    #[test]
    fn vocabulary_words_and_lines() {
        assert_eq!(word(" retry ").as_deref(), Some("retry"));
        assert_eq!(word("sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4"), None);
        assert_eq!(word("q7Xk2Lp9Vz3Rt8Wm1Nb6Hc4J"), None);
        assert_eq!(word("alllowercasepasswordvalue"), None);
        assert_eq!(
            word("internationalization").as_deref(),
            Some("internationalization")
        );
        assert_eq!(vocabulary_line("[REDACTED] (private key)"), None);
        assert_eq!(vocabulary_line("mysql(\"-uroot\", \"-p[REDACTED]\")"), None);
        assert_eq!(
            vocabulary_line("def connect(retry):"),
            Some("def connect(retry):")
        );
        // A random run no rule redacted gives no words (its letters would
        // be sent as words: `query::words` cuts at each digit); an
        // identifier with a number in it does.
        let lower = format!("3ax6xnjp29jd6fds{}", "4gc373sgvjxteol0");
        assert_eq!(vocabulary_line(&format!("sid = \"{lower}\"")), None);
        let lock = format!(
            "lodash-4.17.21.tgz#679591c564c3bffa{}",
            "ae8454cf0b3df370c3d6911c"
        );
        assert_eq!(vocabulary_line(&lock), None);
        for line in [
            "let cert = X509Certificate2Collection::new();",
            "alg = \"sha256withrsaencryption\"",
            "internationalization_settings_for_the_app = 1",
        ] {
            assert_eq!(vocabulary_line(line), Some(line));
        }
        assert_eq!(
            text("where is AKIAIOSFODNN7EXAMPLE used"),
            "where is [REDACTED] used"
        );
    }
}
