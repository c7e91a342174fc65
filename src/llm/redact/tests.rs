//! Tests of the redactor as a whole: every rule through [`redact`], both
//! directions (the secret gone, ordinary code kept), and [`redact_text`]
//! agreeing with [`redact_lines`].

#![allow(clippy::unwrap_used)]

use super::*;

/// Planted credentials of every shape the redactor knows, with the secret part
/// that must disappear. Built from pieces so this file itself trips no scanner.
pub(super) fn planted() -> Vec<(String, String)> {
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
fn redaction_keeps_the_line_count() {
    let text = "a\nsk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4\n\nb\n";
    let out = redact(text);
    assert_eq!(out.text.matches('\n').count(), text.matches('\n').count());
    assert_eq!(out.text, "a\n[REDACTED]\n\nb\n");
}

/// Lines of every kind the rules know, to build documents from.
pub(super) fn line_pool() -> Vec<String> {
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
            "  password: |",
            "    BlockValue1",
            "PASSWORD = (",
            "x = (\"wJalrXUtnFEMI/K7MDENG\"",
            "     \"/bPxRfiCYEXAMPLEKEY\")",
            "DB_PASSWORD =",
            "y = \"plain\"",
        ]
        .map(str::to_string),
    );
    pool.extend(probe_leaks().into_iter().map(|(line, _)| line));
    pool.extend(
        random_values_in_one_case()
            .into_iter()
            .chain(random_literals_without_a_name())
            .chain(table_secrets())
            .map(|(line, _, _)| line),
    );
    pool
}

#[test]
fn a_whole_text_is_redacted_as_its_lines_are() {
    let pool = line_pool();
    // Third lines: a secret, a key line, plain code, a value's second line
    // and a literal that may continue one.
    let thirds: Vec<&String> = [
        "client = OpenAI(",
        "Qk9Vbb9Q==",
        "fn main() {}",
        "    BlockValue1",
        "     \"/bPxRfiCYEXAMPLEKEY\")",
    ]
    .iter()
    .filter_map(|start| pool.iter().find(|l| l.starts_with(start)))
    .collect();
    assert_eq!(thirds.len(), 5);
    // Every ordered pair and triple of pool lines, as a document.
    for a in &pool {
        for b in &pool {
            for &c in &thirds {
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
fn redacting_again_changes_nothing() {
    // The prompt redacts excerpts of documents redacted already: a marker
    // is never read as a secret's value (`-p[REDACTED` before its `]`).
    let mut changed = Vec::new();
    for line in line_pool() {
        let once = redact(&line).text;
        let twice = redact(&once);
        if twice.text != once || twice.count != 0 {
            changed.push(format!("{line}\n  -> {once}\n  -> {}", twice.text));
        }
    }
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

#[test]
fn line_markers_start_with_the_marker() {
    assert!([KEY_LINE, KEY_BODY_LINE]
        .iter()
        .all(|m| m.starts_with(REDACTED)));
}

#[test]
fn constant_patterns_compile() {
    let mut all: Vec<&Regex> = line::patterns();
    all.extend([
        &*shapes::TOKEN_SHAPES,
        &*shapes::TOKEN_RUN,
        &*KEY_BEGIN,
        &*KEY_END,
        &*BASE64_LINE,
        &*MAY_REDACT,
        &*SPLIT_LINES,
        &*BASE64_LINES,
    ]);
    for re in all {
        assert!(!re.as_str().is_empty());
    }
}

/// Secrets the probe found sent (issue s43c), one line each, with the
/// secret that must disappear. Provider shapes are built from pieces.
fn probe_leaks() -> Vec<(String, &'static str)> {
    let slack_hook = format!(
        "https://hooks.slack.com/services/{}",
        "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
    );
    let twilio = format!("SK{}", "0123456789abcdef0123456789abcdef");
    let sendgrid = format!(
        "SG.{}.{}",
        "abcdefghijklmnopqrstuv", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq"
    );
    let hex64 = format!(
        "6b3a55e0261b0304143f805a{}",
        "24924d0c1c44524821305f31d9277843b8a10f4e"
    );
    let ghp_tail = "0123456789abcdefghijABCDEFGHIJ012345";
    vec![
        // 1. Assignments in other syntaxes.
        ("password: str = \"TypAnnotPw01x\"".into(), "TypAnnotPw01x"),
        ("const DB_PASSWORD: &str = \"RustConstPw20\";".into(), "RustConstPw20"),
        ("static API_TOKEN: &'static str = \"RustStaticTok21\";".into(), "RustStaticTok21"),
        ("#define DB_PASSWD \"CDefinePw22\"".into(), "CDefinePw22"),
        ("var password string = \"GoTypedPw33\"".into(), "GoTypedPw33"),
        ("jwt_secret = os.getenv(\"JWT\", \"DefaultJwtPw13\")".into(), "DefaultJwtPw13"),
        // 2. Connection strings and DSNs.
        ("conn_str = \"Server=db;User Id=sa;Password=ConnStrPw02x;\"".into(), "ConnStrPw02x"),
        ("pg = \"host=db user=app password=LibpqPw12xyz dbname=prod\"".into(), "LibpqPw12xyz"),
        ("redis.from_url(\"redis://:RedisPw10xyz@localhost:6379/0\")".into(), "RedisPw10xyz"),
        ("api = \"https://api.example.com/v1?api_key=QueryKey05xyz&x=1\"".into(), "QueryKey05xyz"),
        ("pgurl = \"postgresql://app@db:5432/prod?password=QueryStringPw99\"".into(), "QueryStringPw99"),
        ("see https://example.com/cb?state=1&token=QueryTok77x".into(), "QueryTok77x"),
        ("https://app.example.com/#access_token=FragmentTok88&x=1".into(), "FragmentTok88"),
        ("sql = \"CREATE USER app IDENTIFIED BY 'SqlPw06xyz'\"".into(), "SqlPw06xyz"),
        // 3. Headers.
        ("headers = {\"Authorization\": \"Token tokenheaderword\"}".into(), "tokenheaderword"),
        ("curl -H 'Authorization: ApiKey headerapikey55' https://x".into(), "headerapikey55"),
        ("Authorization: Digest digestcredential66".into(), "digestcredential66"),
        ("curl -H 'X-Api-Key: HeaderKey14xyz' https://x".into(), "HeaderKey14xyz"),
        ("headers = {\"X-Api-Key\": \"HeaderKey14xyz\"}".into(), "HeaderKey14xyz"),
        // 4. Command lines.
        ("curl_cmd = \"curl -u admin:CurlUserPw04x https://db.example.com\"".into(), "CurlUserPw04x"),
        ("mysql_cmd = [\"mysql\", \"-uroot\", \"-pShellPw03xyz\"]".into(), "ShellPw03xyz"),
        ("mysql -uroot -p'QuotedShellPw9' prod".into(), "QuotedShellPw9"),
        ("ssh_pass = sshpass -p 'SshPassPw17' ssh host".into(), "SshPassPw17"),
        ("pg_dump --password=FlagPw31xyz prod".into(), "FlagPw31xyz"),
        ("vault login --token FlagTok32xyz".into(), "FlagTok32xyz"),
        ("subprocess.run([\"tool\", \"--password\", \"ListFlagPw34\"])".into(), "ListFlagPw34"),
        ("DB_PASSWORD=EnvPrefixPw35 ./run.sh".into(), "EnvPrefixPw35"),
        // 5. Credentials as positional arguments.
        ("ds = DriverManager.getConnection(\"jdbc:mysql://db/prod\", \"root\", \"JdbcPw19xyz\");".into(), "JdbcPw19xyz"),
        ("conn = pymysql.connect(host, \"app\", \"PyMysqlPw36\")".into(), "PyMysqlPw36"),
        ("auth = (\"admin\", \"TupleAuthPw15\")".into(), "TupleAuthPw15"),
        ("requests.get(url, auth=(\"svc\", \"KwTupleAuth37\"))".into(), "KwTupleAuth37"),
        ("requests.get(url, auth=HTTPBasicAuth(\"user\", \"BasicAuthPw16\"))".into(), "BasicAuthPw16"),
        ("session = login(\"user\", \"LoginCallPw38\")".into(), "LoginCallPw38"),
        ("client.open(\"root\", \"RootPairPw39!\")".into(), "RootPairPw39!"),
        // 6. Known token shapes.
        ("db = Datadog(\"0123456789abcdef0123456789abcdef\")".into(), "0123456789abcdef0123456789abcdef"),
        (format!("hmac = bytes.fromhex(\"{hex64}\")"), "24924d0c1c44524821305f31"),
        (format!("hexkey = \"{hex64}\""), "24924d0c1c44524821305f31"),
        (format!("SIGNING={hex64}"), "24924d0c1c44524821305f31"),
        (format!("twilio = \"{twilio}\""), "0123456789abcdef0123456789abcdef"),
        (format!("sendgrid = \"{sendgrid}\""), "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq"),
        (format!("hook = \"{slack_hook}\""), "XXXXXXXXXXXXXXXXXXXXXXXX"),
        ("hook = \"https://hooks.slack.com/services/T0/B0/slackhookword\"".into(), "slackhookword"),
        (format!("gh = \"tok_ghp_{ghp_tail}\""), "0123456789abcdefghijABCDEFGHIJ"),
        // 7. Split over literals on one line.
        (format!("ghtok = \"ghp_\" + \"{ghp_tail}\""), "0123456789abcdefghijABCDEFGHIJ"),
        ("k = \"AKIA\" \"IOSFODNN7EXAMPLE\"".into(), "IOSFODNN7EXAMPLE"),
        (
            format!("jwt = \"eyJhbGciOiJIUzI1NiJ9\" + \".{}\" + \".{}\"", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
            "dozjgNryP4J3jVmNHl0w5N",
        ),
        // 11. Typed in a query.
        ("where is password=Hunter2Hunter2 used".into(), "Hunter2Hunter2"),
        ("where is the password Hunter2Hunter2 checked".into(), "Hunter2Hunter2"),
    ]
}

#[test]
fn every_leak_the_probe_found_is_redacted() {
    let mut missed = Vec::new();
    for (line, secret) in probe_leaks() {
        let out = redact(&line);
        if out.text.contains(secret) || out.count == 0 {
            missed.push(format!("{line}\n  -> {}", out.text));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn only_the_secret_part_is_replaced() {
    for (line, want) in [
        (
            "pg = \"host=db user=app password=LibpqPw12xyz dbname=prod\"",
            "pg = \"host=db user=app password=[REDACTED] dbname=prod\"",
        ),
        (
            "headers = {\"Authorization\": \"Token tokenheaderword\"}",
            "headers = {\"Authorization\": \"Token [REDACTED]\"}",
        ),
        (
            "redis://:RedisPw10xyz@localhost:6379/0",
            "redis://:[REDACTED]@localhost:6379/0",
        ),
        (
            "curl -u admin:CurlUserPw04x https://db.example.com",
            "curl -u admin:[REDACTED] https://db.example.com",
        ),
        (
            "conn = getConnection(url, \"root\", \"JdbcPw19xyz\")",
            "conn = getConnection(url, \"root\", \"[REDACTED]\")",
        ),
        (
            "auth = (\"admin\", \"TupleAuthPw15\")",
            "auth = (\"admin\", \"[REDACTED]\")",
        ),
        (
            "static API_TOKEN: &'static str = \"RustStaticTok21\";",
            "static API_TOKEN: &'static str = \"[REDACTED]\";",
        ),
        (
            "k = \"AKIA\" \"IOSFODNN7EXAMPLE\"",
            "k = \"[REDACTED]\" \"[REDACTED]\"",
        ),
        (
            "https://hooks.slack.com/services/T0/B0/slackhookword",
            "https://hooks.slack.com/services/[REDACTED]",
        ),
    ] {
        assert_eq!(redact(line).text, want, "{line}");
    }
}

#[test]
fn ordinary_code_near_the_new_rules_is_left_alone() {
    let lines = [
        "password_field = form.get(\"password\")",
        "password = form.get(\"password\", \"\")",
        "token = lexer.next()",
        "const MAX_TOKENS: usize = 4096;",
        "hash = \"sha256\"",
        "# fixed in commit 3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
        "# Fixes: 3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
        "checksum = \"6b3a55e0261b0304143f805a24924d0c1c44524821305f31d9277843b8a10f4e\"",
        "rev = \"3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c\"",
        "assert hashlib.sha256(b\"abc\").hexdigest() == \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"",
        "  commit: 3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c",
        "connect(password=password)",
        "db.connect(host=host, user=user, password=db_password)",
        "client = connect(\"localhost\", 5432)",
        "conn = sqlite3.connect(\"app.db\")",
        "authorization = request.headers.get(\"Authorization\")",
        "authorization: Optional[str] = None",
        "headers[\"Authorization\"] = \"Bearer \" + token",
        "headers = {\"Authorization\": f\"Bearer {token}\"}",
        "Authorization: Bearer {token}",
        "mkdir -p build/out",
        "parser.add_argument(\"--password\", help=\"the password\")",
        "parser.add_argument(\"--token-file\", \"-t\")",
        "use --token to pass your key",
        "choices = [(\"admin\", \"Administrator\"), (\"user\", \"Regular user\")]",
        "messages = [{\"role\": \"user\", \"content\": prompt}]",
        "f(\"a\" + \"b\")",
        "greeting = \"Hello, \" + \"world\"",
        "url = base + \"?page=\" + str(n)",
        "return redirect(\"/login?next=\" + path)",
        "if x > 0 else y",
        "token = (yield)",
        "password = (",
        "let lifetime: &'a str = \"value\";",
        "print(\"don't\", 'x')",
        "SELECT password FROM users WHERE id = ?",
        "password_hash = bcrypt.hashpw(password, salt)",
        "def check_password(password: str = None) -> bool:",
        "docker run --user 1000:1000 image",
    ];
    assert_each_kept(lines);
}

#[test]
fn a_value_on_the_next_lines_is_redacted() {
    // YAML block scalars, folded and literal.
    let (out, _) = redact_lines(&[
        "database:",
        "  password: >-",
        "    YamlFoldedPw24",
        "",
        "    MoreFolded",
        "  token: |",
        "    line1secret",
        "  host: db",
    ]);
    assert_eq!(
        out,
        [
            "database:",
            "  password: >-",
            "    [REDACTED]",
            "",
            "    [REDACTED]",
            "  token: |",
            "    [REDACTED]",
            "  host: db",
        ]
    );
    // A parenthesised value, and a split AWS secret under a secret name.
    let (out, _) = redact_lines(&["PASSWORD = (", "    \"NextLinePw07x\"", ")", "x = \"kept\""]);
    assert_eq!(
        out,
        ["PASSWORD = (", "    \"[REDACTED]\"", ")", "x = \"kept\""]
    );
    let (out, _) = redact_lines(&[
        "aws_secret = (\"wJalrXUtnFEMI/K7MDENG\"",
        "              \"/bPxRfiCYEXAMPLEKEY\")",
    ]);
    assert_eq!(
        out,
        [
            "aws_secret = (\"[REDACTED]\"",
            "              \"[REDACTED]\")"
        ]
    );
    // The value on the next line after `=`.
    let (out, _) = redact_lines(&["DB_PASSWORD =", "    'NextLineValue9'", "other = 'kept'"]);
    assert_eq!(out, ["DB_PASSWORD =", "    '[REDACTED]'", "other = 'kept'"]);
}

#[test]
fn a_token_split_over_two_lines_is_redacted_in_both() {
    let (out, count) = redact_lines(&[
        "x = (\"wJalrXUtnFEMI/K7MDENG\"",
        "     \"/bPxRfiCYEXAMPLEKEY\")",
    ]);
    assert_eq!(out, ["x = (\"[REDACTED]\"", "     \"[REDACTED]\")"]);
    assert_eq!(count, 2);
    let (out, _) = redact_lines(&["tok = \"AKIA\" +", "  \"IOSFODNN7EXAMPLE\""]);
    assert_eq!(out, ["tok = \"[REDACTED]\" +", "  \"[REDACTED]\""]);
    // Two ordinary literals on two lines stay.
    let lines = ["msg = (\"Hello, \"", "       \"world\")"];
    assert_eq!(redact_lines(&lines).0, lines);
}

#[test]
fn secrets_in_paths_are_redacted() {
    let openai = format!("sk-proj-{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4");
    assert_eq!(
        redact_path(&format!("src/{openai}.py")).as_deref(),
        Some("src/[REDACTED].py")
    );
    assert_eq!(
        redact_path(&format!("src/AKIA{}.py", "IOSFODNN7EXAMPLE")).as_deref(),
        Some("src/[REDACTED].py")
    );
    assert_eq!(
        redact_path(&format!(
            "src/tok_ghp_{}/db.py",
            "0123456789abcdefghijABCDEFGHIJ0123"
        ))
        .as_deref(),
        Some("src/tok_[REDACTED]/db.py")
    );
    for clean in [
        "src/components/UserProfile2Card/index.js",
        "src/app.py",
        "docs/password-reset.md",
        "src/auth/token.rs",
    ] {
        assert_eq!(redact_path(clean), None, "{clean}");
    }
}

#[test]
fn the_forms_the_s45_probe_found_sent_are_redacted() {
    let pw = "Qv7mXr2Lp9";
    for (line, kept) in [
        // A declaration keyword read as the name, the name as its type.
        (format!("const password = \"{pw}\";"), "const password = \""),
        (format!("let dbPassword = '{pw}'"), "let dbPassword = '"),
        (format!("var secret = \"{pw}\";"), "var secret = \""),
        (
            format!("export const apiKey = \"{pw}\""),
            "export const apiKey",
        ),
        (format!("val token = \"{pw}\""), "val token = \""),
        // A secret's name as a literal, then its value.
        (
            format!("define('DB_PASSWORD', '{pw}');"),
            "define('DB_PASSWORD', '",
        ),
        (
            format!("os.Setenv(\"AWS_SECRET_ACCESS_KEY\", \"{pw}\")"),
            "os.Setenv(\"AWS_SECRET_ACCESS_KEY\", \"",
        ),
        (
            format!("ENV[\"API_KEY\"] ||= \"{pw}\""),
            "ENV[\"API_KEY\"] ||= \"",
        ),
        (format!("ENV['API_KEY'] = '{pw}'"), "ENV['API_KEY'] = '"),
        (
            format!("<add key=\"ApiSecret\" value=\"{pw}\"/>"),
            "<add key=\"ApiSecret\" value=\"",
        ),
        (format!("  <password>{pw}</password>"), "<password>"),
        (format!("<ns:secret>{pw}</ns:secret>"), "</ns:secret>"),
        // libpq's variable before a command, in a Markdown code span.
        (
            format!("Run `PGPASSWORD={pw} psql -h db` first."),
            "psql -h db",
        ),
        // A fallback, a setter, a login command's -p.
        (
            format!("const secret = process.env.SECRET || \"{pw}\";"),
            "process.env.SECRET || \"",
        ),
        (
            format!("JWT_SECRET: str = os.getenv(\"JWT_SECRET\") or '{pw}'"),
            "or '",
        ),
        (format!("const token = env.TOKEN ?? '{pw}'"), "?? '"),
        (format!("ds.setPassword(\"{pw}\");"), "ds.setPassword(\""),
        (format!("cfg.set_api_key('{pw}')"), "cfg.set_api_key('"),
        (
            format!("docker login -u bot -p {pw} registry.example.com"),
            "registry.example.com",
        ),
        (format!("podman login -p '{pw}' quay.io"), "quay.io"),
    ] {
        let out = redact(&line);
        assert!(!out.text.contains(pw), "{line} -> {}", out.text);
        assert!(out.text.contains(REDACTED), "{line} -> {}", out.text);
        assert!(out.text.contains(kept), "{line} -> {}", out.text);
    }
}

#[test]
fn named_literals_that_are_no_secret_are_kept() {
    for line in [
        "const token = lexer.next();",
        "const password = \"\";",
        "let key = \"id\";",
        "const label = \"name\";",
        "os.Setenv(\"HOME\", \"/home/user\")",
        "define('DB_HOST', 'localhost');",
        "ENV[\"API_KEY\"] = ENV.fetch(\"OTHER\")",
        "form.field(\"password\", \"Enter your password\")",
        "<password>${DB_PASS}</password>",
        "<name>password</name>",
        "<token>TOKEN_VALUE</token>",
        "headers.put(\"X-Api-Key\", apiKey)",
        "const secret = process.env.SECRET || DEFAULT_SECRET;",
        "const token = a || \"\";",
        "if token == \"x\" or \"abcdef\" in names:",
        "ds.setPassword(password);",
        "user.setPassword(\"\");",
        "setToken(\"token\")",
        "docker login -u bot -p $DOCKER_PASSWORD registry",
        "ssh -p 2222 host",
    ] {
        let out = redact(line);
        assert_eq!(out.text, line, "{line}");
        assert_eq!(out.count, 0, "{line}");
    }
}

#[test]
fn pieces_of_a_known_secret_are_elided_but_short_ones_and_words_stay() {
    let key = "sk-proj-Ab12Cd34Ef56Gh78Ij90";
    // A tail of 16 characters, a head of 20 in another case, and the whole key.
    let tail = &key[key.len() - 16..];
    let text = format!(
        "key ending {tail} is invalid; begins {}",
        key[..20].to_uppercase()
    );
    assert_eq!(
        without_pieces(&text, key, 12),
        "key ending [REDACTED] is invalid; begins [REDACTED]"
    );
    assert_eq!(
        without_pieces(&format!("a {key} b"), key, 12),
        "a [REDACTED] b"
    );
    // Eleven characters, or the last four as providers show them, stay.
    let short = format!("ends in {} and sk-...{}", &key[..11], &key[key.len() - 4..]);
    assert_eq!(without_pieces(&short, key, 12), short);
    // A placeholder key's words are not pieces of 12 characters.
    let placeholder = "sk-no-key-required";
    let message = "no key required here; key required";
    assert_eq!(without_pieces(message, placeholder, 12), message);
    assert_eq!(
        without_pieces("echo: no-key-required", placeholder, 12),
        "echo: [REDACTED]"
    );
    // A key no longer than a piece is elided whole only.
    assert_eq!(
        without_pieces("x sk-short-key x", "sk-short-key", 12),
        "x [REDACTED] x"
    );
}

#[test]
fn keys_in_one_case_or_hex_are_known_by_their_prefix() {
    let hex = "0123456789abcdef";
    let lower = "3ax6xnjp29jd6fds4gc373sgvjxteol0";
    let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0";
    let keys = [
        format!("key-{lower}"),
        format!("{hex}{hex}-{}-{}", &hex[..8], &hex[8..]),
        format!("dapi{hex}{hex}"),
        format!("sbp_{hex}{hex}{}", &hex[..8]),
        format!("lin_api_{lower}{}", &hex[..8]),
        format!("sq0atp-{}", &lower[..22]),
        format!("NRAK-{upper}"),
        format!("oy2{lower}{}", &lower[..11]),
        format!("rubygems_{hex}{hex}{hex}"),
        format!("pul-{hex}{hex}{}", &hex[..8]),
        format!("glptt-{}", &lower[..20]),
        format!("sntryu_{hex}{hex}{hex}{hex}"),
    ];
    for key in keys {
        // Where no name, header or URL says it is a secret.
        for line in [
            format!("client = Client(host, \"{key}\")"),
            format!("login({key})"),
        ] {
            let out = redact(&line);
            assert!(!out.text.contains(&key), "{line} -> {}", out.text);
            assert!(out.text.contains(REDACTED), "{line} -> {}", out.text);
        }
    }
    // Near misses: an identifier or a slug with the prefix, a UUID, a digest.
    for line in [
        "let monkey = key_value_store_for_the_users(x);",
        "const cls = \"key-value-pair\";",
        "id = \"123e4567-e89b-12d3-a456-426614174000\"",
        "hvs.compute_the_average_values_now()",
        "NRAK-short",
        "sbp_helper_function_name()",
    ] {
        assert_eq!(redact(line).text, line);
    }
}

/// Random values in one case (lower-case base 36 or hex, a UUID, upper-case
/// base 32) written after a secret's name where the rules that read syntax
/// took them for code or prose: after a colon with a comment after it, in
/// an object or a call's arguments, in prose, after a space (s48: they were
/// sent, and their letters as vocabulary words). Each with what stays.
fn random_values_in_one_case() -> Vec<(String, String, String)> {
    let base36 = format!("3ax6xnjp29jd6fds{}", "4gc373sgvjxteol0");
    let hex = format!("9f86d081884c7d65{}", "9a2feaa0c55ad015");
    let long = format!("{base36}{hex}");
    let uuid = format!("123e4567-e89b-12d3-{}", "a456-426614174000");
    let base32 = format!("JBSWY3DPEHPK3PXP{}", "JBSWY3DPEHPK3PXP");
    let r = REDACTED;
    vec![
        (
            format!("token: {base36}  # prod"),
            base36.clone(),
            format!("token: {r}  # prod"),
        ),
        (
            format!("client_secret: {base36} # rotated monthly"),
            base36.clone(),
            format!("client_secret: {r} # rotated monthly"),
        ),
        (
            format!("opts = {{token: {base36}}}"),
            base36.clone(),
            format!("opts = {{token: {r}}}"),
        ),
        (
            format!("env: {{ API_TOKEN: {long}, retries: 3 }}"),
            long.clone(),
            format!("env: {{ API_TOKEN: {r}, retries: 3 }}"),
        ),
        (
            format!("client = Client(token={base36}, retry=3)"),
            base36.clone(),
            format!("client = Client(token={r}, retry=3)"),
        ),
        (
            format!("client = Client(api_key={long})"),
            long.clone(),
            format!("client = Client(api_key={r})"),
        ),
        (
            format!("the token is {hex}"),
            hex.clone(),
            format!("the token is {r}"),
        ),
        (
            format!("the api key is {base36}"),
            base36.clone(),
            format!("the api key is {r}"),
        ),
        (
            format!("auth_token {base36}"),
            base36.clone(),
            format!("auth_token {r}"),
        ),
        (
            format!("proxy_set_header X-Api-Key {hex};"),
            hex.clone(),
            format!("proxy_set_header X-Api-Key {r};"),
        ),
        (
            format!("password => {base36},"),
            base36.clone(),
            format!("password => {r},"),
        ),
        (
            format!("api_key: {uuid} # heroku"),
            uuid.clone(),
            format!("api_key: {r} # heroku"),
        ),
        (
            format!("TOTP_SECRET {base32}"),
            base32.clone(),
            format!("TOTP_SECRET {r}"),
        ),
        // Forms the rules knew before, kept in the set.
        (format!("token={hex}"), hex.clone(), format!("token={r}")),
        (
            format!("SECRET={base36} # prod"),
            base36.clone(),
            format!("SECRET={r} # prod"),
        ),
        (
            format!("  \"password\": \"{long}\","),
            long.clone(),
            format!("  \"password\": \"{r}\","),
        ),
    ]
}

/// Each line is sent as it is: nothing redacted, nothing counted.
fn assert_each_kept<S: AsRef<str>>(lines: impl IntoIterator<Item = S>) {
    let mut changed = Vec::new();
    for line in lines {
        let line = line.as_ref();
        let out = redact(line);
        if out.text != line || out.count != 0 {
            changed.push(format!("{line}\n  -> {}", out.text));
        }
    }
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// Each `(line, secret, sent)` redacts to `sent`, counted, the secret gone.
fn assert_each_redacted_as_sent(cases: Vec<(String, String, String)>) {
    let mut missed = Vec::new();
    for (line, secret, want) in cases {
        let out = redact(&line);
        if out.text != want || out.count == 0 || out.text.contains(&secret) {
            missed.push(format!("{line}\n  -> {}", out.text));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn random_values_in_one_case_after_a_secret_name_are_redacted() {
    assert_each_redacted_as_sent(random_values_in_one_case());
}

#[test]
fn words_identifiers_and_digests_after_or_without_a_secret_name_are_kept() {
    let hex = format!("9f86d081884c7d65{}", "9a2feaa0c55ad015");
    let sha1 = format!("679591c564c3bffa{}", "ae8454cf0b3df370c3d6911c");
    let lines = [
        // After a secret's name: a snake_case identifier, words with a
        // version number in them, a run of letters (a random password
        // without digits can not be told from words: not redacted here).
        "the token is very_long_snake_case_identifier_name".to_string(),
        "client = Client(token=tokenizer_config_for_the_model, retry=3)".to_string(),
        "token: sha256withrsaencryption # the algorithm".to_string(),
        "cert_password: x509certificate2collection, next".to_string(),
        "the token is internationalizationsettings".to_string(),
        "password => 20240115releasecandidate3,".to_string(),
        "the token is 0a0a0a0a0a0a0a0a0a0a0a0a".to_string(),
        "token_path: src/components/UserProfile2Card/index # c".to_string(),
        // Without one: a digest in a lockfile, a commit, a UUID, an id.
        format!(
            "  resolved \"https://registry.yarnpkg.com/js-tokens/-/js-tokens-4.0.0.tgz#{sha1}\""
        ),
        format!("commit {sha1}"),
        format!("sha = \"{hex}\""),
        "request_id: 123e4567-e89b-12d3-a456-426614174000 # c".to_string(),
    ];
    assert_each_kept(&lines);
}

/// Found by `proptests::redacting_again_changes_nothing`: redacting once
/// more changed nothing only when every rule saw the line as the rules after
/// it leave it.
#[test]
fn what_the_redaction_properties_found_is_redacted_once_for_all() {
    // A hex key judged by the words before it, which held a password the
    // pass had not yet replaced (`…Pw02x` read as more words than `[REDACTED]`).
    let hex = "6b3a55e0261b0304143f805a24924d0c1c44524821305f31d9277843b8a10f4e";
    let line = format!("Id=sa;Password=ConnStrPw02x;\" \"{hex}\" ");
    let once = redact(&line);
    assert!(!once.text.contains(hex), "{}", once.text);
    assert_eq!(redact(&once.text).count, 0);
    // A stray END after a block's END: blanked, so that the marker line
    // before it is not later read as the inside of a block it ends.
    let end = "-----END RSA PRIVATE KEY-----";
    let (out, _) = redact_lines(&[end, "x = 1", end]);
    assert_eq!(out, [KEY_LINE, "x = 1", KEY_LINE]);
    let (again, count) = redact_lines(&out);
    assert_eq!((again, count), (out.clone(), 0));
}

/// Random string literals in one case with no secret's name before them
/// (the s49 probe found them sent): assigned to a name that says nothing,
/// passed to a call, assigned to an index, a value in a dictionary. Each
/// with what is sent.
fn random_literals_without_a_name() -> Vec<(String, String, String)> {
    let base36 = format!("9f2kq8x1{}", "m3z7w4p6");
    let longer = format!("q8x1m3z7w4{}", "p6r2t9y5");
    let upper = longer.to_uppercase();
    let hex = format!("5b1e09c4d7{}", "a3f68e2c1b9d");
    let r = REDACTED;
    vec![
        (
            format!("key = \"{base36}\""),
            base36.clone(),
            format!("key = \"{r}\""),
        ),
        (
            format!("client = Client('{longer}')"),
            longer.clone(),
            format!("client = Client('{r}')"),
        ),
        (
            format!("headers[\"X-Api\"] = \"{longer}\""),
            longer.clone(),
            format!("headers[\"X-Api\"] = \"{r}\""),
        ),
        (
            format!("{{\"id\": 7, \"value\": \"{base36}\"}}"),
            base36.clone(),
            format!("{{\"id\": 7, \"value\": \"{r}\"}}"),
        ),
        (
            format!("oauth = OAuth(client_id=\"app\", client_key=\"{hex}\")"),
            hex.clone(),
            format!("oauth = OAuth(client_id=\"app\", client_key=\"{r}\")"),
        ),
        (
            format!("const API = \"{upper}\";"),
            upper.clone(),
            format!("const API = \"{r}\";"),
        ),
        (
            format!("Stripe.init(b\"{base36}\", retries=3)"),
            base36.clone(),
            format!("Stripe.init(b\"{r}\", retries=3)"),
        ),
    ]
}

#[test]
fn random_literals_in_one_case_without_a_secret_name_are_redacted() {
    assert_each_redacted_as_sent(random_literals_without_a_name());
}

#[test]
fn literals_that_read_as_code_or_name_a_digest_are_kept_without_a_secret_name() {
    let base36 = format!("9f2kq8x1{}", "m3z7w4p6");
    let sha1 = format!("679591c564c3bffa{}", "ae8454cf0b3df370c3d6911c");
    let lines = [
        // Identifiers, words, paths, URLs, versions, dates, colours.
        "name = \"internationalization\"".to_string(),
        "cert = \"x509certificate2collection\"".to_string(),
        "alg = \"sha256withrsaencryption\"".to_string(),
        "group = \"k8sioapimachinerypkgapismetav1\"".to_string(),
        "key = \"very_long_snake_case_identifier\"".to_string(),
        "path = \"src/components/UserProfile2Card/index\"".to_string(),
        "url = \"https://example.com/v1/resources/2024\"".to_string(),
        "version = \"1.2.3-rc4+build5678abcd\"".to_string(),
        "date = \"2024-01-15T10:30:00Z\"".to_string(),
        "color = \"#a1b2c3\"".to_string(),
        "target = \"aarch64-unknown-linux-gnu\"".to_string(),
        "alphabet = \"abcdefghijklmnopqrstuvwxyz0123456789\"".to_string(),
        "hex_digits = \"0123456789abcdef\"".to_string(),
        "n = \"12345678901234567890\"".to_string(),
        "span = \"P23Y1M24DT12H5M29S\"".to_string(),
        // Short: under 16 letters and digits.
        "key = \"9f2kq8x1m3z7w4p\"".to_string(),
        // A UUID as an id (hyphens), and values named as ids and digests.
        "id = \"123e4567-e89b-12d3-a456-426614174000\"".to_string(),
        format!("request_id = \"{base36}\""),
        format!("\"sha1\": \"{sha1}\""),
        format!("rev = \"{base36}\""),
        format!("const REVISION: &str = \"{base36}\";"),
        format!("\"checksum foo 1.0 (registry+https://x)\" = \"{sha1}\""),
        // A Markdown code span names a thing.
        "Use `chacha20poly1305` or a commit `161b3195fc2558d2`.".to_string(),
    ];
    assert_each_kept(&lines);
}

/// Values in a Markdown table's cell after a cell naming a secret (the s49
/// probe found them sent: the name and the value in cells of their own).
/// Each with what is sent.
fn table_secrets() -> Vec<(String, String, String)> {
    let base36 = format!("9f2kq8x1{}", "m3z7w4p6");
    let pw = format!("hunter2-{}", "xyz");
    let r = REDACTED;
    vec![
        (
            format!("| password | {pw} |"),
            pw.clone(),
            format!("| password | {r} |"),
        ),
        (
            format!("| token | {base36} |"),
            base36.clone(),
            format!("| token | {r} |"),
        ),
        (
            format!("| `DB_PASSWORD` | `{pw}` |"),
            pw.clone(),
            format!("| `DB_PASSWORD` | `{r}` |"),
        ),
        (
            format!("|API key|{pw}|"),
            pw.clone(),
            format!("|API key|{r}|"),
        ),
        (
            format!("| prod | **client_secret** | {base36} | rotated monthly |"),
            base36.clone(),
            format!("| prod | **client_secret** | {r} | rotated monthly |"),
        ),
        (
            "  | Access token | Qv7m!Xr2Lp | admin \\| ci |".to_string(),
            "Qv7m!Xr2Lp".to_string(),
            format!("  | Access token | {r} | admin \\| ci |"),
        ),
    ]
}

#[test]
fn a_value_in_the_table_cell_after_a_secret_name_is_redacted() {
    let mut missed = Vec::new();
    for (line, secret, want) in table_secrets() {
        let out = redact(&line);
        if out.text != want || out.count == 0 || out.text.contains(&secret) {
            missed.push(format!("{line}\n  -> {}", out.text));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn table_cells_that_are_types_descriptions_or_placeholders_are_kept() {
    let lines = [
        "| Name | Type | Description |",
        "|------|------|-------------|",
        "| token | string | The API token |",
        "| password | required | The user's password |",
        "| api_key | `String` | Your key |",
        "| token | ~/.config/app/token |",
        "| password | ${DB_PASSWORD} |",
        "| password | `<your password>` |",
        "| token_ttl | 3600 |",
        "| password | PASSWORD_ENV |",
        "| key | value |",
        "| The token the server sends back on login | abc123def |",
        "| secret | yes |",
        "let mask = token | pass2word | flags;",
    ];
    assert_each_kept(lines);
}

/// Random passwords of letters alone, no digit (the s49 probe): after a
/// password's name they go as any value does, and `pw` or `pwd` alone
/// names one when a quoted value that is no path is assigned to it.
#[test]
fn letters_only_passwords_after_a_password_name_are_redacted() {
    let pw = format!("qwhvzkex{}", "mrtplk");
    for line in [
        format!("pw = \"{pw}\""),
        format!("pwd = '{pw}'"),
        format!("PW := \"{pw}\""),
        format!("password = \"{pw}\""),
        format!("DB_PASS={pw}"),
        format!("passwd: {pw}"),
        format!("self.pw = \"{pw}\""),
        format!("$pass = \"{pw}\";"),
        format!("login(\"admin\", \"{pw}\")"),
    ] {
        let out = redact(&line);
        assert!(!out.text.contains(&pw), "{line} -> {}", out.text);
        assert!(out.text.contains(REDACTED), "{line} -> {}", out.text);
    }
    for line in [
        "PWD = \"/home/app\"".to_string(),
        "pwd = \"C:\\\\work\"".to_string(),
        "pw = PrintWriter(out)".to_string(),
        "pwd = os.getcwd()".to_string(),
        "pw = \"\"".to_string(),
        "PW = \"PW\"".to_string(),
        "pw = \"a b c\"".to_string(),
        // Without a password's name a run of letters is not judged: by
        // its shape it is a word or an identifier (README, the safety net).
        format!("label = \"{pw}\""),
    ] {
        let out = redact(&line);
        assert_eq!((out.text.as_str(), out.count), (line.as_str(), 0));
    }
}
