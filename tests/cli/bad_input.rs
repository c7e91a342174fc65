//! Bad input never panics or hangs: a clear message and the right exit code.

use crate::harness::Dir;
#[cfg(unix)]
use crate::harness::{mkfifo, write_when_read};

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

/// `text` in UTF-16 with its byte-order mark, little- or big-endian.
fn utf16(text: &str, little: bool) -> Vec<u8> {
    let mut out = if little {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for unit in text.encode_utf16() {
        let pair = if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        out.extend_from_slice(&pair);
    }
    out
}

/// A file that opens with a UTF-16 byte-order mark is searched as its text,
/// as rg decodes it (rlmgrep skips it as binary: README's table), by natural
/// language, literals, regexes and counts, with or without `-a`; a file of
/// UTF-16 without the mark is still binary.
#[test]
fn utf16_files_with_a_byte_order_mark_are_searched_as_rg_searches_them() {
    let d = Dir::new();
    d.write(
        "le.txt",
        utf16("first line\r\nretry the caf\u{e9} needle\r\n", true),
    );
    d.write("be.txt", utf16("needle at the top\n", false));
    d.write("bare.bin", &utf16("needle", true)[2..]);
    // `rg -n --heading needle`: the same lines (rg prints \r\n endings).
    let want = "./be.txt\n1:\tneedle at the top\n\n./le.txt\n2:\tretry the caf\u{e9} needle\n";
    d.run(&["\"needle\"", "."])
        .code(0)
        .stdout_is(want)
        .stderr_has("Scanned 3 files. Loaded 2. Skipped 1.");
    d.run(&["-a", "\"needle\"", "le.txt"])
        .code(0)
        .stdout_is("./le.txt\n2:\tretry the caf\u{e9} needle\n");
    d.run(&["caf\u{e9}\\s+ne+dle", "le.txt"])
        .code(0)
        .stdout_is("./le.txt\n2:\tretry the caf\u{e9} needle\n");
    d.run(&["-c", "needle", "le.txt", "be.txt"])
        .code(0)
        .stdout_is("./be.txt:1\n./le.txt:1\n");
    d.run(&["how is the needle retried", "le.txt"])
        .code(0)
        .stdout_has("2:\tretry the caf\u{e9} needle\n");
}

/// Piped stdin with a UTF-16 byte-order mark (PowerShell's `>` writes one) is
/// decoded as a named file is (`rg needle < le.txt` finds it too); stdin
/// without a mark is read as it comes.
#[test]
fn utf16_stdin_is_decoded_as_a_file_is() {
    let d = Dir::new();
    for little in [true, false] {
        let piped = utf16("first line\nretry the caf\u{e9} needle\n", little);
        d.run_stdin(&["\"needle\""], piped.clone())
            .code(0)
            .stdout_is("./<stdin>\n2:\tretry the caf\u{e9} needle\n");
        d.run_stdin(&["-c", "caf\u{e9}\\s+needle"], piped.clone())
            .code(0)
            .stdout_is("./<stdin>:1\n");
        d.run_stdin(&["how is the needle retried"], piped)
            .code(0)
            .stdout_has("2:\tretry the caf\u{e9} needle\n");
    }
    d.run_stdin(&["\"needle\""], b"a needle\n".to_vec())
        .code(0)
        .stdout_is("./<stdin>\n1:\ta needle\n");
}

/// A UTF-8 byte-order mark is kept in the printed line (as rlmgrep keeps
/// it) and skipped by the search (as rg's): `^def` matches the first line,
/// and its match is the `def` after the mark in every output, at the column
/// that counts the mark's bytes. It was found on the line but not again in
/// it: `-o` printed the whole line, `--vimgrep` no column, `--json` no
/// submatch and `--replace` the line unreplaced. `-E none` skips nothing.
#[test]
fn a_utf8_byte_order_mark_is_skipped_by_exact_matches_as_by_the_search() {
    let d = Dir::new();
    d.write(
        "bom.py",
        b"\xEF\xBB\xBFdef retry():\n    pass\ndef again():\n",
    );
    d.run(&["-o", "^def", "bom.py"])
        .code(0)
        .stdout_is("./bom.py\n1:\tdef\n3:\tdef\n");
    d.run(&["--vimgrep", "^def", "bom.py"])
        .code(0)
        .stdout_is("./bom.py:1:4:\u{feff}def retry():\n./bom.py:3:1:def again():\n");
    d.run(&["--replace", "fn", "^def", "bom.py"])
        .code(0)
        .stdout_is("./bom.py\n1:\t\u{feff}fn retry():\n3:\tfn again():\n");
    d.run(&["-c", "--count-matches", "^def", "bom.py"])
        .code(0)
        .stdout_is("./bom.py:2\n");
    let run = d.run(&["--json", "^def", "bom.py"]);
    run.code(0)
        .stdout_has(r#""submatches":[{"match":{"text":"def"},"start":3,"end":6}]"#);
    d.run(&["-U", "-o", r"^def retry\(\):\n", "bom.py"])
        .code(0)
        .stdout_is("./bom.py\n1:\tdef retry():\n");
    d.run(&["-E", "none", "-c", "^def", "bom.py"])
        .code(0)
        .stdout_is("./bom.py:1\n");
}

/// `-E` as `rg -E`: a named encoding decodes every file (a byte-order mark
/// still wins), `none` turns the UTF-16 decoding off (rlmgrep's reading),
/// an unknown label is a usage error.
#[test]
fn encoding_decodes_files_as_rg_e_does() {
    let d = Dir::new();
    d.write("latin.txt", b"caf\xe9 needle\n");
    d.write("sjis.txt", b"\x83\x6e\x83\x8d\x81\x5b needle\n");
    d.write("wide.txt", utf16("needle wide\n", true));
    // `rg -E latin1 café` and `rg -E shift_jis ハロー`.
    d.run(&["-E", "latin1", "caf\u{e9}", "."])
        .code(0)
        .stdout_is("./latin.txt\n1:\tcaf\u{e9} needle\n");
    d.run(&["--encoding", "SHIFT_JIS", "\u{30cf}\u{30ed}\u{30fc}", "."])
        .code(0)
        .stdout_is("./sjis.txt\n1:\t\u{30cf}\u{30ed}\u{30fc} needle\n");
    d.run(&["-E", "latin1", "-c", "needle", "wide.txt"])
        .code(0)
        .stdout_is("./wide.txt:1\n");
    // Without it, Latin-1 is invalid UTF-8 (U+FFFD), as in rlmgrep.
    d.run(&["-c", "caf\u{e9}", "latin.txt"]).code(1);
    d.run(&["-E", "none", "\"needle\"", "."])
        .code(0)
        .stdout_has("./latin.txt\n")
        .stdout_lacks("wide.txt")
        .stderr_has("Scanned 3 files. Loaded 2. Skipped 1.");
    d.run(&["-E", "auto", "-c", "needle", "wide.txt"])
        .code(0)
        .stdout_is("./wide.txt:1\n");
    d.run(&["-E", "klingon", "needle", "."])
        .code(2)
        .stderr_has("unknown encoding 'klingon'");
    // stdin too, when an encoding is named.
    d.run_stdin(&["-E", "latin1", "\"caf\u{e9}\""], b"caf\xe9\n".to_vec())
        .code(0)
        .stdout_is("./<stdin>\n1:\tcaf\u{e9}\n");
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

/// Runs kgrep with `args` in `d` as an unprivileged user (root reads every
/// file); `None` when running as root without `setpriv`.
fn run_unprivileged(d: &Dir, args: &[&str]) -> Option<crate::harness::Run> {
    use std::os::unix::fs::PermissionsExt;
    let mut cmd = d.cmd();
    let as_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false);
    let setpriv = std::path::Path::new("/usr/bin/setpriv").exists();
    if as_root && !setpriv {
        eprintln!("skipping: running as root without setpriv");
        return None;
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
    cmd.args(args);
    Some(crate::harness::finish(&mut cmd, args, d.path()))
}

#[test]
fn unreadable_file_is_reported_and_the_rest_searched() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    let secret = d.write("secret.txt", "needle secret\n");
    d.write("open.txt", "needle open\nthe haystack holds the needle\n");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(run) = run_unprivileged(&d, &["needle", "."]) else {
        return;
    };
    if run.stderr.contains("Permission denied") || run.code == 2 {
        run.code(2)
            .stdout_has("./open.txt\n1:\tneedle open\n")
            .stderr_has("secret.txt");
    } else {
        panic!("expected a permission error\n{}", run.describe);
    }
    // A misspelt word makes a second scan with the correction: the file is
    // reported once, and the run still exits 2.
    let Some(run) = run_unprivileged(&d, &["-v", "where does the haystak hold it", "."]) else {
        return;
    };
    run.code(2).stderr_has("also searching haystack");
    assert_eq!(
        run.stderr.matches("secret.txt").count(),
        1,
        "{}",
        run.describe
    );
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
    // With -L the loop is one error line naming the paths as given, not the
    // absolute paths the walk resolved: rg 13's `./a/loop points to an
    // ancestor .` for `.`.
    let run = d.run(&["-L", "needle", "."]);
    run.code(2)
        .stdout_is("./a/real.txt\n1:\tneedle\n")
        .stderr_has("kgrep: File system loop found: ./a/loop points to an ancestor .\n");
    let shown = d.path().display().to_string();
    assert!(!run.stderr.contains(&shown), "{}", run.describe);
}

/// With no path, rg 13 walks `./`, and a `-L` loop's message names the
/// folder so: `File system loop found: ./a/loop points to an ancestor ./`
/// (kgrep wrote `.`, the spelling of `rg -L needle .`, checked with rg 13).
#[cfg(unix)]
#[test]
fn a_loop_found_with_no_path_names_the_folder_as_rg_does() {
    let d = Dir::new();
    d.write("a/real.txt", "needle\n");
    std::os::unix::fs::symlink("..", d.path().join("a/loop")).unwrap();
    let run = d.run_devnull(&["-L", "needle"]);
    run.code(2)
        .stdout_is("./a/real.txt\n1:\tneedle\n")
        .stderr_has("kgrep: File system loop found: ./a/loop points to an ancestor ./\n");
    d.run_devnull(&["-L", "-l", "needle", "a"])
        .code(2)
        .stderr_has("kgrep: File system loop found: a/loop/a/loop points to an ancestor a/loop\n");
}

/// A FIFO named on the command line is searched, as `rg hello p` searches it
/// (rg 13: `hello`, exit 0); one met while walking a folder is skipped, as rg
/// skips it. Its bytes are read once and serve every later read of the run.
#[cfg(unix)]
#[test]
fn a_fifo_named_on_the_command_line_is_searched() {
    let d = Dir::new();
    d.write("d/f.txt", "hello from a file\n");
    if !(mkfifo(&d, "p") && mkfifo(&d, "d/q")) {
        eprintln!("mkfifo unavailable; skipped");
        return;
    }
    let limit = std::time::Duration::from_secs(30);
    for (args, out) in [
        (
            vec!["-n", "-F", "hello", "p", "d"],
            "./d/f.txt\n1:\thello from a file\n\n./p\n1:\thello\n3:\tsay hello again\n",
        ),
        // A natural-language query reads the pipe again to rank and print it.
        (
            vec!["-n", "where do we say hello again", "p"],
            "./p\n1:\thello\n3:\tsay hello again\n",
        ),
    ] {
        let writer = write_when_read(
            d.path().join("p"),
            b"hello\nworld\nsay hello again\n",
            limit,
        );
        let out_of_time = d.cmd().args(&args).timeout(limit).output().unwrap();
        assert!(
            writer.join().unwrap(),
            "kgrep never opened the FIFO: {args:?}"
        );
        let stdout = String::from_utf8_lossy(&out_of_time.stdout);
        let stderr = String::from_utf8_lossy(&out_of_time.stderr);
        assert_eq!(
            (out_of_time.status.code(), stdout.as_ref()),
            (Some(0), out),
            "{args:?}\n{stderr}"
        );
        assert!(!stderr.contains("not a regular file"), "{stderr}");
    }
    // `--files` lists it without reading it: nobody writes, nothing waits.
    let run = crate::harness::finish(
        d.cmd().args(["--files", "p"]).timeout(limit),
        &["--files", "p"],
        d.path(),
    );
    run.code(0).stdout_is("./p\n");
}

#[test]
fn invalid_regex_is_a_clear_error() {
    let d = Dir::new();
    d.write("a.txt", "x\n");
    // Regex-looking but invalid: searched as a literal instead of failing.
    d.run(&["[a-z", "."]).code(1);
}

/// True when this process is root (CI is): permission tests must drop to an
/// ordinary user to see what one would.
fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false)
}

const SETPRIV: &str = "/usr/bin/setpriv";

/// A command for the binary as user `nobody` when running as root (via
/// setpriv), else as this user; `None` when root cannot drop privileges.
fn unprivileged_cmd(d: &Dir) -> Option<assert_cmd::Command> {
    use std::os::unix::fs::PermissionsExt;
    if !running_as_root() {
        return Some(d.cmd());
    }
    if !std::path::Path::new(SETPRIV).exists() {
        return None;
    }
    for dir in [d.home.path(), d.path()] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let mut cmd = assert_cmd::Command::new(SETPRIV);
    cmd.env_clear()
        .env("HOME", d.home.path())
        .env("PATH", "/usr/bin:/bin")
        .current_dir(d.path())
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(assert_cmd::cargo::cargo_bin("kgrep"));
    Some(cmd)
}

#[cfg(unix)]
#[test]
fn invalid_utf8_in_a_file_name_is_printed_as_its_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new();
    let name = std::ffi::OsStr::from_bytes(b"bad\xffname.txt");
    std::fs::write(d.path().join(name), "needle in a badly named file\n").unwrap();
    d.write("good.txt", "needle in a good file\n");
    let lines = &b"./bad\xffname.txt\n1:\tneedle in a badly named file\n"[..];
    let run = d.run(&["needle", "."]);
    run.code(0)
        .stdout_has("./good.txt\n1:\tneedle in a good file\n");
    assert!(
        run.raw_stdout.windows(lines.len()).any(|w| w == lines),
        "{}",
        run.describe
    );
    d.run(&["needle_file", "."]).code(1).stdout_is("");
    let run = d.run(&["\"badly named\"", "."]);
    assert_eq!(run.code(0).raw_stdout, lines, "{}", run.describe);
}

/// A file name that is not UTF-8 prints as its bytes wherever a path is
/// written to stdout, as rg prints it (so `kgrep -l … | xargs` opens the
/// file); `--json` gives it as rg's `{"bytes": <base64>}`.
#[cfg(unix)]
#[test]
fn a_non_utf8_file_name_prints_its_bytes_in_every_mode() {
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new();
    let dir = d.path().join(std::ffi::OsStr::from_bytes(b"d\xfe"));
    std::fs::create_dir(&dir).unwrap();
    let file = dir.join(std::ffi::OsStr::from_bytes(b"a\xffb.rs"));
    std::fs::write(&file, "fn retry_request() {}\n").unwrap();
    d.write("other.rs", "fn nothing() {}\n");
    let path = b"./d\xfe/a\xffb.rs";
    let with = |tail: &[u8]| [&path[..], tail].concat();
    let cases: &[(&[&str], Vec<u8>)] = &[
        (&["retry", "."], with(b"\n1:\tfn retry_request() {}\n")),
        (&["-l", "retry", "."], with(b"\n")),
        (&["-l", "-0", "retry", "."], with(b"\0")),
        (&["-c", "retry", "."], with(b":1\n")),
        (&["--count-matches", "retry", "."], with(b":1\n")),
        (
            &["--vimgrep", "retry", "."],
            with(b":1:4:fn retry_request() {}\n"),
        ),
        (
            &["--no-heading", "retry", "."],
            with(b":1:fn retry_request() {}\n"),
        ),
        (&["--files-without-match", "nothing", "."], with(b"\n")),
        (&["--files", "."], with(b"\n")),
        (&["-c", "--include-zero", "nothing", "."], with(b":0\n")),
    ];
    for (args, expected) in cases {
        let run = d.run(args);
        assert!(
            run.raw_stdout
                .windows(expected.len())
                .any(|w| w == expected.as_slice()),
            "{}",
            run.describe
        );
    }
    // Named on the command line, alone (`-H`), and searched with the model's
    // path too: the same bytes.
    let mut one = d.cmd();
    one.arg("-H")
        .arg("--no-heading")
        .arg("retry")
        .arg(std::ffi::OsStr::from_bytes(b"d\xfe/a\xffb.rs"));
    let run = crate::harness::finish(&mut one, &["-H", "retry", "<file>"], d.path());
    assert_eq!(
        run.raw_stdout,
        with(b":1:fn retry_request() {}\n"),
        "{}",
        run.describe
    );
    let json = d.run(&["--json", "retry", "."]);
    let begin: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap_or_default()).unwrap();
    // base64 of `./d\xfe/a\xffb.rs`, as `rg --json` writes it.
    assert_eq!(
        begin["data"]["path"],
        serde_json::json!({"bytes": "Li9k/i9h/2IucnM="}),
        "{}",
        json.describe
    );
}

#[test]
fn a_file_of_only_newlines() {
    let d = Dir::new();
    d.write("blank.txt", "\n".repeat(10_000));
    d.run(&["needle", "."]).code(1).stdout_is("");
    d.run(&["where is the needle handled", "."])
        .code(1)
        .stdout_is("");
    d.write("real.txt", "the needle\n");
    d.run(&["needle", "."])
        .code(0)
        .stdout_is("./real.txt\n1:\tthe needle\n");
}

#[test]
fn cr_only_line_endings_split_lines_as_rlmgrep_does() {
    // Old Mac endings: rlmgrep (Python's splitlines) sees three lines, and line
    // numbers must agree with it for a model's claims to verify.
    let d = Dir::new();
    d.write("mac.txt", "first line\rthe needle here\rlast line\r");
    d.run(&["\"needle here\"", "."])
        .code(0)
        .stdout_is("./mac.txt\n2:\tthe needle here\n");
    d.run(&["where is the needle", "."])
        .code(0)
        .stdout_is("./mac.txt\n2:\tthe needle here\n");
}

#[cfg(unix)]
#[test]
fn dangling_symlinks_are_skipped_when_walking_and_reported_when_named() {
    let d = Dir::new();
    d.write("real.txt", "needle\n");
    std::os::unix::fs::symlink("nowhere.txt", d.path().join("dangling.txt")).unwrap();
    d.run(&["needle", "."])
        .code(0)
        .stdout_is("./real.txt\n1:\tneedle\n")
        .stderr_lacks("dangling");
    d.run(&["needle", "dangling.txt", "real.txt"])
        .code(2)
        .stdout_is("./real.txt\n1:\tneedle\n")
        .stderr_has("dangling.txt");
}

#[cfg(unix)]
#[test]
fn unreadable_directory_is_reported_and_the_rest_searched() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    d.write("locked/inside.txt", "needle inside\n");
    d.write("open.txt", "needle open\n");
    let Some(mut cmd) = unprivileged_cmd(&d) else {
        eprintln!("skipping: running as root without setpriv");
        return;
    };
    let locked = d.path().join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    cmd.args(["needle", "."]);
    let run = crate::harness::finish(&mut cmd, &["needle", "."], d.path());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    run.code(2)
        .stdout_is("./open.txt\n1:\tneedle open\n")
        .stderr_has("locked")
        .stderr_lacks("panicked");
}

#[cfg(unix)]
#[test]
fn a_device_named_as_a_path_does_not_hang() {
    let d = Dir::new();
    d.write("a.txt", "needle\n");
    // A device other than the null device is skipped with a note.
    d.run(&["needle", "/dev/zero", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n1:\tneedle\n")
        .stderr_has("/dev/zero: not a regular file, skipped");
    d.run(&["needle", "/dev/zero"])
        .code(2)
        .stdout_is("")
        .stderr_has("no readable files");
}

/// `grep PAT /dev/null FILES` (a path on every line, even for one file):
/// the null device is searched as rg searches it, an empty stream, with no
/// note; alone, it matches nothing (exit 1), as `rg PAT /dev/null`.
#[test]
fn the_null_device_is_searched_as_empty_as_in_rg() {
    let d = Dir::new();
    d.write("a.txt", "needle\n");
    for query in ["needle", "where is the needle"] {
        let run = d.run(&[query, "/dev/null", "a.txt"]);
        run.code(0).stdout_is("./a.txt\n1:\tneedle\n");
        assert!(!run.stderr.contains("/dev/null"), "{}", run.stderr);
        let alone = d.run(&[query, "/dev/null"]);
        alone.code(1).stdout_is("");
        assert!(
            !alone.stderr.contains("no readable files"),
            "{}",
            alone.stderr
        );
    }
    d.run(&["--json", "needle", "/dev/null"]).code(1);
}

#[test]
fn a_path_given_twice_is_searched_once() {
    let d = Dir::new();
    d.write("a.txt", "needle\n");
    let once = "./a.txt\n1:\tneedle\n";
    d.run(&["needle", "a.txt", "a.txt"]).code(0).stdout_is(once);
    d.run(&["needle", ".", "a.txt", "./a.txt"])
        .code(0)
        .stdout_is(once);
    d.run(&["where is the needle", "a.txt", "a.txt"])
        .code(0)
        .stdout_is(once);
}

#[test]
fn a_directory_in_paths_from_stdin() {
    let d = Dir::new();
    d.write("src/inner.txt", "needle inner\n");
    d.write("top.txt", "needle top\n");
    // A directory listed is walked, as a directory argument would be.
    d.run_stdin(&["--paths-from-stdin", "needle"], "src\ntop.txt\n")
        .code(0)
        .stdout_has("./top.txt\n1:\tneedle top\n")
        .stdout_has("./src/inner.txt\n1:\tneedle inner\n");
}

#[test]
fn a_hundred_thousand_tiny_files() {
    const DIRS: usize = 100;
    const PER_DIR: usize = 1_000;
    // On a shared disk, creating and deleting 100k files can take minutes;
    // in memory it takes a second or two.
    let shm = std::path::Path::new("/dev/shm");
    let d = Dir {
        root: if shm.is_dir() {
            tempfile::tempdir_in(shm).expect("tempdir in /dev/shm")
        } else {
            tempfile::tempdir().expect("tempdir")
        },
        home: tempfile::tempdir().expect("home tempdir"),
    };
    for i in 0..DIRS {
        let dir = d.path().join(format!("d{i:03}"));
        std::fs::create_dir(&dir).unwrap();
        for j in 0..PER_DIR {
            std::fs::write(dir.join(format!("f{j:04}.txt")), format!("value {j}\n")).unwrap();
        }
    }
    d.write("d042/target.txt", "the unique_needle_42 is here\n");
    let started = std::time::Instant::now();
    d.run(&["unique_needle_42", "."])
        .code(0)
        .stdout_is("./d042/target.txt\n1:\tthe unique_needle_42 is here\n");
    let run = d.run(&["where is the unique needle", "."]);
    run.code(0).stdout_has("./d042/target.txt\n");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "two searches of 100k files took {:?}",
        started.elapsed()
    );
}

/// Linux refuses a single argument longer than this (MAX_ARG_STRLEN); a longer
/// query cannot reach kgrep through argv at all, so the library test in
/// `query.rs` covers the 1 MB one.
const LONGEST_ARG: usize = 128 * 1024 - 1;

#[test]
fn a_query_as_long_as_argv_allows() {
    let d = Dir::new();
    d.write("a.txt", "retry the request with backoff\n");
    let mut query = String::new();
    let words = ["retry", "backoff", "zebra", "quantum", "lorem", "ipsum"];
    let mut i = 0;
    while query.len() + 12 < LONGEST_ARG {
        query.push_str(words[i % words.len()]);
        query.push(' ');
        i += 1;
    }
    let started = std::time::Instant::now();
    let run = d.run(&[&query, "."]);
    run.code(0)
        .stdout_is("./a.txt\n1:\tretry the request with backoff\n");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

/// A long dotted name is one identifier of many parts: its spellings were
/// each given whole to an automaton whose build is quadratic in a repetitive
/// pattern, so `retry.` typed 1,666 times took half a minute.
#[test]
fn a_ten_thousand_byte_dotted_query_is_fast() {
    let d = Dir::new();
    d.write("a.py", "def retry(attempt):\n    return attempt\n");
    let query = "retry.".repeat(1_666);
    let args = [query.as_str(), "."];
    let run = crate::harness::finish(
        d.cmd()
            .args(args)
            .timeout(std::time::Duration::from_secs(10)),
        &args,
        d.path(),
    );
    run.code(0).stdout_is("./a.py\n1:\tdef retry(attempt):\n");
}

/// The notes on how a query was read quote its start, not all of it: a
/// 10,000-byte query of stop words, or of one word, filled stderr twice over.
#[test]
fn a_long_query_is_not_echoed_whole_in_a_note() {
    let d = Dir::new();
    for name in ["a.py", "b.py", "c.py"] {
        d.write(
            name,
            "retry = 1\nretry = 2\nretry = 3\nretry = 4\nretry = 5\n".repeat(8),
        );
    }
    let stop_words = "what is the ".repeat(834);
    let one_word = "retry.".repeat(1_666);
    for (query, note) in [
        (stop_words.as_str(), "has no word to search for"),
        (one_word.as_str(), "was read as natural language"),
    ] {
        let args = [query, "."];
        let run = d.run(&args);
        run.stderr_has(note);
        assert!(
            run.stderr.len() < 1_000,
            "{} bytes of stderr\n{}",
            run.stderr.len(),
            run.stderr
        );
    }
}

#[test]
fn a_query_of_only_stop_words_is_searched_as_written() {
    let d = Dir::new();
    d.write("a.txt", "where is the\nnothing else\n");
    d.write("b.txt", "unrelated\n");
    d.run(&["where is the", "."])
        .code(0)
        .stdout_is("./a.txt\n1:\twhere is the\n");
    d.run(&["what is it", "."]).code(1).stdout_is("");
}

#[test]
fn control_characters_in_the_query() {
    let d = Dir::new();
    d.write("a.txt", "needle\n");
    for query in [
        "needle\u{1b}[31m",
        "\u{7}\u{8}\u{1}",
        "needle\r\n",
        "\t\u{b}\u{c}",
    ] {
        let run = d.run(&[query, "."]);
        if query.trim().is_empty() {
            // Whitespace only: a usage error, as an empty query is.
            run.code(2).stderr_has("kgrep: blank pattern");
        }
        assert!(matches!(run.code, 0..=2), "{}", run.describe);
        run.stderr_lacks("panicked");
        assert!(!run.stdout.contains('\u{1b}'), "{}", run.describe);
    }
    d.run(&["needle\r\n", "."])
        .code(0)
        .stdout_is("./a.txt\n1:\tneedle\n");
}

#[test]
fn a_regex_that_would_blow_up_is_fast_or_refused() {
    let d = Dir::new();
    d.write("a.txt", format!("{}!\n", "x".repeat(5_000)));
    let started = std::time::Instant::now();
    // Catastrophic backtracking elsewhere; linear time in a finite automaton.
    d.run(&["(x+x+)+y", "."]).code(1).stdout_is("");
    d.run(&["^(a|aa)*$", "."]).code(1).stdout_is("");
    // Too big to compile: not a regex then, and no crash.
    d.run(&["x{1000}{1000}{1000}", "."])
        .code(1)
        .stdout_is("")
        .stderr_lacks("panicked");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn missing_paths_among_real_ones_exit_2_with_results() {
    let d = Dir::new();
    d.write("a.txt", "needle\n");
    d.run(&["needle", "nope.txt", "a.txt", "nodir/"])
        .code(2)
        .stdout_is("./a.txt\n1:\tneedle\n")
        .stderr_has("nope.txt: No such file or directory")
        .stderr_has("nodir");
    d.run(&["where is the needle", "nope.txt", "a.txt"])
        .code(2)
        .stdout_is("./a.txt\n1:\tneedle\n")
        .stderr_has("nope.txt");
}

#[test]
fn a_file_named_as_a_folder_is_not_a_directory() {
    // `a.txt/` names a folder: the system and rg refuse it (ENOTDIR); it
    // was read as `a.txt` (exit 0).
    let d = Dir::new();
    d.write("a.txt", "needle\n");
    d.write("b.txt", "needle\n");
    for path in ["a.txt/", "a.txt/."] {
        d.run(&["needle", path, "b.txt"])
            .code(2)
            .stdout_is("./b.txt\n1:\tneedle\n")
            .stderr_has(&format!("{path}: Not a directory"));
    }
}

/// Runs `args` and kills kgrep if it is still running after `limit`.
fn run_within(d: &Dir, args: &[&str], limit: std::time::Duration) -> std::process::Output {
    let mut child = d
        .std_cmd()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            let _ = child.wait();
            panic!(
                "kgrep {:?} still ran after {limit:?}",
                &args[..args.len().min(1)]
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_huge_query_word_answers_quickly() {
    // Matching time grew with the square of a word's length: 20,000 bytes took
    // about 20 s in a release build. A word that long can never be a code word.
    let d = Dir::new();
    d.write("a.py", "def hello():\n    return 'world'\n");
    let word = "a".repeat(100_000);
    let spaced = format!("where is {} handled", "b".repeat(100_000));
    for query in [word.as_str(), spaced.as_str()] {
        let out = run_within(&d, &[query, "a.py"], std::time::Duration::from_secs(10));
        assert_eq!(out.status.code(), Some(1));
    }
}

#[test]
fn a_missing_thesaurus_named_on_the_command_line_is_an_error() {
    let d = Dir::new();
    d.write("app.py", "def retry_backoff():\n    pass\n");
    for query in ["retry backoff", "retry_backoff"] {
        d.run(&["--thesaurus", "nothere.json", query, "app.py"])
            .code(2)
            .stdout_has("./app.py\n")
            .stderr_has("kgrep: --thesaurus: cannot read thesaurus nothere.json: ")
            .stderr_lacks("skipping it");
    }
    d.write(
        "good.json",
        r#"{"name": "t", "data": {"reattempt": {"id": 1, "nterm": "retry"}}}"#,
    );
    d.run(&["--thesaurus", "good.json", "retry backoff", "app.py"])
        .code(0)
        .stderr_lacks("thesaurus");
}

#[test]
fn only_binary_files_says_so_and_how_to_search_them() {
    let d = Dir::new();
    d.write("one.bin", b"needle\0\x01");
    d.run(&["\"needle\"", "one.bin"])
        .code(2)
        .stdout_is("")
        .stderr_has("kgrep: no readable files (1 binary file skipped; -a searches it as text)\n");
    d.write("two.bin", b"\0needle");
    d.run(&["where is the needle", "."]).code(2).stderr_has(
        "kgrep: no readable files (2 binary files skipped; -a searches them as text)\n",
    );
    d.run(&["-a", "\"needle\"", "one.bin"])
        .code(0)
        .stdout_has("1:\tneedle");
    // A binary file beside a text one is skipped silently, as in rlmgrep.
    d.write("text.txt", "needle\n");
    d.run(&["\"needle\"", "."]).code(0).stderr_lacks("binary");
}

/// `-E none` searches a UTF-16 file's bytes (byte-order mark and NULs
/// included) on stdin and in a file, as `rg -E none` does: the decoded text
/// (`foo`) is not there to find (kgrep's searcher still decoded the marked
/// bytes, and found it), and `f.o+.o` finds the raw line, printed as its
/// bytes. The expected lines are rg 13's: `rg -E none -a -n -H --no-heading
/// f.o+.o le.txt` and the same with `< le.txt` (`<stdin>:2:…`); `rg -E none
/// -a -F foo`, on both, exits 1 with nothing printed.
#[test]
fn encoding_none_searches_utf16_bytes_as_rg() {
    let d = Dir::new();
    let wide = utf16("hello\nfoo bar\n", true);
    d.write("le.txt", &wide);
    let rg_file = b"le.txt:2:\0f\0o\0o\0 \0b\0a\0r\0\n";
    let rg_stdin = b"<stdin>:2:\0f\0o\0o\0 \0b\0a\0r\0\n";
    let flags = ["-E", "none", "-a", "--no-heading"];
    let file = d.run(&[&flags[..], &["-e", "f.o+.o", "le.txt"]].concat());
    file.code(0);
    assert_eq!(
        file.raw_stdout,
        [&b"./"[..], rg_file].concat(),
        "{}",
        file.describe
    );
    let piped = d.run_stdin(&[&flags[..], &["-e", "f.o+.o"]].concat(), wide.clone());
    piped.code(0);
    assert_eq!(
        piped.raw_stdout,
        [&b"./"[..], rg_stdin].concat(),
        "{}",
        piped.describe
    );
    d.run(&[&flags[..], &["-F", "foo", "le.txt"]].concat())
        .code(1)
        .stdout_is("");
    d.run_stdin(&[&flags[..], &["-F", "foo"]].concat(), wide)
        .code(1)
        .stdout_is("");
}

/// A file that cannot be read (here: its `--pre` command fails, which rg
/// counts as an error too) is named in its message as rg names it: the path
/// argument as spelt joined with the path below it (`./odd.pdf` under `.`,
/// `sub/odd.pdf` under `sub`), and with no path argument as the walk found
/// it (`odd.pdf`, as rg then names it). The run exits 2 in every mode, even
/// with matches elsewhere, but 0 under `-q` once a line matched, as rg's does.
#[cfg(unix)]
#[test]
fn a_file_that_cannot_be_read_is_named_as_rg_names_it_and_exits_2() {
    let d = Dir::new();
    d.write("notes.txt", "needle notes\n");
    d.write("odd.pdf", "needle in a pdf\n");
    d.write("sub/odd.pdf", "needle in a pdf\n");
    let pre = ["--pre", "false", "--pre-glob", "*.pdf"];
    let failed =
        |name: &str| format!("kgrep: {name}: false failed (exit status: 1): <stderr is empty>\n");
    for mode in [&[][..], &["-l"], &["-c"], &["--json"], &["--count-matches"]] {
        let args = [&pre[..], mode, &["needle", "."]].concat();
        d.run(&args)
            .code(2)
            .stdout_has("notes.txt")
            .stderr_has(&failed("./odd.pdf"))
            .stderr_has(&failed("./sub/odd.pdf"));
    }
    d.run(&[&pre[..], &["-q", "needle", "."]].concat())
        .code(0)
        .stderr_has(&failed("./odd.pdf"));
    d.run(&[&pre[..], &["-q", "nothing", "."]].concat())
        .code(2)
        .stderr_has(&failed("./odd.pdf"));
    d.run(&[&pre[..], &["needle", "sub", "notes.txt"]].concat())
        .code(2)
        .stdout_has("notes.txt")
        .stderr_has(&failed("sub/odd.pdf"));
    // No path (stdin not a pipe): the tree under the working directory.
    d.run_devnull(&[&pre[..], &["needle"]].concat())
        .code(2)
        .stderr_has(&failed("odd.pdf"))
        .stderr_lacks("./odd.pdf");
}
