//! Ignore-file lines read as ripgrep 13 reads them: an unclosed character
//! class (`a[`, `[!`, `a[]`) is an error there, which the `ignore` crate the
//! walk runs on now takes literally, as git does, with no switch to ask its
//! walker otherwise.
//!
//! So the ignore files the walker reads are read once more here, each line
//! parsed with unclosed classes refused, only to find the lines rg 13 would
//! report: a searched folder's (a warning: the walk goes on without the
//! line, exit status untouched) and a parent folder's (an error: rg 13 exits
//! 2). The walker's own matchers still hold such a line as a literal (it
//! ignores a file named `a[`, which rg 13 would not): the crate gives no way
//! to drop one line of a file it reads. It does not print anything: the
//! walk reports what this finds.

use std::path::{Path, PathBuf};

use ignore::gitignore::GitignoreBuilder;

use super::{WalkOptions, RG_IGNORE_FILENAME};

/// The ignore files the walker reads in each folder, as `walk_builder` sets
/// it up, and whether it reads the parent folders' ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Strict {
    /// `.rgignore` (read unless `--no-ignore`).
    custom: bool,
    /// `.ignore`.
    dot: bool,
    /// `.gitignore` (read inside a git repository or not, as rg 13 reads it).
    vcs: bool,
    /// `.git/info/exclude`.
    exclude: bool,
    /// The folders above each path argument: the walker reads their files
    /// whenever it reads any of them, even with `--no-ignore-parent`, which
    /// only stops them from applying (rg 13 still reports their bad lines).
    parents: bool,
}

impl Strict {
    /// The ignore files a walk with `opts` reads.
    pub(super) fn of(opts: &WalkOptions) -> Strict {
        let rules = opts.ignores;
        let any = !opts.no_ignore;
        Strict {
            custom: any,
            dot: any && rules.dot,
            vcs: any && rules.vcs,
            exclude: any && rules.vcs && rules.exclude,
            parents: any && (rules.parent || rules.vcs),
        }
    }

    /// The bad lines of the ignore files the walker reads in `dir`, in its
    /// order (`.rgignore`, `.ignore`, `.gitignore`, `.git/info/exclude`),
    /// one error each; none when every line parses.
    pub(super) fn problems(&self, dir: &Path) -> Vec<ignore::Error> {
        let files = [
            (self.custom, RG_IGNORE_FILENAME),
            (self.dot, ".ignore"),
            (self.vcs, ".gitignore"),
            (self.exclude, ".git/info/exclude"),
        ];
        let mut found = Vec::new();
        for (_, name) in files.iter().filter(|(read, _)| *read) {
            // Most folders hold none: one `stat` each says so, no parser
            // set up (a walk of 3,000 folders took a fifth longer without).
            let path = if *name == ".git/info/exclude" {
                exclude_file(dir)
            } else {
                Some(dir.join(name)).filter(|path| path.is_file())
            };
            if let Some(path) = path {
                found.extend(bad_lines(dir, &path));
            }
        }
        found
    }

    /// The bad lines of the ignore files in the folders above `root` (a
    /// directory argument), from the top down, as the walker reads them:
    /// named by their absolute paths, `root`'s symlinks resolved.
    pub(super) fn parent_problems(&self, root: &Path) -> Vec<ignore::Error> {
        if !self.parents {
            return Vec::new();
        }
        let Ok(base) = root.canonicalize() else {
            return Vec::new();
        };
        let mut above: Vec<&Path> = base.ancestors().skip(1).collect();
        above.reverse();
        above
            .into_iter()
            .flat_map(|dir| self.problems(dir))
            .collect()
    }
}

/// The exclude file the walker reads in `dir`, if there is one: its
/// `.git/info/exclude`, or a linked worktree's ([`worktree_exclude`]). One
/// `stat` of `.git` in a folder without one.
fn exclude_file(dir: &Path) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    let meta = std::fs::metadata(&dot_git).ok()?;
    if meta.is_file() {
        return worktree_exclude(&dot_git);
    }
    Some(dot_git.join("info/exclude")).filter(|path| path.is_file())
}

/// The `info/exclude` of the repository a linked worktree belongs to, from
/// its `.git` file (`dot_git`: `gitdir: …`, beside which a `commondir` file
/// leads to the main `.git`), spelled as the ignore crate's walker reads it
/// and rg 13 names it (`/repo/.git/worktrees/wt/../../info/exclude`). None
/// when the file names no worktree or the exclude file is missing: the
/// walker then reads none either. Written by hand because the crate's
/// resolution (`resolve_git_commondir`) is private; this follows it line for
/// line, without its I/O errors (the walker reports those).
fn worktree_exclude(dot_git: &Path) -> Option<PathBuf> {
    let first = |path: &Path| -> Option<String> {
        let text = std::fs::read_to_string(path).ok()?;
        Some(text.lines().next()?.to_string())
    };
    let line = first(dot_git)?;
    let git_dir = PathBuf::from(line.strip_prefix("gitdir: ")?);
    let common = first(&git_dir.join("commondir"))?;
    let common = if common.starts_with('.') {
        git_dir.join(common)
    } else {
        PathBuf::from(common)
    };
    let path = common.join("info/exclude");
    path.is_file().then_some(path)
}

/// The lines of the ignore file at `path` (its globs rooted at `dir`) that
/// do not parse as rg 13 parses them, one error each. A file that is missing
/// or cannot be read has none, as the walker ignores it.
pub(super) fn bad_lines(dir: &Path, path: &Path) -> Vec<ignore::Error> {
    let mut builder = GitignoreBuilder::new(dir);
    builder.allow_unclosed_class(false);
    builder
        .add(path)
        .map(each)
        .unwrap_or_default()
        .into_iter()
        .filter(|err| err.io_error().is_none())
        .collect()
}

/// An error's parts, one a line as rg prints them: a partial error's each,
/// any other error itself.
fn each(err: ignore::Error) -> Vec<ignore::Error> {
    match err {
        ignore::Error::Partial(errs) => errs.into_iter().flat_map(each).collect(),
        other => vec![other],
    }
}

/// Whether every part of `err` is a line of an ignore file that does not
/// parse: the walker reports such an error on its own (not with a walked
/// folder's entry) only for the parent folders' ignore files.
pub(super) fn is_bad_line(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Partial(errs) => errs.iter().all(is_bad_line),
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_bad_line(err),
        ignore::Error::Glob { .. } => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unclosed_class_is_a_bad_line_and_a_good_line_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join(".ignore");
        std::fs::write(&file, "a[\n*.log\n[!\nb{\n").expect("write");
        let bad: Vec<String> = bad_lines(dir.path(), &file)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(bad.len(), 3, "{bad:?}");
        assert!(
            bad[0].contains("line 1: error parsing glob 'a['"),
            "{bad:?}"
        );
        assert!(
            bad[1].contains("line 3: error parsing glob '[!'"),
            "{bad:?}"
        );
        assert!(
            bad[2].contains("line 4: error parsing glob 'b{'"),
            "{bad:?}"
        );
        assert!(bad_lines(dir.path(), &dir.path().join("none")).is_empty());
    }

    /// A linked worktree's `.git` is a file naming its folder in the main
    /// repository, whose `commondir` leads to the `info/exclude` the walker
    /// reads; its bad lines are found there (they were not: `.git/info/exclude`
    /// under the worktree does not exist).
    #[test]
    fn a_linked_worktrees_exclude_file_is_read_for_bad_lines() {
        let top = tempfile::tempdir().expect("tempdir");
        let repo_git = top.path().join("repo/.git");
        let linked = repo_git.join("worktrees/wt");
        std::fs::create_dir_all(repo_git.join("info")).expect("mkdir");
        std::fs::create_dir_all(&linked).expect("mkdir");
        std::fs::write(repo_git.join("info/exclude"), "*.log\na[\n").expect("write");
        std::fs::write(linked.join("commondir"), "../..\n").expect("write");
        let wt = top.path().join("wt");
        std::fs::create_dir_all(&wt).expect("mkdir");
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", linked.display())).expect("write");
        let strict = Strict {
            custom: false,
            dot: false,
            vcs: true,
            exclude: true,
            parents: false,
        };
        let bad: Vec<String> = strict
            .problems(&wt)
            .iter()
            .map(ToString::to_string)
            .collect();
        let named = linked.join("../..").join("info/exclude");
        assert_eq!(
            bad,
            [format!(
                "{}: line 2: error parsing glob 'a[': unclosed character class; missing ']'",
                named.display()
            )]
        );
        // Not read when the walk does not read exclude files.
        let without = Strict {
            exclude: false,
            ..strict
        };
        assert!(without.problems(&wt).is_empty());
        // A `.git` file that names no worktree: nothing to read.
        std::fs::write(wt.join(".git"), "not a pointer\n").expect("write");
        assert!(strict.problems(&wt).is_empty());
    }
}
