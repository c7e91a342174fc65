//! `-F`, `-i` and `-w`: ripgrep's options for how an exact query matches.
//! Each is checked against the lines `rg` prints for the same flags on the
//! corpus fixture; a natural-language query ignores `-i` and `-w`.

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
