//! Verification and the grep printer against rlmgrep's golden captures.
//!
//! For every golden case whose stdout is rlmgrep's grep output (pipe or
//! terminal), this feeds the case's `matches.json` through `verify` and
//! `write_grep` with the case's `-C/-A/-B/-m` and compares:
//! stdout byte for byte, the `dropped K unverified matches` count, and the exit
//! code (0 iff a match line was printed).
//!
//! The walker and the PDF extractor live on other branches, so which documents
//! rlmgrep loaded is decided here by a small local model of its walk rules
//! ([`is_loaded`]), applied only to the paths the model claimed: explicit file
//! arguments always load; files under a directory argument load unless hidden
//! (a path part starting with `.`, without `--hidden`), ignored by a
//! `.gitignore` (without `--no-ignore`; `.git/info/exclude` has no effect),
//! filtered out by `-g`/`--type`, or binary (a NUL byte, without `-a`).
//! The loaded documents themselves come from kgrep's real loader
//! (`document::load`), PDFs included: the fixture's `docs/manual.pdf` goes
//! through kgrep's PDF extraction, so `plain_pdf`, `plain_pdf_context` and
//! `pdf_page_boundary` check its line numbers and page suffixes byte for byte.
//!
//! Where kgrep differs on purpose (README's compatibility table), the case
//! is compared with kgrep's own expected output instead ([`DIFFERENCES`]).
//!
//! Skipped: `known_bug` cases, exit-2 cases (usage, config and model errors),
//! modes whose stdout is not grep output (`--signature*`, `--answer-only`,
//! `--help`, `--version`, `--init-config`) and rlmgrep crashes (a traceback).

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use kgrep::document::{self, Document, Loaded, ReadOptions};
use kgrep::render::{write_grep, FileResult, GrepOptions};
use kgrep::verify::{verify, Claim};
use kgrep::walk::{Haystack, Source};
use serde_json::Value;

/// The copy of the contract inside the repository.
const CONTRACT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rlmgrep-contract");
/// How the captures spell the fixture root.
const ROOT_TOKEN: &str = "{ROOT}";
/// Key rlmgrep gives piped stdin content.
const STDIN_KEY: &str = "<stdin>";
/// Flags of the fake-model harness; each takes a value and does not concern us.
const MODEL_FLAGS: &[&str] = &[
    "--model",
    "--sub-model",
    "--api-base",
    "--api-key",
    "--model-type",
    "--max-iterations",
];
/// argv flags that mean stdout is not grep output.
const NON_GREP_MODES: &[&str] = &[
    "--signature",
    "--signature-json",
    "--answer-only",
    "--help",
    "--version",
    "--init-config",
];
/// A golden case kgrep answers otherwise on purpose: its stdout and
/// dropped count, and why (a row of README's compatibility table).
struct Difference {
    case: &'static str,
    stdout: &'static str,
    dropped: usize,
    why: &'static str,
}

/// The golden cases kgrep answers otherwise on purpose.
const DIFFERENCES: &[Difference] = &[Difference {
    case: "pdf_page_boundary",
    // Line 10 is the empty "line" after the text's final newline, which
    // ripgrep never counts: its claim is dropped, and the context line 9
    // around it goes with it.
    stdout: "./docs/manual.pdf\n5-\t\tpage=1\n6:\t===== Page 2 =====\tpage=2\n\
             7-\tChapter 2: Database\tpage=2\n",
    dropped: 1,
    why: "a claim of the empty line after a final newline is no line of the file",
}];

/// Extensions of the `--type` names the goldens use (rlmgrep's table is larger).
const TYPE_EXTENSIONS: &[(&str, &[&str])] = &[
    ("py", &["py", "pyi"]),
    ("md", &["md", "markdown"]),
    ("txt", &["txt"]),
    ("js", &["js", "mjs", "cjs", "jsx"]),
];

/// The golden cases this test is expected to cover; a change in the
/// selection rules or the captures shows up here.
const COVERED: &[&str] = &[
    "absolute_path_outside_cwd",
    "answer",
    "answer_after_dropped",
    "answer_context",
    "answer_empty",
    "answer_long_markup",
    "binary_as_text",
    "binary_skipped",
    "config_model_from_file",
    "config_warn_threshold_yes",
    "ctx_A2",
    "ctx_B2",
    "ctx_C1_adjacent",
    "ctx_C1_crlf",
    "ctx_C1_disjoint",
    "ctx_C1_multi_file",
    "ctx_C1_overlap",
    "dot_slash_arg",
    "dot_slash_path_dropped",
    "explicit_file",
    "git_info_exclude",
    "glob_dir_star",
    "glob_doublestar",
    "glob_md",
    "hallucinated_mixed",
    "hallucinated_only",
    "hidden_explicit_file",
    "hidden_flag",
    "hidden_match_dropped",
    "ignored_explicit_file",
    "ignored_match_dropped",
    "max_count_0",
    "max_count_1",
    "max_count_2_context",
    "max_iterations_extract",
    "nested_gitignore",
    "no_color_env_pipe",
    "no_ignore_flag",
    "no_matches",
    "no_recursive_files",
    "paths_from_stdin",
    "pdf_page_boundary",
    "plain_crlf_file",
    "plain_duplicates",
    "plain_empty_file_line1",
    "plain_latin1_file",
    "plain_multi_file",
    "plain_multi_line_unsorted",
    "plain_no_path_arg_tty_stdin",
    "plain_pdf",
    "plain_pdf_context",
    "plain_single",
    "plain_tabs_unicode",
    "stdin_content",
    "stdin_content_context",
    "stdin_devnull",
    "stdin_ignored_with_paths",
    "stdin_invalid_utf8",
    "tty_stdout",
    "tty_stdout_answer",
    "tty_stdout_context",
    "tty_stdout_no_color",
    "tty_stdout_no_matches",
    "type_multi",
    "type_py",
    "verbose",
];

// ---------------------------------------------------------------------------
// The cases

/// One golden capture.
struct Case {
    name: String,
    spec: Value,
    stdout: Vec<u8>,
    stderr: String,
    exit_code: i32,
    claims: Vec<Claim>,
}

impl Case {
    fn load(dir: &Path) -> Case {
        let read = |file: &str| fs::read(dir.join(file)).unwrap();
        Case {
            name: dir.file_name().unwrap().to_string_lossy().into_owned(),
            spec: serde_json::from_slice(&read("case.json")).unwrap(),
            stdout: read("stdout"),
            stderr: String::from_utf8_lossy(&read("stderr")).into_owned(),
            exit_code: String::from_utf8_lossy(&read("exit_code"))
                .trim()
                .parse()
                .unwrap(),
            claims: serde_json::from_slice(&read("matches.json")).unwrap(),
        }
    }

    fn argv(&self) -> Vec<String> {
        self.spec["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    }

    /// Why the case is not a grep-output case, or `None` if it is.
    fn skip_reason(&self) -> Option<&'static str> {
        let argv = self.argv();
        if self.spec.get("known_bug").is_some() {
            Some("known_bug")
        } else if self.exit_code == 2 {
            Some("exit 2 (error)")
        } else if argv.iter().any(|a| NON_GREP_MODES.contains(&a.as_str())) {
            Some("stdout is not grep output")
        } else if self.stderr.contains("Traceback") {
            Some("rlmgrep crashed")
        } else {
            None
        }
    }

    /// The `dropped K unverified matches` count on stderr (0 when absent).
    fn golden_dropped(&self) -> usize {
        self.stderr
            .lines()
            .find_map(|line| {
                line.strip_prefix("rlmgrep: dropped ")?
                    .strip_suffix(" unverified matches")?
                    .parse()
                    .ok()
            })
            .unwrap_or(0)
    }

    /// The bytes piped to stdin, or `None` for a terminal.
    fn stdin(&self) -> Option<Vec<u8>> {
        match self.spec.get("stdin") {
            Some(Value::String(s)) if s == "tty" => None,
            Some(Value::Object(o)) => Some(match (o.get("text"), o.get("bytes_hex")) {
                (Some(text), _) => text.as_str().unwrap().as_bytes().to_vec(),
                (None, Some(hex)) => decode_hex(hex.as_str().unwrap()),
                (None, None) => panic!("{}: stdin without text", self.name),
            }),
            _ => Some(Vec::new()),
        }
    }

    fn is_tty_stdout(&self) -> bool {
        self.spec.get("stdout").and_then(Value::as_str) == Some("tty")
    }

    fn has_no_color(&self) -> bool {
        self.spec
            .get("env")
            .and_then(|env| env.get("NO_COLOR"))
            .is_some()
    }
}

fn decode_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn all_cases() -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(Path::new(CONTRACT).join("cases"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs.iter().map(|dir| Case::load(dir)).collect()
}

// ---------------------------------------------------------------------------
// A tiny model of rlmgrep's argv (only what decides loading and rendering)

#[derive(Debug, Default)]
struct Args {
    context: usize,
    before: Option<usize>,
    after: Option<usize>,
    max_count: Option<usize>,
    globs: Vec<String>,
    types: Vec<String>,
    hidden: bool,
    no_ignore: bool,
    no_recursive: bool,
    binary_as_text: bool,
    paths_from_stdin: bool,
    paths: Vec<String>,
}

impl Args {
    fn parse(argv: &[String], root: &Path) -> Args {
        let mut args = Args::default();
        let mut positional = Vec::new();
        let mut iter = argv.iter();
        while let Some(arg) = iter.next() {
            let mut value = || iter.next().unwrap().clone();
            match arg.as_str() {
                "-C" => args.context = value().parse().unwrap(),
                "-A" => args.after = Some(value().parse().unwrap()),
                "-B" => args.before = Some(value().parse().unwrap()),
                "-m" => args.max_count = Some(value().parse().unwrap()),
                "-g" | "--glob" => args.globs.extend(split_commas(&value())),
                "--type" => args.types.extend(split_commas(&value())),
                "--hidden" => args.hidden = true,
                "--no-ignore" => args.no_ignore = true,
                "--no-recursive" => args.no_recursive = true,
                "-a" | "--text" => args.binary_as_text = true,
                "--paths-from-stdin" => args.paths_from_stdin = true,
                flag if MODEL_FLAGS.contains(&flag) => {
                    value();
                }
                flag if flag.starts_with('-') && flag.len() > 1 => {}
                _ => positional.push(substitute_root(arg, root)),
            }
        }
        // The first positional is the query.
        args.paths = positional.into_iter().skip(1).collect();
        args
    }

    /// `color` is what `--color auto` gives: only on a terminal without NO_COLOR.
    fn options(&self, tty: bool, color: bool) -> GrepOptions {
        GrepOptions {
            before: self.before.unwrap_or(self.context),
            after: self.after.unwrap_or(self.context),
            max_count: self.max_count,
            tty,
            color: tty && color,
            long_lines: None,
            ..GrepOptions::default()
        }
    }

    fn type_extensions(&self) -> Vec<String> {
        self.types
            .iter()
            .flat_map(|name| {
                TYPE_EXTENSIONS
                    .iter()
                    .find(|(known, _)| known == name)
                    .map(|(_, exts)| exts.iter().map(|e| e.to_string()).collect())
                    .unwrap_or_else(|| vec![name.clone()])
            })
            .collect()
    }
}

fn split_commas(value: &str) -> Vec<String> {
    value
        .split(',')
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect()
}

fn substitute_root(text: &str, root: &Path) -> String {
    text.replace(ROOT_TOKEN, &root.to_string_lossy())
}

// ---------------------------------------------------------------------------
// Which claimed paths rlmgrep loaded

/// Where the case's documents come from.
enum Inputs {
    /// Piped stdin content, searched as `<stdin>`.
    Stdin(Vec<u8>),
    /// Path arguments (or `--paths-from-stdin` lines), relative to cwd.
    Paths(Vec<String>),
}

fn inputs(case: &Case, args: &Args) -> Inputs {
    let stdin = case.stdin();
    if args.paths_from_stdin {
        let text = String::from_utf8(stdin.unwrap()).unwrap();
        let paths = text.lines().map(str::trim).filter(|l| !l.is_empty());
        return Inputs::Paths(paths.map(str::to_string).collect());
    }
    match (args.paths.is_empty(), stdin) {
        (false, _) => Inputs::Paths(args.paths.clone()),
        (true, None) => Inputs::Paths(vec![".".to_string()]),
        (true, Some(bytes)) => Inputs::Stdin(bytes),
    }
}

/// A path argument with `.` parts and trailing slashes removed (`./src/` → `src`).
fn normalise(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let joined = parts.join("/");
    if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The part of `key` under directory argument `dir`, if it is under it.
fn under_dir<'k>(key: &'k str, dir: &str) -> Option<&'k str> {
    if dir.is_empty() {
        return (!key.starts_with('/') && !key.starts_with("../")).then_some(key);
    }
    key.strip_prefix(dir)?.strip_prefix('/')
}

/// Whether rlmgrep would have loaded the file `key` (a claimed path).
fn is_loaded(key: &str, paths: &[String], args: &Args, cwd: &Path, root: &Path) -> bool {
    let file = cwd.join(key);
    if !file.is_file() {
        return false;
    }
    let bytes = fs::read(&file).unwrap();
    // PDFs go through text extraction, so their NUL bytes do not make them binary.
    if bytes.contains(&0) && !args.binary_as_text && !key.ends_with(".pdf") {
        return false;
    }
    paths.iter().map(|p| normalise(p)).any(|arg| {
        let arg_path = cwd.join(&arg);
        if arg_path.is_file() {
            return arg == key;
        }
        if !arg_path.is_dir() || args.no_recursive {
            return false;
        }
        under_dir(key, &arg).is_some_and(|rel| {
            (args.hidden || !rel.split('/').any(|part| part.starts_with('.')))
                && (args.no_ignore || !is_gitignored(&file, root))
                && passes_filters(key, args)
        })
    })
}

/// `-g` (any glob, `PurePosixPath.match` or `fnmatch`) and `--type` (extension).
fn passes_filters(key: &str, args: &Args) -> bool {
    let globs_ok = args.globs.is_empty()
        || args
            .globs
            .iter()
            .any(|g| fnmatch(key, g) || path_match(key, g));
    let exts = args.type_extensions();
    let ext = key.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let types_ok = exts.is_empty() || exts.iter().any(|e| e == ext);
    globs_ok && types_ok
}

/// `.gitignore` files from the file's folder up to the fixture root.
fn is_gitignored(file: &Path, root: &Path) -> bool {
    file.ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(root))
        .any(|dir| {
            let Ok(text) = fs::read_to_string(dir.join(".gitignore")) else {
                return false;
            };
            let rel = file
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .any(|pattern| gitignore_matches(&rel, pattern))
        })
}

/// The subset of gitignore patterns the fixture uses: `dir/`, `*.ext`, `name`,
/// and `a/b` (anchored).
fn gitignore_matches(rel: &str, pattern: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    if let Some(dir) = pattern.strip_suffix('/') {
        parts[..parts.len() - 1].iter().any(|p| fnmatch(p, dir))
    } else if pattern.contains('/') {
        fnmatch(rel, pattern.trim_start_matches('/'))
    } else {
        parts.iter().any(|p| fnmatch(p, pattern))
    }
}

/// Python's `fnmatch.fnmatchcase` for `*` and `?` (`*` crosses `/`).
fn fnmatch(text: &str, pattern: &str) -> bool {
    let text: Vec<char> = text.chars().collect();
    let pattern: Vec<char> = pattern.chars().collect();
    fnmatch_chars(&text, &pattern)
}

fn fnmatch_chars(text: &[char], pattern: &[char]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some(('*', rest)) => (0..=text.len()).any(|i| fnmatch_chars(&text[i..], rest)),
        Some(('?', rest)) => !text.is_empty() && fnmatch_chars(&text[1..], rest),
        Some((c, rest)) => text.first() == Some(c) && fnmatch_chars(&text[1..], rest),
    }
}

/// Python's `PurePosixPath(path).match(pattern)` (before 3.13): the pattern's
/// parts match the path's last parts, one by one; `**` is just `*`.
fn path_match(path: &str, pattern: &str) -> bool {
    let path_parts: Vec<&str> = path.split('/').collect();
    let pattern_parts: Vec<&str> = pattern.split('/').collect();
    pattern_parts.len() <= path_parts.len()
        && path_parts
            .iter()
            .rev()
            .zip(pattern_parts.iter().rev())
            .all(|(part, pat)| fnmatch(part, pat))
}

// ---------------------------------------------------------------------------
// Documents

/// A claimed file loaded by kgrep's own loader, as the search would load it.
fn load_document(key: &str, path: &Path, args: &Args) -> Document {
    let haystack = Haystack {
        key: key.to_string(),
        source: Source::Path(path.to_path_buf()),
    };
    let read = ReadOptions {
        text: args.binary_as_text,
        ..ReadOptions::default()
    };
    match document::load(&haystack, &read).unwrap() {
        Loaded::Text(doc) => doc,
        other => panic!("{key}: rlmgrep loaded it, kgrep gives {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// The fixture

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Fixture {
    fn build() -> Fixture {
        // No leading dot: a hidden temp folder would make every absolute key hidden.
        let dir = tempfile::Builder::new()
            .prefix("kgrep-contract-")
            .tempdir()
            .unwrap();
        let root = dir.path().canonicalize().unwrap().join("fixture");
        let script = Path::new(CONTRACT).join("make_fixture.py");
        let status = Command::new("python3")
            .arg(&script)
            .arg(&root)
            .status()
            .expect("python3 is needed to build the rlmgrep fixture");
        assert!(status.success(), "make_fixture.py failed");
        Fixture { _dir: dir, root }
    }
}

// ---------------------------------------------------------------------------
// Running one case

struct Outcome {
    stdout: Vec<u8>,
    dropped: usize,
    exit_code: i32,
}

fn run_case(case: &Case, fixture: &Fixture) -> Outcome {
    let root = &fixture.root;
    let cwd = root.join(case.spec["cwd"].as_str().unwrap_or("tree"));
    let args = Args::parse(&case.argv(), root);
    let claims: Vec<Claim> = case
        .claims
        .iter()
        .map(|c| Claim {
            path: substitute_root(&c.path, root),
            line: c.line,
        })
        .collect();
    let docs = loaded_documents(case, &args, &claims, &cwd, root);
    let verified = verify(&claims, &docs);
    let files: Vec<FileResult> = verified
        .files
        .iter()
        .map(|(key, lines)| FileResult::new(&docs[key], lines.clone()))
        .collect();
    let opts = args.options(case.is_tty_stdout(), !case.has_no_color());
    let mut stdout = Vec::new();
    let printed = write_grep(&mut stdout, &files, &opts).unwrap();
    Outcome {
        stdout: unsubstitute_root(&stdout, root),
        dropped: verified.dropped,
        exit_code: if printed > 0 { 0 } else { 1 },
    }
}

fn loaded_documents(
    case: &Case,
    args: &Args,
    claims: &[Claim],
    cwd: &Path,
    root: &Path,
) -> BTreeMap<String, Document> {
    let paths = match inputs(case, args) {
        Inputs::Stdin(bytes) => {
            let doc = Document {
                key: STDIN_KEY.to_string(),
                text: bytes,
                pages: None,
                cut: None,
                offsets: Default::default(),
                terminator: b'\n',
                binary: None,
            };
            return BTreeMap::from([(STDIN_KEY.to_string(), doc)]);
        }
        Inputs::Paths(paths) => paths,
    };
    let claimed: BTreeSet<&str> = claims.iter().map(|c| c.path.as_str()).collect();
    claimed
        .into_iter()
        .filter(|key| is_loaded(key, &paths, args, cwd, root))
        .map(|key| (key.to_string(), load_document(key, &cwd.join(key), args)))
        .collect()
}

fn unsubstitute_root(bytes: &[u8], root: &Path) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let root = root.to_string_lossy();
    if !text.contains(root.as_ref()) {
        return bytes.to_vec();
    }
    text.replace(root.as_ref(), ROOT_TOKEN).into_bytes()
}

/// A readable account of one mismatch.
fn describe(case: &Case, outcome: &Outcome) -> Option<String> {
    let mut problems = Vec::new();
    let difference = DIFFERENCES.iter().find(|d| d.case == case.name);
    let (stdout, dropped) = match difference {
        Some(d) => (d.stdout.as_bytes(), d.dropped),
        None => (case.stdout.as_slice(), case.golden_dropped()),
    };
    if outcome.stdout != stdout {
        problems.push(format!(
            "stdout differs\n--- expected\n{:?}\n--- kgrep\n{:?}",
            String::from_utf8_lossy(stdout),
            String::from_utf8_lossy(&outcome.stdout)
        ));
    }
    if outcome.dropped != dropped {
        problems.push(format!("dropped {} (expected {dropped})", outcome.dropped));
    }
    if outcome.exit_code != case.exit_code {
        problems.push(format!(
            "exit {} (golden {})",
            outcome.exit_code, case.exit_code
        ));
    }
    if let Some(d) = difference.filter(|_| !problems.is_empty()) {
        problems.push(format!(
            "(kgrep differs from the golden on purpose: {})",
            d.why
        ));
    }
    (!problems.is_empty()).then(|| format!("== {}\n{}", case.name, problems.join("\n")))
}

// ---------------------------------------------------------------------------
// Tests

#[test]
fn grep_output_matches_the_goldens() {
    let fixture = Fixture::build();
    let cases: Vec<Case> = all_cases()
        .into_iter()
        .filter(|c| c.skip_reason().is_none())
        .collect();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| describe(case, &run_case(case, &fixture)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} golden cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn covered_cases_are_the_expected_ones() {
    let covered: Vec<String> = all_cases()
        .into_iter()
        .filter(|c| c.skip_reason().is_none())
        .map(|c| c.name)
        .collect();
    assert_eq!(covered, COVERED, "the covered golden cases changed");
}

#[test]
fn every_skip_has_a_reason_and_none_hides_grep_output() {
    for case in all_cases() {
        if case.skip_reason() == Some("stdout is not grep output") {
            let text = String::from_utf8_lossy(&case.stdout);
            assert!(
                !text.contains(":\t"),
                "{} is skipped but its stdout looks like grep output",
                case.name
            );
        }
    }
}

#[test]
fn local_walk_model_helpers() {
    assert_eq!(normalise("./src/"), "src");
    assert_eq!(normalise("."), "");
    assert_eq!(under_dir("src/app.py", ""), Some("src/app.py"));
    assert_eq!(under_dir("src/app.py", "src"), Some("app.py"));
    assert_eq!(under_dir("srcx/app.py", "src"), None);
    assert!(fnmatch("src/lib/deep/config.toml", "src/*"));
    assert!(!path_match("README.md", "**/*.md"));
    assert!(path_match("docs/guide.md", "**/*.md"));
    assert!(gitignore_matches("build/output.txt", "build/"));
    assert!(gitignore_matches("app.log", "*.log"));
    assert!(!gitignore_matches("build", "build/"));
}
