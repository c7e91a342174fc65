//! Unit tests for `walk`: each rule of the module doc, then the contract fixture.
#![allow(clippy::unwrap_used, clippy::print_stderr)]

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
    assert_eq!(
        crate::render::grep::heading(got[0].as_bytes()),
        got[0].as_bytes()
    );
}

#[test]
fn source_path_is_the_real_file() {
    let t = tree(SMALL);
    let out = walk(&[PathBuf::from("./src")], &WalkOptions::default(), t.path());
    for h in &out.haystacks {
        match &h.source {
            Source::Path(p) => assert!(p.is_file(), "{}", p.display()),
            Source::Stdin(_) | Source::Pipe(_) => panic!("not a file"),
        }
        assert!(!h.is_stdin());
    }
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
fn withheld_secrets_are_skipped_walked_or_named() {
    let t = tree(&[
        (".env", ""),
        (".env.example", ""),
        ("config/credentials.json", ""),
        ("config/app.json", ""),
        ("keys/server.pem", ""),
        ("src/main.rs", ""),
    ]);
    let open = WalkOptions {
        hidden: true,
        ..WalkOptions::default()
    };
    let withheld = WalkOptions {
        withhold_secrets: true,
        ..open.clone()
    };
    assert_eq!(keys_in(t.path(), &["."], &open).len(), 6);
    assert_eq!(
        keys_in(t.path(), &["."], &withheld),
        strs(&[".env.example", "config/app.json", "src/main.rs"])
    );
    let named = [".env", "keys/server.pem", "src/main.rs"];
    assert_eq!(keys_in(t.path(), &named, &open).len(), 3);
    assert_eq!(keys_in(t.path(), &named, &withheld), strs(&["src/main.rs"]));
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
fn a_dotted_type_is_an_extension_without_a_warning() {
    let t = tree(&[
        ("a.py", ""),
        ("b.pyi", ""),
        ("c.tar.gz", ""),
        ("d.c++", ""),
        ("e.txt", ""),
    ]);
    assert_eq!(
        keys_in(t.path(), &["."], &with_types(&[".py"])),
        strs(&["a.py"]),
        "an extension, not ripgrep's py type (which has .pyi)"
    );
    assert_eq!(
        keys_in(t.path(), &["."], &with_types(&[".tar.gz,c++", ".txt"])),
        strs(&["c.tar.gz", "d.c++", "e.txt"])
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
fn a_walked_fifo_is_skipped_and_a_named_one_listed_unread() {
    let t = tree(&[("a.txt", "")]);
    let fifo = t.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo unavailable, FIFO test skipped");
        return;
    }
    assert_eq!(keys(t.path(), &["."]), strs(&["a.txt"]));
    // Named, it is searched as rg searches it; the walk does not read it
    // (nobody writes here: a read would block).
    let out = walk(&[PathBuf::from("pipe")], &WalkOptions::default(), t.path());
    assert_eq!(out.haystacks.len(), 1);
    assert_eq!(out.haystacks[0].key, "pipe");
    assert_eq!(out.haystacks[0].source, Source::Pipe(fifo));
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
        eprintln!("note: python3 or make_fixture.py unavailable, contract fixture test skipped");
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

#[test]
fn paths_as_given_keep_the_arguments_spelling() {
    let t = tree(&[("src/x/a.py", ""), ("b.py", "")]);
    let cwd = t.path();
    let given = |args: &[&str]| -> Vec<String> {
        let args: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
        walk(&args, &WalkOptions::default(), cwd)
            .haystacks
            .iter()
            .map(|h| as_given(h, &args, cwd).unwrap().display().to_string())
            .collect()
    };
    assert_eq!(given(&["."]), ["./b.py", "./src/x/a.py"]);
    assert_eq!(given(&["./src/x"]), ["./src/x/a.py"]);
    assert_eq!(given(&["src/x/"]), ["src/x/a.py"]);
    assert_eq!(given(&["b.py", "./b.py"]), ["b.py"]);
    assert_eq!(given(&["./src/../src"]), ["./src/../src/x/a.py"]);
    let abs = cwd.join("src");
    assert_eq!(
        given(&[abs.to_str().unwrap()]),
        [format!("{}/x/a.py", abs.display())]
    );
    let stdin = stdin_haystack(b"x".to_vec());
    assert_eq!(as_given(&stdin, &[PathBuf::from(".")], cwd), None);
}

#[cfg(unix)]
#[test]
fn below_a_root_by_bytes_is_below_it_by_components() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let cases: &[(&[u8], &[u8])] = &[
        (b"/work/repo/src/main.rs", b"/work/repo"),
        (b"/work/repo", b"/work/repo"),
        (b"/work/repository/src/x.rs", b"/work/repo"),
        (b"/etc/hosts", b"/"),
        (b"/work/repo/caf\xc3\xa9/men\xfa.rs", b"/work/repo"),
        (b"/elsewhere/x.rs", b"/work/repo"),
        (b"/work/repo/a/b/c", b"/work/repo/a"),
    ];
    for (path, root) in cases {
        let path = Path::new(OsStr::from_bytes(path));
        let root = Path::new(OsStr::from_bytes(root));
        let by_components = path.strip_prefix(root).unwrap_or(path).to_string_lossy();
        assert_eq!(
            super::below_lossy(path, root),
            by_components,
            "{path:?} under {root:?}"
        );
    }
}

#[test]
fn each_no_ignore_flag_lifts_its_own_rules_as_rg_13_does() {
    // The answers are `rg --files --ignore-file extra-ignore FLAG` on the
    // same tree (`extra-ignore` itself is excluded by git).
    let t = git_tree(&[
        ("sub/a.txt", ""),
        ("sub/b.txt", ""),
        ("sub/c.txt", ""),
        ("sub/d.txt", ""),
        ("sub/e.txt", ""),
        (".gitignore", "sub/a.txt\n"),
        (".ignore", "sub/b.txt\n"),
        (".rgignore", "sub/c.txt\n"),
        ("extra-ignore", "sub/e.txt\n"),
    ]);
    write(t.path(), ".git/info/exclude", "sub/d.txt\nextra-ignore\n");
    let listed = |cwd: &Path, rules: IgnoreRules| {
        let opts = WalkOptions {
            ignores: rules,
            ignore_files: vec![t.path().join("extra-ignore")],
            ..WalkOptions::default()
        };
        keys_in(cwd, &["."], &opts)
    };
    let root = t.path();
    let all = IgnoreRules::default();
    assert_eq!(listed(root, all), Vec::<String>::new());
    let vcs = IgnoreRules { vcs: false, ..all };
    assert_eq!(
        listed(root, vcs),
        strs(&["extra-ignore", "sub/a.txt", "sub/d.txt"])
    );
    let dot = IgnoreRules { dot: false, ..all };
    assert_eq!(
        listed(root, dot),
        strs(&["sub/b.txt"]),
        ".rgignore still holds"
    );
    let exclude = IgnoreRules {
        exclude: false,
        ..all
    };
    assert_eq!(listed(root, exclude), strs(&["extra-ignore", "sub/d.txt"]));
    let files = IgnoreRules {
        files: false,
        ..all
    };
    assert_eq!(listed(root, files), strs(&["sub/e.txt"]));
    // From inside `sub`, the rules above it are its parents' (`cd sub; rg
    // --files --no-ignore-parent .`). The --ignore-file's rules are rooted
    // at the current directory, so `sub/e.txt` names nothing there.
    let parent = IgnoreRules {
        parent: false,
        ..all
    };
    let sub = root.join("sub");
    assert_eq!(listed(&sub, all), strs(&["e.txt"]));
    assert_eq!(
        listed(&sub, parent),
        strs(&["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"])
    );
}

#[cfg(unix)]
#[test]
fn a_non_utf8_name_is_printed_as_its_real_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let real = std::path::Path::new(std::ffi::OsStr::from_bytes(b"/tmp/w/src/caf\xe9.rs"));
    let h = Haystack {
        key: "src/caf\u{fffd}.rs".into(),
        source: Source::Path(real.to_path_buf()),
    };
    assert_eq!(h.name().as_ref(), b"src/caf\xe9.rs");
    let h = Haystack {
        key: "/tmp/w/src/caf\u{fffd}.rs".into(),
        source: Source::Path(real.to_path_buf()),
    };
    assert_eq!(h.name().as_ref(), b"/tmp/w/src/caf\xe9.rs");
    let utf8 = Haystack {
        key: "src/a.rs".into(),
        source: Source::Path("/tmp/w/src/a.rs".into()),
    };
    assert_eq!(utf8.name().as_ref(), b"src/a.rs");
    let fifo = Haystack {
        key: "src/caf\u{fffd}.rs".into(),
        source: Source::Pipe(real.to_path_buf()),
    };
    assert_eq!(fifo.name().as_ref(), b"src/caf\xe9.rs");
}
