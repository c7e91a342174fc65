//! Generated documentation: the man page and shell completions, produced from the
//! clap definitions in `flags.rs` so they never disagree with `--help`.
//!
//! `kgrep --generate man|complete-bash|…` prints one of them; `tests` compare the
//! committed copies in `man/` and `completions/` with what this produces.

use clap::CommandFactory;
use clap_complete::Shell;

use super::flags::Flags;

/// Shells we ship completions for, with their file names under `completions/`.
pub const SHELLS: &[(Shell, &str)] = &[
    (Shell::Bash, "kgrep.bash"),
    (Shell::Zsh, "_kgrep"),
    (Shell::Fish, "kgrep.fish"),
    (Shell::PowerShell, "_kgrep.ps1"),
    (Shell::Elvish, "kgrep.elv"),
];

/// The man page, roff.
pub fn man_page() -> anyhow::Result<Vec<u8>> {
    let cmd = Flags::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(out)
}

/// The completion script for one shell.
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut cmd = Flags::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kgrep", &mut out);
    out
}

/// Every generated file as (path relative to the repository root, contents).
pub fn all_files() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut files = vec![("man/kgrep.1".to_string(), man_page()?)];
    for (shell, name) in SHELLS {
        files.push((format!("completions/{name}"), completion(*shell)));
    }
    Ok(files)
}
