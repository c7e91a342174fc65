//! What leaves the machine: a tree with planted secrets of every kind the
//! issue found leaking (issue 27, items 1 and 8), searched in every mode
//! that consults a model, against a mock server that records each request.
//! No fragment of 6 or more characters of any planted secret may appear in
//! any request body (nor in `--dry-run`'s output), and no secret file's name.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::harness::Dir;
use crate::mock_llm::{MockLlm, Received, Step};

/// Deterministic noise over `alphabet` (a linear congruential generator):
/// random-looking secrets without writing a real-looking one in this file.
fn noise(seed: u64, len: usize, alphabet: &[u8]) -> String {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let i = ((state >> 33) % alphabet.len() as u64) as usize;
            alphabet[i] as char
        })
        .collect()
}

const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/// Base64 with lower-case letters three times as likely: real key bodies
/// hold runs of lower-case letters, which identifier splitting keeps whole.
const LOWERISH_BASE64: &[u8] = b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\
abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/";
/// A password's letters: lower case and digits.
const LOWER_DIGITS: &[u8] = b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789";

/// The planted secrets, and the tree holding them.
struct Planted {
    dir: Dir,
    secrets: Vec<(&'static str, String)>,
    /// The AWS secret, also typed as part of a query.
    aws_secret: String,
}

fn planted() -> Planted {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    let mut secrets = Vec::new();
    // An OpenSSH private key, with its BEGIN/END lines.
    let key_lines: Vec<String> = (0..6)
        .map(|i| noise(100 + i, 70, LOWERISH_BASE64))
        .collect();
    dir.write(
        "id_rsa",
        format!(
            "-----BEGIN OPENSSH {}-----\n{}\n-----END OPENSSH {}-----\n",
            "PRIVATE KEY",
            key_lines.join("\n"),
            "PRIVATE KEY"
        ),
    );
    for line in &key_lines {
        secrets.push(("id_rsa body", line.clone()));
    }
    // A PEM body whose BEGIN/END lines were cut off, in an ordinary file.
    let mut pem: Vec<String> = (0..4)
        .map(|i| noise(200 + i, 64, LOWERISH_BASE64))
        .collect();
    pem.push(format!("{}==", noise(210, 22, LOWERISH_BASE64)));
    dir.write(
        "keys/rotate_nightly.txt",
        format!(
            "# the private key that the nightly job rotates (body only)\n{}\n",
            pem.join("\n")
        ),
    );
    for line in &pem {
        secrets.push(("PEM body", line.clone()));
    }
    // AWS: a key id and its secret, passed positionally.
    let aws_id = format!("AKIA{}", noise(300, 16, UPPER_DIGITS));
    let aws_secret = noise(301, 40, BASE64);
    dir.write(
        "src/storage.py",
        format!(
            "import boto3\n\n# the storage client used by the nightly key rotation\n\
             def storage_client():\n    \
             return boto3.client(\"s3\", \"{aws_id}\", \"{aws_secret}\")\n\n\
             def rotate_key_nightly(client):\n    \
             # rotate the private key every night\n    \
             client.rotate()\n"
        ),
    );
    secrets.push(("AWS key id", aws_id));
    secrets.push(("AWS secret", aws_secret.clone()));
    // A password passed positionally to a login call.
    let password = format!("{}!{}", noise(400, 9, ALNUM), noise(401, 7, ALNUM));
    dir.write(
        "src/admin.py",
        format!(
            "from .session import login\n\n\
             def rotate_admin_key():\n    \
             # log in as admin before the nightly private key rotation\n    \
             session = login(\"admin\", \"{password}\")\n    \
             return session.rotate_key()\n"
        ),
    );
    secrets.push(("login password", password));
    // .env (searched with --hidden) and .envrc.
    let dotenv = noise(500, 24, LOWER_DIGITS);
    dir.write(
        ".env",
        format!("# nightly private key rotation settings\nDATABASE_PASSWORD={dotenv}\n"),
    );
    secrets.push((".env password", dotenv));
    let envrc = noise(600, 22, LOWER_DIGITS);
    dir.write(
        ".envrc",
        format!("# private key rotation, nightly\nexport DATABASE_PASS={envrc}\n"),
    );
    secrets.push((".envrc password", envrc));
    Planted {
        dir,
        secrets,
        aws_secret,
    }
}

/// Every string of a JSON value, joined: the text a server reads.
fn strings_of(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings_of(v, out)),
        _ => {}
    }
}

/// What of the planted secrets `text` holds: each secret (by kind) with a
/// 6-character window of it (in any case) in `text`, and each secret file
/// whose name is in it.
fn leaks(planted: &Planted, text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    for (kind, secret) in &planted.secrets {
        let chars: Vec<char> = secret.to_lowercase().chars().collect();
        let leaked = chars
            .windows(6)
            .map(|w| w.iter().collect::<String>())
            .find(|fragment| lower.contains(fragment));
        if let Some(fragment) = leaked {
            out.push(format!("{kind} (\"{fragment}\")"));
        }
    }
    for name in ["path=\"id_rsa\"", "path=\".env\"", "path=\".envrc\""] {
        if text.contains(name) {
            out.push(format!("the file name {name}"));
        }
    }
    out.dedup();
    out
}

fn assert_nothing_secret(planted: &Planted, text: &str, what: &str) {
    let leaks = leaks(planted, text);
    assert!(
        leaks.is_empty(),
        "{what} holds fragments of: {}\n{text}",
        leaks.join(", ")
    );
}

fn assert_nothing_secret_sent(planted: &Planted, received: &[Received], mode: &str) {
    let problem = sent_leaks(planted, received, mode);
    assert!(problem.is_none(), "{}", problem.unwrap_or_default());
}

/// What the requests of one mode leaked, as one line (`None`: nothing).
fn sent_leaks(planted: &Planted, received: &[Received], mode: &str) -> Option<String> {
    if received.is_empty() {
        return Some(format!("{mode}: no request was sent"));
    }
    let mut all = Vec::new();
    for request in received {
        let mut text = String::new();
        strings_of(&request.json(), &mut text);
        text.push_str(&request.body);
        for leak in leaks(planted, &text) {
            if !all.contains(&leak) {
                all.push(leak);
            }
        }
    }
    (!all.is_empty()).then(|| format!("{mode}: the requests hold fragments of: {}", all.join(", ")))
}

/// A model that proposes concepts, then asks to see the secret files (by
/// pattern and by range), then claims a line and answers.
fn curious_model() -> MockLlm {
    let selections = Arc::new(AtomicUsize::new(0));
    MockLlm::respond(Box::new(move |request: &Received| {
        let body = request.body.as_str();
        if body.contains("widen a search") {
            return Step::chat(
                &json!({"concepts": [{"name": "key rotation",
                    "synonyms": ["rotate", "credential"], "related": ["ssh", "secret", "login"]}]})
                .to_string(),
            );
        }
        let n = selections.fetch_add(1, Ordering::SeqCst);
        if n == 0 && body.contains("searches") {
            return Step::chat(
                &json!({"matches": [], "searches": [
                    {"pattern": "PRIVATE KEY"},
                    {"pattern": "DATABASE_PASS"},
                    {"pattern": "login("},
                    {"path": "id_rsa", "start": 1, "end": 20},
                    {"path": ".envrc", "start": 1, "end": 5},
                    {"path": "keys/rotate_nightly.txt", "start": 1, "end": 20}]})
                .to_string(),
            );
        }
        Step::chat(
            &json!({"matches": [{"path": "src/storage.py", "line": 7}],
                "answer": "The nightly rotation is in src/storage.py:7.",
                "summary": "rotated nightly"})
            .to_string(),
        )
    }))
}

/// Words no file holds ("renewed", "cron", "scheduler"): the judge asks for
/// an expansion, whose vocabulary is where key bodies leaked.
const QUERY: &str = "where is the openssh private key renewed by the cron scheduler";

#[test]
fn no_fragment_of_a_planted_secret_reaches_the_model_in_any_mode() {
    let planted = planted();
    let query_with_secret = format!("where is {} used", planted.aws_secret);
    let modes: Vec<(&str, Vec<&str>)> = vec![
        ("auto", vec![QUERY, "."]),
        ("auto", vec!["--hidden", QUERY, "."]),
        ("always", vec![QUERY, "."]),
        ("always", vec!["--hidden", QUERY, "."]),
        ("auto", vec!["--answer", "--hidden", QUERY, "."]),
        (
            "auto",
            vec!["--signature-json", "summary: str", "--hidden", QUERY, "."],
        ),
        ("always", vec!["--hidden", &query_with_secret, "."]),
    ];
    let mut problems = Vec::new();
    for (llm, args) in &modes {
        let mock = curious_model();
        planted.dir.use_model(&mock.base_url(), "learn = false");
        let out = planted.dir.run_llm(llm, args);
        let mode = format!("KGREP_LLM={llm} {args:?}");
        assert!(out.code == 0 || out.code == 1, "{mode}\n{}", out.describe);
        problems.extend(sent_leaks(&planted, &mock.received(), &mode));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn follow_ups_never_show_the_model_a_secret() {
    let planted = planted();
    let mock = curious_model();
    planted.dir.use_model(&mock.base_url(), "learn = false");
    let out = planted
        .dir
        .run_llm("always", &["--hidden", "-v", QUERY, "."]);
    out.code(0).stderr_has("model: follow-up round 1");
    let received = mock.received();
    assert!(received.len() >= 2, "{}", out.describe);
    assert_nothing_secret_sent(&planted, &received, "follow-ups");
    // The follow-up round still sent what is not secret.
    let last = received.last().unwrap().body.clone();
    assert!(last.contains("rotate_admin_key"), "{last}");
}

#[test]
fn dry_run_shows_no_fragment_of_a_planted_secret() {
    let planted = planted();
    let mock = MockLlm::start(vec![]);
    planted.dir.use_model(&mock.base_url(), "learn = false");
    for llm in ["auto", "always"] {
        let out = planted
            .dir
            .run_llm(llm, &["--dry-run", "--hidden", QUERY, "."]);
        out.code(0).stdout_has("POST ");
        assert_nothing_secret(&planted, &out.stdout, "--dry-run");
    }
    assert!(mock.received().is_empty());
}

#[test]
fn a_key_the_server_echoes_in_another_case_is_never_printed() {
    let planted = planted();
    let mock = MockLlm::respond(Box::new(|request: &Received| {
        let key = request
            .header("authorization")
            .unwrap_or_default()
            .trim_start_matches("Bearer ")
            .to_uppercase();
        Step::error(401, &format!("Incorrect API key provided: {key}"))
    }));
    let key = planted.dir.use_model(&mock.base_url(), "learn = false");
    let out = planted.dir.run_llm("always", &["-v", QUERY, "."]);
    out.code(0).stderr_has("refused the API key");
    for text in [&out.stderr, &out.stdout] {
        assert!(
            !text.to_lowercase().contains(&key.to_lowercase()),
            "{}",
            out.describe
        );
    }
}

/// What the probe of issue s43c found sent: a file holding each form its
/// rules missed (typed and `#define` assignments, a YAML block scalar and a
/// parenthesised value on the next lines, DSNs, an `Authorization: Token`,
/// command-line passwords, positional credentials, a hex key, a token split
/// over literals), a file named after a key, secrets files named as no rule
/// knew, and a password typed in the query. Passwords are lower-case noise:
/// only the rules that read context can find them.
fn probe_forms() -> (Planted, String) {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    let mut secrets: Vec<(&'static str, String)> = Vec::new();
    fn word(secrets: &mut Vec<(&'static str, String)>, kind: &'static str, seed: u64) -> String {
        let value = noise(seed, 14, b"abcdefghijklmnopqrstuvwxyz");
        secrets.push((kind, value.clone()));
        value
    }
    let typed = word(&mut secrets, "typed assignment", 800);
    let libpq = word(&mut secrets, "libpq DSN", 801);
    let redis = word(&mut secrets, "redis URL", 802);
    let ado = word(&mut secrets, "connection string", 803);
    let header = word(&mut secrets, "Authorization: Token", 804);
    let shell = word(&mut secrets, "mysql -p", 805);
    let query_key = word(&mut secrets, "URL query", 806);
    let tuple = word(&mut secrets, "auth tuple", 807);
    let jdbc = word(&mut secrets, "getConnection", 808);
    let paren = word(&mut secrets, "parenthesised value", 809);
    let rust = word(&mut secrets, "Rust const", 810);
    let define = word(&mut secrets, "#define", 811);
    let yaml = word(&mut secrets, "YAML block scalar", 812);
    let curl = word(&mut secrets, "curl -u", 813);
    let typed_query = word(&mut secrets, "typed in the query", 814);
    let hex = noise(815, 64, b"0123456789abcdef");
    let ghp = noise(816, 36, ALNUM);
    let aws_id = format!("AKIA{}", noise(817, 16, UPPER_DIGITS));
    secrets.push(("hex key", hex.clone()));
    secrets.push(("split GitHub token", ghp.clone()));
    secrets.push(("key in a file name", aws_id.clone()));
    dir.write(
        "src/settings.py",
        format!(
            "# database connection settings\n\
             def connect_database(retry):\n    \
             password: str = \"{typed}\"\n    \
             dsn = \"host=db user=app password={libpq} dbname=prod\"\n    \
             redis_url = \"redis://:{redis}@localhost:6379/0\"\n    \
             conn = \"Server=db;User Id=sa;Password={ado};\"\n    \
             headers = {{\"Authorization\": \"Token {header}\"}}\n    \
             mysql(\"-uroot\", \"-p{shell}\")\n    \
             api = \"https://api.example.com/v1?api_key={query_key}&x=1\"\n    \
             auth = (\"admin\", \"{tuple}\")\n    \
             cur = DriverManager.getConnection(url, \"root\", \"{jdbc}\")\n    \
             curl = \"curl -u admin:{curl} https://db.example.com\"\n    \
             hmac = bytes.fromhex(\"{hex}\")\n    \
             gh = \"ghp_\" + \"{ghp}\"\n    \
             PASSWORD = (\n        \"{paren}\"\n    )\n    \
             return pool(dsn, retry)\n"
        ),
    );
    dir.write(
        "src/db.rs",
        format!(
            "// database connection settings\n\
             const DB_PASSWORD: &str = \"{rust}\";\n\
             #define DB_PASSWD \"{define}\"\n\
             fn open_database_connection() {{}}\n"
        ),
    );
    dir.write(
        "config/app.yaml",
        format!(
            "# database connection settings\ndatabase:\n  password: >-\n    {yaml}\n  host: db\n"
        ),
    );
    dir.write(
        &format!("src/{aws_id}.py"),
        "# database connection settings\ndef database_connection_pool():\n    return 1\n",
    );
    for (name, seed) in [
        ("terraform.tfstate", 820),
        ("id_rsa.bak", 821),
        ("prod.env.local", 822),
        ("aws_credentials", 823),
    ] {
        let value = word(&mut secrets, name, seed);
        dir.write(name, format!("database connection settings\n{value}\n"));
    }
    let query =
        format!("where are the database connection settings renewed password={typed_query}");
    let planted = Planted {
        dir,
        secrets,
        aws_secret: String::new(),
    };
    (planted, query)
}

#[test]
fn the_probe_forms_never_reach_the_model_and_claims_still_map_back() {
    let (planted, query) = probe_forms();
    let aws_file = planted
        .secrets
        .iter()
        .find(|(kind, _)| *kind == "key in a file name")
        .map(|(_, id)| format!("src/{id}.py"))
        .unwrap();
    let mock = MockLlm::respond(Box::new(|request: &Received| {
        if request.body.contains("widen a search") {
            return Step::chat(
                &json!({"concepts": [{"name": "database connection",
                    "synonyms": ["pool"], "related": ["dsn"]}]})
                .to_string(),
            );
        }
        // The file named after a key, as the prompt named it.
        Step::chat(
            &json!({"matches": [{"path": "src/[REDACTED-1].py", "line": 2},
                                {"path": "src/settings.py", "line": 2}]})
            .to_string(),
        )
    }));
    planted.dir.use_model(&mock.base_url(), "learn = false");
    let out = planted.dir.run_llm("always", &["-v", &query, "."]);
    assert_eq!(out.code, 0, "{}", out.describe);
    let received = mock.received();
    assert_nothing_secret_sent(&planted, &received, "probe forms");
    let mut bodies = String::new();
    for request in &received {
        strings_of(&request.json(), &mut bodies);
    }
    for name in [
        "terraform.tfstate",
        "id_rsa.bak",
        "prod.env.local",
        "aws_credentials",
    ] {
        assert!(!bodies.contains(name), "{name} was sent:\n{bodies}");
    }
    // The code around the secrets is still sent, with only the secrets gone.
    for line in [
        "def connect_database(retry):",
        "return pool(dsn, retry)",
        "password: str = \"[REDACTED]\"",
        "dsn = \"host=db user=app password=[REDACTED] dbname=prod\"",
        "headers = {\"Authorization\": \"Token [REDACTED]\"}",
        "path=\"src/[REDACTED-1].py\"",
    ] {
        assert!(bodies.contains(line), "{line} not sent:\n{bodies}");
    }
    // The model's claim on the redacted path is the real file's line.
    out.stdout_has(&format!(
        "./{aws_file}\n2:\tdef database_connection_pool():\n"
    ));
}

/// What the probe of issue s45b found sent: a declaration keyword before a
/// secret's name (`const password = "…"`: the typed form read `const` as
/// the name), a secret's name written as a literal before its value
/// (`define('DB_PASSWORD', '…')`, `os.Setenv("…", "…")`, `ENV["API_KEY"]
/// ||= "…"`, `<add key="…" value="…"/>`), an XML element named as a secret,
/// libpq's `PGPASSWORD=…` in a Markdown code span, a fallback literal
/// (`process.env.X || "…"`), a setter (`setPassword("…")`) and `docker
/// login -p`.
fn declared_forms() -> Planted {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    let mut secrets: Vec<(&'static str, String)> = Vec::new();
    let mut word = |kind: &'static str, seed: u64| {
        let value = noise(seed, 14, b"abcdefghijklmnopqrstuvwxyz");
        secrets.push((kind, value.clone()));
        value
    };
    let js = word("const password", 900);
    let swift = word("let dbPassword", 901);
    let php = word("define('DB_PASSWORD', …)", 902);
    let go = word("os.Setenv(name, …)", 903);
    let ruby = word("ENV[name] ||= …", 904);
    let dotnet = word("<add key value>", 905);
    let xml = word("<password> element", 906);
    let md = word("PGPASSWORD in a code span", 907);
    let fallback = word("process.env.X || …", 908);
    let setter = word("setPassword(…)", 909);
    let docker = word("docker login -p", 910);
    dir.write(
        "src/db.js",
        format!(
            "// database connection settings\n\
             const password = \"{js}\";\n\
             let dbPassword = '{swift}'\n\
             const jwtSecret = process.env.JWT_SECRET || \"{fallback}\";\n\
             export function openDatabaseConnection() {{ return pool(password); }}\n"
        ),
    );
    dir.write(
        "src/config.php",
        format!(
            "<?php // database connection settings\n\
             define('DB_PASSWORD', '{php}');\n\
             function open_database_connection() {{ return 1; }}\n"
        ),
    );
    dir.write(
        "src/env.go",
        format!(
            "// database connection settings\n\
             func openDatabaseConnection() {{ os.Setenv(\"AWS_SECRET_ACCESS_KEY\", \"{go}\") }}\n"
        ),
    );
    dir.write(
        "src/env.rb",
        format!("# database connection settings\nENV[\"API_KEY\"] ||= \"{ruby}\"\n"),
    );
    dir.write(
        "config/app.config",
        format!(
            "<!-- database connection settings -->\n<appSettings>\n  \
             <add key=\"ApiSecret\" value=\"{dotnet}\"/>\n  \
             <password>{xml}</password>\n</appSettings>\n"
        ),
    );
    dir.write(
        "src/Db.java",
        format!(
            "// database connection settings\n\
             class Db {{ void open() {{ ds.setPassword(\"{setter}\"); }} }}\n"
        ),
    );
    dir.write(
        "docs/database.md",
        format!(
            "# Database connection settings\nRun `PGPASSWORD={md} psql -h db` to connect.\n\
             \x20   docker login -u bot -p {docker} registry.example.com\n"
        ),
    );
    Planted {
        dir,
        secrets,
        aws_secret: String::new(),
    }
}

#[test]
fn declared_and_named_secrets_never_reach_the_model() {
    let planted = declared_forms();
    let mock = MockLlm::start(vec![
        Step::chat(&json!({"matches": [{"path": "src/db.js", "line": 4}]}).to_string()),
        Step::chat(&json!({"matches": [{"path": "src/db.js", "line": 4}]}).to_string()),
    ]);
    planted.dir.use_model(&mock.base_url(), "learn = false");
    let out = planted
        .dir
        .run_llm("always", &["database connection settings", "."]);
    assert_eq!(out.code, 0, "{}", out.describe);
    let received = mock.received();
    assert_nothing_secret_sent(&planted, &received, "declared forms");
    let mut bodies = String::new();
    for request in &received {
        strings_of(&request.json(), &mut bodies);
    }
    // Every file was sent, with only the secrets gone.
    for line in [
        "const password = \"[REDACTED]\";",
        "let dbPassword = '[REDACTED]'",
        "define('DB_PASSWORD', '[REDACTED]');",
        "os.Setenv(\"AWS_SECRET_ACCESS_KEY\", \"[REDACTED]\")",
        "ENV[\"API_KEY\"] ||= \"[REDACTED]\"",
        "<add key=\"ApiSecret\" value=\"[REDACTED]\"/>",
        "<password>[REDACTED]</password>",
        "Run `PGPASSWORD=[REDACTED] psql -h db` to connect.",
        "ds.setPassword(\"[REDACTED]\");",
        "const jwtSecret = process.env.JWT_SECRET || \"[REDACTED]\";",
        "docker login -u bot -p [REDACTED] registry.example.com",
    ] {
        assert!(bodies.contains(line), "{line} not sent:\n{bodies}");
    }
}

/// A link to a secrets file under another name (`notes.txt -> .env`) is
/// that file: named or walked under `-L`, it is not read for a prompt
/// (the s45b probe found its lines sent, a value whose name says nothing
/// of a secret unredacted).
#[cfg(unix)]
#[test]
fn a_link_to_a_secrets_file_is_withheld_as_the_file_is() {
    let dir = release_settings_tree();
    let value = noise(950, 16, b"abcdefghijklmnopqrstuvwxyz");
    dir.write(
        ".env",
        format!("# nightly release settings\nSERVICE_SUFFIX={value}\n"),
    );
    std::os::unix::fs::symlink(".env", dir.path().join("notes.txt")).unwrap();
    let planted = Planted {
        dir,
        secrets: vec![("a .env value through a link", value)],
        aws_secret: String::new(),
    };
    for args in [
        &["-L", "nightly release settings", "."][..],
        &["nightly release settings", "notes.txt", "src/app.py"][..],
    ] {
        let (_, bodies) = sent_claiming_the_app(&planted, args);
        assert!(bodies.contains("def release_settings():"), "{bodies}");
        assert!(!bodies.contains("notes.txt"), "{bodies}");
    }
}

/// A shell history holds what was typed: a webhook's secret path, a
/// password after `-p`. It is withheld whole, named or walked with
/// `--hidden`, as Maven's home `settings.xml` is (s46).
#[test]
fn a_shell_history_and_a_home_login_are_withheld_whole() {
    let dir = release_settings_tree();
    let value = noise(951, 24, b"abcdefghijklmnopqrstuvwxyz");
    let other = noise(952, 24, b"abcdefghijklmnopqrstuvwxyz");
    dir.write(
        ".bash_history",
        format!("# nightly release settings\ncurl -X POST https://hooks.example.com/{value}\n"),
    );
    dir.write(
        ".m2/settings.xml",
        format!("<!-- nightly release settings -->\n<server><id>r</id><pw>{other}</pw></server>\n"),
    );
    let planted = Planted {
        dir,
        secrets: vec![("a shell history's line", value), ("a Maven login", other)],
        aws_secret: String::new(),
    };
    for args in [
        &["--hidden", "nightly release settings", "."][..],
        &[
            "nightly release settings",
            ".bash_history",
            ".m2/settings.xml",
            "src/app.py",
        ][..],
    ] {
        let (requests, bodies) = sent_claiming_the_app(&planted, args);
        assert!(requests > 0, "{args:?}");
        assert!(bodies.contains("def release_settings():"), "{bodies}");
    }
}

/// A git tree whose only code file, `src/app.py`, answers "nightly release
/// settings" on its line 2; a test plants the files to withhold beside it.
fn release_settings_tree() -> Dir {
    crate::harness::one_file_project(
        "src/app.py",
        "# nightly release settings\ndef release_settings():\n    return {}\n",
    )
}

/// Runs kgrep with `args` against a mock model that claims `src/app.py:2`;
/// checks the run succeeds and sends none of `planted`'s secrets, and
/// returns how many requests it sent and the text of their bodies.
fn sent_claiming_the_app(planted: &Planted, args: &[&str]) -> (usize, String) {
    let mock = MockLlm::respond(Box::new(|_: &Received| {
        Step::chat(&json!({"matches": [{"path": "src/app.py", "line": 2}]}).to_string())
    }));
    planted.dir.use_model(&mock.base_url(), "learn = false");
    let out = planted.dir.run_llm("always", args);
    assert_eq!(out.code, 0, "{}", out.describe);
    let received = mock.received();
    assert_nothing_secret_sent(planted, &received, &format!("{args:?}"));
    let mut bodies = String::new();
    for request in &received {
        strings_of(&request.json(), &mut bodies);
    }
    (received.len(), bodies)
}

/// Lower-case letters and digits, evenly: the alphabet of a token in one
/// case (base 36).
const BASE36: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// Random values in one case after a secret's name where the rules that
/// read syntax took them for code or prose (s48): `token: … # comment`, a
/// call's keyword argument, prose; and a token cache and a project's
/// Composer login (`token.json`, a top-level `auth.json`) holding values
/// under names that say nothing of a secret. None of it reaches the model,
/// in an excerpt or as vocabulary words (the expansion prompt), in `auto`
/// and `always`; the lines around the values are still sent.
#[test]
fn random_lower_case_values_and_token_files_never_reach_the_model() {
    let dir = release_settings_tree();
    let hex = noise(960, 40, b"0123456789abcdef");
    let yaml = noise(961, 32, BASE36);
    let kwarg = noise(962, 64, BASE36);
    let prose = noise(963, 32, BASE36);
    let cached = noise(964, 32, BASE36);
    let login = noise(965, 32, BASE36);
    dir.write(
        "config/deploy.yml",
        format!(
            "# nightly release settings\nrelease:\n  token: {yaml}  # rotated nightly\n  \
             client_secret: {hex} # the release bot\n"
        ),
    );
    dir.write(
        "src/release.py",
        format!(
            "# nightly release settings\ndef release_client():\n    \
             return Client(api_key={kwarg}, retry=3)\n"
        ),
    );
    dir.write(
        "docs/release.md",
        format!("# Nightly release settings\nThe release token is {prose} until rotated.\n"),
    );
    dir.write(
        "token.json",
        format!("{{\"note\": \"nightly release settings\", \"client_id\": \"{cached}\"}}\n"),
    );
    dir.write(
        "auth.json",
        format!(
            "{{\"note\": \"nightly release settings\", \"github-oauth\": {{\"github.com\": \"{login}\"}}}}\n"
        ),
    );
    let planted = Planted {
        dir,
        secrets: vec![
            ("token: … # comment", yaml),
            ("client_secret: hex # comment", hex),
            ("Client(api_key=…, retry=3)", kwarg),
            ("the release token is …", prose),
            ("token.json", cached),
            ("auth.json", login),
        ],
        aws_secret: String::new(),
    };
    let bodies = sent_always_and_auto(&planted);
    for line in [
        "token: [REDACTED]  # rotated nightly",
        "client_secret: [REDACTED] # the release bot",
        "return Client(api_key=[REDACTED], retry=3)",
        "The release token is [REDACTED] until rotated.",
        "def release_settings():",
    ] {
        assert!(bodies.contains(line), "{line} not sent:\n{bodies}");
    }
    for name in ["token.json", "auth.json"] {
        assert!(!bodies.contains(name), "{name} was sent:\n{bodies}");
    }
}

/// Runs kgrep on `planted` (a [`release_settings_tree`]) with `llm =
/// "always"`, then with `"auto"` and words no file holds (the judge asks
/// for an expansion, whose vocabulary is taken from the lines near the
/// partial hits), against a mock model that claims `src/app.py:2`; checks
/// that no request holds a fragment of a planted secret and that an
/// expansion was asked for, and returns the text of every request's
/// strings.
fn sent_always_and_auto(planted: &Planted) -> String {
    let mock = MockLlm::respond(Box::new(|request: &Received| {
        if request.body.contains("widen a search") {
            return Step::chat(
                &json!({"concepts": [{"name": "release settings",
                    "synonyms": ["deploy"], "related": ["token"]}]})
                .to_string(),
            );
        }
        Step::chat(&json!({"matches": [{"path": "src/app.py", "line": 2}]}).to_string())
    }));
    planted.dir.use_model(&mock.base_url(), "learn = false");
    let mut problems = Vec::new();
    let mut bodies = String::new();
    for (llm, query) in [
        ("always", "nightly release settings"),
        // Words no file holds: the judge asks for an expansion, whose
        // vocabulary is taken from the lines near the partial hits.
        (
            "auto",
            "where are the nightly release settings renewed by the scheduler",
        ),
    ] {
        let before = mock.received().len();
        let out = planted.dir.run_llm(llm, &["-v", query, "."]);
        assert!(out.code == 0 || out.code == 1, "{}", out.describe);
        let received = mock.received()[before..].to_vec();
        problems.extend(sent_leaks(planted, &received, llm));
        for request in &received {
            strings_of(&request.json(), &mut bodies);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let expansions = mock
        .received()
        .iter()
        .filter(|r| r.body.contains("widen a search"))
        .count();
    assert!(expansions > 0, "no expansion was asked for:\n{bodies}");
    bodies
}

/// Random string literals in one case under names that say nothing of a
/// secret (the s49 probe found them sent): assigned to `key`, passed to a
/// client's constructor, assigned to a header by index, a dictionary's
/// value. None reaches the model, in an excerpt or as vocabulary words, in
/// `auto` and `always`; the lines around them are still sent.
#[test]
fn random_literals_without_a_secret_name_never_reach_the_model() {
    let dir = release_settings_tree();
    let key = noise(970, 16, BASE36);
    let client = noise(971, 18, BASE36);
    let header = noise(972, 24, b"0123456789abcdef");
    let value = noise(973, 20, BASE36).to_uppercase();
    dir.write(
        "src/release.py",
        format!(
            "# nightly release settings\ndef release_client():\n    \
             key = \"{key}\"\n    return Client(\"{client}\", retry=3)\n"
        ),
    );
    dir.write(
        "src/release.js",
        format!(
            "// nightly release settings\nheaders[\"X-Api\"] = \"{header}\";\n\
             const opts = {{\"id\": 7, \"value\": \"{value}\"}};\n"
        ),
    );
    let planted = Planted {
        dir,
        secrets: vec![
            ("key = \"…\"", key),
            ("Client(\"…\")", client),
            ("headers[…] = \"…\"", header),
            ("{\"value\": \"…\"}", value),
        ],
        aws_secret: String::new(),
    };
    let bodies = sent_always_and_auto(&planted);
    for line in [
        "key = \"[REDACTED]\"",
        "return Client(\"[REDACTED]\", retry=3)",
        "headers[\"X-Api\"] = \"[REDACTED]\";",
        "const opts = {\"id\": 7, \"value\": \"[REDACTED]\"};",
        "def release_settings():",
    ] {
        assert!(bodies.contains(line), "{line} not sent:\n{bodies}");
    }
}

/// Secrets in a Markdown table, each in the cell after the one naming it
/// (the s49 probe found them sent): a password with a symbol, a random
/// token, a code span's. None reaches the model, in an excerpt or as
/// vocabulary words, in `auto` and `always`; the table's other cells are
/// still sent.
#[test]
fn a_secret_in_a_markdown_table_cell_never_reaches_the_model() {
    let dir = release_settings_tree();
    let password = format!("{}2-{}", noise(980, 8, BASE36), noise(981, 4, BASE36));
    let token = noise(982, 16, BASE36);
    let key = format!("{}!{}", noise(983, 6, ALNUM), noise(984, 6, ALNUM));
    dir.write(
        "docs/release.md",
        format!(
            "# Nightly release settings\n\n| name | value |\n|---|---|\n\
             | password | {password} |\n| token | {token} |\n\
             | `RELEASE_API_KEY` | `{key}` |\n| retries | 3 |\n"
        ),
    );
    let planted = Planted {
        dir,
        secrets: vec![
            ("| password | … |", password),
            ("| token | … |", token),
            ("| `RELEASE_API_KEY` | `…` |", key),
        ],
        aws_secret: String::new(),
    };
    let bodies = sent_always_and_auto(&planted);
    for line in [
        "| password | [REDACTED] |",
        "| token | [REDACTED] |",
        "| `RELEASE_API_KEY` | `[REDACTED]` |",
        "| retries | 3 |",
    ] {
        assert!(bodies.contains(line), "{line} not sent:\n{bodies}");
    }
}

/// Random passwords of letters alone, no digit (the s49 probe), after a
/// password's name: `pw = "…"` and `pwd = '…'` (names too short to say
/// secret elsewhere), `password = "…"`, `DB_PASS=…`. None reaches the
/// model, in an excerpt or as vocabulary words, in `auto` and `always`.
#[test]
fn letters_only_passwords_after_a_password_name_never_reach_the_model() {
    let dir = release_settings_tree();
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    let pw = noise(990, 14, LETTERS);
    let pwd = noise(991, 14, LETTERS);
    let password = noise(992, 14, LETTERS);
    let env = noise(993, 14, LETTERS);
    dir.write(
        "src/release.py",
        format!(
            "# nightly release settings\ndef release_login():\n    \
             pw = \"{pw}\"\n    pwd = '{pwd}'\n    password = \"{password}\"\n"
        ),
    );
    dir.write(
        "deploy/release.sh",
        format!("# nightly release settings\nDB_PASS={env}\n"),
    );
    let planted = Planted {
        dir,
        secrets: vec![
            ("pw = \"…\"", pw),
            ("pwd = '…'", pwd),
            ("password = \"…\"", password),
            ("DB_PASS=…", env),
        ],
        aws_secret: String::new(),
    };
    let bodies = sent_always_and_auto(&planted);
    for line in [
        "pw = \"[REDACTED]\"",
        "pwd = '[REDACTED]'",
        "password = \"[REDACTED]\"",
        "DB_PASS=[REDACTED]",
    ] {
        assert!(bodies.contains(line), "{line} not sent:\n{bodies}");
    }
}
