//! A hermetic way to run the real binary: a temp dir as cwd, a temp HOME, the
//! environment cleared (so no API key or user config leaks in), and failures that
//! show the command, cwd, exit code, stdout and stderr.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

/// A temp directory with files in it and a private HOME.
pub struct Dir {
    pub root: tempfile::TempDir,
    pub home: tempfile::TempDir,
}

/// What a run produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub raw_stdout: Vec<u8>,
    pub describe: String,
}

impl Run {
    /// Asserts the exit code, showing everything on failure.
    pub fn code(&self, expected: i32) -> &Run {
        assert_eq!(
            self.code, expected,
            "unexpected exit code\n{}",
            self.describe
        );
        self
    }

    pub fn stdout_is(&self, expected: &str) -> &Run {
        assert_eq!(self.stdout, expected, "stdout differs\n{}", self.describe);
        self
    }

    pub fn stderr_is(&self, expected: &str) -> &Run {
        assert_eq!(self.stderr, expected, "stderr differs\n{}", self.describe);
        self
    }

    pub fn stderr_has(&self, needle: &str) -> &Run {
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}\n{}",
            self.describe
        );
        self
    }

    pub fn stderr_lacks(&self, needle: &str) -> &Run {
        assert!(
            !self.stderr.contains(needle),
            "stderr has {needle:?}\n{}",
            self.describe
        );
        self
    }

    pub fn stdout_has(&self, needle: &str) -> &Run {
        assert!(
            self.stdout.contains(needle),
            "stdout lacks {needle:?}\n{}",
            self.describe
        );
        self
    }

    pub fn stdout_lacks(&self, needle: &str) -> &Run {
        assert!(
            !self.stdout.contains(needle),
            "stdout has {needle:?}\n{}",
            self.describe
        );
        self
    }

    /// Asserts the first file printed (its `./path` heading).
    pub fn first_heading_is(&self, expected: &str) -> &Run {
        assert_eq!(
            self.headings().first().map(String::as_str),
            Some(expected),
            "first file differs\n{}",
            self.describe
        );
        self
    }

    /// The `./path` headings printed, in order.
    pub fn headings(&self) -> Vec<String> {
        self.stdout
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with(|c: char| c.is_ascii_digit()) && *l != "--")
            .map(str::to_string)
            .collect()
    }
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            root: tempfile::tempdir().expect("tempdir"),
            home: tempfile::tempdir().expect("home tempdir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.root.path()
    }

    /// Writes a file (parents created).
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&path, contents).expect("write fixture file");
        path
    }

    /// Copies a folder of `fixtures/` into the temp dir.
    pub fn copy_fixture(&self, name: &str) {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name);
        copy_dir(&src, self.root.path());
        // git refuses to commit a `.git` folder, so fixtures get theirs here: it
        // makes the temp dir a repository root, so `.gitignore` applies and nothing
        // above it leaks in.
        std::fs::create_dir_all(self.root.path().join(".git")).expect("mkdir .git");
    }

    /// A command for the binary, hermetic, cwd = the temp dir.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("kgrep").expect("kgrep binary");
        cmd.env_clear()
            .env("HOME", self.home.path())
            .env("PATH", "/usr/bin:/bin")
            .env("LANG", "C.UTF-8")
            .current_dir(self.root.path());
        cmd
    }

    /// A std `Command` set up as [`Dir::cmd`] (stdin on /dev/null), for
    /// tests that spawn, wait for or kill the process.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("kgrep"));
        cmd.env_clear()
            .env("HOME", self.home.path())
            .env("PATH", "/usr/bin:/bin")
            .env("LANG", "C.UTF-8")
            .current_dir(self.root.path())
            .stdin(std::process::Stdio::null());
        cmd
    }

    /// Runs with stdin on /dev/null, as an agent's subprocess often is (assert_cmd
    /// always gives the child a pipe, so this uses std's Command).
    pub fn run_devnull(&self, args: &[&str]) -> Run {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("kgrep"));
        cmd.env_clear()
            .env("HOME", self.home.path())
            .env("PATH", "/usr/bin:/bin")
            .current_dir(self.root.path())
            .stdin(std::process::Stdio::null())
            .args(args);
        let out = cmd.output().expect("run kgrep");
        to_run(out, args, self.root.path())
    }

    /// Points this dir's HOME config (`~/.rlmgrep/config.toml`) at a model
    /// served from `base_url` (the mock), with a planted key, plus `extra`
    /// config lines. Returns the key, so tests can prove it never shows.
    pub fn use_model(&self, base_url: &str, extra: &str) -> &'static str {
        self.use_model_with_key(base_url, "sk-test-KGREP-MOCK-KEY-1234567890abcdef", extra)
    }

    /// [`Dir::use_model`] with the key given (one no secret pattern spots,
    /// to prove kgrep hides it because it is the key).
    pub fn use_model_with_key<'k>(&self, base_url: &str, key: &'k str, extra: &str) -> &'k str {
        let dir = self.home.path().join(".rlmgrep");
        std::fs::create_dir_all(&dir).expect("mkdir config dir");
        let config = format!(
            "model = \"openai/mock-model\"\napi_base = \"{base_url}\"\napi_key = \"{key}\"\n{extra}\n"
        );
        std::fs::write(dir.join("config.toml"), config).expect("write config");
        key
    }

    /// Runs with args and `KGREP_LLM=llm` ("off", "auto", "always").
    pub fn run_llm(&self, llm: &str, args: &[&str]) -> Run {
        let mut cmd = self.cmd();
        cmd.env("KGREP_LLM", llm).args(args);
        finish(&mut cmd, args, self.root.path())
    }

    /// The learned thesaurus of this dir's HOME, parsed (it must exist).
    pub fn learned(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.learned_path()).expect("the learned file");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("invalid learned file: {e}\n{text}"))
    }

    /// The learned thesaurus of this dir's HOME.
    pub fn learned_path(&self) -> PathBuf {
        self.home.path().join(".local/share/kgrep/thesaurus.json")
    }

    /// Runs with args (stdin an empty pipe: assert_cmd always pipes stdin).
    pub fn run(&self, args: &[&str]) -> Run {
        let mut cmd = self.cmd();
        cmd.args(args);
        finish(&mut cmd, args, self.root.path())
    }

    /// Runs with args and piped stdin.
    pub fn run_stdin(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
        let mut cmd = self.cmd();
        cmd.args(args).write_stdin(stdin.into());
        finish(&mut cmd, args, self.root.path())
    }
}

pub fn finish(cmd: &mut Command, args: &[&str], cwd: &Path) -> Run {
    let out: Output = cmd.output().expect("run kgrep");
    to_run(out, args, cwd)
}

fn to_run(out: Output, args: &[&str], cwd: &Path) -> Run {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or(-1);
    let describe = format!(
        "command: kgrep {args:?}\ncwd: {}\nexit: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}---",
        cwd.display()
    );
    Run {
        code,
        stdout,
        stderr,
        raw_stdout: out.stdout,
        describe,
    }
}

fn copy_dir(src: &Path, dst: &Path) {
    for entry in std::fs::read_dir(src).expect("read fixture dir") {
        let entry = entry.expect("fixture entry");
        let target = dst.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A Word document whose body is `paragraphs`, one `w:p` each, stored
/// uncompressed (so equal texts make equal sizes).
pub fn docx<'a>(paragraphs: impl IntoIterator<Item = &'a str>) -> Vec<u8> {
    use std::io::Write;
    use zip::write::SimpleFileOptions;
    let mut body = String::new();
    for p in paragraphs {
        body.push_str("<w:p><w:r><w:t>");
        body.push_str(p);
        body.push_str("</w:t></w:r></w:p>");
    }
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let rels = r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, bytes) in [("_rels/.rels", rels), ("word/document.xml", &document)] {
        out.start_file(name, options).expect("zip entry");
        out.write_all(bytes.as_bytes()).expect("zip write");
    }
    out.finish().expect("zip").into_inner()
}

/// A git project with one Python file defining `retry_delay`: the tree the
/// model-stage and security tests search.
pub fn retry_project() -> Dir {
    one_file_project(
        "src/retry.py",
        "def retry_delay(attempt):\n    return 0.5 * (2 ** attempt)\n",
    )
}

/// A git project (a `.git` folder) holding one file, `path`, with `text`.
pub fn one_file_project(path: &str, text: &str) -> Dir {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    dir.write(path, text);
    dir
}

/// Makes a FIFO at `name` under `d`; `false` when `mkfifo` is missing.
#[cfg(unix)]
pub fn mkfifo(d: &Dir, name: &str) -> bool {
    let status = std::process::Command::new("mkfifo")
        .arg(d.path().join(name))
        .status();
    status.map(|s| s.success()).unwrap_or(false)
}

/// Writes `text` into the FIFO at `path` once a reader has it open: opening
/// without blocking fails until then, so a kgrep that never opens the pipe
/// leaves this thread to give up after `patience`, not to hang the test.
#[cfg(unix)]
pub fn write_when_read(
    path: std::path::PathBuf,
    text: &'static [u8],
    patience: std::time::Duration,
) -> std::thread::JoinHandle<bool> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    std::thread::spawn(move || {
        let until = std::time::Instant::now() + patience;
        while std::time::Instant::now() < until {
            let opened = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&path);
            if let Ok(mut pipe) = opened {
                return pipe.write_all(text).is_ok();
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        false
    })
}
