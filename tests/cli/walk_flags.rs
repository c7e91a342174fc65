//! ripgrep's walk flags beside rlmgrep's: `-t`/`-T`, `-u` (`-uu`, `-uuu`), `-L` and
//! `--max-depth`. Each is checked against what `rg` lists for the same flags.

use crate::harness::Dir;

/// The corpus fixture (its `.gitignore` leaves out `vendor/`), plus a hidden
/// file and a binary file that hold the word too.
fn tree() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d.write(".hidden/notes.txt", "retry later\n");
    d.write("data.bin", b"retry\0\x01\x02");
    d
}

fn listed(d: &Dir, args: &[&str]) -> Vec<String> {
    let mut all = vec!["-l"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["\"retry\"", "."]);
    let mut out = d.run(&all).headings();
    out.sort();
    out
}

#[test]
fn type_not_leaves_a_type_out_and_t_is_type() {
    let d = tree();
    assert_eq!(
        listed(&d, &["-T", "py"]),
        ["./src/net/client.rs"],
        "all but the Python test"
    );
    assert_eq!(listed(&d, &["--type-not", "py,rust"]), Vec::<String>::new());
    assert_eq!(listed(&d, &["-t", "py"]), ["./tests/test_client.py"]);
    assert_eq!(listed(&d, &["-t", "py"]), listed(&d, &["--type", "py"]));
    // An extension is left out as --type selects one.
    assert_eq!(listed(&d, &["-T", ".rs"]), ["./tests/test_client.py"]);
}

#[test]
fn unrestricted_lifts_ignore_then_hidden_then_binary_rules() {
    let d = tree();
    let base = ["./src/net/client.rs", "./tests/test_client.py"];
    assert_eq!(listed(&d, &[]), base);
    let ignored = [
        "./src/net/client.rs",
        "./tests/test_client.py",
        "./vendor/generated.js",
    ];
    assert_eq!(listed(&d, &["-u"]), ignored);
    assert_eq!(listed(&d, &["--unrestricted"]), ignored);
    // A key starting with `.` takes no `./` (rlmgrep's heading rule).
    let hidden = [
        "./src/net/client.rs",
        "./tests/test_client.py",
        "./vendor/generated.js",
        ".hidden/notes.txt",
    ];
    assert_eq!(listed(&d, &["-uu"]), hidden);
    assert_eq!(listed(&d, &["-u", "-u"]), hidden);
    let binary = [
        "./data.bin",
        "./src/net/client.rs",
        "./tests/test_client.py",
        "./vendor/generated.js",
        ".hidden/notes.txt",
    ];
    assert_eq!(listed(&d, &["-uuu"]), binary);
}

#[test]
fn max_depth_limits_how_far_below_each_path_the_walk_goes() {
    let d = tree();
    d.write("top.txt", "retry\n");
    assert_eq!(listed(&d, &["--max-depth", "1"]), ["./top.txt"]);
    assert_eq!(
        listed(&d, &["-d", "2"]),
        ["./tests/test_client.py", "./top.txt"]
    );
    // Depth 0 is the paths themselves: a directory yields no file (which is
    // kgrep's error, as for an empty folder), a file named on the command
    // line is still searched.
    d.run(&["-l", "-d", "0", "\"retry\"", "."])
        .code(2)
        .stdout_is("")
        .stderr_has("no readable files");
    d.run(&["-l", "-d", "0", "\"retry\"", "top.txt"])
        .code(0)
        .stdout_is("./top.txt\n");
}

#[test]
fn files_lists_what_would_be_searched_and_searches_nothing() {
    let d = tree();
    // `rg --files`, with kgrep's headings; the pattern slot is a path.
    let listed = "./crlf.txt\n./data.bin\n./docs/usage.md\n./src/auth/jwt.py\n\
                  ./src/config/loader.go\n./src/net/client.rs\n./tests/test_client.py\n";
    let run = d.run(&["--files"]);
    run.code(0).stdout_is(listed);
    assert_eq!(
        run.stderr, "",
        "nothing is searched, so nothing is summed up"
    );
    d.run_stdin(&["--files"], "piped text is not listed")
        .code(0)
        .stdout_is(listed);
    d.run(&["--files", "src", "-t", "rust"])
        .code(0)
        .stdout_is("./src/net/client.rs\n");
    d.run(&["--files", "-T", "py", "-d", "1"])
        .code(0)
        .stdout_is("./crlf.txt\n./data.bin\n");
    d.run(&["--files", "-uu", "vendor", ".hidden"])
        .code(0)
        .stdout_is("./vendor/generated.js\n.hidden/notes.txt\n");
    d.run(&["--files", "src", "nope"])
        .code(2)
        .stdout_has("./src/net/client.rs\n")
        .stderr_has("nope: No such file or directory");
    d.run(&["--files", "-q"]).code(0).stdout_is("");
    let empty = Dir::new();
    empty.run(&["--files"]).code(1).stdout_is("");
    empty.run(&["--files", "-q"]).code(1).stdout_is("");
    d.run(&["--files", "--json"]).code(2).stdout_is("");
}

#[cfg(unix)]
#[test]
fn follow_walks_into_symlinked_directories_and_reports_a_loop() {
    let d = Dir::new();
    d.write("real/a.txt", "needle here\n");
    std::fs::create_dir(d.path().join("tree")).unwrap();
    std::os::unix::fs::symlink("../real", d.path().join("tree/link")).unwrap();
    // Not followed by default: nothing to search under `tree`.
    d.run(&["-l", "\"needle\"", "tree"]).code(2).stdout_is("");
    // `rg -L -l needle tree`.
    for flag in ["-L", "--follow"] {
        d.run(&[flag, "-l", "\"needle\"", "tree"])
            .code(0)
            .stdout_is("./tree/link/a.txt\n");
    }
    // A loop is an error (exit 2, as rg's), never entered; the match prints.
    std::os::unix::fs::symlink("../tree", d.path().join("tree/loop")).unwrap();
    d.run(&["-L", "-l", "\"needle\"", "tree"])
        .code(2)
        .stdout_is("./tree/link/a.txt\n")
        .stderr_has("File system loop found");
}

#[test]
fn threads_change_how_many_work_not_what_is_found() {
    let d = tree();
    let question = "how does the client retry with backoff";
    let default = d.run(&[question, "."]);
    default.code(0);
    // Far more threads than files (capped for the walk: `plan::MAX_THREADS`).
    for j in ["1", "3", "2000"] {
        d.run(&["-j", j, question, "."])
            .code(0)
            .stdout_is(&default.stdout);
        d.run(&["--threads", j, "-c", "\"retry\"", "."])
            .code(0)
            .stdout_is(&d.run(&["-c", "\"retry\"", "."]).stdout);
    }
    d.run(&["-j", "many", "x", "."]).code(2);
}

#[test]
fn iglob_matches_in_any_case_and_g_in_its_own() {
    let d = tree();
    // `rg -l --iglob '*.MD' retries`; `-g '*.MD'` selects nothing.
    d.run(&["-l", "--iglob", "*.MD", "\"retries\"", "."])
        .code(0)
        .stdout_is("./docs/usage.md\n");
    d.run(&["-l", "-g", "*.MD", "\"retries\"", "."])
        .stdout_is("");
    // Negated, and beside a case-sensitive -g: both apply.
    assert_eq!(
        listed(&d, &["--iglob", "!*.PY", "-g", "!docs/"]),
        ["./src/net/client.rs"]
    );
}

#[test]
fn max_filesize_skips_larger_walked_files_but_not_named_ones() {
    let d = tree();
    // 2,006 bytes: above 1K, below 2K.
    d.write("logs/big.txt", format!("{}\nretry\n", "x".repeat(1999)));
    let base = ["./src/net/client.rs", "./tests/test_client.py"];
    let with_big = [
        "./logs/big.txt",
        "./src/net/client.rs",
        "./tests/test_client.py",
    ];
    assert_eq!(listed(&d, &[]), with_big);
    // `rg -l --max-filesize 1K retry`: client.rs (1,758 bytes) goes too.
    assert_eq!(
        listed(&d, &["--max-filesize", "1K"]),
        ["./tests/test_client.py"]
    );
    assert_eq!(listed(&d, &["--max-filesize", "2000"]), base);
    assert_eq!(listed(&d, &["--max-filesize", "2K"]), with_big);
    // A file named on the command line is searched whatever its size, as in rg.
    d.run(&["-l", "--max-filesize", "1K", "\"retry\"", "logs/big.txt"])
        .code(0)
        .stdout_is("./logs/big.txt\n");
    // A size ripgrep cannot read: one line, exit 2, nothing searched.
    d.run(&["--max-filesize", "1X", "\"retry\"", "."])
        .code(2)
        .stdout_is("")
        .stderr_has("invalid format for size '1X'");
}

#[test]
fn ignore_file_adds_rules_rooted_at_the_current_directory() {
    let d = tree();
    // Its patterns are matched from the current directory, not the file's
    // folder, and hold with --no-ignore, as `rg --ignore-file` (13.0) does.
    d.write("conf/extra-ignore", "tests/test_client.py\n");
    let args = ["--ignore-file", "conf/extra-ignore"];
    assert_eq!(listed(&d, &args), ["./src/net/client.rs"]);
    let mut lifted = args.to_vec();
    lifted.push("--no-ignore");
    assert_eq!(
        listed(&d, &lifted),
        ["./src/net/client.rs", "./vendor/generated.js"]
    );
    // A missing file is a warning: the search goes on, as in rg.
    d.run(&["-l", "--ignore-file", "nowhere", "\"retry\"", "."])
        .code(0)
        .stdout_is("./src/net/client.rs\n./tests/test_client.py\n")
        .stderr_has("nowhere: No such file or directory");
}

#[test]
fn glob_case_insensitive_no_require_git_and_one_file_system() {
    let d = tree();
    // `rg -l --glob-case-insensitive -g '*.PY' retry`: -g matches in any case.
    assert_eq!(
        listed(&d, &["--glob-case-insensitive", "-g", "*.PY"]),
        ["./tests/test_client.py"]
    );
    assert_eq!(listed(&d, &["-g", "*.PY"]), Vec::<String>::new());
    // Outside a git repository .gitignore holds only with --no-require-git.
    let plain = crate::harness::Dir::new();
    plain.write(".gitignore", "skipped.txt\n");
    plain.write("skipped.txt", "retry\n");
    plain.write("kept.txt", "retry\n");
    let files = |extra: &[&str]| {
        let mut args = vec!["--files"];
        args.extend_from_slice(extra);
        let mut out: Vec<String> = plain.run(&args).stdout.lines().map(String::from).collect();
        out.sort();
        out
    };
    assert_eq!(files(&[]), ["./kept.txt", "./skipped.txt"]);
    assert_eq!(files(&["--no-require-git"]), ["./kept.txt"]);
    // One file system: the temporary tree is on one, so nothing changes.
    assert_eq!(files(&["--one-file-system"]), files(&[]));
}

#[test]
fn no_messages_hides_file_errors_but_keeps_exit_2() {
    let d = tree();
    d.run(&["--no-messages", "\"retry\"", "nowhere", "src"])
        .code(2)
        .stdout_has("./src/net/client.rs")
        .stderr_lacks("nowhere");
    d.run(&["\"retry\"", "nowhere", "src"])
        .code(2)
        .stderr_has("nowhere");
}

#[test]
fn type_list_prints_the_names_t_takes_with_their_globs() {
    let d = tree();
    let run = d.run(&["--type-list"]);
    run.code(0)
        .stdout_has("rust: *.rs\n")
        .stdout_has("py: *.py, *.pyi\n");
    let names: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.split(':').next())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    // Every listed name is one -t accepts without a warning.
    d.run(&["-l", "-t", names[0], "\"retry\"", "."])
        .stderr_lacks("unknown type");
}

#[test]
fn type_add_and_type_clear_edit_the_type_table() {
    let d = tree();
    // `rg -l --type-add 'notes:*.md' -t notes retries`.
    d.run(&[
        "-l",
        "--type-add",
        "notes:*.md",
        "-t",
        "notes",
        "\"retries\"",
        ".",
    ])
    .code(0)
    .stdout_is("./docs/usage.md\n");
    // `include:` takes another type's globs; the listing shows the new type.
    d.run(&[
        "--type-add",
        "notes:*.md",
        "--type-add",
        "both:include:notes,py",
        "--type-list",
    ])
    .code(0)
    .stdout_has("notes: *.md\n")
    .stdout_has("both: *.md, *.py, *.pyi\n");
    // Cleared, a type selected is rg's error, exit 2: one line, before any
    // walk (it was followed by the walk's `Scanned 0 files` and "no readable
    // files").
    d.run(&["-l", "--type-clear", "py", "-t", "py", "\"retry\"", "."])
        .code(2)
        .stdout_is("")
        .stderr_is("kgrep: unrecognized file type: py\n");
    // A malformed definition: rg's message, exit 2, one line.
    d.run(&["-l", "--type-add", "notes", "\"retry\"", "."])
        .code(2)
        .stdout_is("")
        .stderr_is("kgrep: invalid definition (format is type:glob, e.g., html:*.html)\n");
}

/// A glob that does not parse is a usage error before the walk: rg's
/// message, one line, exit 2, for a question and an exact query alike.
#[test]
fn a_bad_glob_is_one_line_before_any_walk() {
    let d = tree();
    for flag in ["-g", "--iglob"] {
        for query in ["how does the client retry", "\"retry\""] {
            d.run(&[flag, "[", query, "."])
                .code(2)
                .stdout_is("")
                .stderr_is(
                    "kgrep: error parsing glob '[': unclosed character class; missing ']'\n",
                );
        }
    }
}
