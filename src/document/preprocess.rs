//! `--pre COMMAND` and `--pre-glob GLOB`: files searched as what a program
//! prints for them, as rg's flags do. For each file (the `--pre-glob` ones,
//! when given) kgrep runs `COMMAND FILE` with the file on its stdin
//! ([`super::program`]) and reads its output as the file's bytes; piped
//! stdin is never preprocessed. A preprocessed file is not decompressed by
//! `-z`, as in rg.
//!
//! It owns which files a preprocessor applies to and running it; it does
//! not read the text its output holds (`super::from_bytes` does).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use ignore::overrides::{Override, OverrideBuilder};

/// A `--pre` command and the files it applies to.
#[derive(Clone, Debug)]
pub struct Preprocessor {
    command: PathBuf,
    /// The `--pre-glob` globs (gitignore syntax, rooted at the current
    /// directory, `!` excludes, the last that matches wins), or `None`:
    /// every file.
    only: Option<Override>,
}

impl Preprocessor {
    /// `command` for the files `globs` select (all files when there are
    /// none), with globs rooted at `cwd` as `-g`'s are. An invalid glob is
    /// an error that names it.
    pub fn new(
        command: PathBuf,
        globs: &[String],
        cwd: &Path,
    ) -> Result<Preprocessor, ignore::Error> {
        let only = if globs.is_empty() {
            None
        } else {
            let mut builder = OverrideBuilder::new(cwd);
            for glob in globs {
                builder.add(glob)?;
            }
            Some(builder.build()?)
        };
        Ok(Preprocessor { command, only })
    }

    /// Whether the file at `path` is read through the command: with globs,
    /// only a file one of them selects (a file no glob names is not, even
    /// when every glob excludes, as in rg).
    pub fn applies(&self, path: &Path) -> bool {
        self.only
            .as_ref()
            .is_none_or(|only| only.matched(path, false).is_whitelist())
    }

    /// The command's output for the file at `path`.
    pub fn output(&self, path: &Path) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let argv = [self.command.as_os_str(), path.as_os_str()];
        super::program::run(&argv, File::open(path)?, &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn globs_select_files_as_gitignore_lines_do() {
        let cwd = Path::new("/work");
        let pre = |globs: &[&str]| {
            let globs: Vec<String> = globs.iter().map(|g| g.to_string()).collect();
            Preprocessor::new("cat".into(), &globs, cwd).unwrap()
        };
        assert!(pre(&[]).applies(Path::new("a/b.txt")));
        let pdfs = pre(&["*.pdf"]);
        assert!(pdfs.applies(Path::new("docs/deep/x.pdf")));
        assert!(pdfs.applies(Path::new("/work/x.pdf")));
        assert!(!pdfs.applies(Path::new("x.txt")));
        let not_logs = pre(&["!*.log"]);
        assert!(!not_logs.applies(Path::new("x.txt")));
        assert!(!not_logs.applies(Path::new("a/x.log")));
        let but_logs = pre(&["*", "!*.log"]);
        assert!(but_logs.applies(Path::new("x.txt")));
        assert!(!but_logs.applies(Path::new("a/x.log")));
        let globs = vec!["{a".to_string()];
        assert!(Preprocessor::new("cat".into(), &globs, cwd).is_err());
    }

    #[test]
    fn the_command_gets_the_path_and_the_file_on_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, "body\n").unwrap();
        let script = dir.path().join("pre.sh");
        std::fs::write(&script, "#!/bin/sh\necho \"name: $1\"\n/bin/cat\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let pre = Preprocessor::new(script, &[], dir.path()).unwrap();
        let out = pre.output(&path).unwrap();
        assert_eq!(
            out,
            format!("name: {}\nbody\n", path.display()).into_bytes()
        );
    }
}
