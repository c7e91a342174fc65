//! Code units as ranked documents: which function, method, class or block of
//! statements holds the query, field by field.
//!
//! Owns where each term occurrence sits in a file's units ([`Layout`]: the
//! unit and the *field* — its name, signature, doc comment, body, a call, a
//! string, a comment), how a unit scores from its fields ([`score_units`]),
//! and what a file's units add to its rank. Units come from a real parser
//! (`crate::units`, through [`Layout::parsed`]) or, for languages it does not
//! know and for documents, from the line heuristics of `kind`
//! ([`Layout::heuristic`]). Does no I/O and prints nothing; choosing the
//! lines to print from the ranked units is `select`.

use std::collections::BTreeMap;
use std::ops::Range;

use super::kind::LineKind;
use super::lines::RankedLine;
use super::TermWeights;
use crate::query::Ask;
use crate::search::sink::TermLine;
use crate::units::{UnitKind, Units};

/// Where in a unit a term occurs. Each field weighs differently: code names
/// what it does, so the defined name is the strongest evidence; calls and
/// identifiers in the body are what the unit *does*; a signature's types,
/// doc comments, strings and comments describe or mention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// The name the unit defines.
    Name,
    /// Its header: parameters, types, modifiers (the name excluded).
    Signature,
    /// Its doc comment or docstring.
    Doc,
    /// An identifier of its body that is not a callee.
    Body,
    /// The name of a function or method its body calls.
    Call,
    /// Inside a string literal.
    Literal,
    /// Inside a comment in its body.
    Comment,
}

/// Every field, in the order of [`FieldScores`].
pub const FIELDS: [Field; 7] = [
    Field::Name,
    Field::Signature,
    Field::Doc,
    Field::Body,
    Field::Call,
    Field::Literal,
    Field::Comment,
];

impl Field {
    /// Its index in [`FIELDS`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// How `--explain` and `--json` name it.
    pub fn label(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Signature => "signature",
            Field::Doc => "doc",
            Field::Body => "body",
            Field::Call => "call",
            Field::Literal => "string",
            Field::Comment => "comment",
        }
    }

    /// The weight of a query slot found in this field, relative to one
    /// found in plain body code.
    pub fn weight(self) -> f64 {
        match self {
            Field::Name => 1.6,
            Field::Signature => 0.7,
            Field::Doc => 0.5,
            Field::Body => 1.0,
            Field::Call => 1.2,
            Field::Literal => 0.7,
            Field::Comment => 0.5,
        }
    }

    /// [`Field::weight`] for a question asking `ask`: a what-happens
    /// question weighs names less ([`HANDLING_NAME_FACTOR`]), a how or
    /// what-happens question comments ([`PROCESS_COMMENT_FACTOR`]).
    pub fn weight_for(self, ask: Ask) -> f64 {
        let factor = match (self, ask) {
            (Field::Name, Ask::Happens) => HANDLING_NAME_FACTOR,
            (Field::Comment, Ask::How | Ask::Happens) => PROCESS_COMMENT_FACTOR,
            _ => 1.0,
        };
        self.weight() * factor
    }
}

/// The kinds of code unit ranking tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A function, method, closure or test: code that does something.
    Callable,
    /// A class, struct, trait, interface, impl, enum or module: a container
    /// whose own lines declare rather than do.
    Container,
    /// A type alias, constant, variable, macro or other declaration: names a
    /// thing; its initializer may hold a table of values.
    Declaration,
    /// Top-level statements outside any definition.
    Statements,
}

impl Shape {
    /// How `--explain` and `--json` name it.
    pub fn label(self) -> &'static str {
        match self {
            Shape::Callable => "function",
            Shape::Container => "type",
            Shape::Declaration => "declaration",
            Shape::Statements => "statements",
        }
    }
}

/// A unit as ranking sees it: lines are 1-based and inclusive.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpan {
    pub shape: Shape,
    /// What the parser calls it (`function`, `method`, `class`, …).
    pub kind: &'static str,
    pub name: Option<String>,
    pub start_line: usize,
    pub end_line: usize,
    /// The line that holds its name (the first line of statements).
    pub def_line: usize,
    /// Test code (a test function or anything in a test module).
    pub test: bool,
    /// A function or method declared without a body: an interface's or an
    /// abstract method, a trait method without a default, an overload
    /// signature. The code that does what it names is elsewhere.
    pub bodiless: bool,
    /// The innermost unit holding it.
    pub parent: Option<usize>,
    /// Its lines that branch (`kind::is_branch`; `Layout::count_branches`).
    pub branches: usize,
}

impl UnitSpan {
    /// A function or method with a body of a few lines
    /// ([`SHORT_BODY_LINES`]): a getter or a wrapper that hands the work on.
    pub fn short_bodied(&self) -> bool {
        self.shape == Shape::Callable
            && !self.bodiless
            && self.end_line.saturating_sub(self.def_line) <= SHORT_BODY_LINES
    }

    /// A constant or variable defined over [`TABLE_LINES`] lines or more
    /// past its name: an initializer that lists entries. Parsed units only:
    /// line patterns do not say where a definition ends.
    pub fn is_table(&self) -> bool {
        matches!(self.kind, "const" | "var") && self.end_line >= self.def_line + TABLE_LINES
    }

    /// A constant, variable or macro: a named value (or, for a macro, a
    /// named expansion) that a where-question may ask for ([`VALUE_FACTOR`]).
    pub fn is_value(&self) -> bool {
        matches!(self.kind, "const" | "var" | "macro")
    }
}

/// A file's units, and for each term occurrence of the second pass (in the
/// order of `TermLine`s and their matches) its unit and field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    pub units: Vec<UnitSpan>,
    /// `at[i][j]`: where `lines[i].matches[j]` sits, `None` outside every unit.
    pub at: Vec<Vec<Option<(usize, Field)>>>,
    /// (unit, callee name) of each call that holds a term (a parse only).
    pub callees: Vec<(usize, String)>,
}

/// Top-level lines further apart than this start a new unit of statements.
const STATEMENT_GAP: usize = 3;
/// A unit of top-level statements spans at most this many lines.
const STATEMENT_LINES: usize = 15;

impl Layout {
    /// Units from the line heuristics (`kind::classify_lines` with
    /// `name_definitions`): a definition line opens a unit that holds the
    /// lines whose innermost definition it is; the lines outside every
    /// definition that hold terms are grouped into statements.
    pub fn heuristic(kinds: &[LineKind], lines: &[TermLine]) -> Layout {
        let kind_of = |n: usize| kinds.get(n.wrapping_sub(1)).copied().unwrap_or_default();
        // Only a definition that holds a term becomes a unit: one without
        // is never scored, and a generated file declares tens of thousands.
        let mut held: Vec<u32> = lines
            .iter()
            .map(|tl| kind_of(tl.line).block)
            .filter(|&b| b != 0)
            .collect();
        held.sort_unstable();
        held.dedup();
        // Each such definition's own lines: from its first to its last line.
        let mut extents: Vec<Option<(usize, usize)>> = vec![None; held.len()];
        for (i, k) in kinds.iter().enumerate() {
            if k.block == 0 {
                continue;
            }
            if let Ok(at) = held.binary_search(&k.block) {
                let e = extents[at].get_or_insert((i + 1, i + 1));
                e.1 = i + 1;
            }
        }
        let mut units: Vec<UnitSpan> = Vec::new();
        let mut by_def: BTreeMap<u32, usize> = BTreeMap::new();
        for (&block, &(start, end)) in held
            .iter()
            .zip(&extents)
            .filter_map(|(b, e)| Some((b, e.as_ref()?)))
        {
            let def = block as usize;
            let def_kind = kind_of(def);
            units.push(UnitSpan {
                shape: heuristic_shape(def_kind),
                kind: "definition",
                name: None,
                start_line: start.min(def),
                end_line: end,
                def_line: def,
                test: def_kind.test,
                bodiless: false,
                // Lines carry no nesting beyond their innermost definition.
                parent: None,
                branches: 0,
            });
            by_def.insert(block, units.len() - 1);
        }
        let mut statements: Vec<(usize, usize)> = Vec::new();
        for tl in lines {
            if kind_of(tl.line).block != 0 {
                continue;
            }
            match statements.last_mut() {
                Some((start, end))
                    if tl.line <= *end + STATEMENT_GAP && tl.line < *start + STATEMENT_LINES =>
                {
                    *end = tl.line;
                }
                _ => statements.push((tl.line, tl.line)),
            }
        }
        let first_statement = units.len();
        for (start, end) in &statements {
            units.push(UnitSpan {
                shape: Shape::Statements,
                kind: "statements",
                name: None,
                start_line: *start,
                end_line: *end,
                def_line: *start,
                test: kind_of(*start).test,
                bodiless: false,
                parent: None,
                branches: 0,
            });
        }
        let at = lines
            .iter()
            .map(|tl| {
                let k = kind_of(tl.line);
                let unit = if k.block == 0 {
                    // Statements are in line order and do not overlap.
                    statements
                        .partition_point(|&(s, _)| s <= tl.line)
                        .checked_sub(1)
                        .filter(|&i| tl.line <= statements[i].1)
                        .map(|i| first_statement + i)
                } else {
                    by_def.get(&k.block).copied()
                };
                tl.matches
                    .iter()
                    .map(|m| {
                        let field = if k.comment {
                            if unit.is_some_and(|u| units[u].def_line > tl.line) {
                                Field::Doc
                            } else {
                                Field::Comment
                            }
                        } else if k.definition && tl.line == k.block as usize {
                            match k.name {
                                Some((s, e)) if m.start >= s as usize && m.end <= e as usize => {
                                    Field::Name
                                }
                                _ => Field::Signature,
                            }
                        } else {
                            Field::Body
                        };
                        unit.map(|u| (u, field))
                    })
                    .collect()
            })
            .collect();
        Layout {
            units,
            at,
            callees: Vec::new(),
        }
    }
}

impl Layout {
    /// Sets each unit's `branches`: the lines of its extent that branch
    /// (`kinds`, one per line of the file, from `kind::classify_lines`).
    pub fn count_branches(&mut self, kinds: &[LineKind]) {
        // branching[n]: lines 1..=n that branch.
        let mut branching = Vec::with_capacity(kinds.len() + 1);
        branching.push(0usize);
        for k in kinds {
            branching.push(branching.last().copied().unwrap_or(0) + usize::from(k.branch));
        }
        let upto = |n: usize| branching[n.min(kinds.len())];
        for u in &mut self.units {
            let end = u.end_line.max(u.start_line);
            u.branches = upto(end) - upto(u.start_line.saturating_sub(1));
        }
    }

    /// Units from a parse (`crate::units`): each occurrence sits in the unit
    /// whose doc comment holds it, else in the innermost unit whose span holds
    /// it, in the field its bytes fall in. `starts` are the text's line
    /// starts (`Document::line_starts`).
    pub fn parsed(parsed: &Units, text: &[u8], starts: &[usize], lines: &[TermLine]) -> Layout {
        let units = parsed
            .units
            .iter()
            .map(|u| UnitSpan {
                shape: shape_of(u.kind),
                kind: u.kind.name(),
                name: u.name_in(text).map(str::to_string),
                start_line: u.start_line,
                end_line: u.end_line,
                def_line: u.def_line,
                test: u.test,
                bodiless: matches!(u.kind, UnitKind::Function | UnitKind::Method)
                    && u.body.is_none(),
                parent: u.parent,
                branches: 0,
            })
            .collect();
        // Doc comments sit above their unit's node: find them by range.
        let mut docs: Vec<(Range<usize>, usize)> = parsed
            .units
            .iter()
            .enumerate()
            .flat_map(|(i, u)| u.doc.iter().map(move |r| (r.clone(), i)))
            .collect();
        docs.sort_by_key(|(r, _)| r.start);
        let mut callees: Vec<(usize, String)> = Vec::new();
        let at = lines
            .iter()
            .map(|tl| {
                let base = starts.get(tl.line.wrapping_sub(1)).copied();
                tl.matches
                    .iter()
                    .map(|m| {
                        let start = base? + m.start;
                        if let Some(&(_, unit)) = containing(&docs, start, |d| &d.0) {
                            return Some((unit, Field::Doc));
                        }
                        let unit = parsed.at_byte(start)?;
                        let field = field_at(parsed, unit, start);
                        if field == Field::Call {
                            let name = containing(&parsed.calls, start, |r| r)
                                .and_then(|r| text.get(r.clone()))
                                .and_then(|b| std::str::from_utf8(b).ok());
                            if let Some(name) = name {
                                callees.push((unit, name.to_string()));
                            }
                        }
                        Some((unit, field))
                    })
                    .collect()
            })
            .collect();
        callees.sort();
        callees.dedup();
        Layout { units, at, callees }
    }
}

/// The element of `sorted` (by start, not overlapping) whose range holds `at`.
fn containing<T>(sorted: &[T], at: usize, range: impl Fn(&T) -> &Range<usize>) -> Option<&T> {
    let after = sorted.partition_point(|x| range(x).start <= at);
    let candidate = sorted.get(after.checked_sub(1)?)?;
    range(candidate).contains(&at).then_some(candidate)
}

/// The field of unit `u` that byte `at` falls in (not its doc: see `parsed`).
fn field_at(parsed: &Units, u: usize, at: usize) -> Field {
    let unit = &parsed.units[u];
    if unit.name.as_ref().is_some_and(|r| r.contains(&at)) {
        Field::Name
    } else if containing(&parsed.strings, at, |r| r).is_some() {
        Field::Literal
    } else if containing(&parsed.comments, at, |r| r).is_some() {
        Field::Comment
    } else if unit.header.contains(&at) {
        Field::Signature
    } else if containing(&parsed.calls, at, |r| r).is_some() {
        Field::Call
    } else {
        Field::Body
    }
}

/// How ranking treats a parser's kind of unit.
fn shape_of(kind: UnitKind) -> Shape {
    match kind {
        UnitKind::Function | UnitKind::Method => Shape::Callable,
        UnitKind::Class
        | UnitKind::Struct
        | UnitKind::Enum
        | UnitKind::Union
        | UnitKind::Trait
        | UnitKind::Interface
        | UnitKind::Impl
        | UnitKind::Module => Shape::Container,
        UnitKind::TypeAlias | UnitKind::Const | UnitKind::Var | UnitKind::Macro => {
            Shape::Declaration
        }
        UnitKind::Statements => Shape::Statements,
    }
}

fn heuristic_shape(def: LineKind) -> Shape {
    if def.definition {
        Shape::Callable
    } else {
        Shape::Statements
    }
}

/// A unit's score, and what it is made of.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnitScore {
    /// Per field ([`FIELDS`] order): the weight of the query slots whose best
    /// evidence is in that field.
    pub fields: [f64; 7],
    /// Bonus for slots found in more than one field (a name that says it
    /// and a body that does it).
    pub support: f64,
    /// The slots only an enclosing unit's name holds (`CONTEXT_SHARE`).
    pub context: f64,
    /// The best line inside it (`lines::score_lines`: proximity of the query's
    /// words), times `LINE_SHARE`.
    pub line: f64,
    /// Multiplier: containers, declarations that only name the words, test code.
    pub factor: f64,
    /// What the unit adds to its file's rank: the parts above times `factor`.
    pub evidence: f64,
    /// Multiplier for a long unit (`length_factor`) and for a container
    /// (`CONTAINER_FACTOR`): among a file's units, the one that holds the
    /// query in fewer lines, and a method rather than its class, is the one
    /// to show. Not part of the file's rank.
    pub length: f64,
    /// Multiplier for the share of its lines that branch, when a question
    /// asks how something is done or what happens in a case
    /// (`BRANCH_WEIGHT`); 1 otherwise. Not part of the file's rank.
    pub branching: f64,
    /// `evidence * length * branching`: the order of a file's units.
    pub total: f64,
}

/// A scored unit of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedUnit {
    pub span: UnitSpan,
    /// Index in the file's `Layout::units`.
    pub index: usize,
    /// The query slots it holds (`lines::slot_bit`).
    pub slots: u64,
    pub score: UnitScore,
    /// The names of the calls in it that hold a term (`process_config` in
    /// `process_config(cfg)`), sorted.
    pub callees: Vec<String>,
}

/// Share of a slot's weight added when it is found in a second field.
const SUPPORT_SHARE: f64 = 0.25;
/// Weight of the best line inside a unit in the unit's score.
const LINE_SHARE: f64 = 0.5;
/// Multiplier for a unit whose only evidence is its name and signature and
/// that does nothing itself (a type, an alias, a declaration without body
/// evidence): the code that does the thing is elsewhere.
const NAMES_ONLY_FACTOR: f64 = 0.6;
/// Multiplier for the name field when the question asks what happens in a
/// case ("what happens when the config file is missing"): the answer is the
/// code that handles it, whose name rarely says so, not the short wrappers
/// named after the words. Measured on the question set's 12 such questions:
/// 0.3 turned 4 of them right or partly right, none worse; the dev and
/// commit sets (few such questions) unchanged.
const HANDLING_NAME_FACTOR: f64 = 0.3;
/// A constant or variable whose definition runs this many lines past its
/// defining line or more is a table: an initializer that lists entries
/// (`SUPPORTED_WORKERS = {"sync": …, "gevent": …}`, C's `cmd_table[] = {…}`).
const TABLE_LINES: usize = 3;
/// Multiplier for a table ([`TABLE_LINES`]) when a where-question asks for a
/// collection ("where is the list of built-in commands registered":
/// `Ask::asks_for_collection`), in place of [`NAMES_ONLY_FACTOR`]: the
/// table is the answer, though its entries rarely hold the question's words.
/// Measured on the 1,700 questions (`grade.py --all`): RIGHT 966 -> 971 at
/// 2 (tuned sets +2, untuned +3; 5 WRONG -> PARTIAL), the same at 2.5, at 1.5
/// +1; 3 turned one question down. The dev set's line precision 0.389 ->
/// 0.396; the commit and held-out commit sets unchanged.
const TABLE_FACTOR: f64 = 2.0;
/// Multiplier for a value a where-question may ask for: a constant,
/// variable or macro (`DEFAULT_REDIRECT_LIMIT = 30`, `#define MAX_DEPTH 64`,
/// `let defaultPort = 8080`), outside test code, in place of
/// [`NAMES_ONLY_FACTOR`] (a table a collection question asks for takes
/// [`TABLE_FACTOR`] instead). "Where is the default port set", "where is
/// the cap on rounds": the definition of the value is the answer, and its
/// name is all the evidence it has, while the functions that read it hold
/// the same words in their bodies. Measured on the 1,700 questions
/// (`grade.py --all`, before 976 RIGHT; tuned sets 592 of 980, untuned 384
/// of 720), constants and variables only: no discount alone (1) 979; 1.25,
/// 1.35, 1.5, 1.65 and 2: 989, 990, 993, 984 and 972 (untuned 394, 394,
/// 394, 391, 387); macros too, at 1.35: 991 (tuned 596, untuned 395), at
/// 1.5: 992. Asked as keywords (`--rephrase keywords`), 897 -> 901 (tuned
/// 541 -> 538, untuned 356 -> 363). The commit set unchanged; the dev set
/// 2 queries down (R@1 0.810 -> 0.786; region recall 0.933 -> 0.885 at line
/// precision 0.394 -> 0.396): "where are redirects limited" now finds
/// `DEFAULT_REDIRECT_LIMIT` before the loop that enforces it.
const VALUE_FACTOR: f64 = 1.35;
/// Multiplier for test code when the query is not about tests.
const TEST_FACTOR: f64 = 0.5;
/// Share of the weight of a slot that only an enclosing unit's name holds.
const CONTEXT_SHARE: f64 = 0.4;
/// Multiplier for a container (class, struct, impl, …): its own lines
/// declare; the methods inside do the work, and carry its name as context.
const CONTAINER_FACTOR: f64 = 0.5;
/// A function or method that ends within this many lines of its defining
/// line (a getter, a one-call wrapper) is short-bodied: see
/// [`SHORT_BODY_FACTOR`].
const SHORT_BODY_LINES: usize = 3;
/// Among a file's units (not in its rank), multiplier for a short-bodied
/// function when a question asks how something is done or what happens in a
/// case: `GetEnvVars() { return f.Sources.EnvKeys() }` names three words of
/// "how does a flag get its value from an environment variable", but the
/// code that does it is the longer body that looks the value up. Measured:
/// second question set 12 -> 13 of 20 right, dev region recall 0.861 ->
/// 0.873 (precision 0.387 -> 0.391), the question set unchanged; 0.6 moved
/// nothing, 0.4 the same as 0.5.
const SHORT_BODY_FACTOR: f64 = 0.5;
/// Multiplier for the comment field when a question asks how something is
/// done or what happens in a case: a comment inside a body says what the
/// code around it does in the question's words more easily than the code
/// does. Measured on the 1,700 questions at 0.75 (the comment weight 0.5 ->
/// 0.375): tuned sets 596 -> 598, untuned 395 -> 397; with
/// [`LENGTH_POWER`] at 0.1, 602 -> 604 and 396 -> 398; at 0.6, 603 and 397;
/// at 1.33, 592 and 393. The dev set's line precision 0.396 -> 0.395; the
/// commit set unchanged.
const PROCESS_COMMENT_FACTOR: f64 = 0.75;
/// Units up to this many lines are not discounted for length; longer ones
/// are, slowly: a long function holds many words by its size alone.
const UNIT_LINES: usize = 40;
/// How steeply a unit longer than [`UNIT_LINES`] is discounted. Measured at
/// 0.3 -> 0.2, 0.15, 0.1, 0.05 and 0 on the 1,700 questions (`grade.py
/// --all`, after [`VALUE_FACTOR`]: tuned sets 596 RIGHT of 980, untuned 395
/// of 720): tuned 599, 601, 602, 603, 602 (at 0.1, 11 up and 1 down),
/// untuned 395, 396, 396, 396, 395; 0.45: 595 and 394. The dev set's line
/// precision 0.396 -> 0.384 at the same region recall (0.885); the commit
/// set unchanged. A where-question's answer is often a long unit (a table
/// of entries, the function that sets everything up), and the discount
/// put a short one that names a word before it.
const LENGTH_POWER: f64 = 0.1;
/// [`LENGTH_POWER`] when a question asks how something is done or what
/// happens in a case: the answer is often the whole function that decides,
/// long because it weighs every case (viper's 190-line `find`, which checks
/// override, flag, env, config file and default in turn, against its
/// 28-line constructor that names them all). Measured: third question set
/// 31 -> 32 of 60, the other sets unchanged; 0.15 also turned dev-07 ("how
/// many times does the adapter retry") from the constant to a long function.
/// Since [`LENGTH_POWER`] went to 0.1 it is the steeper of the two; set to
/// 0.1 and 0.25 as well (over the 1,700 questions, tuned sets 604 RIGHT of
/// 980, untuned 398 of 720 at 0.18): 603 and 398, 603 and 400. Kept.
const PROCESS_LENGTH_POWER: f64 = 0.18;
/// Among a file's units (not in its rank), when a question asks how
/// something is done or what happens in a case: a unit gains this much
/// times the share of its lines that branch (`kind::is_branch`). The code
/// that decides weighs cases; a function of the same words that only passes
/// values on does not. Measured on the fourteen question sets (800), the
/// dev, commit and held-out commit sets: questions 474 -> 475 RIGHT (four
/// up, three down), dev line precision 0.353 -> 0.373 at the same region
/// recall (0.933), median output tokens 210 -> 192; the commit sets do not
/// change (no question there). With a reading of a branch that also counted
/// `=>`: 1 and 3 gave 474 and 473 RIGHT; 0.5, 2, 3 and 5 (as a factor on
/// the unit's total) 473, 475, 472 and 466.
const BRANCH_WEIGHT: f64 = 2.0;

/// The length discount of a unit of `lines` lines.
fn length_factor(lines: usize, power: f64) -> f64 {
    let limit = UNIT_LINES as f64;
    if (lines as f64) <= limit {
        1.0
    } else {
        (limit / lines as f64).powf(power)
    }
}

/// Scores every unit that holds a term, best first (ties: earlier unit).
/// `ranked` are the file's scored lines (`lines::score_lines`), `wants_tests`
/// whether the query asks for tests, `ask` what a question asks for, and
/// `collection` whether it asks for a collection (`Ask::asks_for_collection`).
pub fn score_units(
    lines: &[TermLine],
    layout: &Layout,
    weights: &TermWeights,
    ranked: &[RankedLine],
    wants_tests: bool,
    ask: Ask,
    collection: bool,
) -> Vec<RankedUnit> {
    let question = ask != Ask::Other;
    // unit -> slot -> best weight per field
    let mut evidence: BTreeMap<usize, BTreeMap<usize, [f64; 7]>> = BTreeMap::new();
    for (tl, at) in lines.iter().zip(&layout.at) {
        for (m, place) in tl.matches.iter().zip(at) {
            let Some((unit, field)) = *place else {
                continue;
            };
            let slot = weights.slot_of(m.term);
            let e = evidence
                .entry(unit)
                .or_default()
                .entry(slot)
                .or_insert([0.0; 7]);
            let w = weights.of(m.term);
            let f = &mut e[field.index()];
            *f = f.max(w);
        }
    }
    // The slots each unit's *name* holds, for its children's context.
    let names: BTreeMap<usize, BTreeMap<usize, f64>> = evidence
        .iter()
        .map(|(&u, slots)| {
            let named = slots
                .iter()
                .filter(|(_, f)| f[Field::Name.index()] > 0.0)
                .map(|(&s, f)| (s, f[Field::Name.index()]))
                .collect();
            (u, named)
        })
        .collect();
    // (line, score) in line order, so a unit's best line is a range's max.
    let mut by_line: Vec<(usize, f64)> = ranked.iter().map(|l| (l.line, l.score.total)).collect();
    by_line.sort_unstable_by_key(|&(line, _)| line);
    let best_in = |start: usize, end: usize| {
        let from = by_line.partition_point(|&(line, _)| line < start);
        by_line[from..]
            .iter()
            .take_while(|&&(line, _)| line <= end)
            .map(|&(_, total)| total)
            .fold(0.0, f64::max)
    };
    let mut out: Vec<RankedUnit> = evidence
        .iter()
        .map(|(&index, slots)| {
            let span = layout.units[index].clone();
            let mut score = UnitScore::default();
            let mut bits = 0u64;
            let mut named_only = true;
            for (slot, fields) in slots {
                bits |= super::lines::slot_bit(*slot);
                let mut values: Vec<(f64, usize)> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, &w)| (w * FIELDS[i].weight_for(ask), i))
                    .filter(|(v, _)| *v > 0.0)
                    .collect();
                values.sort_by(|a, b| b.0.total_cmp(&a.0));
                if let Some(&(best, i)) = values.first() {
                    score.fields[i] += best;
                    if !matches!(FIELDS[i], Field::Name | Field::Signature) {
                        named_only = false;
                    }
                }
                if let Some(&(second, _)) = values.get(1) {
                    score.support += SUPPORT_SHARE * second;
                }
            }
            // A method of `ProxyHeadersMiddleware` is about proxy headers too:
            // the slots its enclosing units name and it lacks count, weaker.
            let mut context: BTreeMap<usize, f64> = BTreeMap::new();
            let mut parent = span.parent;
            while let Some(p) = parent {
                for (&slot, &w) in names.get(&p).into_iter().flatten() {
                    if !slots.contains_key(&slot) {
                        let e = context.entry(slot).or_insert(0.0);
                        *e = e.max(w * Field::Name.weight());
                    }
                }
                parent = layout.units.get(p).and_then(|u| u.parent);
            }
            score.context = CONTEXT_SHARE * context.values().sum::<f64>();
            score.line = LINE_SHARE * best_in(span.def_line.max(span.start_line), span.end_line);
            score.factor = 1.0;
            let power = match ask {
                Ask::How | Ask::Happens => PROCESS_LENGTH_POWER,
                _ => LENGTH_POWER,
            };
            let lines = span.end_line + 1 - span.start_line.min(span.end_line);
            score.length = length_factor(lines, power);
            score.branching = 1.0;
            if matches!(ask, Ask::How | Ask::Happens) {
                if span.short_bodied() {
                    score.length *= SHORT_BODY_FACTOR;
                }
                score.branching += BRANCH_WEIGHT * span.branches as f64 / lines as f64;
            }
            // A table a collection question asks for is the answer, not a
            // declaration that only names the words (in test code it keeps
            // the discount, as test code keeps its own).
            let table = collection && span.is_table();
            let value = ask == Ask::Where && span.is_value() && !span.test && !table;
            if span.shape == Shape::Container {
                score.length *= CONTAINER_FACTOR;
            } else if ((named_only || (question && span.kind == "type_alias"))
                && span.shape != Shape::Callable
                || question && span.bodiless)
                && (!table || span.test)
                && !value
            {
                // A type alias only names: what its body holds is a type,
                // never the code that does the thing a question asks for;
                // nor does a method an interface declares (a change, a
                // commit subject, may well be to the type or the interface).
                score.factor *= NAMES_ONLY_FACTOR;
            }
            if span.test && !wants_tests {
                score.factor *= TEST_FACTOR;
            }
            if table {
                score.factor *= TABLE_FACTOR;
            }
            if value {
                score.factor *= VALUE_FACTOR;
            }
            score.evidence =
                (score.fields.iter().sum::<f64>() + score.support + score.context + score.line)
                    * score.factor;
            score.total = score.evidence * score.length * score.branching;
            let from = layout.callees.partition_point(|(u, _)| *u < index);
            let callees = layout.callees[from..]
                .iter()
                .take_while(|(u, _)| *u == index)
                .map(|(_, name)| name.clone())
                .collect();
            RankedUnit {
                span,
                index,
                slots: bits,
                score,
                callees,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.score
            .total
            .total_cmp(&a.score.total)
            .then(a.index.cmp(&b.index))
    });
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::search::matcher::TermMatcher;
    use crate::units::Lang;

    /// The ranked units of one file for a query, every term weighing the same.
    fn ranked(path: &str, text: &str, query: &str) -> Vec<RankedUnit> {
        ranked_as(path, text, query, false)
    }

    /// A file prepared as the second pass prepares it: its document, its
    /// lines holding a term of `query`, their line kinds (definitions
    /// named), and its line starts.
    struct Prepared {
        doc: Document,
        lines: Vec<TermLine>,
        kinds: Vec<LineKind>,
        starts: Vec<usize>,
    }

    fn prepared(path: &str, text: &str, query: &str) -> Prepared {
        let q = crate::query::analyze(query);
        let doc = Document {
            key: path.into(),
            text: text.as_bytes().to_vec(),
            pages: None,
            cut: None,
            offsets: Default::default(),
            terminator: b'\n',
            binary: None,
        };
        let matcher = TermMatcher::new(&q.terms).unwrap();
        let lines = crate::search::term_lines(&doc, &matcher);
        let starts = doc.line_starts();
        let mut kinds = super::super::classify_lines(&doc.text);
        super::super::name_definitions(&mut kinds, lines.iter().map(|l| l.line), |n| {
            doc.line(&starts, n)
        });
        Prepared {
            doc,
            lines,
            kinds,
            starts,
        }
    }

    /// [`ranked`], `handling`: the question asks what happens in a case.
    fn ranked_as(path: &str, text: &str, query: &str, handling: bool) -> Vec<RankedUnit> {
        let q = crate::query::analyze(query);
        let p = prepared(path, text, query);
        let weights = TermWeights::new(&q.terms, &vec![1; q.terms.len()], 10);
        let scored = super::super::score_lines(&p.lines, &weights, &p.kinds, false, |n| {
            p.doc.line(&p.starts, n)
        });
        let lang = Lang::of_path(path).unwrap();
        let parsed = crate::units::parse(lang, &p.doc.text).unwrap();
        let mut layout = Layout::parsed(&parsed, &p.doc.text, &p.starts, &p.lines);
        layout.count_branches(&p.kinds);
        let ask = if handling {
            Ask::Happens
        } else {
            Ask::of(query)
        };
        score_units(
            &p.lines,
            &layout,
            &weights,
            &scored,
            false,
            ask,
            ask.asks_for_collection(query),
        )
    }

    /// The unit that ranks first, as `kind name`.
    fn first(path: &str, text: &str, query: &str) -> String {
        let units = ranked(path, text, query);
        let u = &units[0].span;
        format!("{} {}", u.kind, u.name.as_deref().unwrap_or("-"))
    }

    const QUERY: &str = "how does the client retry a failed request with backoff";

    #[test]
    fn rust_the_body_that_does_it_beats_a_type_named_for_it() {
        let text = "/// Settings for the retry backoff of a failed request.\n\
            pub struct RetryBackoffRequest {\n    pub attempts: u32,\n}\n\n\
            pub fn send(client: &Client, req: Request) -> Response {\n    let mut delay = 1;\n    \
            loop {\n        match client.call(&req) {\n            Ok(r) => return r,\n            \
            Err(_) => {\n                delay = backoff(delay);\n                retry_count += 1;\n            }\n        }\n    }\n}\n";
        assert_eq!(first("src/client.rs", text, QUERY), "function send");
    }

    #[test]
    fn python_the_body_that_does_it_beats_a_class_named_for_it() {
        let text = "class RetryBackoffRequest:\n    \"\"\"A failed request's retry backoff.\"\"\"\n    attempts = 3\n\n\n\
            def send(client, request):\n    delay = 1\n    while True:\n        try:\n            return client.call(request)\n        \
            except Failure:\n            delay = backoff(delay)\n            retries += 1\n";
        assert_eq!(first("client.py", text, QUERY), "function send");
    }

    #[test]
    fn go_the_body_that_does_it_beats_a_type_named_for_it() {
        let text = "package client\n\n// RetryBackoffRequest configures a failed request's retry backoff.\n\
            type RetryBackoffRequest struct {\n\tAttempts int\n}\n\n\
            func (c *Client) Send(req *Request) (*Response, error) {\n\tdelay := 1\n\tfor {\n\t\t\
            resp, err := c.call(req)\n\t\tif err == nil {\n\t\t\treturn resp, nil\n\t\t}\n\t\t\
            delay = backoff(delay)\n\t\tretries++\n\t}\n}\n";
        assert_eq!(first("client.go", text, QUERY), "method Send");
    }

    #[test]
    fn javascript_the_body_that_does_it_beats_a_declaration_named_for_it() {
        let text = "const RETRY_BACKOFF_REQUEST = { attempts: 3 };\n\n\
            async function send(client, request) {\n  let delay = 1;\n  for (;;) {\n    try {\n      \
            return await client.call(request);\n    } catch (failure) {\n      delay = backoff(delay);\n      \
            retries += 1;\n    }\n  }\n}\n";
        assert_eq!(first("client.js", text, QUERY), "function send");
    }

    #[test]
    fn typescript_the_body_that_does_it_beats_an_interface_named_for_it() {
        let text = "/** Options of a failed request's retry backoff. */\n\
            export interface RetryBackoffRequest {\n  attempts: number;\n}\n\n\
            export async function send(client: Client, request: Request): Promise<Response> {\n  \
            let delay = 1;\n  for (;;) {\n    try {\n      return await client.call(request);\n    } catch (failure) {\n      \
            delay = backoff(delay);\n      retries += 1;\n    }\n  }\n}\n";
        assert_eq!(first("client.ts", text, QUERY), "function send");
    }

    /// A type alias's body is a type: even one whose parameters and doc
    /// hold the words is a declaration, not the code that does it.
    #[test]
    fn typescript_the_body_that_does_it_beats_a_type_alias_with_a_body_of_words() {
        let text = "/** A rule for requests. */\n\
            type RetryRule = (client: Client, failed: Request, backoff: number) => boolean\n\n\
            export async function send(client: Client, request: Request): Promise<Response> {\n  \
            let delay = 1;\n  for (;;) {\n    try {\n      return await client.call(request);\n    } catch (failure) {\n      \
            delay = backoff(delay);\n      retries += 1;\n    }\n  }\n}\n";
        assert_eq!(first("client.ts", text, QUERY), "function send");
    }

    #[test]
    fn java_the_body_that_does_it_beats_a_class_named_for_it() {
        let text = "/** A failed request's retry backoff. */\nclass RetryBackoffRequest {\n    int attempts;\n}\n\n\
            class Client {\n    Response send(Request request) {\n        int delay = 1;\n        while (true) {\n            \
            try {\n                return call(request);\n            } catch (Failure e) {\n                \
            delay = backoff(delay);\n                retries++;\n            }\n        }\n    }\n}\n";
        assert_eq!(first("Client.java", text, QUERY), "method send");
    }

    #[test]
    fn c_the_body_that_does_it_beats_a_struct_named_for_it() {
        let text = "/* A failed request's retry backoff. */\nstruct retry_backoff_request {\n    int attempts;\n};\n\n\
            int client_send(struct client *c, struct request *req) {\n    int delay = 1;\n    for (;;) {\n        \
            if (client_call(c, req) == 0)\n            return 0;\n        delay = backoff(delay);\n        retries++;\n    }\n}\n";
        assert_eq!(first("client.c", text, QUERY), "function client_send");
    }

    #[test]
    fn cpp_the_body_that_does_it_beats_a_class_named_for_it() {
        let text = "// A failed request's retry backoff.\nclass RetryBackoffRequest {\n  int attempts;\n};\n\n\
            Response Client::send(const Request& request) {\n  int delay = 1;\n  for (;;) {\n    \
            try {\n      return call(request);\n    } catch (const Failure&) {\n      delay = backoff(delay);\n      \
            ++retries;\n    }\n  }\n}\n";
        assert_eq!(first("client.cpp", text, QUERY), "method send");
    }

    #[test]
    fn a_method_carries_its_class_name_as_context() {
        let text = "class ProxyHeaders:\n    def client_host(self, forwarded):\n        return forwarded.split(',')[-1]\n\n\
            def unrelated_host(value):\n    return value\n";
        let units = ranked("proxy.py", text, "proxy headers client host");
        let method = units
            .iter()
            .find(|u| u.span.name.as_deref() == Some("client_host"))
            .unwrap();
        assert!(method.score.context > 0.0, "{method:?}");
        assert_eq!(
            first("proxy.py", text, "proxy headers client host"),
            "method client_host"
        );
    }

    #[test]
    fn words_in_a_doc_comment_weigh_less_than_words_in_code() {
        let text = "/// Retries with backoff.\nfn documented() {}\n\nfn does() {\n    retry(backoff);\n}\n";
        assert_eq!(first("a.rs", text, "retry backoff"), "function does");
    }

    #[test]
    fn what_happens_questions_rank_the_handling_above_the_wrapper_named_for_them() {
        let text = "def load_config_file(path):\n    return read(path)\n\n\n\
                    def start(path):\n    try:\n        text = read(path)\n    \
                    except FileNotFoundError:\n        log(\"config file missing\")\n        \
                    return defaults()\n";
        // "What happens when the config file is missing (do we use defaults)?"
        let query = "config file missing defaults";
        let first = |handling: bool| {
            let units = ranked_as("a.py", text, query, handling);
            units[0].span.name.clone().unwrap_or_default()
        };
        assert_eq!(first(false), "load_config_file");
        assert_eq!(first(true), "start");
    }

    #[test]
    fn a_doc_comment_counts_as_doc_and_not_again_as_the_units_best_line() {
        let text = "/// Retries with backoff.\nfn documented() {\n    let x = 1;\n}\n";
        let units = ranked("a.rs", text, "retry backoff");
        let documented = units
            .iter()
            .find(|u| u.span.name.as_deref() == Some("documented"))
            .unwrap();
        assert!(documented.score.fields[Field::Doc.index()] > 0.0);
        // Its only line with the words is the comment above its definition.
        assert_eq!(documented.score.line, 0.0);
    }

    #[test]
    fn the_line_heuristics_make_units_of_the_definitions_that_hold_a_term_only() {
        // A generated file declares thousands; two hold the query's words.
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&format!("pub const VALUE_{i}: u32 = {i};\n"));
        }
        text.push_str("pub fn retry_send() {\n    backoff();\n}\n");
        text.push_str("pub const MAX_RETRIES: u32 = 3;\n");
        let p = prepared("gen.rs", &text, "retry backoff");
        let layout = Layout::heuristic(&p.kinds, &p.lines);
        let defs: Vec<usize> = layout.units.iter().map(|u| u.def_line).collect();
        assert_eq!(defs, vec![201, 204]);
        assert_eq!(layout.units[0].end_line, 203);
        // Every occurrence sits in one of them.
        assert!(layout.at.iter().flatten().all(Option::is_some));
    }

    #[test]
    fn java_a_method_that_does_it_beats_the_interface_method_that_declares_it() {
        let text = "interface Connection {\n    \
                    /** Sets the user agent header sent with each request. */\n    \
                    Connection userAgent(String agent);\n}\n\n\
                    class HttpConnection implements Connection {\n    \
                    public Connection userAgent(String agent) {\n        \
                    this.agent = agent;\n        return this;\n    }\n}\n";
        let query = "where is the user agent header of a request set";
        let units = ranked("Connection.java", text, query);
        let first = &units[0].span;
        assert_eq!(first.name.as_deref(), Some("userAgent"));
        assert_eq!(first.def_line, 7, "{units:#?}");
        // A commit subject may well be about the interface: no discount.
        let declared = ranked("Connection.java", text, "user agent header request")
            .into_iter()
            .find(|u| u.span.def_line == 3)
            .unwrap();
        assert!(declared.span.bodiless);
        assert_eq!(declared.score.factor, 1.0);
    }

    #[test]
    fn a_method_declared_without_a_body_is_bodiless_in_rust_and_typescript() {
        let bodiless = |path: &str, text: &str| -> Vec<(String, bool)> {
            ranked(path, text, "retry send")
                .into_iter()
                .filter(|u| u.span.shape == Shape::Callable)
                .map(|u| (u.span.name.unwrap_or_default(), u.span.bodiless))
                .collect()
        };
        let rust = "trait Retry {\n    fn send_retry(&self);\n}\n\n\
                    fn retry_send() {\n    send();\n}\n";
        let mut found = bodiless("a.rs", rust);
        found.sort();
        assert_eq!(
            found,
            vec![("retry_send".into(), false), ("send_retry".into(), true)]
        );
        let ts = "abstract class R {\n  abstract sendRetry(): void;\n  \
                  retrySend() { send(); }\n}\n";
        let mut found = bodiless("a.ts", ts);
        found.sort();
        assert_eq!(
            found,
            vec![("retrySend".into(), false), ("sendRetry".into(), true)]
        );
    }

    #[test]
    fn go_for_a_how_question_the_body_that_does_it_beats_a_getter_named_for_it() {
        let text = "package cli\n\n\
                    func (f *Flag) GetEnvVars() []string {\n\treturn f.Sources.EnvKeys()\n}\n\n\
                    // PostParse fills the flag from its sources.\n\
                    func (f *Flag) PostParse() error {\n\
                    \tif !f.set {\n\
                    \t\tif val, found := f.Sources.Lookup(); found {\n\
                    \t\t\tf.Value = val\n\
                    \t\t}\n\
                    \t}\n\
                    \treturn nil\n\
                    }\n";
        let how = "how does a flag get its value from an environment variable";
        assert_eq!(first("flag.go", text, how), "method PostParse");
        // Asked where, or in a commit subject, a getter is a place like any.
        let length = |query: &str| {
            ranked("flag.go", text, query)
                .into_iter()
                .find(|u| u.span.name.as_deref() == Some("GetEnvVars"))
                .map(|u| u.score.length)
        };
        assert_eq!(length(how), Some(SHORT_BODY_FACTOR));
        assert_eq!(
            length("where does a flag get its environment variables"),
            Some(1.0)
        );
        assert_eq!(length("flag environment variables"), Some(1.0));
    }

    #[test]
    fn go_for_a_how_question_a_long_function_that_decides_beats_a_constructor_naming_it() {
        // viper's shape: `New` names every source in a few lines; `find`
        // checks them in turn over many more.
        let mut text = String::from(
            "package config\n\n\
             func New() *Config {\n\
             \tc := &Config{}\n\
             \tc.flags = map[string]Flag{}\n\
             \tc.env = map[string]string{}\n\
             \tc.defaults = map[string]any{}\n\
             \tc.configFile = \"\"\n\
             \treturn c\n\
             }\n\n\
             func (c *Config) find(key string) any {\n\
             \tif val, ok := c.override[key]; ok {\n\t\treturn val\n\t}\n\
             \tif flag, ok := c.flags[key]; ok && flag.Changed {\n\t\treturn flag.Value\n\t}\n",
        );
        for i in 0..150 {
            text.push_str(&format!("\tc.trace({i})\n"));
        }
        text.push_str(
            "\tif val, ok := c.env[key]; ok {\n\t\treturn val\n\t}\n\
             \tif val, ok := c.configFile[key]; ok {\n\t\treturn val\n\t}\n\
             \treturn c.defaults[key]\n\
             }\n",
        );
        let how = "how does it decide which value wins when a key comes from a flag, the env, the config file or a default";
        assert_eq!(first("config.go", &text, how), "method find");
        let find_length = |query: &str| {
            ranked("config.go", &text, query)
                .into_iter()
                .find(|u| u.span.name.as_deref() == Some("find"))
                .map(|u| u.score.length)
        };
        // Keywords are read as a where-question, whose discount is gentler
        // still (`LENGTH_POWER`): a long unit's length barely counts there.
        let keywords = "key flag env config file default";
        assert!(find_length(how) < find_length(keywords));
        assert!(find_length(keywords) > Some(0.8));
    }

    #[test]
    fn for_a_how_question_the_function_that_branches_over_the_cases_comes_first() {
        // Both hold the question's words in as many lines; one passes the
        // choice on, the other weighs the cases.
        let text = "def prepare(config, stream):\n    \
                    color = config.color\n    output = config.output\n    \
                    log(stream)\n    settings = Settings(stream)\n    \
                    return settings\n\n\
                    def pick(config, stream):\n    if config.color:\n        return True\n    \
                    elif config.output:\n        return False\n    \
                    return stream.isatty()\n";
        let how = "how does it decide whether to color the output";
        assert_eq!(first("output.py", text, how), "function pick");
        let units = ranked("output.py", text, how);
        let branches = |name: &str| {
            units
                .iter()
                .find(|u| u.span.name.as_deref() == Some(name))
                .map(|u| u.span.branches)
        };
        assert_eq!(branches("pick"), Some(2));
        assert_eq!(branches("prepare"), Some(0));
        // A where-question asks for a place, not a decision: no gain.
        assert_eq!(
            first("output.py", text, "where are the color and output settings"),
            "function prepare"
        );
    }

    #[test]
    fn python_a_class_attribute_holding_the_defaults_is_a_unit_of_its_own() {
        // paramiko keeps its default ciphers in a class attribute; inside
        // the class's long unit it lost to the small methods named alike.
        let text = "class Transport:\n    \"\"\"A connection.\"\"\"\n\n    \
                    _preferred_ciphers = (\n        \"aes128-ctr\",\n        \"aes256-ctr\",\n    )\n\n    \
                    def __init__(self, sock):\n        self.sock = sock\n        self.active = False\n\n    \
                    def start(self):\n        self.active = True\n        self.sock.send(b\"hi\")\n\n    \
                    @property\n    def preferred_ciphers(self):\n        return self._filter(\"ciphers\")\n";
        let units = ranked(
            "transport.py",
            text,
            "where is the list of preferred ciphers",
        );
        let names: Vec<&str> = units
            .iter()
            .filter_map(|u| u.span.name.as_deref())
            .collect();
        assert!(names.contains(&"_preferred_ciphers"), "{names:?}");
        // An assignment in a method stays the method's.
        assert!(!names.contains(&"active"), "{names:?}");
    }

    #[test]
    fn python_a_one_line_wrapper_is_short_bodied_and_a_longer_body_is_not() {
        let text = "def get_env_value(name):\n    return os.environ.get(name)\n\n\
                    def load(flag):\n    value = get_env_value(flag.env)\n    \
                    if value is None:\n        value = flag.default\n    \
                    flag.value = value\n    return flag\n";
        let units = ranked("flags.py", text, "how does a flag get its env value");
        let short: Vec<(String, bool)> = units
            .iter()
            .map(|u| {
                (
                    u.span.name.clone().unwrap_or_default(),
                    u.span.short_bodied(),
                )
            })
            .collect();
        assert!(short.contains(&("get_env_value".into(), true)), "{short:?}");
        assert!(short.contains(&("load".into(), false)), "{short:?}");
    }

    #[test]
    fn a_unit_knows_the_calls_in_it_that_hold_a_term() {
        let text = "def run(job):\n    retry_send(job)\n    log(job)\n    backoff.wait()\n";
        let units = ranked("a.py", text, "retry send with backoff");
        let run = units
            .iter()
            .find(|u| u.span.name.as_deref() == Some("run"))
            .unwrap();
        assert_eq!(run.callees, vec!["retry_send".to_string()]);
    }

    const LIST_QUERY: &str = "Where is the list of worker types registered?";

    #[test]
    fn python_a_list_question_finds_the_table_before_the_function_named_for_it() {
        let text = "WORKER_TYPES = {\n    \"sync\": \"app.sync.SyncWorker\",\n    \
            \"gevent\": \"app.ggevent.GeventWorker\",\n    \"gthread\": \"app.gthread.ThreadWorker\",\n}\n\n\n\
            def register_worker(name, cls):\n    \"\"\"Add a worker class.\"\"\"\n    \
            WORKER_TYPES[name] = cls\n";
        assert_eq!(first("workers.py", text, LIST_QUERY), "const WORKER_TYPES");
        // Asked how, the function that does it.
        let how = "How is a worker type registered?";
        assert_eq!(first("workers.py", text, how), "function register_worker");
    }

    #[test]
    fn c_a_list_question_finds_the_table_before_the_function_named_for_it() {
        let text =
            "static const struct entry *worker_types[] = {\n\t&sync_entry,\n\t&gevent_entry,\n\t\
            &gthread_entry,\n\tNULL\n};\n\n/* Add a worker type to the others. */\n\
            void\nregister_worker(const struct entry *e)\n{\n\tworker_types[count++] = e;\n}\n";
        assert_eq!(first("workers.c", text, LIST_QUERY), "const worker_types");
    }

    #[test]
    fn typescript_a_list_question_finds_the_table_before_the_function_named_for_it() {
        let text =
            "export const workerTypes = new Set([\n  'sync',\n  'gevent',\n  'gthread',\n]);\n\n\
            /** Add a worker class. */\n\
            export function registerWorker(name: string): void {\n  workerTypes.add(name);\n}\n";
        assert_eq!(first("workers.ts", text, LIST_QUERY), "const workerTypes");
    }

    const VALUE_QUERY: &str = "Where is the default timeout for a connection set?";

    #[test]
    fn python_a_where_question_finds_the_value_before_the_function_reading_it() {
        let text = "DEFAULT_TIMEOUT = 30\n\n\n\
            def connect(host, timeout=None):\n    \"\"\"Open a connection.\"\"\"\n    \
            if timeout is None:\n        timeout = DEFAULT_TIMEOUT\n    \
            return open_connection(host, timeout)\n";
        assert_eq!(first("conn.py", text, VALUE_QUERY), "const DEFAULT_TIMEOUT");
        // Asked how, the function that does it.
        let how = "How does a connection choose its timeout?";
        assert_eq!(first("conn.py", text, how), "function connect");
    }

    #[test]
    fn c_a_where_question_finds_the_macro_before_the_function_reading_it() {
        let text = "#define DEFAULT_TIMEOUT 30\n\n\
            int\nconnect_host(const char *host, int timeout)\n{\n\t\
            if (timeout <= 0)\n\t\ttimeout = DEFAULT_TIMEOUT;\n\t\
            return open_connection(host, timeout);\n}\n";
        assert_eq!(first("conn.c", text, VALUE_QUERY), "macro DEFAULT_TIMEOUT");
    }

    #[test]
    fn go_a_where_question_finds_the_value_before_the_function_reading_it() {
        let text = "package conn\n\nconst defaultTimeout = 30 * time.Second\n\n\
            func Connect(host string, timeout time.Duration) (*Conn, error) {\n\t\
            if timeout == 0 {\n\t\ttimeout = defaultTimeout\n\t}\n\t\
            return openConnection(host, timeout)\n}\n";
        assert_eq!(first("conn.go", text, VALUE_QUERY), "const defaultTimeout");
    }
}
