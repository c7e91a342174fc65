//! Each file the query's words are found in is read once per run (issue
//! 29): the search keeps what it read of it, and the second pass, the
//! model's excerpts and its searches, verification, learning, the printers
//! and each `--token-budget` probe use that one read (`document::reread`).
//! `-v` counts the reads from disk by file (`document::counted_reads`); a
//! stage that read a file for itself would show as "read N times".

use serde_json::json;

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

const QUERY: &str = "retry failed requests with exponential backoff";

fn project() -> Dir {
    let d = Dir::new();
    d.copy_fixture("ranking");
    d
}

/// The files `-v` ranks (those the query's words were found in) and the
/// files it says were read more than once.
fn hit_and_reread(run: &Run) -> (Vec<String>, Vec<String>) {
    let hits = run
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("kgrep: rank "))
        .filter_map(|l| l.split(") ").nth(1))
        .filter_map(|l| l.split(" best line").next())
        .map(String::from)
        .collect();
    let again = run
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("kgrep: reads: "))
        .filter_map(|l| l.strip_suffix(" times"))
        .filter_map(|l| l.rsplit_once(" read ").map(|(key, _)| key.to_string()))
        .collect();
    (hits, again)
}

/// The run read some files whole, and each of them once.
fn read_each_once(run: &Run) {
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("kgrep: reads: "))
        .unwrap_or_else(|| panic!("no reads line\n{}", run.describe));
    let files: usize = line["kgrep: reads: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(files >= 1, "{line}");
    assert!(line.ends_with("each once"), "{}", run.describe);
}

#[test]
fn an_offline_query_reads_each_file_once() {
    let d = project();
    let out = d.run_llm("off", &["-v", QUERY, "."]);
    out.code(0);
    read_each_once(&out);
}

#[test]
fn an_answer_a_token_budget_and_explain_read_each_file_once() {
    let d = project();
    let out = d.run_llm(
        "off",
        &[
            "-v",
            "--answer",
            "--explain",
            "--token-budget",
            "120",
            QUERY,
            ".",
        ],
    );
    out.code(0);
    read_each_once(&out);
    let out = d.run_llm(
        "off",
        &["-v", "--json", "--token-budget", "300", QUERY, "."],
    );
    out.code(0);
    read_each_once(&out);
}

#[test]
fn the_model_stage_reads_each_file_once() {
    let d = project();
    // The judge asks the model (a threshold no result reaches); it claims a
    // line, which is verified against the file, fused and printed, and its
    // answer's citation checked; the results are cut to a budget.
    let reply = json!({
        "answer": "It doubles the delay (src/http/retry.ts:21).",
        "matches": [{"path": "src/http/retry.ts", "line": 21}],
        "citations": [{"path": "src/http/retry.ts", "line": 21}]
    })
    .to_string();
    // The first call is an expansion (some query words are missing near the
    // results), which finds no new words in this reply; the second selects.
    let mock = MockLlm::start(vec![Step::chat(&reply), Step::chat(&reply)]);
    d.use_model(&mock.base_url(), "judge_confidence = 0.999");
    let out = d.run_llm(
        "auto",
        &["-v", "--answer", "--token-budget", "400", QUERY, "."],
    );
    out.code(0)
        .stdout_has("21:\t      const delay = opts.baseDelayMs * 2 ** attempt;")
        .stderr_has("model: ");
    assert_eq!(mock.received().len(), 2, "{}", out.describe);
    // The model's words were counted in every file: the files that held the
    // query's words from what the search kept, the others read for it.
    let (hits, again) = hit_and_reread(&out);
    assert!(hits.len() >= 3, "{hits:?}\n{}", out.describe);
    for key in &again {
        assert!(
            !hits.contains(key),
            "{key} held the query's words and was read again\n{}",
            out.describe
        );
    }
}
