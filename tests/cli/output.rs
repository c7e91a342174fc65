//! What is printed: exact queries print every match like ripgrep, natural-language
//! queries print a short ranked answer; both in rlmgrep's grep-style layout.

use crate::harness::Dir;

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

/// Exit code, stdout and stderr as one text, for snapshots.
fn transcript(run: &crate::harness::Run) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        run.code, run.stdout, run.stderr
    )
}

#[test]
fn literal_identifier_prints_every_match_sorted_by_path() {
    let d = corpus();
    let run = d.run(&["MAX_RETRIES", "."]);
    run.code(0);
    insta::assert_snapshot!(transcript(&run), @r"
    exit: 0
    --- stdout
    ./src/net/client.rs
    6:	pub const MAX_RETRIES: u32 = 5;
    27:	                Err(err) if attempt < MAX_RETRIES => {
    --- stderr
    kgrep: Scanned 6 files. Loaded 6.
    ");
}

#[test]
fn literal_is_case_sensitive_and_quoted_phrases_are_literal() {
    let d = corpus();
    d.run(&["max_retries", "."]).code(1);
    let run = d.run(&["\"exponential backoff\"", "."]);
    run.code(0).stdout_has(
        "./docs/usage.md\n3:\tThe client retries failed requests with exponential backoff.",
    );
    assert!(
        run.stdout.contains("./src/net/client.rs"),
        "{}",
        run.describe
    );
}

#[test]
fn regex_queries_use_ripgrep_syntax() {
    let d = corpus();
    let run = d.run(&[r"fn\s+backoff_\w+", "."]);
    run.code(0)
        .stdout_is("./src/net/client.rs\n55:\tfn backoff_delay(attempt: u32) -> Duration {\n");
    // Not a valid regex: searched as the literal text it is.
    d.run(&["retr(y", "."]).code(1);
}

#[test]
fn natural_language_finds_split_identifiers() {
    let d = corpus();
    let run = d.run(&["parse jwt", "."]);
    run.code(0);
    run.first_heading_is("./src/auth/jwt.py");
    run.stdout_has("def parse_jwt(token):");
}

#[test]
fn natural_language_ranks_source_over_tests_and_docs() {
    let d = corpus();
    let run = d.run(&["how does the client retry with exponential backoff", "."]);
    run.code(0);
    run.first_heading_is("./src/net/client.rs");
    insta::assert_snapshot!(transcript(&run));
}

#[test]
fn natural_language_output_is_deterministic() {
    let d = corpus();
    let a = d.run(&[
        "where is the database pool size read from the environment",
        ".",
    ]);
    let b = d.run(&[
        "where is the database pool size read from the environment",
        ".",
    ]);
    a.code(0);
    assert_eq!(a.raw_stdout, b.raw_stdout);
    a.first_heading_is("./src/config/loader.go");
}

#[test]
fn no_match_exits_1_with_empty_stdout() {
    let d = corpus();
    d.run(&["zebra giraffe antelope", "."])
        .code(1)
        .stdout_is("");
    d.run(&["NoSuchIdentifier", "."]).code(1).stdout_is("");
}

#[test]
fn context_and_max_count() {
    let d = corpus();
    let run = d.run(&["-C", "1", "MAX_RETRIES", "src"]);
    run.code(0).stdout_is(
        "./src/net/client.rs\n5-\t/// How many times a failed request is retried before giving up.\n6:\tpub const MAX_RETRIES: u32 = 5;\n7-\t\n--\n26-\t                Ok(body) => return Ok(body),\n27:\t                Err(err) if attempt < MAX_RETRIES => {\n28-\t                    let delay = backoff_delay(attempt);\n",
    );
    d.run(&["-m", "1", "MAX_RETRIES", "src"])
        .stdout_is("./src/net/client.rs\n6:\tpub const MAX_RETRIES: u32 = 5;\n");
    d.run(&["-A", "1", "-B", "0", "-C", "5", "MAX_RETRIES", "src"])
        .stdout_has("6:\tpub const MAX_RETRIES: u32 = 5;\n7-\t\n--\n27:");
}

#[test]
fn crlf_is_normalised() {
    let d = corpus();
    d.run(&["database", "crlf.txt"])
        .code(0)
        .stdout_is("./crlf.txt\n2:\tthe database line\n");
}

#[test]
fn a_misspelt_word_is_corrected_from_the_corpus_and_says_so() {
    let d = corpus();
    let run = d.run(&["-v", "exponental backof delay", "."]);
    run.code(0)
        .stderr_has("typo: \"exponental\" is in no file; also searching exponential")
        .stderr_has("typo: \"backof\" is in no file; also searching backoff");
    run.first_heading_is("./src/net/client.rs");
    d.run(&["exponential backoff delay", "."])
        .code(0)
        .stderr_lacks("typo");
}

#[test]
fn explain_decomposes_every_printed_line_on_stderr() {
    let d = corpus();
    let plain = d.run(&["retry backoff", "."]);
    let explained = d.run(&["--explain", "retry backoff", "."]);
    explained.code(0);
    // stdout is untouched; each printed line has its explanation.
    assert_eq!(plain.stdout, explained.stdout);
    let mut printed = 0;
    for line in explained.stdout.lines() {
        if let Some((n, _)) = line.split_once(":\t") {
            printed += 1;
            let wanted = format!("explain:   {n}: ");
            assert!(explained.stderr.contains(&wanted), "{}", explained.describe);
        }
    }
    assert!(printed > 0);
    assert!(
        explained.stderr.contains("(words ") && explained.stderr.contains("on the line: retry"),
        "{}",
        explained.describe
    );
    // Without the flag, none of it.
    assert!(!plain.stderr.contains("explain:"));
}

#[test]
fn only_matching_prints_each_matched_part_on_its_own_line() {
    let d = corpus();
    // `rg -on -e 'retr(y|ies)' -e backoff`, parts in line order; -c counts
    // the parts, as `rg -oc` does.
    for flag in ["-o", "--only-matching"] {
        d.run(&[flag, "-e", "retr(y|ies)", "-e", "backoff", "tests"])
            .code(0)
            .stdout_is(
                "./tests/test_client.py\n1:\tretries\n1:\tbackoff\n4:\tretry\n4:\tbackoff\n\
                 5:\tretries\n6:\tbackoff\n7:\tretries\n7:\tbackoff\n10:\tretry\n\
                 11:\tretry\n11:\tretry\n11:\tbackoff\n11:\tretry\n",
            );
    }
    d.run(&["-oc", "-e", "retr(y|ies)", "-e", "backoff", "tests"])
        .code(0)
        .stdout_is("./tests/test_client.py:13\n");
    // Context lines stay whole, as ripgrep prints them; colour paints the part.
    d.run(&["-o", "-C1", "\"backoff_delay\"", "src"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs\n\
             27-\t                Err(err) if attempt < MAX_RETRIES => {\n\
             28:\tbackoff_delay\n\
             29-\t                    std::thread::sleep(delay);\n\
             --\n\
             54-\t/// Exponential backoff: 100ms, 200ms, 400ms, capped at 10 seconds.\n\
             55:\tbackoff_delay\n\
             56-\t    let millis = 100u64.saturating_mul(1 << attempt.min(16));\n",
        );
    d.run(&["-o", "--color", "always", "\"backoff_delay\"", "src"])
        .code(0)
        .stdout_has("\x1b[32m28\x1b[0m:\t\x1b[1m\x1b[31mbackoff_delay\x1b[0m\n");
    // Natural language: the query's words as matched on the printed lines,
    // never a whole line.
    let question = "how does the client retry with backoff";
    let run = d.run(&["-o", question, "."]);
    run.code(0);
    let parts: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| l.split_once(":\t").map(|(_, part)| part))
        .collect();
    assert!(!parts.is_empty(), "{}", run.stdout);
    for part in parts {
        let word = part.to_lowercase();
        assert!(
            ["client", "retr", "backoff"]
                .iter()
                .any(|w| word.contains(w)),
            "{part:?} is not a query word"
        );
    }
    // Nothing matched: exit 1, nothing printed.
    d.run(&["-o", "\"zzz_nothing\"", "."]).code(1).stdout_is("");
}

/// rg 13 accepts `--json` with `-o`, `--vimgrep` and `--no-heading` and prints
/// its messages as without them; with `-q` it prints none, and with `-q
/// --stats` the summary alone, counting the matches and no bytes printed.
#[test]
fn json_ignores_the_text_layouts_and_quiet_silences_it_as_in_rg() {
    let d = corpus();
    let plain = d.run(&["--json", "backoff_delay", "."]);
    plain.code(0).stdout_has("\"type\":\"match\"");
    let without_times = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter(|l| !l.contains("\"elapsed"))
            .map(str::to_string)
            .collect()
    };
    for layout in ["-o", "--vimgrep", "--no-heading"] {
        let run = d.run(&["--json", layout, "backoff_delay", "."]);
        run.code(0);
        assert_eq!(
            without_times(&run.stdout),
            without_times(&plain.stdout),
            "{layout}"
        );
    }
    d.run(&["-q", "--json", "backoff_delay", "."])
        .code(0)
        .stdout_is("");
    d.run(&["--json", "-q", "\"zzz_nothing\"", "."])
        .code(1)
        .stdout_is("");
    d.run(&["-q", "--json", "how is the backoff delay computed", "."])
        .code(0)
        .stdout_is("");
    let stats = d.run(&["-q", "--json", "--stats", "backoff_delay", "."]);
    stats.code(0);
    let lines: Vec<&str> = stats.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{}", stats.stdout);
    let summary: serde_json::Value = serde_json::from_str(lines[0]).expect("summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["data"]["stats"]["bytes_printed"], 0);
    assert!(summary["data"]["stats"]["matches"].as_u64() > Some(0));
}

#[test]
fn no_heading_and_vimgrep_print_ripgreps_flat_lines() {
    let d = corpus();
    // `rg --no-heading -n -C1 backoff_delay .`, byte for byte.
    d.run(&["--no-heading", "-C1", "backoff_delay", "."])
        .code(0)
        .stdout_is(
            "./src/net/client.rs-27-                Err(err) if attempt < MAX_RETRIES => {\n\
             ./src/net/client.rs:28:                    let delay = backoff_delay(attempt);\n\
             ./src/net/client.rs-29-                    std::thread::sleep(delay);\n\
             --\n\
             ./src/net/client.rs-54-/// Exponential backoff: 100ms, 200ms, 400ms, capped at 10 seconds.\n\
             ./src/net/client.rs:55:fn backoff_delay(attempt: u32) -> Duration {\n\
             ./src/net/client.rs-56-    let millis = 100u64.saturating_mul(1 << attempt.min(16));\n",
        );
    // Two files, no context: no separator, no blank line.
    d.run(&[
        "--no-heading",
        "-e",
        "fn backoff_delay",
        "-e",
        "def test_retry_again",
        ".",
    ])
    .code(0)
    .stdout_is(
        "./src/net/client.rs:55:fn backoff_delay(attempt: u32) -> Duration {\n\
             ./tests/test_client.py:10:def test_retry_again():\n",
    );
    // `rg --vimgrep 'retr(y|ies)' tests`: a line once per match, with its
    // column; -o prints the part after the column.
    let vim = d.run(&["--vimgrep", "retr(y|ies)", "tests"]);
    vim.code(0);
    assert!(vim.stdout.starts_with(
        "./tests/test_client.py:1:21:\"\"\"Tests mentioning retries and backoff a lot \
         (a distractor for ranking).\"\"\"\n./tests/test_client.py:4:10:def test_retry_backoff():\n"
    ));
    assert!(vim.stdout.ends_with(
        "./tests/test_client.py:11:13:    assert \"retry\" in \"retry backoff retry\"\n\
         ./tests/test_client.py:11:24:    assert \"retry\" in \"retry backoff retry\"\n\
         ./tests/test_client.py:11:38:    assert \"retry\" in \"retry backoff retry\"\n"
    ));
    d.run(&["--vimgrep", "-o", "-m", "1", "retr(y|ies)", "tests"])
        .code(0)
        .stdout_is("./tests/test_client.py:1:21:retries\n");
    // Natural language: every printed line names its file; colour as rg's.
    let flat = d.run(&[
        "--no-heading",
        "how does the client retry with backoff",
        ".",
    ]);
    flat.code(0);
    assert!(flat
        .stdout
        .lines()
        .all(|l| l.starts_with("./src/net/client.rs:")));
    d.run(&["--vimgrep", "--color", "always", "backoff_delay", "src"])
        .code(0)
        // rg 13's bytes: each field between resets, the column too.
        .stdout_has(
            "\x1b[0m\x1b[35m./src/net/client.rs\x1b[0m:\x1b[0m\x1b[32m28\x1b[0m:\x1b[0m33\x1b[0m:",
        );
}

#[test]
fn trim_leaves_out_leading_whitespace_and_keeps_numbers_columns_and_colours() {
    let d = corpus();
    // `rg --trim -n -C1 backoff_delay src`, in kgrep's layout.
    d.run(&["--trim", "-C1", "backoff_delay", "src"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs\n\
             27-\tErr(err) if attempt < MAX_RETRIES => {\n\
             28:\tlet delay = backoff_delay(attempt);\n\
             29-\tstd::thread::sleep(delay);\n\
             --\n\
             54-\t/// Exponential backoff: 100ms, 200ms, 400ms, capped at 10 seconds.\n\
             55:\tfn backoff_delay(attempt: u32) -> Duration {\n\
             56-\tlet millis = 100u64.saturating_mul(1 << attempt.min(16));\n",
        );
    // The column is the untrimmed line's; the colour still covers the match.
    d.run(&[
        "--trim",
        "--vimgrep",
        "--color",
        "always",
        "backoff_delay",
        "src",
    ])
    .code(0)
    .stdout_has(
        "\x1b[0m\x1b[32m28\x1b[0m:\x1b[0m33\x1b[0m:let delay = \x1b[0m\x1b[1m\x1b[31mbackoff_delay\x1b[0m(attempt);\n",
    );
    // Natural language too: no printed line starts with a space.
    let run = d.run(&["--trim", "how does the client retry with backoff", "."]);
    run.code(0);
    assert!(run
        .stdout
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .all(|(_, text)| !text.starts_with([' ', '\t'])));
}

#[test]
fn trim_trims_each_only_matching_part_and_vertical_tabs_as_rg() {
    let d = Dir::new();
    d.write("t.txt", "\x0b  vt foo\n  \t foo bar\n");
    d.write("u.txt", "x\n    let a = foo\n");
    // rg 13 trims each `-o` part as it trims a line (the column and offset
    // stay the match's); kgrep printed the part's spaces.
    // `rg -n -H --no-heading --sort path --trim -o --column -b '\s+foo' .`
    d.run(&[
        "--no-heading",
        "--trim",
        "-o",
        "--column",
        "-b",
        r"\s+foo",
        ".",
    ])
    .code(0)
    .stdout_is("./t.txt:1:6:5:foo\n./t.txt:2:1:10:foo\n./u.txt:2:12:13:foo\n");
    // `rg --heading -n --sort path --trim -o '\s+foo' .`, in kgrep's layout.
    d.run(&["--trim", "-o", r"\s+foo", "."])
        .code(0)
        .stdout_is("./t.txt\n1:\tfoo\n2:\tfoo\n\n./u.txt\n2:\tfoo\n");
    // `rg -n -H --no-heading --sort path --trim -o -U 'x\n\s+let' .`: each
    // line's part of a match across lines.
    d.run(&["--no-heading", "--trim", "-o", "-U", r"x\n\s+let", "."])
        .code(0)
        .stdout_is("./u.txt:1:x\n./u.txt:2:let\n");
    // A vertical tab is one of the spaces rg trims; kgrep kept it.
    // `rg -n -H --no-heading --sort path --trim foo .`
    d.run(&["--no-heading", "--trim", "-F", "foo", "."])
        .code(0)
        .stdout_is("./t.txt:1:vt foo\n./t.txt:2:foo bar\n./u.txt:2:let a = foo\n");
}

#[test]
fn no_line_number_no_filename_column_and_max_columns_as_rg() {
    let d = corpus();
    // `rg -n --heading --column backoff_delay src`, in kgrep's layout.
    d.run(&["--column", "backoff_delay", "src"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs\n\
             28:33:\t                    let delay = backoff_delay(attempt);\n\
             55:4:\tfn backoff_delay(attempt: u32) -> Duration {\n",
        );
    // `rg -N -I --heading backoff_delay src`: the lines alone.
    d.run(&["-N", "-I", "backoff_delay", "src"])
        .code(0)
        .stdout_is(
            "                    let delay = backoff_delay(attempt);\n\
             fn backoff_delay(attempt: u32) -> Duration {\n",
        );
    // The last of -n/-N and of -H/-I wins.
    d.run(&["-N", "-n", "-I", "-H", "backoff_delay", "src"])
        .stdout_has("./src/net/client.rs\n28:\t");
    // `rg -M 40 -n --no-heading backoff_delay src`.
    d.run(&["-M", "40", "--no-heading", "backoff_delay", "src"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs:28:[Omitted long matching line]\n\
             ./src/net/client.rs:55:[Omitted long matching line]\n",
        );
    // With --column (or colour, or --vimgrep) rg counts the matches it left
    // out: `rg --column -M 30 -n -C1 --no-heading backoff_delay src`.
    d.run(&[
        "--column",
        "-M",
        "30",
        "-C1",
        "--no-heading",
        "backoff_delay",
        "src",
    ])
    .code(0)
    .stdout_has(
        "./src/net/client.rs-27-[Omitted long context line]\n\
             ./src/net/client.rs:28:33:[Omitted long line with 1 matches]\n",
    );
    // -M 0 sets no limit; a natural-language query's lines obey -M too.
    d.run(&["-M", "0", "--no-heading", "backoff_delay", "src"])
        .stdout_has("28:                    let delay");
    let run = d.run(&["-M", "20", "how does the client retry with backoff", "."]);
    run.code(0).stdout_has("[Omitted long matching line]");
    // ripgrep's long names of -C, -A, -B and -m.
    let short = d
        .run(&["-C1", "-m1", "backoff_delay", "src"])
        .stdout
        .clone();
    let long = d.run(&["--context", "1", "--max-count", "1", "backoff_delay", "src"]);
    long.code(0).stdout_is(&short);
    let sides = d.run(&[
        "--before-context=1",
        "--after-context=1",
        "-m1",
        "backoff_delay",
        "src",
    ]);
    sides.stdout_is(&short);
}

/// `-M NUM` with `-o` measures each part, as rg 13 does: a part of NUM bytes
/// or fewer prints (kgrep left out every part of a line longer than NUM),
/// a longer one prints as `[Omitted long matching line]` with its own
/// column and offset (never "with N matches"); a context line is still
/// measured whole. Checked with rg 13 on the same file: `rg -n --no-heading
/// -M 20 -o 'fo+' a.txt`, and with `-M 2 -o --column`, `-M 2 -o --vimgrep
/// -b`, `-M 2 -o -r XY`, `-M 1 -o -r XY`, `-M 2 -o -A1` (rg prints no path
/// for one file: kgrep's `./a.txt:` is added). With `--max-columns-preview`
/// a longer part prints as kgrep's window of it (rg's shows `[... 0 more
/// matches]` where kgrep says how many bytes it left out).
#[test]
fn max_columns_measures_each_part_of_only_matching_as_rg() {
    let d = Dir::new();
    d.write(
        "a.txt",
        "short foo\nthis is a much longer line with foo and foo again in it\nctx line\nfoo\n",
    );
    let run = |args: &[&str]| {
        let args = [&["--no-heading"][..], args, &["fo+", "a.txt"]].concat();
        let run = d.run(&args);
        run.code(0);
        run.stdout.clone()
    };
    let lines = |l: &[&str]| {
        l.iter()
            .map(|l| format!("./a.txt{l}\n"))
            .collect::<String>()
    };
    assert_eq!(
        run(&["-M", "20", "-o"]),
        lines(&[":1:foo", ":2:foo", ":2:foo", ":4:foo"])
    );
    let omitted = "[Omitted long matching line]";
    assert_eq!(
        run(&["-M", "2", "-o", "--column"]),
        lines(&[
            &format!(":1:7:{omitted}"),
            &format!(":2:33:{omitted}"),
            &format!(":2:41:{omitted}"),
            &format!(":4:1:{omitted}"),
        ])
    );
    assert_eq!(
        run(&["-M", "2", "-o", "--vimgrep", "-b"]),
        lines(&[
            &format!(":1:7:6:{omitted}"),
            &format!(":2:33:42:{omitted}"),
            &format!(":2:41:50:{omitted}"),
            &format!(":4:1:75:{omitted}"),
        ])
    );
    assert_eq!(
        run(&["-M", "2", "-o", "--replace", "XY"]),
        lines(&[":1:XY", ":2:XY", ":2:XY", ":4:XY"])
    );
    assert_eq!(
        run(&["-M", "1", "-o", "--replace", "XY"]),
        lines(&[
            &format!(":1:{omitted}"),
            &format!(":2:{omitted}"),
            &format!(":2:{omitted}"),
            &format!(":4:{omitted}"),
        ])
    );
    assert_eq!(
        run(&["-M", "2", "-o", "-A1", "-m2"]),
        lines(&[
            &format!(":1:{omitted}"),
            &format!(":2:{omitted}"),
            &format!(":2:{omitted}"),
            "-3-[Omitted long context line]",
        ])
    );
    assert_eq!(
        run(&["-M", "2", "--max-columns-preview", "-o", "-m1"]),
        lines(&[":1:fo [... 1 bytes omitted]"])
    );
}

/// `-U -o` parts over lines are measured each, as rg 13 measures them: the
/// expected lines are `rg -n -U -o -M 5 'fo+\nbar'`'s and
/// `rg -n --column -U -o 'o\nb'`'s on the same file.
#[test]
fn max_columns_measures_each_part_of_a_multiline_match_as_rg() {
    let d = Dir::new();
    d.write(
        "a.txt",
        "alpha foo\nbar beta foo\nfoo\nbar end\nxfooooooooooooo\nbarrrrrrrrr\n",
    );
    let run = |args: &[&str]| {
        let run = d.run(&[&["--no-heading", "-n", "-U", "-o"][..], args, &["a.txt"]].concat());
        run.code(0);
        run.stdout.clone()
    };
    let lines = |l: &[&str]| {
        l.iter()
            .map(|l| format!("./a.txt:{l}\n"))
            .collect::<String>()
    };
    assert_eq!(
        run(&["-M", "5", "fo+\\nbar"]),
        lines(&[
            "1:foo",
            "2:bar",
            "3:foo",
            "4:bar",
            "5:[Omitted long matching line]",
            "6:bar"
        ])
    );
    assert_eq!(
        run(&["--column", "o\\nb"]),
        lines(&["1:9:o", "2:9:b", "3:26:o", "4:26:b", "5:50:o", "6:50:b"])
    );
}

#[test]
fn count_matches_counts_matches_not_lines() {
    let d = corpus();
    // `rg --count-matches -e retry -e backoff src` and `rg -c …`.
    d.run(&["--count-matches", "-e", "retry", "-e", "backoff", "src"])
        .code(0)
        .stdout_is("./src/net/client.rs:5\n");
    d.run(&["-c", "-e", "retry", "-e", "backoff", "src"])
        .code(0)
        .stdout_is("./src/net/client.rs:4\n");
}

/// A regex that matches the empty string (`x*`, `^`) has empty matches, and
/// rg 13 prints and counts every one: `-o` an empty part, `--vimgrep` a line
/// a match, `--column` the first match's column, `--count-matches`, `-oc`,
/// `--stats` and `-M`'s "with N matches" count them all. Each expected
/// output is rg's on the same file, in kgrep's layout (heading, `N:<TAB>`).
/// In "xxd", `x*` matches "xx" and the empty string after "d": none right
/// after "xx", the regex crate's rule.
#[test]
fn empty_matches_of_a_regex_are_printed_and_counted_as_rg() {
    let d = Dir::new();
    d.write("t", "abc\nxxd\n\n");
    d.write("ax", "abx\n");
    d.write("u", "ab");
    // `rg -n -o 'x*' t` and `rg -n -o '^' t`.
    d.run(&["-o", "x*", "t"])
        .code(0)
        .stdout_is("./t\n1:\t\n1:\t\n1:\t\n1:\t\n2:\txx\n2:\t\n3:\t\n");
    d.run(&["-o", "^", "t"])
        .code(0)
        .stdout_is("./t\n1:\t\n2:\t\n3:\t\n");
    // `rg -n -o -b --column 'x*' t`: each part's column and offset.
    d.run(&["-o", "-b", "--column", "x*", "t"])
        .code(0)
        .stdout_is("./t\n1:1:0:\t\n1:2:1:\t\n1:3:2:\t\n1:4:3:\t\n2:1:4:\txx\n2:4:7:\t\n3:1:8:\t\n");
    // `rg -n -o 'x*' u`: no empty match at the end of a file without a
    // last newline.
    d.run(&["-o", "x*", "u"])
        .code(0)
        .stdout_is("./u\n1:\t\n1:\t\n");
    // `rg --count-matches 'x*' t` and `rg -oc`; `rg -c` counts lines.
    d.run(&["--count-matches", "x*", "t"])
        .code(0)
        .stdout_is("./t:7\n");
    d.run(&["-oc", "x*", "t"]).code(0).stdout_is("./t:7\n");
    d.run(&["--count-matches", "^", "t"])
        .code(0)
        .stdout_is("./t:3\n");
    d.run(&["-c", "x*", "t"]).code(0).stdout_is("./t:3\n");
    d.run(&["--stats", "x*", "t"])
        .code(0)
        .stdout_has("\n7 matches\n3 matched lines\n");
    // `rg --vimgrep 'x*' t` and `rg --vimgrep '^' t`.
    d.run(&["--vimgrep", "x*", "t"]).code(0).stdout_is(
        "./t:1:1:abc\n./t:1:2:abc\n./t:1:3:abc\n./t:1:4:abc\n./t:2:1:xxd\n./t:2:4:xxd\n./t:3:1:\n",
    );
    d.run(&["--vimgrep", "^", "t"])
        .code(0)
        .stdout_is("./t:1:1:abc\n./t:2:1:xxd\n./t:3:1:\n");
    // `rg -n --column 'x*' ax`: the empty match before "a" is the first.
    d.run(&["--column", "x*", "ax"])
        .code(0)
        .stdout_is("./ax\n1:1:\tabx\n");
    d.run(&["--column", "^", "t"])
        .code(0)
        .stdout_is("./t\n1:1:\tabc\n2:1:\txxd\n3:1:\t\n");
    // `rg -n --no-heading --column -M 2 'x*' t`.
    d.run(&["--no-heading", "--column", "-M", "2", "x*", "t"])
        .code(0)
        .stdout_is(
            "./t:1:1:[Omitted long line with 4 matches]\n\
             ./t:2:1:[Omitted long line with 2 matches]\n./t:3:1:\n",
        );
    // `rg -n -o --color always '^' t`: an empty part has no colour codes.
    d.run(&["-o", "--color", "always", "^", "t"])
        .code(0)
        .stdout_is(
            "\x1b[35m./t\x1b[0m\n\x1b[32m1\x1b[0m:\t\n\x1b[32m2\x1b[0m:\t\n\x1b[32m3\x1b[0m:\t\n",
        );
}

#[test]
fn heading_undoes_an_earlier_no_heading_and_the_last_wins() {
    let d = corpus();
    let headed = d.run(&["backoff_delay", "src"]).stdout.clone();
    assert!(headed.starts_with("./src/net/client.rs\n28:\t"));
    d.run(&["--no-heading", "--heading", "backoff_delay", "src"])
        .code(0)
        .stdout_is(&headed);
    d.run(&["--heading", "--no-heading", "backoff_delay", "src"])
        .code(0)
        .stdout_has("./src/net/client.rs:28:");
}

#[test]
fn replace_prints_each_match_replaced_as_rg() {
    let d = corpus();
    // `rg -n --heading -r '<$1>' 'backoff_(\w+)' src`, in kgrep's layout.
    d.run(&["--replace", "<$1>", r"backoff_(\w+)", "src"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs\n\
             28:\t                    let delay = <delay>(attempt);\n\
             55:\tfn <delay>(attempt: u32) -> Duration {\n",
        );
    // `rg -o -r '$1' 'fn (\w+)\(&self' src/net/client.rs`: the groups alone.
    d.run(&[
        "-o",
        "--replace",
        "$1",
        r"fn (\w+)\(&self",
        "src/net/client.rs",
    ])
    .code(0)
    .stdout_is("./src/net/client.rs\n22:\tsend\n38:\tsend_once\n46:\tfollow\n");
    // `rg --vimgrep -r D delay src/net/client.rs`: columns in the new text.
    d.run(&["--vimgrep", "--replace", "D", "delay", "src/net/client.rs"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs:28:25:                    let D = backoff_D(attempt);\n\
             ./src/net/client.rs:28:37:                    let D = backoff_D(attempt);\n\
             ./src/net/client.rs:29:40:                    std::thread::sleep(D);\n\
             ./src/net/client.rs:55:12:fn backoff_D(attempt: u32) -> Duration {\n",
        );
    // An empty replacement is still a part of -o (`rg -o -r ''` prints it).
    d.run(&["-o", "--replace", "", "backoff_delay", "src"])
        .code(0)
        .stdout_is("./src/net/client.rs\n28:\t\n55:\t\n");
    // Counts and the exit status count the matches as they are.
    d.run(&["-c", "--replace", "", "backoff_delay", "src"])
        .code(0)
        .stdout_is("./src/net/client.rs:2\n");
    // The pattern is a regex, never natural language: this sentence is in no file.
    d.run(&["--replace", "x", "how does the client retry", "."])
        .code(1)
        .stdout_is("");
    // -U's matches span lines, which a line's replacement cannot show.
    d.run(&["-U", "--replace", "x", "delay", "src"])
        .code(2)
        .stderr_has("'--multiline' cannot be used with '--replace");
}

#[test]
fn stats_counts_what_printed_and_what_was_searched_as_rg() {
    let d = corpus();
    let run = d.run(&["--stats", "backoff_delay", "src"]);
    run.code(0);
    let out = &run.stdout;
    let (results, block) = out.split_once("\n\n").expect("a block after an empty line");
    // `rg --stats backoff_delay src`: the same counts; the bytes printed are
    // kgrep's own layout's.
    let lines: Vec<&str> = block.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "2 matches",
            "2 matched lines",
            "1 files contained matches",
            "3 files searched",
            &format!("{} bytes printed", results.len() + 1),
            "2904 bytes searched",
        ],
        "{}",
        run.describe
    );
    assert!(lines[6].ends_with(" seconds spent searching") && lines[7].ends_with(" seconds"));
    // -q prints only the block, and still searches every file (as rg's does).
    let quiet = d.run(&["-q", "--stats", "backoff_delay", "src"]);
    quiet
        .code(0)
        .stdout_has("\n2 matches\n")
        .stdout_has("\n3 files searched\n0 bytes printed\n");
    // --json carries them in its summary: no block.
    d.run(&["--json", "--stats", "backoff_delay", "src"])
        .code(0)
        .stdout_lacks("files searched");
}

/// `--stats` after a list (`-c`, `-l`, `--count-matches`, `-c
/// --include-zero`, `--files-without-match`) says `0 bytes printed`, as rg
/// 13 counts them (kgrep counted the list's bytes); after
/// `--files-without-match` the block is printed too (it was not), with the
/// search's counts. Checked with rg 13 on the same tree: `rg --stats -c
/// --sort path -F hit .`, and the same with `-l`, `--count-matches`, `-c
/// --include-zero`, `--files-without-match` and `-q`.
#[test]
fn stats_after_a_list_count_no_bytes_printed_as_rg() {
    let d = Dir::new();
    d.write("a", "hit hit\nhit\nno\n");
    d.write("b", "hit\n");
    d.write("c", "no\n");
    let block = |matches: usize, lines: usize| {
        format!(
            "\n{matches} matches\n{lines} matched lines\n2 files contained matches\n\
             3 files searched\n0 bytes printed\n22 bytes searched\n"
        )
    };
    let run = |list: &[&str], printed: &str, matches: usize, lines: usize| {
        let args = [
            &["--stats", "--sort", "path"][..],
            list,
            &["-F", "hit", "."],
        ]
        .concat();
        let run = d.run(&args);
        run.code(0);
        let (head, rest) = run.stdout.split_at(printed.len());
        assert_eq!(head, printed, "{}", run.describe);
        assert!(rest.starts_with(&block(matches, lines)), "{}", run.describe);
    };
    run(&["-c"], "./a:2\n./b:1\n", 4, 3);
    run(&["-l"], "./a\n./b\n", 4, 3);
    run(&["--count-matches"], "./a:3\n./b:1\n", 4, 3);
    run(&["-c", "--include-zero"], "./a:2\n./b:1\n./c:0\n", 4, 3);
    run(&["--files-without-match"], "./c\n", 4, 3);
    run(&["-q"], "", 4, 3);
}

#[test]
fn context_separator_is_set_or_left_out_as_rg() {
    let d = corpus();
    let group = |sep: &str| {
        format!(
            "./src/net/client.rs\n\
             27-\t                Err(err) if attempt < MAX_RETRIES => {{\n\
             28:\t                    let delay = backoff_delay(attempt);\n\
             29-\t                    std::thread::sleep(delay);\n\
             {sep}\
             54-\t/// Exponential backoff: 100ms, 200ms, 400ms, capped at 10 seconds.\n\
             55:\tfn backoff_delay(attempt: u32) -> Duration {{\n\
             56-\t    let millis = 100u64.saturating_mul(1 << attempt.min(16));\n"
        )
    };
    d.run(&["-C1", "backoff_delay", "src"])
        .code(0)
        .stdout_is(&group("--\n"));
    // `rg --context-separator '@\x40\t'`: escapes read as rg reads them.
    d.run(&[
        "-C1",
        "--context-separator",
        "@\\x40\\t",
        "backoff_delay",
        "src",
    ])
    .code(0)
    .stdout_is(&group("@@\t\n"));
    // An empty one still prints its line; --no-context-separator prints none,
    // and the later of the two flags wins.
    d.run(&["-C1", "--context-separator=", "backoff_delay", "src"])
        .code(0)
        .stdout_is(&group("\n"));
    d.run(&["-C1", "--no-context-separator", "backoff_delay", "src"])
        .code(0)
        .stdout_is(&group(""));
    d.run(&[
        "-C1",
        "--context-separator=X",
        "--no-context-separator",
        "backoff_delay",
        "src",
    ])
    .code(0)
    .stdout_is(&group(""));
    // `rg -n -C1 --no-heading --context-separator XX --sort path retry`:
    // between groups and between files alike; with none, no line at all
    // (nor the empty "line" after a.txt's last newline, as rg's).
    let two = Dir::new();
    two.write("a.txt", "retry\nx\ny\nz\nretry\n");
    two.write("b.txt", "w\nretry");
    let flat = |sep: &str| {
        format!(
            "./a.txt:1:retry\n./a.txt-2-x\n{sep}./a.txt-4-z\n./a.txt:5:retry\n\
             {sep}./b.txt-1-w\n./b.txt:2:retry\n"
        )
    };
    let args = [
        "-C1",
        "--no-heading",
        "--context-separator",
        "XX",
        "retry",
        ".",
    ];
    two.run(&args).code(0).stdout_is(&flat("XX\n"));
    let args = [
        "-C1",
        "--no-heading",
        "--no-context-separator",
        "retry",
        ".",
    ];
    two.run(&args).code(0).stdout_is(&flat(""));
}

/// `rg --passthru -n --heading --sort path` on the same files (kgrep's tab
/// after the number): every line of every file, matches as `N:`; an empty
/// file prints nothing; -m ends a file at its last match printed.
#[test]
fn passthru_prints_every_line_of_every_file_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "retry\nx\nretry\n");
    d.write("b.txt", "w\nretry");
    d.write("c.txt", "no match here\n");
    d.write("e.txt", "");
    d.run(&["--passthru", "retry", "."]).code(0).stdout_is(
        "./a.txt\n1:\tretry\n2-\tx\n3:\tretry\n\n./b.txt\n1-\tw\n2:\tretry\n\n\
         ./c.txt\n1-\tno match here\n",
    );
    d.run(&["--passthrough", "--no-heading", "retry", "."])
        .code(0)
        .stdout_is(
            "./a.txt:1:retry\n./a.txt-2-x\n./a.txt:3:retry\n./b.txt-1-w\n./b.txt:2:retry\n\
             ./c.txt-1-no match here\n",
        );
    d.run(&["--passthru", "-m1", "retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n1:\tretry\n");
    d.run(&["--passthru", "-m2", "retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n1:\tretry\n2-\tx\n3:\tretry\n");
    // No match anywhere: every line still prints, and the exit status is 1.
    d.run(&["--passthru", "nowhere", "c.txt"])
        .code(1)
        .stdout_is("./c.txt\n1-\tno match here\n");
    // With --replace, -N and -I: the file itself, its matches replaced.
    d.run(&[
        "--passthru",
        "-N",
        "-I",
        "--replace",
        "NEW",
        "re(try)",
        "a.txt",
    ])
    .code(0)
    .stdout_is("NEW\nx\nNEW\n");
    // Lists and counts are what they are without it.
    d.run(&["--passthru", "-c", "retry", "a.txt", "c.txt"])
        .code(0)
        .stdout_is("./a.txt:2\n");
}

/// The last of `--passthru` and `-A`, `-B`, `-C` wins, as in rg 13, whose
/// flags override one another: `--passthru -C1` prints the context groups
/// (kgrep printed every line, -C ignored), `-C1 --passthru` every line.
/// Checked with rg 13: `rg -n --no-heading FLAGS short p.txt` for each flag
/// set below (rg prints no path for one file; kgrep's `./p.txt` is cut).
#[test]
fn passthru_and_context_flags_the_last_wins_as_rg() {
    let d = Dir::new();
    d.write("p.txt", "a\nb\nshort\nc\nd\ne\nshort\nf\ng\n");
    let run = |flags: &[&str]| {
        let args = [&["--no-heading"][..], flags, &["short", "p.txt"]].concat();
        let run = d.run(&args);
        run.code(0);
        run.stdout.replace("./p.txt", "")
    };
    let every = [
        "-1-a", "-2-b", ":3:short", "-4-c", "-5-d", "-6-e", ":7:short", "-8-f", "-9-g",
    ];
    let lines = |l: &[&str]| l.iter().map(|l| format!("{l}\n")).collect::<String>();
    assert_eq!(
        run(&["--passthru", "-C1"]),
        lines(&["-2-b", ":3:short", "-4-c", "--", "-6-e", ":7:short", "-8-f"])
    );
    assert_eq!(run(&["-C1", "--passthru"]), lines(&every));
    assert_eq!(
        run(&["-C1", "--passthru", "-A1"]),
        lines(&[":3:short", "-4-c", "--", ":7:short", "-8-f"])
    );
    assert_eq!(
        run(&["-A1", "--passthrough", "-B1"]),
        lines(&["-2-b", ":3:short", "--", "-6-e", ":7:short"])
    );
    assert_eq!(
        run(&["--passthru", "-A0"]),
        lines(&[":3:short", ":7:short"])
    );
    assert_eq!(run(&["--passthru", "-C1", "--passthru"]), lines(&every));
    assert_eq!(
        run(&["--passthru", "--replace", "X", "-C1"]),
        lines(&["-2-b", ":3:X", "-4-c", "--", "-6-e", ":7:X", "-8-f"])
    );
}

/// `-b`, and the separators after each field, as rg 13 prints them on the
/// same files: offsets are of the file's bytes, so a CRLF counts two and an
/// invalid byte one (kgrep's line reads it as U+FFFD, rlmgrep's way), and
/// `--column`/`--vimgrep` columns and `-M`'s measure count the same bytes.
/// Each expected line is rg's, but for the `\r` rg prints and kgrep's text
/// drops, kgrep's `./` and its U+FFFD.
#[test]
fn byte_offsets_and_field_separators_are_printed_as_rg() {
    let d = Dir::new();
    d.write("a.txt", b"alpha foo\r\nbeta\nfoo gamma foo\n\xff foo\n");
    d.write("b.txt", "x\nfoo\n");
    // `rg --no-heading -n -b --column --sort path -F foo .`
    d.run(&["--no-heading", "-b", "--column", "-s", "-F", "foo", "."])
        .code(0)
        .stdout_is(
            "./a.txt:1:7:0:alpha foo\n./a.txt:3:1:16:foo gamma foo\n\
             ./a.txt:4:3:30:\u{fffd} foo\n./b.txt:2:1:2:foo\n",
        );
    // `rg --vimgrep -b`: each match's offset.
    d.run(&["--vimgrep", "-b", "-s", "-F", "foo", "."])
        .code(0)
        .stdout_is(
            "./a.txt:1:7:6:alpha foo\n./a.txt:3:1:16:foo gamma foo\n\
             ./a.txt:3:11:26:foo gamma foo\n./a.txt:4:3:32:\u{fffd} foo\n./b.txt:2:1:2:foo\n",
        );
    // `rg -o -b -n`: each part's; rlmgrep's layout keeps its heading and tab.
    d.run(&["-o", "-b", "-F", "foo", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n1:6:\tfoo\n3:16:\tfoo\n3:26:\tfoo\n4:32:\tfoo\n");
    // `-N`: the offset alone.
    d.run(&["-b", "-N", "-I", "--no-heading", "-F", "foo", "b.txt"])
        .code(0)
        .stdout_is("2:foo\n");
    // Piped stdin is read raw: its offsets are its bytes'.
    d.run_stdin(
        &["-b", "--no-heading", "-I", "-F", "foo"],
        b"x\r\nfoo\n".to_vec(),
    )
    .code(0)
    .stdout_is("2:3:foo\n");
    // `rg --field-match-separator '|' --field-context-separator '=\x3d' -b -n
    // -C1 --no-heading`: escapes read; a context line takes its own.
    d.run(&[
        "--field-match-separator",
        "|",
        "--field-context-separator",
        "=\\x3d",
        "-b",
        "-C1",
        "--no-heading",
        "-I",
        "-F",
        "foo",
        "b.txt",
    ])
    .code(0)
    .stdout_is("1==0==x\n2|2|foo\n");
    // rlmgrep's layout takes them too (a value that starts with `-` is
    // given with `=`, as rg's parser wants it).
    d.run(&["--field-match-separator=->", "-F", "foo", "b.txt"])
        .code(0)
        .stdout_is("./b.txt\n2->\tfoo\n");
    // `rg -M 4 -n --vimgrep -b`: a line's bytes with its terminator are
    // measured, and a left-out line prints once per match.
    let omitted = |n: usize| format!("[Omitted long line with {n} matches]");
    d.run(&["-M", "4", "--vimgrep", "-b", "-F", "foo", "a.txt"])
        .code(0)
        .stdout_is(&format!(
            "./a.txt:1:7:6:{one}\n./a.txt:3:1:16:{two}\n./a.txt:3:11:26:{two}\n./a.txt:4:3:32:{one}\n",
            one = omitted(1),
            two = omitted(2)
        ));
    // `--json`'s absolute_offset is the same offset, as rg's is.
    let json = d.run(&["--json", "-F", "foo", "a.txt"]);
    json.code(0);
    for (n, offset) in [(1, 0), (3, 16), (4, 30)] {
        let field = format!(r#""line_number":{n},"absolute_offset":{offset},"#);
        assert!(json.stdout.contains(&field), "{field}\n{}", json.stdout);
    }
    // `rg -M 3`: "foo\n" is 4 bytes, so it is left out; `-M 4` prints it.
    d.run(&["-M", "3", "--no-heading", "-F", "foo", "b.txt"])
        .code(0)
        .stdout_is("./b.txt:2:[Omitted long matching line]\n");
    d.run(&["-M", "4", "--no-heading", "-F", "foo", "b.txt"])
        .code(0)
        .stdout_is("./b.txt:2:foo\n");
}

/// `--path-separator`: each `/` of a printed path is the byte given, in
/// headings, flat lines and lists, as rg prints it; `--json` keeps the path
/// as it is, as rg's does; escapes are read as rg reads them (`\\`, the
/// spelling the help suggests, is one backslash); more than one byte is a
/// usage error.
#[test]
fn path_separator_replaces_the_slashes_of_printed_paths_as_rg() {
    let d = Dir::new();
    d.write("src/net/a.txt", "retry\n");
    let sep = ["--path-separator", "\\"];
    let with = |args: &[&'static str]| [&sep[..], args].concat();
    d.run(&with(&["-F", "retry", "src"]))
        .code(0)
        .stdout_is(".\\src\\net\\a.txt\n1:\tretry\n");
    d.run(&with(&["--no-heading", "-F", "retry", "src"]))
        .code(0)
        .stdout_is(".\\src\\net\\a.txt:1:retry\n");
    d.run(&with(&["-l", "-F", "retry", "src"]))
        .code(0)
        .stdout_is(".\\src\\net\\a.txt\n");
    d.run(&with(&["--json", "-F", "retry", "src"]))
        .code(0)
        .stdout_has(r#"{"type":"begin","data":{"path":{"text":"src/net/a.txt"}}}"#);
    // As a shell passes '\\', '\x5C' and '\t': read as rg 13 reads them.
    for escaped in [r"\\", r"\x5C"] {
        d.run(&["--path-separator", escaped, "-l", "-F", "retry", "src"])
            .code(0)
            .stdout_is(".\\src\\net\\a.txt\n");
    }
    d.run(&["--path-separator", r"\t", "-l", "-F", "retry", "src"])
        .code(0)
        .stdout_is(".\tsrc\tnet\ta.txt\n");
    d.run(&["--path-separator", "//", "-F", "retry", "src"])
        .code(2)
        .stdout_is("")
        .stderr_has(
            "a path separator must be exactly one byte, but the given separator is 2 bytes: //",
        );
}

/// On a last line without a newline, rg 13 does not report the empty match
/// at its very end (`$`, `x*$`): a line whose only match that was prints
/// whole and without a column (`--column`, `--vimgrep`, and `-o` too),
/// `--count-matches` lists its file with `:0`, `-c` counts the line. The
/// expected bytes were checked with rg 13 (`rg -n -o 'x*$' f`, `rg --vimgrep
/// -o 'x*$' f`, `rg --column --vimgrep 'x*$' f`, `rg -o -b --vimgrep '$'
/// f`, `rg --count-matches '$' one`, `rg -c '$' one`, `rg -n --column '$'
/// one`, `rg -n -o -b '$' one`), in kgrep's layout.
#[test]
fn an_empty_match_at_the_end_of_a_last_line_without_newline_is_no_match_as_rg() {
    let d = Dir::new();
    d.write("f", "abc\nxx\nfoo");
    d.write("one", "xx");
    for (args, expected) in [
        (&["-o", "x*$", "f"][..], "./f\n1:\t\n2:\txx\n3:\tfoo\n"),
        (
            &["--vimgrep", "-o", "x*$", "f"],
            "./f:1:4:\n./f:2:1:xx\n./f:3:foo\n",
        ),
        (
            &["--column", "--vimgrep", "x*$", "f"],
            "./f:1:4:abc\n./f:2:1:xx\n./f:3:foo\n",
        ),
        (
            &["-o", "-b", "--vimgrep", "$", "f"],
            "./f:1:4:3:\n./f:2:3:6:\n./f:3:7:foo\n",
        ),
        (&["--count-matches", "$", "f"], "./f:2\n"),
        (&["--count-matches", "$", "one"], "./one:0\n"),
        (&["-c", "$", "one"], "./one:1\n"),
        (&["--column", "$", "one"], "./one\n1:\txx\n"),
        (&["-o", "-b", "$", "one"], "./one\n1:0:\txx\n"),
    ] {
        d.run(args).code(0).stdout_is(expected);
    }
}

/// rg's flat lines (`--no-heading`, `--vimgrep`) never show the empty
/// "line" after a file's final newline as context (kgrep printed it, as
/// `./last.txt-4-`), while a file's own empty lines still print. The
/// expected lines are rg 13's: `rg -j1 --sort path -n --no-heading -A2 foo`
/// and `rg -j1 --sort path --vimgrep -C5 foo` in this folder (kgrep's
/// `./` before each path).
#[test]
fn flat_context_has_no_line_after_a_final_newline_as_rg() {
    let d = Dir::new();
    d.write("blanks.txt", "x\nfoo\n\n\n");
    d.write("last.txt", "a\nb\nfoo\n");
    d.write("one.txt", "foo\n");
    let rg_no_heading = "blanks.txt:2:foo\nblanks.txt-3-\nblanks.txt-4-\n--\n\
                         last.txt:3:foo\n--\none.txt:1:foo\n";
    let rg_vimgrep = "blanks.txt-1-x\nblanks.txt:2:1:foo\nblanks.txt-3-\nblanks.txt-4-\n--\n\
                      last.txt-1-a\nlast.txt-2-b\nlast.txt:3:1:foo\n--\none.txt:1:1:foo\n";
    let expect = |rg: &str| -> String {
        rg.lines()
            .map(|l| match l {
                "--" => "--\n".to_string(),
                _ => format!("./{l}\n"),
            })
            .collect()
    };
    d.run(&["--no-heading", "-A2", "-F", "foo", "."])
        .code(0)
        .stdout_is(&expect(rg_no_heading));
    d.run(&["--vimgrep", "-C5", "-F", "foo", "."])
        .code(0)
        .stdout_is(&expect(rg_vimgrep));
}
