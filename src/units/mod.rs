//! Code units: a source file parsed with tree-sitter and cut into the
//! functions, methods, classes, structs, impls, traits, interfaces, modules,
//! type aliases, top-level constants and variables and macros it defines, each
//! with its extent, name, signature, body and doc comment, plus the file's
//! calls, string literals and other comments (issue 31, "Answers, not
//! mentions").
//!
//! Owns choosing a grammar by file extension ([`Lang::of_path`]), parsing
//! within a size cap and a time limit, and turning the syntax tree into plain
//! data ([`Units`]). Top-level statements outside any unit are grouped into
//! small [`UnitKind::Statements`] units, so every line of code belongs to some
//! unit. Does not own which files are parsed, scoring units or printing them
//! (the pipeline, `score`, `render`), nor splitting identifiers into words
//! (`query::words`). Files of other languages keep the line heuristics of the
//! stages that call this one.
//!
//! Per language, what becomes a unit is a table in `detect` and the syntax
//! around it (comments, strings, calls, imports, transparent containers such as
//! `#ifdef` or `export`) is in `lang`; `extract` walks the tree once with a
//! cursor and `statements` groups what is left at the top level.

mod detect;
mod extract;
mod lang;
mod preproc;
#[cfg(test)]
mod proptests;
mod statements;
#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::ops::{ControlFlow, Range};
use std::time::{Duration, Instant};

/// Files larger than this are not parsed: at tree-sitter's 2–3 MB/s a bigger
/// file costs more than the answer is worth, and such files are mostly
/// generated (bundles, tables, amalgamations) where line heuristics do as well.
pub const MAX_PARSE_BYTES: usize = 1 << 20;

/// The least time a parse is given, in CPU time of the parsing thread (so a
/// busy machine does not stop it). A parse that takes longer than both this
/// and [`MIN_PARSE_RATE`] allows is stopped: that happens when a grammar's
/// error recovery runs away (a wrong or broken file parses about 10× slower).
pub const MIN_PARSE_TIME: Duration = Duration::from_millis(100);

/// Bytes a second a parse must at least reach once past [`MIN_PARSE_TIME`]:
/// a third of tree-sitter's usual speed, so a healthy parse of a file up to
/// [`MAX_PARSE_BYTES`] always finishes and a runaway one is cut off.
pub const MIN_PARSE_RATE: usize = 1_000_000;

/// A language kgrep parses into units, chosen by file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    Python,
    Go,
    JavaScript,
    TypeScript,
    Tsx,
    Java,
    C,
    Cpp,
}

impl Lang {
    /// Whether `units::detect` tells this language's test code from the
    /// rest (test attributes, test-named functions and classes, test
    /// callbacks): not C, whose tests are plain functions, nor C++ beyond
    /// GoogleTest's macros.
    pub fn tells_tests(self) -> bool {
        !matches!(self, Lang::C | Lang::Cpp)
    }

    /// Every language, in declaration order.
    pub const ALL: [Lang; 9] = [
        Lang::Rust,
        Lang::Python,
        Lang::Go,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
    ];

    /// By the path's extension: rs, py/pyi, go, js/mjs/cjs/jsx, ts/mts/cts,
    /// tsx, java, c/h, cc/cpp/cxx/hpp/hh/hxx (`.h` → C). Case-insensitive.
    pub fn of_path(path: &str) -> Option<Lang> {
        let lang = match extension(path)?.as_str() {
            "rs" => Lang::Rust,
            "py" | "pyi" => Lang::Python,
            "go" => Lang::Go,
            "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "java" => Lang::Java,
            "c" | "h" => Lang::C,
            "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => Lang::Cpp,
            _ => return None,
        };
        Some(lang)
    }

    /// Whether a path is a C or C++ header (`.h`, `.hh`, `.hpp`, `.hxx`): the
    /// header extensions of [`Lang::of_path`]'s table.
    pub fn is_header(path: &str) -> bool {
        extension(path).is_some_and(|ext| matches!(ext.as_str(), "h" | "hh" | "hpp" | "hxx"))
    }

    /// [`Lang::of_path`], with a `.h` header that reads as C++ (a
    /// namespace, a class, a template, `std::`, an access label) parsed as
    /// C++: the C grammar's error recovery turns `namespace fmt {` into a
    /// function and hides the definitions inside it.
    pub fn of_source(path: &str, text: &[u8]) -> Option<Lang> {
        let lang = Lang::of_path(path)?;
        if lang != Lang::C || !path.to_ascii_lowercase().ends_with(".h") {
            return Some(lang);
        }
        const CPP_MARKERS: &[&[u8]] = &[
            b"namespace ",
            b"class ",
            b"template<",
            b"template <",
            b"std::",
            b"public:",
            b"private:",
        ];
        let head = &text[..text.len().min(64 << 10)];
        let cpp = CPP_MARKERS
            .iter()
            .any(|m| memchr::memmem::find(head, m).is_some());
        Some(if cpp { Lang::Cpp } else { Lang::C })
    }

    /// The short name kgrep shows for the language (`rust`, `python`, …).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::Go => "go",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Java => "java",
            Lang::C => "c",
            Lang::Cpp => "cpp",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A file name's extension, lowercase (`rs` for `src/Main.RS`); `None` for a
/// name without one, or a hidden file such as `.rs`, which is no Rust file.
fn extension(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Union,
    Trait,
    Interface,
    Impl,
    Module,
    TypeAlias,
    Const,
    Var,
    Macro,
    /// Consecutive top-level statements outside any other unit.
    Statements,
}

impl UnitKind {
    /// Lowercase name for `--explain` and `--json` (`function`, `type_alias`, …).
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Function => "function",
            UnitKind::Method => "method",
            UnitKind::Class => "class",
            UnitKind::Struct => "struct",
            UnitKind::Enum => "enum",
            UnitKind::Union => "union",
            UnitKind::Trait => "trait",
            UnitKind::Interface => "interface",
            UnitKind::Impl => "impl",
            UnitKind::Module => "module",
            UnitKind::TypeAlias => "type_alias",
            UnitKind::Const => "const",
            UnitKind::Var => "var",
            UnitKind::Macro => "macro",
            UnitKind::Statements => "statements",
        }
    }

    /// Holds other definitions (a method's class, impl, trait, …).
    pub fn is_container(self) -> bool {
        matches!(
            self,
            UnitKind::Class
                | UnitKind::Struct
                | UnitKind::Enum
                | UnitKind::Union
                | UnitKind::Trait
                | UnitKind::Interface
                | UnitKind::Impl
        )
    }
}

/// One code unit. Byte offsets index the parsed text; lines are 1-based, inclusive.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub kind: UnitKind,
    /// Byte range of the defined name (`find_best_app` in `def find_best_app(`), if any.
    /// For a JS/TS call with a callback (`it('does y', () => …)`), the first
    /// string argument's content, else the callee's name.
    pub name: Option<Range<usize>>,
    /// The whole unit: its doc comment / decorators / attributes above it included.
    pub start_line: usize,
    pub end_line: usize,
    /// The line holding the name (the "defining line"; for Statements, its first line;
    /// for an unnamed unit, the line its node starts on).
    pub def_line: usize,
    /// Byte range of the signature/header: from the unit's node start (after
    /// doc comments; Rust attributes, decorators and annotations included) to
    /// where the body starts, trailing whitespace excluded (the whole node when
    /// it has no body). For Statements, empty at the body's start: a run of
    /// statements is all body.
    pub header: Range<usize>,
    /// Byte range of the body (block / class body / field list; a constant's
    /// or variable's initializer; a macro's value), if any.
    pub body: Option<Range<usize>>,
    /// Byte ranges of the unit's doc comment(s) / docstring (comments directly above it,
    /// Python docstring inside it, Javadoc/JSDoc/`///`/`//!`), in document order.
    pub doc: Vec<Range<usize>>,
    /// Index (into Units::units) of the innermost enclosing unit (a method's class/impl), if any.
    pub parent: Option<usize>,
    /// Test code: a test function or class (see `detect`), or anything inside one or
    /// inside a Rust `#[cfg(test)]` item.
    pub test: bool,
    /// The whole unit's byte range, from its first doc comment or attribute to
    /// the end of its node (trailing whitespace excluded): the byte extent of
    /// `start_line..=end_line`. Spans nest: a unit's span holds its children's.
    pub span: Range<usize>,
}

impl Unit {
    /// The unit's name as text, if it has one and it is UTF-8.
    pub fn name_in<'t>(&self, text: &'t [u8]) -> Option<&'t str> {
        let range = self.name.clone()?;
        std::str::from_utf8(text.get(range)?).ok()
    }
}

/// Everything the parse found, sorted by start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Units {
    /// Units in document order (a parent before its children).
    pub units: Vec<Unit>,
    /// Byte ranges of the callee names of calls (`foo` in `foo(x)`, `bar` in `a.b.bar()`, `new Foo()` → `Foo`,
    /// method invocations, macro invocations `vec!` → `vec`): the last identifier of the callee.
    pub calls: Vec<Range<usize>>,
    /// Byte ranges of string literal contents (template strings too), docstrings excepted.
    pub strings: Vec<Range<usize>>,
    /// Byte ranges of comments that are not a unit's doc (a Python module docstring too).
    pub comments: Vec<Range<usize>>,
}

impl Units {
    /// The innermost unit whose extent (start_line..=end_line) holds the line, if any.
    pub fn at_line(&self, line: usize) -> Option<usize> {
        let after = self.units.partition_point(|u| u.start_line <= line);
        let mut at = after.checked_sub(1)?;
        loop {
            let unit = &self.units[at];
            if unit.start_line <= line && line <= unit.end_line {
                return Some(at);
            }
            at = unit.parent?;
        }
    }

    /// The innermost unit whose byte span holds the offset, if any.
    pub fn at_byte(&self, offset: usize) -> Option<usize> {
        let after = self.units.partition_point(|u| u.span.start <= offset);
        let mut at = after.checked_sub(1)?;
        loop {
            let unit = &self.units[at];
            if unit.span.contains(&offset) {
                return Some(at);
            }
            at = unit.parent?;
        }
    }

    /// The chain of units holding `index`, innermost first (`index` included).
    pub fn ancestors(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(index).filter(|&i| i < self.units.len()), |&i| {
            self.units[i].parent
        })
    }
}

/// Parses `text` as `lang` and extracts its units. `None` when the text is not
/// worth parsing (over [`MAX_PARSE_BYTES`], or the parse failed or ran past its
/// time limit: [`MIN_PARSE_TIME`], or longer at [`MIN_PARSE_RATE`]) — the caller
/// then keeps its line heuristics. Never panics.
pub fn parse(lang: Lang, text: &[u8]) -> Option<Units> {
    let rate_limit = Duration::from_secs_f64(text.len() as f64 / MIN_PARSE_RATE as f64);
    parse_within(lang, text, MIN_PARSE_TIME.max(rate_limit))
}

/// [`parse`] with the caller's time limit instead of the default one.
pub fn parse_within(lang: Lang, text: &[u8], limit: Duration) -> Option<Units> {
    if text.len() > MAX_PARSE_BYTES {
        return None;
    }
    // C's conditional compilation inside a body can break the rest of the
    // file's parse, and its error recovery can run past the time limit
    // (`preproc`): the first branches are parsed alone instead.
    let first_branches = match lang {
        Lang::C | Lang::Cpp => {
            preproc::masked(text).and_then(|copy| parse_tree(lang, &copy, limit))
        }
        _ => None,
    };
    let tree = match first_branches {
        Some(tree) => tree,
        None => parse_tree(lang, text, limit)?,
    };
    Some(extract::units(lang, text, &tree))
}

thread_local! {
    /// One parser a language a thread, made on first use: a parser keeps its
    /// allocations between parses.
    static PARSERS: RefCell<[Option<tree_sitter::Parser>; 9]> = RefCell::default();
}

fn parse_tree(lang: Lang, text: &[u8], limit: Duration) -> Option<tree_sitter::Tree> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.try_borrow_mut().ok()?;
        let slot = &mut parsers[lang.index()];
        if slot.is_none() {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&lang::grammar(lang)).ok()?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut()?;
        // A parse stopped by the time limit would otherwise resume on the next call.
        parser.reset();
        let clock = Clock::start();
        let mut in_time = |_: &tree_sitter::ParseState| {
            if clock.elapsed() < limit {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut in_time);
        let mut read = |at: usize, _| text.get(at..).unwrap_or_default();
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        if tree.is_none() {
            parser.reset();
        }
        tree
    })
}

/// The time a parse has taken: the thread's CPU time, so that waiting for a
/// core on a busy machine does not count (a runaway parse burns CPU); the wall
/// clock where CPU time cannot be read.
enum Clock {
    Cpu(cpu_time::ThreadTime),
    Wall(Instant),
}

impl Clock {
    fn start() -> Clock {
        match cpu_time::ThreadTime::try_now() {
            Ok(now) => Clock::Cpu(now),
            Err(_) => Clock::Wall(Instant::now()),
        }
    }

    fn elapsed(&self) -> Duration {
        match self {
            Clock::Cpu(start) => start.try_elapsed().unwrap_or(Duration::MAX),
            Clock::Wall(start) => start.elapsed(),
        }
    }
}
