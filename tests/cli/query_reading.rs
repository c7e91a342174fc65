//! How a query is read (issue 28): a regex that compiles is searched as one
//! (item 4); a one-word query read as natural language says so, and how to
//! print every match (item 3); CJK text is split into searchable words, and a
//! query with no searchable word says so (item 8).

use crate::harness::{Dir, Run};

fn match_lines(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .filter(|l| l.contains(":\t"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_regex_with_bare_repetition_is_searched_as_a_regex() {
    let d = Dir::new();
    d.write("a.txt", "xaaab\nno match here\naab ab\nb\n");
    for (query, lines) in [
        ("a*b", vec!["1:\txaaab", "3:\taab ab", "4:\tb"]),
        ("(a+)+b", vec!["1:\txaaab", "3:\taab ab"]),
        ("(a*)*b", vec!["1:\txaaab", "3:\taab ab", "4:\tb"]),
    ] {
        let run = d.run(&["-v", query, "."]);
        run.code(0)
            .stderr_has(&format!("query: regex {query:?}"))
            .stderr_lacks("no word to search for");
        assert_eq!(match_lines(&run), lines, "{query}\n{}", run.describe);
    }
    // `C++` names a language, not a pattern.
    d.run(&["-v", "C++", "."]).stderr_lacks("query: regex");
}
