//! `-e`, `-F`, `-i`, `-s`, `-S`, `-w`, `-x`, `-P` and `--invert-match`: ripgrep's options for which
//! patterns an exact query searches and how they match. Each is checked
//! against the lines `rg` prints for the same flags on the corpus fixture; a
//! natural-language query ignores the case and word options.

use crate::harness::Dir;

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

#[test]
fn ignore_case_matches_a_literal_in_any_case_and_colours_what_it_matched() {
    let d = corpus();
    d.run(&["\"BACKOFF\"", "."]).code(1).stdout_is("");
    for flag in ["-i", "--ignore-case"] {
        let run = d.run(&[flag, "-l", "\"BACKOFF\"", "."]);
        // `rg -il BACKOFF`, in path order.
        run.code(0)
            .stdout_is("./docs/usage.md\n./src/net/client.rs\n./tests/test_client.py\n");
    }
    d.run(&["-i", "--color", "always", "\"BACKOFF\"", "docs"])
        .code(0)
        .stdout_has("exponential \x1b[1m\x1b[31mbackoff\x1b[0m.");
    d.run(&["-v", "-i", "\"BACKOFF\"", "."])
        .stderr_has("query: literal \"BACKOFF\", ignoring case");
}

/// The one line of the corpus that holds `retry` as a whole word, and the
/// only one that holds `"retry"` with its quotes.
const LONE_RETRY: &str =
    "./tests/test_client.py\n11:\t    assert \"retry\" in \"retry backoff retry\"\n";

#[test]
fn word_regexp_matches_only_whole_words() {
    let d = corpus();
    // `retry` stands alone only on line 11 of the tests (`test_retry_backoff`
    // and `retrying` hold it inside a word), as `rg -w retry` prints.
    for flag in ["-w", "--word-regexp"] {
        d.run(&[flag, "\"retry\"", "."])
            .code(0)
            .stdout_is(LONE_RETRY);
    }
    // A regex too, with -i: `rg -iwc 'retr(y|ies)'`.
    d.run(&["-iwc", "retr(y|ies)", "."])
        .code(0)
        .stdout_is("./docs/usage.md:1\n./tests/test_client.py:4\n");
}

#[test]
fn fixed_strings_searches_the_pattern_as_written() {
    let d = corpus();
    d.write("notes.txt", "a+b is not a regex here\naab\n");
    // Quotes are part of the text, not a request for a literal.
    for flag in ["-F", "--fixed-strings"] {
        d.run(&[flag, "\"retry\"", "."])
            .code(0)
            .stdout_is(LONE_RETRY);
    }
    // Regex syntax is text: `a+b` is not `aab`.
    d.run(&["-F", "a+b", "notes.txt"])
        .code(0)
        .stdout_is("./notes.txt\n1:\ta+b is not a regex here\n");
    // Spaces alone are text too, as a quoted query's are.
    d.write("spaced.txt", "a   b\nab\n");
    d.run(&["-F", "   ", "spaced.txt"])
        .code(0)
        .stdout_is("./spaced.txt\n1:\ta   b\n");
    // Natural language is text too: nothing holds the whole sentence.
    d.run(&["-F", "how does the client retry", "."])
        .code(1)
        .stdout_is("");
}

#[test]
fn fixed_strings_prints_every_line_of_a_text_of_stop_words() {
    let d = Dir::new();
    let text: String = (1..=20)
        .map(|i| format!("line {i} of the file\n"))
        .collect();
    d.write("a.txt", &text);
    // Read as a query of stop words, "the" is capped by --max-lines (15) and
    // says so; as a fixed string, it is what `rg -F the` prints: every line.
    let capped = d.run(&["the", "."]);
    capped.stderr_has(
        "the first 15 of 20 matching lines (--max-lines), quote the query or pass -F to see them all",
    );
    assert_eq!(
        capped.stdout.lines().filter(|l| l.contains(":\t")).count(),
        15
    );
    let fixed = d.run(&["-F", "the", "."]);
    fixed.code(0);
    assert_eq!(
        fixed.stdout.lines().filter(|l| l.contains(":\t")).count(),
        20
    );
}

#[test]
fn a_natural_language_query_ignores_case_and_word_options() {
    let d = corpus();
    let question = "how does the client retry with backoff";
    let plain = d.run(&[question, "."]);
    plain.code(0);
    d.run(&["-i", "-w", question, "."])
        .code(0)
        .stdout_is(&plain.stdout);
}

#[test]
fn regexp_flags_search_every_pattern_and_make_the_first_argument_a_path() {
    let d = corpus();
    // `rg -n -e backoff_delay -e test_retry_again .`, in path order: a line
    // holding either pattern.
    for (a, b) in [("-e", "-e"), ("--regexp", "--regexp")] {
        d.run(&[a, "backoff_delay", b, "test_retry_again", "."])
            .code(0)
            .stdout_is(
                "./src/net/client.rs\n\
                 28:\t                    let delay = backoff_delay(attempt);\n\
                 55:\tfn backoff_delay(attempt: u32) -> Duration {\n\
                 \n\
                 ./tests/test_client.py\n\
                 10:\tdef test_retry_again():\n",
            );
    }
    // Two or more are regexes: `retr(y|ies)` is not text.
    d.run(&["-c", "-e", "retr(y|ies)", "-e", "zzz", "tests"])
        .code(0)
        .stdout_is("./tests/test_client.py:6\n");
    // With -F each is text, its regex syntax included.
    d.write("notes.txt", "a+b is text\n(x opens\naab\n");
    d.run(&["-F", "-e", "a+b", "-e", "(x", "notes.txt"])
        .code(0)
        .stdout_is("./notes.txt\n1:\ta+b is text\n2:\t(x opens\n");
    // One -e is PATTERN, one that starts with a dash too; the first
    // positional argument is a path: `docs` and `src` are searched, not `tests`.
    d.write("dash.txt", "--retries is a flag\n");
    d.run(&["-e", "\"--retries\"", "dash.txt"])
        .code(0)
        .stdout_is("./dash.txt\n1:\t--retries is a flag\n");
    d.run(&["-e", "\"exponential\"", "docs", "src"])
        .code(0)
        .stdout_is(
            "./docs/usage.md\n\
             3:\tThe client retries failed requests with exponential backoff.\n\
             \n\
             ./src/net/client.rs\n\
             21:\t    /// Sends a request, retrying with exponential backoff on connection errors.\n",
        );
    d.run(&["-v", "-e", "a", "-e", "b", "."])
        .stderr_has("query: regex \"(?:a)|(?:b)\"");
}

/// `-e ''` is rg's empty regex, which matches every line (at every
/// position, for `-o`), and `-e ' '` a regex too; a blank PATTERN is still
/// refused, as rlmgrep refuses it (contract case `empty_pattern`). The
/// expected bytes were checked with rg 13 (`rg -c -e '' e.txt`, `rg -o
/// --vimgrep --regexp= e.txt`, `rg -n -e ' ' e.txt`).
#[test]
fn an_empty_regexp_matches_every_line_as_rg() {
    let d = Dir::new();
    d.write("e.txt", "ab\n\nc d\n");
    for empty in [
        &["-e", ""][..],
        &["--regexp="][..],
        &["-e", "", "-e", "c"][..],
    ] {
        let args: Vec<&str> = ["-c"]
            .iter()
            .chain(empty)
            .chain(&["e.txt"])
            .copied()
            .collect();
        d.run(&args).code(0).stdout_is("./e.txt:3\n");
    }
    d.run(&["-e", "", "e.txt"])
        .code(0)
        .stdout_is("./e.txt\n1:\tab\n2:\t\n3:\tc d\n");
    d.run(&["-o", "--vimgrep", "--regexp=", "e.txt"])
        .code(0)
        .stdout_is(
            "./e.txt:1:1:\n./e.txt:1:2:\n./e.txt:1:3:\n./e.txt:2:1:\n\
             ./e.txt:3:1:\n./e.txt:3:2:\n./e.txt:3:3:\n./e.txt:3:4:\n",
        );
    d.run(&["-e", " ", "e.txt"])
        .code(0)
        .stdout_is("./e.txt\n3:\tc d\n");
    d.run(&["", "e.txt"])
        .code(2)
        .stderr_has("kgrep: missing pattern");
    d.run(&[" ", "e.txt"])
        .code(2)
        .stderr_has("kgrep: blank pattern");
}

/// `-F ''` is rg's empty literal, which every line holds (`rg -F '' e.txt`
/// prints all three lines, `rg -c -F -x '' e.txt` 1, checked with rg 13);
/// kgrep refused it as a missing pattern, while `-F ' '` and `-F -e ''`
/// searched. rlmgrep has no -F, so its empty-pattern error (kept for a
/// bare `''`, with `-x` too: contract case `empty_pattern`) is not at stake.
#[test]
fn an_empty_fixed_string_matches_every_line_as_rg() {
    let d = Dir::new();
    d.write("e.txt", "ab\n\nc d\n");
    d.run(&["-F", "", "e.txt"])
        .code(0)
        .stdout_is("./e.txt\n1:\tab\n2:\t\n3:\tc d\n");
    d.run(&["--fixed-strings", "-c", "", "e.txt"])
        .code(0)
        .stdout_is("./e.txt:3\n");
    d.run(&["-F", "-x", "-c", "", "e.txt"])
        .code(0)
        .stdout_is("./e.txt:1\n");
    d.run(&["-x", "", "e.txt"])
        .code(2)
        .stderr_has("kgrep: missing pattern");
}

#[test]
fn case_flags_follow_ripgrep_and_the_last_one_wins() {
    let d = corpus();
    // -S: in any case without an upper-case letter (`rg -S exponential`
    // prints three lines), in its case with one (`rg -S Exponential`: one).
    d.run(&["-c", "-S", "\"exponential\"", "."])
        .code(0)
        .stdout_is("./docs/usage.md:1\n./src/net/client.rs:2\n");
    d.run(&["-c", "--smart-case", "\"Exponential\"", "."])
        .code(0)
        .stdout_is("./src/net/client.rs:1\n");
    // -s undoes an earlier -i or -S; a later -i undoes -s.
    d.run(&["-i", "-s", "\"BACKOFF\"", "."]).code(1);
    d.run(&["-S", "--case-sensitive", "\"exponential\"", "-c", "."])
        .code(0)
        .stdout_is("./docs/usage.md:1\n./src/net/client.rs:1\n");
    d.run(&["-s", "-i", "-l", "\"BACKOFF\"", "docs"])
        .code(0)
        .stdout_is("./docs/usage.md\n");
    d.run(&["-v", "-S", "\"x\"", "."])
        .stderr_has("query: literal \"x\", smart case");
}

#[test]
fn line_regexp_matches_whole_lines_and_reads_natural_language_as_text() {
    let d = Dir::new();
    d.write("a.txt", "retry\nretry later\n  retry\nRetry\n");
    // `rg -nx retry a.txt`: the first line alone.
    for flag in ["-x", "--line-regexp"] {
        d.run(&[flag, "retry", "a.txt"])
            .code(0)
            .stdout_is("./a.txt\n1:\tretry\n");
    }
    // Read as natural language, `retry` prints lines that hold it in a longer
    // line too.
    d.run(&["retry", "a.txt"]).stdout_has("2:\tretry later\n");
    // A regex, with -i; -x wins over -w.
    d.run(&["-x", "-i", "-w", "\\s*retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n1:\tretry\n3:\t  retry\n4:\tRetry\n");
    d.run(&["-x", "retry", "a.txt"])
        .stderr_lacks("no word to search for");
}

/// A file is searched as the LF text kgrep reads (CRLF as one line end, as
/// rlmgrep reads it): a whole-line literal matches a CRLF line as a
/// whole-line regex does, though a literal's files are otherwise streamed
/// raw before they are loaded.
#[test]
fn a_whole_line_literal_matches_a_crlf_line_as_a_regex_does() {
    let d = Dir::new();
    d.write("crlf.txt", "one\r\nretry\r\nretry later\r\n");
    for pattern in ["retry", "retr\\w"] {
        d.run(&["-x", pattern, "crlf.txt"])
            .code(0)
            .stdout_is("./crlf.txt\n2:\tretry\n");
    }
}

/// A pattern that holds a newline (`-F`, `-x`, a quoted phrase) matches
/// nothing line by line, as a regex that writes `\n` does: rg 13 refuses it
/// ("the literal '"\n"' is not allowed in a regex", exit 2, nothing on
/// stdout); kgrep finds nothing and says on one stderr line to pass -U, as
/// for the regex (it said nothing).
#[test]
fn a_pattern_holding_a_newline_says_to_pass_multiline() {
    let d = Dir::new();
    d.write("rep.txt", "foo\nbar\n");
    let note = "'foo\\nbar' holds a line end (\\n), which a line never does: pass -U";
    for args in [
        &["-F", "foo\nbar", "rep.txt"][..],
        &["-x", "-e", "foo\nbar", "rep.txt"],
        &["\"foo\nbar\"", "rep.txt"],
    ] {
        d.run(args)
            .code(1)
            .stdout_is("")
            .stderr_has(note)
            .stderr_lacks("foo\nbar");
    }
    // With -U the text spans lines: `rg -nU --heading -F 'foo<LF>bar' rep.txt`.
    d.run(&["-U", "-F", "foo\nbar", "rep.txt"])
        .code(0)
        .stdout_is("./rep.txt\n1:\tfoo\n2:\tbar\n");
}

#[test]
fn multiline_lets_a_regex_span_lines_and_prints_each_of_them() {
    let d = Dir::new();
    d.write(
        "m.rs",
        "fn main() {\n    let x = 1;\n}\nfn other(\n  a: u32,\n) {}\n",
    );
    // `rg -nU '\{\n\s+let' m.rs`: both lines of the match.
    for flag in ["-U", "--multiline"] {
        d.run(&[flag, r"\{\n\s+let", "m.rs"])
            .code(0)
            .stdout_is("./m.rs\n1:\tfn main() {\n2:\t    let x = 1;\n");
    }
    // `.` crosses a line end only with --multiline-dotall, as in rg.
    d.run(&["-U", r"fn main.*?\}", "m.rs"]).code(1);
    d.run(&["-U", "--multiline-dotall", r"fn main.*?\}", "m.rs"])
        .code(0)
        .stdout_is("./m.rs\n1:\tfn main() {\n2:\t    let x = 1;\n3:\t}\n");
    // `^` still holds at each line's start.
    d.run(&["-U", r"^  a", "m.rs"])
        .code(0)
        .stdout_is("./m.rs\n5:\t  a: u32,\n");
    // Without -U a line end matches nothing, and stderr says why.
    d.run(&[r"fn other\(\n", "m.rs"])
        .code(1)
        .stdout_is("")
        .stderr_has("holds a line end (\\n), which a line never does: pass -U");
    d.run(&["--multiline-dotall", "x", "m.rs"]).code(2);
}

#[test]
fn pattern_files_are_regexes_one_a_line_and_make_every_argument_a_path() {
    let d = corpus();
    d.write("pats.txt", "MAX_RETRIES\r\nbackoff_delay\n");
    // `rg -n --heading -f pats.txt src`, in kgrep's layout.
    let expected = "./src/net/client.rs\n\
                    6:\tpub const MAX_RETRIES: u32 = 5;\n\
                    27:\t                Err(err) if attempt < MAX_RETRIES => {\n\
                    28:\t                    let delay = backoff_delay(attempt);\n\
                    55:\tfn backoff_delay(attempt: u32) -> Duration {\n";
    d.run(&["-f", "pats.txt", "src"])
        .code(0)
        .stdout_is(expected);
    // From stdin, and beside -e: all are searched.
    d.run_stdin(&["-f", "-", "src"], "MAX_RETRIES\nbackoff_delay\n")
        .code(0)
        .stdout_is(expected);
    d.write("one.txt", "MAX_RETRIES\n");
    d.run(&["-f", "one.txt", "-e", "backoff_delay", "src"])
        .code(0)
        .stdout_is(expected);
    // One line that reads as natural language is still searched as text.
    d.write("words.txt", "how does the client retry\n");
    d.run(&["-f", "words.txt", "src"]).code(1).stdout_is("");
    // An empty file matches nothing (exit 1); a missing one is an error.
    d.write("empty.txt", "");
    d.run(&["-f", "empty.txt", "src"]).code(1).stdout_is("");
    d.run(&["-f", "nowhere.txt", "src"])
        .code(2)
        .stdout_is("")
        .stderr_has("nowhere.txt: No such file or directory");
}

#[test]
fn pcre2_runs_look_around_and_back_references_as_rg_p() {
    let d = corpus();
    // `rg -n --heading -P '(?<=let )delay(?= =)' src`.
    d.run(&["-P", "(?<=let )delay(?= =)", "src"])
        .code(0)
        .stdout_is(
            "./src/net/client.rs\n\
             28:\t                    let delay = backoff_delay(attempt);\n",
        );
    // `rg -P -o -i '(?<=fn )BACKOFF_\w+' src`: -i and -o apply.
    d.run(&["--pcre2", "-o", "-i", r"(?<=fn )BACKOFF_\w+", "src"])
        .code(0)
        .stdout_is("./src/net/client.rs\n55:\tbackoff_delay\n");
    // `rg -P -w backoff src`: only the whole word, not `backoff_delay`.
    d.run(&["-P", "-w", "--no-heading", "backoff", "src"])
        .code(0)
        .stdout_has("./src/net/client.rs:21:")
        .stdout_has("./src/net/client.rs:54:")
        .stdout_lacks(":28:");
    // A back-reference, and --replace with the groups.
    let t = Dir::new();
    t.write("a.txt", "retry retry\nretry once\n");
    t.run(&["-P", r"(\w+) \1", "."])
        .code(0)
        .stdout_is("./a.txt\n1:\tretry retry\n");
    t.run(&["-P", "--replace", "[$1]", r"(\w+)(?= once)", "."])
        .code(0)
        .stdout_is("./a.txt\n2:\t[retry] once\n");
    // The pattern is a regex, never natural language; a bad one is exit 2.
    t.run(&["-P", "how does it retry", "."]).code(1);
    t.run(&["-P", "(", "."])
        .code(2)
        .stderr_has("invalid regex \"(\" (-P)");
    t.run(&["-P", "-F", "x", "."]).code(2);
}

#[test]
fn invert_match_prints_the_lines_that_do_not_match_as_rg() {
    let d = Dir::new();
    d.write("a.txt", "alpha retry\nbeta\nretry retry\n");
    d.write("b.txt", "gamma\n");
    // `rg -n --heading -v retry`: a file with no match prints whole, and
    // the empty "line" after the last newline is no line.
    d.run(&["--invert-match", "retry", "."])
        .code(0)
        .stdout_is("./a.txt\n2:\tbeta\n\n./b.txt\n1:\tgamma\n");
    // `rg -c -v retry` and `rg -v --count-matches retry`: lines, once each.
    d.run(&["--invert-match", "-c", "retry", "."])
        .code(0)
        .stdout_is("./a.txt:1\n./b.txt:1\n");
    d.run(&["--invert-match", "--count-matches", "retry", "."])
        .code(0)
        .stdout_is("./a.txt:1\n./b.txt:1\n");
    // `rg -v -o retry a.txt` prints the inverted line whole.
    d.run(&["--invert-match", "-o", "retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n2:\tbeta\n");
    // The pattern is a regex, never natural language: this one is on no line.
    d.run(&["--invert-match", "how does it retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n1:\talpha retry\n2:\tbeta\n3:\tretry retry\n");
    // Every line matches: nothing prints, exit 1.
    d.run(&["--invert-match", "-F", "t", "a.txt"])
        .code(1)
        .stdout_is("");
    // An inverted line holds no match, so it has no column: `rg -v --column
    // retry a.txt` prints `2:beta`, `rg -v --vimgrep` `a.txt:2:beta`.
    d.run(&["--invert-match", "--column", "retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt\n2:\tbeta\n");
    d.run(&["--invert-match", "--vimgrep", "retry", "a.txt"])
        .code(0)
        .stdout_is("./a.txt:2:beta\n");
}

/// With `-U`, a match over lines is rg 13's: `-c` and `--count-matches`
/// count matches, not lines; `-o` prints each line's part of a match, with
/// the column of the match's start in its run of lines and the match's
/// offset; `--vimgrep` prints the line a match starts on; `-m` counts runs
/// of lines; a query that writes `\n` is a regex. The expected bytes were
/// checked with rg 13 (`rg -U -n -o 'foo\nbar' m.txt`, `rg -U -c …`, `rg -U
/// --count-matches …`, `rg -U --vimgrep …`, `rg -U --vimgrep -o
/// '(?s)start.*?end' m.txt`, `rg -U -n -o -b …`, `rg -U -m1 -c …`), in
/// kgrep's layout.
#[test]
fn multiline_matches_print_and_count_as_rg() {
    let d = Dir::new();
    d.write(
        "m.txt",
        "foo\nbar\nbaz\nstart a\nb end\nstart c end\nx foo\nbar y\n",
    );
    let spans = r"(?s)start.*?end";
    for (args, expected) in [
        (
            &["-U", "-o", r"foo\nbar", "m.txt"][..],
            "./m.txt\n1:\tfoo\n2:\tbar\n7:\tfoo\n8:\tbar\n",
        ),
        (&["-U", "-c", r"foo\nbar", "m.txt"], "./m.txt:2\n"),
        (
            &["-U", "--count-matches", r"foo\nbar", "m.txt"],
            "./m.txt:2\n",
        ),
        (
            &["-U", "--vimgrep", r"foo\nbar", "m.txt"],
            "./m.txt:1:1:foo\n./m.txt:7:3:x foo\n",
        ),
        (
            &["-U", "--vimgrep", "-o", spans, "m.txt"],
            "./m.txt:4:1:start a\n./m.txt:5:1:b end\n./m.txt:6:15:start c end\n",
        ),
        (
            &["-U", "-o", "-b", spans, "m.txt"],
            "./m.txt\n4:12:\tstart a\n5:12:\tb end\n6:26:\tstart c end\n",
        ),
        (
            &["-U", "--vimgrep", spans, "m.txt"],
            "./m.txt:4:1:start a\n./m.txt:6:1:start c end\n",
        ),
        (&["-U", "-c", spans, "m.txt"], "./m.txt:2\n"),
        (&["-U", "-m1", "-c", spans, "m.txt"], "./m.txt:2\n"),
        // A pattern that cannot match a line end is searched line by line.
        (&["-U", "-c", "\"foo\"", "m.txt"], "./m.txt:2\n"),
    ] {
        d.run(args).code(0).stdout_is(expected);
    }
}
