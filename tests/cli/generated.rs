//! The committed man page and completions must match what the clap definitions
//! generate. To refresh them: `KGREP_REGENERATE=1 cargo test --test cli generated`.

#[test]
fn generated_files_are_fresh() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let regenerate = std::env::var_os("KGREP_REGENERATE").is_some();
    let mut stale = Vec::new();
    for (rel, contents) in kgrep::cli::generate::all_files().unwrap() {
        let path = root.join(&rel);
        if regenerate {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &contents).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(contents.as_slice()) {
            stale.push(rel);
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files: {stale:?}\nregenerate with: KGREP_REGENERATE=1 cargo test --test cli generated"
    );
}
