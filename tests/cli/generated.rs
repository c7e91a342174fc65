//! The committed man page and completions must match what the clap definitions
//! generate, and `kgrep --generate` prints the same. To refresh them after changing
//! a flag or the man page prose: `KGREP_REGENERATE=1 cargo test --test cli generated`.

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
        } else {
            let committed = std::fs::read(&path).unwrap_or_default();
            if committed != contents {
                stale.push(format!(
                    "{rel} ({})",
                    first_difference(&committed, &contents)
                ));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files: {stale:?}\nregenerate with: KGREP_REGENERATE=1 cargo test --test cli generated"
    );
}

/// Where two versions of a file first differ, as line numbers and both lines.
fn first_difference(committed: &[u8], generated: &[u8]) -> String {
    let old = String::from_utf8_lossy(committed);
    let new = String::from_utf8_lossy(generated);
    let mut old_lines = old.lines();
    let mut new_lines = new.lines();
    for n in 1.. {
        match (old_lines.next(), new_lines.next()) {
            (None, None) => break,
            (a, b) if a != b => {
                return format!(
                    "line {n}: committed {:?}, generated {:?}",
                    a.unwrap_or("<end>"),
                    b.unwrap_or("<end>")
                )
            }
            _ => {}
        }
    }
    "line endings differ".to_string()
}

/// `kgrep --generate KIND` prints the same files, for packagers.
#[test]
fn the_binary_prints_the_committed_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = crate::harness::Dir::new();
    let kinds = [
        ("man", "man/kgrep.1"),
        ("complete-bash", "completions/kgrep.bash"),
        ("complete-zsh", "completions/_kgrep"),
        ("complete-fish", "completions/kgrep.fish"),
        ("complete-powershell", "completions/_kgrep.ps1"),
        ("complete-elvish", "completions/kgrep.elv"),
    ];
    for (kind, rel) in kinds {
        let run = d.run_devnull(&["--generate", kind]);
        run.code(0);
        let committed = std::fs::read(root.join(rel)).unwrap();
        assert!(
            run.raw_stdout == committed,
            "--generate {kind} differs from {rel}"
        );
    }
    d.run_devnull(&["--generate", "html"]).code(2).stdout_is("");
}
