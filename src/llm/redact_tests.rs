#![allow(clippy::unwrap_used)]

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
    let jwt = format!(
        "eyJhbGciOiJIUzI1NiJ9.{}.{}",
        "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    );
    vec![
        (format!("client = OpenAI(api_key=\"{openai}\")"), openai),
        (format!("ANTHROPIC_API_KEY={anthropic}"), anthropic),
        (format!("aws_access_key_id = {aws}"), aws),
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
    ]
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
    ] {
        assert!(!re.as_str().is_empty());
    }
}
