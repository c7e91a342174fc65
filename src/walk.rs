//! STUB (replaced by the walk branch).
use std::path::{Path, PathBuf};
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    pub recursive: bool,
    pub hidden: bool,
    pub no_ignore: bool,
    pub globs: Vec<String>,
    pub types: Vec<String>,
    pub threads: usize,
}
#[derive(Clone, Debug)]
pub enum Source {
    Path(PathBuf),
    Stdin(Vec<u8>),
}
#[derive(Clone, Debug)]
pub struct Haystack {
    pub key: String,
    pub source: Source,
}
impl Haystack {
    pub fn heading(&self) -> String {
        heading(&self.key)
    }
    pub fn is_stdin(&self) -> bool {
        matches!(self.source, Source::Stdin(_))
    }
}
pub struct WalkOutcome {
    pub haystacks: Vec<Haystack>,
    pub scanned: usize,
}
pub fn walk(paths: &[PathBuf], _opts: &WalkOptions, _cwd: &Path) -> WalkOutcome {
    let mut haystacks = Vec::new();
    for p in paths {
        for e in ignore::WalkBuilder::new(p).build().flatten() {
            if e.file_type().is_some_and(|t| t.is_file()) {
                let k = e
                    .path()
                    .to_string_lossy()
                    .trim_start_matches("./")
                    .to_string();
                haystacks.push(Haystack {
                    key: k,
                    source: Source::Path(e.path().to_path_buf()),
                });
            }
        }
    }
    haystacks.sort_by(|a, b| a.key.cmp(&b.key));
    let scanned = haystacks.len();
    WalkOutcome { haystacks, scanned }
}
pub fn stdin_haystack(bytes: Vec<u8>) -> Haystack {
    Haystack {
        key: "<stdin>".into(),
        source: Source::Stdin(bytes),
    }
}
pub fn parse_path_list(bytes: &[u8]) -> Vec<PathBuf> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect()
}
pub fn heading(key: &str) -> String {
    if key.starts_with('.') || key.starts_with('/') {
        key.to_string()
    } else {
        format!("./{key}")
    }
}
pub fn split_list(values: &[String]) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}
