//! From raw flags, config and environment to a resolved `Plan`.
//!
//! Precedence, written down once: command-line flag > kgrep's config file >
//! rlmgrep's config file > environment (`KGREP_LLM`, only for the LLM policy,
//! where it overrides the files) > built-in default. One exception, a safety
//! switch: `KGREP_LLM=off` wins over everything, `--rlm` included, so a
//! session that sets it never consults a model. Conflicts rlmgrep rejects are
//! rejected here with its messages. Nothing here reads files or stdin: the caller
//! passes in what it found (`Env`).

use std::path::PathBuf;

use bstr::ByteVec;
use thiserror::Error;

use super::flags::{ColorChoice, Engine, Flags, LearnTo, SortBy};
use crate::config::Config;
use crate::judge::Thresholds;
use crate::query::Matching;

/// Default for `--max-lines`: a screenful an agent can read without paying for a
/// flood; literal and regex queries are not capped.
pub const DEFAULT_MAX_LINES: usize = 15;

/// What the process was started with, as far as planning cares.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// stdin can be read as a corpus: a pipe, a file or a socket (not a terminal and
    /// not a character device such as /dev/null), as ripgrep decides.
    pub stdin_readable: bool,
    /// stdin is a terminal.
    pub stdin_is_tty: bool,
    /// stdin carries another protocol (the MCP server's JSON-RPC messages):
    /// never read as a corpus, so a `-` path is then a file name.
    pub stdin_reserved: bool,
    /// stdout is a terminal.
    pub stdout_is_tty: bool,
    /// stderr is a terminal.
    pub stderr_is_tty: bool,
    /// `NO_COLOR` is set to a non-empty value.
    pub no_color: bool,
    /// `KGREP_LLM`, if set.
    pub kgrep_llm: Option<String>,
    /// `HOME` and the XDG folders: where kgrep's files live (`paths`).
    pub dirs: crate::paths::Env,
}

/// Where the text to search comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Files and directories as the user named them; empty when none was
    /// named: the current directory is searched and `--json` names its files
    /// without a `./`, as ripgrep does.
    Paths(Vec<PathBuf>),
    /// Piped stdin is the corpus, under the name `<stdin>`.
    Stdin,
    /// stdin lists the paths, one per line (NUL-separated with `null`); the
    /// path arguments (`also`) are searched too.
    PathsFromStdin { also: Vec<PathBuf>, null: bool },
}

/// What is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Grep,
    Answer,
    AnswerOnly,
    Signature(String),
    SignatureJson(String),
}

/// What the grep-style output lists: the lines (the default), or in their
/// place only the files (`-l`), each file's count (`-c`), or nothing (`-q`).
/// `--json` and the answer and signature modes always print lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Listing {
    #[default]
    Lines,
    Files,
    /// `--files-without-match`: the files searched that hold no hit.
    FilesWithout,
    Counts,
    Quiet,
}

/// When a language model is consulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlmPolicy {
    Auto,
    Off,
    Always,
}

impl LlmPolicy {
    fn parse(value: &str) -> Option<LlmPolicy> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(LlmPolicy::Auto),
            "off" | "never" | "0" | "false" => Some(LlmPolicy::Off),
            "always" | "on" => Some(LlmPolicy::Always),
            _ => None,
        }
    }
}

pub use crate::llm::settings::ModelSettings;

/// A resolved run.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub query: String,
    pub input: Input,
    pub recursive: bool,
    pub hidden: bool,
    pub no_ignore: bool,
    /// `-a` (or `--null-data`, which implies it).
    pub text: bool,
    /// `--binary` (or `-uuu`): a file that holds a NUL byte is searched as rg
    /// searches one (`document::binary`), not skipped; never with `text`.
    pub binary: bool,
    /// `--null-data`: lines end with a NUL byte instead of a line feed.
    pub null_data: bool,
    /// `--mmap` (`Some(true)`) or `--no-mmap` (`Some(false)`), the last one
    /// given: how `--binary` reads a file, as rg's memory maps would.
    pub mmap: Option<bool>,
    /// `-E/--encoding`: how files are decoded first.
    pub decoding: crate::document::Decoding,
    pub globs: Vec<String>,
    /// `--iglob` values, matched in any case.
    pub iglobs: Vec<String>,
    pub types: Vec<String>,
    /// `-T`: types left out.
    pub types_not: Vec<String>,
    /// `--max-depth`.
    pub max_depth: Option<usize>,
    pub before: usize,
    pub after: usize,
    pub max_count: Option<usize>,
    pub max_lines: usize,
    /// Extra thesaurus layers (`--thesaurus`).
    pub thesauri: Vec<PathBuf>,
    /// Whether the embedded thesaurus is used.
    pub builtin_thesaurus: bool,
    pub mode: Mode,
    pub llm: LlmPolicy,
    /// What set `llm`, as a user would write it (`--rlm`, `KGREP_LLM=off`,
    /// `llm = "always"`, …), for messages.
    pub llm_from: String,
    pub model: ModelSettings,
    /// `--dry-run`: print the model requests instead of sending them.
    pub dry_run: bool,
    /// `--explain` (or `-v`): each printed line's score on stderr.
    pub explain: bool,
    /// `--features`: print the candidates' ranking features instead of results.
    pub features: bool,
    /// The sufficiency judge's thresholds (config keys `judge_*`).
    pub judge: Thresholds,
    /// Prompt budget of a query's model calls together; of each selection
    /// request with `--rlm` (config `prompt_tokens`).
    pub prompt_tokens: usize,
    pub verbose: bool,
    pub yes: bool,
    pub stdout_is_tty: bool,
    /// Write ANSI colours (`--color`, resolved against the terminal and NO_COLOR).
    pub color: bool,
    /// Colour the answer header on stderr (`--color`, resolved against stderr
    /// and NO_COLOR).
    pub answer_color: bool,
    /// `--json`: JSON Lines instead of the grep-style layout.
    pub json: bool,
    /// `-l`, `-c`, `-q`: what the grep-style layout lists.
    pub listing: Listing,
    /// `--files`: list the files that would be searched; search nothing.
    pub files: bool,
    /// `-F`: the pattern is a literal, whatever it looks like.
    pub fixed_strings: bool,
    /// `-e` given twice or more: the patterns, any of which matches (then
    /// `query` is empty). One `-e` is the query.
    pub patterns: Vec<String>,
    /// `-f` gave only files with no line: nothing can match (exit 1, as rg).
    pub nothing_to_match: bool,
    /// `--include-zero`: `-c` lists the files with no match too (`:0`).
    pub include_zero: bool,
    /// `--no-messages`: errors about files are counted, not printed.
    pub no_messages: bool,
    /// `-i`, `-s`, `-S`, `-w`, `-x`: how a literal or regex query matches.
    pub matching: Matching,
    /// `--trim`: printed lines lose their leading whitespace.
    pub trim: bool,
    /// `--context-separator` (escapes read) or `--no-context-separator`.
    pub group_separator: crate::render::grep::GroupSeparator,
    /// `--field-match-separator` and `--field-context-separator` (escapes read).
    pub fields: crate::render::grep::FieldSeparators,
    /// `-b`: each printed line's byte offset in its file.
    pub byte_offset: bool,
    /// `--path-separator`: the byte printed for each `/` of a path.
    pub path_separator: Option<u8>,
    /// `-0`/`--null`: listed paths end with a NUL byte (`grep::GrepOptions::null`).
    pub null: bool,
    /// `-z`: compressed files are searched as what they decompress to.
    pub search_zip: bool,
    /// `--pre`: the command files are read through (none when empty or
    /// `--no-pre`), and `--pre-glob`'s globs (checked here).
    pub pre: Option<PathBuf>,
    pub pre_globs: Vec<String>,
    /// `-L`: follow symlinks while walking.
    pub follow: bool,
    /// Files that are secrets by nature (`.env`, keys, credentials:
    /// `llm::redact::is_secret_file`) are skipped, even when named. Never on
    /// the command line; an MCP tool call sets it (`mcp::tools`).
    pub withhold_secrets: bool,
    /// A FIFO named as a path is read (waiting for its writer), as rg reads
    /// one; an MCP tool call turns it off (`mcp::tools`): a pipe nobody
    /// writes would hold the server, and every call after it, forever.
    pub reads_pipes: bool,
    /// `-N`: no line numbers.
    pub no_line_number: bool,
    /// `-I`: no file paths.
    pub no_filename: bool,
    /// `--column`: a match line's first column after its number.
    pub column: bool,
    /// `-M` (0 and absent: `None`) and `--max-columns-preview`.
    pub max_columns: Option<crate::render::grep::MaxColumns>,
    /// `--no-ignore-vcs`, `--no-ignore-dot`, … and `--one-file-system`.
    pub ignores: crate::walk::IgnoreRules,
    /// `--type-clear` and `--type-add`.
    pub type_edits: crate::walk::TypeEdits,
    /// `--max-filesize`: walked files larger than this are skipped.
    pub max_filesize: Option<u64>,
    /// `--ignore-file`: more ignore rules, rooted at the current directory.
    pub ignore_files: Vec<PathBuf>,
    /// `-j`: threads to walk and search with (0: one a core).
    pub threads: usize,
    /// `--colors`: the colours of paths, line numbers, columns and matches.
    pub palette: crate::render::style::Palette,
    /// `--line-buffered`: flush the results at every line.
    pub line_buffered: bool,
    /// `-o`: print only the matched parts of each match line.
    pub only_matching: bool,
    /// `--replace`: what each match prints as (the pattern is then a regex).
    pub replace: Option<String>,
    /// `--stats`: ripgrep's statistics after the results.
    pub stats: bool,
    /// `--no-heading` (`Some(false)`) or `--vimgrep` (`Some(true)`): ripgrep's
    /// flat lines, with columns for `--vimgrep`.
    pub flat: Option<bool>,
    /// `--sort` (false) or `--sortr` (true): the printed files' order.
    pub sort: Option<(SortBy, bool)>,
    /// `--token-budget`: the most tokens of results to print (estimated).
    pub token_budget: Option<usize>,
    /// Keep what the model teaches (off with `--no-learn`, `learn = false`,
    /// `--offline` or `llm = "off"`).
    pub learn: bool,
    /// Which thesaurus learned concepts go to (`--learn-to`, `learn_to`).
    pub learn_to: LearnTo,
    /// `HOME` and the XDG folders, as the process had them (read once).
    pub dirs: crate::paths::Env,
}

impl Plan {
    /// Whether the output prints a place in a file's bytes (`-b`'s and
    /// `--json`'s offsets, `--column`'s and `--vimgrep`'s columns, the length
    /// `-M` measures): only then is reading asked to record where a file's
    /// text lies in its bytes (`document::ReadOptions::offsets`).
    pub fn prints_file_places(&self) -> bool {
        self.byte_offset
            || self.json
            || self.column
            || self.flat == Some(true)
            || self.max_columns.is_some()
    }
}

/// A plan that cannot be made; each is a usage error (exit 2).
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PlanError {
    #[error("missing pattern")]
    MissingPattern,
    #[error("{0}: {1}")]
    PatternFile(String, String),
    #[error("blank pattern: the query is only whitespace")]
    BlankPattern,
    #[error("--pre-glob: {0}")]
    PreGlob(String),
    /// A `-g`/`--iglob` glob, or a `--type-add`/`--type-clear` edit, that
    /// does not build (the walk's own message).
    #[error("{0}")]
    Filter(String),
    #[error(
        "a path separator must be exactly one byte, but the given separator is {1} bytes: {0}"
    )]
    PathSeparator(String, usize),
    #[error("--signature/--signature-json cannot be combined with --answer or --answer-only")]
    SignatureWithAnswer,
    #[error("no input paths and stdin is empty")]
    PathsFromTerminal,
    #[error("'-' (stdin) is searched only as the sole path; pipe the other files' text in too, or name them without '-'")]
    StdinAmongPaths,
    #[error("invalid KGREP_LLM value '{0}' (expected auto, off or always)")]
    BadLlmEnv(String),
    #[error("invalid llm value '{0}' in config (expected auto, off or always)")]
    BadLlmConfig(String),
    #[error("invalid learn_to value '{0}' in config (expected user or project)")]
    BadLearnTo(String),
    /// A `--colors` spec that does not parse: rg's message.
    #[error("{0}")]
    Colors(String),
}

/// A byte count as the regex engine takes it (a size past `usize` is as good
/// as no limit).
fn clamp_size(bytes: u64) -> usize {
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// Resolves flags, config and environment into a plan.
pub fn plan(mut flags: Flags, config: &Config, env: &Env) -> Result<Plan, PlanError> {
    let from_files = pattern_files(&flags.pattern_files)?;
    // `--files` searches nothing, and `-e` or `-f` gives the patterns: either
    // way, what reads as the pattern is a path (as in ripgrep).
    let listed = !flags.pattern_files.is_empty();
    if flags.files || !flags.regexps.is_empty() || listed {
        if let Some(path) = flags.pattern.take() {
            flags.paths.insert(0, PathBuf::from(path));
        }
    }
    // A pattern from a file is always a regex (or a literal with -F), so
    // with -f even one pattern goes to `patterns`. So does a lone `-e` that
    // is empty or only whitespace: `rg -e ''` matches every line and `rg -e
    // ' '` every line holding a space, as regexes; there is nothing to read
    // as natural language. A blank PATTERN stays a usage error (rlmgrep's
    // contract, case `empty_pattern`: "missing pattern", exit 2).
    // `-F ''` is the empty literal, which every line holds: `rg -F ''`
    // matches every line, as `-e ''` does. rlmgrep has no -F, so no
    // rlmgrep command line reaches this.
    if flags.fixed_strings && flags.pattern.as_deref() == Some("") {
        flags.pattern = None;
        flags.regexps.push(String::new());
    }
    let blank_regexp = matches!(flags.regexps.as_slice(), [one] if one.trim().is_empty());
    let patterns = if flags.regexps.len() > 1 || listed || blank_regexp {
        let mut all = std::mem::take(&mut flags.regexps);
        all.extend(from_files);
        all
    } else {
        Vec::new()
    };
    let nothing_to_match = listed && patterns.is_empty();
    let query = match flags.regexps.pop() {
        Some(one) => one,
        None => flags.pattern.clone().unwrap_or_default(),
    };
    let searching = !flags.files && patterns.is_empty() && !nothing_to_match;
    if query.is_empty() && searching {
        return Err(PlanError::MissingPattern);
    }
    // `-F '  '` searches the spaces, as a quoted query does.
    if query.trim().is_empty() && searching && !flags.fixed_strings {
        // Nothing to rank and nothing a reader would search for on purpose
        // ('"   "' quoted still searches the spaces).
        return Err(PlanError::BlankPattern);
    }
    // `--engine auto`: -P's engine for a pattern only it runs.
    let pcre2 = flags.pcre2
        || (flags.engine == Some(Engine::Auto)
            && std::iter::once(&query)
                .chain(&patterns)
                .any(|p| crate::search::fancy::only_it_runs(p, flags.fixed_strings)));
    let mode = mode(&flags)?;
    let input = input(&flags, env)?;
    let (llm, llm_from) = llm_policy(&flags, config, env)?;
    let context = flags.context.unwrap_or(0);
    let learn_to = learn_target(&flags, config)?;
    let learn = !flags.no_learn && config.learn != Some(false) && llm != LlmPolicy::Off;
    // A bad glob or type definition is a usage error before any walk, one
    // line, as rg's is (it was reported by the walk, then "no readable files").
    crate::walk::check_filter(
        &flags.globs,
        &flags.iglobs,
        &flags.types,
        &flags.types_not,
        &flags.type_edits(),
    )
    .map_err(PlanError::Filter)?;
    Ok(Plan {
        dirs: env.dirs.clone(),
        query,
        input,
        recursive: !flags.no_recursive,
        hidden: flags.hidden || flags.unrestricted >= 2,
        no_ignore: flags.no_ignore || flags.unrestricted >= 1,
        // The last of -a, --binary, --no-text and --no-binary is the only one
        // left set (clap's overrides); -uuu is --binary unless -a, and
        // --null-data implies -a, whatever the order, as in rg 13.
        text: flags.text || flags.null_data,
        binary: (flags.binary || flags.unrestricted >= 3) && !flags.text && !flags.null_data,
        null_data: flags.null_data,
        mmap: match (flags.mmap, flags.no_mmap) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        decoding: flags.encoding.unwrap_or_default(),
        globs: if flags.glob_case_insensitive {
            Vec::new()
        } else {
            flags.globs.clone()
        },
        // --glob-case-insensitive: every -g is an --iglob.
        iglobs: if flags.glob_case_insensitive {
            flags.globs.iter().chain(&flags.iglobs).cloned().collect()
        } else {
            flags.iglobs.clone()
        },
        types: flags.types.clone(),
        types_not: flags.types_not.clone(),
        type_edits: flags.type_edits(),
        max_depth: flags.max_depth,
        before: flags.before.unwrap_or(context),
        after: flags.after.unwrap_or(context),
        max_count: flags.max_count,
        max_lines: flags
            .max_lines
            .or(config.max_lines)
            .unwrap_or(DEFAULT_MAX_LINES),
        thesauri: flags.thesaurus.clone(),
        builtin_thesaurus: !flags.no_builtin_thesaurus,
        mode,
        llm,
        llm_from,
        model: model_settings(&flags, config),
        dry_run: flags.dry_run,
        explain: flags.explain || flags.verbose,
        features: flags.features,
        judge: judge_thresholds(config),
        prompt_tokens: config
            .prompt_tokens
            .unwrap_or(crate::llm::prompt::DEFAULT_PROMPT_TOKENS),
        verbose: flags.verbose,
        yes: flags.yes,
        stdout_is_tty: env.stdout_is_tty,
        color: color(flags.color, env.stdout_is_tty, env),
        answer_color: color(flags.color, env.stderr_is_tty, env),
        palette: crate::render::style::Palette::from_specs(&flags.colors)
            .map_err(PlanError::Colors)?,
        json: flags.json,
        listing: listing(&flags),
        files: flags.files,
        fixed_strings: flags.fixed_strings,
        patterns,
        nothing_to_match,
        no_messages: flags.no_messages,
        include_zero: flags.include_zero,
        matching: Matching {
            ignore_case: flags.ignore_case,
            smart_case: flags.smart_case,
            word: flags.word_regexp,
            line: flags.line_regexp,
            multiline: flags.multiline,
            dotall: flags.multiline_dotall,
            pcre2,
            ascii: flags.no_unicode,
            size_limit: flags.regex_size_limit.map(clamp_size),
            dfa_size_limit: flags.dfa_size_limit.map(clamp_size),
            invert: flags.invert_match,
            // Lists, counts and -q are what they are without it, as in rg.
            passthru: flags.passthru && listing(&flags) == Listing::Lines,
            null_data: flags.null_data,
        },
        // --count-matches counts what -o would print. An inverted line holds
        // no match: it prints whole and counts once, as in rg.
        line_buffered: flags.line_buffered,
        only_matching: (flags.only_matching || flags.count_matches) && !flags.invert_match,
        replace: flags.replace.clone(),
        stats: flags.stats,
        follow: flags.follow,
        withhold_secrets: false,
        reads_pipes: true,
        max_filesize: flags.max_filesize,
        ignores: crate::walk::IgnoreRules {
            vcs: !flags.no_ignore_vcs,
            dot: !flags.no_ignore_dot,
            parent: !flags.no_ignore_parent,
            global: !flags.no_ignore_global,
            exclude: !flags.no_ignore_exclude,
            files: !flags.no_ignore_files,
            require_git: !flags.no_require_git,
            one_file_system: flags.one_file_system,
            case_insensitive: flags.ignore_file_case_insensitive,
            messages: !flags.no_ignore_messages,
        },
        no_line_number: flags.no_line_number,
        no_filename: flags.no_filename,
        // An inverted line holds no match, so no column, as in rg.
        column: flags.column && !flags.invert_match,
        max_columns: flags.max_columns.filter(|&max| max > 0).map(|max| {
            crate::render::grep::MaxColumns {
                max,
                preview: flags.max_columns_preview,
            }
        }),
        ignore_files: flags.ignore_files.clone(),
        trim: flags.trim,
        group_separator: group_separator(&flags),
        fields: field_separators(&flags),
        byte_offset: flags.byte_offset,
        path_separator: path_separator(&flags)?,
        null: flags.null,
        search_zip: flags.search_zip,
        pre: flags
            .pre
            .clone()
            .filter(|command| !flags.no_pre && !command.is_empty())
            .map(PathBuf::from),
        pre_globs: checked_pre_globs(&flags)?,
        threads: flags.threads.unwrap_or(0).min(MAX_THREADS),
        flat: if flags.vimgrep {
            Some(!flags.invert_match)
        } else {
            flags.no_heading.then_some(false)
        },
        sort: flags
            .sort
            .map(|by| (by, false))
            .or(flags.sortr.map(|by| (by, true))),
        token_budget: flags.token_budget,
        learn,
        learn_to,
    })
}

/// `--learn-to`, else the config's `learn_to`, else the user's thesaurus.
pub fn learn_target(flags: &Flags, config: &Config) -> Result<LearnTo, PlanError> {
    if let Some(to) = flags.learn_to {
        return Ok(to);
    }
    match config.learn_to.as_deref().map(str::trim) {
        None => Ok(LearnTo::User),
        Some(v) if v.eq_ignore_ascii_case("user") => Ok(LearnTo::User),
        Some(v) if v.eq_ignore_ascii_case("project") => Ok(LearnTo::Project),
        Some(v) => Err(PlanError::BadLearnTo(v.to_string())),
    }
}

/// `--color` for one stream: an explicit choice wins over NO_COLOR; `auto`
/// (the default) colours only a terminal, and only without NO_COLOR.
fn color(choice: Option<ColorChoice>, is_tty: bool, env: &Env) -> bool {
    match choice.unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_tty && !env.no_color,
    }
}

/// The patterns of `-f` files, one a line (a `\r\n` ending dropped), in order;
/// `-` reads stdin. A file that cannot be read is an error (exit 2), as in rg.
fn pattern_files(files: &[PathBuf]) -> Result<Vec<String>, PlanError> {
    let mut patterns = Vec::new();
    for file in files {
        let bytes = if file.as_os_str() == "-" {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map(|_| bytes)
        } else {
            std::fs::read(file)
        }
        .map_err(|err| PlanError::PatternFile(file.display().to_string(), err.to_string()))?;
        let text = String::from_utf8_lossy(&bytes);
        // `lines` drops each line's `\n` and a `\r` before it.
        patterns.extend(text.lines().map(str::to_string));
    }
    Ok(patterns)
}

/// `--context-separator` (rg's escapes read) or `--no-context-separator`
/// (clap keeps only the later of the two).
fn group_separator(flags: &Flags) -> crate::render::grep::GroupSeparator {
    use crate::render::grep::GroupSeparator;
    match &flags.context_separator {
        _ if flags.no_context_separator => GroupSeparator(None),
        Some(separator) => GroupSeparator(Some(<Vec<u8> as ByteVec>::unescape_bytes(separator))),
        None => GroupSeparator::default(),
    }
}

/// The most threads `-j` gives the walk. Its idle threads look to each other
/// for work, so past a few dozen they cost more than they find: on a
/// 34-file tree (2 cores) `-j 256` walked in 0.07 s, `-j 500` in 2 s and `-j
/// 1000` in 11 s, where rg 13's older walker takes 0.06 s. More threads than
/// this would only wait on the disk.
pub const MAX_THREADS: usize = 64;

/// `--path-separator`: one byte once its escapes are read (`\\`, `\t`,
/// `\x5C`), as rg wants it (an empty value is none).
fn path_separator(flags: &Flags) -> Result<Option<u8>, PlanError> {
    let Some(given) = flags.path_separator.as_deref() else {
        return Ok(None);
    };
    match <Vec<u8> as ByteVec>::unescape_bytes(given).as_slice() {
        [] => Ok(None),
        &[byte] => Ok(Some(byte)),
        bytes => Err(PlanError::PathSeparator(given.to_string(), bytes.len())),
    }
}

/// `--pre-glob`'s globs, each checked as `--pre` will use it (an invalid
/// one is a usage error that names it).
fn checked_pre_globs(flags: &Flags) -> Result<Vec<String>, PlanError> {
    let mut builder = ignore::overrides::OverrideBuilder::new(".");
    for glob in &flags.pre_globs {
        builder
            .add(glob)
            .map_err(|err| PlanError::PreGlob(err.to_string()))?;
    }
    Ok(flags.pre_globs.clone())
}

/// `--field-match-separator` and `--field-context-separator`, rg's escapes
/// read; `:` and `-` when not given.
fn field_separators(flags: &Flags) -> crate::render::grep::FieldSeparators {
    let unescaped =
        |given: &Option<String>| given.as_deref().map(<Vec<u8> as ByteVec>::unescape_bytes);
    let default = crate::render::grep::FieldSeparators::default();
    crate::render::grep::FieldSeparators {
        matched: unescaped(&flags.field_match_separator).unwrap_or(default.matched),
        context: unescaped(&flags.field_context_separator).unwrap_or(default.context),
    }
}

/// `-q` wins over `-l` and `-c` (as in ripgrep); clap keeps `-l` and `-c` apart.
fn listing(flags: &Flags) -> Listing {
    if flags.quiet {
        Listing::Quiet
    } else if flags.files_with_matches {
        Listing::Files
    } else if flags.files_without_match {
        Listing::FilesWithout
    } else if flags.count || flags.count_matches {
        Listing::Counts
    } else {
        Listing::Lines
    }
}

fn mode(flags: &Flags) -> Result<Mode, PlanError> {
    let signature = match (&flags.signature, &flags.signature_json) {
        (Some(s), _) => Some(Mode::Signature(s.clone())),
        (None, Some(s)) => Some(Mode::SignatureJson(s.clone())),
        (None, None) => None,
    };
    match signature {
        Some(_) if flags.answer || flags.answer_only => Err(PlanError::SignatureWithAnswer),
        Some(mode) => Ok(mode),
        None if flags.answer_only => Ok(Mode::AnswerOnly),
        None if flags.answer => Ok(Mode::Answer),
        None => Ok(Mode::Grep),
    }
}

/// Whether a path argument is `-`, rg's and grep's name for stdin (a file
/// named `-` is `./-`).
fn is_stdin_path(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

fn input(flags: &Flags, env: &Env) -> Result<Input, PlanError> {
    if flags.paths_from_stdin {
        if env.stdin_is_tty {
            return Err(PlanError::PathsFromTerminal);
        }
        return Ok(Input::PathsFromStdin {
            also: flags.paths.clone(),
            null: flags.null,
        });
    }
    // `-` names stdin, as in rg and grep (`git diff | kgrep q -`), whatever
    // stdin is. Beside other paths it would need a walk that also reads
    // stdin: refused rather than reported as a missing file.
    let dash = flags.paths.iter().filter(|p| is_stdin_path(p)).count();
    if dash > 0 && !flags.files && !env.stdin_reserved {
        return if dash == flags.paths.len() {
            Ok(Input::Stdin)
        } else {
            Err(PlanError::StdinAmongPaths)
        };
    }
    // `--files` lists a tree, never stdin (as `rg --files`).
    if !flags.paths.is_empty() || flags.files {
        return Ok(Input::Paths(flags.paths.clone()));
    }
    if env.stdin_readable {
        Ok(Input::Stdin)
    } else {
        Ok(Input::Paths(Vec::new()))
    }
}

fn judge_thresholds(c: &Config) -> Thresholds {
    let d = Thresholds::default();
    Thresholds {
        coverage: c.judge_coverage.unwrap_or(d.coverage),
        // One key for every judge: a user who sets it means it.
        confidence: c.judge_confidence.unwrap_or(d.confidence),
        learned_confidence: c.judge_confidence.unwrap_or(d.learned_confidence),
        question_confidence: c.judge_confidence.unwrap_or(d.question_confidence),
        diversity: c.judge_diversity.unwrap_or(d.diversity),
        min_results: c.judge_min_results.unwrap_or(d.min_results),
    }
}

/// The LLM policy and what set it: `--offline`, then a config that could
/// not be read whole where it mattered (`Config::closed`), then
/// `KGREP_LLM=off` (the safety switch), then `--rlm`, then `KGREP_LLM`, then
/// the config's `llm`, then `auto`. A bad `KGREP_LLM` is an error (nothing is
/// sent).
fn llm_policy(flags: &Flags, config: &Config, env: &Env) -> Result<(LlmPolicy, String), PlanError> {
    let from_env = match env.kgrep_llm.as_deref().filter(|v| !v.is_empty()) {
        Some(value) => Some((
            LlmPolicy::parse(value).ok_or_else(|| PlanError::BadLlmEnv(value.to_string()))?,
            format!("KGREP_LLM={value}"),
        )),
        None => None,
    };
    if flags.offline {
        return Ok((LlmPolicy::Off, "--offline".into()));
    }
    // Fail closed: a config line that could not be read may have switched
    // the model off or pointed it elsewhere; nothing overrides that but
    // fixing the file.
    if let Some(why) = &config.closed {
        return Ok((LlmPolicy::Off, why.clone()));
    }
    if let Some(off) = from_env.clone().filter(|(p, _)| *p == LlmPolicy::Off) {
        return Ok(off);
    }
    if flags.rlm {
        return Ok((LlmPolicy::Always, "--rlm".into()));
    }
    // Nothing is printed: the offline results say whether anything matched,
    // and a model call would spend tokens on lines nobody reads.
    if flags.quiet {
        return Ok((LlmPolicy::Off, "-q".into()));
    }
    if let Some(env) = from_env {
        return Ok(env);
    }
    match config.llm.as_deref() {
        Some(value) => LlmPolicy::parse(value)
            .map(|p| (p, format!("llm = \"{}\" in the config", value.trim())))
            .ok_or_else(|| PlanError::BadLlmConfig(value.to_string())),
        None => Ok((LlmPolicy::Auto, "the default llm = \"auto\"".into())),
    }
}

fn model_settings(f: &Flags, c: &Config) -> ModelSettings {
    ModelSettings {
        model: f.model.clone().or_else(|| c.model.clone()),
        sub_model: f.sub_model.clone().or_else(|| c.sub_model.clone()),
        api_base: f.api_base.clone().or_else(|| c.api_base.clone()),
        api_key: f.api_key.clone().or_else(|| c.api_key.clone()),
        model_type: f.model_type.clone().or_else(|| c.model_type.clone()),
        temperature: f.temperature.or(c.temperature),
        top_p: f.top_p.or(c.top_p),
        max_tokens: f.max_tokens.or(c.max_tokens),
        sub_api_base: f.sub_api_base.clone().or_else(|| c.sub_api_base.clone()),
        sub_api_key: f.sub_api_key.clone().or_else(|| c.sub_api_key.clone()),
        sub_model_type: f
            .sub_model_type
            .clone()
            .or_else(|| c.sub_model_type.clone()),
        sub_temperature: f.sub_temperature.or(c.sub_temperature),
        sub_top_p: f.sub_top_p.or(c.sub_top_p),
        sub_max_tokens: f.sub_max_tokens.or(c.sub_max_tokens),
        max_iterations: f.max_iterations.or(c.max_iterations),
        max_llm_calls: f.max_llm_calls.or(c.max_llm_calls),
        timeout_secs: c.llm_timeout,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use clap::Parser;

    fn flags(args: &[&str]) -> Flags {
        Flags::try_parse_from(std::iter::once("kgrep").chain(args.iter().copied())).unwrap()
    }

    fn plan_of(args: &[&str]) -> Result<Plan, PlanError> {
        plan(flags(args), &Config::default(), &Env::default())
    }

    /// `-j` is the walk's thread count up to [`MAX_THREADS`]: a parallel
    /// walk's idle threads look to each other for work, and thousands of
    /// them took seconds on a tree of 34 files.
    #[test]
    fn threads_are_capped_for_the_walk() {
        assert_eq!(plan_of(&["-j", "3", "x"]).unwrap().threads, 3);
        assert_eq!(plan_of(&["x"]).unwrap().threads, 0);
        assert_eq!(plan_of(&["-j", "2000", "x"]).unwrap().threads, MAX_THREADS);
    }

    #[test]
    fn regexp_patterns_take_the_pattern_slot_and_the_positionals_are_paths() {
        // One -e is the query; the positional that would be it is a path.
        let p = plan_of(&["-e", "-x", "src", "docs"]).unwrap();
        assert_eq!(p.query, "-x");
        assert!(p.patterns.is_empty());
        assert_eq!(p.input, Input::Paths(vec!["src".into(), "docs".into()]));
        // Two or more are kept as patterns; the query is empty and no error.
        let p = plan_of(&["-e", "a", "--regexp", "", "src"]).unwrap();
        assert_eq!(p.patterns, vec!["a".to_string(), String::new()]);
        assert_eq!(p.query, "");
        assert_eq!(p.input, Input::Paths(vec!["src".into()]));
        // A lone blank -e is a regex, as rg reads it (`rg -e ''` matches
        // every line), an empty one too; a blank PATTERN is refused.
        for blank in [" ", ""] {
            let p = plan_of(&["-e", blank, "src"]).unwrap();
            assert_eq!(p.patterns, vec![blank.to_string()]);
            assert_eq!(p.input, Input::Paths(vec!["src".into()]));
        }
    }

    #[test]
    fn the_last_case_flag_wins() {
        let m = |args: &[&str]| plan_of(args).unwrap().matching;
        assert!(m(&["-i", "q"]).ignore_case);
        assert!(!m(&["-i", "-s", "q"]).ignore_case);
        let smart = m(&["-i", "-S", "q"]);
        assert!(smart.smart_case && !smart.ignore_case);
        let insensitive = m(&["-S", "-i", "q"]);
        assert!(insensitive.ignore_case && !insensitive.smart_case);
        assert!(!m(&["-S", "--case-sensitive", "q"]).smart_case);
    }

    #[test]
    fn learning_is_on_unless_a_flag_the_config_or_the_policy_says_no() {
        let p = plan_of(&["q"]).unwrap();
        assert!(p.learn);
        assert_eq!(p.learn_to, LearnTo::User);
        assert!(!plan_of(&["--no-learn", "q"]).unwrap().learn);
        assert!(!plan_of(&["--offline", "q"]).unwrap().learn);
        let off = Config {
            learn: Some(false),
            ..Config::default()
        };
        assert!(!plan(flags(&["q"]), &off, &Env::default()).unwrap().learn);
        let project = Config {
            learn_to: Some("Project".into()),
            ..Config::default()
        };
        let p = plan(flags(&["q"]), &project, &Env::default()).unwrap();
        assert_eq!(p.learn_to, LearnTo::Project);
        let p = plan(
            flags(&["--learn-to", "user", "q"]),
            &project,
            &Env::default(),
        )
        .unwrap();
        assert_eq!(p.learn_to, LearnTo::User, "the flag wins");
        let bad = Config {
            learn_to: Some("nowhere".into()),
            ..Config::default()
        };
        assert_eq!(
            plan(flags(&["q"]), &bad, &Env::default()),
            Err(PlanError::BadLearnTo("nowhere".into()))
        );
    }

    #[test]
    fn thesaurus_commands_exclude_each_other() {
        let both = Flags::try_parse_from(["kgrep", "--thesaurus-list", "--thesaurus-forget", "x"]);
        assert!(both.is_err());
    }

    #[test]
    fn missing_or_empty_pattern() {
        assert_eq!(plan_of(&[]).unwrap_err(), PlanError::MissingPattern);
        assert_eq!(plan_of(&["", "."]).unwrap_err(), PlanError::MissingPattern);
        assert_eq!(
            plan_of(&["  \t ", "."]).unwrap_err(),
            PlanError::BlankPattern
        );
        assert!(plan_of(&["\"   \"", "."]).is_ok());
        // rg's empty literal, as `-e ''` is rg's empty regex.
        let every_line = plan_of(&["-F", "", "."]).expect("-F ''");
        assert_eq!(every_line.patterns, vec![String::new()]);
    }

    #[test]
    fn signature_with_answer_is_rejected() {
        assert_eq!(
            plan_of(&["--signature", "a: str", "--answer", "q"]).unwrap_err(),
            PlanError::SignatureWithAnswer
        );
        assert_eq!(
            plan_of(&["--signature-json", "a: str", "--answer-only", "q"]).unwrap_err(),
            PlanError::SignatureWithAnswer
        );
        assert_eq!(
            plan_of(&["--signature-json", "a: str", "q"]).unwrap().mode,
            Mode::SignatureJson("a: str".into())
        );
        assert_eq!(
            plan_of(&["--answer", "--answer-only", "q"]).unwrap().mode,
            Mode::AnswerOnly
        );
    }

    #[test]
    fn uuu_is_binary_unless_text_and_null_data_is_text() {
        let got = |args: &[&str]| {
            let p = plan_of(&[args, &["q"][..]].concat()).unwrap();
            (p.text, p.binary, p.null_data)
        };
        assert_eq!(got(&["-uuu"]), (false, true, false));
        assert_eq!(got(&["-uuu", "--no-binary"]), (false, true, false));
        assert_eq!(got(&["-a", "-uuu"]), (true, false, false));
        assert_eq!(got(&["--binary", "--null-data"]), (true, false, true));
        let mmap = |args: &[&str]| plan_of(&[args, &["q"][..]].concat()).unwrap().mmap;
        assert_eq!(mmap(&[]), None);
        assert_eq!(mmap(&["--no-mmap", "--mmap"]), Some(true));
        assert_eq!(mmap(&["--mmap", "--no-mmap"]), Some(false));
    }

    #[test]
    fn context_sides_override_c() {
        let p = plan_of(&["-C", "3", "-A", "1", "q"]).unwrap();
        assert_eq!((p.before, p.after), (3, 1));
        let p = plan_of(&["-B", "2", "q"]).unwrap();
        assert_eq!((p.before, p.after), (2, 0));
    }

    #[test]
    fn input_selection() {
        let piped = Env {
            stdin_readable: true,
            ..Env::default()
        };
        let tty = Env {
            stdin_is_tty: true,
            ..Env::default()
        };
        assert_eq!(
            plan(flags(&["q"]), &Config::default(), &piped)
                .unwrap()
                .input,
            Input::Stdin
        );
        assert_eq!(
            plan(flags(&["q"]), &Config::default(), &tty).unwrap().input,
            Input::Paths(Vec::new())
        );
        assert_eq!(
            plan(flags(&["q", "src"]), &Config::default(), &piped)
                .unwrap()
                .input,
            Input::Paths(vec!["src".into()])
        );
        assert_eq!(
            plan(
                flags(&["--paths-from-stdin", "q"]),
                &Config::default(),
                &piped
            )
            .unwrap()
            .input,
            Input::PathsFromStdin {
                also: Vec::new(),
                null: false
            }
        );
        assert_eq!(
            plan(
                flags(&["--paths-from-stdin", "-0", "q", "src", "b.py"]),
                &Config::default(),
                &piped
            )
            .unwrap()
            .input,
            Input::PathsFromStdin {
                also: vec!["src".into(), "b.py".into()],
                null: true
            }
        );
        assert_eq!(
            plan(
                flags(&["--paths-from-stdin", "q"]),
                &Config::default(),
                &tty
            )
            .unwrap_err(),
            PlanError::PathsFromTerminal
        );
        // `-` is stdin, as in rg, piped or not; beside other paths, refused.
        for env in [&piped, &tty] {
            for args in [&["q", "-"][..], &["q", "-", "-"]] {
                let got = plan(flags(args), &Config::default(), env).unwrap();
                assert_eq!(got.input, Input::Stdin);
            }
            assert_eq!(
                plan(flags(&["q", "-", "src"]), &Config::default(), env).unwrap_err(),
                PlanError::StdinAmongPaths
            );
            assert_eq!(
                plan(flags(&["q", "./-"]), &Config::default(), env)
                    .unwrap()
                    .input,
                Input::Paths(vec!["./-".into()])
            );
        }
        // The MCP server's stdin is its protocol: `-` is a file name there.
        let reserved = Env {
            stdin_reserved: true,
            ..Env::default()
        };
        assert_eq!(
            plan(flags(&["q", "-"]), &Config::default(), &reserved)
                .unwrap()
                .input,
            Input::Paths(vec!["-".into()])
        );
    }

    #[test]
    fn flags_override_config_and_env_sets_policy() {
        let config = crate::config::parse("model = \"c\"\nmax_lines = 7\nllm = \"off\"\n").unwrap();
        let p = plan(flags(&["--model", "f", "q"]), &config, &Env::default()).unwrap();
        assert_eq!(p.model.model.as_deref(), Some("f"));
        assert_eq!(p.max_lines, 7);
        assert_eq!(p.llm, LlmPolicy::Off);
        let env = Env {
            kgrep_llm: Some("always".into()),
            ..Env::default()
        };
        assert_eq!(
            plan(flags(&["q"]), &config, &env).unwrap().llm,
            LlmPolicy::Always
        );
        let env = Env {
            kgrep_llm: Some("sometimes".into()),
            ..Env::default()
        };
        assert!(matches!(
            plan(flags(&["q"]), &config, &env),
            Err(PlanError::BadLlmEnv(_))
        ));
        assert_eq!(plan_of(&["--max-lines", "3", "q"]).unwrap().max_lines, 3);
        assert_eq!(plan_of(&["q"]).unwrap().max_lines, DEFAULT_MAX_LINES);
    }

    #[test]
    fn kgrep_llm_off_wins_over_every_flag_and_the_config() {
        let off = Env {
            kgrep_llm: Some("off".into()),
            ..Env::default()
        };
        let always = crate::config::parse("llm = \"always\"\n").unwrap();
        for args in [&["--rlm", "q"][..], &["q"][..]] {
            let p = plan(flags(args), &always, &off).unwrap();
            assert_eq!(p.llm, LlmPolicy::Off, "{args:?}");
            assert_eq!(p.llm_from, "KGREP_LLM=off");
        }
        let on = Env {
            kgrep_llm: Some("always".into()),
            ..Env::default()
        };
        let p = plan(flags(&["--offline", "q"]), &Config::default(), &on).unwrap();
        assert_eq!((p.llm, p.llm_from.as_str()), (LlmPolicy::Off, "--offline"));
        let p = plan(flags(&["--rlm", "q"]), &Config::default(), &Env::default()).unwrap();
        assert_eq!((p.llm, p.llm_from.as_str()), (LlmPolicy::Always, "--rlm"));
        let p = plan(flags(&["q"]), &always, &Env::default()).unwrap();
        assert_eq!(p.llm_from, "llm = \"always\" in the config");
    }

    #[test]
    fn dry_run_reaches_the_plan() {
        assert!(plan_of(&["--dry-run", "q"]).unwrap().dry_run);
        assert!(!plan_of(&["q"]).unwrap().dry_run);
    }

    #[test]
    fn answer_colour_follows_stderr() {
        let with = |args: &[&str], env: &Env| plan(flags(args), &Config::default(), env).unwrap();
        let stderr_tty = Env {
            stderr_is_tty: true,
            ..Env::default()
        };
        let p = with(&["q"], &stderr_tty);
        assert!(p.answer_color && !p.color);
        assert!(!with(&["--color", "never", "q"], &stderr_tty).answer_color);
        assert!(with(&["--color", "always", "q"], &Env::default()).answer_color);
        let no_color = Env {
            no_color: true,
            ..stderr_tty
        };
        assert!(!with(&["q"], &no_color).answer_color);
    }

    #[test]
    fn color_flag_overrides_terminal_detection_and_no_color() {
        let pipe_no_color = Env {
            no_color: true,
            ..Env::default()
        };
        let tty = Env {
            stdout_is_tty: true,
            ..Env::default()
        };
        let with = |args: &[&str], env: &Env| plan(flags(args), &Config::default(), env).unwrap();
        assert!(with(&["--color", "always", "q"], &pipe_no_color).color);
        assert!(!with(&["--color", "never", "q"], &tty).color);
        assert!(with(&["--color", "auto", "q"], &tty).color);
        assert!(!with(&["--color", "auto", "q"], &pipe_no_color).color);
        assert!(!with(&["q"], &Env::default()).color);
        assert!(with(&["--json", "q"], &tty).json);
    }

    #[test]
    fn color_only_on_a_terminal_without_no_color() {
        let tty = Env {
            stdout_is_tty: true,
            ..Env::default()
        };
        assert!(plan(flags(&["q"]), &Config::default(), &tty).unwrap().color);
        let no_color = Env {
            stdout_is_tty: true,
            no_color: true,
            ..Env::default()
        };
        assert!(
            !plan(flags(&["q"]), &Config::default(), &no_color)
                .unwrap()
                .color
        );
    }
}
