//! `--explain` (and `-v`) explain exactly the printed lines, with labels that
//! fit the kind of query (issue 16, item 5).

use crate::harness::{Dir, Run};

fn corpus() -> Dir {
    let d = Dir::new();
    d.write(
        "sessions.py",
        "class SessionInterface:\n    null_session_class = NullSession\n\n\
         def make_null_session(app):\n    return app.session_interface.null_session_class()\n\n\
         class SecureCookieSessionInterface(SessionInterface):\n    session_class = SecureCookieSession\n\n\
         def open_session(self, app, request):\n    return self.session_class()\n",
    );
    d
}

/// The line numbers printed, in order.
fn printed(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .filter_map(|l| l.split_once(":\t").map(|(n, _)| n.to_string()))
        .collect()
}

/// The line numbers explained, in order.
fn explained(run: &Run) -> Vec<String> {
    run.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("kgrep: explain:   "))
        .map(|l| l.split_once(':').unwrap().0.to_string())
        .filter(|n| n.parse::<usize>().is_ok())
        .collect()
}

/// The units `--explain` names (`method ToFishCompletion (lines 3-11)`).
fn explained_units(run: &Run) -> Vec<String> {
    run.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("kgrep: explain:   "))
        .map(|l| l.split_once(':').unwrap().0.to_string())
        .filter(|n| n.parse::<usize>().is_err())
        .collect()
}

#[test]
fn a_literal_query_explains_its_printed_lines_as_literal_matches() {
    let d = corpus();
    for args in [
        &["--explain", "-m1", "session_class", "sessions.py"][..],
        &["-v", "-m", "1", "session_class", "sessions.py"][..],
    ] {
        let run = d.run(args);
        run.code(0);
        assert_eq!(printed(&run), ["2"], "{}", run.describe);
        assert_eq!(explained(&run), printed(&run), "{}", run.describe);
        run.stderr_has("kgrep: explain:   2: holds \"session_class\"\n")
            .stderr_has("explain: sessions.py: every line holding the literal \"session_class\"")
            .stderr_lacks("no query word on it")
            .stderr_lacks("not in the offline ranking");
    }
}

#[test]
fn a_regex_query_says_its_lines_match_the_regex() {
    let d = corpus();
    let run = d.run(&["--explain", "-m", "2", r"session_class\b", "sessions.py"]);
    run.code(0);
    assert_eq!(explained(&run), printed(&run), "{}", run.describe);
    assert_eq!(printed(&run).len(), 2, "{}", run.describe);
    run.stderr_has(": matches the regex\n")
        .stderr_has("every line matching the regex")
        .stderr_lacks("no query word on it");
}

#[test]
fn a_natural_language_query_explains_only_what_m_lets_through() {
    let d = corpus();
    let all = d.run(&["--max-lines", "0", "null session class", "."]);
    assert!(
        printed(&all).len() > 1,
        "the fixture no longer prints several lines of one file\n{}",
        all.describe
    );
    let run = d.run(&[
        "--explain",
        "--max-lines",
        "0",
        "-m",
        "1",
        "null session class",
        ".",
    ]);
    run.code(0);
    assert_eq!(printed(&run).len(), 1, "{}", run.describe);
    assert_eq!(explained(&run), printed(&run), "{}", run.describe);
}

#[test]
fn verbose_names_the_best_line_that_is_printed_and_explained() {
    // Issue 28, item 7: lines 4 and 18 of fish.go score the same; one
    // tie-break (the earlier line) everywhere, so `-v`'s best line is the one
    // `--max-lines 1` prints and `--explain` explains.
    let d = crate::max_lines::fish_project();
    let run = d.run(&[
        "--offline",
        "-v",
        "--explain",
        "--max-lines",
        "1",
        crate::max_lines::FISH_QUERY,
        ".",
    ]);
    run.code(0);
    assert_eq!(printed(&run), ["4"], "{}", run.describe);
    assert_eq!(explained(&run), ["4"], "{}", run.describe);
    // The printed line's unit is named, with its kind and extent, and its
    // score by field.
    assert_eq!(
        explained_units(&run),
        ["method ToFishCompletion (lines 3-11)"],
        "{}",
        run.describe
    );
    run.stderr_has("kgrep: explain:   method ToFishCompletion (lines 3-11): ")
        .stderr_has("= (name ")
        .stderr_has("holds: fish, shell, completion");
    let verbose_best = run
        .stderr
        .lines()
        .find(|l| l.contains("fish.go best line "))
        .and_then(|l| l.split("best line ").nth(1))
        .and_then(|rest| rest.split(' ').next());
    assert_eq!(verbose_best, Some("4"), "{}", run.describe);
}

/// A statement-shaped query (a commit subject's shape) is ordered by the
/// learned commit model, a question by the learned question model: `-v`
/// names the model and gives each file's learned score, and `--explain`
/// says so. A query asking for tests keeps the hand order.
#[test]
fn the_learned_ranker_orders_statements_and_questions_and_says_so_tests_keep_the_hand_order() {
    let d = corpus();
    d.write(
        "cookies.py",
        "def sign_cookie(value, key):\n    return hmac(key, value)\n",
    );
    let statement = d.run(&[
        "-v",
        "--explain",
        "make null session class configurable",
        ".",
    ]);
    statement
        .code(0)
        .stderr_has("ranker: the commit model")
        .stderr_has(", learned ")
        .stderr_has("ordered by the learned ranker's score");
    let question = d.run(&["-v", "--explain", "where is the null session made", "."]);
    question
        .code(0)
        .stderr_has("ranker: the question model")
        .stderr_has(", learned ")
        .stderr_has("ordered by the learned ranker's score");
    // No training answer was a test file: a query asking for tests keeps
    // the hand order, which ranks test files first for it.
    let tests = d.run(&["-v", "--explain", "tests for the null session", "."]);
    tests
        .code(0)
        .stderr_lacks(", learned ")
        .stderr_lacks("ranker: the")
        .stderr_lacks("ordered by the learned ranker");
}

/// `--features` (what `tests/bench/train/dump.py` reads): a line naming the
/// features, then one object a candidate file, in the hand order, each with
/// one number a feature.
#[test]
fn features_prints_each_candidates_vector_under_a_names_line() {
    let d = corpus();
    d.write(
        "cookies.py",
        "def sign_cookie(value, key):\n    return hmac(key, value)\n",
    );
    let run = d.run(&["--features", "make null session class configurable", "."]);
    run.code(0);
    let mut lines = run.stdout.lines();
    let names: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let names = names["names"].as_array().unwrap();
    assert!(names.iter().any(|n| n == "bm25"), "{}", run.describe);
    let rows: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!rows.is_empty(), "{}", run.describe);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["rank"].as_u64(), Some(i as u64));
        assert_eq!(row["f"].as_array().unwrap().len(), names.len());
        assert!(row["path"].as_str().is_some());
    }
    assert_eq!(rows[0]["path"].as_str(), Some("sessions.py"));
    // Not the results: no heading, no numbered line.
    assert!(!run.stdout.contains(":\t"), "{}", run.describe);
}

/// `--features` also prints the best units of the first candidates (what
/// `tests/bench/train/fit_units.py` reads): each named, placed, and with one
/// number a unit feature; the hand order's first unit has the file's best
/// unit score (`hand_share` 1) and the first place (`hand_rank_recip` 1).
#[test]
fn features_print_the_first_candidates_units_with_their_vectors() {
    let d = corpus();
    let run = d.run(&["--features", "make null session class configurable", "."]);
    run.code(0);
    let mut lines = run.stdout.lines();
    let head: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let names: Vec<&str> = head["unit_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
    let first: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let units = first["units"].as_array().unwrap();
    assert!(!units.is_empty(), "{}", run.describe);
    for u in units {
        assert_eq!(u["f"].as_array().unwrap().len(), names.len());
        let (start, def, end) = (u["start"].as_u64(), u["def"].as_u64(), u["end"].as_u64());
        assert!(start <= def && def <= end, "{u}");
    }
    assert_eq!(units[0]["f"][at("hand_share")].as_f64(), Some(1.0));
    assert_eq!(units[0]["f"][at("hand_rank_recip")].as_f64(), Some(1.0));
    let named: Vec<&str> = units.iter().filter_map(|u| u["name"].as_str()).collect();
    assert!(named.contains(&"make_null_session"), "{named:?}");
    let callable = units
        .iter()
        .find(|u| u["name"] == "make_null_session")
        .unwrap();
    assert_eq!(callable["kind"].as_str(), Some("function"));
    assert_eq!(callable["f"][at("callable")].as_f64(), Some(1.0));
}

#[test]
fn a_first_file_too_large_for_the_parse_plan_is_still_cut_into_units() {
    // 150 KB of Python: over the per-file cap of the parse plan (128 KB),
    // under the first file's late parse (256 KB).
    let mut big = String::new();
    for i in 0..2500 {
        big.push_str(&format!(
            "def helper_{i}(value):\n    total = value + {i}\n    return total * 2\n\n"
        ));
    }
    big.push_str(
        "def compute_retry_backoff(attempt):\n    delay = 0.5 * 2 ** attempt\n    \
         jitter = random.random()\n    return min(delay + jitter, 30)\n",
    );
    assert!(big.len() > 128 << 10 && big.len() < 256 << 10);
    let d = Dir::new();
    d.write("retry.py", &big);
    d.write("other.py", "def unrelated():\n    return 1\n");
    let run = d.run(&["--explain", "how is the retry backoff delay computed", "."]);
    run.code(0);
    let units = explained_units(&run);
    assert!(
        units
            .iter()
            .any(|u| u.starts_with("function compute_retry_backoff (lines")),
        "{units:?}"
    );
}

/// A question is judged by the question judge, which `-v` shows with its
/// features; a statement (a commit subject's shape) by the learned judge.
#[test]
fn v_shows_the_question_judge_for_a_question_and_not_for_a_statement() {
    let d = corpus();
    let question = d.run(&["-v", "where is the null session made", "."]);
    question
        .code(0)
        .stderr_has("kgrep: judge: question judge: probability ")
        .stderr_has("(margin_second ")
        .stderr_has("question confidence ");
    let statement = d.run(&["-v", "fix open session for secure cookie", "."]);
    statement
        .code(0)
        .stderr_has("ranker: the commit model")
        .stderr_lacks("question judge")
        .stderr_lacks("question confidence");
}
