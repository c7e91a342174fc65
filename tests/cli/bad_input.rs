//! Bad input never panics or hangs: a clear message and the right exit code.

use crate::harness::Dir;

#[test]
fn binary_files_are_skipped_unless_text() {
    let d = Dir::new();
    d.write("blob.bin", b"\x89BIN\x00\x01 needle\n");
    d.write("notes.txt", "needle in text\n");
    let run = d.run(&["needle", "."]);
    run.code(0)
        .stdout_is("./notes.txt\n1:\tneedle in text\n")
        .stderr_has("Scanned 2 files. Loaded 1. Skipped 1.");
    let run = d.run(&["-a", "--max-lines", "0", "needle", "."]);
    run.code(0)
        .stdout_has("./blob.bin\n")
        .stdout_has("./notes.txt\n");
}

#[test]
fn invalid_utf8_is_shown_lossily() {
    let d = Dir::new();
    d.write("latin1.txt", b"caf\xe9 needle\n");
    d.run(&["needle", "."])
        .code(0)
        .stdout_is("./latin1.txt\n1:\tcaf\u{fffd} needle\n");
}

#[test]
fn empty_file_and_empty_dir() {
    let d = Dir::new();
    d.write("empty.txt", "");
    d.run(&["needle", "."]).code(1).stdout_is("");
    let e = Dir::new();
    e.run(&["needle", "."])
        .code(2)
        .stderr_has("no readable files");
}

#[test]
fn a_50_mb_single_line_file() {
    let d = Dir::new();
    let mut big = vec![b'x'; 50 * 1024 * 1024];
    big.extend_from_slice(b" needle_here\n");
    d.write("big.txt", &big);
    d.write("small.txt", "needle_here too\n");
    let run = d.run(&["needle_here", "small.txt", "big.txt"]);
    run.code(0)
        .stdout_has("./small.txt\n1:\tneedle_here too\n")
        .stdout_has("./big.txt\n1:\t");
    let run = d.run(&["where is the needle here", "."]);
    run.code(0);
}

#[test]
fn unreadable_file_is_reported_and_the_rest_searched() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    let secret = d.write("secret.txt", "needle secret\n");
    d.write("open.txt", "needle open\n");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = d.cmd();
    // root reads everything: drop to nobody when we can, as a real user would be.
    let as_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false);
    let setpriv = std::path::Path::new("/usr/bin/setpriv").exists();
    if as_root && !setpriv {
        eprintln!("skipping: running as root without setpriv");
        return;
    }
    if as_root {
        let bin = assert_cmd::cargo::cargo_bin("kgrep");
        std::fs::set_permissions(d.home.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        cmd = assert_cmd::Command::new("/usr/bin/setpriv");
        cmd.env_clear()
            .env("HOME", d.home.path())
            .current_dir(d.path())
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin);
    }
    cmd.args(["needle", "."]);
    let run = crate::harness::finish(&mut cmd, &["needle", "."], d.path());
    if run.stderr.contains("Permission denied") || run.code == 2 {
        run.code(2)
            .stdout_has("./open.txt\n1:\tneedle open\n")
            .stderr_has("secret.txt");
    } else {
        panic!("expected a permission error\n{}", run.describe);
    }
}

#[cfg(unix)]
#[test]
fn fifo_and_symlink_loop_do_not_hang() {
    let d = Dir::new();
    d.write("a/real.txt", "needle\n");
    std::os::unix::fs::symlink("..", d.path().join("a/loop")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(d.path().join("a/pipe"))
        .status();
    if !status.map(|s| s.success()).unwrap_or(false) {
        eprintln!("mkfifo unavailable; FIFO part skipped");
    }
    d.run(&["needle", "."])
        .code(0)
        .stdout_is("./a/real.txt\n1:\tneedle\n");
}

#[test]
fn invalid_regex_is_a_clear_error() {
    let d = Dir::new();
    d.write("a.txt", "x\n");
    // Regex-looking but invalid: searched as a literal instead of failing.
    d.run(&["[a-z", "."]).code(1);
}
