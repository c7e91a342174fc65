//! Generated documentation: the man page and shell completions, produced from the
//! clap definitions in `flags.rs` so they never disagree with `--help`, plus the
//! man page's prose sections from `manual.rs`.
//!
//! `kgrep --generate man|complete-bash|…` prints one of them; the cli test
//! `generated` compares the committed copies in `man/` and `completions/` with
//! what this produces, and `KGREP_REGENERATE=1 cargo test --test cli generated`
//! rewrites them all.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use super::flags::Flags;
use super::manual;

/// Shells we ship completions for, with their file names under `completions/`.
pub const SHELLS: &[(Shell, &str)] = &[
    (Shell::Bash, "kgrep.bash"),
    (Shell::Zsh, "_kgrep"),
    (Shell::Fish, "kgrep.fish"),
    (Shell::PowerShell, "_kgrep.ps1"),
    (Shell::Elvish, "kgrep.elv"),
];

/// One part of the man page, written to a buffer.
type RenderPart<'a> = dyn Fn(&mut dyn Write) -> std::io::Result<()> + 'a;

/// The man page, roff: clap's NAME, SYNOPSIS, DESCRIPTION and option sections,
/// then the prose of `manual.rs`, then VERSION.
pub fn man_page() -> anyhow::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(Flags::command());
    let parts: [&RenderPart; 7] = [
        &|w| man.render_title(w),
        &|w| man.render_name_section(w),
        &|w| man.render_synopsis_section(w),
        &|w| man.render_description_section(w),
        &|w| man.render_options_section(w),
        &|w| manual::render(w),
        &|w| man.render_version_section(w),
    ];
    // Each part starts with roff's apostrophe preamble; keep only the first.
    let preamble = roff::Roff::new().render();
    let mut out = preamble.clone().into_bytes();
    for part in parts {
        let mut buf = Vec::new();
        part(&mut buf)?;
        let body = buf.strip_prefix(preamble.as_bytes()).unwrap_or(&buf);
        out.extend_from_slice(body);
    }
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
