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
    for j in ["1", "3"] {
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
