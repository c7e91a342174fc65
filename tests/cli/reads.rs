//! Each file is read once per run (issue 29). The search reads a small
//! tree's files whole and keeps their bytes for the run
//! (`document::Reread::keep_raw`): a corrected query, the model's words, a
//! lesson's identifiers and the typo vocabulary search them in memory; the
//! second pass, the model's excerpts, verification, learning, the printers
//! and each `--token-budget` probe share one document per file
//! (`document::reread`). `-v` counts the reads from disk by file, the
//! search's included (`document::counted_reads`); a stage that read a file
//! for itself would show as "read N times".

use serde_json::json;

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

const QUERY: &str = "retry failed requests with exponential backoff";

fn project() -> Dir {
    let d = Dir::new();
    d.copy_fixture("ranking");
    d
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
    // A search typed as keywords has the hand judge, which finds every
    // query word near the results: one call, which selects (the second step
    // is never asked for).
    let mock = MockLlm::start(vec![Step::chat(&reply), Step::chat(&reply)]);
    d.use_model(&mock.base_url(), "judge_confidence = 0.999");
    let out = d.run_llm(
        "auto",
        &["-v", "--answer", "--token-budget", "400", QUERY, "."],
    );
    out.code(0)
        .stdout_has("21:\t      const delay = opts.baseDelayMs * 2 ** attempt;")
        .stderr_has("model: ");
    assert_eq!(mock.received().len(), 1, "{}", out.describe);
    read_each_once(&out);
}
