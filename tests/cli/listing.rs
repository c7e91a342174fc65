//! `-l`, `-c` and `-q`: ripgrep's lists in place of the lines. The files and
//! counts are those of the grep-style output the same command prints without
//! the flag, so a script can ask for the paths and trust they are the ones a
//! reader would see.

use std::collections::BTreeMap;

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

/// A natural-language query: with `--max-lines 0` it prints lines of three
/// files of the corpus, best first (not in path order).
const QUESTION: &str = "how does the client retry with backoff";

/// Match lines per heading of a grep-style run, in print order.
fn match_counts(run: &Run) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for line in run.stdout.lines().filter(|l| !l.is_empty()) {
        match line.split_once('\t') {
            Some((number, _)) if number.ends_with(':') => {
                if let Some(last) = out.last_mut() {
                    last.1 += 1;
                }
            }
            Some(_) => {}
            None => out.push((line.to_string(), 0)),
        }
    }
    out
}

#[test]
fn files_with_matches_lists_the_printed_files_in_print_order() {
    let d = corpus();
    let lines = d.run(&["--max-lines", "0", QUESTION, "."]);
    lines.code(0);
    let headings = lines.headings();
    assert!(headings.len() >= 2, "{}", lines.stdout);
    for flag in ["-l", "--files-with-matches"] {
        let listed = d.run(&[flag, "--max-lines", "0", QUESTION, "."]);
        listed
            .code(0)
            .stdout_is(&format!("{}\n", headings.join("\n")));
    }
    // `-o` changes the lines, not which files hold one (`rg -l -o`): the
    // same list, for a question and an exact query alike.
    d.run(&["-l", "-o", "--max-lines", "0", QUESTION, "."])
        .code(0)
        .stdout_is(&format!("{}\n", headings.join("\n")));
    d.run(&["-l", "-o", "\"backoff\"", "."])
        .code(0)
        .stdout_is(&d.run(&["-l", "\"backoff\"", "."]).stdout);
}

#[test]
fn count_prints_each_files_match_lines() {
    let d = corpus();
    let lines = d.run(&["--max-lines", "0", QUESTION, "."]);
    let expected: String = match_counts(&lines)
        .iter()
        .map(|(path, n)| format!("{path}:{n}\n"))
        .collect();
    assert!(!expected.is_empty());
    for flag in ["-c", "--count"] {
        d.run(&[flag, "--max-lines", "0", QUESTION, "."])
            .code(0)
            .stdout_is(&expected);
    }
}

/// A quoted literal: every line holding it, as grep prints them.
const LITERAL: &str = "\"backoff\"";

#[test]
fn an_exact_query_lists_every_file_that_holds_it_as_rg_does() {
    let d = corpus();
    let listed = d.run(&["-l", LITERAL, "."]);
    listed.code(0);
    let mut got = listed.headings();
    got.sort();
    // What `rg -l backoff` lists (vendor/ is ignored by the fixture's .gitignore).
    let want = [
        "./docs/usage.md",
        "./src/net/client.rs",
        "./tests/test_client.py",
    ];
    assert_eq!(got, want, "{}", listed.stdout);
    // `rg -c backoff`'s count: lines 1, 4, 6, 7 and 11.
    let counted = d.run(&["-c", LITERAL, "."]);
    let counts: BTreeMap<&str, &str> = counted
        .stdout
        .lines()
        .filter_map(|l| l.rsplit_once(':'))
        .collect();
    assert_eq!(
        counts.get("./tests/test_client.py"),
        Some(&"5"),
        "{}",
        counted.stdout
    );
}

#[test]
fn max_count_caps_the_counts_and_zero_lists_nothing() {
    let d = corpus();
    let counted = d.run(&["-c", "-m", "1", LITERAL, "."]);
    counted.code(0);
    assert_eq!(counted.stdout.lines().count(), 3, "{}", counted.stdout);
    assert!(
        counted.stdout.lines().all(|l| l.ends_with(":1")),
        "{}",
        counted.stdout
    );
    d.run(&["-l", "-m", "0", LITERAL, "."])
        .code(1)
        .stdout_is("");
}

#[test]
fn quiet_prints_nothing_and_the_exit_status_says_whether_a_line_matched() {
    let d = corpus();
    d.run(&["-q", QUESTION, "."]).code(0).stdout_is("");
    d.run(&["--quiet", "backoff", "."]).code(0).stdout_is("");
    d.run(&["-q", "\"no line holds this text\"", "."])
        .code(1)
        .stdout_is("");
    // -q wins over -l, as in ripgrep.
    d.run(&["-q", "-l", "backoff", "."]).code(0).stdout_is("");
}

#[test]
fn quiet_sends_nothing_to_a_model_even_when_asked_to_always() {
    let d = corpus();
    let mock = MockLlm::start(vec![Step::chat("{\"matches\": []}")]);
    d.use_model(&mock.base_url(), "");
    d.run_llm("always", &["-q", QUESTION, "."])
        .code(0)
        .stdout_is("");
    assert!(mock.received().is_empty(), "{:?}", mock.paths());
}

#[test]
fn a_list_is_not_cut_by_a_token_budget() {
    let d = corpus();
    let headings = d.run(&["--max-lines", "0", QUESTION, "."]).headings();
    let listed = d.run(&[
        "-l",
        "--token-budget",
        "1",
        "--max-lines",
        "0",
        QUESTION,
        ".",
    ]);
    listed
        .code(0)
        .stdout_is(&format!("{}\n", headings.join("\n")))
        .stderr_lacks("left out");
}

#[test]
fn listed_paths_take_the_heading_colour() {
    let d = corpus();
    let listed = d.run(&["-l", "--color", "always", "backoff", "."]);
    listed
        .code(0)
        .stdout_has("\x1b[0m\x1b[35m./src/net/client.rs\x1b[0m\n");
}

#[test]
fn a_list_does_not_mix_with_lines_json_or_another_list() {
    let d = corpus();
    for args in [
        ["-l", "-c"],
        ["-l", "--json"],
        ["-c", "--json"],
        ["-l", "--answer-only"],
        ["-q", "--answer"],
    ] {
        let run = d.run(&[args[0], args[1], "backoff"]);
        run.code(2).stdout_is("").stderr_has("cannot be used with");
    }
}

#[test]
fn quiet_stops_reading_and_walking_once_a_file_matched_and_a_match_wins_over_errors() {
    let d = Dir::new();
    for i in 0..200 {
        d.write(&format!("f{i:03}.txt"), "needle\n");
    }
    let all = d.run(&["\"needle\"", "."]);
    all.code(0).stderr_has("Scanned 200 files. Loaded 200.");
    // Nothing on stdout or stderr, as `rg -q`: the counts only with -v.
    d.run(&["-q", "\"needle\"", "."])
        .code(0)
        .stdout_is("")
        .stderr_is("");
    let quiet = d.run(&["-q", "-v", "\"needle\"", "."]);
    quiet.code(0).stdout_is("");
    // The walk stops too, as ripgrep's does: fewer files are even considered.
    let count_after = |word: &str| -> usize {
        quiet
            .stderr
            .split(word)
            .nth(1)
            .and_then(|rest| rest.split([' ', '.']).next())
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    assert!(count_after("Scanned ") < 200, "{}", quiet.stderr);
    assert!(count_after("Loaded ") < 200, "{}", quiet.stderr);
    // A missing path is still reported, but -q asks only whether something
    // matched (ripgrep's rule); without -q the error wins.
    d.run(&["-q", "\"needle\"", ".", "nope"])
        .code(0)
        .stderr_has("nope: No such file or directory");
    d.run(&["-c", "\"needle\"", "f000.txt", "nope"]).code(2);
    d.run(&["-q", "\"haystack\"", ".", "nope"]).code(2);
}

#[test]
fn sort_orders_the_printed_files_as_ripgrep_names_the_orders() {
    let d = Dir::new();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    for (name, age) in [("b.txt", 0u64), ("a.txt", 2), ("c.txt", 1)] {
        let path = d.write(name, "retry here\n");
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(old - std::time::Duration::from_secs(age * 1000))
            .unwrap();
    }
    let list = |args: &[&str]| {
        let mut all = vec!["-l"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["\"retry\"", "."]);
        d.run(&all).stdout.clone()
    };
    // A literal prints in path order, as `--sort path` and `--sort none` do.
    assert_eq!(list(&[]), "./a.txt\n./b.txt\n./c.txt\n");
    assert_eq!(list(&["--sort", "path"]), list(&[]));
    assert_eq!(list(&["--sortr", "path"]), "./c.txt\n./b.txt\n./a.txt\n");
    // Oldest first, or newest first (a is the oldest, b the newest).
    assert_eq!(list(&["--sort", "modified"]), "./a.txt\n./c.txt\n./b.txt\n");
    assert_eq!(
        list(&["--sortr", "modified"]),
        "./b.txt\n./c.txt\n./a.txt\n"
    );
    // The last of --sort and --sortr wins.
    assert_eq!(list(&["--sortr", "modified", "--sort", "path"]), list(&[]));
    // Natural language: the best file first, unless a sort is asked for; the
    // lines of each file are the same either way.
    let d = corpus();
    let ranked = d.run(&["--max-lines", "0", QUESTION, "."]);
    let sorted = d.run(&["--max-lines", "0", "--sort", "path", QUESTION, "."]);
    let mut headings = ranked.headings();
    assert_ne!(headings, sorted.headings());
    headings.sort();
    assert_eq!(headings, sorted.headings());
    let mut by_file = match_counts(&ranked);
    by_file.sort();
    assert_eq!(by_file, match_counts(&sorted));
    d.run(&["--sort", "size", "x", "."]).code(2);
}

/// `--sort path` and `--sortr path` print the files in the order rg 13's
/// sorted walk gives them: each folder's entries by name, so paths compare
/// component by component (`a/f` before `a b/g`, though a space is less than
/// `/`), and several path arguments keep the order they were given in,
/// `--sortr` or not. Each expected list is rg's on the same tree (`rg -l
/// --sort path -F hit …`), with kgrep's `./`.
#[test]
fn sort_path_compares_components_and_keeps_the_arguments_order_as_rg() {
    let d = Dir::new();
    for name in ["a b/g", "a/f", "a/x/y", "a-c/h", "a.txt", "top", "z/q"] {
        d.write(name, "hit\n");
    }
    let list = |args: &[&str]| {
        let mut all = vec!["-l", "-F", "hit"];
        all.extend_from_slice(args);
        let run = d.run(&all);
        run.code(0);
        run.stdout.clone()
    };
    // `rg -l --sort path -F hit .` and `rg -l --sortr path -F hit .`.
    assert_eq!(
        list(&["--sort", "path", "."]),
        "./a/f\n./a/x/y\n./a b/g\n./a-c/h\n./a.txt\n./top\n./z/q\n"
    );
    assert_eq!(
        list(&["--sortr", "path", "."]),
        "./z/q\n./top\n./a.txt\n./a-c/h\n./a b/g\n./a/x/y\n./a/f\n"
    );
    // Without --sort, rlmgrep's order: by key, as text.
    assert_eq!(
        list(&["."]),
        "./a b/g\n./a-c/h\n./a.txt\n./a/f\n./a/x/y\n./top\n./z/q\n"
    );
    // `rg -l --sort path -F hit z top a` and `rg -l --sortr path -F hit z a`:
    // the arguments in the order given, each one's files sorted.
    assert_eq!(
        list(&["--sort", "path", "z", "top", "a"]),
        "./z/q\n./top\n./a/f\n./a/x/y\n"
    );
    assert_eq!(
        list(&["--sortr", "path", "z", "a"]),
        "./z/q\n./a/x/y\n./a/f\n"
    );
    // `rg -l --sortr path -F hit top z/q a.txt`: files named keep their order.
    assert_eq!(
        list(&["--sortr", "path", "top", "z/q", "a.txt"]),
        "./top\n./z/q\n./a.txt\n"
    );
    // `rg --sort path hit a/x a` prints a/x/y under both arguments; kgrep
    // searches a file once, under the first argument that reaches it.
    assert_eq!(list(&["--sort", "path", "a/x", "a"]), "./a/x/y\n./a/f\n");
    // The lines print in the same order: `rg --no-heading -n --sort path`.
    d.run(&["--no-heading", "--sort", "path", "-F", "hit", "a", "a b"])
        .code(0)
        .stdout_is("./a/f:1:hit\n./a/x/y:1:hit\n./a b/g:1:hit\n");
}

/// `--files --sort path` and `--files --sortr path` list the files in rg 13's
/// sorted walk order, as `-l` prints them (the listing was in key order
/// whatever the flag). Expected: `rg --files --sort path .`, `rg --files
/// --sortr path .` and `rg --files --sortr path z a` on the same tree, with
/// kgrep's `./`.
#[test]
fn files_sort_path_lists_in_rg_order() {
    let d = Dir::new();
    for name in ["a b/g", "a/f", "a/x/y", "a-c/h", "a.txt", "top", "z/q"] {
        d.write(name, "hit\n");
    }
    d.run(&["--files", "--sort", "path", "."])
        .code(0)
        .stdout_is("./a/f\n./a/x/y\n./a b/g\n./a-c/h\n./a.txt\n./top\n./z/q\n");
    d.run(&["--files", "--sortr", "path", "."])
        .code(0)
        .stdout_is("./z/q\n./top\n./a.txt\n./a-c/h\n./a b/g\n./a/x/y\n./a/f\n");
    d.run(&["--files", "--sortr", "path", "z", "a"])
        .code(0)
        .stdout_is("./z/q\n./a/x/y\n./a/f\n");
    // No argument is `.`: the same order.
    d.run(&["--files", "--sort", "path"])
        .code(0)
        .stdout_is("./a/f\n./a/x/y\n./a b/g\n./a-c/h\n./a.txt\n./top\n./z/q\n");
}

/// `--files-without-match --sort path` (and `--sortr path`) list in rg 13's
/// sorted walk order, as `-l` and `--files` do (they were in byte order,
/// `a b/g` before `a/f`, whatever the flag). Checked with rg 13: `rg
/// --files-without-match --sort path -F hit .`, the same with `--sortr
/// path`, and `rg --files-without-match --sort path -F hit z a top` (rg
/// prints `z/q` where kgrep prints `./z/q`).
#[test]
fn files_without_match_sort_path_lists_in_rg_order() {
    let d = Dir::new();
    for name in ["a b/g", "a.txt"] {
        d.write(name, "hit\n");
    }
    for name in ["a/f", "a/m", "a-c/h", "top", "z/q"] {
        d.write(name, "miss\n");
    }
    let run = |args: &[&str]| d.run(&[&["--files-without-match", "-F", "hit"][..], args].concat());
    run(&["--sort", "path", "."])
        .code(0)
        .stdout_is("./a/f\n./a/m\n./a-c/h\n./top\n./z/q\n");
    run(&["--sortr", "path", "."])
        .code(0)
        .stdout_is("./z/q\n./top\n./a-c/h\n./a/m\n./a/f\n");
    run(&["--sort", "path", "z", "a", "top"])
        .code(0)
        .stdout_is("./z/q\n./a/f\n./a/m\n./top\n");
}

/// Sets the modified time of `rel` (a file or a folder) in `d` to `secs`
/// seconds after 2020-09-13.
fn set_mtime(d: &Dir, rel: &str, secs: u64) {
    let at =
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000 + secs);
    let file = std::fs::File::open(d.path().join(rel)).unwrap();
    file.set_modified(at).unwrap();
}

/// `--sort modified` and `--sortr modified` are rg 13's sorted walk, a
/// folder at a time: each folder's entries by their own times, a folder by
/// the folder's, so `d`'s files come together where `d`'s time puts them
/// (kgrep sorted all files by their own times, as rg 14 does: `d/x` first,
/// `d/y` last); the path arguments keep their order; `--files`,
/// `--files-without-match` and `-c --include-zero`'s zero counts sort the same
/// way (they ignored a time sort). Equal times keep the order the folder
/// lists its entries in, `--sortr` too. Checked with rg 13 on the same tree
/// (`touch -d` times): `rg -l --sort modified hit`, `--sortr modified`, `rg
/// -l --sort modified hit top d e a.txt`, `rg --files --sort modified`, `rg
/// --files --sortr modified e d`, `rg -c --include-zero --sort modified hit`,
/// `rg --files-without-match --sortr modified hit` and `rg --no-heading -n
/// --sort modified hit`, with kgrep's `./`.
#[test]
fn sort_by_a_time_is_rg_13s_walk_a_folder_at_a_time() {
    let d = Dir::new();
    for (name, text, secs) in [
        ("a.txt", "hit\n", 5),
        ("d/x", "hit\n", 1),
        ("d/y", "hit\n", 9),
        ("e/z", "hit\n", 3),
        ("e/w", "miss\n", 4),
        ("top", "hit\n", 7),
    ] {
        d.write(name, text);
        set_mtime(&d, name, secs);
    }
    set_mtime(&d, "d", 8);
    set_mtime(&d, "e", 2);
    let run = |args: &[&str]| d.run(args);
    run(&["-l", "--sort", "modified", "-F", "hit", "."])
        .code(0)
        .stdout_is("./e/z\n./a.txt\n./top\n./d/x\n./d/y\n");
    run(&["-l", "--sortr", "modified", "-F", "hit", "."])
        .code(0)
        .stdout_is("./d/y\n./d/x\n./top\n./a.txt\n./e/z\n");
    run(&[
        "-l", "--sort", "modified", "-F", "hit", "top", "d", "e", "a.txt",
    ])
    .code(0)
    .stdout_is("./top\n./d/x\n./d/y\n./e/z\n./a.txt\n");
    run(&["--files", "--sort", "modified"])
        .code(0)
        .stdout_is("./e/z\n./e/w\n./a.txt\n./top\n./d/x\n./d/y\n");
    run(&["--files", "--sortr", "modified", "e", "d"])
        .code(0)
        .stdout_is("./e/w\n./e/z\n./d/y\n./d/x\n");
    run(&[
        "-c",
        "--include-zero",
        "--sort",
        "modified",
        "-F",
        "hit",
        ".",
    ])
    .code(0)
    .stdout_is("./e/z:1\n./e/w:0\n./a.txt:1\n./top:1\n./d/x:1\n./d/y:1\n");
    d.write("d/v", "miss\n");
    set_mtime(&d, "d/v", 2);
    set_mtime(&d, "d", 8);
    run(&[
        "--files-without-match",
        "--sortr",
        "modified",
        "-F",
        "hit",
        ".",
    ])
    .code(0)
    .stdout_is("./d/v\n./e/w\n");
    run(&["--no-heading", "--sort", "modified", "-F", "hit", "."])
        .code(0)
        .stdout_is("./e/z:1:hit\n./a.txt:1:hit\n./top:1:hit\n./d/x:1:hit\n./d/y:1:hit\n");
    // Equal times: the folder's own listing order, whichever the direction.
    for name in ["d/x", "d/y", "d/v"] {
        set_mtime(&d, name, 4);
    }
    let listed: String = std::fs::read_dir(d.path().join("d"))
        .unwrap()
        .map(|e| format!("./d/{}\n", e.unwrap().file_name().to_string_lossy()))
        .collect();
    for sort in ["--sort", "--sortr"] {
        run(&["--files", sort, "modified", "d"])
            .code(0)
            .stdout_is(&listed);
    }
}

/// `-0` with flat lines (`--no-heading`, `--vimgrep`, with `-o`, context and
/// colour) ends each line's path with a NUL in place of the `:` or `-` (or
/// the field separator) after it, as rg 13's does; it changed nothing.
/// `-I` prints no path and no NUL. Checked with rg 13 on the same files:
/// `rg -0 --no-heading -n -C1 foo a.txt b.txt`, `rg -0 --vimgrep -o -b foo`,
/// `rg -0 --no-heading -n --field-match-separator @
/// --field-context-separator '#' -C1 foo`, `rg -0 --no-heading -I -n foo`,
/// `rg -0 --no-heading -n --color always foo` (rg's SGR bytes aside).
#[test]
fn null_ends_the_path_of_each_flat_line_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "foo bar foo\nnone\nfoo\nend\n");
    d.write("b.txt", "x\nfoo\ny\n");
    let run = |args: &[&str]| {
        d.run(
            &[
                &["--sort", "path", "-0"][..],
                args,
                &["foo", "a.txt", "b.txt"],
            ]
            .concat(),
        )
    };
    run(&["--no-heading", "-C1"]).code(0).stdout_is(
        "./a.txt\x001:foo bar foo\n./a.txt\x002-none\n./a.txt\x003:foo\n./a.txt\x004-end\n--\n\
         ./b.txt\x001-x\n./b.txt\x002:foo\n./b.txt\x003-y\n",
    );
    run(&["--vimgrep", "-o", "-b"]).code(0).stdout_is(
        "./a.txt\x001:1:0:foo\n./a.txt\x001:9:8:foo\n./a.txt\x003:1:17:foo\n./b.txt\x002:1:2:foo\n",
    );
    run(&["--vimgrep"]).code(0).stdout_is(
        "./a.txt\x001:1:foo bar foo\n./a.txt\x001:9:foo bar foo\n./a.txt\x003:1:foo\n./b.txt\x002:1:foo\n",
    );
    run(&[
        "--no-heading",
        "-C1",
        "--field-match-separator",
        "@",
        "--field-context-separator",
        "#",
    ])
    .code(0)
    .stdout_has("./a.txt\x001@foo bar foo\n./a.txt\x002#none\n");
    run(&["--no-heading", "-I"])
        .code(0)
        .stdout_is("1:foo bar foo\n3:foo\n2:foo\n");
    run(&["--no-heading", "--color", "always"])
        .code(0)
        .stdout_has("./b.txt\x1b[0m\x00\x1b[0m\x1b[32m2\x1b[0m:");
}

/// `-I` with `-c` or `--count-matches` prints each count alone, as `rg -I -c
/// x .` does on the same tree (`2\n1\n`, no path, no NUL with `-0`; a zero
/// count of `--include-zero` too); `-l`, `--files` and
/// `--files-without-match` still name their files under `-I`, as rg's do.
#[test]
fn no_filename_prints_counts_alone_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "x\nx x\n");
    d.write("b.txt", "x\n");
    d.write("c.txt", "nothing\n");
    let sorted = ["--sort", "path", "-F"];
    let run = |args: &[&str]| d.run(&[&sorted[..], args].concat());
    run(&["-I", "-c", "x", "."]).code(0).stdout_is("2\n1\n");
    run(&["-I", "--count-matches", "x", "."])
        .code(0)
        .stdout_is("3\n1\n");
    run(&["--no-filename", "-c", "-0", "x", "."])
        .code(0)
        .stdout_is("2\n1\n");
    run(&["-I", "-c", "--include-zero", "x", "."])
        .code(0)
        .stdout_has("2\n1\n")
        .stdout_has("0\n")
        .stdout_lacks("c.txt");
    run(&["-I", "-l", "x", "."])
        .code(0)
        .stdout_is("./a.txt\n./b.txt\n");
    run(&["-I", "--files-without-match", "x", "."])
        .code(0)
        .stdout_is("./c.txt\n");
    d.run(&["-I", "--files", "--sort", "path"])
        .code(0)
        .stdout_is("./a.txt\n./b.txt\n./c.txt\n");
}

/// `-c --include-zero` under `--sort path`/`--sortr path` prints the zero
/// counts in path order among the others (they came after all of them).
/// Expected: `rg --sort path -c --include-zero -F hit .` and `--sortr` on
/// the same tree, with kgrep's `./`.
#[test]
fn include_zero_counts_sort_among_the_others_as_rg() {
    let d = Dir::new();
    for (name, text) in [("a b/g", "hit\n"), ("a/f", "hit\nhit\n"), ("a/m", "miss\n")] {
        d.write(name, text);
    }
    d.write("a.txt", "hit\n");
    d.write("b", "miss\n");
    d.run(&["--sort", "path", "-c", "--include-zero", "-F", "hit", "."])
        .code(0)
        .stdout_is("./a/f:2\n./a/m:0\n./a b/g:1\n./a.txt:1\n./b:0\n");
    d.run(&["--sortr", "path", "-c", "--include-zero", "-F", "hit", "."])
        .code(0)
        .stdout_is("./b:0\n./a.txt:1\n./a b/g:1\n./a/m:0\n./a/f:2\n");
    d.run(&[
        "--sort",
        "path",
        "-I",
        "--count-matches",
        "--include-zero",
        "-F",
        "hit",
        ".",
    ])
    .code(0)
    .stdout_is("2\n0\n1\n1\n0\n");
}

#[test]
fn files_without_match_lists_the_searched_files_with_no_hit() {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d.write("data.bin", b"zzz\0\x01\x02");
    // `rg --files-without-match retry`: a binary file is not listed.
    let expected = "./crlf.txt\n./docs/usage.md\n./src/auth/jwt.py\n./src/config/loader.go\n";
    d.run(&["--files-without-match", "\"retry\"", "."])
        .code(0)
        .stdout_is(expected);
    // Natural language: the files holding none of the query's words.
    d.run(&["--files-without-match", "how are retries computed", "."])
        .code(0)
        .stdout_lacks("client.rs")
        .stdout_lacks("usage.md")
        .stdout_has("./src/auth/jwt.py\n");
    // Every file matches: nothing listed, exit 1.
    d.run(&["--files-without-match", "-F", "e", "src"])
        .code(1)
        .stdout_is("");
    // -a searches the binary file too, so it is listed.
    d.run(&["-a", "--files-without-match", "\"retry\"", "."])
        .code(0)
        .stdout_has("./data.bin\n");
}

#[test]
fn include_zero_lists_the_files_with_no_match_after_the_counts() {
    let d = Dir::new();
    d.copy_fixture("corpus");
    // `rg -c --include-zero retry`, the counted files first.
    d.run(&["-c", "--include-zero", "\"retry\"", "."])
        .code(0)
        .stdout_is(
            "./src/net/client.rs:1\n./tests/test_client.py:3\n\
             ./crlf.txt:0\n./docs/usage.md:0\n./src/auth/jwt.py:0\n./src/config/loader.go:0\n",
        );
    // Nothing matches: every file at 0, exit 1, as in rg.
    d.run(&["-c", "--include-zero", "-F", "zzzz", "src"])
        .code(1)
        .stdout_is("./src/auth/jwt.py:0\n./src/config/loader.go:0\n./src/net/client.rs:0\n");
    // Without -c it changes nothing.
    let plain = d.run(&["\"retry\"", "."]).stdout.clone();
    d.run(&["--include-zero", "\"retry\"", "."])
        .stdout_is(&plain);
}

/// `-0`: each listed path ends with a NUL byte instead of its line end (or
/// the `:` before its count), as `rg -l0`/`rg -c0` write them, so `kgrep
/// -l0 q | xargs -0` takes names with spaces and newlines whole; the lines
/// of a grep-style output are unchanged.
#[test]
fn null_ends_each_listed_path_with_a_nul() {
    let d = Dir::new();
    d.write("a b.py", "MAX_RETRIES = 3\nMAX_RETRIES += 1\n");
    d.write("two\nlines.py", "MAX_RETRIES = 5\n");
    d.write("other.py", "nothing here\n");
    let sorted = ["--sort", "path"];
    d.run(&[&sorted[..], &["-l0", "MAX_RETRIES", "."]].concat())
        .code(0)
        .stdout_is("./a b.py\0./two\nlines.py\0");
    d.run(&[&sorted[..], &["-c", "--null", "MAX_RETRIES", "."]].concat())
        .code(0)
        .stdout_is("./a b.py\x002\n./two\nlines.py\x001\n");
    d.run(&[&sorted[..], &["--count-matches", "-0", "MAX_RETRIES", "."]].concat())
        .code(0)
        .stdout_is("./a b.py\x002\n./two\nlines.py\x001\n");
    d.run(&["--files-without-match", "-0", "MAX_RETRIES", "."])
        .code(0)
        .stdout_is("./other.py\0");
    d.run(&[&sorted[..], &["--files", "-0", "."]].concat())
        .code(0)
        .stdout_is("./a b.py\0./other.py\0./two\nlines.py\0");
    d.run(&["-c", "--include-zero", "-0", "MAX_RETRIES", "."])
        .code(0)
        .stdout_has("./a b.py\x002\n")
        .stdout_has("./other.py\x000\n")
        .stdout_has("./two\nlines.py\x001\n");
    let lines = d.run(&["--sort", "path", "MAX_RETRIES", "."]);
    d.run(&["--sort", "path", "-0", "MAX_RETRIES", "."])
        .code(0)
        .stdout_is(&lines.stdout);
}
