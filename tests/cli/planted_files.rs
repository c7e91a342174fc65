//! Files kgrep reads or writes for itself, planted to hang or flood it
//! (issue 27 items 3 and 7): `/dev/zero` or a FIFO as the project
//! thesaurus, the learned store, kgrep's and rlmgrep's config, a
//! `--thesaurus` or an import; a symlink planted as the learned store's
//! lock file. Each run must end (a generous 20 s bound against a hang, not a
//! speed target: `tests/bench/planted_files.sh` measures time and memory),
//! with one warning (exit 2 where the user named the file), and nothing
//! created outside.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::Dir;
use crate::mock_llm::{MockLlm, Step};

/// Far longer than any run takes: only a hang reaches it.
const HANG: Duration = Duration::from_secs(20);

/// What a bounded run gave.
struct Ended {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` to its end, killing it (and failing) after [`HANG`].
fn run_bounded(mut cmd: Command, what: &str) -> Ended {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kgrep");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: kgrep still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Ended {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

use crate::harness::retry_project as project;

/// The two hostile kinds of file planted at `path`.
#[derive(Clone, Copy, Debug)]
enum Plant {
    DevZero,
    Fifo,
}

fn plant(path: &Path, kind: Plant) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    match kind {
        Plant::DevZero => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        Plant::Fifo => {
            let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
            assert!(ok, "mkfifo {}", path.display());
        }
    }
}

fn kgrep(dir: &Dir, args: &[&str]) -> Command {
    let mut cmd = dir.std_cmd();
    cmd.env("KGREP_LLM", "off").args(args);
    cmd
}

/// Where in a test dir a file is planted.
type Place = fn(&Dir) -> PathBuf;

#[test]
fn planted_layers_and_configs_are_refused_at_once_with_a_warning() {
    let places: [(&str, Place); 4] = [
        ("the project thesaurus", |d| {
            d.path().join(".kgrep/thesaurus.json")
        }),
        ("the learned store", |d| d.learned_path()),
        ("kgrep's config", |d| {
            d.home.path().join(".config/kgrep/config.toml")
        }),
        ("rlmgrep's config", |d| {
            d.home.path().join(".rlmgrep/config.toml")
        }),
    ];
    for (what, place) in places {
        for kind in [Plant::DevZero, Plant::Fifo] {
            let dir = project();
            let path = place(&dir);
            plant(&path, kind);
            let label = format!("{kind:?} as {what}");
            let out = run_bounded(kgrep(&dir, &["retry delay", "."]), &label);
            assert_eq!(out.code, 0, "{label}: {}", out.stderr);
            assert!(
                out.stdout.contains("retry_delay"),
                "{label}: {}",
                out.stdout
            );
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let warning: Vec<&str> = out.stderr.lines().filter(|l| l.contains(&name)).collect();
            assert_eq!(warning.len(), 1, "{label}: one warning\n{}", out.stderr);
            assert!(
                warning[0].contains("not a regular file") || warning[0].contains("symbolic link"),
                "{label}: {}",
                out.stderr
            );
        }
    }
}

#[test]
fn a_named_thesaurus_or_import_that_is_no_file_exits_2() {
    for kind in [Plant::DevZero, Plant::Fifo] {
        let dir = project();
        let path = dir.path().join("planted.json");
        plant(&path, kind);
        let named = path.to_str().unwrap();
        let out = run_bounded(
            kgrep(&dir, &["--thesaurus", named, "retry delay", "."]),
            &format!("--thesaurus {kind:?}"),
        );
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains("not a regular file"), "{}", out.stderr);
        let out = run_bounded(
            kgrep(&dir, &["--thesaurus-import", named]),
            &format!("--thesaurus-import {kind:?}"),
        );
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains("not a regular file"), "{}", out.stderr);
    }
}

#[test]
fn an_mcp_call_over_a_planted_fifo_thesaurus_returns() {
    let dir = project();
    plant(&dir.path().join(".kgrep/thesaurus.json"), Plant::Fifo);
    let mut cmd = dir.std_cmd();
    cmd.arg("--mcp").stdin(Stdio::piped());
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        for message in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params":
                {"protocolVersion": "2025-11-25", "capabilities": {},
                 "clientInfo": {"name": "t", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params":
                {"name": "search", "arguments": {"query": "retry delay"}}}),
        ] {
            writeln!(stdin, "{message}").unwrap();
        }
    }
    drop(child.stdin.take());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("kgrep --mcp hung on a FIFO thesaurus");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("retry_delay"), "{stdout}");
}

/// A project whose code says "zibble" for what the query calls "gronk",
/// and a model that teaches it: the run learns, so it takes the lock.
fn learning_project() -> (Dir, MockLlm) {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir.write(
        "src/packets.py",
        "def zibble(packet):\n    \"\"\"Reverse the bytes of a packet.\"\"\"\n    \
         return packet[::-1]\n\ndef zibble_all(packets):\n    \
         return [zibble(p) for p in packets]\n",
    );
    dir.write(
        "src/pipeline.py",
        "from .packets import zibble_all\n\ndef run(batch):\n    \
         # every packet is zibbled before it is sent\n    return zibble_all(batch)\n",
    );
    let mock = MockLlm::start(vec![Step::chat(
        &json!({"concepts": [{"name": "gronk",
            "synonyms": ["zibble", "zibbled"], "related": []}]})
        .to_string(),
    )]);
    (dir, mock)
}

#[test]
fn a_planted_lock_symlink_creates_nothing_outside() {
    for learn_to in ["project", "user"] {
        let (dir, mock) = learning_project();
        dir.use_model(&mock.base_url(), &format!("learn_to = \"{learn_to}\""));
        let outside = dir.home.path().join("outside/created-by-kgrep");
        std::fs::create_dir_all(outside.parent().unwrap()).unwrap();
        let store = match learn_to {
            "project" => dir.path().join(".kgrep/thesaurus.json"),
            _ => dir.learned_path(),
        };
        let lock = store.with_file_name("thesaurus.json.lock");
        std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&outside, &lock).unwrap();
        let mut cmd = dir.std_cmd();
        cmd.env("KGREP_LLM", "auto")
            .args(["-v", "where do we gronk packets", "."]);
        let out = run_bounded(cmd, &format!("lock symlink ({learn_to})"));
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("zibble"), "{}", out.stdout);
        assert!(
            !outside.exists(),
            "{learn_to}: the lock link created a file outside"
        );
        assert!(
            out.stderr.contains("symbolic link"),
            "{learn_to}: the refusal is warned\n{}",
            out.stderr
        );
        assert!(std::fs::symlink_metadata(&lock)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(mock.received().len(), 1);
    }
}
