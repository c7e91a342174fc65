//! The commands that are not searches: help and usage errors, `--generate`,
//! `--init-config` and the learned-thesaurus commands (`--thesaurus-list`
//! and the others), each run to its exit status.
//!
//! Owns only the dispatch to each command's module (`cli::generate`,
//! `config`, `learn::manage`) and what it prints on stdout.

use std::io::Write;

use anyhow::Context;

use super::cwd;
use crate::cli::{self, flags::GenerateKind, Flags};
use crate::config::{self, ConfigPaths};
use crate::exit::ExitStatus;
use crate::learn;
use crate::messages;
use crate::thesaurus::{self, LayerPaths, Thesaurus};

/// Help and version go to stdout with exit 0; a usage error is one
/// `kgrep: ` line on stderr ([`usage_error`]) with exit 2.
pub fn clap_exit(err: &clap::Error) -> ExitStatus {
    if !err.use_stderr() {
        let _ = err.print();
        return ExitStatus::Matched;
    }
    messages::line(&usage_error(&err.render().to_string()));
    ExitStatus::Error
}

/// clap's rendering of a usage error (`error: …`, its tips, the usage, a
/// pointer to --help, over several lines) as the one line every other bad
/// input gets: the message, then each tip, then where the options are.
fn usage_error(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut tips = Vec::new();
    let mut details = Vec::new();
    for line in lines.take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more")) {
        match line.strip_prefix("tip: ") {
            Some(tip) => tips.push(tip),
            // What the message lists (`the following required arguments
            // were not provided:`, then one per line).
            None => details.push(line),
        }
    }
    if !details.is_empty() {
        out.push(' ');
        out.push_str(&details.join(", "));
    }
    for tip in tips {
        out.push_str("; ");
        out.push_str(tip);
    }
    out.push_str(" (kgrep --help lists the options)");
    out
}

/// `--generate`: print the man page or a shell's completions.
pub(super) fn generate(kind: GenerateKind) -> anyhow::Result<ExitStatus> {
    use clap_complete::Shell;
    let bytes = match kind {
        GenerateKind::Man => cli::generate::man_page()?,
        GenerateKind::CompleteBash => cli::generate::completion(Shell::Bash),
        GenerateKind::CompleteZsh => cli::generate::completion(Shell::Zsh),
        GenerateKind::CompleteFish => cli::generate::completion(Shell::Fish),
        GenerateKind::CompletePowershell => cli::generate::completion(Shell::PowerShell),
        GenerateKind::CompleteElvish => cli::generate::completion(Shell::Elvish),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(&bytes).context("writing generated output")?;
    Ok(ExitStatus::Matched)
}

/// `--type-list`: ripgrep's file types and their globs, `name: glob, glob`.
pub(super) fn type_list(flags: &Flags) -> anyhow::Result<ExitStatus> {
    let types = match crate::walk::type_definitions(&flags.type_edits()) {
        Ok(types) => types,
        Err(err) => {
            messages::error(&err.to_string());
            return Ok(ExitStatus::Error);
        }
    };
    let mut out = std::io::stdout().lock();
    for (name, globs) in types {
        writeln!(out, "{name}: {}", globs.join(", ")).context("writing the type list")?;
    }
    Ok(ExitStatus::Matched)
}

/// `--pcre2-version`: kgrep links no PCRE2, so it says so on stdout and
/// exits 1, as a ripgrep built without PCRE2 does.
pub(super) fn pcre2_version() -> anyhow::Result<ExitStatus> {
    writeln!(
        std::io::stdout().lock(),
        "PCRE2 is not available in this build of kgrep (-P runs fancy-regex)."
    )
    .context("writing the PCRE2 version")?;
    Ok(ExitStatus::NoMatch)
}

/// `--init-config`: write kgrep's default config unless one exists.
pub(super) fn init_config(paths: &ConfigPaths) -> anyhow::Result<ExitStatus> {
    let path = paths
        .kgrep
        .as_deref()
        .context("cannot locate the config directory: HOME is not set")?;
    if config::init(path)? {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", path.display())?;
    } else {
        messages::line(&format!(
            "config already exists: {} (left unchanged)",
            path.display()
        ));
    }
    Ok(ExitStatus::Matched)
}

/// `--thesaurus-list` and the other commands on the learned thesaurus.
pub(super) fn thesaurus_command(
    command: &learn::manage::Command,
    flags: &Flags,
    config: &config::Config,
    dirs: &crate::paths::Env,
) -> anyhow::Result<ExitStatus> {
    let to = match cli::plan::learn_target(flags, config) {
        Ok(to) => to,
        Err(err) => {
            messages::line(&err.to_string());
            return Ok(ExitStatus::Error);
        }
    };
    let cwd = cwd()?;
    let path = learn::target_path(to, &cwd, dirs)?;
    let known = if matches!(command, learn::manage::Command::Import(_)) {
        thesaurus::load_layers(&LayerPaths {
            builtin: !flags.no_builtin_thesaurus,
            learned: dirs.learned_thesaurus(),
            project_roots: vec![cwd.clone()],
            extra: flags.thesaurus.clone(),
            focus: None,
        })
    } else {
        Thesaurus::new()
    };
    let status = learn::manage::run(command, &path, &known)?;
    Ok(if messages::errored() {
        ExitStatus::Error
    } else {
        status
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usage_error_is_one_line_with_its_tips() {
        let rendered = "error: unexpected argument '--bogus' found\n\n  \
                        tip: to pass '--bogus' as a value, use '-- --bogus'\n\n\
                        Usage: kgrep [OPTIONS] [PATTERN] [PATHS]...\n\n\
                        For more information, try '--help'.\n";
        assert_eq!(
            usage_error(rendered),
            "unexpected argument '--bogus' found; to pass '--bogus' as a value, use \
             '-- --bogus' (kgrep --help lists the options)"
        );
        assert_eq!(
            usage_error(
                "error: the following required arguments were not provided:\n  \
                 --paths-from-stdin\n  --mcp\n\nUsage: kgrep -0 <PATTERN>\n"
            ),
            "the following required arguments were not provided: --paths-from-stdin, --mcp \
             (kgrep --help lists the options)"
        );
        assert_eq!(
            usage_error("error: invalid value 'abc' for '-C <NUM>'\n"),
            "invalid value 'abc' for '-C <NUM>' (kgrep --help lists the options)"
        );
    }
}
