//! `kgrep … | head -1`: the reader goes away after one line. Like ripgrep,
//! kgrep then stops quietly: exit 0, and stderr holds nothing but rlmgrep's
//! `Scanned N files` summary (printed before the results), no error.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::harness::Dir;

/// Far more output than a pipe buffers, so kgrep is still writing when the
/// reader leaves.
fn big_project() -> Dir {
    let d = Dir::new();
    for f in 0..20 {
        let mut text = String::new();
        for i in 0..5_000 {
            text.push_str(&format!(
                "needle line {i} of file {f} with the retry backoff\n"
            ));
        }
        d.write(&format!("f{f:02}.txt"), text);
    }
    d
}

/// Runs kgrep, reads one line of stdout, closes the pipe; returns the exit
/// code and stderr.
fn read_one_line_then_close(d: &Dir, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("kgrep"))
        .env_clear()
        .env("HOME", d.home.path())
        .env("PATH", "/usr/bin:/bin")
        .env("KGREP_LLM", "off")
        .current_dir(d.path())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kgrep");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("read a line");
    // The reader (and with it the pipe) is dropped here.
    let out = child.wait_with_output().expect("wait for kgrep");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr, first)
}

/// Only the summary line, nothing about the pipe (a one-word natural query
/// also says how it was read, before any output).
fn assert_quiet(stderr: &str) {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.contains("was read as natural language"))
        .collect();
    assert_eq!(lines, ["kgrep: Scanned 20 files. Loaded 20."], "{stderr}");
}

#[test]
fn a_closed_pipe_ends_exact_search_quietly() {
    let d = big_project();
    let (code, stderr, first) = read_one_line_then_close(&d, &["\"needle\"", "."]);
    assert_eq!(first, "./f00.txt\n");
    assert_eq!(code, Some(0), "stderr: {stderr}");
    assert_quiet(&stderr);
}

#[test]
fn a_closed_pipe_ends_natural_search_and_json_quietly() {
    let d = big_project();
    for args in [
        &["--max-lines", "0", "where is the retry backoff", "."][..],
        &["--json", "needle", "."][..],
        &["-C", "2", "needle", "."][..],
    ] {
        let (code, stderr, first) = read_one_line_then_close(&d, args);
        assert!(!first.is_empty(), "{args:?}: no first line");
        assert_eq!(code, Some(0), "{args:?}: stderr: {stderr}");
        assert_quiet(&stderr);
    }
}
