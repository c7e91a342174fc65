//! Every flag parses with rlmgrep's meaning; usage errors exit 2.

use crate::harness::Dir;

fn corpus() -> Dir {
    let d = Dir::new();
    d.copy_fixture("corpus");
    d
}

#[test]
fn version_and_help() {
    let d = Dir::new();
    let run = d.run(&["--version"]);
    run.code(0);
    assert!(run.stdout.starts_with("kgrep "), "{}", run.describe);
    let run = d.run(&["--help"]);
    run.code(0)
        .stdout_has("--paths-from-stdin")
        .stdout_has("--signature-json")
        .stdout_has("--max-lines");
}

#[test]
fn line_number_and_filename_flags_are_documented_and_change_nothing() {
    // Issue 28, item 10: `-n` and `-H` were accepted but hidden.
    let d = corpus();
    d.run(&["--help"])
        .code(0)
        .stdout_has("-n, --line-number")
        .stdout_has("-H, --with-filename");
    let man = d.run(&["--generate", "man"]);
    man.code(0)
        .stdout_has("\\-n\\fR, \\fB\\-\\-line\\-number")
        .stdout_has("\\-H\\fR, \\fB\\-\\-with\\-filename");
    let plain = d.run(&["MAX_RETRIES", "."]);
    plain.code(0);
    for flags in [&["-n", "-H"][..], &["--line-number", "--with-filename"][..]] {
        let args = [flags, &["MAX_RETRIES", "."][..]].concat();
        d.run(&args).code(0).stdout_is(&plain.stdout);
    }
}

#[test]
fn missing_and_empty_pattern() {
    let d = Dir::new();
    d.run(&[]).code(2).stderr_has("kgrep: missing pattern");
    d.run(&["", "."])
        .code(2)
        .stderr_has("kgrep: missing pattern");
}

#[test]
fn usage_errors_exit_2() {
    let d = corpus();
    // Each is one line on stderr, as any other bad input.
    let cases: [(&[&str], &str); 4] = [
        (
            &["--frobnicate", "retry", "."],
            "unexpected argument '--frobnicate' found",
        ),
        (
            &["-C", "abc", "retry", "."],
            "invalid value 'abc' for '--context <NUM>'",
        ),
        (
            &["-m", "-3", "retry", "."],
            "unexpected argument '-3' found",
        ),
        (
            &["--coutn", "retry", "."],
            "a similar argument exists: '--count'",
        ),
    ];
    for (args, says) in cases {
        let run = d.run(args);
        run.code(2).stdout_is("").stderr_has(says);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.starts_with("kgrep: "), "{}", run.stderr);
    }
    d.run(&[
        "--signature",
        "a: str",
        "--signature-json",
        "b: str",
        "q",
        ".",
    ])
    .code(2);
}

#[test]
fn signature_with_answer_is_rejected_like_rlmgrep() {
    let d = corpus();
    d.run(&["--signature", "summary: str", "--answer", "retry", "."])
        .code(2)
        .stderr_has(
            "kgrep: --signature/--signature-json cannot be combined with --answer or --answer-only",
        );
    d.run(&[
        "--signature-json",
        "summary: str",
        "--answer-only",
        "retry",
        ".",
    ])
    .code(2);
}

#[test]
fn modes_that_need_a_model_say_so() {
    let d = corpus();
    d.run(&["--signature", "summary: str", "retry", "."])
        .code(2)
        .stderr_has("needs a language model");
    d.run(&["--signature-json", "summary: str", "retry", "."])
        .code(2)
        .stderr_has("needs a language model");
    let run = d.run(&["--answer", "retry backoff", "."]);
    run.code(0)
        .stderr_has("--answer: no language model is configured")
        .stderr_has("===== Answer =====\nExtractive answer (no language model configured)")
        .stderr_has("- src/net/client.rs:")
        .stdout_has("./src/net/client.rs");
    let run = d.run(&["--answer-only", "retry backoff", "."]);
    run.code(0).stdout_is("");
}

#[test]
fn model_flags_are_accepted_and_do_not_change_offline_results() {
    let d = corpus();
    let plain = d.run(&["retry backoff", "."]);
    let with_model = d.run(&[
        "--model",
        "openai/x",
        "--sub-model",
        "openai/y",
        "--api-base",
        "http://127.0.0.1:9",
        "--api-key",
        "sk-test",
        "--model-type",
        "chat",
        "--temperature",
        "0.2",
        "--top-p",
        "0.9",
        "--max-tokens",
        "100",
        "--sub-api-base",
        "http://127.0.0.1:9",
        "--sub-api-key",
        "k",
        "--sub-model-type",
        "chat",
        "--sub-temperature",
        "0",
        "--sub-top-p",
        "1",
        "--sub-max-tokens",
        "5",
        "--max-iterations",
        "2",
        "--max-llm-calls",
        "3",
        "-y",
        "-r",
        "-n",
        "-H",
        "retry backoff",
        ".",
    ]);
    with_model.code(0);
    assert_eq!(plain.stdout, with_model.stdout, "{}", with_model.describe);
    assert!(
        !with_model.stderr.contains("sk-test"),
        "{}",
        with_model.describe
    );
}

#[test]
fn max_lines_caps_natural_language_output() {
    let d = corpus();
    let run = d.run(&["--max-lines", "1", "retry backoff", "."]);
    run.code(0);
    let numbered = run.stdout.lines().filter(|l| l.contains(":\t")).count();
    assert_eq!(numbered, 1, "{}", run.describe);
    let all = d.run(&["--max-lines", "0", "retry", "."]);
    let n_all = all.stdout.lines().filter(|l| l.contains(":\t")).count();
    assert!(n_all > 3, "{}", all.describe);
}

#[test]
fn init_config_writes_once_and_never_uninvited() {
    let d = corpus();
    d.run(&["retry", "."]).code(0);
    assert!(
        std::fs::read_dir(d.home.path()).unwrap().next().is_none(),
        "a search created files in HOME"
    );
    let run = d.run(&["--init-config"]);
    run.code(0);
    let path = d.home.path().join(".config/kgrep/config.toml");
    assert_eq!(run.stdout.trim(), path.display().to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("# llm = \"auto\""));
    d.run(&["--init-config"])
        .code(0)
        .stdout_is("")
        .stderr_has(&format!(
            "kgrep: config already exists: {} (left unchanged)\n",
            path.display()
        ));
}

#[test]
fn config_files_are_read_and_corrupt_ones_reported() {
    let d = corpus();
    let rl = d.home.path().join(".rlmgrep");
    std::fs::create_dir_all(&rl).unwrap();
    std::fs::write(
        rl.join("config.toml"),
        "max_lines = 1\nmodel = \"openai/x\"\n",
    )
    .unwrap();
    let run = d.run(&["retry backoff", "."]);
    assert_eq!(
        run.stdout.lines().filter(|l| l.contains(":\t")).count(),
        1,
        "{}",
        run.describe
    );
    let kg = d.home.path().join(".config/kgrep");
    std::fs::create_dir_all(&kg).unwrap();
    std::fs::write(kg.join("config.toml"), "max_lines = 2\n").unwrap();
    let run = d.run(&["retry backoff", "."]);
    assert_eq!(
        run.stdout.lines().filter(|l| l.contains(":\t")).count(),
        2,
        "kgrep's file wins\n{}",
        run.describe
    );
    std::fs::write(kg.join("config.toml"), "max_lines = \"many\"\n").unwrap();
    let run = d.run(&["retry backoff", "."]);
    run.code(0).stderr_has("config.toml").stderr_has("line 1");
    assert_eq!(
        std::fs::read_to_string(kg.join("config.toml")).unwrap(),
        "max_lines = \"many\"\n"
    );
}

#[test]
fn kgrep_llm_env_is_validated() {
    let d = corpus();
    let mut cmd = d.cmd();
    cmd.env("KGREP_LLM", "sometimes").args(["retry", "."]);
    let run = crate::harness::finish(&mut cmd, &["retry", "."], d.path());
    run.code(2).stderr_has("KGREP_LLM");
    let mut cmd = d.cmd();
    cmd.env("KGREP_LLM", "off").args(["retry", "."]);
    crate::harness::finish(&mut cmd, &["retry", "."], d.path()).code(0);
}

#[test]
fn verbose_explains_the_query_and_ranking_on_stderr() {
    let d = corpus();
    let quiet = d.run(&["retry backoff", "."]);
    let run = d.run(&["-v", "retry backoff", "."]);
    run.code(0)
        .stderr_has("kgrep: query: natural language, terms: retry (retri), backoff (backoff)")
        .stderr_has("kgrep: rank ");
    assert_eq!(
        quiet.stdout, run.stdout,
        "-v changes stderr only\n{}",
        run.describe
    );
    d.run(&["-v", "MAX_RETRIES", "."])
        .stderr_has("query: literal \"MAX_RETRIES\"");
    d.run(&["--verbose", r"fn\s+send", "."])
        .stderr_has("query: regex");
}
