//! What a secret looks like by itself, wherever it stands: the key shapes of
//! the major providers, random-looking tokens, and key-length hex strings;
//! which pieces of a literal split in two (`"ghp_" + "…"`, `"AKIA"
//! "…"`) are a secret once joined; and what a random token in one case
//! looks like, for the rules that read a secret's name before it, and for
//! the one that reads a whole quoted literal without one.
//!
//! Owns telling a token from an identifier or a digest by its shape. Does not
//! own the rules that know a secret by its context (names, URLs, headers,
//! command lines: `redact::line`) nor secret files (`redact::files`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::regex;

/// The key shapes of the major providers, one pattern each.
pub(super) const SHAPES: [&str; 34] = [
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
    r"SK[0-9a-fA-F]{32}",      // Twilio API key
    r"SG\.[A-Za-z0-9_\-]{20,32}\.[A-Za-z0-9_\-]{20,64}", // SendGrid
    r"dop_v1_[a-f0-9]{64}",    // DigitalOcean
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}", // Shopify
    r"pypi-AgE[A-Za-z0-9_\-]{50,}", // PyPI
    r"AGE-SECRET-KEY-1[0-9A-Z]{58}", // age
    r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", // JWT
    // Keys in one case or in hex, which the random-token shape cannot tell
    // from an identifier or a digest: known by their prefix and length.
    r"key-[0-9a-z]{32}",                         // Mailgun (legacy)
    r"[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}",     // Mailgun
    r"dapi[0-9a-f]{32}(?:-[0-9])?",              // Databricks
    r"sbp_[0-9a-f]{40}",                         // Supabase
    r"lin_api_[A-Za-z0-9]{40}",                  // Linear
    r"sq0(?:atp|csp|idp)-[0-9A-Za-z_\-]{22,43}", // Square
    r"NRAK-[A-Z0-9]{27}",                        // New Relic
    r"oy2[a-z0-9]{43}",                          // NuGet
    r"rubygems_[0-9a-f]{48}",                    // RubyGems
    r"pul-[0-9a-f]{40}",                         // Pulumi
    r"dckr_pat_[A-Za-z0-9_\-]{27}",              // Docker Hub
    r"gl(?:ptt|dt|rt|cbt|imt|ft|oas|soat)-[0-9A-Za-z_\-]{20,}", // GitLab
    r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",      // Grafana
    r"sntryu_[0-9a-f]{64}",                      // Sentry
    r"hv[sb]\.[A-Za-z0-9_\-]{90,}",              // HashiCorp Vault
    r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", // Doppler
    r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}",       // Dynatrace
];

/// [`SHAPES`], replaced whole. The first group is the character before the
/// key (kept): a key starts at the start of the text or after anything but
/// a letter or digit, so `tok_ghp_…` (an identifier holding a token) is one
/// too.
pub(super) static TOKEN_SHAPES: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"(^|[^A-Za-z0-9])(?:{})", SHAPES.join("|"))));

/// A run of base64 / base64url characters (a token candidate).
pub(super) static TOKEN_RUN: LazyLock<Regex> = LazyLock::new(|| regex(r"[A-Za-z0-9+/_\-]+=*"));

/// Shortest token judged random by its shape.
const MIN_RANDOM_TOKEN: usize = 20;
/// The share of neighbouring letters and digits that change class (upper,
/// lower, digit) above which a token is random: about 0.62 for random
/// base64, 0.2 to 0.4 for identifiers and paths (`getUserProfile2Card`: 0.39).
const RANDOM_CLASS_CHANGES: f64 = 0.5;
/// Length of an AWS secret access key (base64, mixed case and digits).
const AWS_SECRET_LEN: usize = 40;
/// Lengths of a key written in hex: 128, 160, 192, 256, 384 and 512 bits.
/// 40 is also a git commit and 64 a SHA-256: [`names_a_digest`] tells them
/// apart by the words before them.
const HEX_KEY_LENGTHS: [usize; 6] = [32, 40, 48, 64, 96, 128];
/// Words before a hex string in which a word naming a key overrides a
/// digest's ([`names_a_digest`]).
const DIGEST_CONTEXT_WORDS: usize = 4;
/// Words just before a value that name it ([`names_a_digest_nearby`]): a
/// name's last two (`expected_sha256`, `REVISION: &str`, `"sha1"`: `sha`,
/// `1`).
const NAMING_WORDS: usize = 2;

/// Upper and lower case letters and digits, all three.
pub(super) fn has_mixed_classes(token: &str) -> bool {
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

/// Shannon entropy, in bits a character, at and above which a token in one
/// case may be random ([`is_random_in_one_case`]): detect-secrets' limit for
/// hex strings (`HexHighEntropyString`, 3.0). Random hex of 20 characters
/// measures about 3.4, of 64 about 3.8; random lower-case letters and
/// digits 3.9 to 4.7; `0a0a0a…` 1.0.
const MIN_ONE_CASE_ENTROPY: f64 = 3.0;
/// The share of neighbouring characters that change between letter and
/// digit at and above which a token in one case may be random
/// ([`is_random_in_one_case`]): about 0.47 for random hex and 0.40 for
/// random lower-case letters and digits (below 0.2 for under 3 in 100 of
/// them), 0.16 for `x509certificate2collection` and 0.09 for
/// `sha256withrsaencryption`, whose words are long runs of letters.
const MIN_LETTER_DIGIT_CHANGES: f64 = 0.2;

/// A token in one case (lower-case letters and digits, or upper-case ones;
/// hyphens between groups, as in a UUID) that is random, not a word, an
/// identifier or a slug. Secret scanners judge a token with no known prefix
/// by the entropy of its characters (detect-secrets'
/// `HexHighEntropyString`, gitleaks' `generic-api-key`); entropy alone
/// passes a long identifier with a version number in it
/// (`sha256withrsaencryption`: 3.9 bits), so a character-class rule goes
/// with it: at least [`MIN_RANDOM_TOKEN`] letters and digits, at least
/// [`MIN_ONE_CASE_ENTROPY`] bits a character, and letters and digits
/// alternating ([`MIN_LETTER_DIGIT_CHANGES`]). A run of letters alone
/// (`internationalization`, a random password without digits) is never
/// one; nor is anything with `_` (a snake_case identifier).
///
/// A digest is one too (a git commit, a SHA-256, a UUID): this rule is asked
/// only where the words before a value name a secret (`token: …`,
/// `api_key …`, `f(token=…)`), never of a token standing alone.
pub(super) fn is_random_in_one_case(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    let chars: Vec<u8> = body.bytes().filter(|&b| b != b'-').collect();
    is_in_one_case(body, b"-") && !body.starts_with('-') && is_random_run(&chars, MIN_RANDOM_TOKEN)
}

/// Shortest string literal judged random in one case with no name before
/// it ([`is_random_literal`]): a 64-bit key in hex, and the short API keys
/// and passwords of generators in base 36 (`9f2kq8x1m3z7w4p6`). At 16
/// characters random base 36 measures 3.4 to 4.0 bits a character; the
/// identifiers of that length that pass are rare in code (`avx512vp2intersect`,
/// `d2d1effectauthor`: a feature's name, sent redacted).
const MIN_RANDOM_LITERAL: usize = 16;

/// A whole string literal's content that is random in one case: lower-case
/// letters and digits, or upper-case ones, at least [`MIN_RANDOM_LITERAL`]
/// of them, judged as [`is_random_in_one_case`] judges a token (entropy,
/// letters and digits alternating). Unlike that rule it is asked with no
/// secret's name before the literal (`Client("…")`, `key = "…"`,
/// `headers["X-Api"] = "…"`), so it is stricter on what it reads: no `-`
/// (a UUID, a target triple, a slug), no `_` (an identifier), no `.` or
/// `/` (a version, a path), and not an ISO 8601 duration
/// (`P23Y1M24DT12H5M29S`). A digest named as one is the caller's to keep
/// ([`names_a_digest_nearby`]).
pub(super) fn is_random_literal(value: &str) -> bool {
    let duration = value.starts_with('P')
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || b"PYMWDTHS".contains(&b));
    is_in_one_case(value, b"") && !duration && is_random_run(value.as_bytes(), MIN_RANDOM_LITERAL)
}

/// Whether `body` is letters and digits in one case (lower or upper), with
/// only the bytes of `also` between them.
fn is_in_one_case(body: &str, also: &[u8]) -> bool {
    let lower = body
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || also.contains(&b));
    let upper = body
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || also.contains(&b));
    lower || upper
}

/// Whether `chars` (letters and digits in one case) are random: at least
/// `min` of them, at least [`MIN_ONE_CASE_ENTROPY`] bits a character, and
/// letters and digits alternating ([`MIN_LETTER_DIGIT_CHANGES`]).
fn is_random_run(chars: &[u8], min: usize) -> bool {
    chars.len() >= min
        && entropy(chars) >= MIN_ONE_CASE_ENTROPY
        && letter_digit_changes(chars) >= MIN_LETTER_DIGIT_CHANGES
}

/// A value that is random by its shape: [`is_secret_token`] (mixed case)
/// or [`is_random_in_one_case`].
pub(super) fn looks_random(token: &str) -> bool {
    is_secret_token(token) || is_random_in_one_case(token)
}

/// Whether `line` holds a run of letters and digits that is random in one
/// case ([`is_random_in_one_case`]) or by [`is_secret_token`]: the words of
/// such a line are not a project's vocabulary (`llm::outbound`), whatever
/// names it.
pub fn holds_random_run(line: &str) -> bool {
    TOKEN_RUN
        .find_iter(line)
        .flat_map(|m| m.as_str().split(['_', '+', '/', '=']))
        .any(looks_random)
}

/// Shannon entropy of `bytes`, in bits a character.
fn entropy(bytes: &[u8]) -> f64 {
    let mut counts = [0usize; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let n = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// The share of neighbouring bytes of which one is a digit and the other
/// is not.
fn letter_digit_changes(bytes: &[u8]) -> f64 {
    if bytes.len() < 2 {
        return 0.0;
    }
    let changes = bytes
        .windows(2)
        .filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit())
        .count();
    changes as f64 / (bytes.len() - 1) as f64
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

/// A key written in hex (`0x` optional): one of [`HEX_KEY_LENGTHS`], digits
/// and letters both (`000…0` and `deadbeef…` words are not keys).
pub(super) fn is_hex_key(value: &str) -> bool {
    let hex = value.strip_prefix("0x").unwrap_or(value);
    HEX_KEY_LENGTHS.contains(&hex.len())
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && hex.bytes().any(|b| b.is_ascii_digit())
        && hex.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Whether the words before a hex string (`before`: the line up to it)
/// say it is a digest, a revision, an identifier or a test vector, not a
/// key: `checksum = "…"`, `sha256(b"abc").hexdigest() == "…"`, `commit:
/// …`, `rev = "…"`, `GUID_X: PCSTR = s!("…")`, `output: hex!("…")`;
/// unless the last words name a key (`hmac_key = "…"`). A git SHA in prose
/// (no `=`, `:` or quotes before it) is not looked at at all.
pub(super) fn names_a_digest(before: &str) -> bool {
    names_a_digest_within(before, usize::MAX)
}

/// [`names_a_digest`] on the last [`NAMING_WORDS`] words before a value
/// only (`"sha1": "…"`, `checksum = "…"`, `REVISION: &str = "…"`,
/// `request_id = "…"`): for a literal no secret's name precedes
/// ([`is_random_literal`]), where an `id` earlier on the line
/// (`{"id": 7, "value": "…"}`) says nothing of this value.
pub(super) fn names_a_digest_nearby(before: &str) -> bool {
    names_a_digest_within(before, NAMING_WORDS)
}

/// Whether one of the last `within` words before a value names a digest,
/// and none of the last [`DIGEST_CONTEXT_WORDS`] a key.
fn names_a_digest_within(before: &str, within: usize) -> bool {
    const DIGEST: [&str; 64] = [
        "sha",
        "md",
        "blake",
        "crc",
        "hash",
        "hashes",
        "hashed",
        "digest",
        "hexdigest",
        "checksum",
        "checksums",
        "cksum",
        "sum",
        "integrity",
        "fingerprint",
        "thumbprint",
        "etag",
        "commit",
        "commits",
        "rev",
        "revision",
        "ref",
        "head",
        "tree",
        "parent",
        "oid",
        "object",
        "blob",
        "fix",
        "fixes",
        "fixed",
        "revert",
        "reverts",
        "merge",
        "see",
        "upstream",
        "pin",
        "pinned",
        "gist",
        "license",
        "id",
        "ids",
        "uuid",
        "guid",
        "address",
        "addr",
        "tx",
        "txid",
        "block",
        "version",
        "expected",
        "assert",
        "want",
        "got",
        "input",
        "output",
        "result",
        "vector",
        "vectors",
        "plaintext",
        "ciphertext",
        "nonce",
        "iv",
        "serial",
    ];
    const KEY: [&str; 10] = [
        "key",
        "secret",
        "token",
        "hmac",
        "password",
        "passwd",
        "seed",
        "private",
        "signing",
        "credential",
    ];
    let words = crate::query::words(before);
    let last = &words[words.len().saturating_sub(DIGEST_CONTEXT_WORDS)..];
    let near = &words[words.len().saturating_sub(within)..];
    near.iter().any(|w| DIGEST.contains(&w.as_str()))
        && !last.iter().any(|w| KEY.contains(&w.as_str()))
}

/// The byte ranges of `text` (a literal's pieces joined) that are secrets
/// by their shape alone: a provider's key shape, a random token, or the
/// whole text a hex key (`before`, the line before the literal, may say it
/// is a digest).
pub(super) fn secret_ranges(text: &str, before: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = TOKEN_SHAPES
        .captures_iter(text)
        .filter_map(|c| Some(c.get(1)?.end()..c.get(0)?.end()))
        .collect();
    out.extend(
        TOKEN_RUN
            .find_iter(text)
            .filter(|m| is_secret_token(m.as_str()))
            .map(|m| m.range()),
    );
    if is_hex_key(text) && !names_a_digest(before) {
        out.push(0..text.len());
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn random_tokens_are_told_from_identifiers_by_their_shape() {
        let aws = format!("wJalrXUtnFEMI/K7MDENG/{}", "bPxRfiCYEXAMPLEKEY");
        let random = format!("q7Xk2Lp9{}", "Vz3Rt8Wm1Nb6Hc4J");
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
    fn random_tokens_in_one_case_are_told_from_identifiers_and_words() {
        let base36 = format!("3ax6xnjp29jd6fds{}", "4gc373sgvjxteol0");
        let hex = format!("9f86d081884c7d65{}", "9a2feaa0c55ad015");
        for token in [
            base36.clone(),
            base36.to_uppercase(),
            hex.clone(),
            format!("{base36}{hex}"),
            // A sha1 and a UUID are random too: the rule is asked only
            // after a secret's name (`line::named_tokens`).
            format!("679591c564c3bffa{}", "ae8454cf0b3df370c3d6911c"),
            "123e4567-e89b-12d3-a456-426614174000".to_string(),
            format!("JBSWY3DPEHPK3PXP{}", "JBSWY3DPEHPK3PXP"),
            "k7q2m9x4w1z8r5t3b6n0".to_string(),
        ] {
            assert!(is_random_in_one_case(&token), "{token}");
            assert!(looks_random(&token), "{token}");
        }
        for word in [
            "internationalization",
            "thequickbrownfoxjumpsoverthelazydog",
            "sha256withrsaencryption",
            "x509certificate2collection",
            "k8sioapimachinerypkgapismetav1",
            "20240115releasecandidate3",
            "very_long_snake_case_identifier_name",
            "risk-assessment-framework-document-v2",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "0a0a0a0a0a0a0a0a0a0a0a0a",
            "12345678901234567890123",
            "-3ax6xnjp29jd6fds4gc373sgvjxteol0",
            &base36[..19],
            // Mixed case is `is_secret_token`'s to judge.
            "q7Xk2Lp9Vz3Rt8Wm1Nb6Hc4J",
        ] {
            assert!(!is_random_in_one_case(word), "{word}");
        }
        // A base64 blob is random by the mixed-case rule, not this one.
        let blob = format!("dGhpcyBpcyBhIGJhc2U2NCBi{}", "bG9iIG9mIHNvbWUgdGV4dA==");
        assert!(!is_random_in_one_case(&blob));
        assert!(looks_random(&blob));
        assert!(holds_random_run(&format!("x = \"{base36}\"")));
        assert!(holds_random_run(&format!("tok_{hex}")));
        assert!(!holds_random_run(
            "let cert = X509Certificate2Collection::new();"
        ));
    }

    #[test]
    fn random_literals_are_one_case_runs_of_sixteen_without_separators() {
        let base36 = format!("9f2kq8x1{}", "m3z7w4p6");
        for value in [
            base36.clone(),
            base36.to_uppercase(),
            format!("5b1e09c4d7{}", "a3f68e2c"),
        ] {
            assert!(is_random_literal(&value), "{value}");
        }
        for value in [
            &base36[..15],
            "123e4567-e89b-12d3-a456-426614174000",
            "9f2kq8x1_m3z7w4p6",
            "v9f2kq8x1.m3z7w4p6",
            "P23Y1M24DT12H5M29S",
            "x509certificate2collection",
            "0123456789abcdef",
            // Mixed case is `is_secret_token`'s.
            "9f2Kq8x1m3Z7w4p6",
        ] {
            assert!(!is_random_literal(value), "{value}");
        }
        assert!(names_a_digest_nearby("\"sha1\": \""));
        assert!(names_a_digest_nearby("const REVISION: &str = \""));
        assert!(!names_a_digest_nearby("{\"id\": 7, \"value\": \""));
        assert!(!names_a_digest_nearby(
            "sha = {\"a\": \"x\", \"hmac_key\": \""
        ));
    }

    #[test]
    fn hex_keys_have_key_lengths_and_both_digits_and_letters() {
        let key = format!(
            "6b3a55e0261b0304143f805a{}",
            "24924d0c1c44524821305f31d9277843b8a10f4e"
        );
        assert!(is_hex_key(&key));
        assert!(is_hex_key(&format!("0x{key}")));
        assert!(is_hex_key(&key[..32]));
        assert!(is_hex_key(&key[..40]));
        for not in [
            &key[..31],
            &key[..50],
            "00000000000000000000000000000000",
            "deadbeefdeadbeefdeadbeefdeadbeef",
            "sha256",
        ] {
            assert!(!is_hex_key(not), "{not}");
        }
    }

    #[test]
    fn digests_and_revisions_are_named_before_them() {
        for before in [
            "checksum = \"",
            "assert hashlib.sha256(b\"abc\").hexdigest() == \"",
            "  commit: ",
            "rev = \"",
            "expected_sha256 = '",
            "\"integrity\": \"",
            "# Fixes: ",
            "owner_address = \"",
            "pub const GUID_USERS_CONTAINER_A: PCSTR = s!(\"",
            "assert_eq!(buf, hex!(\"",
        ] {
            assert!(names_a_digest(before), "{before}");
        }
        for before in [
            "hexkey = \"",
            "sha = {\"a\": \"x\", \"hmac_key\": \"",
            "hmac = bytes.fromhex(\"",
            "db = Datadog(\"",
            "shared_secret = \"",
            "KEY=",
            "",
        ] {
            assert!(!names_a_digest(before), "{before}");
        }
    }

    #[test]
    fn joined_pieces_show_their_secret_ranges() {
        let ghp = format!("ghp_{}", "0123456789abcdefghijABCDEFGHIJ012345");
        assert_eq!(secret_ranges(&ghp, "x = "), vec![0..ghp.len()]);
        let aws_id = format!("AKIA{}", "IOSFODNN7EXAMPLE");
        assert_eq!(secret_ranges(&aws_id, "k = "), vec![0..20]);
        let bearer = format!("Bearer {aws_id}");
        assert_eq!(secret_ranges(&bearer, ""), vec![7..27]);
        assert!(secret_ranges("Hello, world", "").is_empty());
        let sha = "3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c";
        assert_eq!(secret_ranges(sha, "key = "), vec![0..40]);
        assert!(secret_ranges(sha, "commit = ").is_empty());
    }
}
