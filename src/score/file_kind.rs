//! What kind of file a haystack is, from its path (and, once read, its shape),
//! and the prior that kind puts on a natural-language ranking.
//!
//! Owns: telling source code from tests, examples and prose (secondary), from
//! configuration and build metadata, and from generated, vendored and minified
//! files. Does not own: line kinds inside a file (`kind`), or any weighting
//! other than the per-kind prior (`bm25`, `lines`). Exact (literal and regex)
//! searches never consult it: every file stays searchable.

use crate::query::{self, Term};

/// What a file is, for ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Code the project is made of.
    Source,
    /// Tests, examples, benchmarks, fixtures, documentation and prose.
    Secondary,
    /// Configuration, package and build metadata (`Cargo.toml`, `package.json`,
    /// CI files, build scripts): they name everything the project uses without
    /// doing any of it.
    Config,
    /// Generated, vendored or minified: bundles, source maps, lockfiles,
    /// `dist/`, `vendor/`. They repeat the source's words many times over
    /// (axios's `dist/` held every query word of the project ten times).
    Generated,
}

/// Multiplier for tests, examples and prose when the query is not about them:
/// they repeat the query's words (test names, changelog entries) without being
/// where the behaviour lives.
pub(super) const SECONDARY_FILE_PRIOR: f64 = 0.5;
/// Multiplier for configuration and build metadata: a manifest lists every
/// feature's name, so it matches many queries, but a question about code is
/// answered by code.
pub(super) const CONFIG_FILE_PRIOR: f64 = 0.5;
/// Multiplier for generated, vendored and minified files: still found (an
/// exact search prints them, and a query only they answer still ranks them),
/// never ahead of the source they were made from.
pub const GENERATED_FILE_PRIOR: f64 = 0.1;

/// Path words that mark tests, examples, benchmarks, fixtures and docs.
const SECONDARY_PATH_WORDS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "spec",
    "specs",
    "regress",
    "regression",
    "e2e",
    "example",
    "examples",
    "bench",
    "benches",
    "benchmark",
    "benchmarks",
    "fixture",
    "fixtures",
    "doc",
    "docs",
    "egg",
];

/// Folder words (not file-name words) that mark examples and documentation:
/// `sample/`, `demos/`, Lua's `manual/`. As file-name words they would take
/// code for secondary (`sample_rate.c`, `manual_seed.py`).
const SECONDARY_FOLDER_WORDS: &[&str] = &[
    "sample",
    "samples",
    "demo",
    "demos",
    "manual",
    "manuals",
    // Man pages (`man/i3.man`, `man/git.1`) and playgrounds: a project's
    // documentation and its try-it-out apps (pinia's
    // `packages/online-playground/`) name every feature without being it.
    "man",
    "playground",
    "playgrounds",
    // Perl's and git's test folder (`t/`), as a folder only: `t.go` is code.
    "t",
];

/// Whether a folder word is a tests' word run together (`testdata`, Go's
/// fixtures; `testutil`, `testcases`, Lua's `testes`): it opens with `test`.
fn is_test_folder_word(w: &str) -> bool {
    w.len() > 4 && w.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("test"))
}

/// Folder words of documentation: prose, not tests (`is_prose_path`).
const PROSE_FOLDER_WORDS: &[&str] = &["doc", "docs", "manual", "manuals", "man"];

/// File extensions of prose and markup.
const PROSE_EXTENSIONS: &[&str] = &[
    ".md",
    ".markdown",
    ".mdx",
    ".rst",
    ".txt",
    ".adoc",
    ".asciidoc",
    ".html",
    ".htm",
    ".org",
    // Man pages in asciidoc or roff (`i3.man`), Perl's pod, Texinfo, Ruby's rdoc.
    ".man",
    ".pod",
    ".texi",
    ".texinfo",
    ".rdoc",
    ".1",
    ".2",
    ".3",
    ".4",
    ".5",
    ".6",
    ".7",
    ".8",
    ".9",
    ".pdf",
    ".docx",
    ".doc",
    ".odt",
    ".ods",
    ".odp",
    ".epub",
    ".pptx",
    ".ppt",
    ".xlsx",
    ".xls",
    ".rtf",
    ".tex",
    // Jupyter notebooks: worked examples and documentation around the code.
    ".ipynb",
];

/// File names (first path word) of prose that ships with code: changelogs,
/// licences, package metadata (`PKG-INFO`, `METADATA`).
const PROSE_NAMES: &[&str] = &[
    "history",
    "changelog",
    "changes",
    "news",
    "authors",
    "license",
    "licence",
    "copying",
    "notice",
    "readme",
    "contributing",
    "pkg",
    "metadata",
];

/// Directories whose files are built, bundled or copied in from elsewhere.
/// (`build/`, `out/` and `target/` are not here: build output is almost always
/// ignored by git, and where such a folder is committed it is source, as
/// clap's `src/build/`.) `deps/` is where C projects keep the libraries they
/// copy in (redis's jemalloc, lua and hiredis; libgit2's zlib and pcre2): of
/// the 165 repositories mirrored for the eval sets, no other had one outside
/// its tests.
const GENERATED_DIRS: &[&str] = &[
    "dist",
    "min",
    "vendor",
    "vendored",
    "deps",
    "_vendor",
    "third_party",
    "third-party",
    "thirdparty",
    "node_modules",
    "bower_components",
    "site-packages",
    "generated",
    "__generated__",
];

/// File names of lockfiles: generated, and they name every dependency.
const LOCKFILES: &[&str] = &[
    "cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "pipfile.lock",
    "composer.lock",
    "gemfile.lock",
    "go.sum",
    "uv.lock",
    "pdm.lock",
    "flake.lock",
    "mix.lock",
    "pubspec.lock",
    "podfile.lock",
    "packages.lock.json",
];

/// Name parts of generated files: `.min.js`, `.map`, `bundle.js`, `_pb2.py`,
/// `.pb.go`, `.generated.ts`.
const GENERATED_NAME_PARTS: &[&str] = &[
    ".min.",
    ".map",
    ".bundle.",
    "-bundle.",
    ".chunk.",
    "_pb2.",
    ".pb.",
    ".generated.",
    "-min.",
    ".prebuilt",
];

/// Extensions of configuration, package metadata and data.
const CONFIG_EXTENSIONS: &[&str] = &[
    ".toml",
    ".yaml",
    ".yml",
    ".json",
    ".ini",
    ".cfg",
    ".conf",
    ".lock",
    ".xml",
    ".plist",
    ".properties",
    ".gradle",
    ".mod",
    ".sum",
    ".csv",
    ".tsv",
    ".ac",
    ".am",
    ".in",
    ".m4",
    ".cmake",
    ".mk",
    ".bazel",
    ".bzl",
    // IDE project and solution files (Visual Studio, Xcode): build metadata
    // that names every source file (lz4's `visual/VS2017/*.vcxproj` took the
    // first places for any query naming "Visual").
    ".sln",
    ".vcxproj",
    ".vcproj",
    ".filters",
    ".props",
    ".targets",
    ".csproj",
    ".fsproj",
    ".vbproj",
    ".pbxproj",
    ".xcconfig",
    ".xcscheme",
    ".xcworkspacedata",
];

/// Names of build and CI files without a telling extension.
const CONFIG_NAMES: &[&str] = &[
    "makefile",
    "gnumakefile",
    "cmakelists.txt",
    "build",
    "workspace",
    "dockerfile",
    "containerfile",
    "justfile",
    // A project's own install and build scripts drive the tools on its code
    // (zoxide's `install.sh` above the Rust that runs fzf); a query that names
    // them (`install`) still ranks them as code (`names_the_file`).
    "install.sh",
    "build.sh",
    "bootstrap.sh",
    "vagrantfile",
    "procfile",
    "manifest.in",
    "setup.cfg",
    "tox.ini",
    ".travis.yml",
    "appveyor.yml",
    ".gitignore",
    ".gitattributes",
    ".editorconfig",
    ".dockerignore",
    ".npmignore",
];

/// The kind of a file from its path (forward slashes, relative or not).
pub fn file_kind(key: &str) -> FileKind {
    let lower = key.to_ascii_lowercase();
    let (folders, name) = lower.rsplit_once('/').unwrap_or(("", &lower));
    let dirs = folder_facts(folders);
    if dirs.generated
        || LOCKFILES.contains(&name)
        || GENERATED_NAME_PARTS.iter().any(|p| name.contains(p))
    {
        return FileKind::Generated;
    }
    if dirs.secondary || is_secondary_name(name) || is_extras_folder(folders) {
        return FileKind::Secondary;
    }
    if dirs.tooling
        || CONFIG_NAMES.contains(&name)
        || CONFIG_EXTENSIONS.iter().any(|ext| name.ends_with(ext))
    {
        return FileKind::Config;
    }
    FileKind::Source
}

/// Top-level folders of what ships beside a project's code rather than
/// being it: shell completions, editor and packaging extras, code
/// contributed for other tools (just's `contrib/just.sh` and
/// `completions/`, zlib's `contrib/minizip/`, httpie's `extras/`). Top level
/// only: deeper, `contrib` is a package of the project (tqdm's
/// `tqdm/contrib/logging.py`).
const EXTRAS_FOLDERS: &[&str] = &["contrib", "completions", "completion", "extras"];

/// Whether a file's folders (lowercase) open with one of [`EXTRAS_FOLDERS`]
/// (after a leading `./`). Keys are relative to where kgrep runs, so this
/// holds when it runs at the project's root, as people and agents mostly
/// run it; searched from above (`kgrep … just/`), `contrib/` is not told
/// from a package of that name, and ranks as source.
fn is_extras_folder(folders: &str) -> bool {
    let folders = folders.trim_start_matches("./");
    let top = folders.split('/').next().unwrap_or(folders);
    EXTRAS_FOLDERS.contains(&top)
}

/// What a file's folders say of its kind.
#[derive(Clone, Copy, Debug, Default)]
struct FolderFacts {
    /// A folder of generated or vendored code (`node_modules`, `vendor`).
    generated: bool,
    /// A word of a folder is a tests', examples' or docs' word.
    secondary: bool,
    /// CI folders, and the folders of a project's own build and release
    /// scripts (`scripts/build.go`, Go's `hack/`): they drive the tools on the
    /// project's code and name its parts, without being where it does anything.
    tooling: bool,
}

/// Most folder names [`FOLDERS`] holds before it starts afresh (a server
/// answers query after query, over any number of trees).
const FOLDERS_CAP: usize = 1 << 13;

thread_local! {
    /// The facts of each folder name (lowercase) this thread has read: a
    /// tree's paths share their folders, and splitting every path into words
    /// was a few percent of a query over a registry.
    static FOLDERS: std::cell::RefCell<foldhash::HashMap<String, FolderFacts>> =
        std::cell::RefCell::default();
}

/// [`FolderFacts`] of the folders of a path (lowercase, `/`-separated).
fn folder_facts(folders: &str) -> FolderFacts {
    FOLDERS.with(|cell| {
        let mut cache = cell.try_borrow_mut().ok();
        if cache.as_ref().is_some_and(|c| c.len() > FOLDERS_CAP) {
            cache.iter_mut().for_each(|c| c.clear());
        }
        let mut all = FolderFacts::default();
        for d in folders.split('/').filter(|d| !d.is_empty()) {
            let f = match cache.as_mut() {
                // A hit allocates nothing; only a new name is kept.
                Some(c) => match c.get(d) {
                    Some(f) => *f,
                    None => *c.entry(d.to_string()).or_insert(one_folder(d)),
                },
                // Re-entered: no cache.
                None => one_folder(d),
            };
            all.generated |= f.generated;
            all.secondary |= f.secondary;
            all.tooling |= f.tooling;
        }
        all
    })
}

/// [`FolderFacts`] of one folder name.
fn one_folder(d: &str) -> FolderFacts {
    let mut secondary = false;
    query::for_each_word(d, |w| {
        secondary |= is_word_of(SECONDARY_PATH_WORDS, w)
            || is_word_of(SECONDARY_FOLDER_WORDS, w)
            || is_test_folder_word(w);
    });
    FolderFacts {
        generated: GENERATED_DIRS.contains(&d),
        secondary,
        tooling: matches!(
            d,
            ".github" | ".circleci" | ".gitlab" | ".buildkite" | "scripts" | "hack"
        ),
    }
}

/// Whether the word `w` (any case) is one of `words` (lowercase).
fn is_word_of(words: &[&str], w: &str) -> bool {
    if w.is_ascii() {
        words.contains(&w)
    } else {
        words.contains(&w.to_lowercase().as_str())
    }
}

/// Whether a file's name (lowercase) is a tests', examples' or docs' name,
/// or prose by its extension or name.
fn is_secondary_name(name: &str) -> bool {
    let mut secondary_word = false;
    let mut first_word = None;
    query::for_each_word(name, |w| {
        secondary_word |= is_word_of(SECONDARY_PATH_WORDS, w);
        first_word.get_or_insert(w);
    });
    // Or its first word a prose name (`ChangeLog`, split at its capital), or
    // a Perl test script (`dyn-maxbytes.t`).
    secondary_word
        || is_prose_name(name)
        || first_word.is_some_and(|w| is_word_of(PROSE_NAMES, w))
        || name.ends_with(".t")
}

/// Whether a file's name (lowercase) is prose by its extension (`.md`) or
/// its name as one word (`CHANGES.rst`, `change-log`).
fn is_prose_name(name: &str) -> bool {
    let stem = name
        .split('.')
        .next()
        .unwrap_or(name)
        .replace(['-', '_'], "");
    PROSE_EXTENSIONS.iter().any(|ext| name.ends_with(ext))
        || PROSE_NAMES.contains(&stem.as_str())
        || is_man_page(name)
}

/// Whether a file's name (lowercase) is a man page's by its section
/// (`git.1`, `pcap_open_offline.3pcap`, `ncurses.3x`, `pcap-filter.manmisc`),
/// also as the template `configure` fills in (`….3pcap.in`). Named after the
/// function it documents, a man page holds every word of a question about
/// that function (libpcap's `pcap_open_offline.3pcap.in` ranked first for
/// how opening a capture file tells pcap from pcapng).
fn is_man_page(name: &str) -> bool {
    let name = name.strip_suffix(".in").unwrap_or(name);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let section = ext.strip_prefix("man").map_or_else(
        || {
            let mut chars = ext.chars();
            chars.next().is_some_and(|c| matches!(c, '1'..='9'))
                && ext.len() <= 8
                && chars.all(|c| c.is_ascii_lowercase())
        },
        |rest| rest.chars().all(|c| c.is_ascii_lowercase()),
    );
    !stem.is_empty() && section
}

/// Whether a path is prose: docs, markup, changelogs, licences (by extension
/// or name), as opposed to tests and examples.
pub(super) fn is_prose_path(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let folders = lower.rsplit_once('/').map_or("", |(folders, _)| folders);
    is_prose_name(name)
        || query::words(name)
            .iter()
            .any(|w| matches!(w.as_str(), "doc" | "docs"))
        || query::words(folders)
            .iter()
            .any(|w| PROSE_FOLDER_WORDS.contains(&w.as_str()))
}

/// Whether a path is a test, an example, a benchmark or prose (docs, changelogs).
pub fn is_secondary_path(key: &str) -> bool {
    file_kind(key) == FileKind::Secondary
}

/// Stems of query words that ask for tests, examples, benchmarks or a
/// readme or changelog.
const SECONDARY_QUERY_STEMS: &[&str] =
    &["test", "exampl", "readm", "changelog", "bench", "benchmark"];

/// Query words, as typed, that ask for documentation. Not `document` (a
/// parser's or an editor's document is code: "where is the title of a
/// document read" is jsoup's `Document.title()`, not its tests), which
/// shares `documentation`'s stem; nor `history` (a shell's or an editor's).
const DOC_QUERY_WORDS: &[&str] = &["doc", "docs", "documentation", "documented"];

/// Stems of query words that ask for tests (not docs).
const TEST_QUERY_STEMS: &[&str] = &["test", "bench", "benchmark"];

/// Query words, as typed, that ask for tests too: `specs` (JavaScript's
/// `*.spec.ts`), not `spec`, which as often means a format's specification
/// ("--color without spec").
const TEST_QUERY_WORDS: &[&str] = &["specs"];

/// Multiplier for source files when the query asks for tests.
pub(super) const TESTED_SOURCE_PRIOR: f64 = 0.7;

/// Whether the query asks for tests or benchmarks (typed as a word, not
/// inside an identifier).
pub fn query_wants_tests(terms: &[Term]) -> bool {
    asks_for(terms, TEST_QUERY_STEMS, TEST_QUERY_WORDS)
}

/// Stems of query words that ask for a declaration itself: "where is the
/// `Config` type defined", "the interface a handler implements".
const DECLARATION_QUERY_STEMS: &[&str] = &[
    "declar", "defin", "definit", "enum", "interfac", "prototyp", "signatur", "struct", "type",
];

/// Whether the query asks for a declaration (a type, an interface, where
/// something is defined or declared) rather than for the code that does a
/// thing.
pub fn query_asks_declaration(terms: &[Term]) -> bool {
    asks_for(terms, DECLARATION_QUERY_STEMS, &[])
}

/// Whether a word typed in the query (not inside one of its identifiers) has
/// one of `stems` or is one of `words`.
fn asks_for(terms: &[Term], stems: &[&str], words: &[&str]) -> bool {
    terms
        .iter()
        // Typed words only: `docs` is a synonym of `document`.
        .filter(|t| !t.is_identifier() && !t.aside && t.origin == query::Origin::Query)
        .any(|t| {
            (stems.contains(&t.stem.as_str()) || words.contains(&t.text.as_str()))
                && !in_identifier(terms, t)
        })
}

/// Whether a word is a part of one of the query's identifiers (`test` of
/// `TestClient`): it names code there rather than asking for a kind of file.
fn in_identifier(terms: &[Term], word: &Term) -> bool {
    terms
        .iter()
        .any(|i| i.is_identifier() && i.parts.contains(&word.text))
}

/// Whether the query itself is about tests or documentation: a word such as
/// "tests" or "docs" typed as a word, not inside an identifier (`TestClient`
/// names a class, it does not ask for tests).
pub fn query_wants_secondary(terms: &[Term]) -> bool {
    asks_for(terms, SECONDARY_QUERY_STEMS, DOC_QUERY_WORDS)
        || asks_for(terms, &[], TEST_QUERY_WORDS)
}

/// Multiplier for a source file written for one less common platform
/// (`tty_windows.go`, `src/sys/windows/`, `darwin.c`) when the query names
/// no platform: it repeats the portable code's words (the same function,
/// once per system), and a question that does not say which system asks
/// about the code every system runs (bubbletea's `tty_windows.go` above
/// `tea.go` for how the program restores the terminal). Measured at 0.8 over
/// the tuned question sets (980): 568 -> 569 RIGHT (2 up, none down); the
/// untuned sets (240) 135 -> 137; dev, commit and held-out commit sets
/// unchanged.
pub(super) const PLATFORM_VARIANT_PRIOR: f64 = 0.8;

/// Platform names that mark a file or folder as one system's variant of
/// portable code: Go's build-constraint file suffixes (`_windows.go`) and
/// the folder and file names other languages give such code. Not `linux`,
/// `unix` or `posix`: on those the portable code usually is the code.
const PLATFORM_WORDS: &[&str] = &[
    "aix",
    "android",
    "cygwin",
    "darwin",
    "dragonfly",
    "freebsd",
    "haiku",
    "illumos",
    "ios",
    "macos",
    "mingw",
    "msvc",
    "netbsd",
    "openbsd",
    "osx",
    "plan9",
    "solaris",
    "wasi",
    "wasm",
    "win32",
    "win64",
    "windows",
];

/// Whether a path is one platform's variant ([`PLATFORM_WORDS`]): a folder
/// named for the platform, or a file name whose last `_`/`-`/`.` part
/// before the extension is one (`tty_windows.go`, `fs-darwin.c`,
/// `windows.rs`).
fn is_platform_variant(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let (folders, name) = lower.rsplit_once('/').unwrap_or(("", &lower));
    let stem = name.split('.').next().unwrap_or(name);
    let last = stem.rsplit(['_', '-']).next().unwrap_or(stem);
    PLATFORM_WORDS.contains(&last) || folders.split('/').any(|d| PLATFORM_WORDS.contains(&d))
}

/// Whether the query names a platform (a question about one system's
/// behaviour keeps every system's files).
fn names_a_platform(terms: &[Term]) -> bool {
    terms.iter().any(|t| {
        let w = t.text.to_ascii_lowercase();
        PLATFORM_WORDS.contains(&w.as_str())
            || ["linux", "unix", "posix", "mac", "win", "bsd"].contains(&w.as_str())
    })
}

/// The prior of a file's kind for this query: 1 for source; less for the
/// other kinds, unless the query asks for tests or docs (secondary files), or
/// names the configuration file itself (`Cargo.toml` for "cargo features").
pub fn file_prior(key: &str, terms: &[Term]) -> f64 {
    match file_kind(key) {
        // "Which test checks …": the tests are the answer, the code they
        // test a close second.
        FileKind::Source if query_wants_tests(terms) => TESTED_SOURCE_PRIOR,
        FileKind::Source if is_platform_variant(key) && !names_a_platform(terms) => {
            PLATFORM_VARIANT_PRIOR
        }
        FileKind::Source => 1.0,
        FileKind::Secondary if query_wants_tests(terms) && is_prose_path(key) => {
            SECONDARY_FILE_PRIOR
        }
        FileKind::Secondary if query_wants_secondary(terms) => 1.0,
        FileKind::Secondary => SECONDARY_FILE_PRIOR,
        FileKind::Config if names_the_file(key, terms) => 1.0,
        FileKind::Config => CONFIG_FILE_PRIOR,
        FileKind::Generated => GENERATED_FILE_PRIOR,
    }
}

/// The prior of a file once its units are known, for a query that asks for
/// tests:
/// - a source file whose best unit is a test (Rust's `mod tests`, a test
///   function beside the code) has a test file's, since the test it holds is
///   the answer (mdBook's `test_tokenize_long_words_filtered` in `search.rs`,
///   below an integration test file about search);
/// - a file on the tests' side only by a word such as `testing`, `testutil`
///   or `fixtures` (not in a tests folder, not named as a test:
///   [`named_as_tests`]), whose units a parser read, in a language whose
///   tests kgrep tells apart (`units::Lang::tells_tests`), and none of whose
///   units holding the query's words is a test, is test support (a testing
///   helper library, fixtures): it has a source file's prior, below the tests
///   (pinia's `packages/testing/src/testing.ts`, which the `testing.spec.ts`
///   beside it tests). A file in `tests/` keeps a test's prior whatever its
///   units: not every test framework is told apart (invoke's
///   `tests/context.py` holds `Context_` classes, env_logger's
///   `tests/regexp_filter.rs` a `main`).
///
/// `prior` otherwise. `parsed` is the language the units were parsed in
/// (`None`: line heuristics, which tell no tests apart).
pub fn with_test_units(
    prior: f64,
    key: &str,
    terms: &[Term],
    units: &[super::unit::RankedUnit],
    parsed: Option<crate::units::Lang>,
) -> f64 {
    if !query_wants_tests(terms) {
        return prior;
    }
    let tested = units.first().is_some_and(|u| u.span.test);
    match file_kind(key) {
        FileKind::Source if tested => 1.0,
        // Tests proper: a query about benchmarks may be about a benchmarking
        // tool's own code (hyperfine's `src/benchmark/`).
        FileKind::Secondary
            if asks_for(terms, &["test"], TEST_QUERY_WORDS)
                && parsed.is_some_and(crate::units::Lang::tells_tests)
                && !units.is_empty()
                && !units.iter().any(|u| u.span.test)
                && !named_as_tests(key)
                && !is_prose_path(key) =>
        {
            prior.min(TESTED_SOURCE_PRIOR)
        }
        _ => prior,
    }
}

/// Folder and file-name words that say a path holds tests themselves, not
/// support for them (`testing`, `testutil`, `fixtures`) nor examples.
const TESTS_WORDS: &[&str] = &[
    "test",
    "tests",
    "spec",
    "specs",
    "__tests__",
    "e2e",
    "regress",
    "regression",
];

/// File names (without extension) of the support a test suite keeps beside
/// its tests (pytest's `conftest.py`, `tests/common/mod.rs`'s folder aside,
/// `helpers.js`, `fixtures.py`): in a tests folder, still not tests.
const TEST_SUPPORT_NAMES: &[&str] = &[
    "conftest", "helper", "helpers", "fixture", "fixtures", "mock", "mocks", "util", "utils",
    "support", "setup",
];

/// Whether a path (any case) names tests: a folder or a word of the file's
/// name is one of [`TESTS_WORDS`] (`tests/`, `foo_test.go`,
/// `testing.spec.ts`, `FooTest.java`, `test_foo.py`), or it is a Perl test
/// script (`t/`, `.t`).
fn named_as_tests(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let (folders, name) = lower.rsplit_once('/').unwrap_or(("", &lower));
    let stem = name.split('.').next().unwrap_or(name);
    if TEST_SUPPORT_NAMES.contains(&stem) {
        return false;
    }
    let mut tests = name.ends_with(".t");
    query::for_each_word(folders, |w| tests |= TESTS_WORDS.contains(&w) || w == "t");
    query::for_each_word(name, |w| tests |= TESTS_WORDS.contains(&w));
    tests
}

/// Whether a query word (not a synonym) is a word of the file's name.
fn names_the_file(key: &str, terms: &[Term]) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    let stems: Vec<String> = query::words(name).iter().map(|w| query::stem(w)).collect();
    terms
        .iter()
        .filter(|t| t.origin == query::Origin::Query)
        .any(|t| stems.contains(&t.stem))
}

/// `file_prior`, also demoting a file whose text reads as minified, and a
/// file of data ([`is_bare_data`]).
pub fn text_prior(key: &str, terms: &[Term], text: &[u8]) -> f64 {
    let lines = memchr::memchr_iter(b'\n', text).count() + 1;
    let prior = text_prior_of(key, terms, text.len(), lines);
    if is_bare_data(key, text) && file_kind(key) == FileKind::Source {
        prior.min(CONFIG_FILE_PRIOR)
    } else if is_deprecated_file(key, text) && !asks_deprecated(terms) {
        prior * DEPRECATED_FILE_PRIOR
    } else {
        prior
    }
}

/// Whether a word of the query is *deprecated* (in any form): then the
/// deprecated files are what it asks about.
fn asks_deprecated(terms: &[Term]) -> bool {
    let stem = query::stem("deprecated");
    terms
        .iter()
        .any(|t| t.origin == query::Origin::Query && t.stem == stem)
}

/// Multiplier for a file its project marks deprecated as a whole: it keeps
/// an old way of doing what newer code does (commons-cli's `PosixParser`
/// beside `DefaultParser`, junit4's `JUnit4ClassRunner` beside
/// `BlockJUnit4ClassRunner`), so it holds the question's words without
/// being where the behaviour lives now. Over the tuned question sets (980),
/// 21 of the first five candidates were such files and no answer was one.
/// Measured at 0.7: RIGHT unchanged (569 of 980), PARTIAL 116 -> 118
/// (commons-cli-09, junit4-01 now print the answer file; none down), the
/// untuned sets unchanged; dev, commit and held-out commit sets unchanged.
pub(super) const DEPRECATED_FILE_PRIOR: f64 = 0.7;

/// Whether the file as a whole is deprecated: in Java and Kotlin, the type
/// named as the file is annotated `@Deprecated` (a deprecated method or
/// field is not the file's). Not a Python module that warns it is
/// deprecated: jsonschema's `cli.py` does, and it is still the only command
/// line, where two questions' answers are.
fn is_deprecated_file(key: &str, text: &[u8]) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    match ext {
        "java" | "kt" => {
            memchr::memmem::find(text, b"@Deprecated").is_some() && deprecated_type(text, stem)
        }
        _ => false,
    }
}

/// Whether the annotations right before the declaration of the type `stem`
/// (`public final class Stem`, `interface Stem`, Kotlin's `class Stem`)
/// include `@Deprecated`.
fn deprecated_type(text: &[u8], stem: &str) -> bool {
    let text = String::from_utf8_lossy(text);
    let mut annotations = false;
    for line in text.lines() {
        let line = line.trim();
        let words: Vec<&str> = line
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .collect();
        let declares = words.windows(2).any(|w| {
            ["class", "interface", "enum", "record", "object"].contains(&w[0]) && w[1] == stem
        });
        if declares {
            return annotations || line.contains("@Deprecated");
        }
        if line.starts_with('@') {
            annotations |= line.starts_with("@Deprecated");
        } else if !(line.is_empty()
            || line.starts_with("//")
            || line.starts_with("/*")
            || line.starts_with('*'))
        {
            annotations = false;
        }
    }
    false
}

/// Whether a file kgrep would take for source is data: its name has no
/// extension and its text is no script (no `#!` line). joda-time keeps the
/// time-zone database's sources (`tz/src/asia`, `australasia`) beside its
/// Java: they name every city and rule, and ranked first for questions on
/// how the code computes a date. Source code has an extension (of the 740
/// question-set answers, every file has one); a script without one opens
/// with `#!`; build files without one are known by name (`Makefile`).
/// Piped text (`<stdin>`) has no name to go by: it is what was asked about.
fn is_bare_data(key: &str, text: &[u8]) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    key != crate::walk::STDIN_KEY && !name.contains('.') && !text.starts_with(b"#!")
}

/// [`text_prior`] of a text known by its length and its number of lines (a
/// file scored as it streams).
pub fn text_prior_of(key: &str, terms: &[Term], len: usize, lines: usize) -> f64 {
    let prior = file_prior(key, terms);
    if len / lines.max(1) > MINIFIED_MEAN_LINE {
        prior.min(GENERATED_FILE_PRIOR)
    } else {
        prior
    }
}

/// Mean bytes per line above which a text is minified or generated data
/// rather than code written by hand (hand-written code averages 30–50).
pub(super) const MINIFIED_MEAN_LINE: usize = 300;

/// Whether a text reads as minified or machine-written: few, very long lines.
pub fn looks_minified(text: &[u8]) -> bool {
    let lines = memchr::memchr_iter(b'\n', text).count() + 1;
    text.len() / lines > MINIFIED_MEAN_LINE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_asks_for_a_declaration_by_its_words() {
        let asks = |q: &str| query_asks_declaration(&crate::query::analyze(q).terms);
        assert!(asks("where is the Config type defined"));
        assert!(asks("which interface does a handler implement"));
        assert!(asks("where is the connect function declared"));
        assert!(asks("struct for the parser options"));
        assert!(!asks("how does the client pick an address family"));
        assert!(!asks("where are plugins registered"));
        // Inside an identifier, a word names code: `TypeHandler`.
        assert!(!asks("where does TypeHandler convert a string"));
    }

    #[test]
    fn kinds_from_paths() {
        for (path, kind) in [
            ("src/requests/sessions.py", FileKind::Source),
            ("lib/adapters/http.js", FileKind::Source),
            ("index.d.ts", FileKind::Source),
            ("build.rs", FileKind::Source),
            ("src/build/app/mod.rs", FileKind::Source),
            ("src/protest.rs", FileKind::Source),
            ("tests/test_retry.py", FileKind::Secondary),
            ("HISTORY.rst", FileKind::Secondary),
            ("man/man1/fzf.1", FileKind::Secondary),
            ("man/i3.man", FileKind::Secondary),
            ("contrib/just.sh", FileKind::Secondary),
            ("./contrib/minizip/unzip.c", FileKind::Secondary),
            ("completions/dust.bash", FileKind::Secondary),
            ("extras/packaging/build.py", FileKind::Secondary),
            ("tqdm/contrib/logging.py", FileKind::Source),
            ("src/completion.go", FileKind::Source),
            ("man/i3-msg.txt", FileKind::Secondary),
            ("doc/usage.markdown", FileKind::Secondary),
            ("lib/Pod/Usage.pod", FileKind::Secondary),
            ("src/human.c", FileKind::Source),
            ("src/man.c", FileKind::Source),
            (
                "packages/online-playground/src/download.ts",
                FileKind::Secondary,
            ),
            ("docs/api.md", FileKind::Secondary),
            ("manual/manual.of", FileKind::Secondary),
            ("sample/sample2-using-groups/app.ts", FileKind::Secondary),
            ("demos/basic/main.go", FileKind::Secondary),
            ("src/audio/sample_rate.c", FileKind::Source),
            ("torch/manual_seed.py", FileKind::Source),
            ("internal/testdata/config.go", FileKind::Secondary),
            ("pkg/testutil/server.go", FileKind::Secondary),
            ("src/testament.rs", FileKind::Source),
            ("t/lib/MemcachedTest.pm", FileKind::Secondary),
            ("t/dyn-maxbytes.t", FileKind::Secondary),
            ("DEMO.ipynb", FileKind::Secondary),
            ("src/t.go", FileKind::Source),
            ("src/format.tt", FileKind::Source),
            ("Cargo.toml", FileKind::Config),
            ("package.json", FileKind::Config),
            ("appveyor.yml", FileKind::Config),
            (".github/workflows/ci.yml", FileKind::Config),
            ("scripts/build.go", FileKind::Config),
            ("hack/update-codegen.sh", FileKind::Config),
            ("src/scripts.go", FileKind::Source),
            ("Makefile", FileKind::Config),
            ("install.sh", FileKind::Config),
            ("scripts/tools/build.sh", FileKind::Config),
            ("src/install.rs", FileKind::Source),
            ("configure.ac", FileKind::Config),
            ("Makefile.am", FileKind::Config),
            ("build/VS2017/lz4.sln", FileKind::Config),
            ("visual/2012/lz4/lz4.vcxproj", FileKind::Config),
            ("visual/2012/lz4/lz4.vcxproj.filters", FileKind::Config),
            ("Lib.xcodeproj/project.pbxproj", FileKind::Config),
            (
                "src/Newtonsoft.Json/Newtonsoft.Json.csproj",
                FileKind::Config,
            ),
            ("ChangeLog", FileKind::Secondary),
            ("src/decNumber/decnumber.pdf", FileKind::Secondary),
            ("jq.1.prebuilt", FileKind::Generated),
            ("dist/axios.min.js", FileKind::Generated),
            ("dist/axios.js", FileKind::Generated),
            ("dist/esm/axios.min.js.map", FileKind::Generated),
            ("lib/axios.js.map", FileKind::Generated),
            ("Cargo.lock", FileKind::Generated),
            ("yarn.lock", FileKind::Generated),
            ("vendor/github.com/x/y.go", FileKind::Generated),
            ("deps/jemalloc/src/pages.c", FileKind::Generated),
            ("api/v1/service.pb.go", FileKind::Generated),
            ("proto/service_pb2.py", FileKind::Generated),
        ] {
            assert_eq!(file_kind(path), kind, "{path}");
        }
    }

    #[test]
    fn priors_order_source_first_and_yield_to_the_query() {
        let plain = crate::query::analyze("retry delay").terms;
        assert_eq!(file_prior("src/retry.rs", &plain), 1.0);
        assert!(file_prior("Cargo.toml", &plain) < 1.0);
        assert!(file_prior("dist/retry.min.js", &plain) < file_prior("Cargo.toml", &plain));
        let cargo = crate::query::analyze("which cargo features are enabled").terms;
        assert_eq!(file_prior("Cargo.toml", &cargo), 1.0);
        let tests = crate::query::analyze("retry delay tests").terms;
        assert_eq!(file_prior("tests/retry.rs", &tests), 1.0);
        let class = crate::query::analyze("ensure TestClient sets the reason").terms;
        assert!(file_prior("tests/test_client.py", &class) < 1.0);
        assert!(file_prior("dist/retry.js", &tests) < 1.0);
    }

    #[test]
    fn one_platforms_variant_yields_to_the_portable_code_unless_the_query_names_a_platform() {
        const PLAIN: &str = "how does the terminal restore its input mode";
        let variant = PLATFORM_VARIANT_PRIOR;
        for (query, path, prior) in [
            (PLAIN, "tty.go", 1.0),
            (PLAIN, "tty_unix.go", 1.0),
            (PLAIN, "tty_windows.go", variant),
            (PLAIN, "src/sys/windows/mod.rs", variant),
            (PLAIN, "lib/fs-darwin.c", variant),
            (PLAIN, "windows.rs", variant),
            (PLAIN, "platform/win32/term.c", variant),
            // A word that only contains a platform's name is no platform.
            (PLAIN, "src/window.rs", 1.0),
            (PLAIN, "src/darwinism.py", 1.0),
            // A query that names a platform keeps its variants.
            (
                "how does the terminal restore its input mode on Windows",
                "tty_windows.go",
                1.0,
            ),
            (
                "how is the input mode restored on macOS",
                "tty_windows.go",
                1.0,
            ),
            ("input mode restore on linux", "tty_windows.go", 1.0),
        ] {
            let terms = crate::query::analyze(query).terms;
            assert_eq!(file_prior(path, &terms), prior, "{query}: {path}");
        }
        let plain = crate::query::analyze(PLAIN).terms;
        // Tests stay tests.
        assert!(file_prior("tty_windows_test.go", &plain) < PLATFORM_VARIANT_PRIOR);
    }

    #[test]
    fn a_java_type_deprecated_as_a_whole_yields_to_the_code_that_replaced_it() {
        let terms = crate::query::analyze("how are short options parsed").terms;
        let deprecated = "package org.cli;\n\nimport java.util.List;\n\n/**\n * Old parser.\n */\n\
            @Deprecated\npublic class PosixParser extends Parser {\n    void parse() {}\n}\n";
        for (key, text, prior) in [
            ("src/PosixParser.java", deprecated, DEPRECATED_FILE_PRIOR),
            // Annotated on the declaration's own line too, and in Kotlin.
            (
                "Old.java",
                "@Deprecated(\"use New\") public final class Old {\n}\n",
                DEPRECATED_FILE_PRIOR,
            ),
            (
                "Old.kt",
                "@Deprecated(\"use New\")\nclass Old {\n}\n",
                DEPRECATED_FILE_PRIOR,
            ),
            // A deprecated method, or another type's annotation, is not the file's.
            (
                "DefaultParser.java",
                "public class DefaultParser {\n    @Deprecated\n    public void old() {}\n}\n",
                1.0,
            ),
            (
                "Parser.java",
                "@Deprecated\nclass Helper {}\n\npublic class Parser {\n}\n",
                1.0,
            ),
        ] {
            assert_eq!(text_prior(key, &terms, text.as_bytes()), prior, "{key}");
        }
        // Asked for, it is the answer.
        let asked = crate::query::analyze("which parser is deprecated").terms;
        assert_eq!(
            text_prior("src/PosixParser.java", &asked, deprecated.as_bytes()),
            1.0
        );
    }

    #[test]
    fn man_pages_are_prose() {
        assert!(is_prose_path("man/i3.man"));
        assert!(is_prose_path("man/man1/fzf.1"));
        assert!(is_prose_path("docs/intro.mdx"));
        assert!(!is_prose_path("src/man.c"));
        assert!(!is_prose_path("t/lib/MemcachedTest.pm"));
        // Sections with a suffix, and the templates `configure` fills in.
        for page in [
            "pcap_open_offline.3pcap.in",
            "pcap-filter.manmisc.in",
            "doc/ncurses.3x",
            "ssl.3ssl",
            "pcap-config.1",
        ] {
            assert!(is_prose_path(page), "{page}");
            assert_eq!(file_kind(page), FileKind::Secondary, "{page}");
        }
        for code in [
            "config.h.in",
            "grammar.y.in",
            "Makefile.in",
            "vec.h",
            "v1.2.go",
        ] {
            assert!(!is_prose_path(code), "{code}");
        }
    }

    #[test]
    fn tests_are_told_from_their_support_by_path() {
        for path in [
            "tests/context.py",
            "packages/testing/src/testing.spec.ts",
            "src/test/java/org/x/FooTest.java",
            "cmd/run_test.go",
            "test_config.py",
            "t/200-urgency-timer.t",
            "src/__tests__/store.ts",
        ] {
            assert!(named_as_tests(path), "{path}");
        }
        for path in [
            "packages/testing/src/testing.ts",
            "pkg/testutil/server.go",
            "tests/conftest.py",
            "tests/helpers.js",
            "examples/basic/main.go",
            "src/testclient.py",
        ] {
            assert!(!named_as_tests(path), "{path}");
        }
    }

    #[test]
    fn a_file_without_extension_or_shebang_is_data() {
        let terms = crate::query::analyze("which calendar year a timestamp falls in").terms;
        let rules =
            b"# Rule NAME FROM TO IN ON AT SAVE\nRule Japan 1948 only - May Sat>=1 24:00 1:00 D\n";
        assert!(text_prior("src/main/java/org/joda/time/tz/src/asia", &terms, rules) < 1.0);
        let script = b"#!/usr/bin/env python3\nprint('year')\n";
        assert_eq!(text_prior("bin/calendar", &terms, script), 1.0);
        assert_eq!(text_prior("src/year.c", &terms, rules), 1.0);
        assert_eq!(text_prior(crate::walk::STDIN_KEY, &terms, rules), 1.0);
    }

    #[test]
    fn minified_text_is_few_long_lines() {
        let code = "fn main() {\n    println!(\"hi\");\n}\n".repeat(50);
        assert!(!looks_minified(code.as_bytes()));
        let bundle = format!("{}\n", "var a=function(b){return b};".repeat(400));
        assert!(looks_minified(bundle.as_bytes()));
        assert!(!looks_minified(b""));
    }
}
