//! The raw command line: one clap definition per flag, mirroring rlmgrep's flags
//! one for one, plus kgrep's own.
//!
//! Parsing only validates shapes (numbers are numbers, `--signature` and
//! `--signature-json` exclude each other). Defaults that depend on the config file
//! or the environment are resolved later, in `plan.rs`. The `///` comments are the
//! help text, the man page and the completions, so they are written for users.

use std::path::PathBuf;

use clap::{ArgAction, Parser, ValueEnum};

/// Help headings, in pipeline order.
const INPUT: &str = "Input";
const SEARCH: &str = "Search";
const OUTPUT: &str = "Output";
const MODEL: &str = "Model";
const LEARN: &str = "Learning";
const MISC: &str = "Other";

/// Natural-language code search on the command line: fast, offline-first, and a
/// drop-in replacement for rlmgrep.
///
/// kgrep answers grep-shaped questions ("where is the retry delay computed") by
/// searching the tree lexically and ranking lines against a thesaurus of software
/// concepts. Identifiers, quoted strings and regular expressions are searched
/// exactly, like ripgrep. Output is grep-style: a `./path` heading, then
/// `N:<TAB>text` for matching lines and `N-<TAB>text` for context.
#[derive(Parser, Debug, Clone, Default)]
#[command(
    name = "kgrep",
    version,
    disable_version_flag = true,
    args_override_self = true,
    about,
    long_about = None,
    after_help = "Exit status: 0 if a line was printed, 1 if nothing matched, 2 on error."
)]
pub struct Flags {
    /// The query: natural language, an identifier, a "quoted literal" or a regex.
    #[arg(value_name = "PATTERN")]
    pub pattern: Option<String>,

    /// Files or directories to search (default: `.`, or piped stdin; `-` alone is stdin).
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,

    /// Search directories recursively (the default; accepted for rlmgrep compatibility).
    #[arg(short = 'r', help_heading = INPUT)]
    pub recursive: bool,

    /// Do not descend into directories; only files named on the command line are searched.
    #[arg(long, help_heading = INPUT)]
    pub no_recursive: bool,

    /// Search hidden files and directories.
    #[arg(long, help_heading = INPUT)]
    pub hidden: bool,

    /// Do not respect ignore files (.gitignore, .ignore, .rgignore, git excludes).
    #[arg(long, help_heading = INPUT)]
    pub no_ignore: bool,

    /// Do not respect version control ignore files (.gitignore, git's global
    /// excludes, .git/info/exclude), as `rg --no-ignore-vcs`; .ignore and
    /// .rgignore still hold.
    #[arg(long, help_heading = INPUT)]
    pub no_ignore_vcs: bool,

    /// Do not respect .ignore files, as `rg --no-ignore-dot` (ripgrep 13):
    /// .rgignore files still hold.
    #[arg(long, help_heading = INPUT)]
    pub no_ignore_dot: bool,

    /// Do not respect ignore files in the folders above each path searched,
    /// as `rg --no-ignore-parent`.
    #[arg(long, help_heading = INPUT)]
    pub no_ignore_parent: bool,

    /// Do not respect git's global excludes file, as `rg --no-ignore-global`.
    #[arg(long, help_heading = INPUT)]
    pub no_ignore_global: bool,

    /// Do not respect .git/info/exclude, as `rg --no-ignore-exclude`.
    #[arg(long, help_heading = INPUT)]
    pub no_ignore_exclude: bool,

    /// Do not respect the --ignore-file files, as `rg --no-ignore-files`.
    #[arg(long, help_heading = INPUT)]
    pub no_ignore_files: bool,

    /// Respect .gitignore files outside a git repository too, as `rg
    /// --no-require-git`.
    #[arg(long, help_heading = INPUT)]
    pub no_require_git: bool,

    /// Do not cross into other file systems while walking a path, as `rg
    /// --one-file-system`.
    #[arg(long, help_heading = INPUT)]
    pub one_file_system: bool,

    /// Match every -g glob in any case, as `rg --glob-case-insensitive`.
    #[arg(long, overrides_with = "no_glob_case_insensitive", help_heading = INPUT)]
    pub glob_case_insensitive: bool,

    /// Read the globs of ignore files (.gitignore, .ignore, --ignore-file …) in
    /// any case, as `rg --ignore-file-case-insensitive` does.
    #[arg(long, overrides_with = "no_ignore_file_case_insensitive", help_heading = INPUT)]
    pub ignore_file_case_insensitive: bool,

    /// Do not print the errors found in ignore files (a glob that does not
    /// parse), as `rg --no-ignore-messages` does.
    #[arg(long, overrides_with = "ignore_messages", help_heading = INPUT)]
    pub no_ignore_messages: bool,

    /// Accepted for ripgrep command lines (`--mmap`, `--no-mmap`): kgrep chooses
    /// how it reads each file. With --binary they choose where a file's NUL byte
    /// is noticed, as rg's memory maps do (see --binary).
    #[arg(long, overrides_with = "no_mmap", help_heading = INPUT)]
    pub mmap: bool,

    /// See --mmap.
    #[arg(long, overrides_with = "mmap", hide = true)]
    pub no_mmap: bool,

    /// Accepted for ripgrep command lines: kgrep never reads ripgrep's config
    /// file (RIPGREP_CONFIG_PATH). Its own config files still apply, so that a
    /// flag copied from an rg command line cannot lift a privacy setting.
    #[arg(long, help_heading = INPUT)]
    pub no_config: bool,

    /// Search binary files as text.
    ///
    /// Their raw bytes are searched (invalid UTF-8 shown as U+FFFD), and Office,
    /// OpenDocument, EPUB and HTML files are not converted to text first; PDFs
    /// still are, as in rlmgrep. The last of -a, --binary, --no-text and
    /// --no-binary wins, as in rg.
    #[arg(short = 'a', long = "text", overrides_with_all = ["binary", "no_binary"], help_heading = INPUT)]
    pub text: bool,

    /// Search binary files (a NUL byte) as `rg --binary` does, for a literal or
    /// regex pattern.
    ///
    /// A file's lines print until rg would notice its NUL byte; the search stops
    /// at the next line from there, and `PATH: binary file matches (found … byte
    /// around offset N)` takes the rest's place if the file matched. -c, -l, -q
    /// and --json see every match. Without it a file that holds a NUL byte is
    /// skipped, named on the command line or not (rlmgrep's rule; rg searches a
    /// named file so). As in rg, a file is read as a stream (each NUL a line
    /// end), or through a memory map when at most ten files are named (a NUL in
    /// its first 64 KiB is then noticed before any line): --mmap and --no-mmap
    /// choose. A natural-language query reads binary files as text (-a). -uuu
    /// sets it.
    #[arg(long, overrides_with_all = ["no_binary", "no_text"], help_heading = INPUT)]
    pub binary: bool,

    /// Read lines as ending with a NUL byte instead of a line feed, as `rg
    /// --null-data` does (for `find -print0` lists, `/proc/*/environ`); each
    /// printed line ends with its NUL. Implies -a. The pattern is then a regex
    /// (text with -F), never natural language; `\n` in it matches a line feed
    /// inside a line.
    #[arg(long, help_heading = INPUT)]
    pub null_data: bool,

    /// Decode every file from ENCODING before searching it, as `rg -E` does: a label
    /// of the Encoding Standard (`latin1`, `shift_jis`, `utf-16le`, `euc-kr`, …),
    /// though a byte-order mark still wins. `auto`, the default, decodes only the
    /// files that open with a UTF-16 byte-order mark; `none` decodes nothing (a UTF-16
    /// file is then binary, as rlmgrep reads it).
    #[arg(short = 'E', long, value_name = "ENCODING", value_parser = parse_encoding, help_heading = INPUT)]
    pub encoding: Option<crate::document::Decoding>,

    /// Include only files matching GLOB (ripgrep syntax, `!` negates). Repeatable;
    /// commas separate several globs.
    #[arg(short = 'g', long = "glob", value_name = "GLOB", action = ArgAction::Append, help_heading = INPUT)]
    pub globs: Vec<String>,

    /// Like -g, but the glob matches in any case (`--iglob '*.MD'` selects
    /// `notes.md`), as `rg --iglob` does. Repeatable; commas separate several.
    #[arg(long = "iglob", value_name = "GLOB", action = ArgAction::Append, help_heading = INPUT)]
    pub iglobs: Vec<String>,

    /// Include only files of TYPE (ripgrep's type names, e.g. py, rust, md); `.EXT`
    /// (e.g. `.py`) or an unknown name is a file extension. Repeatable; commas
    /// separate several types.
    #[arg(short = 't', long = "type", value_name = "TYPE", action = ArgAction::Append, help_heading = INPUT)]
    pub types: Vec<String>,

    /// Leave out files of TYPE (the names --type takes), as `rg -T` does.
    /// Repeatable; commas separate several types.
    #[arg(short = 'T', long = "type-not", value_name = "TYPE", action = ArgAction::Append, help_heading = INPUT)]
    pub types_not: Vec<String>,

    /// Search what the walk leaves out, as `rg -u` does: -u ignored files
    /// (--no-ignore), -uu hidden ones too (--hidden), -uuu binary files too
    /// (--binary; -a wins over it).
    #[arg(short = 'u', long = "unrestricted", action = ArgAction::Count, help_heading = INPUT)]
    pub unrestricted: u8,

    /// Descend at most NUM directories below each path given (0: only the paths
    /// themselves), as `rg --max-depth` does.
    #[arg(short = 'd', long = "max-depth", value_name = "NUM", help_heading = INPUT)]
    pub max_depth: Option<usize>,

    /// Use NUM threads to walk and search, as `rg -j` does (0, the default: as many
    /// as the machine has cores). The walk uses at most 64 and the ranking at most
    /// one a core: more only cost time.
    #[arg(short = 'j', long = "threads", value_name = "NUM", help_heading = INPUT)]
    pub threads: Option<usize>,

    /// Skip files larger than NUM bytes while walking directories, as `rg
    /// --max-filesize` does. NUM may end in K, M or G (KiB, MiB, GiB). A file
    /// named on the command line is searched whatever its size.
    #[arg(long = "max-filesize", value_name = "NUM+SUFFIX?", value_parser = parse_size, help_heading = INPUT)]
    pub max_filesize: Option<u64>,

    /// Read more ignore rules from PATH (gitignore syntax, matched from the
    /// current directory), as `rg --ignore-file` does; repeatable. They rank
    /// below every other ignore file and apply even with --no-ignore.
    #[arg(long = "ignore-file", value_name = "PATH", action = ArgAction::Append, help_heading = INPUT)]
    pub ignore_files: Vec<PathBuf>,

    /// Follow symbolic links while walking directories, as `rg -L` does (a link
    /// loop is reported as an error, not entered). Without it, only a symlink
    /// named on the command line is followed.
    #[arg(short = 'L', long, help_heading = INPUT)]
    pub follow: bool,

    /// Read the list of files to search from stdin, one per line (e.g. `rg -l … |`).
    ///
    /// PATHS given too are searched as well.
    #[arg(long, help_heading = INPUT)]
    pub paths_from_stdin: bool,

    /// Paths listed by -l, --files-without-match, --files, -c and
    /// --count-matches end with a NUL byte, as rg's (`kgrep -l0 q | xargs
    /// -0`), and so does the path of each --no-heading or --vimgrep line, in
    /// place of the `:` or `-` after it (kgrep's headings are unchanged); with
    /// --paths-from-stdin, the list read is NUL-separated too (`rg -l0`, `find
    /// -print0`), so names may hold newlines and spaces.
    #[arg(short = '0', long = "null", help_heading = INPUT)]
    pub null: bool,

    /// Do not print errors about files that cannot be opened or read, as `rg
    /// --no-messages` does; they still make the exit status 2.
    #[arg(long, help_heading = INPUT)]
    pub no_messages: bool,

    /// Add a file type for -t and -T, as `rg --type-add` does: `name:glob`
    /// (`foo:*.foo`) or `name:include:a,b` (the globs of other types);
    /// repeatable, and a name given twice gathers the globs.
    #[arg(long = "type-add", value_name = "TYPESPEC", action = ArgAction::Append, help_heading = INPUT)]
    pub type_add: Vec<String>,

    /// Drop a file type's globs (before any --type-add), as `rg --type-clear`
    /// does; repeatable.
    #[arg(long = "type-clear", value_name = "TYPE", action = ArgAction::Append, help_heading = INPUT)]
    pub type_clear: Vec<String>,

    /// Print ripgrep's file types (the names -t and -T take) and their globs,
    /// one a line (`rust: *.rs`), and exit.
    #[arg(long, help_heading = INPUT)]
    pub type_list: bool,

    /// Skip the confirmation rlmgrep asks for before loading many files.
    #[arg(short = 'y', long, help_heading = INPUT)]
    pub yes: bool,

    /// Show NUM lines of context before and after each match.
    #[arg(short = 'C', long = "context", value_name = "NUM", help_heading = OUTPUT)]
    pub context: Option<usize>,

    /// Show NUM lines of context after each match (overrides -C on that side).
    #[arg(short = 'A', long = "after-context", value_name = "NUM", help_heading = OUTPUT)]
    pub after: Option<usize>,

    /// Show NUM lines of context before each match (overrides -C on that side).
    #[arg(short = 'B', long = "before-context", value_name = "NUM", help_heading = OUTPUT)]
    pub before: Option<usize>,

    /// Print at most NUM matching lines per file: a natural-language query keeps each
    /// file's best lines (and --max-lines goes on to the next files), a literal or
    /// regex query the lowest line numbers.
    #[arg(short = 'm', long = "max-count", value_name = "NUM", help_heading = OUTPUT)]
    pub max_count: Option<usize>,

    /// Print at most NUM matching lines in all for a natural-language query: the
    /// first file's best line, then the best of the rest by score (default 15). 0
    /// prints every strong line of every file holding a query word, the best files
    /// first, instead of the best places. Literal and regex queries print every
    /// match; a query with no word to search for (only stop words, such as `the`)
    /// is searched as exact text, and capped too.
    #[arg(long, value_name = "NUM", help_heading = SEARCH)]
    pub max_lines: Option<usize>,

    /// Search the pattern as the literal text it is (as `rg -F` does): never as
    /// natural language or a regex, quotes included; every line holding it.
    #[arg(short = 'F', long, help_heading = SEARCH)]
    pub fixed_strings: bool,

    /// A pattern to search, as `rg -e` does (one that starts with `-` too); with -e,
    /// every positional argument is a path. Repeatable: a line matching any of the
    /// patterns matches. One -e is read as PATTERN is (natural language, an
    /// identifier, a quoted literal or a regex); two or more are each a regex (a
    /// literal with -F), searched exactly.
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        action = ArgAction::Append,
        allow_hyphen_values = true,
        help_heading = SEARCH
    )]
    pub regexps: Vec<String>,

    /// Read patterns from FILE, one a line, as `rg -f` does (`-` reads stdin);
    /// repeatable, and with -e all are searched. Each is a regex (a literal
    /// with -F), never natural language; an empty line matches every line. With
    /// -f, every positional argument is a path. A file with no line matches
    /// nothing (exit 1).
    #[arg(short = 'f', long = "file", value_name = "PATTERNFILE", action = ArgAction::Append, help_heading = SEARCH)]
    pub pattern_files: Vec<PathBuf>,

    /// Match a literal or regex query in any case (a natural-language query always
    /// is). The last of -i, -s and -S wins.
    #[arg(short = 'i', long, overrides_with_all = ["case_sensitive", "smart_case"], help_heading = SEARCH)]
    pub ignore_case: bool,

    /// Match a literal or regex query in its case (the default), as `rg -s` does:
    /// undoes an -i or -S given before it.
    #[arg(short = 's', long, overrides_with_all = ["ignore_case", "smart_case"], help_heading = SEARCH)]
    pub case_sensitive: bool,

    /// Match a literal or regex query in any case when it has no upper-case letter,
    /// in its case when it has one, as `rg -S` does.
    #[arg(short = 'S', long, overrides_with_all = ["ignore_case", "case_sensitive"], help_heading = SEARCH)]
    pub smart_case: bool,

    /// Match a literal or regex query only as a whole word (as `rg -w`: not inside a
    /// longer word); a natural-language query always matches code words.
    #[arg(short = 'w', long = "word-regexp", help_heading = SEARCH)]
    pub word_regexp: bool,

    /// Let a regex match across lines, as `rg -U` does (`\n` matches a line end;
    /// every line of a match prints). A natural-language query ignores it.
    #[arg(short = 'U', long, help_heading = SEARCH)]
    pub multiline: bool,

    /// Use the regex engine with look-around and back-references, as `rg -P`
    /// does (rg links PCRE2; kgrep's engine is fancy-regex, in Rust): the pattern
    /// is then read as a regex, never natural language. -i, -S, -w, -x and -U apply.
    #[arg(
        short = 'P',
        long = "pcre2",
        conflicts_with = "fixed_strings",
        overrides_with_all = ["engine", "auto_hybrid_regex", "no_pcre2", "no_auto_hybrid_regex"],
        help_heading = SEARCH
    )]
    pub pcre2: bool,

    /// Choose the regex engine, as `rg --engine` does: `default` (Rust's regex
    /// crate), `pcre2` (as -P) or `auto` (the default engine, or -P's when the
    /// pattern uses look-around or a back-reference, which the default refuses).
    /// The last of -P, --engine, --auto-hybrid-regex and --no-pcre2 wins.
    #[arg(
        long,
        value_name = "ENGINE",
        value_enum,
        overrides_with_all = ["pcre2", "auto_hybrid_regex", "no_pcre2", "no_auto_hybrid_regex"],
        help_heading = SEARCH
    )]
    pub engine: Option<Engine>,

    /// The same as `--engine auto`, as rg 13's --auto-hybrid-regex.
    #[arg(
        long,
        overrides_with_all = ["pcre2", "engine", "no_pcre2", "no_auto_hybrid_regex"],
        help_heading = SEARCH
    )]
    pub auto_hybrid_regex: bool,

    /// Match ASCII only where a regex means a class of characters (`\w`, `\d`,
    /// `\s`, `\b`, case folding), and let `.` match any byte, as `rg
    /// --no-unicode` does (`--no-pcre2-unicode` is the same).
    #[arg(long, alias = "no-pcre2-unicode", overrides_with = "unicode", help_heading = SEARCH)]
    pub no_unicode: bool,

    /// Unicode-aware classes and case (the default): undoes --no-unicode, as
    /// `rg --unicode` does (`--pcre2-unicode` is the same).
    #[arg(
        long,
        alias = "pcre2-unicode",
        hide = true,
        overrides_with = "no_unicode"
    )]
    pub unicode: bool,

    /// Refuse a regex whose compiled program is larger than NUM bytes, as `rg
    /// --regex-size-limit` does. NUM may end in K, M or G.
    #[arg(long, value_name = "NUM+SUFFIX?", value_parser = parse_size, help_heading = SEARCH)]
    pub regex_size_limit: Option<u64>,

    /// Give the regex engine's lazy DFA at most NUM bytes of cache, as `rg
    /// --dfa-size-limit` does. NUM may end in K, M or G.
    #[arg(long, value_name = "NUM+SUFFIX?", value_parser = parse_size, help_heading = SEARCH)]
    pub dfa_size_limit: Option<u64>,

    /// Accepted for ripgrep command lines: kgrep always reads CRLF as a line
    /// end (a line prints without its `\r`, and `$` matches before it), as
    /// rlmgrep reads text.
    #[arg(long, overrides_with = "no_crlf", help_heading = SEARCH)]
    pub crlf: bool,

    /// Print the lines that do not match, as `rg --invert-match` does (the pattern
    /// is then read as a regex, or text with -F, never natural language). Long name
    /// only: -v is rlmgrep's (verbose).
    #[arg(long, help_heading = SEARCH)]
    pub invert_match: bool,

    /// With -U, `.` matches line ends too, as `rg --multiline-dotall` does.
    #[arg(long, requires = "multiline", help_heading = SEARCH)]
    pub multiline_dotall: bool,

    /// Match only whole lines, as `rg -x` does (it overrides -w): a pattern that
    /// reads as natural language is searched as literal text.
    #[arg(short = 'x', long = "line-regexp", help_heading = SEARCH)]
    pub line_regexp: bool,

    /// Add a thesaurus layer: Terraphim JSON (or its legacy flat form) or a folder
    /// of Markdown concept files. Repeatable; later ones win.
    #[arg(long = "thesaurus", value_name = "PATH", action = ArgAction::Append, help_heading = SEARCH)]
    pub thesaurus: Vec<PathBuf>,

    /// Do not use the thesaurus compiled into kgrep.
    #[arg(long, help_heading = SEARCH)]
    pub no_builtin_thesaurus: bool,

    /// Print for a person reading a pager, as `rg -p` does: `--color always
    /// --heading --line-number` (`kgrep -p … | less -R`); a later --color,
    /// --no-heading or -N still wins.
    #[arg(short = 'p', long, help_heading = OUTPUT)]
    pub pretty: bool,

    /// Show line numbers: they are shown unless -N says otherwise (`N:` before
    /// each line); accepted for grep, ripgrep and older rlmgrep command lines.
    #[arg(short = 'n', long = "line-number", overrides_with = "no_line_number", help_heading = OUTPUT)]
    pub line_number: bool,

    /// Show no line numbers, as `rg -N` does: a line prints without its `N:`
    /// (or `N-`) and the tab after it.
    #[arg(short = 'N', long = "no-line-number", overrides_with = "line_number", help_heading = OUTPUT)]
    pub no_line_number: bool,

    /// Show file names: they are shown unless -I says otherwise (a `./path`
    /// heading above each file's lines); accepted for grep, ripgrep and older
    /// rlmgrep command lines.
    #[arg(short = 'H', long = "with-filename", overrides_with = "no_filename", help_heading = OUTPUT)]
    pub with_filename: bool,

    /// Show no file names, as `rg -I` does: no heading above a file's lines (a
    /// blank line still parts two files), no `PATH:` in --no-heading lines.
    #[arg(short = 'I', long = "no-filename", overrides_with = "with_filename", help_heading = OUTPUT)]
    pub no_filename: bool,

    /// Show the column (1-based byte) of each match line's first match after its
    /// number, as `rg --column` does: `N:COL:` (context lines keep `N-`).
    #[arg(long, help_heading = OUTPUT)]
    pub column: bool,

    /// Print a line longer than NUM bytes as `[Omitted long matching line]` (or
    /// `context line`), as `rg -M` does (with -o, each part longer than NUM
    /// bytes); 0 sets no limit. It replaces the cut of long natural-language
    /// lines to 300 bytes.
    #[arg(short = 'M', long = "max-columns", value_name = "NUM", help_heading = OUTPUT)]
    pub max_columns: Option<usize>,

    /// With -M, print a long line's NUM bytes around its match instead, marked
    /// `[... N bytes omitted]` where bytes are left out (without -M, nothing).
    #[arg(long, help_heading = OUTPUT)]
    pub max_columns_preview: bool,

    /// Print only the paths of the files that hold a printed match, one per line,
    /// as `rg -l` does: for a natural-language query the files it would print, best
    /// first (--max-lines 0 for every file holding a query word); for a literal or
    /// regex query every file that matches.
    #[arg(
        short = 'l',
        long = "files-with-matches",
        conflicts_with_all = ["count", "json", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub files_with_matches: bool,

    /// Print each file's path and its number of match lines (`./src/app.py:3`), as
    /// `rg -c` does: every matching line of a literal or regex query, the lines a
    /// natural-language query would print. -m caps each count.
    #[arg(
        short = 'c',
        long,
        conflicts_with_all = ["json", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub count: bool,

    /// Print each file's path and its number of matches, not match lines
    /// (`./src/app.py:4`), as `rg --count-matches` does: -c counting what -o
    /// would print.
    #[arg(
        long,
        conflicts_with_all = ["files_with_matches", "json", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub count_matches: bool,

    /// Print the paths of the files searched that hold no match, one per line,
    /// as `rg --files-without-match` does (for natural language: no query word).
    #[arg(
        long,
        conflicts_with_all = ["files_with_matches", "count", "count_matches", "json", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub files_without_match: bool,

    /// With -c or --count-matches, list the files searched with no match too
    /// (`./src/app.py:0`), after the others (with --sort or --sortr, in
    /// their place among them), as `rg --include-zero` does.
    #[arg(long, help_heading = OUTPUT)]
    pub include_zero: bool,

    /// Print every line of every file searched, a match line as `N:` and any
    /// other as `N-`, as `rg --passthru` does (with --replace: a whole file
    /// with its matches replaced). The pattern is then read as a regex, or text
    /// with -F, never natural language; -m stops a file at its NUM-th match.
    /// With --json, every line is a message, the others `context`, as rg's.
    /// The last of --passthru and -A, -B, -C wins, as in rg.
    #[arg(
        long,
        alias = "passthrough",
        conflicts_with_all = ["answer_only", "signature", "signature_json"],
        overrides_with_all = ["context", "after", "before"],
        help_heading = OUTPUT
    )]
    pub passthru: bool,

    /// Print only the matched parts of each printed match line, each on a line of its
    /// own (`N:<TAB>part`), as `rg -o` does: every match of a literal or regex
    /// query, the query's words (as matched) on the lines a natural-language query
    /// prints. With -c, the parts are counted.
    #[arg(
        short = 'o',
        long = "only-matching",
        conflicts_with_all = ["answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub only_matching: bool,

    /// After the results, print ripgrep's statistics, as `rg --stats` does: the
    /// matches, matched lines and files printed, the files and bytes searched, the
    /// bytes printed and the time taken (with --json, its summary carries them).
    #[arg(long, help_heading = OUTPUT)]
    pub stats: bool,

    /// Print each match replaced by REPLACEMENT, as `rg --replace` does (the file is
    /// not changed): `$1`, `${name}` and `$0` are the match's groups, `$$` is `$`.
    /// The pattern is then read as rg reads it, a regex (with -F, text), never
    /// natural language. Long name only: -r is rlmgrep's (recursive). --json and
    /// the counts show the matches as they are.
    #[arg(
        long,
        value_name = "REPLACEMENT",
        conflicts_with_all = ["multiline", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub replace: Option<String>,

    /// Print ripgrep's flat lines instead of headings, as `rg --no-heading` does:
    /// `./PATH:N:text` for a match, `./PATH-N-text` for context, no blank lines
    /// and no tab, so each line names its file.
    #[arg(long, overrides_with = "heading", conflicts_with_all = ["signature", "signature_json"], help_heading = OUTPUT)]
    pub no_heading: bool,

    /// Print a `./path` heading above each file's lines (the default): undoes
    /// an earlier --no-heading, as `rg --heading` does.
    #[arg(long, overrides_with = "no_heading", help_heading = OUTPUT)]
    pub heading: bool,

    /// Print each match as `./PATH:N:COLUMN:text`, as `rg --vimgrep` does for
    /// editors' quickfix lists: a line with several matches once per match (the
    /// column of each, 1-based bytes).
    #[arg(long, conflicts_with_all = ["signature", "signature_json"], help_heading = OUTPUT)]
    pub vimgrep: bool,

    /// Print SEPARATOR between groups of context lines (-A, -B, -C) in place of
    /// `--`, as `rg --context-separator` does: escapes such as `\t` and `\x7F`
    /// are read, and an empty one still prints its (empty) line.
    #[arg(long, value_name = "SEPARATOR", overrides_with = "no_context_separator", help_heading = OUTPUT)]
    pub context_separator: Option<String>,

    /// Print nothing between groups of context lines, not even a line, as `rg
    /// --no-context-separator` does.
    #[arg(long, overrides_with = "context_separator", help_heading = OUTPUT)]
    pub no_context_separator: bool,

    /// Search in compressed files, as `rg -z` does: gzip (`.gz`, `.tgz`), and with
    /// the program rg runs for each (found on PATH) bzip2, xz, lzma, lz4, brotli,
    /// zstd and compress (`.Z`) files. Their decompressed text is searched as a
    /// file's; the path printed is the compressed file's.
    #[arg(short = 'z', long, help_heading = INPUT)]
    pub search_zip: bool,

    /// For each file searched, search what `COMMAND FILE` prints instead (FILE is its
    /// absolute path, and the file is on its stdin too), as `rg --pre` does: a converter such as `pdftotext` behind a
    /// script. It runs once per file (see --pre-glob); piped stdin is never
    /// preprocessed, and it wins over -z. An empty COMMAND turns it off.
    #[arg(
        long,
        value_name = "COMMAND",
        value_parser = clap::builder::OsStringValueParser::new(),
        overrides_with = "no_pre",
        help_heading = INPUT
    )]
    pub pre: Option<std::ffi::OsString>,

    /// Run no --pre command (undoes an earlier --pre), as `rg --no-pre` does.
    #[arg(long, overrides_with = "pre", help_heading = INPUT)]
    pub no_pre: bool,

    /// With --pre, run the command only for the files GLOB matches (gitignore
    /// syntax, `!` excludes; repeat for more), as `rg --pre-glob` does.
    #[arg(long = "pre-glob", value_name = "GLOB", help_heading = INPUT)]
    pub pre_globs: Vec<String>,

    /// Print each line's byte offset in its file after its number (and column), as
    /// `rg -b` does: with -o each part's, with --vimgrep each match's. Offsets are of
    /// the file's bytes (a CRLF counts two), or of its text after -E or a UTF-16
    /// mark decoded it.
    #[arg(short = 'b', long, help_heading = OUTPUT)]
    pub byte_offset: bool,

    /// Print SEPARATOR (one byte) for each `/` in the paths printed, as `rg
    /// --path-separator` does (`\\` for a Windows tool reading kgrep's output under
    /// WSL or cygwin). --json keeps paths as they are, as rg's does.
    #[arg(long, value_name = "SEPARATOR", help_heading = OUTPUT)]
    pub path_separator: Option<String>,

    /// Print SEPARATOR after each field of a match line (its path, number, column
    /// and offset) in place of `:`, as `rg --field-match-separator` does: escapes
    /// such as `\t` and `\x00` are read.
    #[arg(long, value_name = "SEPARATOR", help_heading = OUTPUT)]
    pub field_match_separator: Option<String>,

    /// Print SEPARATOR after each field of a context line in place of `-`, as `rg
    /// --field-context-separator` does (escapes read).
    #[arg(long, value_name = "SEPARATOR", help_heading = OUTPUT)]
    pub field_context_separator: Option<String>,

    /// Leave out the spaces and tabs each printed line starts with, as `rg --trim`
    /// does (fewer tokens for an agent; line numbers and columns are unchanged).
    #[arg(long, help_heading = OUTPUT)]
    pub trim: bool,

    /// Print the files in this order, ascending, as `rg --sort` does: path,
    /// modified, accessed, created, or none (the search's own order: best first
    /// for natural language, by path for a literal or regex). It is rg 13's
    /// sorted walk: the path arguments as given, then a folder at a time, each
    /// folder's entries by name (`a/f` before `a b/g`) or by their own time (a
    /// folder by the folder's, its files together). The lines of a file keep
    /// their order.
    #[arg(long, value_name = "SORTBY", value_enum, overrides_with_all = ["sortr", "sort_files"], help_heading = OUTPUT)]
    pub sort: Option<SortBy>,

    /// Like --sort, descending (`--sortr modified`: the newest file first).
    #[arg(long, value_name = "SORTBY", value_enum, overrides_with_all = ["sort", "sort_files"], help_heading = OUTPUT)]
    pub sortr: Option<SortBy>,

    /// The same as `--sort path`, as rg's (deprecated) --sort-files.
    #[arg(long, overrides_with_all = ["sort", "sortr", "no_sort_files"], hide = true)]
    pub sort_files: bool,

    /// Flush the output after every line, as `rg --line-buffered` does (kgrep
    /// prints when its search is done, so lines still come at once); the
    /// default is a block at a time. The last of --line-buffered and
    /// --block-buffered wins.
    #[arg(long, overrides_with_all = ["block_buffered", "no_line_buffered"], help_heading = OUTPUT)]
    pub line_buffered: bool,

    /// Flush the output a block at a time (the default), as `rg
    /// --block-buffered` does.
    #[arg(long, overrides_with_all = ["line_buffered", "no_block_buffered"], help_heading = OUTPUT)]
    pub block_buffered: bool,

    /// Print nothing on stdout, and on stderr only errors (the file counts with -v):
    /// the exit status says whether a line matched (0) or not (1). No model is
    /// consulted unless --rlm asks for it.
    #[arg(
        short = 'q',
        long,
        conflicts_with_all = ["answer", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub quiet: bool,

    /// Print the files that would be searched, one per line, and search nothing, as
    /// `rg --files` does: every argument is a path (PATTERN too), and the ignore,
    /// hidden, glob, type and depth rules apply.
    #[arg(
        long,
        conflicts_with_all = ["files_with_matches", "count", "json", "answer", "answer_only", "signature", "signature_json"],
        help_heading = OUTPUT
    )]
    pub files: bool,

    /// Print a narrative answer (on stderr) before the grep output. Needs a model for
    /// a written answer; offline, the best lines are quoted as an extractive answer.
    #[arg(long, help_heading = OUTPUT)]
    pub answer: bool,

    /// Print only the narrative answer.
    #[arg(long, help_heading = OUTPUT)]
    pub answer_only: bool,

    /// Print at most about NUM tokens of results (for agents with a context limit):
    /// lines are added best first until the next one would pass the budget, and
    /// what was left out is said on stderr (and in the --json summary). Tokens are
    /// estimated as the model stage does (three bytes each, erring high). Not
    /// rlmgrep's --max-tokens, which limits what a model generates.
    #[arg(long, value_name = "NUM", help_heading = OUTPUT)]
    pub token_budget: Option<usize>,

    /// Serve the Model Context Protocol on stdin and stdout (newline-delimited
    /// JSON-RPC) for coding agents: tools `search`, `answer` and `explain`. Other
    /// flags are ignored; each tool call takes its own arguments. See AGENTS in
    /// the man page.
    #[arg(long, help_heading = MISC)]
    pub mcp: bool,

    /// With --mcp: let tool calls search any path this user can read. Without
    /// it, a path outside the server's roots (the roots the client declares,
    /// else the working directory), through `..` or a symlink too, is refused.
    /// The config key mcp_allow_outside = true does the same.
    #[arg(long, requires = "mcp", help_heading = MISC)]
    pub allow_outside: bool,

    /// Print JSON Lines instead: ripgrep's `--json` messages (begin, match, context,
    /// end, summary), with kgrep's additions under `data.kgrep` and its own `answer`
    /// and `signature` messages. See JSON OUTPUT in the man page. As in rg,
    /// -o, --vimgrep and --no-heading leave the messages as they are, and -q
    /// prints none (with --stats, the summary alone).
    #[arg(long, help_heading = OUTPUT)]
    pub json: bool,

    /// When to colour the output: auto (stdout is a terminal and NO_COLOR is unset),
    /// always (even into a pipe) or never. Colours: magenta paths, green line
    /// numbers, bold red matched text (see --colors).
    #[arg(long, value_name = "WHEN", value_enum, help_heading = OUTPUT)]
    pub color: Option<ColorChoice>,

    /// Change a colour, as `rg --colors` does: `TYPE:ATTRIBUTE:VALUE`, TYPE one
    /// of path, line (numbers), column (and byte offsets) and match, ATTRIBUTE
    /// fg, bg or style; a colour is black, blue, green, red, cyan, magenta,
    /// yellow, white, a number up to 255 (`0x10` too) or `R,G,B`; a style
    /// bold, nobold, intense, nointense, underline or nounderline; `TYPE:none`
    /// clears TYPE. Repeatable: each applies to the ones before
    /// (`--colors 'match:fg:blue' --colors 'line:none'`).
    #[arg(long, value_name = "COLOR_SPEC", action = ArgAction::Append, help_heading = OUTPUT)]
    pub colors: Vec<String>,

    /// Typed output fields, e.g. 'summary: str, files: list[str]'; prints sectioned
    /// text. Needs a model.
    #[arg(long, value_name = "SPEC", conflicts_with = "signature_json", help_heading = OUTPUT)]
    pub signature: Option<String>,

    /// Like --signature, but prints one compact JSON object. Needs a model.
    #[arg(long, value_name = "SPEC", help_heading = OUTPUT)]
    pub signature_json: Option<String>,

    /// Model name, e.g. openai/gpt-4o-mini, anthropic/claude-…, ollama/qwen2.5-coder.
    #[arg(long, value_name = "MODEL", help_heading = MODEL)]
    pub model: Option<String>,

    /// Model for sub-calls (query expansion).
    #[arg(long, value_name = "MODEL", help_heading = MODEL)]
    pub sub_model: Option<String>,

    /// Provider API base URL.
    #[arg(long, value_name = "URL", help_heading = MODEL)]
    pub api_base: Option<String>,

    /// Provider API key (prefer the provider's environment variable).
    #[arg(long, value_name = "KEY", help_heading = MODEL)]
    pub api_key: Option<String>,

    /// API flavour: chat or responses.
    #[arg(long, value_name = "TYPE", help_heading = MODEL)]
    pub model_type: Option<String>,

    /// Sampling temperature.
    #[arg(long, value_name = "T", help_heading = MODEL)]
    pub temperature: Option<f64>,

    /// Top-p sampling.
    #[arg(long, value_name = "P", help_heading = MODEL)]
    pub top_p: Option<f64>,

    /// Maximum tokens the model may generate per call.
    #[arg(long, value_name = "NUM", help_heading = MODEL)]
    pub max_tokens: Option<u32>,

    /// Sub-model API base URL.
    #[arg(long, value_name = "URL", help_heading = MODEL)]
    pub sub_api_base: Option<String>,

    /// Sub-model API key.
    #[arg(long, value_name = "KEY", help_heading = MODEL)]
    pub sub_api_key: Option<String>,

    /// Sub-model API flavour: chat or responses.
    #[arg(long, value_name = "TYPE", help_heading = MODEL)]
    pub sub_model_type: Option<String>,

    /// Sub-model sampling temperature.
    #[arg(long, value_name = "T", help_heading = MODEL)]
    pub sub_temperature: Option<f64>,

    /// Sub-model top-p.
    #[arg(long, value_name = "P", help_heading = MODEL)]
    pub sub_top_p: Option<f64>,

    /// Sub-model maximum tokens per call.
    #[arg(long, value_name = "NUM", help_heading = MODEL)]
    pub sub_max_tokens: Option<u32>,

    /// Maximum rounds of follow-up searches the model may ask for.
    #[arg(long, value_name = "NUM", help_heading = MODEL)]
    pub max_iterations: Option<u32>,

    /// Maximum number of model calls per run.
    #[arg(long, value_name = "NUM", help_heading = MODEL)]
    pub max_llm_calls: Option<u32>,

    /// Print the exact requests that would be sent to the model (method, URL,
    /// headers with keys masked, JSON body) and send nothing; with --json, as
    /// `request` messages. When no request would be sent, stderr says why.
    #[arg(long, help_heading = MODEL)]
    pub dry_run: bool,

    /// Never consult a language model, whatever the judge says (as `llm = "off"`
    /// or `KGREP_LLM=off`).
    #[arg(long, conflicts_with = "rlm", help_heading = MODEL)]
    pub offline: bool,

    /// Always consult the language model, even when the offline results are
    /// judged sufficient (as `llm = "always"` or `KGREP_LLM=always`); warns when no
    /// model is usable. `KGREP_LLM=off` overrides it.
    #[arg(long, help_heading = MODEL)]
    pub rlm: bool,

    /// Do not write what the model teaches to the learned thesaurus for this run
    /// (as `learn = false`). `--offline` and `llm = "off"` never write either.
    #[arg(long, help_heading = LEARN)]
    pub no_learn: bool,

    /// Where learned concepts are kept: `user` ($XDG_DATA_HOME/kgrep/thesaurus.json,
    /// the default) or `project` (.kgrep/thesaurus.json in the current directory).
    /// Also the file the --thesaurus-* commands work on (config `learn_to`).
    #[arg(long, value_name = "WHERE", value_enum, help_heading = LEARN)]
    pub learn_to: Option<LearnTo>,

    /// List the learned concepts and exit: one per line, tab-separated: name,
    /// status (proposed or accepted), hits, date, model, synonyms (comma-separated),
    /// query.
    #[arg(long, group = "thesaurus_command", help_heading = LEARN)]
    pub thesaurus_list: bool,

    /// Accept a learned concept: its synonyms get full weight from now on.
    #[arg(long, value_name = "NAME", group = "thesaurus_command", help_heading = LEARN)]
    pub thesaurus_accept: Option<String>,

    /// Forget a learned concept: remove it and its synonyms from the learned thesaurus.
    #[arg(long, value_name = "NAME", group = "thesaurus_command", help_heading = LEARN)]
    pub thesaurus_forget: Option<String>,

    /// Export the learned concepts: Terraphim JSON, or, when PATH is a directory or
    /// ends with `/`, a Markdown folder (one `NAME.md` per concept with `# Name` and
    /// `synonyms:: a, b`).
    #[arg(long, value_name = "PATH", group = "thesaurus_command", help_heading = LEARN)]
    pub thesaurus_export: Option<PathBuf>,

    /// Import concepts (Terraphim JSON or a Markdown folder) into the learned
    /// thesaurus as accepted. Synonyms another concept already has, stop words and
    /// one-letter or overlong terms are skipped.
    #[arg(long, value_name = "PATH", group = "thesaurus_command", help_heading = LEARN)]
    pub thesaurus_import: Option<PathBuf>,

    /// Verbose: how the query was understood and why lines were chosen, on stderr.
    #[arg(short = 'v', long, help_heading = MISC)]
    pub verbose: bool,

    /// The same as -v, for ripgrep command lines (`--debug`, `--trace`).
    #[arg(long, alias = "trace", help_heading = MISC)]
    pub debug: bool,

    /// Say whether PCRE2 is available, as `rg --pcre2-version` does, and exit:
    /// it is not (-P runs fancy-regex, written in Rust), so the status is 1.
    #[arg(long, help_heading = MISC)]
    pub pcre2_version: bool,

    /// Print each printed line's score, decomposed (query words on the line and
    /// near it, identifier bonus, line kind, file score), on stderr. `-v` does too.
    #[arg(long, help_heading = MISC)]
    pub explain: bool,

    /// For training a ranker: print each candidate file of a natural-language
    /// query with its ranking features, one JSON object a line, instead of the
    /// results, in the hand-tuned order (`tests/bench/train/`).
    #[arg(long, help_heading = MISC)]
    pub features: bool,

    /// Write kgrep's commented default config file if it does not exist, print its path.
    #[arg(long, help_heading = MISC)]
    pub init_config: bool,

    /// Print a generated file and exit: the man page or a shell's completions.
    #[arg(long, value_name = "KIND", value_enum, help_heading = MISC)]
    pub generate: Option<GenerateKind>,

    /// Print the version and exit.
    #[arg(long, action = ArgAction::Version, help_heading = MISC)]
    pub version: Option<bool>,

    /// ripgrep's hidden negations (`--no-hidden`, `--ignore-vcs`, …).
    #[command(flatten)]
    pub negations: Negations,
}

/// The flags ripgrep 13 accepts, unlisted, to undo another given before them
/// (`rg --no-column`, `--ignore-vcs`, `--messages`): a script or an alias that
/// adds a flag can take it back. Each overrides its flag, the last given
/// winning, so none is read after parsing: the flag it undoes is then unset.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Negations {
    #[arg(long, hide = true, overrides_with_all = ["pcre2", "engine", "auto_hybrid_regex", "no_auto_hybrid_regex"])]
    pub no_pcre2: bool,
    #[arg(long, hide = true, overrides_with_all = ["pcre2", "engine", "auto_hybrid_regex", "no_pcre2"])]
    pub no_auto_hybrid_regex: bool,
    #[arg(long, hide = true, overrides_with = "multiline")]
    pub no_multiline: bool,
    #[arg(long, hide = true, overrides_with = "multiline_dotall")]
    pub no_multiline_dotall: bool,
    #[arg(long, hide = true, overrides_with = "fixed_strings")]
    pub no_fixed_strings: bool,
    #[arg(long, hide = true, overrides_with = "hidden")]
    pub no_hidden: bool,
    #[arg(long, hide = true, overrides_with = "follow")]
    pub no_follow: bool,
    #[arg(long, hide = true, overrides_with = "search_zip")]
    pub no_search_zip: bool,
    #[arg(long, hide = true, overrides_with = "column")]
    pub no_column: bool,
    #[arg(long, hide = true, overrides_with_all = ["text", "binary"])]
    pub no_text: bool,
    /// Undoes --binary and -a alike, as rg 13's does.
    #[arg(long, hide = true, overrides_with_all = ["binary", "text"])]
    pub no_binary: bool,
    #[arg(long, hide = true, overrides_with = "trim")]
    pub no_trim: bool,
    #[arg(long, hide = true, overrides_with = "sort_files")]
    pub no_sort_files: bool,
    #[arg(long, hide = true, overrides_with = "json")]
    pub no_json: bool,
    #[arg(long, hide = true, overrides_with = "max_columns_preview")]
    pub no_max_columns_preview: bool,
    #[arg(long, hide = true, overrides_with = "one_file_system")]
    pub no_one_file_system: bool,
    #[arg(long, hide = true, overrides_with = "stats")]
    pub no_stats: bool,
    #[arg(long, hide = true, overrides_with = "encoding")]
    pub no_encoding: bool,
    #[arg(long, hide = true, overrides_with = "glob_case_insensitive")]
    pub no_glob_case_insensitive: bool,
    #[arg(long, hide = true, overrides_with = "ignore_file_case_insensitive")]
    pub no_ignore_file_case_insensitive: bool,
    #[arg(long, hide = true, overrides_with = "crlf")]
    pub no_crlf: bool,
    #[arg(long, hide = true, overrides_with = "line_buffered")]
    pub no_line_buffered: bool,
    #[arg(long, hide = true, overrides_with = "block_buffered")]
    pub no_block_buffered: bool,
    #[arg(long, hide = true, overrides_with = "no_messages")]
    pub messages: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_messages")]
    pub ignore_messages: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore")]
    pub ignore: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_dot")]
    pub ignore_dot: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_exclude")]
    pub ignore_exclude: bool,
    /// (Not `ignore_files`: that is --ignore-file's list.)
    #[arg(long = "ignore-files", hide = true, overrides_with = "no_ignore_files")]
    pub respect_ignore_files: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_global")]
    pub ignore_global: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_parent")]
    pub ignore_parent: bool,
    #[arg(long, hide = true, overrides_with = "no_ignore_vcs")]
    pub ignore_vcs: bool,
    #[arg(long, hide = true, overrides_with = "no_require_git")]
    pub require_git: bool,
}

/// `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// Rust's regex crate (no look-around or back-references).
    Default,
    /// The engine -P runs (look-around, back-references).
    Pcre2,
    /// The default engine, or -P's for a pattern only it runs.
    Auto,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour, even into a pipe or with NO_COLOR set.
    Always,
    /// Never colour.
    Never,
}

pub use crate::learn::LearnTo;
pub use crate::walk::SortBy;

/// `--generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateKind {
    /// The man page (roff).
    Man,
    /// bash completions.
    CompleteBash,
    /// zsh completions.
    CompleteZsh,
    /// fish completions.
    CompleteFish,
    /// PowerShell completions.
    CompletePowershell,
    /// elvish completions.
    CompleteElvish,
}

impl Flags {
    /// Parses a command line (the program's name first): clap's parse, then
    /// `-p/--pretty` read as rg reads the alias, `--color always --heading
    /// --line-number`, each part undone by the flag it stands for given after
    /// it (clap's overrides cannot say "only when later").
    pub fn parse_args<I, T>(args: I) -> Result<Flags, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{CommandFactory, FromArgMatches};
        let matches = Flags::command().try_get_matches_from(args)?;
        let mut flags = Flags::from_arg_matches(&matches)?;
        flags.apply_pretty(&matches);
        flags.apply_aliases();
        Ok(flags)
    }

    /// ripgrep's other names for kgrep's settings: `--debug` and `--trace`
    /// are -v, `--sort-files` is `--sort path`, `--engine pcre2` is -P and
    /// `--auto-hybrid-regex` is `--engine auto` (the last of them given is
    /// the only one left set: they override each other).
    fn apply_aliases(&mut self) {
        self.verbose |= self.debug;
        if self.sort_files {
            // The last of --sort, --sortr and --sort-files is the only one left.
            self.sort = Some(SortBy::Path);
        }
        match self.engine {
            Some(Engine::Pcre2) => self.pcre2 = true,
            _ if self.auto_hybrid_regex => self.engine = Some(Engine::Auto),
            _ => {}
        }
    }

    fn apply_pretty(&mut self, matches: &clap::ArgMatches) {
        // The last place an argument was given on the command line.
        let last = |id: &str| {
            (matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
                .then(|| matches.indices_of(id)?.max())
                .flatten()
        };
        let Some(pretty) = last("pretty") else {
            return;
        };
        let undone = |id: &str| last(id).is_some_and(|at| at > pretty);
        if !undone("color") {
            self.color = Some(ColorChoice::Always);
        }
        if !undone("no_heading") {
            self.no_heading = false;
        }
        if !undone("no_line_number") {
            self.no_line_number = false;
        }
    }

    /// `--type-clear` and `--type-add`: the type table's edits, for a search
    /// and for `--type-list` alike.
    pub fn type_edits(&self) -> crate::walk::TypeEdits {
        crate::walk::TypeEdits {
            clear: self.type_clear.clone(),
            add: self.type_add.clone(),
        }
    }

    /// The learned-thesaurus command these flags name, if any (they exclude
    /// each other).
    pub fn thesaurus_command(&self) -> Option<crate::learn::manage::Command> {
        use crate::learn::manage::Command;
        if self.thesaurus_list {
            return Some(Command::List);
        }
        if let Some(name) = &self.thesaurus_accept {
            return Some(Command::Accept(name.clone()));
        }
        if let Some(name) = &self.thesaurus_forget {
            return Some(Command::Forget(name.clone()));
        }
        if let Some(path) = &self.thesaurus_export {
            return Some(Command::Export(path.clone()));
        }
        self.thesaurus_import.clone().map(Command::Import)
    }
}

/// `-E`'s value (see [`crate::document::Decoding::parse`]).
fn parse_encoding(value: &str) -> Result<crate::document::Decoding, String> {
    crate::document::Decoding::parse(value).ok_or_else(|| {
        format!("unknown encoding '{value}': use auto, none or a label such as latin1, utf-16le")
    })
}

/// A `--max-filesize` value: digits, then an optional `K`, `M` or `G` (powers of
/// 1024), as ripgrep reads it (either case here; ripgrep 13 takes upper case
/// only). Written by hand: ripgrep's parser is not a published crate.
fn parse_size(value: &str) -> Result<u64, String> {
    let invalid = || {
        format!(
            "invalid format for size '{value}', which should be a sequence of digits \
             followed by an optional 'K', 'M' or 'G' suffix"
        )
    };
    let (digits, shift) = match value.as_bytes().last().map(u8::to_ascii_uppercase) {
        Some(b'K') => (&value[..value.len() - 1], 10),
        Some(b'M') => (&value[..value.len() - 1], 20),
        Some(b'G') => (&value[..value.len() - 1], 30),
        _ => (value, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let n: u64 = digits.parse().map_err(|_| invalid())?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("size '{value}' is too large"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Flags, clap::Error> {
        Flags::try_parse_from(std::iter::once("kgrep").chain(args.iter().copied()))
    }

    fn parse_args(args: &[&str]) -> Flags {
        Flags::parse_args(std::iter::once("kgrep").chain(args.iter().copied())).unwrap()
    }

    /// `-p` is rg's alias: each of its parts stands unless the flag for it
    /// comes later.
    #[test]
    fn pretty_is_colour_headings_and_numbers_unless_a_later_flag_says_otherwise() {
        let f = parse_args(&["-p", "q"]);
        assert_eq!(f.color, Some(ColorChoice::Always));
        assert!(!f.no_heading && !f.no_line_number);
        let f = parse_args(&["--color", "never", "--no-heading", "-N", "-p", "q"]);
        assert_eq!(f.color, Some(ColorChoice::Always));
        assert!(!f.no_heading && !f.no_line_number);
        let f = parse_args(&["-p", "--color", "never", "--no-heading", "q"]);
        assert_eq!(f.color, Some(ColorChoice::Never));
        assert!(f.no_heading && !f.no_line_number);
        let f = parse_args(&["-pN", "q"]);
        assert_eq!(f.color, Some(ColorChoice::Always));
        assert!(f.no_line_number);
        let f = parse_args(&["--no-heading", "q"]);
        assert_eq!(f.color, None);
        assert!(f.no_heading);
    }

    #[test]
    fn definition_is_consistent() {
        Flags::command().debug_assert();
    }

    #[test]
    fn options_and_positionals_in_any_order() {
        let f = parse(&["-C", "2", "retry delay", "src", "-m", "3", "docs"]).unwrap();
        assert_eq!(f.pattern.as_deref(), Some("retry delay"));
        assert_eq!(f.paths, vec![PathBuf::from("src"), PathBuf::from("docs")]);
        assert_eq!(f.context, Some(2));
        assert_eq!(f.max_count, Some(3));
    }

    #[test]
    fn double_dash_ends_options() {
        let f = parse(&["--", "-v", "src"]).unwrap();
        assert_eq!(f.pattern.as_deref(), Some("-v"));
        assert!(!f.verbose);
    }

    #[test]
    fn signature_flags_exclude_each_other() {
        let err = parse(&["--signature", "a: str", "--signature-json", "b: str", "q"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict);
    }

    #[test]
    fn bad_numbers_are_usage_errors() {
        assert!(parse(&["-C", "abc", "q"]).is_err());
        assert!(parse(&["-m", "-1", "q"]).is_err());
        assert!(parse(&["--temperature", "hot", "q"]).is_err());
    }

    #[test]
    fn repeatable_flags_accumulate_and_last_scalar_wins() {
        let f = parse(&[
            "-g",
            "*.rs",
            "--glob",
            "*.md,*.txt",
            "--type",
            "py",
            "--type",
            "js",
            "q",
        ]);
        let f = f.unwrap();
        assert_eq!(f.globs, vec!["*.rs", "*.md,*.txt"]);
        assert_eq!(f.types, vec!["py", "js"]);
        assert_eq!(
            parse(&["-C", "1", "-C", "2", "q"]).unwrap().context,
            Some(2)
        );
    }

    #[test]
    fn color_and_json_parse_and_the_last_color_wins() {
        let f = parse(&["--json", "--color", "never", "--color=always", "q"]).unwrap();
        assert!(f.json);
        assert_eq!(f.color, Some(ColorChoice::Always));
        assert_eq!(parse(&["q"]).unwrap().color, None);
        let err = parse(&["--color", "sometimes", "q"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue);
    }

    #[test]
    fn generate_needs_no_pattern() {
        let f = parse(&["--generate", "complete-zsh"]).unwrap();
        assert_eq!(f.generate, Some(GenerateKind::CompleteZsh));
        assert!(f.pattern.is_none());
        assert!(parse(&["--generate", "html"]).is_err());
    }

    #[test]
    fn legacy_no_op_flags_parse() {
        let f = parse(&["-n", "-H", "-r", "q"]).unwrap();
        assert!(f.line_number && f.with_filename && f.recursive);
    }

    #[test]
    fn every_rlmgrep_flag_is_accepted() {
        let args = [
            "-r",
            "--no-recursive",
            "-C",
            "1",
            "-A",
            "1",
            "-B",
            "1",
            "-m",
            "1",
            "-a",
            "--text",
            "--hidden",
            "--no-ignore",
            "--answer",
            "--answer-only",
            "--signature",
            "s: str",
            "-y",
            "--yes",
            "--paths-from-stdin",
            "-g",
            "*",
            "--glob",
            "*",
            "--type",
            "py",
            "--model",
            "m",
            "--sub-model",
            "m",
            "--api-base",
            "http://127.0.0.1:1",
            "--api-key",
            "k",
            "--model-type",
            "chat",
            "--temperature",
            "0.5",
            "--top-p",
            "0.9",
            "--max-tokens",
            "9",
            "--sub-api-base",
            "http://127.0.0.1:1",
            "--sub-api-key",
            "k",
            "--sub-model-type",
            "chat",
            "--sub-temperature",
            "0.1",
            "--sub-top-p",
            "0.2",
            "--sub-max-tokens",
            "3",
            "--max-iterations",
            "2",
            "--max-llm-calls",
            "3",
            "-v",
            "--verbose",
            "--init-config",
            "q",
        ];
        let f = parse(&args).unwrap();
        assert_eq!(f.max_llm_calls, Some(3));
        assert_eq!(f.sub_top_p, Some(0.2));
    }

    /// rg 13's rule: the last of -a, --binary, --no-text and --no-binary
    /// wins (`plan` makes -uuu --binary unless -a, and --null-data -a).
    #[test]
    fn the_last_of_text_binary_and_their_negations_wins() {
        let got = |args: &[&str]| {
            let f = parse(&[args, &["q"][..]].concat()).unwrap();
            (f.text, f.binary)
        };
        assert_eq!(got(&["-a", "--binary"]), (false, true));
        assert_eq!(got(&["--binary", "-a"]), (true, false));
        assert_eq!(got(&["--binary", "--no-binary"]), (false, false));
        assert_eq!(got(&["--binary", "--no-text"]), (false, false));
        assert_eq!(got(&["-a", "--no-binary"]), (false, false));
        assert_eq!(got(&["-a", "--no-text", "--binary"]), (false, true));
        assert!(parse(&["--null-data", "q"]).unwrap().null_data);
    }

    #[test]
    fn dry_run_is_a_kgrep_flag() {
        assert!(parse(&["--dry-run", "q"]).unwrap().dry_run);
        assert!(!parse(&["q"]).unwrap().dry_run);
    }

    #[test]
    fn sizes_read_as_ripgrep_reads_them() {
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("1500"), Ok(1500));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("3M"), Ok(3 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("2k"), Ok(2048));
        for bad in ["", "K", "1X", "1.5M", "-1", " 1", "1KB"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
        assert!(parse_size("99999999999999G").is_err(), "overflow");
    }
}
