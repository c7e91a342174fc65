//! How a query is read (issue 28): a regex that compiles is searched as one
//! (item 4); a one-word query read as natural language says so, and how to
//! print every match (item 3); CJK text is split into searchable words, and a
//! query with no searchable word says so (item 8); a regex the engine refuses
//! says it was searched as words.

use serde_json::json;

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

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

#[test]
fn a_one_word_query_says_how_it_was_read_when_lines_were_left_out() {
    // 40 files, 83 lines holding `Abort`: ranked, the best places print.
    let d = Dir::new();
    for i in 0..40 {
        let mut text =
            format!("def step_{i}(job):\n    if job.failed:\n        raise Abort(job)\n");
        if i % 2 == 0 {
            text.push_str("    # Abort the whole batch\n");
        }
        if i == 7 {
            text.push_str("class Abort(Exception):\n    pass\n");
        }
        d.write(&format!("jobs/step{i:02}.py"), text);
    }
    let run = d.run(&["--offline", "Abort", "."]);
    run.code(0);
    let printed = match_lines(&run).len();
    assert!(printed < 61, "{}", run.describe);
    let note = "\"Abort\" was read as natural language: the best places of the 40 files \
                holding it in some form (stemmed, with synonyms), ranked; to print every \
                line holding it exactly, as ripgrep would, quote it (kgrep '\"Abort\"') or \
                pass -F";
    assert_eq!(
        run.stderr
            .lines()
            .filter(|l| l.contains("read as natural language"))
            .collect::<Vec<_>>(),
        [format!("kgrep: {note}")],
        "{}",
        run.describe
    );
    // What it says to do prints every line holding the word, as `rg Abort`.
    let every = d.run(&["--offline", "\"Abort\"", "."]);
    every.code(0).stderr_lacks("read as natural language");
    assert_eq!(match_lines(&every).len(), 40 + 20 + 1, "{}", every.describe);
    let fixed = d.run(&["--offline", "-F", "Abort", "."]);
    fixed.code(0).stdout_is(&every.stdout);
    // A word whose every line is printed: nothing to say.
    let small = Dir::new();
    small.write("a.py", "class Abort(Exception):\n    pass\n");
    small.write("b.py", "raise Abort()\n");
    small
        .run(&["--offline", "Abort", "."])
        .code(0)
        .stderr_lacks("read as natural language");
}

#[test]
fn a_cjk_query_finds_its_words_and_the_latin_word_inside() {
    let d = Dir::new();
    d.write(
        "client.go",
        "package web\n\n// 客户端IP在这里计算\nfunc remote(c *Context) string {\n\treturn c.addr\n}\n",
    );
    d.write(
        "server.go",
        "package web\n\n// 服务器配置\nfunc serve() {}\n",
    );
    let run = d.run(&["--offline", "-v", "客户端IP在哪里计算", "."]);
    run.code(0)
        .stderr_has("terms: 客户 (客户), 户端 (户端), ip (ip), 计算 (计算)")
        .stdout_has("3:\t// 客户端IP在这里计算")
        .stderr_lacks("read as natural language");
    assert_eq!(run.headings(), ["./client.go"], "{}", run.describe);
    // A word with non-ASCII letters is matched as written, as a whole word.
    let d = Dir::new();
    d.write("a.py", "größe = 3\ngrößer = 4\n");
    d.run(&["--offline", "größe", "."])
        .code(0)
        .stdout_is("./a.py\n1:\tgröße = 3\n");
}

#[test]
fn a_query_with_no_searchable_word_says_so() {
    let d = Dir::new();
    d.write("a.txt", "nothing here\n");
    // Only the question's phrasing ("where"): searched as the exact text.
    d.run(&["在哪里", "."])
        .code(1)
        .stderr_has("\"在哪里\" has no word to search for");
    let long = "x".repeat(80);
    d.run(&[long.as_str(), "."]).code(1).stderr_has(&format!(
        "\"{}…\" has no word that can be searched for (each is longer than 64 bytes)",
        "x".repeat(40)
    ));
}

#[test]
fn a_regex_the_engine_refuses_says_it_was_searched_as_words() {
    let d = Dir::new();
    d.write("a.txt", "retry backoff\nbackoff backoff\nno match here\n");
    // Look-around: rg refuses it; kgrep ranks the words, and says so.
    d.run(&["backoff(?= retry)", "."]).code(0).stderr_has(
        "'backoff(?= retry)' looks like a regex but is not one the default engine runs \
         (look-around, including look-ahead and look-behind, is not supported); \
         its words were searched as natural language; -P runs it as a regex",
    );
    // Without a space it is no call to look up either: `backoff(?=retry)`
    // was searched as the text it is, silently.
    d.run(&["backoff(?=retry)", "."])
        .code(0)
        .stdout_has("1:\tretry backoff\n")
        .stderr_has("'backoff(?=retry)' looks like a regex but is not one the default engine runs");
    // A back-reference with no word to rank is searched as its text.
    d.run(&[r"(\w+) \1", "."])
        .code(1)
        .stderr_has("(backreferences are not supported); it was searched as the text it is");
    // A regex that runs, a question and a quoted string say nothing of the kind.
    for query in [r"back\w+", "what sets the timeout?", "\"x(?=y)\""] {
        d.run(&[query, "."]).stderr_lacks("looks like a regex");
    }
}

/// A word of a natural-language query that no file holds in any form is
/// named on stderr when they are most of its words and the others printed
/// lines, so lines that only
/// hold "work" are not taken for the answer to "how does the flux capacitor
/// zorblat work"; a word held in some form (a synonym, a stem, an
/// identifier's part) is not named, and nothing is said when nothing printed.
#[test]
fn words_no_file_holds_are_named_when_the_others_printed_lines() {
    let d = Dir::new();
    d.write(
        "src/jobs.py",
        "def run_worker(job):\n    job.work()\n    retry(job)\n",
    );
    d.write(
        "src/net.py",
        "def fetch(url):\n    return get(url, timeout=5)\n",
    );
    let run = d.run(&[
        "--offline",
        "how does the flux capacitor zorblat worker",
        ".",
    ]);
    run.code(0).stderr_has(
        "kgrep: no file holds any of 'flux', 'capacitor' or 'zorblat' in any form: \
         the lines printed hold the query's other words, not these\n",
    );
    assert!(!match_lines(&run).is_empty(), "{}", run.describe);
    d.run(&["--offline", "zorblat flux retry", "."])
        .code(0)
        .stderr_has(
            "kgrep: no file holds any of 'zorblat' or 'flux' in any form: \
             the lines printed hold the query's other words, not these\n",
        );
    // Held in some form: a stem (retries), an identifier's part (worker);
    // or most words held (a long question holds words no code uses).
    for query in [
        "retries of a worker",
        "where is the timeout of fetch",
        "retry zorblat",
        "how does the worker retry a job versus zorblat",
    ] {
        d.run(&["--offline", query, "."])
            .code(0)
            .stderr_lacks("in any form");
    }
    // Nothing printed: exit 1 says it.
    d.run(&["--offline", "zorblat capacitor", "."])
        .code(1)
        .stderr_lacks("in any form");
    // Exact queries are not read as words.
    d.run(&["--offline", "\"zorblat retry\"", "."])
        .code(1)
        .stderr_lacks("in any form");
}

/// The words-in-no-file note describes kgrep's own ranking ("the lines
/// printed hold the query's other words"): when the lines printed are the
/// model's verified claims (`--rlm`, `KGREP_LLM=always`), it is not said, as
/// rlmgrep says nothing of the kind (the contract's `pdf_page_boundary` and
/// `stdin_content` printed it over the model's lines). When every claim is
/// dropped and the offline results print, it is said again.
#[test]
fn words_no_file_holds_are_not_named_over_the_models_lines() {
    let d = Dir::new();
    d.write(
        "src/jobs.py",
        "def run_worker(job):\n    job.work()\n    retry(job)\n",
    );
    let query = "zorblat flux retry";
    let note = "in any form";
    // The same reply to the expansion (its keys are all optional) and to
    // the selection.
    let replying = |line: usize| {
        let step =
            Step::chat(&json!({"matches": [{"path": "src/jobs.py", "line": line}]}).to_string());
        MockLlm::start(vec![step.clone(), step])
    };
    let chose = replying(1);
    d.use_model(&chose.base_url(), "learn = false");
    d.run_llm("always", &[query, "."])
        .code(0)
        .stdout_is("./src/jobs.py\n1:\tdef run_worker(job):\n")
        .stderr_lacks(note)
        .stderr_lacks("model call failed");
    let dropped = replying(99);
    d.use_model(&dropped.base_url(), "learn = false");
    d.run_llm("always", &[query, "."])
        .code(0)
        .stdout_has("3:\t    retry(job)\n")
        .stderr_lacks("model call failed")
        .stderr_has("dropped 1 unverified matches; showing the offline results\n")
        .stderr_has(
            "kgrep: no file holds any of 'zorblat' or 'flux' in any form: \
             the lines printed hold the query's other words, not these\n",
        );
}

/// A query made only of escapes is the regex rg reads: `\t` a tab, `\$`
/// and `\(` the characters, `\x20` a space, `\PL` anything but a letter
/// (they were searched as the text they are, or read as an identifier).
/// The expected lines were checked with rg 13 (`rg -o --vimgrep -e '\t'
/// e.txt`, …), in kgrep's layout.
#[test]
fn a_query_of_escapes_alone_is_a_regex() {
    let d = Dir::new();
    d.write("e.txt", "a\tb $x (y) 1.5\nno escapes here\n");
    for (query, expected) in [
        (r"\t", "./e.txt:1:2:\t\n"),
        (r"\$", "./e.txt:1:5:$\n"),
        (r"\(", "./e.txt:1:8:(\n"),
        (r"\.", "./e.txt:1:13:.\n"),
        (r"\$x", "./e.txt:1:5:$x\n"),
        (r"\(y\)", "./e.txt:1:8:(y)\n"),
        (r"\d+", "./e.txt:1:12:1\n./e.txt:1:14:5\n"),
        (r"\bno\b", "./e.txt:2:1:no\n"),
        (
            r"\x20",
            "./e.txt:1:4: \n./e.txt:1:7: \n./e.txt:1:11: \n./e.txt:2:3: \n./e.txt:2:11: \n",
        ),
    ] {
        let run = d.run(&["-v", "-o", "--vimgrep", query, "e.txt"]);
        run.code(0)
            .stdout_is(expected)
            .stderr_has(&format!("query: regex {query:?}"))
            .stderr_lacks("no word to search for");
    }
    // `\PL`: 12 matches on the two lines (`rg --count-matches '\PL'`).
    d.run(&["--count-matches", r"\PL", "e.txt"])
        .code(0)
        .stdout_is("./e.txt:12\n");
}

/// The one-word note's command runs as printed: a single quote in the word
/// is escaped for the shell (`kgrep '"retry's"'` left a quote open).
#[test]
fn the_one_word_note_quotes_an_apostrophe_for_the_shell() {
    let d = Dir::new();
    for name in ["a.py", "b.py", "c.py"] {
        d.write(name, "# the retry's delay\nretry = 1\n".repeat(20));
    }
    d.run(&["retry's", "."])
        .code(0)
        .stderr_has("quote it (kgrep '\"retry'\\''s\"') or pass -F");
}
