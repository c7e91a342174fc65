//! Input selection: which haystacks a run searches, and the key each one is known by.
//!
//! This module owns turning path arguments (or `--paths-from-stdin` lists, or piped
//! stdin) into a sorted, de-duplicated `Vec<Haystack>`: recursion, hidden files,
//! ignore files, `-g` globs, `--type`/`-T` filters, `--max-depth`, and the cwd-relative *key* that
//! names each haystack everywhere downstream (headings, LLM prompts, verification),
//! and the order `--sort` gives them ([`PathOrder`], ripgrep 13's sorted walk).
//! It does not read file contents (that is `document`), decide on binary files,
//! spell a key as a heading (that is `render::grep::heading`), or print anything
//! but per-input errors through `messages`.
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
//!   a bug we fix). A `..` argument does not make everything hidden (rlmgrep bug;
//!   we follow rg).
//! - Files named explicitly are always searched: ignore rules, hidden, globs and
//!   types apply only to files found by walking a directory (as in rg).
//! - Globs and types are *filters applied after* ignore and hidden rules, and both
//!   must allow a file. Glob syntax is ripgrep's (`*.md` at any depth, `!` negates,
//!   `**/` matches the top level too), but unlike rg a `-g` whitelist does not
//!   re-include hidden or ignored files, so `-g '*.md'` selects what rlmgrep does.
//! - `--max-depth N` stops the walk N directories below each argument (0: the
//!   arguments themselves, so a directory yields nothing), as in rg.
//! - Symlinks are not followed while walking, unless `-L` asks (as in rg; a
//!   loop is then reported as an error and not entered), and only regular files
//!   become haystacks: FIFOs, sockets and devices are skipped. An explicitly
//!   named symlink to a file is searched, and so is an explicitly named FIFO
//!   (`Source::Pipe`, as rg searches one, but not in an MCP tool call:
//!   `WalkOptions::reads_pipes`; sockets and devices are still not).
//! - `WalkOutcome::scanned` counts the regular files considered: every explicitly
//!   named file, plus every walked file that survived ignore and hidden rules,
//!   counted *before* globs and types, and before de-duplication.
//!
//! An invalid glob or type definition is reported with `messages::error` and nothing
//! is walked, since searching a different set of files than asked is worse than none.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use ignore::gitignore::GitignoreBuilder;
use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use crate::messages;
use strict::Strict;

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
    /// `--iglob` values, split the same way: matched in any case.
    pub iglobs: Vec<String>,
    /// `--type` names, already split with [`split_list`].
    pub types: Vec<String>,
    /// `-T` names, left out, split the same way.
    pub types_not: Vec<String>,
    /// `--type-clear` names and `--type-add` definitions (`name:glob`,
    /// `name:include:a,b`): the type table as the command line edits it.
    pub type_edits: TypeEdits,
    /// `--max-depth`: directories descended below each path argument.
    pub max_depth: Option<usize>,
    /// `-L`: follow symlinks while walking (never for an MCP tool call).
    pub follow: bool,
    /// Skip files that are secrets by nature (`.env`, keys, credentials:
    /// `llm::redact::is_secret_file`), walked or named: an MCP tool call's
    /// results go into a model's context.
    pub withhold_secrets: bool,
    /// Read a FIFO named as a path (`Source::Pipe`), as rg does; when off it
    /// is skipped with a warning, as a socket is (an MCP tool call).
    pub reads_pipes: bool,
    /// `--max-filesize`: walked files larger than this many bytes are skipped
    /// (files named as arguments never are, as in rg).
    pub max_filesize: Option<u64>,
    /// `--ignore-file`: more gitignore files, rooted at the walk's cwd, below
    /// every other ignore file and kept with `--no-ignore`, as in rg.
    pub ignore_files: Vec<PathBuf>,
    /// Which kinds of ignore rules hold when `no_ignore` does not lift them
    /// all (rg's `--no-ignore-vcs`, `--no-ignore-dot`, …).
    pub ignores: IgnoreRules,
    /// Walker threads; 0 lets the walker pick from the available parallelism.
    pub threads: usize,
    /// Whether errors and warnings about the inputs are printed (a second
    /// walk of the same inputs is quiet).
    pub voice: messages::Voice,
}

impl WalkOptions {
    /// The same options for a second walk: errors counted, not printed again.
    pub fn quiet(&self) -> WalkOptions {
        WalkOptions {
            voice: messages::Voice::Quiet,
            ..self.clone()
        }
    }
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            recursive: true,
            hidden: false,
            no_ignore: false,
            globs: Vec::new(),
            iglobs: Vec::new(),
            types: Vec::new(),
            types_not: Vec::new(),
            type_edits: TypeEdits::default(),
            max_depth: None,
            follow: false,
            withhold_secrets: false,
            reads_pipes: true,
            max_filesize: None,
            ignore_files: Vec::new(),
            ignores: IgnoreRules::default(),
            threads: 0,
            voice: messages::Voice::Loud,
        }
    }
}

/// The ignore rules a walk respects, one switch per ripgrep `--no-ignore-*`
/// flag (all on by default); `WalkOptions::no_ignore` lifts every one but
/// `files`, as `rg --no-ignore` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IgnoreRules {
    /// `.gitignore`, git's global excludes and `.git/info/exclude`.
    pub vcs: bool,
    /// `.ignore` (`.rgignore` holds without it, as in ripgrep 13).
    pub dot: bool,
    /// Ignore files in the folders above each path argument.
    pub parent: bool,
    /// Git's global excludes file.
    pub global: bool,
    /// `.git/info/exclude`.
    pub exclude: bool,
    /// The `--ignore-file` files.
    pub files: bool,
    /// `.gitignore` holds only inside a git repository.
    pub require_git: bool,
    /// `--one-file-system`: stay on each path argument's file system.
    pub one_file_system: bool,
    /// `--ignore-file-case-insensitive`: ignore files' globs match in any case.
    pub case_insensitive: bool,
    /// Report a line of an ignore file that does not parse (not with
    /// `--no-ignore-messages`).
    pub messages: bool,
}

impl Default for IgnoreRules {
    fn default() -> Self {
        IgnoreRules {
            vcs: true,
            dot: true,
            parent: true,
            global: true,
            exclude: true,
            files: true,
            require_git: true,
            one_file_system: false,
            case_insensitive: false,
            messages: true,
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
    /// A named pipe (FIFO) named on the command line: read once, by the
    /// first load, and its bytes kept for the run (`document::pipe`).
    Pipe(PathBuf),
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
    /// Whether this haystack is piped stdin.
    pub fn is_stdin(&self) -> bool {
        matches!(self.source, Source::Stdin(_))
    }

    /// The name every output prints for this haystack: its key, or, when
    /// the real file name is not UTF-8 (the key then holds U+FFFD), the same
    /// components taken from the real path as raw bytes, so that `kgrep -l
    /// … | xargs` opens the file, as with rg. The key stays the lossy
    /// String the stages compare, sort and show a model; only printing
    /// needs the bytes.
    pub fn name(&self) -> Cow<'_, [u8]> {
        let (Source::Path(real) | Source::Pipe(real)) = &self.source else {
            return Cow::Borrowed(self.key.as_bytes());
        };
        if real.to_str().is_some() {
            return Cow::Borrowed(self.key.as_bytes());
        }
        raw_key(&self.key, real).map_or(Cow::Borrowed(self.key.as_bytes()), Cow::Owned)
    }
}

/// The last components of `real`, as many as the key has, joined by `/`.
#[cfg(unix)]
fn raw_key(key: &str, real: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let parts: Vec<&[u8]> = real
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p.as_bytes()),
            Component::ParentDir => Some(&b".."[..]),
            _ => None,
        })
        .collect();
    let wanted = key.split('/').filter(|p| !p.is_empty()).count();
    let tail = parts.get(parts.len().checked_sub(wanted)?..)?;
    let mut out = if key.starts_with('/') {
        b"/".to_vec()
    } else {
        Vec::new()
    };
    out.extend_from_slice(&tail.join(&b'/'));
    Some(out)
}

#[cfg(not(unix))]
fn raw_key(_key: &str, _real: &Path) -> Option<Vec<u8>> {
    None
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
    let parts: Mutex<Vec<Vec<Haystack>>> = Mutex::new(Vec::new());
    let scanned = walk_with(paths, opts, cwd, || Gather {
        local: Vec::new(),
        parts: &parts,
    });
    let parts = parts.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut haystacks = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        haystacks.extend(part);
    }
    haystacks.sort_by(|a, b| a.key.cmp(&b.key));
    haystacks.dedup_by(|a, b| a.key == b.key);
    WalkOutcome { haystacks, scanned }
}

/// Receives the haystacks one walker thread finds, as it finds them.
pub trait Visitor: Send {
    /// One haystack to search.
    fn visit(&mut self, haystack: Haystack);

    /// Whether the walk may stop: nothing it would find from now on is
    /// wanted (`-q` has its match). The walker threads then quit.
    fn done(&self) -> bool {
        false
    }
}

/// Streams the haystacks under `paths` to visitors: `make` builds one visitor
/// per walker thread (and one for the files named explicitly), so a search can
/// run inside the walk, as ripgrep does, without ever holding the whole file
/// list. A file reachable through two arguments is visited once. Returns how
/// many regular files were considered (`WalkOutcome::scanned`).
pub fn walk_with<V, F>(paths: &[PathBuf], opts: &WalkOptions, cwd: &Path, make: F) -> usize
where
    V: Visitor,
    F: Fn() -> V + Sync,
{
    let Some(filter) = Filter::build(opts, cwd) else {
        return 0;
    };
    let seen = (paths.len() > 1).then(|| Mutex::new(HashSet::new()));
    let once = Once {
        seen: seen.as_ref(),
    };
    let mut scanned = 0;
    let mut parent_lines = Vec::new();
    let mut explicit = make();
    for arg in paths {
        let root = Root::new(arg, cwd);
        // Asked of the path as given: `root.full` has lost a trailing `/`
        // (`a.py/` is not a directory, to the system and to rg).
        match classify(arg, &cwd.join(arg), opts) {
            kind @ (Kind::File | Kind::Pipe) => {
                scanned += 1;
                let mut h = root.explicit_haystack();
                if kind == Kind::Pipe {
                    h.source = Source::Pipe(root.full.clone());
                }
                if filter.withholds(&h.key) {
                    continue;
                }
                if once.first(&h.key) {
                    explicit.visit(h);
                }
            }
            Kind::Dir => {
                scanned += walk_dir(&root, opts, cwd, &filter, &once, &make, &mut parent_lines);
            }
            Kind::Skip => {}
        }
    }
    scanned
}

/// Remembers keys when several arguments may reach the same file.
struct Once<'s> {
    seen: Option<&'s Mutex<HashSet<String>>>,
}

impl Once<'_> {
    /// Whether this key is new (always, with a single argument).
    fn first(&self, key: &str) -> bool {
        let Some(seen) = self.seen else {
            return true;
        };
        let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.insert(key.to_string())
    }
}

/// `walk`'s visitor: a thread-local list handed over when the thread ends.
struct Gather<'s> {
    local: Vec<Haystack>,
    parts: &'s Mutex<Vec<Vec<Haystack>>>,
}

impl Visitor for Gather<'_> {
    fn visit(&mut self, haystack: Haystack) {
        self.local.push(haystack);
    }
}

impl Drop for Gather<'_> {
    fn drop(&mut self) {
        let local = std::mem::take(&mut self.local);
        let mut parts = self.parts.lock().unwrap_or_else(PoisonError::into_inner);
        parts.push(local);
    }
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

/// Parses a NUL-separated `--paths-from-stdin -0` list (`rg -l0`, `find
/// -print0`): every byte between two NULs is the path, spaces and newlines
/// included; empty entries are skipped.
pub fn parse_null_path_list(bytes: &[u8]) -> Vec<PathBuf> {
    bytes
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
        .map(path_from_bytes)
        .collect()
}

/// A haystack's path as the user's arguments spell it, as ripgrep prints it:
/// the argument it was found under joined with the path below it (`./src/x`
/// → `./src/x/a.py`, `/abs/dir` → `/abs/dir/a.py`), or the argument itself for
/// a file named explicitly. The first argument whose tree holds it wins, as in
/// the walk. `None` for piped stdin, or when no argument holds it.
pub fn as_given(h: &Haystack, args: &[PathBuf], cwd: &Path) -> Option<PathBuf> {
    let (Source::Path(real) | Source::Pipe(real)) = &h.source else {
        return None;
    };
    args.iter().find_map(|arg| {
        let below = real.strip_prefix(Root::new(arg, cwd).full).ok()?;
        Some(if below.as_os_str().is_empty() {
            arg.clone()
        } else {
            arg.join(below)
        })
    })
}

/// How a message names a haystack it reports (a file that could not be
/// read, a document page read in part), as rg 13 names a file it could not
/// read: the path argument it was found under as spelt, joined with the path
/// below it ([`as_given`]: `./a/x.txt` under `.`, `a/x.txt` under `a`, the
/// absolute path under an absolute argument), as the walk's own messages name
/// a dangling link; with no path argument, its key (`a/x.txt`, as rg names
/// files then). Lossy for a name that is not UTF-8, as rg 13's messages are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Naming {
    /// The path arguments (or a `--paths-from-stdin` list) as written.
    pub given: Vec<PathBuf>,
    pub cwd: PathBuf,
}

impl Naming {
    /// `h` as a message names it.
    pub fn name(&self, h: &Haystack) -> String {
        match as_given(h, &self.given, &self.cwd) {
            Some(path) => path.display().to_string(),
            None => h.key.clone(),
        }
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
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    /// A named pipe (FIFO): searched when named, as rg searches one.
    Pipe,
    Dir,
    Skip,
}

/// Decides how to treat an argument, reporting the ones that cannot be
/// searched; `full` is the argument joined to the working directory, as
/// written (a trailing `/` or `/.` kept: the system refuses `a.py/`).
fn classify(arg: &Path, full: &Path, opts: &WalkOptions) -> Kind {
    let md = match std::fs::metadata(full) {
        Ok(md) => md,
        Err(err) => {
            messages::error_in(opts.voice, &format!("{}: {err}", arg.display()));
            return Kind::Skip;
        }
    };
    if md.is_file() {
        Kind::File
    } else if is_fifo(&md) && opts.reads_pipes {
        // Read as rg reads a FIFO it is given: to its end, waiting for a
        // writer as any reader of a pipe does (`document::pipe`).
        Kind::Pipe
    } else if is_null_device(&md) {
        // Read as a stream too, as rg reads it: it ends at once, empty
        // (`grep PAT /dev/null FILES` is an idiom for a path on every line).
        Kind::Pipe
    } else if !md.is_dir() {
        // Sockets and devices are not text (`/dev/zero` never ends).
        messages::warn_in(
            opts.voice,
            &format!("{}: not a regular file, skipped", arg.display()),
        );
        Kind::Skip
    } else if opts.recursive {
        Kind::Dir
    } else {
        messages::error_in(
            opts.voice,
            &format!("{}: is a directory (--no-recursive)", arg.display()),
        );
        Kind::Skip
    }
}

/// Whether `md` is the null device's (`/dev/null`, by any name): the one
/// device searched, since reading it ends at once.
#[cfg(unix)]
fn is_null_device(md: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    md.file_type().is_char_device()
        && std::fs::metadata("/dev/null")
            .is_ok_and(|null| null.file_type().is_char_device() && null.rdev() == md.rdev())
}

#[cfg(not(unix))]
fn is_null_device(_: &std::fs::Metadata) -> bool {
    false
}

/// Whether `md` is a named pipe's (FIFO's).
#[cfg(unix)]
fn is_fifo(md: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    md.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

/// A path argument: where it is on disk, and the key prefix of what lies under it.
#[derive(Clone, Debug)]
struct Root {
    /// The argument as the user spelt it (`.`, `./src`, `/abs`).
    given: PathBuf,
    /// `cwd` joined with the argument, `.` components dropped.
    full: PathBuf,
    /// The argument's own key ("" for `.`).
    key: String,
}

impl Root {
    fn new(arg: &Path, cwd: &Path) -> Root {
        Root {
            given: arg.to_path_buf(),
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

    /// A walked path as rg names it in a message: the argument as spelt,
    /// joined with the path below it (`./.ignore` under `.`, `sub/.ignore`
    /// under `sub`); a path above the argument (a parent folder's ignore
    /// file) as the walk found it, absolute, as rg 13 prints it.
    fn shown(&self, path: &Path) -> String {
        match path.strip_prefix(&self.full) {
            Ok(below) if below.as_os_str().is_empty() => self.given.display().to_string(),
            Ok(below) => self.given.join(below).display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }

    /// The key of a walked entry: the root's key joined with the path below it.
    fn key_of(&self, path: &Path) -> String {
        // The walker builds entry paths by joining names onto `full`, so what is
        // below it is already a clean `a/b/c`: no need to re-join components.
        let below = below_lossy(path, &self.full);
        match (self.key.is_empty(), below.is_empty()) {
            (true, _) => below.into_owned(),
            (false, true) => self.key.clone(),
            (false, false) => format!("{}/{below}", self.key),
        }
    }
}

/// What lies below `root` in `path` (all of `path` when it is not under
/// `root`), lossily as UTF-8. On Unix a byte prefix that ends at a `/` is the
/// component prefix `Path::strip_prefix` finds, for paths the walker joins
/// onto `root`; comparing bytes skips parsing both into components, which
/// was 2% of a search over a registry of 7,000 files.
#[cfg(unix)]
fn below_lossy<'a>(path: &'a Path, root: &Path) -> std::borrow::Cow<'a, str> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let prefix = root.as_os_str().as_bytes();
    let below = match bytes.strip_prefix(prefix) {
        Some(rest) if prefix.ends_with(b"/") => rest,
        Some([]) => &[][..],
        Some([b'/', rest @ ..]) => rest,
        _ => bytes,
    };
    String::from_utf8_lossy(below)
}

/// What lies below `root` in `path` (all of `path` when it is not under
/// `root`), lossily as UTF-8.
#[cfg(not(unix))]
fn below_lossy<'a>(path: &'a Path, root: &Path) -> std::borrow::Cow<'a, str> {
    path.strip_prefix(root).unwrap_or(path).to_string_lossy()
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

/// `-g` globs and `--type` selections, checked against walked files, and the
/// `--ignore-file`s that could be read.
struct Filter {
    overrides: Arc<Override>,
    types: Types,
    ignore_files: Vec<PathBuf>,
    withhold_secrets: bool,
}

impl Filter {
    /// Builds the filter, reporting an invalid glob or type; `None` means "walk
    /// nothing".
    fn build(opts: &WalkOptions, cwd: &Path) -> Option<Filter> {
        let overrides = build_overrides(&opts.globs, &opts.iglobs, cwd)
            .map_err(|err| messages::error_in(opts.voice, &err.to_string()))
            .ok()?;
        let types = build_types(&opts.types, &opts.types_not, &opts.type_edits, opts.voice)
            .map_err(|err| messages::error_in(opts.voice, &err.to_string()))
            .ok()?;
        Some(Filter {
            overrides: Arc::new(overrides),
            types,
            ignore_files: if opts.ignores.files {
                readable_ignore_files(&opts.ignore_files, cwd, opts.voice, opts.ignores.messages)
            } else {
                Vec::new()
            },
            withhold_secrets: opts.withhold_secrets,
        })
    }

    /// Whether both the globs and the types allow this walked file, and it
    /// is not withheld.
    fn allows(&self, path: &Path) -> bool {
        // The key is built only when secrets are withheld (an MCP call).
        let withheld = self.withhold_secrets && self.withholds(&path_key(path));
        !withheld
            && !self.overrides.matched(path, false).is_ignore()
            && !self.types.matched(path, false).is_ignore()
    }

    /// Whether the file `key` names is withheld as a secret
    /// (`WalkOptions::withhold_secrets`).
    fn withholds(&self, key: &str) -> bool {
        self.withhold_secrets && crate::llm::redact::is_secret_file(key)
    }
}

/// The `--ignore-file`s that can be read; each problem (a missing file, a
/// bad glob line, the lines read as rg 13 reads them) is warned about once,
/// not once a directory argument, one line each, and the search goes on, as
/// in rg (`--no-ignore-messages` says nothing of either). A file whose
/// every line is bad still counts.
fn readable_ignore_files(
    files: &[PathBuf],
    cwd: &Path,
    voice: messages::Voice,
    say: bool,
) -> Vec<PathBuf> {
    files
        .iter()
        .filter(|file| {
            let mut builder = GitignoreBuilder::new(cwd);
            // Read as rg 13 reads it: an unclosed class (`a[`) is a bad line.
            builder.allow_unclosed_class(false);
            let problem = builder.add(cwd.join(file));
            let unreadable = problem.as_ref().is_some_and(|err| err.io_error().is_some());
            // One line a bad line, as rg prints them.
            for err in problem.iter().filter(|_| say).flat_map(parts) {
                messages::warn_in(
                    voice,
                    &format!("{}: {}", file.display(), describe_partial(err)),
                );
            }
            !unreadable
        })
        .cloned()
        .collect()
}

/// An ignore file's error without the path ignore prefixes to every line of it
/// (the caller names the file as the user typed it).
fn describe_partial(err: &ignore::Error) -> String {
    if let Some(io) = err.io_error() {
        return io.to_string();
    }
    match err {
        // A line that does not parse comes with the file's absolute path:
        // rg's message names it once, as typed (`sub/.ignore: line 1: …`).
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => {
            describe_partial(err)
        }
        ignore::Error::Partial(errs) => errs
            .iter()
            .map(describe_partial)
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

/// Whether the globs and the type selections and edits build, as the walk
/// will build them (`Filter::build`): the walk's message if not. No warning
/// is printed here (an unknown type name is the walk's to warn about).
pub fn check_filter(
    globs: &[String],
    iglobs: &[String],
    types: &[String],
    types_not: &[String],
    edits: &TypeEdits,
) -> Result<(), String> {
    // Nothing given, nothing to fail: the type table is not built (half a
    // millisecond of every start-up).
    if !(globs.is_empty() && iglobs.is_empty()) {
        build_overrides(globs, iglobs, Path::new(".")).map_err(|e| e.to_string())?;
    }
    if !(types.is_empty() && types_not.is_empty() && *edits == TypeEdits::default()) {
        build_types(types, types_not, edits, messages::Voice::Quiet).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Globs are rooted at cwd so `src/*` means cwd's `src`, as in rg; the
/// `--iglob` ones, added after the others, match in any case.
fn build_overrides(
    globs: &[String],
    iglobs: &[String],
    cwd: &Path,
) -> Result<Override, ignore::Error> {
    let mut builder = OverrideBuilder::new(cwd);
    for glob in globs {
        builder.add(glob)?;
    }
    builder.case_insensitive(true)?;
    for glob in iglobs {
        builder.add(glob)?;
    }
    builder.build()
}

/// ripgrep's type table: `names` selected (`--type`), `not` left out (`-T`).
/// A name starting with `.` is an extension (`.py`: only `*.py`, as rlmgrep
/// reads it), and an unknown name is taken as an extension with a warning,
/// as rlmgrep does.
fn build_types(
    names: &[String],
    not: &[String],
    edits: &TypeEdits,
    voice: messages::Voice,
) -> Result<Types, ignore::Error> {
    let mut builder = edits.table()?;
    // A cleared type is still a type (it selects nothing), not an extension.
    let known: Vec<String> = builder
        .definitions()
        .iter()
        .map(|def| def.name().to_string())
        .chain(edits.clear.iter().cloned())
        .collect();
    let wanted = names.iter().map(|n| (n, true));
    for (i, (name, select)) in wanted.chain(not.iter().map(|n| (n, false))).enumerate() {
        let choose = |builder: &mut TypesBuilder, name: &str| {
            if select {
                builder.select(name);
            } else {
                builder.negate(name);
            }
        };
        let extension = match name.strip_prefix('.') {
            Some(ext) => ext,
            None if name == "all" || known.contains(name) => {
                choose(&mut builder, name);
                continue;
            }
            None => {
                messages::warn_in(
                    voice,
                    &format!("unknown type '{name}', treating as extension '.{name}'"),
                );
                name.as_str()
            }
        };
        // ripgrep's type names are letters and digits only, so an extension
        // (`.py`, `tar.gz`, `c++`) gets a name of its own.
        let own = format!("{EXTENSION_TYPE}{i}");
        builder.add(&own, &format!("*.{extension}"))?;
        choose(&mut builder, &own);
    }
    builder.build()
}

/// `--type-clear` and `--type-add`, as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeEdits {
    /// Type names whose globs are dropped.
    pub clear: Vec<String>,
    /// Definitions added: `name:glob` or `name:include:a,b` (ripgrep's syntax).
    pub add: Vec<String>,
}

impl TypeEdits {
    /// ripgrep's default type table with these edits: the clears first, then
    /// the additions (so `--type-clear x --type-add 'x:*.y'` redefines `x`).
    /// A malformed definition is an error, as in rg.
    fn table(&self) -> Result<TypesBuilder, ignore::Error> {
        let mut builder = TypesBuilder::new();
        builder.add_defaults();
        for name in &self.clear {
            builder.clear(name);
        }
        for def in &self.add {
            builder.add_def(def)?;
        }
        Ok(builder)
    }
}

/// ripgrep's type table, with the command line's edits, as `--type-list`
/// prints it: each name (sorted) and its globs.
pub fn type_definitions(edits: &TypeEdits) -> Result<Vec<(String, Vec<String>)>, ignore::Error> {
    let builder = edits.table()?;
    let mut types: Vec<(String, Vec<String>)> = builder
        .definitions()
        .iter()
        .map(|def| (def.name().to_string(), def.globs().to_vec()))
        .filter(|(_, globs)| !globs.is_empty())
        .collect();
    types.sort();
    Ok(types)
}

/// The prefix of the type names given to extensions (`--type .py`); letters
/// only, as ripgrep requires, and no name of its table.
const EXTENSION_TYPE: &str = "kgrepextension";

/// Walks one directory argument in parallel, handing its files to visitors made
/// by `make`; returns how many regular files it considered. `parent_lines`
/// holds the parent folders' bad ignore lines said so far (by this run's
/// other arguments), and gets this argument's.
fn walk_dir<V, F>(
    root: &Root,
    opts: &WalkOptions,
    cwd: &Path,
    filter: &Filter,
    once: &Once<'_>,
    make: &F,
    parent_lines: &mut Vec<String>,
) -> usize
where
    V: Visitor,
    F: Fn() -> V + Sync,
{
    let walker = walk_builder(root, opts, cwd, filter).build_parallel();
    let strict = Strict::of(opts);
    // A parent folder's bad ignore line is an error, said even with
    // --no-ignore-messages and --no-ignore-parent, as rg 13 says it (exit
    // 2), and once, however many arguments lie below that folder.
    for err in strict.parent_problems(&root.full) {
        let line = describe(&err, root);
        if !parent_lines.contains(&line) {
            messages::error_in(opts.voice, &line);
            parent_lines.push(line);
        }
    }
    let parent_lines = &*parent_lines;
    let scanned = AtomicUsize::new(0);
    let mut builder = CollectorBuilder {
        shared: Shared {
            root,
            voice: opts.voice,
            ignore_messages: opts.ignores.messages,
            filter,
            once,
            scanned: &scanned,
            strict,
            parent_lines,
        },
        make,
    };
    walker.visit(&mut builder);
    scanned.into_inner()
}

fn walk_builder(root: &Root, opts: &WalkOptions, cwd: &Path, filter: &Filter) -> WalkBuilder {
    let Filter {
        overrides,
        ignore_files,
        ..
    } = filter;
    let mut builder = WalkBuilder::new(&root.full);
    // Each kind of rule holds unless --no-ignore lifts them all or its own
    // --no-ignore-* flag lifts it, as ripgrep combines them.
    let rules = opts.ignores;
    let any = !opts.no_ignore;
    builder
        .current_dir(cwd)
        .threads(opts.threads)
        .follow_links(opts.follow)
        .max_depth(opts.max_depth)
        .hidden(!opts.hidden)
        .same_file_system(rules.one_file_system)
        .require_git(rules.require_git)
        .parents(any && rules.parent)
        .ignore(any && rules.dot)
        .git_ignore(any && rules.vcs)
        .git_global(any && rules.vcs && rules.global)
        .git_exclude(any && rules.vcs && rules.exclude)
        .ignore_case_insensitive(rules.case_insensitive);
    // `.rgignore` holds with --no-ignore-dot, which names `.ignore` only, as
    // ripgrep 13 reads it.
    if any {
        builder.add_custom_ignore_filename(RG_IGNORE_FILENAME);
    }
    builder.max_filesize(opts.max_filesize);
    for file in ignore_files {
        // Read before the walk (`readable_ignore_files`), which reported any
        // problem once: a second report here would repeat it per argument.
        let _ = builder.add_ignore(cwd.join(file));
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

/// What every walker thread of one directory argument shares.
#[derive(Clone, Copy)]
struct Shared<'s, 'o> {
    root: &'s Root,
    voice: messages::Voice,
    /// `IgnoreRules::messages`.
    ignore_messages: bool,
    filter: &'s Filter,
    once: &'s Once<'o>,
    scanned: &'s AtomicUsize,
    /// The ignore files to read again for lines rg 13 refuses.
    strict: Strict,
    /// The parent folders' bad ignore lines said so far, by any argument.
    parent_lines: &'s [String],
}

struct CollectorBuilder<'s, 'o, F> {
    shared: Shared<'s, 'o>,
    make: &'s F,
}

impl<'s, 'o, V, F> ParallelVisitorBuilder<'s> for CollectorBuilder<'s, 'o, F>
where
    V: Visitor + 's,
    F: Fn() -> V + Sync,
{
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Collector {
            shared: self.shared,
            visitor: (self.make)(),
        })
    }
}

/// One walker thread: filters entries and hands haystacks to its visitor.
struct Collector<'s, 'o, V> {
    shared: Shared<'s, 'o>,
    visitor: V,
}

impl<V: Visitor> ParallelVisitor for Collector<'_, '_, V> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        match entry {
            Ok(dent) => {
                if self.shared.ignore_messages {
                    self.report_bad_lines(&dent);
                }
                self.consider(dent)
            }
            // The walker's own report of the parent folders' bad lines:
            // what `walk_dir` did not say already, one line each.
            Err(err) if strict::is_bad_line(&err) => {
                for line in described_parts(&err, self.shared.root) {
                    if !self.shared.parent_lines.contains(&line) {
                        messages::error_in(self.shared.voice, &line);
                    }
                }
            }
            Err(err) => messages::error_in(self.shared.voice, &describe(&err, self.shared.root)),
        }
        if self.visitor.done() {
            WalkState::Quit
        } else {
            WalkState::Continue
        }
    }
}

impl<V: Visitor> Collector<'_, '_, V> {
    /// Warns of the lines of a walked folder's ignore files that do not
    /// parse, one line each, as rg 13 does: the walk goes on without them.
    /// The walker's own report (`DirEntry::error`) misses an unclosed class
    /// (`a[`), which the crate takes literally; the folder's files are read
    /// again for those (`strict`), and what the walker found besides is
    /// added.
    fn report_bad_lines(&self, dent: &DirEntry) {
        let Shared { root, voice, .. } = self.shared;
        let mut lines: Vec<String> = Vec::new();
        // A second walk says nothing: no need to read the files again.
        if voice == messages::Voice::Loud && dent.file_type().is_some_and(|t| t.is_dir()) {
            let found = self.shared.strict.problems(dent.path());
            lines.extend(found.iter().map(|err| describe(err, root)));
        }
        if let Some(err) = dent.error() {
            for line in described_parts(err, root) {
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
        for line in lines {
            messages::warn_in(voice, &line);
        }
    }

    fn consider(&mut self, dent: DirEntry) {
        // Symlinks report their own type here unless followed (-L), so only
        // regular files pass; directories, FIFOs, sockets and devices do not.
        if !dent.file_type().is_some_and(|t| t.is_file()) {
            return;
        }
        self.shared.scanned.fetch_add(1, Ordering::Relaxed);
        if !self.shared.filter.allows(dent.path()) {
            return;
        }
        let key = self.shared.root.key_of(dent.path());
        // Withheld by its key too, as a named file is: a rule that reads
        // where the file sits in the tree searched (a top-level
        // `auth.json`) sees the path relative to it only in the key.
        if self.shared.filter.withholds(&key) || !self.shared.once.first(&key) {
            return;
        }
        self.visitor.visit(Haystack {
            key,
            source: Source::Path(dent.into_path()),
        });
    }
}

/// A walk error as rg 13 prints it: each part of a partial error (the bad
/// lines of one folder's ignore files) on a line of its own.
fn described_parts(err: &ignore::Error, root: &Root) -> Vec<String> {
    parts(err).into_iter().map(|e| describe(e, root)).collect()
}

/// An error's parts: a partial error's each (the bad lines of one ignore
/// file, or of one folder's), any other error itself.
fn parts(err: &ignore::Error) -> Vec<&ignore::Error> {
    match err {
        ignore::Error::Partial(errs) => errs.iter().flat_map(parts).collect(),
        other => vec![other],
    }
}

/// A walk error as one line, its paths named as rg 13 names them
/// ([`Root::shown`]): `./.ignore: line 1: error parsing glob …` under `.`.
fn describe(err: &ignore::Error, root: &Root) -> String {
    match err {
        ignore::Error::WithPath { path, err } => {
            format!("{}: {}", root.shown(path), describe(err, root))
        }
        ignore::Error::WithDepth { err, .. } => describe(err, root),
        // `-L`: named as the paths are named, not by the absolute paths the
        // walk resolved (rg's "./loop points to an ancestor .").
        ignore::Error::Loop { ancestor, child } => format!(
            "File system loop found: {} points to an ancestor {}",
            root.shown(child),
            root.shown(ancestor)
        ),
        ignore::Error::Partial(errs) => errs
            .iter()
            .map(|e| describe(e, root))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

mod listing;
mod order;
mod strict;
#[cfg(test)]
mod tests;

pub use listing::Listing;
pub use order::{in_places, PathKey, PathOrder, SortBy};
