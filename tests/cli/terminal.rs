//! kgrep on a real terminal: colours, sanitised text and progress. Each test
//! runs a shell command under `script(1)` (util-linux), which gives it a
//! pseudo-terminal for stdin, stdout and stderr and copies what the terminal
//! shows to its own stdout. Without `script` the tests say so and pass.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::harness::Dir;

/// What the terminal showed (`\r\n` line ends), or `None` without `script`.
fn on_terminal(dir: &Path, home: &Path, shell: &str, env: &[(&str, &str)]) -> Option<String> {
    let has_script = Command::new("script")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_script {
        eprintln!("SKIPPED: script(1) is not installed, so no pseudo-terminal test ran");
        return None;
    }
    let bin = assert_cmd::cargo::cargo_bin("kgrep");
    let bin_dir = bin.parent().unwrap().display().to_string();
    let mut cmd = Command::new("script");
    cmd.args(["-qec", shell, "/dev/null"])
        .current_dir(dir)
        .env_clear()
        .env("PATH", format!("{bin_dir}:/usr/bin:/bin"))
        .env("HOME", home)
        .env("TERM", "xterm")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

/// Progress never shows in the colour tests: they look at every byte.
const NO_PROGRESS: (&str, &str) = ("KGREP_PROGRESS_DELAY_MS", "600000");

#[test]
fn a_terminal_gets_rlmgreps_layout_with_colours_and_highlighted_matches() {
    let d = corpus();
    let Some(screen) = on_terminal(d.path(), d.home.path(), "kgrep MAX_RETRIES", &[NO_PROGRESS])
    else {
        return;
    };
    assert!(
        screen.contains("\x1b[36m===== Matches =====\x1b[0m\r\n"),
        "{screen:?}"
    );
    assert!(
        screen.contains("\x1b[35m./src/net/client.rs\x1b[0m\r\n"),
        "{screen:?}"
    );
    assert!(
        screen.contains(
            "\x1b[32m6\x1b[0m:      pub const \x1b[1m\x1b[31mMAX_RETRIES\x1b[0m: u32 = 5;"
        ),
        "{screen:?}"
    );
}

#[test]
fn no_color_and_color_never_keep_the_layout_without_escapes() {
    let d = corpus();
    for (shell, env) in [
        ("kgrep MAX_RETRIES", vec![NO_PROGRESS, ("NO_COLOR", "1")]),
        ("kgrep --color never MAX_RETRIES", vec![NO_PROGRESS]),
    ] {
        let Some(screen) = on_terminal(d.path(), d.home.path(), shell, &env) else {
            return;
        };
        assert!(
            screen.contains("===== Matches =====\r\n./src/net/client.rs\r\n"),
            "{screen:?}"
        );
        assert!(!screen.contains('\x1b'), "{shell}: {screen:?}");
    }
}

#[test]
fn file_text_and_file_names_cannot_drive_the_terminal() {
    let d = Dir::new();
    d.write("notes.txt", b"marker \x1b]0;pwned\x07 \x1b[2J here\n");
    let Some(screen) = on_terminal(
        d.path(),
        d.home.path(),
        "kgrep '\"marker\"' notes.txt missing-\u{1b}[31m-file",
        &[NO_PROGRESS, ("NO_COLOR", "1")],
    ) else {
        return;
    };
    assert!(
        screen.contains("marker ^[]0;pwned^G ^[[2J here"),
        "{screen:?}"
    );
    assert!(
        screen.contains("kgrep: missing-^[[31m-file: "),
        "{screen:?}"
    );
    assert!(!screen.contains('\x1b'), "{screen:?}");
}

#[test]
fn json_on_a_terminal_escapes_every_control_character() {
    let d = Dir::new();
    d.write("notes.txt", "marker \u{9b}2J \u{7f}\n".as_bytes());
    let Some(screen) = on_terminal(
        d.path(),
        d.home.path(),
        "kgrep --json '\"marker\"' notes.txt",
        &[NO_PROGRESS],
    ) else {
        return;
    };
    assert!(
        screen.contains(r#""text":"marker \u009b2J \u007f\n""#),
        "{screen:?}"
    );
    assert!(
        !screen.contains('\u{9b}') && !screen.contains('\u{7f}'),
        "{screen:?}"
    );
}

#[test]
fn progress_shows_on_a_terminal_and_never_in_a_pipe() {
    // `sleep 1 |` keeps kgrep reading stdin (its scanning stage) for a second,
    // well past the default delay before progress shows.
    let d = Dir::new();
    let err = d.path().join("stderr.txt");
    let Some(screen) = on_terminal(d.path(), d.home.path(), "sleep 1 | kgrep '\"retry\"'", &[])
    else {
        return;
    };
    assert!(screen.contains("scanning files"), "{screen:?}");
    let shell = format!("sleep 1 | kgrep '\"retry\"' 2>{}", err.display());
    let screen = on_terminal(d.path(), d.home.path(), &shell, &[]).unwrap();
    assert!(!screen.contains("scanning"), "{screen:?}");
    let piped = std::fs::read(&err).unwrap();
    assert!(
        piped.is_empty(),
        "progress bytes on a piped stderr: {piped:?}"
    );
}

#[test]
fn piped_stderr_gets_no_progress_even_with_no_delay() {
    let d = corpus();
    let args = ["where is the retry delay computed", "."];
    let mut cmd = d.cmd();
    cmd.env("KGREP_PROGRESS_DELAY_MS", "0").args(args);
    let run = crate::harness::finish(&mut cmd, &args, d.path());
    run.code(0);
    assert_eq!(
        run.stderr, "kgrep: Scanned 6 files. Loaded 6.\n",
        "{}",
        run.describe
    );
}
