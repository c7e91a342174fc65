//! Queries with no word to search for (issue 16, item 9): only stop words,
//! one-letter words or whitespace. They say on stderr what happened, and a
//! natural-language-looking query never floods.

use crate::harness::{Dir, Run};

fn prose() -> Dir {
    let d = Dir::new();
    let text: String = (1..=40)
        .map(|i| format!("line {i}: the cache keeps the entry\n"))
        .collect();
    d.write("notes.txt", text);
    d.write("app.py", "def connect():\n    return None\n");
    d
}

fn match_lines(run: &Run) -> usize {
    run.stdout.lines().filter(|l| l.contains(":\t")).count()
}

#[test]
fn stop_words_only_say_so_on_one_stderr_line() {
    let d = prose();
    for query in ["how do I", "what is g?"] {
        let run = d.run(&[query, "."]);
        run.code(1).stdout_is("");
        let notes: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| l.contains("no word to search for"))
            .collect();
        assert_eq!(notes.len(), 1, "{}", run.describe);
        assert!(
            notes[0].contains(&format!("{query:?}")) && notes[0].contains("exact text"),
            "{}",
            run.describe
        );
    }
}

#[test]
fn a_blank_query_is_a_usage_error_like_an_empty_one() {
    let d = prose();
    d.run(&["   ", "."])
        .code(2)
        .stdout_is("")
        .stderr_has("kgrep: blank pattern");
}

#[test]
fn a_single_stop_word_does_not_flood() {
    let d = prose();
    let run = d.run(&["the", "."]);
    run.code(0)
        .stderr_has("the first 15 of 40 matching lines")
        .stderr_has("quote the query");
    assert_eq!(match_lines(&run), 15, "{}", run.describe);
    let run = d.run(&["--max-lines", "3", "the", "."]);
    assert_eq!(match_lines(&run), 3, "{}", run.describe);
    // Quoted, it is an exact search: every line, no note.
    let run = d.run(&["\"the\"", "."]);
    run.code(0).stderr_lacks("no word to search for");
    assert_eq!(match_lines(&run), 40, "{}", run.describe);
    // An identifier is exact too.
    d.run(&["connect", "."])
        .stderr_lacks("no word to search for");
}

/// A query with no word that is one token of regex syntax (`$`, `.`, `x?`,
/// `(x)?`, `[.]`) is the regex rg reads, not the text it is; punctuation
/// with no regex syntax (`;`) is still searched as written, with its note.
/// The expected bytes were checked with rg 13 (`rg -c '$' w.txt`, `rg -o
/// --vimgrep '.' w.txt`, `rg -o --vimgrep 'x?' w.txt`, …), in kgrep's
/// layout (`./` before the path).
#[test]
fn a_wordless_regex_is_searched_as_rg_searches_it() {
    let d = Dir::new();
    d.write("w.txt", "a.b\n\nx1;\n");
    for (args, expected) in [
        (&["-c", "$"][..], "./w.txt:3\n"),
        (
            &["-o", "--vimgrep", "."],
            "./w.txt:1:1:a\n./w.txt:1:2:.\n./w.txt:1:3:b\n\
             ./w.txt:3:1:x\n./w.txt:3:2:1\n./w.txt:3:3:;\n",
        ),
        (
            &["-o", "--vimgrep", "x?"],
            "./w.txt:1:1:\n./w.txt:1:2:\n./w.txt:1:3:\n./w.txt:1:4:\n\
             ./w.txt:2:1:\n./w.txt:3:1:x\n./w.txt:3:3:\n./w.txt:3:4:\n",
        ),
        (&["--count-matches", "(x)?"], "./w.txt:8\n"),
        (&["-o", "--vimgrep", "[.]"], "./w.txt:1:2:.\n"),
        (&["-c", "^"], "./w.txt:3\n"),
    ] {
        let all: Vec<&str> = args.iter().copied().chain(["w.txt"]).collect();
        d.run(&all)
            .code(0)
            .stdout_is(expected)
            .stderr_lacks("no word to search for");
    }
    d.run(&[";", "w.txt"])
        .code(0)
        .stdout_is("./w.txt\n3:\tx1;\n")
        .stderr_has("no word to search for");
}
