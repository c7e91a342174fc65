//! The model stage end to end: the real binary, a mock model on 127.0.0.1.
//! When the model is called (and when not), what it is sent, and that only
//! verified lines are ever printed.

use serde_json::{json, Value};

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

/// A small project: retries, settings and a cache, so some queries are
/// answered offline and others need the model.
fn project() -> Dir {
    let dir = Dir::new();
    dir.copy_fixture("model-project");
    dir
}

/// Answered offline: every word found, in two files.
const SUFFICIENT: &str = "retry backoff";
/// Not answered offline: the code says "evict", the query does not.
const NEEDS_MODEL: &str = "where are stale entries thrown away";

fn chat(value: Value) -> Step {
    Step::chat(&value.to_string())
}

/// Every `path:line:text` grep line printed is that line of that file.
fn assert_every_line_is_real(dir: &Dir, run: &Run) {
    let mut file = None;
    for line in run.stdout.lines() {
        if line.is_empty() {
            continue;
        }
        let Some((number, text)) = line.split_once(":\t") else {
            file = Some(line.trim_start_matches("./").to_string());
            continue;
        };
        let path = file.as_ref().expect("a heading before lines");
        let n: usize = number.parse().expect("line number");
        let contents = std::fs::read_to_string(dir.path().join(path)).unwrap();
        assert_eq!(
            contents.lines().nth(n - 1),
            Some(text),
            "{path}:{n} is not that file's line\n{}",
            run.describe
        );
    }
}

#[test]
fn sufficient_offline_results_make_no_call() {
    let dir = project();
    let mock = MockLlm::start(vec![]);
    dir.use_model(&mock.base_url(), "");
    let with_model = dir.run_llm("auto", &["-v", SUFFICIENT, "."]);
    with_model
        .code(0)
        .stderr_has("-> sufficient")
        .stderr_has("model: not consulted");
    assert!(mock.received().is_empty(), "{}", with_model.describe);
    assert!(
        !dir.learned_path().exists(),
        "nothing to learn without a call"
    );
    let without = dir.run_llm("off", &[SUFFICIENT, "."]);
    assert_eq!(with_model.stdout, without.stdout);
}

#[test]
fn an_expansion_then_a_selection_fuses_only_verified_lines() {
    let dir = project();
    let mock = MockLlm::start(vec![
        chat(json!({"concepts": [{"name": "cache eviction",
            "synonyms": ["evict", "oldest", "expunge"], "related": ["cache"]}]})),
        chat(json!({"matches": [
            {"path": "src/cache.py", "line": 6},
            {"path": "src/cache.py", "line": 8},
            {"path": "src/cache.py", "line": 99},
            {"path": "src/nowhere.py", "line": 1},
            {"path": "../../etc/passwd", "line": 1},
            {"path": "/etc/passwd", "line": 1}]})),
    ]);
    let key = dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", NEEDS_MODEL, "."]);
    // The model's two verified lines join the offline results (fused, not
    // replacing them); its four others are dropped.
    out.code(0)
        .stdout_has("./src/cache.py\n")
        .stdout_has("6:\t    def evict(self):\n")
        .stdout_has("8:\t        del self.items[oldest]\n")
        .stdout_lacks("nowhere")
        .stdout_lacks("passwd")
        .stderr_has("dropped 4 unverified matches")
        .stderr_has("model: searching its words too: cache, eviction, oldest, expunge")
        .stderr_lacks(key);
    assert_every_line_is_real(&dir, &out);
    assert_eq!(
        out.headings().first().map(String::as_str),
        Some("./src/cache.py")
    );
    let received = mock.received();
    assert_eq!(received.len(), 2, "{}", out.describe);
    // The expansion is told the query; the selection gets excerpts of the
    // files the expanded search found, never the whole corpus.
    let expansion = received[0].json().to_string();
    assert!(expansion.contains("stale entries"), "{expansion}");
    let selection = received[1].json().to_string();
    assert!(selection.contains("def evict(self)"), "{selection}");
    assert!(!selection.contains("CONNECT_TIMEOUT"), "{selection}");
}

#[test]
fn rlm_forces_a_selection_even_when_sufficient() {
    let dir = project();
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "src/retry.py", "line": 5}]}),
    )]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--rlm", SUFFICIENT, "."]);
    out.code(0)
        .stdout_is("./src/retry.py\n5:\tdef retry_backoff(attempt):\n");
    assert_eq!(mock.received().len(), 1);
}

#[test]
fn a_selection_with_no_verified_claim_keeps_the_offline_results() {
    let dir = project();
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "src/retry.py", "line": 500}]}),
    )]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--rlm", SUFFICIENT, "."]);
    let without = dir.run_llm("off", &[SUFFICIENT, "."]);
    out.code(0)
        .stdout_is(&without.stdout)
        .stderr_has("dropped 1 unverified matches; showing the offline results");
}

/// An expansion that teaches `cache eviction → evict, oldest`.
fn evict_oldest() -> Step {
    chat(json!({"concepts": [{"name": "cache eviction",
        "synonyms": ["evict", "oldest"], "related": []}]}))
}

#[test]
fn claimed_lines_that_say_nothing_are_not_printed_by_the_fallback() {
    let dir = project();
    // An import and a `try:` hold none of the query's words: a model that
    // miscounts lines lands on such lines, and they locate nothing.
    let mock = MockLlm::start(vec![
        evict_oldest(),
        chat(json!({"matches": [{"path": "src/client.py", "line": 1},
                                {"path": "src/retry.py", "line": 11}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", "--no-learn", NEEDS_MODEL, "."]);
    out.code(0)
        .stdout_has("def evict(self):")
        .stdout_lacks("1:\tfrom .retry import")
        .stdout_lacks("11:\t        try:")
        .stderr_has("model: 2 claimed line(s) say nothing")
        .stderr_has("model: 2 claim(s), 0 verified");
    // A comment that holds the query's words is kept; one that does not is
    // not printed.
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "src/client.py", "line": 8},
                           {"path": "src/settings.py", "line": 1}]}),
    )]);
    dir.use_model(&mock.base_url(), "judge_confidence = 0.999");
    let out = dir.run_llm("auto", &["-v", "--no-learn", SUFFICIENT, "."]);
    out.code(0)
        .stdout_has("8:\t        # every request goes through the retry backoff loop\n")
        .stdout_lacks("1:\t# Settings for the HTTP client.")
        .stderr_has("model: 1 claimed line(s) say nothing");
    // `--rlm` is rlmgrep: what the model claimed is printed.
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "src/settings.py", "line": 1}]}),
    )]);
    dir.use_model(&mock.base_url(), "");
    dir.run_llm("auto", &["--rlm", SUFFICIENT, "."])
        .code(0)
        .stdout_is("./src/settings.py\n1:\t# Settings for the HTTP client.\n");
}

#[test]
fn claimed_blank_lines_are_not_printed_by_the_fallback() {
    let dir = project();
    // src/cache.py line 5 is empty: it exists, but answers nothing.
    let mock = MockLlm::start(vec![
        evict_oldest(),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 5},
                                {"path": "src/cache.py", "line": 6}]})),
        evict_oldest(),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 5}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", "--no-learn", NEEDS_MODEL, "."]);
    out.code(0)
        .stdout_has("./src/cache.py\n")
        .stdout_has("6:\t    def evict(self):\n")
        .stdout_lacks("5:\t\n")
        .stderr_has("model: 1 claimed line(s) blank, not printed")
        .stderr_lacks("unverified");
    // Only a blank line claimed: the fallback's own results stay.
    let only_blank = dir.run_llm("auto", &["--no-learn", NEEDS_MODEL, "."]);
    only_blank.code(0);
    assert!(
        only_blank.stdout.contains("def evict(self):") && !only_blank.stdout.contains("5:\t\n"),
        "{}",
        only_blank.describe
    );
    // `--rlm` is rlmgrep: what the model claimed is printed, blank or not.
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "src/retry.py", "line": 2}]}),
    )]);
    dir.use_model(&mock.base_url(), "");
    dir.run_llm("auto", &["--rlm", SUFFICIENT, "."])
        .code(0)
        .stdout_is("./src/retry.py\n2:\t\n");
}

#[test]
fn follow_up_searches_send_more_excerpts() {
    let dir = project();
    let mock = MockLlm::start(vec![
        chat(json!({"searches": [{"pattern": "capacity"}]})),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 3}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--rlm", "-v", SUFFICIENT, "."]);
    out.code(0)
        .stdout_is("./src/cache.py\n3:\t        self.capacity = capacity\n")
        .stderr_has("model: follow-up round 1");
    let received = mock.received();
    assert_eq!(received.len(), 2);
    let first = received[0].json().to_string();
    let second = received[1].json().to_string();
    assert!(!first.contains("self.capacity = capacity"), "{first}");
    assert!(second.contains("self.capacity = capacity"), "{second}");
}

#[test]
fn the_answer_comes_from_the_model_with_its_citations_checked() {
    let dir = project();
    let mock = MockLlm::start(vec![chat(json!({
        "answer": "The delay doubles per attempt (src/retry.py:5); see also src/retry.py:400.",
        "matches": [{"path": "src/retry.py", "line": 5}],
        "citations": [{"path": "src/retry.py", "line": 5}]}))]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--answer-only", SUFFICIENT, "."]);
    // As rlmgrep, the answer goes to stderr; --answer-only prints no lines.
    out.code(0)
        .stdout_is("")
        .stderr_has("===== Answer =====\nThe delay doubles per attempt (src/retry.py:5)")
        .stderr_has("[unverified]");
    // Only the citation no file backs is marked.
    assert_eq!(
        out.stderr.matches("[unverified]").count(),
        1,
        "{}",
        out.describe
    );
    assert_eq!(mock.received().len(), 1);
}

/// A citation only in the prose, or shortened to the file's name, is
/// checked against the file it names as any other: only what no searched file
/// backs is marked.
#[test]
fn a_citation_the_reply_did_not_claim_or_shortened_is_checked_too() {
    let dir = project();
    let mock = MockLlm::start(vec![chat(json!({
        "answer": "Delays double (retry.py:5); the cache is src/cache.py:3-8, \
                   not cache.py:9 or ghost.py:1.",
        "matches": [{"path": "src/retry.py", "line": 5}]}))]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--answer-only", SUFFICIENT, "."]);
    out.code(0)
        .stderr_has("(retry.py:5);")
        .stderr_has("src/cache.py:3-8,")
        .stderr_has("ghost.py:1 [unverified]");
    // The answer is wrapped: only the two that no line backs are marked.
    assert_eq!(
        out.stderr.matches("[unverified]").count(),
        2,
        "{}",
        out.describe
    );
}

#[test]
fn a_signature_reply_of_the_wrong_type_is_asked_again() {
    let dir = project();
    let mock = MockLlm::start(vec![
        chat(json!({"max_retries": "five", "matches": []})),
        chat(json!({"max_retries": 5, "matches": [{"path": "src/retry.py", "line": 3}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm(
        "auto",
        &["--signature-json", "max_retries: int", SUFFICIENT, "."],
    );
    out.code(0);
    let fields: Value = serde_json::from_str(out.stdout.trim()).expect("JSON on stdout");
    assert_eq!(fields["max_retries"], json!(5), "{}", out.describe);
    let received = mock.received();
    assert_eq!(received.len(), 2);
    let again = received[1].json().to_string();
    assert!(again.contains("previous reply was rejected"), "{again}");
}

#[test]
fn dry_run_sends_nothing_and_masks_the_key() {
    let dir = project();
    let mock = MockLlm::start(vec![]);
    let key = dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--dry-run", NEEDS_MODEL, "."]);
    out.code(0)
        .stdout_has("expansion")
        .stdout_has("stale entries")
        .stdout_lacks(key)
        .stderr_lacks(key);
    assert!(mock.received().is_empty());
}

#[test]
fn json_reports_the_calls_and_tokens() {
    let dir = project();
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "src/retry.py", "line": 5}]}),
    )]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--json", "--rlm", SUFFICIENT, "."]);
    out.code(0);
    let summary: Value = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .expect("a summary message");
    let model = &summary["data"]["kgrep"]["model"];
    assert_eq!(model["calls"], json!(1), "{summary}");
    assert_eq!(model["prompt_tokens"], json!(100), "{summary}");
    assert_eq!(model["completion_tokens"], json!(10), "{summary}");
}

#[test]
fn an_expansion_that_makes_the_results_sufficient_is_the_only_call() {
    let dir = project();
    let mock = MockLlm::start(vec![chat(json!({"concepts": [
        {"name": "pause", "synonyms": ["sleep", "delay"], "related": ["backoff"]},
        {"name": "retry", "synonyms": ["retries", "retry"], "related": []}]}))]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", "pause between tries", "."]);
    out.code(0).stderr_has("-> sufficient");
    assert_every_line_is_real(&dir, &out);
    assert_eq!(mock.received().len(), 1, "{}", out.describe);
    assert!(out.stdout.contains("src/retry.py"), "{}", out.describe);
}

#[test]
fn llm_timeout_bounds_each_request_and_the_offline_results_stay() {
    let dir = project();
    let slow = || {
        chat(json!({"matches": [{"path": "src/cache.py", "line": 6}]}))
            .delay(std::time::Duration::from_secs(4))
    };
    let mock = MockLlm::start(vec![slow(), slow(), slow(), slow()]);
    dir.use_model(&mock.base_url(), "llm_timeout = 1");
    let started = std::time::Instant::now();
    let out = dir.run_llm("auto", &["--rlm", SUFFICIENT, "."]);
    let offline = dir.run_llm("off", &[SUFFICIENT, "."]);
    out.code(0)
        .stderr_has("did not answer within 1s; showing the offline results");
    assert_eq!(out.stdout, offline.stdout, "{}", out.describe);
    // A second per try, far below the server's delay.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn every_signature_type_comes_back_typed_and_a_second_bad_reply_is_exit_2() {
    let dir = project();
    let spec = "summary: str, n: int, ratio: float, ok: bool, files: list[str], \
                counts: dict[str, int], level: Literal['low', 'high']";
    let good = json!({"summary": "retries back off", "n": "5", "ratio": 0.5, "ok": true,
        "files": ["src/retry.py"], "counts": {"retry": 3}, "level": "high",
        "matches": [{"path": "src/retry.py", "line": 5}]});
    let mock = MockLlm::start(vec![chat(good)]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--signature-json", spec, SUFFICIENT, "."]);
    out.code(0);
    let fields: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    // "5" for an int is coerced (lossless); everything else as declared.
    assert_eq!(
        fields,
        json!({"summary": "retries back off", "n": 5, "ratio": 0.5, "ok": true,
            "files": ["src/retry.py"], "counts": {"retry": 3}, "level": "high"}),
        "{}",
        out.describe
    );

    let bad = || {
        chat(json!({"summary": "x", "n": 1.5, "ratio": 0.5, "ok": true,
        "files": [], "counts": {}, "level": "medium", "matches": []}))
    };
    let mock = MockLlm::start(vec![bad(), bad()]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--signature-json", spec, SUFFICIENT, "."]);
    out.code(2).stdout_is("");
    assert_eq!(
        out.stderr
            .lines()
            .filter(|l| !l.contains("Scanned"))
            .count(),
        1,
        "{}",
        out.describe
    );
    assert_eq!(mock.received().len(), 2, "asked once more, then gave up");
}

/// The JSON bodies of a `--dry-run`'s text output, in order.
fn dry_run_bodies(stdout: &str) -> Vec<Value> {
    let lines: Vec<&str> = stdout.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("POST ") {
            i += 1;
            continue;
        }
        while i < lines.len() && !lines[i].is_empty() {
            i += 1;
        }
        let start = i + 1;
        let end = (start..lines.len()).find(|&j| lines[j] == "}").unwrap();
        out.push(serde_json::from_str(&lines[start..=end].join("\n")).unwrap());
        i = end + 1;
    }
    out
}

#[test]
fn dry_run_shows_the_very_bodies_that_are_sent() {
    // issue 16 item 4: one builder for the shown and the sent request.
    let dir = project();
    let cases: [(&str, Vec<Step>); 2] = [
        // Found offline, --rlm: one selection request.
        (
            SUFFICIENT,
            vec![chat(
                json!({"matches": [{"path": "src/retry.py", "line": 5}]}),
            )],
        ),
        // Nothing found: an expansion (that proposes nothing new), then a
        // selection told that the offline search found nothing.
        (
            "zebra giraffe antelope",
            vec![chat(json!({"concepts": []})), chat(json!({"matches": []}))],
        ),
    ];
    for (query, steps) in cases {
        let mock = MockLlm::start(steps);
        dir.use_model(&mock.base_url(), "");
        let dry = dir.run_llm("auto", &["--rlm", "--dry-run", query, "."]);
        dry.code(0);
        assert!(mock.received().is_empty(), "{}", dry.describe);
        let shown = dry_run_bodies(&dry.stdout);
        let real = dir.run_llm("auto", &["--rlm", query, "."]);
        let sent: Vec<Value> = mock.received().iter().map(|r| r.json()).collect();
        assert_eq!(
            shown.len(),
            sent.len(),
            "{}\n{}",
            dry.describe,
            real.describe
        );
        for (shown, sent) in shown.iter().zip(&sent) {
            assert_eq!(
                shown, sent,
                "{query}: the dry run differs from what was sent"
            );
        }
        // --json shows the same bodies as request messages, then the summary.
        let json = dir.run_llm("auto", &["--rlm", "--dry-run", "--json", query, "."]);
        json.code(0);
        let types: Vec<String> = json
            .stdout
            .lines()
            .map(crate::schema::check_message)
            .collect();
        assert_eq!(
            types.last().map(String::as_str),
            Some("summary"),
            "{}",
            json.describe
        );
        assert!(
            types[..types.len() - 1].iter().all(|t| t == "request"),
            "{}",
            json.describe
        );
        let bodies: Vec<Value> = json
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v["type"] == "request")
            .map(|v| v["data"]["body"].clone())
            .collect();
        assert_eq!(bodies, sent, "{}", json.describe);
    }
}

#[test]
fn dry_run_without_a_usable_model_says_why_nothing_would_be_sent() {
    let dir = project();
    for (args, why) in [
        (
            &["--rlm", "--dry-run", SUFFICIENT, "."][..],
            "no API key for openai/",
        ),
        (&["--dry-run", SUFFICIENT, "."][..], "judged sufficient"),
    ] {
        let out = dir.run_llm("auto", args);
        out.code(0)
            .stderr_has("kgrep: --dry-run: no model request would be sent: ")
            .stderr_has(why);
    }
}

#[test]
fn kgrep_llm_off_wins_over_rlm_and_a_model_on_the_command_line() {
    // issue 16 item 2: the safety switch.
    let dir = project();
    let mock = MockLlm::start(vec![chat(json!({"matches": []}))]);
    let base = mock.base_url();
    let args = [
        "--rlm",
        "--api-key",
        "x",
        "--api-base",
        base.as_str(),
        "--model",
        "openai/m",
        SUFFICIENT,
        ".",
    ];
    let out = dir.run_llm("off", &args);
    out.code(0)
        .stdout_has("./src/retry.py")
        .stderr_has("kgrep: --rlm ignored: KGREP_LLM=off");
    assert!(mock.received().is_empty(), "{}", out.describe);
    dir.use_model(&base, "llm = \"always\"");
    let out = dir.run_llm("off", &[SUFFICIENT, "."]);
    out.code(0);
    assert!(mock.received().is_empty(), "{}", out.describe);
}

#[test]
fn asking_for_the_model_without_one_is_a_warning() {
    // issue 16 item 3: --rlm or llm = "always" with no key.
    let dir = project();
    let out = dir.run_llm("auto", &["--rlm", SUFFICIENT, "."]);
    out.code(0).stdout_has("./src/retry.py");
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("asks for a language model"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", out.describe);
    assert!(warnings[0].starts_with("kgrep: --rlm asks for a language model, but no API key for"));
    let config = dir.home.path().join(".rlmgrep");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("config.toml"), "llm = \"always\"\n").unwrap();
    dir.run_llm("", &[SUFFICIENT, "."]).code(0).stderr_has(
        "kgrep: llm = \"always\" in the config asks for a language model, but no API key",
    );
    // auto without a key stays quiet: nobody asked.
    dir.run_llm("off", &[SUFFICIENT, "."])
        .stderr_lacks("asks for a language model");
    dir.run_llm("auto", &[SUFFICIENT, "."])
        .stderr_lacks("asks for a language model");
}

/// `project()` and twelve files of eviction code: more excerpts than
/// any prompt budget holds. Forty other files keep the model's words to
/// under a quarter of the files (more would be too common to search).
fn big_project() -> Dir {
    let dir = project();
    for i in 0..12 {
        let body: String = (0..40)
            .map(|j| format!("    # evict the oldest item of shard {i}, slot {j}, when full\n"))
            .collect();
        dir.write(&format!("src/shard{i}.py"), format!("def sweep():\n{body}"));
    }
    for i in 0..40 {
        dir.write(
            &format!("src/other{i}.py"),
            format!("def helper{i}():\n    return {i}\n"),
        );
    }
    dir
}

/// The estimated tokens of a request's messages (`llm::prompt`'s estimate:
/// three bytes a token, erring high).
fn estimated_tokens(request: &Value) -> usize {
    request["messages"]
        .as_array()
        .map(|messages| {
            messages
                .iter()
                .filter_map(|m| m["content"].as_str())
                .map(|c| c.len().div_ceil(3))
                .sum()
        })
        .unwrap_or(0)
}

fn eviction_concepts() -> Step {
    chat(json!({"concepts": [{"name": "cache eviction",
        "synonyms": ["evict", "oldest", "expunge"], "related": ["cache"]}]}))
}

#[test]
fn a_query_spends_one_prompt_budget_across_its_calls() {
    let dir = big_project();
    let mock = MockLlm::start(vec![
        eviction_concepts(),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 6}]})),
    ]);
    dir.use_model(&mock.base_url(), "prompt_tokens = 2000");
    let out = dir.run_llm("auto", &["-v", NEEDS_MODEL, "."]);
    out.code(0).stdout_has("6:\t    def evict(self):\n");
    let received = mock.received();
    assert_eq!(received.len(), 2, "{}", out.describe);
    let spent: Vec<usize> = received
        .iter()
        .map(|r| estimated_tokens(&r.json()))
        .collect();
    // The selection filled what the expansion left, and no more.
    assert!(spent.iter().sum::<usize>() <= 2000, "{spent:?}");
    assert!(spent[1] > 1000, "{spent:?}");
}

#[test]
fn a_spent_budget_sends_no_selection_and_keeps_the_results() {
    let dir = project();
    // The server reports the expansion took the whole budget.
    let expansion = json!({"concepts": [{"name": "cache eviction",
        "synonyms": ["evict", "oldest", "expunge"], "related": ["cache"]}]});
    let mock = MockLlm::start(vec![Step::chat_full(
        &expansion.to_string(),
        "stop",
        3_900,
        50,
    )]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", NEEDS_MODEL, "."]);
    out.code(0)
        .stdout_has("./src/cache.py\n")
        .stderr_has("model: no selection: the query's prompt budget");
    assert_every_line_is_real(&dir, &out);
    assert_eq!(mock.received().len(), 1, "{}", out.describe);
}

#[test]
fn the_fallback_makes_at_most_two_calls() {
    let dir = project();
    let mock = MockLlm::start(vec![
        eviction_concepts(),
        chat(json!({"searches": [{"pattern": "capacity"}]})),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 3}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", NEEDS_MODEL, "."]);
    // The selection asked for a search instead of answering: with the
    // expansion that makes two calls, so no follow-up round is sent and the
    // fused results stand.
    out.code(0)
        .stdout_has("./src/cache.py\n")
        .stderr_lacks("follow-up round");
    assert_eq!(mock.received().len(), 2, "{}", out.describe);
}

#[test]
fn expansion_words_too_common_to_name_a_concept_are_not_searched() {
    // Twelve of the sixteen files say "evict": in more than a quarter of the
    // files, `eviction` (the concept's word, found as "evict") names no
    // concept; `self` is a keyword. `cache` and `oldest` are searched.
    let dir = project();
    for i in 0..12 {
        dir.write(
            &format!("src/shard{i}.py"),
            format!("def sweep{i}():\n    evict(shard_{i})\n"),
        );
    }
    let mock = MockLlm::start(vec![
        chat(json!({"concepts": [{"name": "cache eviction",
            "synonyms": ["evict", "self", "oldest"], "related": []}]})),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 6}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", "--no-learn", NEEDS_MODEL, "."]);
    out.code(0)
        .stderr_has("model: not searching its words too common to name a concept: eviction, self\n")
        .stderr_has("model: searching its words too: cache, oldest\n");
}

#[test]
fn a_long_query_is_cut_to_its_share_of_the_prompt_budget() {
    // Issue 28: a 130 KB query went whole into every request, whatever
    // prompt_tokens said (131 KB bodies under prompt_tokens 4000).
    let dir = project();
    let mock = MockLlm::start(vec![
        chat(json!({"concepts": [{"name": "cache eviction", "synonyms": ["evict"]}]})),
        chat(json!({"matches": [{"path": "src/cache.py", "line": 6}]})),
    ]);
    dir.use_model(&mock.base_url(), "prompt_tokens = 4000");
    let words = [
        "where", "are", "stale", "entries", "thrown", "away", "from", "caches",
    ];
    let query: String = (0..20_000)
        .map(|i| words[i % 8])
        .collect::<Vec<_>>()
        .join(" ");
    assert!(query.len() > 100_000);
    let out = dir.run_llm("auto", &["--", &query, "."]);
    out.code(0)
        .stderr_has("the query is about")
        .stderr_has("more than 1/4 of prompt_tokens (4000)");
    let warnings = out
        .stderr
        .lines()
        .filter(|l| l.contains("the query is about"));
    assert_eq!(warnings.count(), 1, "{}", out.describe);
    let received = mock.received();
    assert_eq!(received.len(), 2, "{}", out.describe);
    for request in &received {
        // 4000 estimated tokens are at most 12,000 bytes of prompt; the
        // request adds its JSON, the schema and the model's name.
        assert!(request.body.len() < 16_000, "{} bytes", request.body.len());
        assert!(request.body.contains("where are stale entries thrown away"));
    }
}

/// A model that claims the same `(path, line)` pairs at every call.
fn always_claiming(claims: &[(&str, i64)]) -> MockLlm {
    let matches: Vec<Value> = claims
        .iter()
        .map(|(path, line)| json!({"path": path, "line": line}))
        .collect();
    let reply = json!({"matches": matches}).to_string();
    MockLlm::respond(Box::new(move |_| Step::chat(&reply)))
}

#[test]
fn only_matching_prints_no_heading_for_a_claimed_line_without_a_part() {
    // `retry.py`'s line 1 holds the query's words; `other.py`'s claimed line
    // 4 holds none, so `-o` has nothing of it to print: no heading, no
    // context around it, as an offline `-o` prints a file only with parts.
    let dir = crate::harness::retry_project();
    dir.write(
        "src/other.py",
        "import os\n\ndef compute_backoff(attempt):\n    return 0.5 * (2 ** attempt)\n",
    );
    let mock = always_claiming(&[("src/other.py", 4), ("src/retry.py", 1)]);
    dir.use_model(&mock.base_url(), "learn = false");
    dir.run_llm("auto", &["--rlm", "-o", "retry delay", "."])
        .code(0)
        .stdout_is("./src/retry.py\n1:\tretry\n1:\tdelay\n");
    dir.run_llm("auto", &["--rlm", "-o", "-C1", "retry delay", "."])
        .code(0)
        .stdout_is("./src/retry.py\n1:\tretry\n1:\tdelay\n2-\t    return 0.5 * (2 ** attempt)\n");
    // Without -o the claimed line prints whole.
    dir.run_llm("auto", &["--rlm", "retry delay", "."])
        .code(0)
        .stdout_has("./src/other.py\n4:\t    return 0.5 * (2 ** attempt)\n");
    // Only a partless line claimed: nothing to print, as `rg -o` with no
    // match prints nothing (exit 1).
    let mock = always_claiming(&[("src/other.py", 4)]);
    dir.use_model(&mock.base_url(), "learn = false");
    dir.run_llm("auto", &["--rlm", "-o", "retry delay", "."])
        .code(1)
        .stdout_is("");
}

#[test]
fn a_claim_of_the_empty_line_after_the_final_newline_is_dropped() {
    // `retry.py` has two lines and ends in a newline: rlmgrep's split gives
    // it an empty line 3, which ripgrep (and a reader) never counts.
    let dir = crate::harness::retry_project();
    let mock = always_claiming(&[("src/retry.py", 1), ("src/retry.py", 3)]);
    dir.use_model(&mock.base_url(), "learn = false");
    dir.run_llm("auto", &["--rlm", "retry delay", "."])
        .code(0)
        .stdout_is("./src/retry.py\n1:\tdef retry_delay(attempt):\n")
        .stderr_has("dropped 1 unverified matches");
    // Claimed alone, it is no line of the file: the offline results stand.
    let mock = always_claiming(&[("src/retry.py", 3)]);
    dir.use_model(&mock.base_url(), "learn = false");
    let out = dir.run_llm("auto", &["--rlm", "retry delay", "."]);
    out.code(0)
        .stdout_lacks("3:\t")
        .stderr_has("dropped 1 unverified matches; showing the offline results");
}

/// A file whose name is not UTF-8 reaches the model under its key (U+FFFD
/// for the bad byte: a request is JSON text), a claim of that key verifies,
/// and the verified line prints under the name's real bytes.
#[cfg(unix)]
#[test]
fn a_claim_in_a_non_utf8_named_file_verifies_and_prints_its_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = Dir::new();
    let name = std::ffi::OsStr::from_bytes(b"a\xffb.py");
    std::fs::write(
        dir.path().join(name),
        "import time\n\ndef retry_backoff(attempt):\n    return 2 ** attempt\n",
    )
    .unwrap();
    let mock = MockLlm::start(vec![chat(
        json!({"matches": [{"path": "a\u{fffd}b.py", "line": 3}]}),
    )]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("always", &["--rlm", SUFFICIENT, "."]);
    out.code(0).stderr_lacks("dropped");
    assert_eq!(
        out.raw_stdout, b"./a\xffb.py\n3:\tdef retry_backoff(attempt):\n",
        "{}",
        out.describe
    );
    let sent = mock.received()[0].json().to_string();
    assert!(sent.contains("a\u{fffd}b.py"), "{sent}");
}
