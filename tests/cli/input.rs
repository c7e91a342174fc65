//! Input selection: paths, stdin, --paths-from-stdin, ignore rules, globs, types.

use crate::harness::Dir;

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

#[test]
fn no_path_and_closed_stdin_searches_the_current_directory() {
    // An empty pipe is still a pipe: searched as <stdin>, like ripgrep.
    corpus().run(&["MAX_RETRIES"]).code(1).stdout_is("");
    let d = corpus();
    d.run_devnull(&["MAX_RETRIES"])
        .code(0)
        .stdout_has("./src/net/client.rs")
        .stderr_has("kgrep: Scanned ");
}

#[test]
fn piped_stdin_is_the_corpus() {
    let d = corpus();
    let run = d.run_stdin(&["database"], "alpha\nbeta database\ngamma\n");
    run.code(0).stdout_is("./<stdin>\n2:\tbeta database\n");
    assert!(
        !run.stderr.contains("Scanned"),
        "no summary for stdin\n{}",
        run.describe
    );
    d.run_stdin(&["database"], "nothing here\n")
        .code(1)
        .stdout_is("");
}

#[test]
fn piped_stdin_is_ignored_when_paths_are_given() {
    let d = corpus();
    d.run_stdin(&["DATABASE_URL", "src/config"], "DATABASE_URL\n")
        .code(0)
        .stdout_has("./src/config/loader.go")
        .stdout_lacks("<stdin>");
}

/// `-` as the path is stdin, as in rg and grep (`git diff | kgrep q -`):
/// it was a missing file. Beside other paths it is refused with a sentence,
/// and a file named `-` is still `./-`.
#[test]
fn a_dash_path_is_stdin_as_in_rg() {
    let d = corpus();
    d.run_stdin(&["database", "-"], "alpha\nbeta database\n")
        .code(0)
        .stdout_is("./<stdin>\n2:\tbeta database\n");
    d.run_stdin(&["-c", "-F", "database", "-"], "database\ndatabase\n")
        .code(0)
        .stdout_is("./<stdin>:2\n");
    d.run_devnull(&["DATABASE_URL", "-"]).code(1).stdout_is("");
    d.run_stdin(&["DATABASE_URL", "-", "src/config"], "DATABASE_URL\n")
        .code(2)
        .stdout_is("")
        .stderr_has("'-' (stdin) is searched only as the sole path");
    d.write("-", "DATABASE_URL in a file named dash\n");
    d.run_stdin(&["-F", "DATABASE_URL", "./-"], "")
        .code(0)
        .stdout_has("named dash");
}

#[test]
fn paths_from_stdin() {
    let d = corpus();
    let run = d.run_stdin(
        &["--paths-from-stdin", "MAX_RETRIES"],
        "src/net/client.rs\n\n  docs/usage.md  \n",
    );
    run.code(0)
        .stdout_has("./src/net/client.rs")
        .stderr_has("Scanned 2 files");
    d.run_stdin(&["--paths-from-stdin", "x"], "\n  \n")
        .code(2)
        .stderr_has("kgrep: stdin contained no file paths");
}

#[test]
fn paths_from_stdin_searches_the_path_arguments_too() {
    // Issue 28, item 6: the argument was silently dropped.
    let d = Dir::new();
    d.write("a.py", "TOKEN = 1\n");
    d.write("b.py", "TOKEN = 2\n");
    d.write("c.py", "TOKEN = 3\n");
    d.run_stdin(&["--paths-from-stdin", "TOKEN", "b.py"], "a.py\n")
        .code(0)
        .stdout_is("./a.py\n1:\tTOKEN = 1\n\n./b.py\n1:\tTOKEN = 2\n")
        .stderr_has("Scanned 2 files");
    // An empty list with arguments: the arguments are the search.
    d.run_stdin(&["--paths-from-stdin", "TOKEN", "c.py"], "")
        .code(0)
        .stdout_is("./c.py\n1:\tTOKEN = 3\n");
}

#[test]
fn paths_from_stdin_reads_a_nul_separated_list_with_null() {
    // `rg -l0 … | kgrep --paths-from-stdin -0 …`: names with a newline or
    // surrounding spaces come through whole.
    let d = Dir::new();
    d.write("odd\nname.py", "TOKEN = 1\n");
    d.write(" spaced.py", "TOKEN = 2\n");
    d.write("plain.py", "TOKEN = 3\n");
    let run = d.run_stdin(
        &["--paths-from-stdin", "-0", "TOKEN"],
        &b"odd\nname.py\0 spaced.py\0\0plain.py\0"[..],
    );
    run.code(0).stderr_has("Scanned 3 files. Loaded 3.");
    assert_eq!(
        run.stdout.matches(":\tTOKEN = ").count(),
        3,
        "{}",
        run.describe
    );
    d.run_stdin(&["--paths-from-stdin", "--null", "TOKEN"], "plain.py")
        .code(0)
        .stdout_is("./plain.py\n1:\tTOKEN = 3\n");
    // Both ways at once: `kgrep -l0 … | kgrep --paths-from-stdin -0 …`.
    let listed = d.run(&["-l0", "\"TOKEN = 1\"", "."]);
    listed.code(0).stdout_is("./odd\nname.py\0");
    d.run_stdin(
        &["--paths-from-stdin", "-0", "TOKEN"],
        listed.stdout.as_bytes(),
    )
    .code(0)
    .stdout_is("./odd\nname.py\n1:\tTOKEN = 1\n");
}

#[test]
fn missing_path_is_reported_and_the_rest_searched() {
    let d = corpus();
    let run = d.run(&["MAX_RETRIES", "nope", "src"]);
    run.code(2)
        .stdout_has("./src/net/client.rs")
        .stderr_has("nope");
    d.run(&["MAX_RETRIES", "nope/"]).code(2).stdout_is("");
}

#[test]
fn ignored_and_hidden_files() {
    let d = corpus();
    d.write(".hidden/notes.txt", "retryWithBackoff hidden\n");
    d.run(&["retryWithBackoff", "."]).code(1);
    d.run(&["--no-ignore", "retryWithBackoff", "."])
        .code(0)
        .stdout_has("./vendor/generated.js")
        .stdout_lacks(".hidden");
    d.run(&["--hidden", "retryWithBackoff", "."])
        .code(0)
        .stdout_has(".hidden/notes.txt")
        .stdout_lacks("vendor");
    d.run(&["retryWithBackoff", "vendor/generated.js"])
        .code(0)
        .stdout_has("./vendor/generated.js");
}

#[test]
fn no_recursive_skips_directories() {
    let d = corpus();
    d.run(&["--no-recursive", "MAX_RETRIES", "src"])
        .code(2)
        .stdout_is("");
    d.run(&["--no-recursive", "MAX_RETRIES", "src/net/client.rs"])
        .code(0)
        .stdout_has("./src/net/client.rs");
}

#[test]
fn globs_and_types() {
    let d = corpus();
    let run = d.run(&["-g", "*.go", "DATABASE_URL", "."]);
    run.code(0)
        .stdout_has("./src/config/loader.go")
        .stdout_lacks("usage.md");
    let run = d.run(&["-g", "*.go,*.md", "DATABASE_URL", "."]);
    run.code(0).stdout_has("loader.go").stdout_has("usage.md");
    let run = d.run(&["-g", "!*.md", "DATABASE_URL", "."]);
    run.code(0).stdout_has("loader.go").stdout_lacks("usage.md");
    let run = d.run(&["--type", "go", "DATABASE_URL", "."]);
    run.code(0).stdout_has("loader.go").stdout_lacks("usage.md");
    let run = d.run(&["--type", "py,rust", "--type", "md", "retry", "."]);
    run.code(0).stdout_lacks("loader.go");
    let run = d.run(&["--type", "nosuch", "retry", "."]);
    run.code(2)
        .stderr_has("unknown type 'nosuch'")
        .stderr_has("no readable files");
}

#[test]
fn paths_print_relative_with_dot_slash() {
    let d = corpus();
    d.run(&["MAX_RETRIES", "./src"])
        .stdout_has("./src/net/client.rs\n");
    let abs = d.path().join("src").display().to_string();
    let run = d.run(&["MAX_RETRIES", &abs]);
    run.code(0).stdout_has("./src/net/client.rs\n");
}

#[test]
fn a_path_given_twice_is_searched_once() {
    let d = corpus();
    let run = d.run(&["MAX_RETRIES", "src", "src/net/client.rs"]);
    assert_eq!(
        run.stdout.matches("./src/net/client.rs").count(),
        1,
        "{}",
        run.describe
    );
}

#[test]
fn a_dotted_type_is_an_extension() {
    // rlmgrep accepts `--type .py`; ripgrep's type names have no dot.
    let d = Dir::new();
    d.write("app.py", "retry = 1\n");
    d.write("stub.pyi", "retry = 2\n");
    d.write("notes.md", "retry\n");
    d.run(&["--type", ".py", "retry", "."])
        .code(0)
        .stdout_is("./app.py\n1:\tretry = 1\n")
        .stderr_lacks("unknown type")
        .stderr_lacks("invalid definition");
}

/// `-z`: compressed files are searched as `rg -z` searches them, gzip
/// in-process and the rest through rg's programs on PATH (here stand-ins: an
/// `xz` that prints its input, a `zstd` that fails, no `lz4` at all). A file
/// that cannot be decompressed is one line on stderr and exit 2; the others
/// still print.
#[test]
fn search_zip_reads_compressed_files_as_rg_z_does() {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    d.write("notes.txt", "plain retry\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"start\r\nretry failed after 3 attempts\n")
        .unwrap();
    d.write("app.log.gz", gz.finish().unwrap());
    d.write("old.txz", "xz says retry\n");
    d.write("broken.zst", "not zstd");
    d.write("lost.lz4", "not lz4");
    let bin = tempfile::tempdir().unwrap();
    for (name, script) in [
        ("xz", "#!/bin/sh\nexec /bin/cat\n"),
        (
            "zstd",
            "#!/bin/sh\necho 'zstd: not in zstd format' >&2\nexit 1\n",
        ),
    ] {
        let path = bin.path().join(name);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let run = |args: &[&str]| {
        let mut cmd = d.cmd();
        cmd.env("PATH", bin.path()).args(args);
        crate::harness::finish(&mut cmd, args, d.path())
    };
    // Without -z a compressed file is binary: skipped, as rg skips it.
    run(&["--no-heading", "-s", "-F", "retry", "."])
        .code(0)
        .stdout_is("./notes.txt:1:plain retry\n./old.txz:1:xz says retry\n");
    run(&["-z", "--no-heading", "-s", "-b", "-F", "retry", "."])
        .code(2)
        .stdout_is(
            "./app.log.gz:2:7:retry failed after 3 attempts\n./notes.txt:1:0:plain retry\n\
             ./old.txz:1:0:xz says retry\n",
        )
        // Named under `.` as rg names them (`./broken.zst`).
        .stderr_has("kgrep: ./broken.zst: zstd failed (exit status: 1): zstd: not in zstd format\n")
        .stderr_has("kgrep: ./lost.lz4: lz4: No such file or directory");
    // Natural language ranks what the files hold.
    run(&[
        "-z",
        "-l",
        "why did the retry fail",
        "app.log.gz",
        "notes.txt",
    ])
    .code(0)
    .stdout_is("./app.log.gz\n");
    // A gzip file that is not gzip is an error too; -c counts the rest.
    d.write("bad.gz", "garbage");
    run(&["-z", "-c", "-s", "-F", "retry", "bad.gz", "app.log.gz"])
        .code(2)
        .stdout_is("./app.log.gz:1\n")
        .stderr_has("kgrep: bad.gz: gzip: ");
}

/// `--pre`: each file is searched as what `COMMAND FILE` prints (the file on
/// its stdin), as `rg --pre` searches it; `--pre-glob` picks the files it
/// runs for, the others are read as they are (and decompressed by `-z`).
#[test]
fn pre_searches_what_a_command_prints_for_each_file_as_rg_pre_does() {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    d.write("notes.txt", "lower foo\n");
    d.write("shout.up", "shout foo\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"zipped foo\n").unwrap();
    d.write("old.gz", gz.finish().unwrap());
    let bin = tempfile::tempdir().unwrap();
    let script = bin.path().join("pre.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ncase \"$1\" in\n*.up) /usr/bin/tr a-z A-Z ;;\n*) echo \"[${1##*/}]\"; /bin/cat ;;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let pre = script.to_str().unwrap();
    // Every file through it: the name it was given, then its text.
    d.run(&[
        "--pre",
        pre,
        "--no-heading",
        "-s",
        "-F",
        "[",
        "notes.txt",
        "shout.up",
    ])
    .code(0)
    .stdout_is("./notes.txt:1:[notes.txt]\n");
    d.run(&["--pre", pre, "--no-heading", "-s", "-F", "FOO", "."])
        .code(0)
        .stdout_is("./shout.up:1:SHOUT FOO\n");
    // --pre-glob: only *.up goes through it; with -z the rest decompresses.
    d.run(&[
        "--pre",
        pre,
        "--pre-glob",
        "*.up",
        "-z",
        "--no-heading",
        "-s",
        "-F",
        "foo",
        ".",
    ])
    .code(0)
    .stdout_is("./notes.txt:1:lower foo\n./old.gz:1:zipped foo\n");
    // --no-pre after it, or an empty command, turns it off.
    for off in [&["--pre", pre, "--no-pre"][..], &["--pre="]] {
        let mut args = off.to_vec();
        args.extend(["--no-heading", "-s", "-F", "foo", "notes.txt", "shout.up"]);
        d.run(&args)
            .code(0)
            .stdout_is("./notes.txt:1:lower foo\n./shout.up:1:shout foo\n");
    }
    // Piped stdin is never preprocessed.
    d.run_stdin(&["--pre", pre, "-F", "foo"], "piped foo\n")
        .code(0)
        .stdout_has("1:\tpiped foo\n");
    // A bad glob is a usage error; a command that cannot run, one line a file.
    d.run(&["--pre", pre, "--pre-glob", "{a", "-F", "foo", "."])
        .code(2)
        .stdout_is("")
        .stderr_has("kgrep: --pre-glob: error parsing glob '{a'");
    d.run(&["--pre", "/nonexistent/pre", "-F", "foo", "notes.txt"])
        .code(2)
        .stderr_has("kgrep: notes.txt: /nonexistent/pre: No such file or directory");
}
