//! The learning loop end to end: the real binary, the mock model on
//! 127.0.0.1, a hermetic HOME whose learned thesaurus the tests read. Pay for
//! a concept once: what an expansion taught answers the same and similar
//! queries offline; bad files, failures and concurrent writers never leave a
//! broken thesaurus.

use serde_json::{json, Value};

use crate::harness::{Dir, Run};
use crate::mock_llm::{MockLlm, Step};

/// A project whose code says "zibble" for what the queries call "gronk".
fn project() -> Dir {
    let dir = Dir::new();
    dir.write(
        "src/packets.py",
        "class Packet:\n    def __init__(self, data):\n        self.data = data\n\n\
         def zibble(packet):\n    \"\"\"Reverse the bytes of a packet in place.\"\"\"\n    \
         packet.data = packet.data[::-1]\n    return packet\n\n\
         def zibble_all(packets):\n    for p in packets:\n        zibble(p)\n",
    );
    dir.write(
        "src/pipeline.py",
        "from .packets import zibble_all\n\ndef run(batch):\n    \
         # every packet is zibbled before it is sent\n    zibble_all(batch)\n    \
         return send(batch)\n\ndef send(batch):\n    return len(batch)\n",
    );
    dir.write(
        "src/stream.py",
        "from .packets import zibble\n\ndef zibble_stream(stream):\n    \
         \"\"\"Zibble each packet as it arrives.\"\"\"\n    for item in stream:\n        \
         yield zibble(item)\n",
    );
    dir.write(
        "src/config.py",
        "# Settings for the encoder.\nTIMEOUT = 10\nBUFFER_SIZE = 4096\n",
    );
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir
}

/// Not answered offline: the code never says "gronk".
const QUERY: &str = "where do we gronk packets";
/// Shares the concept (an inflection of its name) and nothing else.
const PARAPHRASE: &str = "how is each packet gronked";

fn chat(value: Value) -> Step {
    Step::chat(&value.to_string())
}

/// The expansion that teaches "gronk" (its synonyms occur in the code).
fn teach_gronk() -> Step {
    chat(json!({"concepts": [{"name": "gronk",
        "synonyms": ["zibble", "zibbled", "gronking", "blorfify"], "related": []}]}))
}

/// `--thesaurus-list`'s lines.
fn list(dir: &Dir) -> Vec<String> {
    let out = dir.run(&["--thesaurus-list"]);
    out.code(0);
    out.stdout.lines().map(str::to_string).collect()
}

/// Learns "gronk" with one model call; returns that run.
fn learn_gronk(dir: &Dir) -> Run {
    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", QUERY, "."]);
    out.code(0).stderr_has("learned: gronk (zibble");
    assert_eq!(mock.received().len(), 1, "{}", out.describe);
    out
}

/// A model that must not be called (any call is answered with an error and
/// recorded).
fn silent_model(dir: &Dir) -> MockLlm {
    let mock = MockLlm::start(vec![]);
    dir.use_model(&mock.base_url(), "");
    mock
}

#[test]
fn a_concept_is_paid_for_once() {
    let dir = project();
    let mock = MockLlm::start(vec![teach_gronk()]);
    let key = dir.use_model(&mock.base_url(), "");
    let first = dir.run_llm("auto", &["-v", QUERY, "."]);
    first
        .code(0)
        .stderr_has("-> needs expansion")
        .stderr_has("learned: gronk (zibble) into ");
    assert_eq!(
        mock.received().len(),
        1,
        "one expansion: {}",
        first.describe
    );
    assert!(
        first.stdout.contains("def zibble(packet):"),
        "{}",
        first.describe
    );
    let file = dir.learned();
    assert_eq!(file["data"]["zibble"]["nterm"], json!("gronk"), "{file}");
    assert_eq!(
        file["data"]["zibble"]["id"], file["data"]["gronk"]["id"],
        "{file}"
    );
    assert!(
        file["data"].get("blorfify").is_none(),
        "not in the corpus: {file}"
    );
    assert!(
        file["data"].get("zibbled").is_none(),
        "never searched: {file}"
    );
    let meta = &file["kgrep"]["concepts"]["gronk"];
    assert_eq!(meta["query"], json!(QUERY), "{file}");
    assert_eq!(meta["model"], json!("openai/mock-model"), "{file}");
    assert_eq!(meta["hits"], json!(1), "{file}");
    assert_eq!(meta["status"], json!("proposed"), "{file}");
    let text = std::fs::read_to_string(dir.learned_path()).unwrap();
    assert!(
        !text.contains(key),
        "the API key never reaches the thesaurus"
    );

    let silent = silent_model(&dir);
    let second = dir.run_llm("auto", &["-v", QUERY, "."]);
    second
        .code(0)
        .stderr_has("from the learned layer: gronk (proposed)")
        .stderr_has("model: not consulted");
    assert!(silent.received().is_empty(), "{}", second.describe);
    assert_eq!(second.stdout, first.stdout, "the same lines, offline");
    // It helped again without a model: accepted.
    assert!(
        list(&dir)[0].starts_with("gronk\taccepted\t2\t"),
        "{:?}",
        list(&dir)
    );

    let third = dir.run_llm("auto", &["-v", PARAPHRASE, "."]);
    third
        .code(0)
        .stderr_has("from the learned layer: gronk (accepted)");
    assert!(silent.received().is_empty(), "{}", third.describe);
    assert!(
        third.stdout.contains("def zibble(packet):"),
        "{}",
        third.describe
    );
}

#[test]
fn a_synonym_another_concept_owns_is_never_repointed() {
    let dir = project();
    dir.write("src/settings.py", "cfg = dict(zibble=True)\n");
    let mock = MockLlm::start(vec![
        chat(json!({"concepts": [{"name": "gronk",
            "synonyms": ["zibble", "cfg", "the", "x"], "related": []}]})),
        chat(json!({"matches": [{"path": "src/packets.py", "line": 5}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", QUERY, "."]);
    out.code(0).stderr_has("learned: gronk (zibble) into");
    let file = dir.learned();
    assert!(
        file["data"].get("cfg").is_none(),
        "cfg is the embedded thesaurus's (configuration), though this query never named it: {file}"
    );
    assert_eq!(file["data"]["zibble"]["nterm"], json!("gronk"), "{file}");
}

#[test]
fn a_paraphrase_is_free_while_the_concept_is_still_proposed() {
    let dir = project();
    learn_gronk(&dir);
    let silent = silent_model(&dir);
    let out = dir.run_llm("auto", &["-v", PARAPHRASE, "."]);
    out.code(0)
        .stderr_has("from the learned layer: gronk (proposed)")
        .stderr_has("learned: gronk helped again");
    assert!(silent.received().is_empty(), "{}", out.describe);
    assert!(out.stdout.contains("zibble"), "{}", out.describe);
}

#[test]
fn a_concept_learned_under_an_embedded_name_keeps_the_embedded_synonyms() {
    let dir = project();
    dir.write(
        "src/loader.py",
        "def read_cfg(path):\n    \"\"\"Parse the cfg file at path.\"\"\"\n    \
         return parse(open(path).read())\n",
    );
    let asked = "where is the configuration parsed";
    let offline = dir.run_llm("off", &["--no-learn", asked, "."]);
    offline.code(0).first_heading_is("./src/loader.py");
    // A model teaches the embedded concept's own name a word of its own.
    let mock = MockLlm::start(vec![
        chat(json!({"concepts": [{"name": "configuration",
            "synonyms": ["zibble"], "related": []}]})),
        chat(json!({"matches": [{"path": "src/packets.py", "line": 5}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    dir.run_llm("auto", &["-v", "how is the configuration gronked", "."])
        .code(0)
        .stderr_has("learned: configuration (zibble)");
    // Later, offline: the model's word is added, `cfg` and the rest stay.
    let out = dir.run_llm("off", &["-v", asked, "."]);
    out.code(0)
        .stderr_has("from the learned layer: configuration (proposed)")
        .stderr_has(" cfg (cfg)")
        .stderr_has(" zibble (")
        .first_heading_is("./src/loader.py");
}

#[test]
fn a_learned_concept_in_a_query_still_unanswered_earns_no_hit() {
    let dir = project();
    learn_gronk(&dir);
    // No model any more; the query is not answered (the wombats are nowhere).
    let home = dir.learned_path().ancestors().nth(4).unwrap().to_path_buf();
    std::fs::write(home.join(".rlmgrep/config.toml"), "").unwrap();
    let out = dir.run_llm(
        "auto",
        &["-v", "where do we gronk the wombats and yaks", "."],
    );
    out.stderr_has("from the learned layer: gronk (proposed)")
        .stderr_lacks("-> sufficient")
        .stderr_lacks("helped again");
    assert!(
        list(&dir)[0].starts_with("gronk\tproposed\t1\t"),
        "{:?}",
        list(&dir)
    );
}

#[test]
fn proposed_concepts_weigh_less_until_accepted() {
    let dir = project();
    learn_gronk(&dir);
    let weight_of = |dir: &Dir| -> f64 {
        let out = dir.run_llm("off", &["--json", "--no-learn", QUERY, "."]);
        let summary: Value = out
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["type"] == json!("match"))
            .unwrap_or_else(|| panic!("{}", out.describe));
        let terms = summary["data"]["kgrep"]["terms"]
            .as_array()
            .unwrap()
            .clone();
        assert!(!terms.is_empty(), "{summary}");
        let out = dir.run_llm("off", &["-v", "--no-learn", QUERY, "."]);
        out.code(0);
        // The -v ranking lines carry the best line's term score.
        let line = out
            .stderr
            .lines()
            .find(|l| l.contains("src/packets.py best line"))
            .unwrap_or_else(|| panic!("{}", out.describe))
            .to_string();
        let terms = line.split("terms ").nth(1).unwrap();
        terms.split(' ').next().unwrap().parse().unwrap()
    };
    let proposed = weight_of(&dir);
    dir.run(&["--thesaurus-accept", "gronk"])
        .code(0)
        .stderr_has("accepted gronk");
    let accepted = weight_of(&dir);
    assert!(proposed < accepted, "{proposed} < {accepted}");
}

#[test]
fn no_learn_and_offline_write_nothing() {
    let dir = project();
    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", "--no-learn", QUERY, "."]);
    out.code(0).stderr_lacks("learned:");
    assert_eq!(mock.received().len(), 1, "{}", out.describe);
    assert!(!dir.learned_path().exists(), "{}", out.describe);

    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "learn = false");
    dir.run_llm("auto", &[QUERY, "."]).code(0);
    assert_eq!(mock.received().len(), 1);
    assert!(!dir.learned_path().exists());

    let mock = silent_model(&dir);
    dir.run_llm("auto", &["--offline", QUERY, "."]);
    dir.run_llm("off", &[QUERY, "."]);
    assert!(mock.received().is_empty());
    assert!(!dir.learned_path().exists());
}

#[test]
fn a_failed_call_writes_nothing() {
    let dir = project();
    let mock = MockLlm::start(vec![Step::error(500, "boom")]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", QUERY, "."]);
    out.stderr_has("model call failed");
    assert!(!dir.learned_path().exists(), "{}", out.describe);
    // An expansion that worked, then a selection that failed: the run's model
    // call failed, so nothing is kept either.
    let mock = MockLlm::start(vec![teach_gronk(), Step::error(500, "boom")]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("always", &["-v", QUERY, "."]);
    out.stderr_has("model call failed");
    out.stderr_has("model: 2 call(s)");
    assert!(!dir.learned_path().exists(), "{}", out.describe);
}

#[test]
fn a_corrupt_learned_file_is_left_alone_and_reported_once() {
    let dir = project();
    let path = dir.learned_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{\"data\": {\"zibble\": ").unwrap();
    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &[QUERY, "."]);
    out.code(0).stderr_has("moved aside");
    assert_eq!(
        out.stderr.matches("invalid thesaurus").count(),
        1,
        "{}",
        out.describe
    );
    assert!(
        out.stdout.contains("zibble"),
        "still works: {}",
        out.describe
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"data\": {\"zibble\": "
    );
    let listed = dir.run(&["--thesaurus-list"]);
    listed.code(2).stderr_has("invalid thesaurus");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"data\": {\"zibble\": "
    );
}

/// A project's `.kgrep` that is a symlink (git keeps them: a cloned project
/// can bring one) is not used: nothing is learned into the folder it points
/// to, nor read from it.
#[test]
fn a_linked_project_folder_is_neither_written_nor_read() {
    let dir = project();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join(".kgrep")).unwrap();
    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "learn_to = \"project\"");
    let out = dir.run_llm("auto", &[QUERY, "."]);
    out.code(0)
        .stderr_has(".kgrep is a symbolic link; a project's folder is not used through one")
        .stderr_has("not learning");
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        0,
        "nothing written where the link points\n{}",
        out.describe
    );
    // A thesaurus where it points is not read either.
    std::fs::write(
        elsewhere.path().join("thesaurus.json"),
        r#"{"name": "x", "data": {"zibble": {"id": 1, "nterm": "gronk"}}}"#,
    )
    .unwrap();
    let listed = dir.run(&["--thesaurus-list"]);
    assert!(!listed.stdout.contains("zibble"), "{}", listed.describe);
    listed.stderr_has("is a symbolic link");
}

#[test]
fn learning_into_the_project_thesaurus() {
    let dir = project();
    let mock = MockLlm::start(vec![teach_gronk()]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["--json", "--learn-to", "project", QUERY, "."]);
    out.code(0);
    let summary: Value = serde_json::from_str(out.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(
        summary["data"]["kgrep"]["concepts_learned"],
        json!(["gronk"]),
        "{summary}"
    );
    assert!(!dir.learned_path().exists());
    let project_file = dir.path().join(".kgrep/thesaurus.json");
    let text = std::fs::read_to_string(&project_file).unwrap();
    assert!(text.contains("\"zibble\""), "{text}");
    let silent = MockLlm::start(vec![]);
    dir.use_model(&silent.base_url(), "learn_to = \"project\"");
    let again = dir.run_llm("auto", &["-v", QUERY, "."]);
    again
        .code(0)
        .stderr_has("from the learned layer: gronk (proposed)");
    assert!(silent.received().is_empty(), "{}", again.describe);
    let listed = dir.run(&["--thesaurus-list"]);
    assert!(
        listed.stdout.starts_with("gronk\taccepted\t2\t"),
        "{}",
        listed.describe
    );
}

#[test]
fn list_accept_forget_export_import_round_trip() {
    let dir = project();
    learn_gronk(&dir);
    let lines = list(&dir);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let cols: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(cols[0..3], ["gronk", "proposed", "1"], "{lines:?}");
    assert!(cols[3].ends_with('Z'), "a UTC date: {lines:?}");
    assert_eq!(
        cols[4..],
        ["openai/mock-model", "zibble", QUERY],
        "{lines:?}"
    );

    dir.run(&["--thesaurus-accept", "Gronk"]).code(0);
    assert!(list(&dir)[0].starts_with("gronk\taccepted\t1\t"));
    dir.run(&["--thesaurus-accept", "nothing-here"])
        .code(1)
        .stderr_has("no learned concept");

    dir.run(&["--thesaurus-export", "out/kg/"]).code(0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/kg/gronk.md")).unwrap(),
        "# Gronk\n\nsynonyms:: zibble\n"
    );
    dir.run(&["--thesaurus-export", "out/all.json"]).code(0);
    let exported: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/all.json")).unwrap())
            .unwrap();
    assert_eq!(exported, dir.learned());

    dir.run(&["--thesaurus-forget", "gronk"])
        .code(0)
        .stderr_has("forgot gronk");
    assert!(list(&dir).is_empty());
    assert!(dir.learned()["data"].get("zibble").is_none());
    let silent = silent_model(&dir);
    let forgotten = dir.run_llm("off", &["-v", QUERY, "."]);
    forgotten.stderr_lacks("learned layer");

    dir.run(&["--thesaurus-import", "out/kg"]).code(0);
    let lines = list(&dir);
    assert!(lines[0].starts_with("gronk\taccepted\t0\t"), "{lines:?}");
    assert!(lines[0].contains("\tzibble\t"), "{lines:?}");
    let back = dir.run_llm("auto", &["-v", QUERY, "."]);
    back.code(0)
        .stderr_has("from the learned layer: gronk (accepted)");
    assert!(silent.received().is_empty(), "{}", back.describe);

    // Importing keeps the same rules: junk and synonyms other concepts own
    // ("cfg" is the embedded thesaurus's, "zibble" now gronk's) are skipped.
    dir.write(
        "more.json",
        r#"{"name": "x", "data": {
            "wumpus": {"id": 1, "nterm": "wumpus"},
            "hunt the wumpus": {"id": 1, "nterm": "wumpus"},
            "cfg": {"id": 1, "nterm": "wumpus"},
            "zibble": {"id": 1, "nterm": "wumpus"},
            "the": {"id": 1, "nterm": "wumpus"},
            "q": {"id": 1, "nterm": "wumpus"}}}"#,
    );
    dir.run(&["--thesaurus-import", "more.json"]).code(0);
    let file = dir.learned();
    assert_eq!(
        file["data"]["hunt the wumpus"]["nterm"],
        json!("wumpus"),
        "{file}"
    );
    assert_eq!(file["data"]["zibble"]["nterm"], json!("gronk"), "{file}");
    for junk in ["cfg", "the", "q"] {
        assert!(file["data"].get(junk).is_none(), "{junk}: {file}");
    }
    let ids: Vec<u64> = ["gronk", "wumpus"]
        .iter()
        .map(|n| file["data"][n]["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids[1], ids[0] + 1, "new id = max + 1: {file}");
}

/// What each concurrent learner asks about, and the word the code uses.
const WORDS: [(&str, &str); 8] = [
    ("gronk", "zibble"),
    ("florp", "wobnik"),
    ("yabble", "frazzle"),
    ("quimby", "quonkle"),
    ("zorch", "snorple"),
    ("plonk", "blivet"),
    ("skree", "grommit"),
    ("vronk", "taddle"),
];

/// A project with one file per code word of [`WORDS`].
fn many_words_project() -> Dir {
    let dir = Dir::new();
    for (_, word) in WORDS {
        dir.write(
            &format!("src/{word}.py"),
            format!(
                "def {word}(item):\n    \"\"\"{word} one item.\"\"\"\n    return item.{word}()\n\n\
                 def {word}_all(items):\n    return [{word}(i) for i in items]\n"
            ),
        );
    }
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir
}

/// The mock for learner `i`: its expansion, then a selection of its file.
fn learner_mock(i: usize) -> MockLlm {
    let (name, word) = WORDS[i];
    MockLlm::start(vec![
        chat(json!({"concepts": [{"name": name, "synonyms": [word], "related": []}]})),
        chat(json!({"matches": [{"path": format!("src/{word}.py"), "line": 1}]})),
    ])
}

/// Starts learner `i` against `mock` (its own `--api-base`).
fn spawn_learner(dir: &Dir, i: usize, mock: &MockLlm) -> std::process::Child {
    let query = format!("where do we {}", WORDS[i].0);
    dir.std_cmd()
        .env("KGREP_LLM", "auto")
        .args(["--api-base", &mock.base_url(), &query, "."])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn eight_processes_learning_at_once_lose_nothing() {
    let dir = many_words_project();
    dir.use_model("http://127.0.0.1:9/v1", "");
    let mocks: Vec<MockLlm> = (0..WORDS.len()).map(learner_mock).collect();
    let children: Vec<_> = (0..WORDS.len())
        .map(|i| spawn_learner(&dir, i, &mocks[i]))
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "learner {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let file = dir.learned();
    let concepts = file["kgrep"]["concepts"].as_object().unwrap();
    assert_eq!(concepts.len(), WORDS.len(), "{file}");
    let mut ids: Vec<u64> = Vec::new();
    for (name, word) in WORDS {
        assert_eq!(file["data"][word]["nterm"], json!(name), "{file}");
        ids.push(file["data"][name]["id"].as_u64().unwrap());
    }
    ids.sort_unstable();
    assert_eq!(ids, (1..=8).collect::<Vec<u64>>(), "distinct ids: {file}");
    assert_eq!(list(&dir).len(), WORDS.len());
}

/// A small deterministic generator (xorshift), seeded from the clock; the
/// seed is in every failure message.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn a_writer_killed_at_any_moment_never_leaves_a_broken_file() {
    const ROUNDS: usize = 24;
    /// Longer than a whole learning run of the debug binary, so kills land
    /// before, during and after the write.
    const MAX_DELAY_MS: u64 = 400;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let mut rng = Rng(seed);
    let dir = many_words_project();
    dir.use_model("http://127.0.0.1:9/v1", "");
    let mut finished: Vec<&str> = Vec::new();
    let mut killed = 0;
    for round in 0..ROUNDS {
        let i = round % WORDS.len();
        let mock = learner_mock(i);
        let mut child = spawn_learner(&dir, i, &mock);
        std::thread::sleep(std::time::Duration::from_millis(rng.below(MAX_DELAY_MS)));
        match child.try_wait().unwrap() {
            Some(status) if status.success() => finished.push(WORDS[i].0),
            Some(status) => panic!("seed {seed}: learner {i} failed: {status}"),
            None => {
                child.kill().unwrap();
                killed += 1;
            }
        }
        let _ = child.wait();
        if dir.learned_path().exists() {
            let text = std::fs::read_to_string(dir.learned_path()).unwrap();
            let parsed: Result<Value, _> = serde_json::from_str(&text);
            assert!(
                parsed.is_ok(),
                "seed {seed}, round {round}: broken file\n{text}"
            );
        }
    }
    eprintln!("seed {seed}: {killed} killed, {} finished", finished.len());
    let file = if finished.is_empty() {
        return;
    } else {
        dir.learned()
    };
    for name in finished {
        assert!(
            file["kgrep"]["concepts"].get(name).is_some(),
            "seed {seed}: {name} finished but is missing: {file}"
        );
    }
    dir.run(&["--thesaurus-list"]).code(0);
    // The next writer clears what killed ones left behind.
    dir.run(&["--thesaurus-accept", WORDS[0].0]);
    let dir_of_file = dir.learned_path().parent().unwrap().to_path_buf();
    let leftovers: Vec<String> = std::fs::read_dir(dir_of_file)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp."))
        .collect();
    assert!(leftovers.is_empty(), "seed {seed}: {leftovers:?}");
}

#[test]
fn only_words_that_found_printed_lines_are_learned() {
    let dir = project();
    // `return` is on printed lines but is a keyword; `florp` is in the
    // corpus (a note far from the answer) but on no printed line.
    dir.write(
        "docs/notes.md",
        "# Notes\n\nThe florp tables are rebuilt nightly.\n",
    );
    let mock = MockLlm::start(vec![chat(json!({"concepts": [
        {"name": "gronk", "synonyms": ["zibble", "return"], "related": []},
        {"name": "packet florp", "synonyms": ["florp"], "related": []}
    ]}))]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("auto", &["-v", QUERY, "."]);
    out.code(0).stderr_has("learned: gronk (zibble) into ");
    assert!(!out.stdout.contains("notes.md"), "{}", out.describe);
    let file = dir.learned();
    assert_eq!(file["data"]["zibble"]["nterm"], json!("gronk"), "{file}");
    for junk in ["return", "florp", "packet florp"] {
        assert!(file["data"].get(junk).is_none(), "{junk} learned: {file}");
    }
}

#[test]
fn a_markdown_concept_keeps_its_heading_and_a_refused_one_says_why() {
    // issue 16 item 12.
    let d = Dir::new();
    d.write(
        "kg/blueprint-registration.md",
        "# Blueprint Registration\n\nsynonyms:: register blueprint, blueprint setup\n",
    );
    d.write("kg/zzjunk.md", "# Zzjunk\n\nsynonyms:: the, a\n");
    let run = d.run(&["--thesaurus-import", "kg/"]);
    run.code(0)
        .stderr_has("imported 1 of 2 concept(s)")
        .stderr_has("kgrep: not imported: zzjunk: no synonym to keep: ")
        .stderr_has("\"the\" is a stop word");
    d.run(&["--thesaurus-export", "out/"]).code(0);
    let exported = std::fs::read_to_string(d.path().join("out/blueprint-registration.md")).unwrap();
    assert_eq!(
        exported,
        "# Blueprint Registration\n\nsynonyms:: blueprint setup, register blueprint\n"
    );
    // Through JSON and back, the heading survives too.
    d.run(&["--thesaurus-export", "all.json"]).code(0);
    std::fs::remove_file(d.learned_path()).unwrap();
    d.run(&["--thesaurus-import", "all.json"]).code(0);
    d.run(&["--thesaurus-export", "again/"]).code(0);
    let again = std::fs::read_to_string(d.path().join("again/blueprint-registration.md")).unwrap();
    assert_eq!(again, exported);
}

#[test]
fn a_learned_file_that_cannot_be_written_is_warned_about_once() {
    // Issue 28: a run that learns an answer and a concept warned once for
    // each when the learned file could not be written.
    let dir = project();
    let folder = dir.learned_path().parent().unwrap().to_path_buf();
    std::fs::create_dir_all(folder.parent().unwrap()).unwrap();
    std::fs::write(&folder, "a file where the folder should be").unwrap();
    let mock = MockLlm::start(vec![
        teach_gronk(),
        chat(json!({"matches": [{"path": "src/stream.py", "line": 3}]})),
    ]);
    dir.use_model(&mock.base_url(), "");
    let out = dir.run_llm("always", &[QUERY, "."]);
    out.code(0);
    assert_eq!(mock.received().len(), 2, "{}", out.describe);
    let warnings = out.stderr.lines().filter(|l| l.contains("not learning"));
    assert_eq!(warnings.count(), 1, "{}", out.describe);
}
