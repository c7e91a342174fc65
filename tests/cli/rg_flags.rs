//! The ripgrep 13 flags that only a ripgrep command line brings: the hidden
//! negations that undo a flag given before them (`--no-column`,
//! `--ignore-vcs`, `--messages`), `--engine` and `--auto-hybrid-regex`,
//! `--no-unicode`, the regex size limits, the ignore files' messages and case,
//! `--pcre2-version`, `--colors`, `--binary` (with `--no-binary` and its
//! place among `-a`, `--no-text` and `-uuu`), `--null-data`, and the flags
//! kgrep accepts with ripgrep's meaning but nothing to change (`--crlf`,
//! `--no-config`; `--mmap` only says how `--binary` reads a file).
//! Expected bytes were checked with rg 13 on the same files.

use crate::harness::{Dir, Run};

fn lines() -> Dir {
    let d = Dir::new();
    d.write("e.txt", "foobar\nfoobaz\nbar foo\n\u{3c3} word\n");
    d
}

/// `run` printed exactly what `base` printed, and exited the same way.
fn same_as(run: &Run, base: &Run) {
    assert_eq!(
        run.stdout, base.stdout,
        "{}\nvs\n{}",
        run.describe, base.describe
    );
    assert_eq!(run.code, base.code, "{}", run.describe);
}

#[test]
fn a_negation_undoes_the_flag_given_before_it_and_the_last_one_wins() {
    let d = lines();
    d.write(".hidden.txt", "foo hidden\n");
    let pairs: [(&str, &str); 8] = [
        ("--column", "--no-column"),
        ("--hidden", "--no-hidden"),
        ("--trim", "--no-trim"),
        ("-F", "--no-fixed-strings"),
        ("--stats", "--no-stats"),
        ("-E=latin1", "--no-encoding"),
        ("--glob-case-insensitive", "--no-glob-case-insensitive"),
        ("--sort-files", "--no-sort-files"),
    ];
    for (flag, negation) in pairs {
        let plain = d.run(&["-g", "*.TXT", "-l", "fo+", "."]);
        let undone = d.run(&[flag, negation, "-g", "*.TXT", "-l", "fo+", "."]);
        same_as(&undone, &plain);
        let kept = d.run(&[negation, flag, "-g", "*.TXT", "-l", "fo+", "."]);
        let alone = d.run(&[flag, "-g", "*.TXT", "-l", "fo+", "."]);
        same_as(&kept, &alone);
    }
    // The one whose flag changes these lines: `rg --column 'fo+' e.txt`.
    d.run(&["--column", "--no-column", "--no-heading", "fo+", "e.txt"])
        .code(0)
        .stdout_is("./e.txt:1:foobar\n./e.txt:2:foobaz\n./e.txt:3:bar foo\n");
    d.run(&["--no-column", "--column", "--no-heading", "fo+", "e.txt"])
        .code(0)
        .stdout_is("./e.txt:1:1:foobar\n./e.txt:2:1:foobaz\n./e.txt:3:5:bar foo\n");
    d.run(&["--hidden", "--no-hidden", "-l", "hidden", "."])
        .code(1);
    d.run(&["--no-hidden", "--hidden", "-l", "\"foo hidden\"", "."])
        .code(0)
        // rlmgrep's heading rule: a key that starts with `.` keeps no `./`.
        .stdout_is(".hidden.txt\n");
}

#[test]
fn the_ignore_negations_restore_each_ignore_file() {
    let d = lines();
    d.write(".ignore", "skipped.txt\n");
    d.write("skipped.txt", "foobar\n");
    d.run(&["-l", "-F", "foobar", "."])
        .code(0)
        .stdout_is("./e.txt\n");
    for (flag, negation) in [
        ("--no-ignore", "--ignore"),
        ("--no-ignore-dot", "--ignore-dot"),
    ] {
        d.run(&[flag, "-l", "-F", "foobar", "."])
            .code(0)
            .stdout_is("./e.txt\n./skipped.txt\n");
        d.run(&[flag, negation, "-l", "-F", "foobar", "."])
            .code(0)
            .stdout_is("./e.txt\n");
    }
    // `--messages` undoes `--no-messages`: the missing path is reported.
    d.run(&["--no-messages", "-F", "foobar", "e.txt", "missing.txt"])
        .code(2)
        .stderr_lacks("missing.txt");
    d.run(&[
        "--no-messages",
        "--messages",
        "-F",
        "foobar",
        "e.txt",
        "missing.txt",
    ])
    .code(2)
    .stderr_has("missing.txt: No such file or directory");
}

#[test]
fn engine_auto_runs_look_around_with_the_engine_of_p() {
    let d = lines();
    // `rg --engine auto 'foo(?=bar)' e.txt` prints `foobar`.
    let p = d.run(&["-P", "foo(?=bar)", "e.txt"]);
    p.code(0).stdout_is("./e.txt\n1:\tfoobar\n");
    for flags in [
        &["--engine", "auto"][..],
        &["--auto-hybrid-regex"],
        &["--engine", "pcre2"],
        &["--engine", "default", "--engine", "auto"],
        &["--no-auto-hybrid-regex", "--auto-hybrid-regex"],
    ] {
        let run = d.run(&[flags, &["foo(?=bar)", "e.txt"][..]].concat());
        same_as(&run, &p);
    }
    // A pattern the default engine runs keeps it (its -o parts, as rg's).
    d.run(&["--engine", "auto", "-o", "fo+b", "e.txt"])
        .code(0)
        .stdout_is("./e.txt\n1:\tfoob\n2:\tfoob\n");
    // The last of -P, --engine, --auto-hybrid-regex and --no-pcre2 wins: the
    // default engine refuses look-around, so the words are searched, and
    // stderr says so, as without any of them.
    let words = d.run(&["foo(?=bar)", "e.txt"]);
    for flags in [
        &["-P", "--no-pcre2"][..],
        &["-P", "--engine", "default"],
        &["--auto-hybrid-regex", "--no-auto-hybrid-regex"],
        &["--engine", "auto", "--no-pcre2"],
    ] {
        let run = d.run(&[flags, &["foo(?=bar)", "e.txt"][..]].concat());
        same_as(&run, &words);
        run.stderr_has("is not one the default engine runs");
    }
}

#[test]
fn no_unicode_matches_classes_in_ascii_only() {
    let d = lines();
    // `rg -o '\w+' e.txt` and `rg --no-unicode -o '\w+' e.txt`, in kgrep's layout.
    let unicode = "./e.txt\n1:\tfoobar\n2:\tfoobaz\n3:\tbar\n3:\tfoo\n4:\t\u{3c3}\n4:\tword\n";
    let ascii = "./e.txt\n1:\tfoobar\n2:\tfoobaz\n3:\tbar\n3:\tfoo\n4:\tword\n";
    d.run(&["-o", r"\w+", "e.txt"]).code(0).stdout_is(unicode);
    for flag in ["--no-unicode", "--no-pcre2-unicode"] {
        d.run(&[flag, "-o", r"\w+", "e.txt"])
            .code(0)
            .stdout_is(ascii);
        d.run(&[flag, "-P", "-o", r"\w+", "e.txt"])
            .code(0)
            .stdout_is(ascii);
    }
    for flag in ["--unicode", "--pcre2-unicode"] {
        d.run(&["--no-unicode", flag, "-o", r"\w+", "e.txt"])
            .code(0)
            .stdout_is(unicode);
    }
}

#[test]
fn the_regex_size_limits_refuse_a_regex_too_large_in_one_line() {
    let d = lines();
    let run = d.run(&["--regex-size-limit", "10", "a{1000}", "e.txt"]);
    run.code(2).stderr_has("size limit").stdout_is("");
    assert_eq!(
        run.stderr
            .lines()
            .filter(|l| l.contains("size limit"))
            .count(),
        1
    );
    d.run(&[
        "--regex-size-limit",
        "1M",
        "--dfa-size-limit",
        "2M",
        "o{2}b",
        "e.txt",
    ])
    .code(0)
    .stdout_is("./e.txt\n1:\tfoobar\n2:\tfoobaz\n");
    d.run(&["--regex-size-limit", "10X", "o{2}b", "e.txt"])
        .code(2)
        .stderr_has("invalid format for size '10X'");
}

#[test]
fn a_bad_ignore_file_line_is_reported_unless_no_ignore_messages() {
    let d = lines();
    d.write(".ignore", "[z-a]\n*.log\n");
    d.write("b.log", "foobar\n");
    // rg 13 prints `./.ignore: line 1: error parsing glob '[z-a]': invalid
    // range; 'z' > 'a'`, ignores b.log by the good line and exits 0; kgrep's
    // line is rg's, after `kgrep: `.
    let run = d.run(&["-l", "-F", "foobar", "."]);
    run.code(0).stdout_is("./e.txt\n").stderr_has(
        "kgrep: ./.ignore: line 1: error parsing glob '[z-a]': invalid range; 'z' > 'a'\n",
    );
    d.run(&["--no-ignore-messages", "-l", "-F", "foobar", "."])
        .code(0)
        .stdout_is("./e.txt\n")
        .stderr_lacks("error parsing glob");
    d.run(&[
        "--no-ignore-messages",
        "--ignore-messages",
        "-l",
        "-F",
        "foobar",
        ".",
    ])
    .code(0)
    .stderr_has("error parsing glob '[z-a]'");
    // An --ignore-file's problems too.
    d.run(&[
        "--no-ignore-messages",
        "--ignore-file",
        "none.txt",
        "-l",
        "-F",
        "foobar",
        ".",
    ])
    .code(0)
    .stderr_lacks("none.txt");
}

/// An ignore file's bad line names the file as rg 13 does (each checked
/// with rg 13): the argument as typed joined with the path below it
/// (`./.ignore` for `.`, `sub/.ignore` for `sub`), a parent folder's file
/// by its absolute path, and an `--ignore-file` as typed, once.
#[test]
fn an_ignore_file_error_names_the_file_as_rg_does() {
    let d = lines();
    d.write(".ignore", "{a\n");
    d.write("sub/.ignore", "{b\n");
    d.write("sub/g.txt", "foobar\n");
    let top = "line 1: error parsing glob '{a': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)\n";
    let sub = "line 1: error parsing glob '{b': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)\n";
    let run = d.run(&["-l", "-F", "foobar", "."]);
    run.stderr_has(&format!("kgrep: ./.ignore: {top}"))
        .stderr_has(&format!("kgrep: ./sub/.ignore: {sub}"));
    let parent = d.path().canonicalize().unwrap().join(".ignore");
    d.run(&["-l", "-F", "foobar", "sub"])
        .stderr_has(&format!("kgrep: {}: {top}", parent.display()))
        .stderr_has(&format!("kgrep: sub/.ignore: {sub}"));
    d.run(&["-l", "-F", "foobar", "./sub"])
        .stderr_has(&format!("kgrep: ./sub/.ignore: {sub}"));
    let run = d.run(&[
        "--no-ignore-dot",
        "--ignore-file",
        "sub/.ignore",
        "-l",
        "-F",
        "foobar",
        ".",
    ]);
    run.stderr_has(&format!("kgrep: sub/.ignore: {sub}"));
    assert!(
        !run.stderr.contains(&d.path().display().to_string()),
        "{}",
        run.describe
    );
}

/// An unclosed character class (`a[`, `[!`) is a bad glob to rg 13 wherever
/// it is written (each checked with rg 13 on the same files): in `.ignore`
/// a warning per line (`./.ignore: line 1: error parsing glob 'a[':
/// unclosed character class; missing ']'`), the other lines still held,
/// exit 0; in an `--ignore-file` the same, the file named as typed; in
/// `-g` or `--iglob` a usage error, exit 2. The ignore crate now takes
/// `a[` literally in an ignore file, as git does, so kgrep said nothing.
#[test]
fn an_unclosed_class_is_a_bad_glob_line_as_in_rg() {
    let d = lines();
    d.write(".ignore", "a[\n*.log\n[!\n");
    d.write("b.log", "foobar\n");
    let unclosed = "unclosed character class; missing ']'";
    d.run(&["-l", "-F", "foobar", "."])
        .code(0)
        .stdout_is("./e.txt\n")
        .stderr_has(&format!(
            "kgrep: ./.ignore: line 1: error parsing glob 'a[': {unclosed}\n\
             kgrep: ./.ignore: line 3: error parsing glob '[!': {unclosed}\n"
        ));
    d.run(&["--no-ignore-messages", "-l", "-F", "foobar", "."])
        .code(0)
        .stdout_is("./e.txt\n")
        .stderr_lacks("error parsing glob");
    d.write("ig.txt", "a[\nb{\n");
    d.run(&[
        "--no-ignore-dot",
        "--ignore-file",
        "ig.txt",
        "-l",
        "-F",
        "foobar",
        ".",
    ])
    .code(0)
    .stdout_is("./b.log\n./e.txt\n")
    .stderr_has(&format!(
        "kgrep: ig.txt: line 1: error parsing glob 'a[': {unclosed}\n\
             kgrep: ig.txt: line 2: error parsing glob 'b{{': unclosed alternate group; \
             missing '}}' (maybe escape '{{' with '[{{]'?)\n"
    ));
    for flag in ["-g", "--iglob"] {
        d.run(&[flag, "a[", "-l", "-F", "foobar", "."])
            .code(2)
            .stdout_is("")
            .stderr_is(&format!("kgrep: error parsing glob 'a[': {unclosed}\n"));
    }
}

/// A bad line in a parent folder's ignore file is an error to rg 13, not a
/// warning: said even with `--no-ignore-messages` or `--no-ignore-parent`
/// (the file is still read), the file named by its absolute path, once
/// however many arguments lie below it, the search goes on and the run
/// exits 2 (0 with `-q` and a match); `--no-ignore-dot` (for `.ignore`) and
/// `--no-ignore` do not read it. The same line in a searched folder stays a
/// warning (exit 0). `.gitignore` alike, in a git repository or not. Each
/// checked with rg 13 on the same files. kgrep said nothing for `a[` (the
/// ignore crate takes it literally) and exited 0.
#[test]
fn a_bad_line_in_a_parent_folders_ignore_file_is_an_error() {
    let d = lines();
    d.write(".ignore", "a[\n");
    d.write("sub/g.txt", "foobar\n");
    d.write("sub2/h.txt", "foobar\n");
    let top = d.path().canonicalize().unwrap();
    let said = format!(
        "kgrep: {}: line 1: error parsing glob 'a[': unclosed character class; missing ']'\n",
        top.join(".ignore").display()
    );
    // Said once (kgrep's `Scanned …` summary follows it).
    let once = |run: &Run, line: &str| {
        assert_eq!(run.stderr.matches(line).count(), 1, "{}", run.describe);
    };
    for flags in [&[][..], &["--no-ignore-messages"], &["--no-ignore-parent"]] {
        let args: Vec<&str> = flags
            .iter()
            .copied()
            .chain(["-l", "-F", "foobar", "sub"])
            .collect();
        once(d.run(&args).code(2).stdout_is("./sub/g.txt\n"), &said);
    }
    once(d.run(&["-q", "-F", "foobar", "sub"]).code(0), &said);
    once(d.run(&["-q", "-F", "nothing", "sub"]).code(2), &said);
    let run = d.run(&["-l", "-F", "foobar", "sub", "sub2"]);
    once(run.code(2).stdout_is("./sub/g.txt\n./sub2/h.txt\n"), &said);
    for flag in ["--no-ignore-dot", "--no-ignore"] {
        d.run(&[flag, "-l", "-F", "foobar", "sub"])
            .code(0)
            .stdout_is("./sub/g.txt\n")
            .stderr_lacks("error parsing glob");
    }
    // In the folder searched, a warning.
    d.run(&["-l", "-F", "foobar", "."])
        .code(0)
        .stderr_has("kgrep: ./.ignore: line 1: error parsing glob 'a['");
    // A parent `.gitignore` too, in a git repository.
    std::fs::remove_file(d.path().join(".ignore")).unwrap();
    std::fs::create_dir(d.path().join(".git")).unwrap();
    d.write(".gitignore", "b[\n");
    let said = format!(
        "kgrep: {}: line 1: error parsing glob 'b[': unclosed character class; missing ']'\n",
        top.join(".gitignore").display()
    );
    once(
        d.run(&["-l", "-F", "foobar", "sub"])
            .code(2)
            .stdout_is("./sub/g.txt\n"),
        &said,
    );
    d.run(&["--no-ignore-vcs", "-l", "-F", "foobar", "sub"])
        .code(0)
        .stderr_lacks("error parsing glob");
}

#[test]
fn ignore_file_case_insensitive_reads_ignore_globs_in_any_case() {
    let d = lines();
    d.write(".ignore", "*.log\n");
    d.write("B.LOG", "foobar\n");
    // `rg -l foobar` lists B.LOG; with --ignore-file-case-insensitive it does not.
    d.run(&["-l", "-F", "foobar", "."])
        .code(0)
        .stdout_is("./B.LOG\n./e.txt\n");
    d.run(&["--ignore-file-case-insensitive", "-l", "-F", "foobar", "."])
        .code(0)
        .stdout_is("./e.txt\n");
    d.run(&[
        "--ignore-file-case-insensitive",
        "--no-ignore-file-case-insensitive",
        "-l",
        "-F",
        "foobar",
        ".",
    ])
    .code(0)
    .stdout_is("./B.LOG\n./e.txt\n");
}

#[test]
fn pcre2_version_says_there_is_none_and_exits_1() {
    let d = Dir::new();
    d.run(&["--pcre2-version"])
        .code(1)
        .stdout_is("PCRE2 is not available in this build of kgrep (-P runs fancy-regex).\n");
}

#[test]
fn flags_with_nothing_to_change_are_accepted_and_change_nothing() {
    let d = lines();
    d.write("crlf.txt", "foobar\r\nother\r\n");
    let plain = d.run(&["fo+b", "."]);
    plain.code(0);
    for flags in [
        &["--mmap"][..],
        &["--no-mmap"],
        &["--crlf"],
        &["--crlf", "--no-crlf"],
        &["--no-config"],
        &["--line-buffered"],
        &["--block-buffered"],
        &["--line-buffered", "--no-line-buffered"],
        &["--block-buffered", "--no-block-buffered"],
    ] {
        let run = d.run(&[flags, &["fo+b", "."][..]].concat());
        same_as(&run, &plain);
    }
    // `$` matches before a CRLF, as rg's with --crlf.
    d.run(&["--crlf", "-o", "bar$", "crlf.txt"])
        .code(0)
        .stdout_is("./crlf.txt\n1:\tbar\n");
    // --debug and --trace are -v.
    for flag in ["--debug", "--trace"] {
        d.run(&[flag, "-F", "foobar", "e.txt"])
            .code(0)
            .stderr_has("query: literal \"foobar\"");
    }
}

#[test]
fn colors_changes_each_field_as_rgs_specs_do() {
    let d = lines();
    let specs = [
        "--colors",
        "match:fg:blue",
        "--colors",
        "line:none",
        "--colors",
        "column:fg:0x10",
        "--colors",
        "path:style:underline",
    ];
    let rest = [
        "--color",
        "always",
        "--no-heading",
        "--column",
        "-m",
        "2",
        "-F",
        "foo",
        ".",
    ];
    // `rg -n --color always --colors … --no-heading --column -m 2 -F foo .`,
    // byte for byte: a cleared field still prints between resets, bold kept
    // from rg's default match style.
    d.run(&[&specs[..], &rest[..]].concat()).code(0).stdout_is(
        "\x1b[0m\x1b[4m\x1b[35m./e.txt\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[38;5;16m1\x1b[0m:\
         \x1b[0m\x1b[1m\x1b[34mfoo\x1b[0mbar\n\
         \x1b[0m\x1b[4m\x1b[35m./e.txt\x1b[0m:\x1b[0m2\x1b[0m:\x1b[0m\x1b[38;5;16m1\x1b[0m:\
         \x1b[0m\x1b[1m\x1b[34mfoo\x1b[0mbaz\n",
    );
    // `match:none` leaves the matches plain, as rg's.
    d.run(&[&["--colors", "match:none"][..], &rest[..]].concat())
        .code(0)
        .stdout_has("\x1b[0m:foobar\n")
        .stdout_lacks("\x1b[31m");
    // rlmgrep's layout takes the same colours.
    d.run(&[
        "--colors",
        "match:fg:blue",
        "--color",
        "always",
        "-F",
        "foobar",
        "e.txt",
    ])
    .code(0)
    .stdout_has("\x1b[1m\x1b[34mfoobar\x1b[0m");
    // A bad spec is one line, rg's message, exit 2.
    let bad = d.run(&["--colors", "path:fg:purple", "-F", "foo", "."]);
    bad.code(2).stdout_is("").stderr_is(
        "kgrep: unrecognized color name 'purple'. Choose from: black, blue, green, red, \
         cyan, magenta, yellow, white\n",
    );
}

/// A file whose NUL a stream meets after its first line (grep-searcher's
/// first read is three bytes, `a\nf`), one whose NUL is in its first buffer,
/// and a text file.
fn binaries() -> Dir {
    let d = Dir::new();
    d.write("s.bin", b"foo one\nbar\nfoo two\n\0binary foo\nfoo after\n");
    d.write("x.bin", b"a\nfoo a\0bar a\n");
    d.write("t.txt", "foo a\n");
    d
}

#[test]
fn binary_searches_a_file_that_holds_a_nul_as_rg_binary_does() {
    let d = binaries();
    // Without it, a binary file is skipped (rlmgrep's rule).
    d.run(&["-l", "-F", "a", "."])
        .code(0)
        .stdout_is("./t.txt\n");
    // `rg --binary -n --sort path --no-heading -F a .`: a walk reads each
    // file as a stream, so x.bin's first line prints before the NUL.
    let walked = "./s.bin: binary file matches (found \"\\0\" byte around offset 20)\n\
                  ./t.txt:1:foo a\n\
                  ./x.bin:1:a\n\
                  ./x.bin: binary file matches (found \"\\0\" byte around offset 7)\n";
    d.run(&["--binary", "--no-heading", "-F", "a", "."])
        .code(0)
        .stdout_is(walked);
    // Files named, a few of them: rg maps them into memory and notices the
    // NUL before any line (`rg --binary -n --no-heading -F a t.txt x.bin`),
    // unless --no-mmap.
    let mapped = "./t.txt:1:foo a\n\
                  ./x.bin: binary file matches (found \"\\0\" byte around offset 7)\n";
    d.run(&["--binary", "--no-heading", "-F", "a", "t.txt", "x.bin"])
        .code(0)
        .stdout_is(mapped);
    d.run(&[
        "--binary",
        "--no-mmap",
        "--no-heading",
        "-F",
        "a",
        "t.txt",
        "x.bin",
    ])
    .code(0)
    .stdout_is(
        "./t.txt:1:foo a\n./x.bin:1:a\n\
             ./x.bin: binary file matches (found \"\\0\" byte around offset 7)\n",
    );
    d.run(&["--binary", "--mmap", "--no-heading", "-F", "a", "."])
        .code(0)
        .stdout_is(
            "./s.bin: binary file matches (found \"\\0\" byte around offset 20)\n\
             ./t.txt:1:foo a\n\
             ./x.bin: binary file matches (found \"\\0\" byte around offset 7)\n",
        );
    // Counts and lists see every match, each NUL read as a line end.
    d.run(&["--binary", "-c", "-F", "a", "."])
        .code(0)
        .stdout_is("./s.bin:3\n./t.txt:1\n./x.bin:3\n");
    d.run(&["--binary", "-l", "-F", "a", "."])
        .code(0)
        .stdout_is("./s.bin\n./t.txt\n./x.bin\n");
    // `-I`: the message alone.
    d.run(&["--binary", "-I", "--no-heading", "-F", "a", "."])
        .code(0)
        .stdout_is(
            "binary file matches (found \"\\0\" byte around offset 20)\n1:foo a\n1:a\n\
             binary file matches (found \"\\0\" byte around offset 7)\n",
        );
    // rlmgrep's layout, as `rg --heading` places it: a file that printed
    // only its message has no heading.
    d.run(&["--binary", "-F", "a", "."]).code(0).stdout_is(
        "./s.bin: binary file matches (found \"\\0\" byte around offset 20)\n\n\
         ./t.txt\n1:\tfoo a\n\n\
         ./x.bin\n1:\ta\n./x.bin: binary file matches (found \"\\0\" byte around offset 7)\n",
    );
    // Stopped at a context line before any match printed, the file did not
    // match (`rg --binary -B1 -F bar s.bin t.txt`: nothing, exit 1).
    d.run(&["--binary", "-B1", "-F", "bar", "s.bin", "t.txt"])
        .code(1)
        .stdout_is("");
    // --json prints every match and names the offset, as rg's.
    d.run(&["--binary", "--json", "-F", "two", "s.bin"])
        .code(0)
        .stdout_has(r#""lines":{"text":"foo two\n"},"line_number":3"#)
        .stdout_has(r#"{"type":"end","data":{"path":{"text":"s.bin"},"binary_offset":20,"#);
    // Piped stdin is read as a stream (`rg --binary -n -F a`).
    d.run_stdin(
        &["--binary", "-I", "--no-heading", "-F", "a"],
        b"a\nfoo a\0bar a\n".to_vec(),
    )
    .code(0)
    .stdout_is("1:a\nbinary file matches (found \"\\0\" byte around offset 7)\n");
}

#[test]
fn the_last_of_binary_text_and_their_negations_wins_and_uuu_is_binary() {
    let d = binaries();
    let searched = |flags: &[&str]| {
        let args = [flags, &["--no-heading", "-g", "x.bin", "-F", "a", "."][..]].concat();
        d.run(&args).stdout.clone()
    };
    // `rg … -n --no-heading -F a .` with each, on x.bin.
    let binary = "./x.bin:1:a\n./x.bin: binary file matches (found \"\\0\" byte around offset 7)\n";
    let text = "./x.bin:1:a\n./x.bin:2:foo a\0bar a\n";
    for (flags, expected) in [
        (&["--binary"][..], binary),
        (&["-a", "--binary"], binary),
        (&["--binary", "-a"], text),
        (&["--binary", "--no-binary"], ""),
        (&["--binary", "--no-text"], ""),
        (&["-a", "--no-binary"], ""),
        (&["-a", "--no-text", "--binary"], binary),
        (&["-uuu"], binary),
        (&["-uuu", "--no-binary"], binary),
        (&["-uuu", "-a"], text),
        (&["-a", "-uuu"], text),
    ] {
        assert_eq!(searched(flags), expected, "{flags:?}");
    }
}

/// NUL-terminated records (one holding a line feed, the last with no
/// terminator), and a file of one record, line feeds and all.
fn records() -> Dir {
    let d = Dir::new();
    d.write(
        "z.txt",
        b"foo one\nstill one\0bar\0foo two\0baz\0qux\0foo end",
    );
    d.write("n.txt", "foo a\nbar\n");
    d
}

#[test]
fn null_data_reads_lines_ended_by_nul_and_prints_each_with_its_nul() {
    let d = records();
    // Each `rg --null-data -n --sort path --no-heading … .`.
    let cases: [(&[&str], &str); 9] = [
        (
            &["foo"],
            "./n.txt:1:foo a\nbar\n\0./z.txt:1:foo one\nstill one\0./z.txt:3:foo two\0\
             ./z.txt:6:foo end\0",
        ),
        (&["-c", "foo"], "./n.txt:1\0./z.txt:3\0"),
        (&["-l", "foo"], "./n.txt\0./z.txt\0"),
        (
            &["-o", "fo+"],
            "./n.txt:1:foo\0./z.txt:1:foo\0./z.txt:3:foo\0./z.txt:6:foo\0",
        ),
        (
            &["--invert-match", "foo"],
            "./z.txt:2:bar\0./z.txt:4:baz\0./z.txt:5:qux\0",
        ),
        (
            &["-C1", "foo"],
            "./n.txt:1:foo a\nbar\n\0--\0./z.txt:1:foo one\nstill one\0./z.txt-2-bar\0\
             ./z.txt:3:foo two\0./z.txt-4-baz\0./z.txt-5-qux\0./z.txt:6:foo end\0",
        ),
        (
            &["--vimgrep", r"o \w"],
            "./n.txt:1:3:foo a\nbar\n\0./z.txt:1:3:foo one\nstill one\0./z.txt:3:3:foo two\0\
             ./z.txt:6:3:foo end\0",
        ),
        // A `\n` is a byte inside a line: a pattern may hold one.
        (&[r"one\nstill"], "./z.txt:1:foo one\nstill one\0"),
        (&["-B1", "-F", "baz"], "./z.txt-3-foo two\0./z.txt:4:baz\0"),
    ];
    for (args, expected) in cases {
        let all = [&["--null-data", "--no-heading"][..], args, &["."][..]].concat();
        d.run(&all).code(0).stdout_is(expected);
    }
    // rlmgrep's layout ends its headings with the NUL too, as `rg --heading`.
    d.run(&["--null-data", "-F", "two", "."])
        .code(0)
        .stdout_is("./z.txt\x003:\tfoo two\0");
    // `find -print0 | rg --null-data -n 'txt$'`: a one-word pattern is a
    // regex here, never natural language.
    d.run_stdin(
        &["--null-data", "-I", "--no-heading", "txt$"],
        b"a.txt\0b c.txt\0d.md\0".to_vec(),
    )
    .code(0)
    .stdout_is("1:a.txt\x002:b c.txt\0");
    d.run(&["--null-data", "-F", "nowhere", "."])
        .code(1)
        .stdout_is("");
}

/// In a linked worktree (`.git` a file, `gitdir: …`), the exclude file the
/// walk reads is the main repository's `info/exclude`, reached through the
/// worktree's `commondir`; rg 13 reports its bad lines named as the ignore
/// crate spells that path (`…/.git/worktrees/wt/../../info/exclude`), as a
/// warning (exit 0). Checked with rg 13 on a worktree made by `git worktree
/// add`. kgrep looked for `.git/info/exclude` under the worktree and said
/// nothing.
#[test]
fn a_linked_worktrees_bad_exclude_line_is_a_warning_as_in_rg() {
    let d = lines();
    d.write("repo/.git/info/exclude", "*.log\na[\n");
    d.write("repo/.git/worktrees/wt/commondir", "../..\n");
    let linked = d.path().join("repo/.git/worktrees/wt");
    d.write("wt/.git", format!("gitdir: {}\n", linked.display()));
    d.write("wt/f.txt", "foobar\n");
    d.write("wt/g.log", "foobar\n");
    let run = d.run(&["-l", "-F", "foobar", "wt"]);
    run.code(0)
        .stdout_has("wt/f.txt\n")
        .stdout_lacks("g.log")
        .stderr_has(&format!(
            "kgrep: {}: line 2: error parsing glob 'a[': unclosed character class; missing ']'\n",
            linked.join("../..").join("info/exclude").display()
        ));
    d.run(&["--no-ignore-messages", "-l", "-F", "foobar", "wt"])
        .code(0)
        .stderr_lacks("error parsing glob");
}
