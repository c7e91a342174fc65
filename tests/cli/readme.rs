//! The examples in README.md and SKILL.md are real.
//!
//! - In ```console blocks, each `$ kgrep …` line runs in the folder the block's
//!   `$ cd …` names (default: the repository root), with stdin closed, and must
//!   print exactly the lines below it (a `...` line stands for any number of
//!   lines) and exit 0, or the code shown after a following `$ echo $?`. Any
//!   other `$` command is refused, so no example goes untested.
//! - In ```sh blocks, each line that runs kgrep (`kgrep …`, `VAR=x kgrep …`,
//!   `… | kgrep …`) runs with `bash -o pipefail` in `fixtures/corpus` and must
//!   exit 0, or N when the line ends in `# exit N`.
//! - Other blocks (a usage synopsis) are not run.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A fenced code block: its language and lines.
struct Block {
    lang: String,
    lines: Vec<String>,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for line in markdown.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match current.take() {
                Some(block) => out.push(block),
                None => {
                    current = Some(Block {
                        lang: info.trim().to_string(),
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(block) = current.as_mut() {
            block.lines.push(line.to_string());
        }
    }
    out
}

/// A `$ kgrep …` example of a console block.
#[derive(Debug)]
struct ConsoleExample {
    dir: String,
    args: Vec<String>,
    expected: Vec<String>,
    code: i32,
}

fn console_examples(block: &Block) -> Vec<ConsoleExample> {
    let mut out: Vec<ConsoleExample> = Vec::new();
    let mut dir = String::from(".");
    let mut awaiting_code = false;
    for line in &block.lines {
        if let Some(rest) = line.strip_prefix("$ cd ") {
            dir = rest.trim().to_string();
        } else if line == "$ echo $?" {
            awaiting_code = true;
        } else if let Some(rest) = line.strip_prefix("$ kgrep ") {
            out.push(ConsoleExample {
                dir: dir.clone(),
                args: shell_words(rest),
                expected: Vec::new(),
                code: 0,
            });
        } else if line.starts_with("$ ") {
            panic!(
                "console example {line:?} is not `cd`, `kgrep` or `echo $?`: it would go untested"
            );
        } else if let Some(ex) = out.last_mut() {
            if awaiting_code {
                ex.code = line.trim().parse().expect("an exit code after `$ echo $?`");
                awaiting_code = false;
            } else {
                ex.expected.push(line.clone());
            }
        }
    }
    out
}

/// Splits on spaces, honouring double and single quotes (all the docs need).
fn shell_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, ' ') => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Whether `actual` fits `expected`, where a `...` line matches any lines.
fn fits(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| fits(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a == first && fits(rest, more)),
    }
}

/// A kgrep command line of a sh block and its expected exit code.
fn shell_command(line: &str) -> Option<(String, i32)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let (command, code) = match line.rsplit_once("# exit ") {
        Some((command, code)) => (command.trim(), code.trim().parse().ok()?),
        None => (line, 0),
    };
    let first_command = command
        .split_whitespace()
        .find(|w| !w.contains('='))
        .unwrap_or_default();
    let runs_kgrep = first_command == "kgrep" || command.contains("| kgrep ");
    runs_kgrep.then(|| (command.to_string(), code))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn kgrep_dir() -> String {
    let bin = assert_cmd::cargo::cargo_bin("kgrep");
    bin.parent().unwrap().display().to_string()
}

fn hermetic(cmd: &mut Command, dir: &Path) -> Output {
    cmd.current_dir(dir)
        .env_clear()
        .env("HOME", root().join("target"))
        .env("PATH", format!("{}:/usr/bin:/bin", kgrep_dir()))
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs every example of one document; returns how many ran.
fn check_document(name: &str) -> usize {
    let text = std::fs::read_to_string(root().join(name)).unwrap();
    let mut ran = 0;
    for block in blocks(&text) {
        match block.lang.as_str() {
            "console" => {
                for ex in console_examples(&block) {
                    let out = hermetic(
                        Command::new(assert_cmd::cargo::cargo_bin("kgrep")).args(&ex.args),
                        &root().join(&ex.dir),
                    );
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    let actual: Vec<&str> = stdout.lines().collect();
                    let shown = format!(
                        "{name}: `kgrep {:?}` in {}\n--- stdout\n{stdout}--- stderr\n{}",
                        ex.args,
                        ex.dir,
                        String::from_utf8_lossy(&out.stderr)
                    );
                    assert!(fits(&ex.expected, &actual), "output differs\n{shown}");
                    assert_eq!(out.status.code(), Some(ex.code), "exit code\n{shown}");
                    ran += 1;
                }
            }
            "sh" | "bash" | "shell" => {
                for (command, code) in block.lines.iter().filter_map(|l| shell_command(l)) {
                    let out = hermetic(
                        Command::new("bash").args(["-o", "pipefail", "-c", &command]),
                        &root().join("fixtures/corpus"),
                    );
                    assert_eq!(
                        out.status.code(),
                        Some(code),
                        "{name}: `{command}`\n--- stdout\n{}--- stderr\n{}",
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    );
                    ran += 1;
                }
            }
            _ => {}
        }
    }
    ran
}

#[test]
fn readme_examples_run_as_shown() {
    assert!(
        check_document("README.md") >= 3,
        "README.md lost its examples"
    );
}

#[test]
fn skill_examples_run_as_shown() {
    assert!(
        check_document("SKILL.md") >= 5,
        "SKILL.md lost its examples"
    );
}

#[test]
fn the_example_parser_understands_the_conventions() {
    let block = Block {
        lang: "console".into(),
        lines: [
            "$ cd fixtures/corpus",
            "$ kgrep -m 1 \"parse jwt\" 'a b'",
            "out",
            "...",
            "$ echo $?",
            "1",
        ]
        .map(String::from)
        .to_vec(),
    };
    let ex = console_examples(&block);
    assert_eq!(ex.len(), 1);
    assert_eq!(ex[0].args, ["-m", "1", "parse jwt", "a b"]);
    assert_eq!((ex[0].dir.as_str(), ex[0].code), ("fixtures/corpus", 1));
    assert!(fits(&ex[0].expected, &["out", "x", "y"]));
    assert!(fits(&ex[0].expected, &["out"]));
    assert!(!fits(&ex[0].expected, &["other"]));
    assert_eq!(
        shell_command("KGREP_LLM=off kgrep q | head -n 1  # exit 1"),
        Some(("KGREP_LLM=off kgrep q | head -n 1".into(), 1))
    );
    assert_eq!(
        shell_command("rg -l x | kgrep --paths-from-stdin q"),
        Some(("rg -l x | kgrep --paths-from-stdin q".into(), 0))
    );
    assert_eq!(shell_command("cargo test"), None);
}
