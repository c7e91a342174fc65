//! The pipeline lets a right model win (issue 18): an *oracle* model that
//! names each query's gold line gets that file printed first, on every query
//! it is asked about, although the offline ranking put another file first (or
//! never found the gold one). And the other end: a model that names a wrong
//! file never loses the offline results.

use serde_json::json;

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Received, Step};

/// A project whose queries the offline ranking gets wrong or is unsure of:
/// the code names things differently from the questions.
fn project() -> Dir {
    let d = Dir::new();
    d.write(
        "src/cache.py",
        "class LruCache:\n    def __init__(self, capacity):\n        self.capacity = capacity\n        \
         self.items = {}\n\n    def evict(self):\n        oldest = next(iter(self.items))\n        \
         del self.items[oldest]\n",
    );
    d.write(
        "src/entries.py",
        "# Stale entries are thrown away by the cache when it is full.\nSTALE_AFTER = 60\n\n\
         def entries_older_than(entries, age):\n    return [e for e in entries if e.age > age]\n",
    );
    d.write(
        "src/wire.py",
        "import zlib\n\n\ndef inflate(body):\n    return zlib.decompress(body)\n",
    );
    d.write(
        "src/body.py",
        "# The response body is read in chunks; a compressed body is unpacked later.\n\
         def read_body(stream):\n    chunks = []\n    for chunk in stream:\n        \
         chunks.append(chunk)\n    return b\"\".join(chunks)\n",
    );
    d.write(
        "src/users.py",
        "def lookup_account(name):\n    return ACCOUNTS.get(name)\n",
    );
    d.write(
        "src/login.py",
        "# Users log in with a name; the user record is fetched from the store.\n\
         def login(name, password):\n    user = fetch_user(name)\n    return user.check(password)\n",
    );
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    d
}

/// Config that sends every query to the model: the oracle is asked about
/// each (the judge's threshold is a config key).
const ASK_ALWAYS: &str = "judge_confidence = 0.999";

/// Each query and its gold line (the oracle's answer).
const CASES: &[(&str, &str, i64)] = &[
    ("where are stale entries thrown away", "src/cache.py", 6),
    (
        "where is a compressed response body unpacked",
        "src/wire.py",
        4,
    ),
    ("how is the user record fetched by name", "src/users.py", 1),
];

/// The oracle: no concepts for an expansion; the gold line of the query the
/// selection names, with a reason.
fn oracle(received: &Received) -> Step {
    let body = received.body.clone();
    if body.contains("widen a search") {
        return Step::chat(&json!({"concepts": []}).to_string());
    }
    let gold = CASES
        .iter()
        .find(|(q, _, _)| body.contains(&format!("Query: {q}")));
    let matches = match gold {
        Some((_, path, line)) => json!([{"path": path, "line": line, "reason": "the gold line"}]),
        None => json!([]),
    };
    Step::chat(&json!({"matches": matches}).to_string())
}

/// A model that teaches no concept and always claims `matches` (a JSON array).
fn claiming(matches: serde_json::Value) -> MockLlm {
    MockLlm::respond(Box::new(move |r: &Received| {
        if r.body.contains("widen a search") {
            return Step::chat(&json!({"concepts": []}).to_string());
        }
        Step::chat(&json!({"matches": matches}).to_string())
    }))
}

fn run(d: &Dir, query: &str) -> Run {
    d.run_llm("auto", &["--no-learn", query, "."])
}

#[test]
fn an_oracle_model_puts_the_gold_file_first_on_every_query_it_answers() {
    let d = project();
    let mut asked = 0;
    let mut offline_wrong = 0;
    for (query, gold, line) in CASES {
        let offline = d.run(&["--offline", query, "."]);
        if offline.headings().first().map(String::as_str) != Some(&format!("./{gold}")) {
            offline_wrong += 1;
        }
        let mock = MockLlm::respond(Box::new(oracle));
        d.use_model(&mock.base_url(), ASK_ALWAYS);
        let out = run(&d, query);
        if mock.received().is_empty() {
            continue; // judged sufficient: the oracle was not asked
        }
        asked += 1;
        out.code(0);
        assert_eq!(
            out.headings().first().map(String::as_str),
            Some(format!("./{gold}").as_str()),
            "{}",
            out.describe
        );
        let gold_line = d.path().join(gold);
        let text = std::fs::read_to_string(gold_line).unwrap();
        let expected = text.lines().nth(*line as usize - 1).unwrap();
        out.stdout_has(&format!("{line}:\t{expected}\n"));
    }
    assert_eq!(asked, CASES.len(), "every query should need the model");
    assert!(
        offline_wrong >= 2,
        "the offline ranking should miss some gold files"
    );
}

#[test]
fn a_wrong_model_never_loses_the_offline_results() {
    let d = project();
    let (query, _, _) = CASES[0];
    let offline = d.run(&["--offline", query, "."]);
    offline.code(0);
    // The model names a real line of an unrelated file.
    let mock = claiming(json!([{"path": "src/login.py", "line": 2}]));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let out = run(&d, query);
    out.code(0);
    for heading in offline.headings() {
        assert!(
            out.headings().contains(&heading),
            "{heading} lost\n{}",
            out.describe
        );
        for line in offline.stdout.lines().filter(|l| l.contains(":\t")) {
            out.stdout_has(line);
        }
    }
    out.stdout_has("./src/login.py\n2:\tdef login(name, password):\n");
}

#[test]
fn an_empty_reply_leaves_the_offline_results_but_rlm_prints_what_the_model_said() {
    let d = project();
    let (query, _, _) = CASES[0];
    let offline = d.run(&["--offline", query, "."]);
    offline.code(0);
    let empty = || claiming(json!([]));
    let mock = empty();
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let out = run(&d, query);
    out.code(0);
    assert_eq!(out.stdout, offline.stdout, "{}", out.describe);
    assert!(!mock.received().is_empty());
    // `--rlm` keeps rlmgrep's rule: the model found nothing, so nothing.
    let mock = empty();
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let rlm = d.run(&["--rlm", "--no-learn", query, "."]);
    rlm.code(1);
    assert_eq!(rlm.stdout, "");
}

#[test]
fn the_fallback_asks_for_a_few_ranked_places_and_rlm_for_every_line() {
    let d = project();
    let (query, _, _) = CASES[0];
    let mock = MockLlm::respond(Box::new(oracle));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    run(&d, query).code(0);
    let selection = mock
        .received()
        .into_iter()
        .find(|r| !r.body.contains("widen a search"))
        .expect("a selection request");
    let body = selection.json().to_string();
    assert!(body.contains("rank the places"), "{body}");
    assert!(body.contains("\"maxItems\":5"), "{body}");
    assert!(body.contains("\"reason\""), "{body}");
    let mock = MockLlm::respond(Box::new(oracle));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    d.run(&["--rlm", "--no-learn", query, "."]).code(0);
    let body = mock.received()[0].json().to_string();
    assert!(body.contains("\"maxItems\":50"), "{body}");
    assert!(!body.contains("rank the places"), "{body}");
}

#[test]
fn model_chosen_lines_say_so_in_json() {
    let d = project();
    let (query, gold, line) = CASES[1];
    let mock = MockLlm::respond(Box::new(oracle));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let mut cmd = d.cmd();
    let args = ["--json", "--no-learn", query, "."];
    cmd.env("KGREP_LLM", "auto").args(args);
    let out = crate::harness::finish(&mut cmd, &args, d.path());
    out.code(0);
    let chosen: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|m| m["type"] == "match" && m["data"]["kgrep"]["source"] == "model")
        .collect();
    assert_eq!(chosen.len(), 1, "{}", out.describe);
    assert_eq!(chosen[0]["data"]["line_number"], json!(line));
    assert!(chosen[0]["data"]["path"]["text"]
        .as_str()
        .unwrap()
        .ends_with(gold));
}

fn learn_run(d: &Dir, query: &str) -> Run {
    let mut cmd = d.cmd();
    cmd.env("KGREP_LLM", "auto").args(["-v", query, "."]);
    crate::harness::finish(&mut cmd, &["-v", query, "."], d.path())
}

#[test]
fn what_the_model_found_is_answered_offline_next_time_and_for_a_paraphrase() {
    let d = project();
    let (query, gold, _) = CASES[0];
    let offline = d.run(&["--offline", query, "."]);
    assert_ne!(
        offline.headings().first().map(String::as_str),
        Some(format!("./{gold}").as_str()),
        "the offline ranking should miss it at first\n{}",
        offline.describe
    );
    // The model is asked (the judge trusts nothing offline) and names the
    // gold line, `def evict(self):`.
    let mock = MockLlm::respond(Box::new(oracle));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let taught = learn_run(&d, query);
    taught.code(0);
    assert!(!mock.received().is_empty());
    taught.stderr_has("(the model's verified answer)");
    let file = d.learned();
    let concept = &file["kgrep"]["concepts"]["stale entries thrown away"];
    assert_eq!(concept["answer"], json!(["evict"]), "{file:#}");
    assert_eq!(concept["status"], "proposed");
    let listed = d.run(&["--thesaurus-list"]);
    listed.code(0);
    assert!(
        listed.stdout.lines().any(
            |l| l.starts_with("stale entries thrown away\tproposed\t1\t")
                && l.contains("\tanswer:evict\t")
        ),
        "{}",
        listed.stdout
    );

    // The same query and a paraphrase: the gold file first, no call, the
    // judge says why. The config still asks for the model on anything else.
    for again in [query, "how are stale entries thrown out"] {
        let mock = MockLlm::respond(Box::new(oracle));
        d.use_model(&mock.base_url(), ASK_ALWAYS);
        let out = learn_run(&d, again);
        out.code(0);
        assert!(mock.received().is_empty(), "{again}: {}", out.describe);
        assert_eq!(
            out.headings().first().map(String::as_str),
            Some(format!("./{gold}").as_str()),
            "{again}: {}",
            out.describe
        );
        out.stderr_has("learned answer");
        out.stdout_has("6:\t    def evict(self):\n");
        // The offline first file is still shown: a learned place is never
        // all there is.
        assert!(
            out.headings().contains(&offline.headings()[0].to_string()),
            "{}",
            out.describe
        );
    }
    let file = d.learned();
    assert_eq!(
        file["kgrep"]["concepts"]["stale entries thrown away"]["status"], "accepted",
        "it helped again: {file:#}"
    );

    // Another question is not answered by it: the model is asked.
    let mock = MockLlm::respond(Box::new(oracle));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let (other, _, _) = CASES[2];
    learn_run(&d, other).code(0);
    assert!(!mock.received().is_empty());
}

#[test]
fn nothing_is_learned_from_a_choice_the_offline_ranking_had_made() {
    let d = project();
    // Sufficient offline and the model agrees on the first file (`--rlm`
    // asks anyway): nothing new to keep.
    let query = "where is the LruCache capacity";
    let offline = d.run(&["--offline", "-v", query, "."]);
    offline.stderr_has("-> sufficient");
    assert_eq!(offline.headings()[0], "./src/cache.py");
    let mock = claiming(json!([{"path": "src/cache.py", "line": 3}]));
    d.use_model(&mock.base_url(), "");
    d.run(&["--rlm", "-v", query, "."]).code(0);
    assert!(!mock.received().is_empty());
    assert!(!d.learned_path().exists());
}

#[test]
fn one_reply_that_overrules_a_sufficient_offline_result_is_not_learned() {
    let d = project();
    // Sufficient offline, and the model (`--rlm` asks anyway) names another
    // file's definition: printed, as `--rlm` prints what the model says, but
    // not kept. Kept, one reply steered by a searched file would have put
    // its place first in every later offline run of the query.
    let query = "where is the LruCache capacity";
    let offline = d.run(&["--offline", "-v", query, "."]);
    offline.stderr_has("-> sufficient");
    assert_eq!(offline.headings()[0], "./src/cache.py");
    let mock = claiming(json!([{"path": "src/users.py", "line": 1}]));
    d.use_model(&mock.base_url(), "");
    let out = d.run(&["--rlm", "-v", query, "."]);
    out.code(0)
        .stdout_has("./src/users.py\n1:\tdef lookup_account(name):\n")
        .stderr_has(
            "not keeping the model's answer: it overrules offline results judged sufficient",
        );
    assert!(!mock.received().is_empty());
    assert!(!d.learned_path().exists(), "{}", out.describe);
    let again = d.run(&["--offline", query, "."]);
    assert_eq!(again.headings()[0], "./src/cache.py");
}

#[test]
fn explain_gives_each_file_its_own_figures_after_the_model_chose() {
    let d = project();
    let query = "where is the LruCache capacity";
    let said = |run: &Run, key: &str| -> Option<String> {
        let prefix = format!("explain: {key}:");
        run.stdout
            .lines()
            .chain(run.stderr.lines())
            .find(|l| l.trim_start_matches("kgrep: ").starts_with(&prefix))
            .map(|l| l.trim_start_matches("kgrep: ").to_string())
    };
    let offline = d.run(&["--offline", "--explain", query, "."]);
    let cache = said(&offline, "src/cache.py").expect("cache.py is explained offline");
    // `--rlm` prints the model's files, in its order: a file the offline
    // ranking had ranked keeps its own figures, not another file's.
    let mock = claiming(json!([
        {"path": "src/users.py", "line": 1},
        {"path": "src/cache.py", "line": 3}
    ]));
    d.use_model(&mock.base_url(), "");
    let out = d.run(&["--rlm", "--no-learn", "--explain", query, "."]);
    out.code(0);
    assert_eq!(said(&out, "src/cache.py"), Some(cache), "{}", out.describe);
    let users = said(&out, "src/users.py").expect("users.py is explained");
    assert_eq!(
        Some(users),
        said(&offline, "src/users.py")
            .or_else(|| Some("explain: src/users.py: chosen by the model".to_string())),
        "{}",
        out.describe
    );
}

#[test]
fn only_the_models_first_file_and_its_code_lines_are_learned() {
    let d = project();
    let (query, _, _) = CASES[0];
    // Its first place is cache.py's `def evict`; the second file it lists
    // (`def lookup_account`) teaches nothing.
    let mock = claiming(json!([
        {"path": "src/cache.py", "line": 6},
        {"path": "src/users.py", "line": 1},
    ]));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    learn_run(&d, query).code(0);
    let file = d.learned();
    assert_eq!(
        file["kgrep"]["concepts"]["stale entries thrown away"]["answer"],
        json!(["evict"]),
        "{file:#}"
    );
}

#[test]
fn a_chosen_line_without_the_querys_words_that_defines_nothing_teaches_nothing() {
    let d = project();
    let (query, _, _) = CASES[0];
    // `del self.items[oldest]` holds none of the query's words and defines
    // nothing: small models that miscount lines land on such lines, so it is
    // printed (it is verified) but neither votes nor teaches.
    let mock = claiming(json!([{"path": "src/cache.py", "line": 8}]));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let out = learn_run(&d, query);
    out.code(0)
        .stdout_has("8:\t        del self.items[oldest]\n")
        .stderr_has("model: no vote in the ranking for src/cache.py");
    assert!(
        !out.stderr.contains("(the model's verified answer)"),
        "{}",
        out.describe
    );
    // The definition line it sits in does locate, and teaches its name.
    let d = project();
    let mock = claiming(json!([{"path": "src/cache.py", "line": 6}]));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    learn_run(&d, query)
        .code(0)
        .stderr_has("(the model's verified answer)");
    let file = d.learned();
    assert_eq!(
        file["kgrep"]["concepts"]["stale entries thrown away"]["answer"],
        json!(["evict"]),
        "{file:#}"
    );
}

#[test]
fn a_chosen_import_without_the_querys_words_is_not_printed_and_teaches_nothing() {
    let d = project();
    // `import zlib` names what is elsewhere and holds none of the query's
    // words: it says nothing about the query.
    let query = "where is a compressed response body unpacked";
    let mock = claiming(json!([{"path": "src/wire.py", "line": 1}]));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let out = learn_run(&d, query);
    out.code(0)
        .stderr_has("model: 1 claimed line(s) say nothing")
        .stdout_lacks("1:\timport zlib");
    assert!(
        !out.stderr.contains("(the model's verified answer)"),
        "{}",
        out.describe
    );
}

#[test]
fn a_consultation_that_changed_nothing_is_not_paid_for_twice() {
    let d = project();
    let (query, _, _) = CASES[1];
    // The model claims only an import without the query's words: nothing
    // verifiable to add, so the offline answer stands, and is remembered.
    let mock = claiming(json!([{"path": "src/wire.py", "line": 1}]));
    d.use_model(&mock.base_url(), ASK_ALWAYS);
    let first = learn_run(&d, query);
    first
        .code(0)
        .stderr_has("(the answer the model was asked about and did not change)");
    assert_eq!(mock.received().len(), 1, "{}", first.describe);
    // The same query, and one sharing its words, make no call next time and
    // print the same first file.
    for again in [
        query,
        "where does the code unpack a compressed response body",
    ] {
        let mock = claiming(json!([]));
        d.use_model(&mock.base_url(), ASK_ALWAYS);
        let next = learn_run(&d, again);
        next.code(0);
        assert!(mock.received().is_empty(), "{}", next.describe);
        assert_eq!(
            next.headings().first(),
            first.headings().first(),
            "{}",
            next.describe
        );
    }
}

#[test]
fn a_lesson_keeps_only_identifiers_that_carry_the_query_or_are_defined_where_the_model_chose() {
    // Issue 28, item 12: `finish_non_exhaustive` (a Debug impl's detail) was
    // kept as the answer to "hiding secret headers", `json` (the function a
    // bare `raise` sits in) to "raise exception status".
    let d = Dir::new();
    d.write(
        "src/request.rs",
        "impl fmt::Debug for Request {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        \
         f.debug_struct(\"Request\").field(\"url\", &self.url).finish_non_exhaustive()\n    }\n}\n",
    );
    d.write(
        "src/models.py",
        "class Response:\n    def json(self, **kwargs):\n        try:\n            \
         return complexjson.loads(self.text, **kwargs)\n        except ValueError as error:\n            \
         raise error\n",
    );
    for i in 0..8 {
        d.write(
            &format!("src/other{i}.py"),
            format!("def helper_{i}(value):\n    return value\n"),
        );
    }
    std::fs::create_dir_all(d.path().join(".git")).unwrap();
    let cases = [
        (
            "hiding secret headers like authorization in debug logs",
            "src/request.rs",
            3,
        ),
        ("raise an exception for an error status", "src/models.py", 6),
    ];
    for (query, path, line) in cases {
        let mock = claiming(json!([{"path": path, "line": line}]));
        d.use_model(&mock.base_url(), ASK_ALWAYS);
        let run = learn_run(&d, query);
        run.code(0);
        assert!(!mock.received().is_empty(), "{}", run.describe);
        if path == "src/models.py" {
            run.stderr_has(
                "not keeping the model's answer: no identifier on its lines carries \
                 the query's words or is defined there (json)",
            );
        }
    }
    let text = std::fs::read_to_string(d.learned_path()).unwrap_or_default();
    for junk in ["finish_non_exhaustive", "\"json\""] {
        assert!(!text.contains(junk), "{junk} kept:\n{text}");
    }
    // What the chosen line does carry is kept: `debug_struct` holds "debug".
    assert!(text.contains("debug_struct"), "{text}");
}
