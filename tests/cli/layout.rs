//! The layout rule of CONTRIBUTING.md, checked on `src/`: every file opens
//! with a `//!` comment, no `#[path]`, a module with submodules is a folder
//! with `mod.rs` (never `name.rs` beside `name/`), and no folder holds only
//! tests.

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file and every folder under `dir`, depth first, sorted.
fn tree(dir: &Path, files: &mut Vec<PathBuf>, dirs: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            dirs.push(path.clone());
            tree(&path, files, dirs);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn layout() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    tree(&src(), &mut files, &mut dirs);
    assert!(files.len() > 50, "the walk found {} files", files.len());
    (files, dirs)
}

fn shown(path: &Path) -> String {
    path.strip_prefix(src())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The source files (shown relative to `src/`) for which `wrong` holds.
fn files_where(wrong: impl Fn(&Path) -> bool) -> Vec<String> {
    let (files, _) = layout();
    files
        .iter()
        .filter(|f| wrong(f))
        .map(|f| shown(f))
        .collect()
}

#[test]
fn every_source_file_opens_with_a_doc_comment() {
    let missing = files_where(|f| {
        let text = std::fs::read_to_string(f).unwrap();
        !text
            .lines()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with("//!"))
    });
    assert!(
        missing.is_empty(),
        "files without a `//!` comment first: {missing:?}"
    );
}

#[test]
fn no_path_attributes() {
    let with = files_where(|f| {
        std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .any(|l| l.trim_start().starts_with("#[path"))
    });
    assert!(with.is_empty(), "#[path] in {with:?}");
}

#[test]
fn folders_are_modules_with_mod_rs_and_more_than_tests() {
    let (_, dirs) = layout();
    let mut wrong = Vec::new();
    for dir in &dirs {
        let beside = dir.with_extension("rs");
        if beside.exists() {
            wrong.push(format!("{} beside {}/", shown(&beside), shown(dir)));
        }
        if !dir.join("mod.rs").exists() {
            wrong.push(format!("{}/ has no mod.rs", shown(dir)));
        }
        let others = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !matches!(n.as_str(), "mod.rs" | "tests.rs" | "proptests.rs"))
            .count();
        if others == 0 {
            wrong.push(format!("{}/ holds only tests", shown(dir)));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn tests_files_belong_to_folder_modules() {
    let stray = files_where(|f| {
        let name = f.file_name().unwrap().to_string_lossy();
        name.ends_with("_tests.rs")
            || ((name == "tests.rs" || name == "proptests.rs")
                && !f.with_file_name("mod.rs").exists())
    });
    assert!(
        stray.is_empty(),
        "test files outside a folder module: {stray:?}"
    );
}
