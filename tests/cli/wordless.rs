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
