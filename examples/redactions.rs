//! The redactor (`kgrep::llm::redact::redact_text`) over real trees: how
//! many lines it changes, and which, to measure its false positives on
//! code that holds no secret (a rule's cost) before and after a change.
//!
//!     cargo run --release --example redactions -- [--show] DIR...
//!     cargo run --release --example redactions < LINES
//!
//! Walks each DIR (hidden files too; ignore files are not read: a crate
//! unpacked from a registry has none that matter), skips files that are not
//! UTF-8, redacts each file whole as the prompt does, and prints the files,
//! lines and changed lines. With `--show`, every changed line too, as
//! `path:line: before` / `  -> after`. A measurement for people, not an
//! assertion: not run in CI. With no DIR, the lines of stdin are redacted
//! as one excerpt and printed.

// Its report is its output.
#![allow(clippy::print_stdout)]

use std::io::Read;

use kgrep::llm::redact::{redact_lines, redact_text};

fn main() {
    let mut show = false;
    let mut dirs = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--show" {
            show = true;
        } else {
            dirs.push(arg);
        }
    }
    if dirs.is_empty() {
        let mut text = String::new();
        if std::io::stdin().read_to_string(&mut text).is_ok() {
            let lines: Vec<&str> = text.lines().collect();
            for line in redact_lines(&lines).0 {
                println!("{line}");
            }
        }
        return;
    }
    let (mut files, mut lines, mut changed) = (0usize, 0usize, 0usize);
    for dir in dirs {
        let walk = ignore::WalkBuilder::new(dir)
            .standard_filters(false)
            .build();
        for entry in walk.flatten() {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            files += 1;
            lines += text.split('\n').count();
            let Some(out) = redact_text(&text) else {
                continue;
            };
            for (n, (before, after)) in text.split('\n').zip(out.text.split('\n')).enumerate() {
                if before != after {
                    changed += 1;
                    if show {
                        let path = entry.path().display();
                        println!("{path}:{}: {before}\n  -> {after}", n + 1);
                    }
                }
            }
        }
    }
    println!("files {files}, lines {lines}, changed lines {changed}");
}
