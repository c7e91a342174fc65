//! The run's input: what the process's stdin is (ripgrep's rule for when it
//! is a corpus), reading it (content or a path list), the path arguments, and
//! the walk options of a plan, and how `--binary` reads a file (which rg
//! decides from the paths named).
//!
//! Owns probing and reading stdin. Does not walk (`walk`) nor decide the
//! precedence of stdin over paths (`cli::plan`).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use anyhow::Context;

use crate::cli::{Env, Input, Plan};
use crate::document::binary::Reading;
use crate::messages;
use crate::walk::{self, Haystack, WalkOptions};

/// What planning needs to know about the process (`dirs`: its HOME and XDG
/// folders, read once by the caller).
pub(super) fn process_env(dirs: crate::paths::Env) -> Env {
    let stdin = std::io::stdin();
    Env {
        dirs,
        stdin_readable: !stdin.is_terminal() && is_readable_stdin(),
        stdin_is_tty: stdin.is_terminal(),
        stdin_reserved: false,
        stdout_is_tty: std::io::stdout().is_terminal(),
        stderr_is_tty: std::io::stderr().is_terminal(),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        kgrep_llm: std::env::var("KGREP_LLM").ok(),
    }
}

/// ripgrep's rule: stdin is a corpus when it is a file, a pipe or a socket. A
/// terminal or a character device such as /dev/null is not, so `kgrep query` run
/// by an agent with stdin closed searches the current directory.
#[cfg(unix)]
fn is_readable_stdin() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    let Ok(meta) = std::fs::File::from(fd).metadata() else {
        return false;
    };
    let ft = meta.file_type();
    ft.is_file() || ft.is_fifo() || ft.is_socket()
}

#[cfg(not(unix))]
fn is_readable_stdin() -> bool {
    true
}

/// The paths the user named, for `--json` names; none when the current
/// directory is searched by default or stdin is the corpus.
pub(super) fn given_paths(plan: &Plan, input: &Gathered) -> Vec<PathBuf> {
    match (&plan.input, input) {
        (Input::Paths(paths), _) => paths.clone(),
        (Input::PathsFromStdin { .. }, Gathered::Paths(list)) => list.clone(),
        _ => Vec::new(),
    }
}

/// The input of a run: piped stdin content, or paths to walk.
pub(super) enum Gathered {
    Stdin(Vec<Haystack>),
    Paths(Vec<PathBuf>),
}

/// Reads piped stdin or a path list on stdin, or takes the path arguments.
/// `None` when the input itself is unusable (already reported).
pub(super) fn gather(plan: &Plan) -> anyhow::Result<Option<Gathered>> {
    match &plan.input {
        Input::Stdin => Ok(Some(Gathered::Stdin(vec![walk::stdin_haystack(
            read_stdin()?,
        )]))),
        Input::PathsFromStdin { also, null } => {
            let bytes = read_stdin()?;
            let mut list = if *null {
                walk::parse_null_path_list(&bytes)
            } else {
                walk::parse_path_list(&bytes)
            };
            // The path arguments are searched too, as `xargs` would pass them.
            list.extend(also.iter().cloned());
            if list.is_empty() {
                messages::line("stdin contained no file paths");
                return Ok(None);
            }
            Ok(Some(Gathered::Paths(list)))
        }
        // rg's own default path: a walk message names `./a/loop` and the
        // folder itself `./`, as rg's do (`.` is the folder when named).
        Input::Paths(paths) if paths.is_empty() => Ok(Some(Gathered::Paths(vec!["./".into()]))),
        Input::Paths(paths) => Ok(Some(Gathered::Paths(paths.clone()))),
    }
}

fn read_stdin() -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .context("cannot read stdin")?;
    Ok(bytes)
}

/// How `--binary` reads a file that holds a NUL byte, as rg 13 reads it
/// (`document::binary`): through a memory map when `--mmap` asks, or when
/// the paths named are one to ten files and `--no-mmap` does not forbid it
/// (rg's own choice); else as a stream. `None` without `--binary`.
pub(super) fn binary_reading(plan: &Plan) -> Option<Reading> {
    if !plan.binary {
        return None;
    }
    let few_files = |paths: &[PathBuf]| {
        (1..=MMAP_PATHS).contains(&paths.len()) && paths.iter().all(|p| p.is_file())
    };
    let mapped = match (plan.mmap, &plan.input) {
        (Some(asked), _) => asked,
        (None, Input::Paths(paths)) => few_files(paths),
        (None, _) => false,
    };
    Some(if mapped {
        Reading::Map
    } else {
        Reading::Stream
    })
}

/// rg 13 maps files into memory by default only when it is given at most
/// this many paths, all of them files.
const MMAP_PATHS: usize = 10;

pub(super) fn walk_options(plan: &Plan) -> WalkOptions {
    WalkOptions {
        recursive: plan.recursive,
        hidden: plan.hidden,
        no_ignore: plan.no_ignore,
        globs: walk::split_list(&plan.globs),
        iglobs: walk::split_list(&plan.iglobs),
        types: walk::split_list(&plan.types),
        types_not: walk::split_list(&plan.types_not),
        type_edits: plan.type_edits.clone(),
        max_depth: plan.max_depth,
        follow: plan.follow,
        withhold_secrets: plan.withhold_secrets,
        reads_pipes: plan.reads_pipes,
        max_filesize: plan.max_filesize,
        ignores: plan.ignores,
        ignore_files: plan.ignore_files.clone(),
        threads: plan.threads,
        voice: if plan.no_messages {
            messages::Voice::Quiet
        } else {
            messages::Voice::Loud
        },
    }
}
