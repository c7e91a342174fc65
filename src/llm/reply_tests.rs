#![allow(clippy::unwrap_used)]

use serde_json::json;

use super::*;

fn claim(path: &str, line: i64) -> Claim {
    Claim {
        path: path.into(),
        line,
    }
}

#[test]
fn plain_object_with_every_key() {
    let text = r#"{"matches": [{"path": "src/app.py", "line": 9}],
        "answer": "It retries.",
        "citations": [{"path": "src/app.py", "line": 3}],
        "concepts": [{"name": "retry", "synonyms": ["backoff", 7], "related": "timeout"}],
        "searches": [{"pattern": "retry_delay"}, {"path": "src/app.py", "start": 1, "end": 40}],
        "summary": "x", "files": ["a"]}"#;
    let reply = parse_reply(text).unwrap();
    assert_eq!(reply.matches, [claim("src/app.py", 9)]);
    assert_eq!(reply.answer.as_deref(), Some("It retries."));
    assert_eq!(reply.citations, [claim("src/app.py", 3)]);
    assert_eq!(
        reply.concepts,
        [Concept {
            name: "retry".into(),
            synonyms: vec!["backoff".into()],
            related: vec!["timeout".into()],
        }]
    );
    assert_eq!(
        reply.searches,
        [
            Search::Pattern("retry_delay".into()),
            Search::Range {
                path: "src/app.py".into(),
                start: 1,
                end: 40
            }
        ]
    );
    assert_eq!(reply.extra.get("summary"), Some(&json!("x")));
    assert_eq!(reply.extra.get("files"), Some(&json!(["a"])));
    assert_eq!(reply.malformed, 0);
}

#[test]
fn empty_object_is_a_valid_empty_reply() {
    assert_eq!(parse_reply("{}").unwrap(), Reply::default());
    assert_eq!(
        parse_reply(" {\"matches\": null} ").unwrap(),
        Reply::default()
    );
}

#[test]
fn line_numbers_are_coerced_like_pydantic() {
    let text = r#"{"matches": [
        {"path": "a", "line": "12"}, {"path": "a", "line": 13.0}, {"path": "a", "line": " 14 "},
        {"path": "a", "line": 0}, {"path": "a", "line": -1}, {"path": "a", "line": "15.0"},
        {"path": "a", "line": 1.5}, {"path": "a", "line": "x"}, {"path": "a"}, {"line": 3},
        {"file": "b", "line_number": 4}, "c.py:7", ["d.py", "8"], "nocolon", 42
    ]}"#;
    let reply = parse_reply(text).unwrap();
    let want = [
        claim("a", 12),
        claim("a", 13),
        claim("a", 14),
        claim("a", 0),
        claim("a", -1),
        claim("a", 15),
        claim("b", 4),
        claim("c.py", 7),
        claim("d.py", 8),
    ];
    assert_eq!(reply.matches, want);
    assert_eq!(reply.malformed, 6);
}

#[test]
fn matches_keyed_by_path() {
    let reply = parse_reply(r#"{"matches": {"a.rs": [3, "4"], "b.rs": 9}}"#).unwrap();
    assert_eq!(
        reply.matches,
        [claim("a.rs", 3), claim("a.rs", 4), claim("b.rs", 9)]
    );
}

#[test]
fn fenced_and_prose_wrapped_replies() {
    let want = [claim("src/app.py", 9)];
    let texts = [
        "```json\n{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}\n```",
        "Here you go:\n```\n{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}\n```\nDone.",
        "Sure! {\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]} Hope that helps {:}",
        "I think {this} is it: {\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}",
        "```python\nx = {1: 2}\n```\n```json\n{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9}]}\n```",
        "{\"matches\": [{\"path\": \"src/app.py\", \"line\": 9, \"note\": \"a } in a string\"}]} trailing",
    ];
    for text in texts {
        assert_eq!(parse_reply(text).unwrap().matches, want, "{text}");
    }
}

#[test]
fn no_json_and_wrong_shapes_are_errors() {
    assert_eq!(parse_reply(""), Err(ReplyError::NoJson));
    assert_eq!(
        parse_reply("I could not find anything."),
        Err(ReplyError::NoJson)
    );
    assert_eq!(parse_reply("{]"), Err(ReplyError::NoJson));
    for text in ["[1, 2]", "\"matches\"", "42", "null", "true"] {
        assert!(
            matches!(parse_reply(text), Err(ReplyError::WrongShape(_))),
            "{text}"
        );
    }
    for text in [
        r#"{"matches": "src/app.py:9"}"#,
        r#"{"matches": 3}"#,
        r#"{"concepts": "retry"}"#,
        r#"{"searches": 1}"#,
    ] {
        let err = parse_reply(text).unwrap_err();
        assert!(matches!(err, ReplyError::WrongShape(_)), "{text}");
        assert!(err.to_string().contains("not a list"), "{err}");
    }
}

#[test]
fn truncated_json_salvages_complete_matches() {
    let text = r#"{"matches": [{"path": "a.py", "line": 1}, {"path": "b.py", "line": 2}, {"path": "c.py", "li"#;
    match parse_reply(text) {
        Err(ReplyError::Truncated {
            salvaged: Some(reply),
        }) => assert_eq!(reply.matches, [claim("a.py", 1), claim("b.py", 2)]),
        other => panic!("{other:?}"),
    }
    let text = r#"```json
{"answer": "The retry delay is computed in"#;
    assert_eq!(
        parse_reply(text),
        Err(ReplyError::Truncated { salvaged: None })
    );
    let text = r#"{"matches": [{"path": "a.py", "line": 1}], "answer": "cut he"#;
    match parse_reply(text) {
        Err(ReplyError::Truncated { salvaged: Some(r) }) => {
            assert_eq!(r.matches, [claim("a.py", 1)]);
            assert_eq!(r.answer, None);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn concepts_and_searches_tolerate_loose_shapes() {
    let reply = parse_reply(
        r#"{"concepts": ["cache", {"concept": "retry"}, {"name": " "}, {"synonyms": ["x"]}, 5],
            "searches": ["timeout", {"path": "a.rs", "start": "3"}, {"path": "a.rs"}, {"pattern": 1}]}"#,
    )
    .unwrap();
    let names: Vec<&str> = reply.concepts.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["cache", "retry"]);
    assert_eq!(
        reply.searches,
        [
            Search::Pattern("timeout".into()),
            Search::Range {
                path: "a.rs".into(),
                start: 3,
                end: 3
            }
        ]
    );
    assert_eq!(reply.malformed, 3 + 2);
    let repeated = parse_reply(
        r#"{"concepts": [{"name": "delay", "synonyms": ["backoff_delay", "Delay", "retry_delay", "retry_delay ", "", "Retry_Delay"]}]}"#,
    )
    .unwrap();
    assert_eq!(
        repeated.concepts[0].synonyms,
        ["backoff_delay", "retry_delay"]
    );
    let single = parse_reply(r#"{"concepts": {"name": "auth"}}"#).unwrap();
    assert_eq!(single.concepts.len(), 1);
    let answer = parse_reply(r#"{"answer": 42}"#).unwrap();
    assert_eq!(answer.answer.as_deref(), Some("42"));
}

/// Every plain reply rlmgrep's `fake_llm.py` gives for the contract cases
/// (fixtures/llm/fake_replies.jsonl, regenerated by make_fake_replies.py).
#[test]
fn every_fake_llm_reply_parses_to_its_script() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/llm/fake_replies.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let script = &record["script"];
        let reply = parse_reply(record["reply"].as_str().unwrap());
        if script.get("code").is_some() {
            // The fake answers such scripts in DSPy's RLM format, not JSON.
            assert_eq!(reply, Err(ReplyError::NoJson), "{}", record["case"]);
            continue;
        }
        let reply = reply.unwrap();
        let want: Vec<Claim> =
            serde_json::from_value(script["matches"].clone()).unwrap_or_default();
        assert_eq!(reply.matches, want, "{}", record["case"]);
        let answer = script
            .get("answer")
            .and_then(|a| a.as_str())
            .unwrap_or("Scripted answer.");
        assert_eq!(reply.answer.as_deref(), Some(answer), "{}", record["case"]);
        if let Some(serde_json::Value::Object(fields)) = script.get("fields") {
            for (name, value) in fields {
                let got = match name.as_str() {
                    "matches" | "answer" | "citations" | "concepts" | "searches" => continue,
                    _ => reply.extra.get(name),
                };
                assert_eq!(got, Some(value), "{} field {name}", record["case"]);
            }
        }
        assert_eq!(reply.malformed, 0, "{}", record["case"]);
        checked += 1;
    }
    assert!(checked >= 90, "only {checked} fake replies checked");
}

/// A small deterministic generator (xorshift), so the adversarial test needs no
/// dependency and fails the same way every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SEEDS: [&str; 4] = [
    r#"{"matches": [{"path": "src/app.py", "line": 9}, {"path": "b", "line": "2"}], "answer": "ok \"quoted\" \\ done"}"#,
    "```json\n{\"concepts\": [{\"name\": \"retry\", \"synonyms\": [\"backoff\"], \"related\": []}]}\n```",
    r#"Sure: {"searches": [{"pattern": "a{2}"}, {"path": "x", "start": 1, "end": 2}], "x": {"y": [1, {"z": null}]}}"#,
    "{\"answer\": \"naïve — 日本語 😀\", \"matches\": {\"a\": [1, 2]}}",
];

/// Every prefix, every single-byte deletion, and thousands of random edits of
/// real-looking replies: the parser returns, never panics.
#[test]
fn adversarial_inputs_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let alphabet: Vec<char> = "{}[]\":,\\ `0123456789-.eE\nabcjsonlinepath\u{0}é😀"
        .chars()
        .collect();
    let mut runs = 0;
    for seed in SEEDS {
        assert!(parse_reply(seed).is_ok(), "{seed}");
        let chars: Vec<char> = seed.chars().collect();
        for cut in 0..=chars.len() {
            let prefix: String = chars[..cut].iter().collect();
            let _ = parse_reply(&prefix);
            let mut deleted = chars.clone();
            if cut < deleted.len() {
                deleted.remove(cut);
            }
            let _ = parse_reply(&deleted.iter().collect::<String>());
            runs += 2;
        }
        for _ in 0..2_000 {
            let mut text = chars.clone();
            for _ in 0..=rng.below(4) {
                let at = rng.below(text.len() + 1);
                let ch = alphabet[rng.below(alphabet.len())];
                match rng.below(3) {
                    0 if at < text.len() => text[at] = ch,
                    1 if at < text.len() => {
                        text.remove(at);
                    }
                    _ => text.insert(at, ch),
                }
            }
            let _ = parse_reply(&text.iter().collect::<String>());
            runs += 1;
        }
    }
    assert!(runs > 8_000);
}

#[test]
fn hostile_shapes_stay_bounded() {
    // Deep nesting: serde_json's recursion limit turns it into an error, not a crash.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse_reply(&deep).is_err());
    let deep_obj = format!("{{\"a\":{}{}}}", "[".repeat(50_000), "]".repeat(50_000));
    assert!(parse_reply(&deep_obj).is_err());
    // Many braces: only the first MAX_OBJECT_STARTS starts are tried.
    let braces = "{".repeat(200_000);
    assert_eq!(parse_reply(&braces), Err(ReplyError::NoJson));
    let keys = "{\"a\": ".repeat(100_000);
    assert!(matches!(
        parse_reply(&keys),
        Err(ReplyError::Truncated { .. })
    ));
    let open = format!("{{\"a\": {}", "[".repeat(100_000));
    assert_eq!(
        parse_reply(&open),
        Err(ReplyError::Truncated { salvaged: None })
    );
    let big = format!(
        "{{\"matches\": [{}]}}",
        vec![r#"{"path":"a","line":1}"#; 20_000].join(",")
    );
    assert_eq!(parse_reply(&big).unwrap().matches.len(), 20_000);
}

/// A real reply of the 1.5B local model (llm-server.sh, Anthropic endpoint, no
/// grammar): a fenced object that loops until `max_tokens` cuts it off.
#[test]
fn a_real_cut_off_expansion_is_salvaged() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/llm/qwen_cut_off_expansion.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    match parse_reply(&text) {
        Err(ReplyError::Truncated {
            salvaged: Some(reply),
        }) => {
            assert_eq!(reply.concepts.len(), 1);
            assert_eq!(reply.concepts[0].name, "retry");
            assert_eq!(
                reply.concepts[0].synonyms,
                ["retries", "attempts", "retrying"]
            );
        }
        other => panic!("{other:?}"),
    }
}
