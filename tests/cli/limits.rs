//! Inputs at a scale that used to be slow or unbounded (issue 28, items
//! 13–16): each is now bounded, and these tests check the mechanism that
//! bounds it, never a timing (the figures are `tests/bench/limits.py`'s). A
//! deadline here is a generous bound on a run whose old cost was far past it.

use std::time::Duration;

use crate::harness::{Dir, Run};

/// `i` in letters (`0` is `a`, `26` is `ba`): a word the query splitter
/// keeps whole, unlike one with digits.
fn letters(mut i: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (i % 26) as u8);
        i /= 26;
        if i == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap()
}

/// A learned thesaurus of `n` concepts, three synonyms each, as kgrep writes
/// one (provenance included): concept `gronkW` with `zibW` and `wobW`, for
/// `W` the concept's number in letters.
fn learned_thesaurus(n: usize) -> String {
    let mut data = Vec::with_capacity(3 * n);
    let mut meta = Vec::with_capacity(n);
    for i in 0..n {
        let (id, w) = (i + 1, letters(i));
        for synonym in [format!("gronk{w}"), format!("zib{w}"), format!("wob{w}")] {
            data.push(format!(
                r#""{synonym}": {{"id": {id}, "nterm": "gronk{w}"}}"#
            ));
        }
        meta.push(format!(
            r#""gronk{w}": {{"id": {id}, "status": "proposed", "hits": 1}}"#
        ));
    }
    format!(
        r#"{{"name": "kgrep learned concepts", "data": {{{}}}, "kgrep": {{"concepts": {{{}}}}}}}"#,
        data.join(", "),
        meta.join(", ")
    )
}

fn run_within(dir: &Dir, args: &[&str], limit: Duration) -> Run {
    let mut cmd = dir.cmd();
    cmd.args(args).timeout(limit);
    crate::harness::finish(&mut cmd, args, dir.path())
}

#[test]
fn a_learned_thesaurus_of_sixty_thousand_concepts_loads() {
    // Loading was quadratic in the concepts: each one was looked for among
    // those already loaded. 60k concepts took minutes of CPU in a debug
    // build, 30k about 20 s; a linear load takes seconds, so a minute is a
    // bound only the quadratic load misses.
    let dir = Dir::new();
    let w = letters(41_234);
    dir.write("notes.txt", format!("the wob{w} setting is read here\n"));
    let learned = dir.learned_path();
    std::fs::create_dir_all(learned.parent().unwrap()).unwrap();
    std::fs::write(&learned, learned_thesaurus(60_000)).unwrap();
    let query = format!("where is zib{w} read");
    let out = run_within(
        &dir,
        &["-v", "--offline", &query, "."],
        Duration::from_secs(60),
    );
    // The query's word found its learned concept, and through it the
    // concept's other synonym, the one the file holds.
    out.code(0)
        .stderr_has(&format!(
            "thesaurus: from the learned layer: gronk{w} (proposed)"
        ))
        .stdout_has(&format!("1:\tthe wob{w} setting is read here"));
}
