//! Ranking output examples, as `insta` snapshots: natural-language questions
//! over `fixtures/ranking`, a small project in Go, Python, TypeScript, Java
//! and C where each answer is a function body and a declaration (a type, an
//! interface, an error class) names the same words. A change to ranking or to
//! what is printed shows up here as a snapshot diff to review
//! (`INSTA_UPDATE=always cargo test --test cli ranking` rewrites them).
//!
//! They record what kgrep prints today, misses included: the eviction
//! question's answer is `Put`/`removeOldest`, and kgrep prints the
//! `LRUCache` type whose doc comment says "evicts the least recently used".

use crate::harness::Dir;

/// Exit code, stdout and stderr of `kgrep <args> .` in the fixture, offline.
fn transcript(args: &[&str]) -> String {
    let d = Dir::new();
    d.copy_fixture("ranking");
    let mut all = args.to_vec();
    all.push(".");
    let run = d.run(&all);
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        run.code, run.stdout, run.stderr
    )
}

#[test]
fn go_eviction() {
    insta::assert_snapshot!(transcript(&[
        "how are least recently used entries evicted from the cache"
    ]));
}

#[test]
fn python_expiry() {
    insta::assert_snapshot!(transcript(&["what happens when the session token expires"]));
}

#[test]
fn typescript_backoff() {
    insta::assert_snapshot!(transcript(&[
        "retry failed requests with exponential backoff"
    ]));
}

#[test]
fn tests_asked_for_come_first() {
    insta::assert_snapshot!(transcript(&["tests for session refresh"]));
}

#[test]
fn java_save() {
    insta::assert_snapshot!(transcript(&["where is an order saved to the database"]));
}

#[test]
fn c_split_line() {
    insta::assert_snapshot!(transcript(&[
        "how is a config line split into key and value"
    ]));
}

#[test]
fn explain_names_the_units() {
    insta::assert_snapshot!(transcript(&[
        "--explain",
        "retry failed requests with exponential backoff"
    ]));
}

/// `--explain` shows the branching multiplier of a unit when the question
/// asks how something is done, and not for a where-question.
#[test]
fn explain_shows_branching_for_a_how_question() {
    let d = Dir::new();
    d.copy_fixture("ranking");
    let how = d.run(&[
        "--explain",
        "how is a config line split into key and value",
        ".",
    ]);
    // Six of the function's 27 lines branch: 1 + 2 x 6/27.
    how.code(0)
        .stderr_has("function parse_config_line (lines 9-35): ")
        .stderr_has(" x length 1.00 x branching 1.44; holds: ");
    let place = d.run(&[
        "--explain",
        "where is a config line split into key and value",
        ".",
    ]);
    place.code(0).stderr_lacks(" x branching ");
}
