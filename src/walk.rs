//! Input selection: which haystacks a run searches, and the key each one is known by.
//!
//! This module owns turning path arguments (or `--paths-from-stdin` lists, or piped
//! stdin) into a sorted, de-duplicated `Vec<Haystack>`: recursion, hidden files,
//! ignore files, `-g` globs and `--type` filters, and the cwd-relative *key* that
//! names each haystack everywhere downstream (headings, LLM prompts, verification).
//! It does not read file contents (that is `document`), decide on binary files, or
//! print anything but per-input errors through `messages`.
//!
//! Rules, following ripgrep where rlmgrep has a bug (see the contract README):
//! - Keys are paths relative to cwd, normalised like Python's `pathlib` (`./src` →
//!   `src/app.py`, `.` → `README.md`, `..` kept). An absolute argument under cwd
//!   becomes relative; outside cwd it stays absolute.
//! - `.gitignore` (inside a git repository, as in ripgrep), `.ignore`, `.rgignore`,
//!   parent and nested ignore files, git's global excludes and `.git/info/exclude`
//!   are honoured (rlmgrep ignores `.git/info/exclude`: a known bug we fix).
//! - Hidden entries are skipped unless `hidden`; even then `.git` (directory or
//!   gitlink file) is never searched (rlmgrep loads git internals with `--hidden`:
//!   a bug we fix). A
//!   `..` argument does not make everything hidden (rlmgrep bug; we follow rg).
//! - Files named explicitly are always searched: ignore rules, hidden, globs and
//!   types apply only to files found by walking a directory (as in rg).
//! - Globs and types are *filters applied after* ignore and hidden rules, and both
//!   must allow a file. Glob syntax is ripgrep's (`*.md` at any depth, `!` negates,
//!   `**/` matches the top level too), but unlike rg a `-g` whitelist does not
//!   re-include hidden or ignored files, so `-g '*.md'` selects what rlmgrep does.
//! - Symlinks are not followed while walking (so loops cannot hang), and only
//!   regular files become haystacks: FIFOs, sockets and devices are skipped. An
//!   explicitly named symlink to a file is searched.
//! - `WalkOutcome::scanned` counts the regular files considered: every explicitly
//!   named file, plus every walked file that survived ignore and hidden rules,
//!   counted *before* globs and types, and before de-duplication.
//!
//! An invalid glob or type definition is reported with `messages::error` and nothing
//! is walked, since searching a different set of files than asked is worse than none.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use crate::messages;

/// The key of the haystack made from piped stdin, as rlmgrep names it.
pub const STDIN_KEY: &str = "<stdin>";

/// Project-local ignore file ripgrep reads besides `.ignore`; honoured so a repo
/// tuned for rg behaves the same under kgrep.
const RG_IGNORE_FILENAME: &str = ".rgignore";

/// Git's metadata directory (or a submodule's gitlink file): never searched, even
/// with `--hidden`.
const GIT_DIR_NAME: &str = ".git";

/// How to select haystacks, resolved from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkOptions {
    /// Descend into directory arguments (`--no-recursive` turns this off).
    pub recursive: bool,
    /// Include hidden files and directories (`--hidden`).
    pub hidden: bool,
    /// Disregard every ignore file (`--no-ignore`).
    pub no_ignore: bool,
    /// `-g` values, already split with [`split_list`].
    pub globs: Vec<String>,
    /// `--type` names, already split with [`split_list`].
    pub types: Vec<String>,
    /// Walker threads; 0 lets the walker pick from the available parallelism.
    pub threads: usize,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            recursive: true,
            hidden: false,
            no_ignore: false,
            globs: Vec::new(),
            types: Vec::new(),
            threads: 0,
        }
    }
}

/// Where a haystack's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file on disk (the real path, even when its name is not UTF-8).
    Path(PathBuf),
    /// Bytes already read from stdin.
    Stdin(Vec<u8>),
}

/// One thing to search, named by its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Haystack {
    /// The cwd-relative, pathlib-normalised name (lossy UTF-8), or `<stdin>`.
    pub key: String,
    /// Where to read it from.
    pub source: Source,
}

impl Haystack {
    /// The heading printed above this haystack's lines.
    pub fn heading(&self) -> String {
        heading(&self.key)
    }

    /// Whether this haystack is piped stdin.
    pub fn is_stdin(&self) -> bool {
        matches!(self.source, Source::Stdin(_))
    }
}

/// The haystacks to search, sorted by key and de-duplicated, and how many
/// regular files were considered (see the module doc for what counts).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkOutcome {
    pub haystacks: Vec<Haystack>,
    pub scanned: usize,
}

/// Selects the haystacks under `paths`, resolving relative paths against `cwd`.
/// Per-path problems are reported through `messages` and the others still walked.
pub fn walk(paths: &[PathBuf], opts: &WalkOptions, cwd: &Path) -> WalkOutcome {
    let Some(filter) = Filter::build(opts, cwd) else {
        return WalkOutcome::default();
    };
    let mut out = WalkOutcome::default();
    for arg in paths {
        let root = Root::new(arg, cwd);
        match classify(arg, &root.full, opts) {
            Kind::File => {
                out.scanned += 1;
                out.haystacks.push(root.explicit_haystack());
            }
            Kind::Dir => walk_dir(&root, opts, cwd, &filter, &mut out),
            Kind::Skip => {}
        }
    }
    out.haystacks.sort_by(|a, b| a.key.cmp(&b.key));
    out.haystacks.dedup_by(|a, b| a.key == b.key);
    out
}

/// The haystack for piped stdin content.
pub fn stdin_haystack(bytes: Vec<u8>) -> Haystack {
    Haystack {
        key: STDIN_KEY.to_string(),
        source: Source::Stdin(bytes),
    }
}

/// Parses a `--paths-from-stdin` list: one path per line, surrounding whitespace
/// trimmed, blank lines skipped. Non-UTF-8 bytes are kept as they are.
pub fn parse_path_list(bytes: &[u8]) -> Vec<PathBuf> {
    bytes
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|line| !line.is_empty())
        .map(path_from_bytes)
        .collect()
}

/// The heading for a key: `./` prepended unless the key already starts with `.`
/// or `/` (`./src/app.py`, but `.secret_notes.md`, `../README.md`, `/abs/x`).
pub fn heading(key: &str) -> String {
    if key.starts_with('.') || key.starts_with('/') {
        key.to_string()
    } else {
        format!("./{key}")
    }
}

/// Splits `-g`/`--type` values on commas, except commas inside `{...}` glob
/// alternations (`*.{md,txt}` stays whole) or escaped with a backslash. Parts are
/// trimmed and empty parts dropped.
pub fn split_list(values: &[String]) -> Vec<String> {
    values.iter().flat_map(|v| split_one(v)).collect()
}

fn split_one(value: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut escaped = false;
    for c in value.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// What to do with one path argument.
enum Kind {
    File,
    Dir,
    Skip,
}

/// Decides how to treat an argument, reporting the ones that cannot be searched.
fn classify(arg: &Path, full: &Path, opts: &WalkOptions) -> Kind {
    let md = match std::fs::metadata(full) {
        Ok(md) => md,
        Err(err) => {
            messages::error(&format!("{}: {err}", arg.display()));
            return Kind::Skip;
        }
    };
    if md.is_file() {
        Kind::File
    } else if !md.is_dir() {
        // A FIFO would block the read forever; sockets and devices are not text.
        messages::warn(&format!("{}: not a regular file, skipped", arg.display()));
        Kind::Skip
    } else if opts.recursive {
        Kind::Dir
    } else {
        messages::error(&format!(
            "{}: is a directory (--no-recursive)",
            arg.display()
        ));
        Kind::Skip
    }
}

/// A path argument: where it is on disk, and the key prefix of what lies under it.
struct Root {
    /// `cwd` joined with the argument, `.` components dropped.
    full: PathBuf,
    /// The argument's own key ("" for `.`).
    key: String,
}

impl Root {
    fn new(arg: &Path, cwd: &Path) -> Root {
        Root {
            full: lexical(&cwd.join(arg)),
            key: base_key(arg, cwd),
        }
    }

    fn explicit_haystack(&self) -> Haystack {
        Haystack {
            key: self.key.clone(),
            source: Source::Path(self.full.clone()),
        }
    }

    /// The key of a walked entry: the root's key joined with the path below it.
    fn key_of(&self, path: &Path) -> String {
        // The walker builds entry paths by joining names onto `full`, so what is
        // below it is already a clean `a/b/c`: no need to re-join components.
        let below = path.strip_prefix(&self.full).unwrap_or(path);
        let below = below.to_string_lossy();
        match (self.key.is_empty(), below.is_empty()) {
            (true, _) => below.into_owned(),
            (false, true) => self.key.clone(),
            (false, false) => format!("{}/{below}", self.key),
        }
    }
}

/// A path with `.` components dropped; `..` is kept, as pathlib does.
fn lexical(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// The key of a path argument: relative to cwd when it is relative or lies under
/// cwd, absolute otherwise.
fn base_key(arg: &Path, cwd: &Path) -> String {
    let arg = lexical(arg);
    if arg.is_absolute() {
        if let Ok(rel) = arg.strip_prefix(lexical(cwd)) {
            return path_key(rel);
        }
    }
    path_key(&arg)
}

/// Joins a path's components with `/` (lossy for non-UTF-8 names).
fn path_key(path: &Path) -> String {
    let mut key = String::new();
    for comp in path.components() {
        match comp {
            Component::RootDir => key.push('/'),
            Component::CurDir => {}
            other => {
                if !key.is_empty() && !key.ends_with('/') {
                    key.push('/');
                }
                key.push_str(&other.as_os_str().to_string_lossy());
            }
        }
    }
    key
}

/// `-g` globs and `--type` selections, checked against walked files.
struct Filter {
    overrides: Arc<Override>,
    types: Types,
}

impl Filter {
    /// Builds the filter, reporting an invalid glob or type; `None` means "walk
    /// nothing".
    fn build(opts: &WalkOptions, cwd: &Path) -> Option<Filter> {
        let overrides = build_overrides(&opts.globs, cwd)
            .map_err(|err| messages::error(&err.to_string()))
            .ok()?;
        let types = build_types(&opts.types)
            .map_err(|err| messages::error(&err.to_string()))
            .ok()?;
        Some(Filter {
            overrides: Arc::new(overrides),
            types,
        })
    }

    /// Whether both the globs and the types allow this walked file.
    fn allows(&self, path: &Path) -> bool {
        !self.overrides.matched(path, false).is_ignore()
            && !self.types.matched(path, false).is_ignore()
    }
}

/// Globs are rooted at cwd so `src/*` means cwd's `src`, as in rg.
fn build_overrides(globs: &[String], cwd: &Path) -> Result<Override, ignore::Error> {
    let mut builder = OverrideBuilder::new(cwd);
    for glob in globs {
        builder.add(glob)?;
    }
    builder.build()
}

/// ripgrep's type table; an unknown name is taken as a file extension, as rlmgrep does.
fn build_types(names: &[String]) -> Result<Types, ignore::Error> {
    let mut builder = TypesBuilder::new();
    builder.add_defaults();
    let known: Vec<String> = builder
        .definitions()
        .iter()
        .map(|def| def.name().to_string())
        .collect();
    for name in names {
        if name != "all" && !known.contains(name) {
            messages::warn(&format!(
                "unknown type '{name}', treating as extension '.{name}'"
            ));
            builder.add(name, &format!("*.{name}"))?;
        }
        builder.select(name);
    }
    builder.build()
}

/// Walks one directory argument in parallel, appending its files to `out`.
fn walk_dir(root: &Root, opts: &WalkOptions, cwd: &Path, filter: &Filter, out: &mut WalkOutcome) {
    let walker = walk_builder(root, opts, cwd, &filter.overrides).build_parallel();
    let shared = Mutex::new(Collected::default());
    let mut builder = CollectorBuilder {
        root,
        cwd,
        filter,
        shared: &shared,
    };
    walker.visit(&mut builder);
    let collected = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    out.scanned += collected.scanned;
    out.haystacks.extend(collected.haystacks);
}

fn walk_builder(
    root: &Root,
    opts: &WalkOptions,
    cwd: &Path,
    overrides: &Arc<Override>,
) -> WalkBuilder {
    let mut builder = WalkBuilder::new(&root.full);
    builder
        .current_dir(cwd)
        .threads(opts.threads)
        .follow_links(false)
        .hidden(!opts.hidden)
        .parents(!opts.no_ignore)
        .ignore(!opts.no_ignore)
        .git_ignore(!opts.no_ignore)
        .git_global(!opts.no_ignore)
        .git_exclude(!opts.no_ignore);
    if !opts.no_ignore {
        builder.add_custom_ignore_filename(RG_IGNORE_FILENAME);
    }
    let overrides = Arc::clone(overrides);
    builder.filter_entry(move |dent| should_enter(dent, &overrides));
    builder
}

/// Prunes `.git` (the directory, or a submodule's gitlink file) and directories a
/// negated glob excludes (`!build/`). Other files always pass here: they are
/// filtered after being counted as scanned.
fn should_enter(dent: &DirEntry, overrides: &Override) -> bool {
    if dent.file_name() == OsStr::new(GIT_DIR_NAME) {
        return false;
    }
    let is_dir = dent.file_type().is_some_and(|t| t.is_dir());
    !is_dir || !overrides.matched(dent.path(), true).is_ignore()
}

/// What the walker threads found, merged when each thread finishes.
#[derive(Default)]
struct Collected {
    haystacks: Vec<Haystack>,
    scanned: usize,
}

struct CollectorBuilder<'s> {
    root: &'s Root,
    cwd: &'s Path,
    filter: &'s Filter,
    shared: &'s Mutex<Collected>,
}

impl<'s> ParallelVisitorBuilder<'s> for CollectorBuilder<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Collector {
            root: self.root,
            cwd: self.cwd,
            filter: self.filter,
            shared: self.shared,
            local: Collected::default(),
        })
    }
}

/// One walker thread's visitor: collects into a local Vec, merged on drop, so the
/// threads never contend on a lock per file.
struct Collector<'s> {
    root: &'s Root,
    cwd: &'s Path,
    filter: &'s Filter,
    shared: &'s Mutex<Collected>,
    local: Collected,
}

impl ParallelVisitor for Collector<'_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        match entry {
            Ok(dent) => self.consider(dent),
            Err(err) => messages::error(&describe(&err, self.cwd)),
        }
        WalkState::Continue
    }
}

impl Collector<'_> {
    fn consider(&mut self, dent: DirEntry) {
        // Symlinks report their own type here (not followed), so only real
        // regular files pass; directories, FIFOs, sockets and devices do not.
        if !dent.file_type().is_some_and(|t| t.is_file()) {
            return;
        }
        self.local.scanned += 1;
        if !self.filter.allows(dent.path()) {
            return;
        }
        let key = self.root.key_of(dent.path());
        self.local.haystacks.push(Haystack {
            key,
            source: Source::Path(dent.into_path()),
        });
    }
}

impl Drop for Collector<'_> {
    fn drop(&mut self) {
        let local = std::mem::take(&mut self.local);
        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        shared.scanned += local.scanned;
        shared.haystacks.extend(local.haystacks);
    }
}

/// A walk error as one line, with paths shown relative to cwd when they lie under it.
fn describe(err: &ignore::Error, cwd: &Path) -> String {
    match err {
        ignore::Error::WithPath { path, err } => {
            let shown = path.strip_prefix(cwd).unwrap_or(path);
            format!("{}: {}", shown.display(), describe(err, cwd))
        }
        ignore::Error::WithDepth { err, .. } => describe(err, cwd),
        ignore::Error::Partial(errs) => errs
            .iter()
            .map(|e| describe(e, cwd))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::print_stderr)]
mod tests {
    use super::*;
    use std::fs;
    use tempfile::TempDir;

    /// A temp dir holding `files` (path, contents); parent dirs are created.
    fn tree(files: &[(&str, &str)]) -> TempDir {
        let dir = TempDir::new().unwrap();
        for (path, body) in files {
            write(dir.path(), path, body);
        }
        dir
    }

    /// Like `tree`, inside a git repository (ripgrep only reads .gitignore there).
    fn git_tree(files: &[(&str, &str)]) -> TempDir {
        let dir = tree(files);
        fs::create_dir_all(dir.path().join(".git/info")).unwrap();
        dir
    }

    fn write(root: &Path, path: &str, body: &str) {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, body).unwrap();
    }

    fn keys_in(cwd: &Path, args: &[&str], opts: &WalkOptions) -> Vec<String> {
        let paths: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
        walk(&paths, opts, cwd)
            .haystacks
            .into_iter()
            .map(|h| h.key)
            .collect()
    }

    fn keys(cwd: &Path, args: &[&str]) -> Vec<String> {
        keys_in(cwd, args, &WalkOptions::default())
    }

    fn with_globs(globs: &[&str]) -> WalkOptions {
        let globs: Vec<String> = globs.iter().map(|g| g.to_string()).collect();
        WalkOptions {
            globs: split_list(&globs),
            ..WalkOptions::default()
        }
    }

    fn with_types(types: &[&str]) -> WalkOptions {
        let types: Vec<String> = types.iter().map(|t| t.to_string()).collect();
        WalkOptions {
            types: split_list(&types),
            ..WalkOptions::default()
        }
    }

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    const SMALL: &[(&str, &str)] = &[
        ("README.md", "readme\n"),
        ("src/app.py", "app\n"),
        ("src/lib/util.py", "util\n"),
    ];

    #[test]
    fn defaults() {
        let o = WalkOptions::default();
        assert!(o.recursive && !o.hidden && !o.no_ignore);
        assert_eq!(o.threads, 0);
    }

    #[test]
    fn dot_gives_plain_relative_keys() {
        let t = tree(SMALL);
        assert_eq!(
            keys(t.path(), &["."]),
            strs(&["README.md", "src/app.py", "src/lib/util.py"])
        );
    }

    #[test]
    fn dot_slash_and_trailing_slash_are_normalised() {
        let t = tree(SMALL);
        let want = strs(&["src/app.py", "src/lib/util.py"]);
        assert_eq!(keys(t.path(), &["./src"]), want);
        assert_eq!(keys(t.path(), &["src/"]), want);
        assert_eq!(
            keys(t.path(), &["./src/./lib/"]),
            strs(&["src/lib/util.py"])
        );
        assert_eq!(keys(t.path(), &["./README.md"]), strs(&["README.md"]));
    }

    #[test]
    fn parent_dir_is_kept_and_not_hidden() {
        let t = tree(SMALL);
        let cwd = t.path().join("src");
        assert_eq!(
            keys(&cwd, &[".."]),
            strs(&["../README.md", "../src/app.py", "../src/lib/util.py"])
        );
        assert_eq!(keys(&cwd, &["../README.md"]), strs(&["../README.md"]));
    }

    #[test]
    fn absolute_path_under_cwd_becomes_relative() {
        let t = tree(SMALL);
        let abs = t.path().join("src");
        assert_eq!(
            keys(t.path(), &[abs.to_str().unwrap()]),
            strs(&["src/app.py", "src/lib/util.py"])
        );
        let file = t.path().join("README.md");
        assert_eq!(
            keys(t.path(), &[file.to_str().unwrap()]),
            strs(&["README.md"])
        );
    }

    #[test]
    fn absolute_path_outside_cwd_stays_absolute() {
        let t = tree(SMALL);
        let cwd = t.path().join("src/lib");
        let docs = t.path().join("src/app.py");
        let got = keys(&cwd, &[docs.to_str().unwrap()]);
        assert_eq!(got, vec![docs.to_str().unwrap().to_string()]);
        assert_eq!(heading(&got[0]), got[0]);
    }

    #[test]
    fn source_path_is_the_real_file() {
        let t = tree(SMALL);
        let out = walk(&[PathBuf::from("./src")], &WalkOptions::default(), t.path());
        for h in &out.haystacks {
            match &h.source {
                Source::Path(p) => assert!(p.is_file(), "{}", p.display()),
                Source::Stdin(_) => panic!("not stdin"),
            }
            assert!(!h.is_stdin());
        }
    }

    #[test]
    fn headings() {
        assert_eq!(heading("src/app.py"), "./src/app.py");
        assert_eq!(heading(".secret_notes.md"), ".secret_notes.md");
        assert_eq!(heading("../README.md"), "../README.md");
        assert_eq!(heading("/abs/docs/guide.md"), "/abs/docs/guide.md");
        assert_eq!(heading("<stdin>"), "./<stdin>");
        assert_eq!(stdin_haystack(b"x".to_vec()).heading(), "./<stdin>");
    }

    #[test]
    fn stdin_haystack_holds_the_bytes() {
        let h = stdin_haystack(b"a\r\n\xff".to_vec());
        assert_eq!(h.key, "<stdin>");
        assert!(h.is_stdin());
        assert_eq!(h.source, Source::Stdin(b"a\r\n\xff".to_vec()));
    }

    #[test]
    fn hidden_files_and_dirs_are_skipped_by_default() {
        let t = tree(&[
            ("a.txt", ""),
            (".hidden.txt", ""),
            (".dir/b.txt", ""),
            ("sub/.c.txt", ""),
        ]);
        assert_eq!(keys(t.path(), &["."]), strs(&["a.txt"]));
    }

    #[test]
    fn hidden_includes_dotfiles_but_never_git_internals() {
        let t = git_tree(&[("a.txt", ""), (".hidden.txt", ""), (".dir/b.txt", "")]);
        write(t.path(), ".git/HEAD", "ref: refs/heads/main\n");
        write(t.path(), "sub/.git/config", "");
        write(t.path(), "mod/.git", "gitdir: ../.git/modules/mod\n");
        let opts = WalkOptions {
            hidden: true,
            ..WalkOptions::default()
        };
        assert_eq!(
            keys_in(t.path(), &["."], &opts),
            strs(&[".dir/b.txt", ".hidden.txt", "a.txt"])
        );
    }

    #[test]
    fn hidden_directory_named_explicitly_is_walked() {
        let t = tree(&[(".config/settings.json", "{}")]);
        assert_eq!(
            keys(t.path(), &[".config"]),
            strs(&[".config/settings.json"])
        );
    }

    #[test]
    fn gitignore_applies_inside_a_git_repo() {
        let t = git_tree(&[
            (".gitignore", "*.log\nbuild/\n"),
            ("a.txt", ""),
            ("app.log", ""),
            ("build/out.txt", ""),
        ]);
        assert_eq!(keys(t.path(), &["."]), strs(&["a.txt"]));
    }

    #[test]
    fn gitignore_outside_a_git_repo_is_not_read_like_rg() {
        let t = tree(&[(".gitignore", "*.log\n"), ("a.txt", ""), ("app.log", "")]);
        assert_eq!(keys(t.path(), &["."]), strs(&["a.txt", "app.log"]));
    }

    #[test]
    fn ignore_and_rgignore_files_apply_anywhere() {
        let t = tree(&[
            (".ignore", "one.txt\n"),
            (".rgignore", "two.txt\n"),
            ("one.txt", ""),
            ("two.txt", ""),
            ("three.txt", ""),
        ]);
        assert_eq!(keys(t.path(), &["."]), strs(&["three.txt"]));
    }

    #[test]
    fn nested_gitignore_applies_to_its_directory() {
        let t = git_tree(&[
            ("docs/.gitignore", "draft.md\n"),
            ("docs/draft.md", ""),
            ("docs/guide.md", ""),
            ("draft.md", ""),
        ]);
        assert_eq!(keys(t.path(), &["."]), strs(&["docs/guide.md", "draft.md"]));
    }

    #[test]
    fn parent_ignore_files_apply_to_a_subdirectory_argument() {
        let t = git_tree(&[
            (".gitignore", "*.log\n"),
            ("sub/a.txt", ""),
            ("sub/b.log", ""),
        ]);
        assert_eq!(keys(t.path(), &["sub"]), strs(&["sub/a.txt"]));
        let sub = t.path().join("sub");
        assert_eq!(keys(&sub, &["."]), strs(&["a.txt"]));
    }

    #[test]
    fn git_info_exclude_is_respected() {
        // rlmgrep ignores .git/info/exclude (case git_info_exclude); we follow rg.
        let t = git_tree(&[("kept.txt", ""), ("excluded_by_info.txt", "")]);
        write(t.path(), ".git/info/exclude", "excluded_by_info.txt\n");
        assert_eq!(keys(t.path(), &["."]), strs(&["kept.txt"]));
    }

    #[test]
    fn no_ignore_turns_off_every_ignore_file_but_not_hidden() {
        let t = git_tree(&[
            (".gitignore", "a.log\n"),
            (".ignore", "b.txt\n"),
            ("a.log", ""),
            ("b.txt", ""),
            ("c.txt", ""),
            (".hidden", ""),
        ]);
        write(t.path(), ".git/info/exclude", "c.txt\n");
        let opts = WalkOptions {
            no_ignore: true,
            ..WalkOptions::default()
        };
        assert_eq!(
            keys_in(t.path(), &["."], &opts),
            strs(&["a.log", "b.txt", "c.txt"])
        );
    }

    #[test]
    fn explicit_hidden_or_ignored_files_are_always_included() {
        let t = git_tree(&[
            (".gitignore", "secret.txt\n"),
            ("secret.txt", ""),
            (".notes.md", ""),
        ]);
        assert_eq!(
            keys(t.path(), &["secret.txt", ".notes.md"]),
            strs(&[".notes.md", "secret.txt"])
        );
    }

    #[test]
    fn no_recursive_skips_directories_with_an_error_and_keeps_files() {
        let t = tree(SMALL);
        let opts = WalkOptions {
            recursive: false,
            ..WalkOptions::default()
        };
        let out = walk(
            &[PathBuf::from("src"), PathBuf::from("README.md")],
            &opts,
            t.path(),
        );
        assert_eq!(out.haystacks.len(), 1);
        assert_eq!(out.haystacks[0].key, "README.md");
        assert_eq!(out.scanned, 1);
        assert!(messages::errored());
    }

    #[test]
    fn missing_path_is_an_error_and_the_others_are_walked() {
        let t = tree(SMALL);
        let out = walk(
            &[PathBuf::from("nope/"), PathBuf::from("README.md")],
            &WalkOptions::default(),
            t.path(),
        );
        assert_eq!(out.haystacks.len(), 1);
        assert!(messages::errored());
    }

    #[test]
    fn glob_without_slash_matches_at_any_depth() {
        let t = tree(&[
            ("a.md", ""),
            ("d/b.md", ""),
            ("d/e/c.md", ""),
            ("x.txt", ""),
        ]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["*.md"])),
            strs(&["a.md", "d/b.md", "d/e/c.md"])
        );
    }

    #[test]
    fn doublestar_glob_matches_the_top_level_too() {
        // rlmgrep (fnmatch) misses the top-level file (case glob_doublestar); rg doesn't.
        let t = tree(&[("a.md", ""), ("d/b.md", ""), ("x.txt", "")]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["**/*.md"])),
            strs(&["a.md", "d/b.md"])
        );
    }

    #[test]
    fn negated_glob_excludes() {
        // rlmgrep takes `!*.md` literally (case glob_negated); we negate like rg.
        let t = tree(&[("a.md", ""), ("d/b.md", ""), ("x.txt", "")]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["!*.md"])),
            strs(&["x.txt"])
        );
    }

    #[test]
    fn negated_directory_glob_prunes_the_directory() {
        let t = tree(&[("build/a.txt", ""), ("src/b.txt", "")]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["!build/"])),
            strs(&["src/b.txt"])
        );
    }

    #[test]
    fn anchored_glob_star_does_not_cross_slash() {
        // rlmgrep's fnmatch `*` crosses `/` (case glob_dir_star); rg's does not.
        let t = tree(&[("src/a.py", ""), ("src/lib/b.js", ""), ("top.py", "")]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["src/*"])),
            strs(&["src/a.py"])
        );
    }

    #[test]
    fn glob_braces_keep_their_commas() {
        let t = tree(&[("a.md", ""), ("b.txt", ""), ("c.rs", ""), ("d.py", "")]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["*.{md,txt}", "*.rs"])),
            strs(&["a.md", "b.txt", "c.rs"])
        );
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["*.md,*.py"])),
            strs(&["a.md", "d.py"])
        );
    }

    #[test]
    fn globs_do_not_reinclude_hidden_or_ignored_files() {
        // rg lets a `-g` whitelist re-include them; rlmgrep (case glob_md) does not.
        let t = git_tree(&[
            (".gitignore", "draft.md\n"),
            ("draft.md", ""),
            (".h.md", ""),
            ("a.md", ""),
        ]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_globs(&["*.md"])),
            strs(&["a.md"])
        );
    }

    #[test]
    fn globs_do_not_filter_explicit_files() {
        let t = tree(&[("a.md", ""), ("b.txt", "")]);
        assert_eq!(
            keys_in(t.path(), &["b.txt", "."], &with_globs(&["*.md"])),
            strs(&["a.md", "b.txt"])
        );
    }

    #[test]
    fn invalid_glob_walks_nothing() {
        let t = tree(&[("a.md", "")]);
        let out = walk(&[PathBuf::from(".")], &with_globs(&["a{"]), t.path());
        assert!(out.haystacks.is_empty());
        assert!(messages::errored());
    }

    #[test]
    fn types_select_by_rg_definitions() {
        let t = tree(&[
            ("a.py", ""),
            ("b.pyi", ""),
            ("c.md", ""),
            ("d.js", ""),
            ("e.txt", ""),
        ]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_types(&["py"])),
            strs(&["a.py", "b.pyi"])
        );
        assert_eq!(
            keys_in(t.path(), &["."], &with_types(&["md,txt", "js"])),
            strs(&["c.md", "d.js", "e.txt"])
        );
    }

    #[test]
    fn unknown_type_is_an_extension() {
        let t = tree(&[("a.nosuch", ""), ("b.txt", "")]);
        assert_eq!(
            keys_in(t.path(), &["."], &with_types(&["nosuch"])),
            strs(&["a.nosuch"])
        );
    }

    #[test]
    fn globs_and_types_must_both_allow() {
        let t = tree(&[("src/a.py", ""), ("src/b.md", ""), ("c.md", "")]);
        let opts = WalkOptions {
            globs: strs(&["src/*"]),
            types: strs(&["md"]),
            ..WalkOptions::default()
        };
        assert_eq!(keys_in(t.path(), &["."], &opts), strs(&["src/b.md"]));
    }

    #[test]
    fn scanned_counts_files_before_globs_and_types() {
        let t = git_tree(&[
            (".gitignore", "x.log\n"),
            ("x.log", ""),
            ("a.md", ""),
            ("b.txt", ""),
            (".h", ""),
        ]);
        let out = walk(&[PathBuf::from(".")], &with_globs(&["*.md"]), t.path());
        assert_eq!(out.haystacks.len(), 1);
        assert_eq!(out.scanned, 2);
    }

    #[test]
    fn duplicates_are_searched_once_and_keys_sorted() {
        let t = tree(&[
            ("b/x.txt", ""),
            ("a.txt", ""),
            ("B.txt", ""),
            ("b/a.txt", ""),
        ]);
        let out = walk(
            &[
                PathBuf::from("b"),
                PathBuf::from("."),
                PathBuf::from("./a.txt"),
                PathBuf::from("a.txt"),
            ],
            &WalkOptions::default(),
            t.path(),
        );
        let got: Vec<&str> = out.haystacks.iter().map(|h| h.key.as_str()).collect();
        assert_eq!(got, ["B.txt", "a.txt", "b/a.txt", "b/x.txt"]);
        assert_eq!(out.scanned, 8);
    }

    #[test]
    fn many_files_walk_in_parallel_and_sort() {
        let t = TempDir::new().unwrap();
        for d in 0..20 {
            for f in 0..50 {
                write(t.path(), &format!("d{d:02}/f{f:02}.txt"), "");
            }
        }
        let opts = WalkOptions {
            threads: 2,
            ..WalkOptions::default()
        };
        let out = walk(&[PathBuf::from(".")], &opts, t.path());
        assert_eq!(out.haystacks.len(), 1000);
        assert_eq!(out.scanned, 1000);
        assert!(out.haystacks.windows(2).all(|w| w[0].key < w[1].key));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_not_followed_so_loops_terminate() {
        use std::os::unix::fs::symlink;
        let t = tree(&[("a/f.txt", "")]);
        symlink("..", t.path().join("a/up")).unwrap();
        symlink(".", t.path().join("a/self")).unwrap();
        symlink("f.txt", t.path().join("a/link.txt")).unwrap();
        assert_eq!(keys(t.path(), &["."]), strs(&["a/f.txt"]));
        assert_eq!(keys(t.path(), &["a/link.txt"]), strs(&["a/link.txt"]));
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_directory_argument_is_walked() {
        use std::os::unix::fs::symlink;
        let t = tree(&[("real/f.txt", "")]);
        symlink("real", t.path().join("alias")).unwrap();
        assert_eq!(keys(t.path(), &["alias"]), strs(&["alias/f.txt"]));
    }

    #[cfg(unix)]
    #[test]
    fn fifo_is_skipped_without_blocking() {
        let t = tree(&[("a.txt", "")]);
        let fifo = t.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("note: mkfifo unavailable, FIFO test skipped");
            return;
        }
        assert_eq!(keys(t.path(), &["."]), strs(&["a.txt"]));
        assert!(keys(t.path(), &["pipe"]).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_names_get_lossy_keys_and_real_paths() {
        use std::os::unix::ffi::OsStrExt;
        let t = tree(&[]);
        let name = OsStr::from_bytes(b"bad\xff.txt");
        fs::write(t.path().join(name), "x").unwrap();
        let out = walk(&[PathBuf::from(".")], &WalkOptions::default(), t.path());
        assert_eq!(out.haystacks.len(), 1);
        assert_eq!(out.haystacks[0].key, "bad\u{FFFD}.txt");
        assert_eq!(out.haystacks[0].source, Source::Path(t.path().join(name)));
    }

    #[cfg(unix)]
    #[test]
    fn unreadable_directory_is_an_error_and_the_walk_goes_on() {
        use std::os::unix::fs::PermissionsExt;
        let t = tree(&[("a.txt", ""), ("locked/b.txt", "")]);
        let locked = t.path().join("locked");
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
        if fs::read_dir(&locked).is_ok() {
            // Running as root: permissions do not apply.
            fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
            eprintln!("note: running as root, unreadable-directory test skipped");
            return;
        }
        let got = keys(t.path(), &["."]);
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(got, strs(&["a.txt"]));
        assert!(messages::errored());
    }

    #[test]
    fn path_list_is_trimmed_and_skips_blank_lines() {
        let got = parse_path_list(b"src/app.py\n\n  README.md  \r\nmissing.txt\n");
        assert_eq!(
            got,
            vec![
                PathBuf::from("src/app.py"),
                PathBuf::from("README.md"),
                PathBuf::from("missing.txt")
            ]
        );
        assert!(parse_path_list(b"\n  \n\t\n").is_empty());
        assert!(parse_path_list(b"").is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn path_list_keeps_non_utf8_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let got = parse_path_list(b"a\xff.txt\n");
        assert_eq!(got, vec![PathBuf::from(OsStr::from_bytes(b"a\xff.txt"))]);
    }

    #[test]
    fn split_list_splits_on_top_level_commas() {
        let v = strs(&["md,txt", " js ", "*.{md,txt},*.rs", ",,", "a\\,b"]);
        assert_eq!(
            split_list(&v),
            strs(&["md", "txt", "js", "*.{md,txt}", "*.rs", "a\\,b"])
        );
        assert_eq!(
            split_list(&strs(&["{a,{b,c}},d"])),
            strs(&["{a,{b,c}}", "d"])
        );
        assert!(split_list(&[]).is_empty());
    }

    /// The contract's fixture tree, or `None` (with a note) when python3 is missing.
    fn contract_fixture() -> Option<TempDir> {
        let script = Path::new("/work/shared/rlmgrep-contract/make_fixture.py");
        let dir = TempDir::new().unwrap();
        let status = std::process::Command::new("python3")
            .arg(script)
            .arg(dir.path().join("fx"))
            .status();
        if !script.exists() || !status.is_ok_and(|s| s.success()) {
            eprintln!(
                "note: python3 or make_fixture.py unavailable, contract fixture test skipped"
            );
            return None;
        }
        Some(dir)
    }

    const FIXTURE_DEFAULT: &[&str] = &[
        "README.md",
        "data/empty.txt",
        "data/latin1.txt",
        "data/windows.txt",
        "docs/guide.md",
        "docs/manual.pdf",
        "src/app.py",
        "src/lib/deep/config.toml",
        "src/lib/helpers.js",
        "src/lib/unicode.ts",
        "src/noeol.rs",
        "src/util.py",
    ];

    #[test]
    fn contract_fixture_cases() {
        let Some(dir) = contract_fixture() else {
            return;
        };
        let tree = dir.path().join("fx/tree");
        let t = tree.as_path();
        // Default walk. rlmgrep also loads excluded_by_info.txt (case
        // git_info_exclude: it ignores .git/info/exclude); we don't. The fake
        // `.git` directory is enough for `ignore` to read .gitignore files.
        let out = walk(&[PathBuf::from(".")], &WalkOptions::default(), t);
        let got: Vec<&str> = out.haystacks.iter().map(|h| h.key.as_str()).collect();
        assert_eq!(got, FIXTURE_DEFAULT);
        assert_eq!(out.scanned, 12);
        // nested_gitignore: docs/draft.md stays out (checked above as well).
        assert!(!got.contains(&"docs/draft.md"));

        assert_eq!(
            keys_in(t, &["."], &with_globs(&["*.md"])),
            strs(&["README.md", "docs/guide.md"])
        );
        assert_eq!(
            keys_in(t, &["."], &with_types(&["py"])),
            strs(&["src/app.py", "src/util.py"])
        );
        // type_multi: rlmgrep loads 7, the 7th being excluded_by_info.txt.
        assert_eq!(
            keys_in(t, &["."], &with_types(&["md,txt", "js"])),
            strs(&[
                "README.md",
                "data/empty.txt",
                "data/latin1.txt",
                "data/windows.txt",
                "docs/guide.md",
                "src/lib/helpers.js"
            ])
        );
        assert!(keys_in(t, &["."], &with_types(&["nosuch"])).is_empty());
        let both = WalkOptions {
            globs: strs(&["src/*"]),
            types: strs(&["md"]),
            ..WalkOptions::default()
        };
        assert!(keys_in(t, &["."], &both).is_empty());
    }

    #[test]
    fn contract_fixture_intentional_differences() {
        let Some(dir) = contract_fixture() else {
            return;
        };
        let tree = dir.path().join("fx/tree");
        let t = tree.as_path();
        // glob_doublestar: rlmgrep misses the top-level README.md.
        assert_eq!(
            keys_in(t, &["."], &with_globs(&["**/*.md"])),
            strs(&["README.md", "docs/guide.md"])
        );
        // glob_dir_star: rlmgrep's `*` crosses `/` (6 files); rg's does not.
        assert_eq!(
            keys_in(t, &["."], &with_globs(&["src/*"])),
            strs(&["src/app.py", "src/noeol.rs", "src/util.py"])
        );
        // glob_negated: rlmgrep takes `!*.md` literally and loads nothing.
        let not_md: Vec<String> = FIXTURE_DEFAULT
            .iter()
            .filter(|k| !k.ends_with(".md"))
            .map(|k| k.to_string())
            .collect();
        assert_eq!(keys_in(t, &["."], &with_globs(&["!*.md"])), not_md);
        // hidden_flag: rlmgrep also loads .git/HEAD and .git/info/exclude.
        let hidden = WalkOptions {
            hidden: true,
            ..WalkOptions::default()
        };
        let mut want: Vec<&str> = FIXTURE_DEFAULT.to_vec();
        want.extend([
            ".config/settings.json",
            ".gitignore",
            ".secret_notes.md",
            "docs/.gitignore",
        ]);
        want.sort_unstable();
        assert_eq!(keys_in(t, &["."], &hidden), strs(&want));
        // parent_dir_from_subdir: rlmgrep takes every `../` path as hidden.
        let src = tree.join("src");
        let want: Vec<String> = FIXTURE_DEFAULT.iter().map(|k| format!("../{k}")).collect();
        assert_eq!(keys(&src, &[".."]), want);
    }

    #[test]
    fn contract_fixture_paths_and_arguments() {
        let Some(dir) = contract_fixture() else {
            return;
        };
        let tree = dir.path().join("fx/tree");
        let t = tree.as_path();
        // dot_slash_arg
        assert_eq!(keys(t, &["./src"]).len(), 6);
        assert!(keys(t, &["./src"]).iter().all(|k| k.starts_with("src/")));
        // explicit ignored / hidden files
        assert_eq!(
            keys(t, &["secret.txt", ".secret_notes.md"]),
            strs(&[".secret_notes.md", "secret.txt"])
        );
        // no_ignore_flag
        let no_ignore = WalkOptions {
            no_ignore: true,
            ..WalkOptions::default()
        };
        let got = keys_in(t, &["."], &no_ignore);
        for k in [
            "app.log",
            "build/output.txt",
            "docs/draft.md",
            "secret.txt",
            "excluded_by_info.txt",
        ] {
            assert!(got.contains(&k.to_string()), "{k} missing from {got:?}");
        }
        // no_recursive_files
        let flat = WalkOptions {
            recursive: false,
            ..WalkOptions::default()
        };
        assert_eq!(
            keys_in(t, &["src/app.py", "README.md", "src"], &flat),
            strs(&["README.md", "src/app.py"])
        );
        // absolute_path_outside_cwd
        let docs = tree.join("docs");
        let got = keys(&tree.join("src"), &[docs.to_str().unwrap()]);
        let want: Vec<String> = ["guide.md", "manual.pdf"]
            .iter()
            .map(|f| format!("{}/{f}", docs.display()))
            .collect();
        assert_eq!(got, want);
        // paths_from_stdin
        let paths = parse_path_list(b"src/app.py\n\n  README.md  \nmissing.txt\n");
        let out = walk(&paths, &WalkOptions::default(), t);
        let got: Vec<&str> = out.haystacks.iter().map(|h| h.key.as_str()).collect();
        assert_eq!(got, ["README.md", "src/app.py"]);
        assert_eq!(out.scanned, 2);
    }
}
