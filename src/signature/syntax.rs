//! The syntax of a `--signature` spec: a Python parameter list without the
//! parentheses, as DSPy reads it (`ast.parse(f"def f({spec}): pass")`).
//!
//! ```text
//! spec       := param ("," param)* ","?
//! param      := NAME (":" annotation)? ("=" default)?
//! annotation := primary ("|" primary)*
//! primary    := atom ("." NAME | "[" annotation ("," annotation)* ","? "]")*
//! atom       := NAME | STRING+ | NUMBER | "-" NUMBER | "..." | True | False | None
//! ```
//!
//! This module only checks the shape and builds an [`Ann`] tree; which names
//! are types, and which types are supported, is `resolve`'s business. Defaults
//! (`x: int = 0`) are accepted and skipped, as DSPy ignores them. Everything
//! else Python would accept in a parameter list (`*args`, `/`, lambdas,
//! comments, f-strings, triple quotes, hex numbers) is rejected with a message
//! saying where; a negative number is accepted (DSPy cannot parse `-1`, but
//! `Literal[-1]` is plainly meant).
//!
//! Any Python whitespace separates tokens (Python itself rejects a no-break
//! space inside the list; a spec pasted from a web page should still work).
//! Nesting is bounded by [`MAX_TYPE_DEPTH`], so no input can exhaust the stack.

use super::types::SpecError;
use crate::python::text::is_space;

/// Deepest nesting of `[…]` (and of chained subscripts) a type may have. Real
/// specs nest two or three levels; the bound keeps the recursive parser, the
/// resolver and the validator far from any stack limit.
pub const MAX_TYPE_DEPTH: usize = 32;

/// Python's hard keywords: never a field name (`True`, `False` and `None` are
/// constants inside a type).
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// One parameter of the spec.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Param {
    pub name: String,
    /// 1-based column (in characters) of the name.
    pub column: usize,
    pub annotation: Option<Ann>,
}

/// A type annotation as written.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ann {
    /// A name, or a dotted path such as `typing.List`.
    Path(Vec<String>),
    /// `base[args]`; `args` has one entry per comma-separated argument.
    Subscript(Box<Ann>, Vec<Ann>),
    /// `a | b | …` (at least two).
    Union(Vec<Ann>),
    Const(Const),
}

/// A constant in an annotation (`Literal["a", 1]`, or a mistake such as `x: 3`).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Const {
    Str(String),
    /// A bytes literal, kept as its characters (only ever quoted in a message).
    Bytes(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    None,
    Ellipsis,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Const(Const),
    Punct(char),
    /// `**`, `->` and other tokens that are never valid here.
    Other(&'static str),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    column: usize,
}

/// Parses a spec (already known to be non-empty and free of `->`).
pub(super) fn parse(spec: &str) -> Result<Vec<Param>, SpecError> {
    let tokens = tokenize(spec)?;
    let mut parser = Parser {
        tokens,
        pos: 0,
        end_column: spec.chars().count() + 1,
    };
    parser.params()
}

fn invalid(msg: String) -> SpecError {
    SpecError::Invalid(msg)
}

// ---------------------------------------------------------------------------
// Tokens

fn tokenize(spec: &str) -> Result<Vec<Token>, SpecError> {
    let chars: Vec<char> = spec.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if is_space(c) {
            i += 1;
            continue;
        }
        let (tok, next) = if is_string_start(&chars, i) {
            string(&chars, i)?
        } else if c == '_' || unicode_ident::is_xid_start(c) {
            name(&chars, i)
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            number(&chars, i)?
        } else if c == '.' && chars.get(i + 1) == Some(&'.') && chars.get(i + 2) == Some(&'.') {
            (Tok::Const(Const::Ellipsis), i + 3)
        } else if c == '*' && chars.get(i + 1) == Some(&'*') {
            (Tok::Other("**"), i + 2)
        } else if "[],:=|.-*/(){}+".contains(c) {
            (Tok::Punct(c), i + 1)
        } else if c == '#' {
            return Err(invalid(format!(
                "comments are not allowed (column {column})"
            )));
        } else {
            return Err(invalid(format!(
                "unexpected character {} at column {column}",
                crate::python::text::repr(&c.to_string())
            )));
        };
        tokens.push(Token { tok, column });
        i = next;
    }
    Ok(tokens)
}

fn name(chars: &[char], start: usize) -> (Tok, usize) {
    let mut end = start + 1;
    while end < chars.len() && (chars[end] == '_' || unicode_ident::is_xid_continue(chars[end])) {
        end += 1;
    }
    let text: String = chars[start..end].iter().collect();
    let tok = match text.as_str() {
        "True" => Tok::Const(Const::Bool(true)),
        "False" => Tok::Const(Const::Bool(false)),
        "None" => Tok::Const(Const::None),
        _ => Tok::Name(text),
    };
    (tok, end)
}

/// A string prefix (`r`, `b`, `u`, `rb`, `br`, `f`, any case) followed by a quote,
/// or a bare quote.
fn is_string_start(chars: &[char], i: usize) -> bool {
    let mut j = i;
    while j < chars.len() && j - i < 2 && "rRbBuUfF".contains(chars[j]) {
        j += 1;
    }
    matches!(chars.get(j), Some('\'' | '"'))
}

fn string(chars: &[char], start: usize) -> Result<(Tok, usize), SpecError> {
    let column = start + 1;
    let mut i = start;
    let mut raw = false;
    let mut bytes = false;
    while chars[i] != '\'' && chars[i] != '"' {
        match chars[i].to_ascii_lowercase() {
            'r' => raw = true,
            'b' => bytes = true,
            'u' => {}
            _ => {
                return Err(invalid(format!(
                    "f-strings are not allowed (column {column})"
                )))
            }
        }
        i += 1;
    }
    let quote = chars[i];
    if chars.get(i + 1) == Some(&quote) && chars.get(i + 2) == Some(&quote) {
        return Err(invalid(format!(
            "triple-quoted strings are not allowed (column {column})"
        )));
    }
    i += 1;
    let mut text = String::new();
    loop {
        let Some(&c) = chars.get(i) else {
            return Err(invalid(format!(
                "unterminated string starting at column {column}"
            )));
        };
        i += 1;
        if c == quote {
            break;
        }
        if c == '\n' {
            return Err(invalid(format!(
                "unterminated string starting at column {column}"
            )));
        }
        if c != '\\' {
            text.push(c);
            continue;
        }
        let Some(&e) = chars.get(i) else { continue };
        i += 1;
        if raw {
            text.push('\\');
            text.push(e);
            continue;
        }
        i = escape(chars, i, e, bytes, &mut text, column)?;
    }
    let value = if bytes {
        if !text.is_ascii() {
            return Err(invalid(format!(
                "bytes can only contain ASCII characters (column {column})"
            )));
        }
        Const::Bytes(text)
    } else {
        Const::Str(text)
    };
    Ok((Tok::Const(value), i))
}

/// Decodes the escape `\e` (the backslash and `e` already consumed); returns the
/// index after it. Unknown escapes keep their backslash, as Python does.
fn escape(
    chars: &[char],
    mut i: usize,
    e: char,
    bytes: bool,
    text: &mut String,
    column: usize,
) -> Result<usize, SpecError> {
    let named = match e {
        '\n' => Some(None),
        '\\' => Some(Some('\\')),
        '\'' => Some(Some('\'')),
        '"' => Some(Some('"')),
        'a' => Some(Some('\u{7}')),
        'b' => Some(Some('\u{8}')),
        'f' => Some(Some('\u{c}')),
        'n' => Some(Some('\n')),
        'r' => Some(Some('\r')),
        't' => Some(Some('\t')),
        'v' => Some(Some('\u{b}')),
        _ => None,
    };
    if let Some(c) = named {
        text.extend(c);
        return Ok(i);
    }
    let bad = || invalid(format!("invalid escape in the string at column {column}"));
    let hex = |i: usize, n: usize| -> Result<u32, SpecError> {
        let digits: String = chars.get(i..i + n).ok_or_else(bad)?.iter().collect();
        u32::from_str_radix(&digits, 16).map_err(|_| bad())
    };
    let code = match e {
        '0'..='7' => {
            let mut code = e.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match chars.get(i).and_then(|c| c.to_digit(8)) {
                    Some(d) => {
                        code = code * 8 + d;
                        i += 1;
                    }
                    None => break,
                }
            }
            code
        }
        'x' => {
            let code = hex(i, 2)?;
            i += 2;
            code
        }
        'u' | 'U' if !bytes => {
            let n = if e == 'u' { 4 } else { 8 };
            let code = hex(i, n)?;
            i += n;
            code
        }
        'N' if !bytes => {
            return Err(invalid(format!(
                "\\N{{…}} escapes are not supported (string at column {column})"
            )))
        }
        _ => {
            text.push('\\');
            text.push(e);
            return Ok(i);
        }
    };
    text.push(char::from_u32(code).ok_or_else(bad)?);
    Ok(i)
}

/// A decimal integer or float (`1`, `1_000`, `2.5`, `.5`, `1e-5`).
fn number(chars: &[char], start: usize) -> Result<(Tok, usize), SpecError> {
    let column = start + 1;
    let mut end = start;
    let mut is_float = false;
    let digits = |end: &mut usize| {
        while *end < chars.len() && (chars[*end].is_ascii_digit() || chars[*end] == '_') {
            *end += 1;
        }
    };
    digits(&mut end);
    if chars.get(end) == Some(&'.') {
        is_float = true;
        end += 1;
        digits(&mut end);
    }
    if matches!(chars.get(end), Some('e' | 'E')) {
        let mut exp = end + 1;
        if matches!(chars.get(exp), Some('+' | '-')) {
            exp += 1;
        }
        if chars.get(exp).is_some_and(char::is_ascii_digit) {
            is_float = true;
            end = exp;
            digits(&mut end);
        }
    }
    let text: String = chars[start..end].iter().collect();
    let bad = || invalid(format!("invalid number {text:?} at column {column}"));
    if chars
        .get(end)
        .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        || text.contains("__")
        || text.ends_with('_')
        || text.contains("_.")
        || text.contains("._")
    {
        return Err(bad());
    }
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    let value = if is_float {
        let f: f64 = clean.parse().map_err(|_| bad())?;
        if !f.is_finite() {
            return Err(invalid(format!(
                "{text} at column {column} is not a finite number"
            )));
        }
        Const::Float(f)
    } else {
        if clean.len() > 1 && clean.starts_with('0') && clean.chars().any(|c| c != '0') {
            return Err(bad());
        }
        Const::Int(
            clean
                .parse()
                .map_err(|_| invalid(format!("integer {text} at column {column} is too large")))?,
        )
    };
    Ok((Tok::Const(value), end))
}

// ---------------------------------------------------------------------------
// Parameters and annotations

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// Column just past the last character, for "at the end" messages.
    end_column: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn column(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map_or(self.end_column, |t| t.column)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        token
    }

    /// "expected X at column N, found Y".
    fn expected(&self, what: &str) -> SpecError {
        let found = match self.tokens.get(self.pos) {
            None => return invalid(format!("expected {what} at the end")),
            Some(t) => describe(&t.tok),
        };
        invalid(format!(
            "expected {what} at column {}, found {found}",
            self.column()
        ))
    }

    fn params(&mut self) -> Result<Vec<Param>, SpecError> {
        let mut params = Vec::new();
        let mut default_seen = false;
        while self.peek().is_some() {
            let (param, has_default) = self.param()?;
            if default_seen && !has_default {
                return Err(invalid(format!(
                    "field '{}' without a default follows a field with one (column {})",
                    param.name, param.column
                )));
            }
            default_seen |= has_default;
            params.push(param);
            if self.peek().is_some() && !self.eat(',') {
                return Err(self.expected("',' between fields"));
            }
        }
        Ok(params)
    }

    fn param(&mut self) -> Result<(Param, bool), SpecError> {
        let column = self.column();
        let name = match self.peek() {
            Some(Tok::Name(name)) if !KEYWORDS.contains(&name.as_str()) => name.clone(),
            Some(Tok::Name(name)) => {
                return Err(invalid(format!(
                    "'{name}' is a Python keyword, not a field name (column {column})"
                )))
            }
            Some(Tok::Const(Const::Bool(_) | Const::None)) => {
                return Err(invalid(format!(
                    "{} is a Python keyword, not a field name (column {column})",
                    describe_const_keyword(self.peek())
                )))
            }
            Some(Tok::Punct('*' | '/') | Tok::Other("**")) => {
                return Err(invalid(format!(
                    "'*', '**' and '/' parameters are not output fields (column {column})"
                )))
            }
            _ => return Err(self.expected("a field name")),
        };
        self.pos += 1;
        let annotation = if self.eat(':') {
            Some(self.annotation(0)?)
        } else {
            None
        };
        let has_default = self.eat('=');
        if has_default {
            self.skip_default()?;
        }
        let param = Param {
            name,
            column,
            annotation,
        };
        Ok((param, has_default))
    }

    /// Skips a default value: everything up to the next comma outside brackets.
    fn skip_default(&mut self) -> Result<(), SpecError> {
        let start = self.pos;
        let mut depth = 0usize;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Punct('[' | '(' | '{') => depth += 1,
                Tok::Punct(']' | ')' | '}') if depth == 0 => {
                    return Err(self.expected("a default value"));
                }
                Tok::Punct(']' | ')' | '}') => depth -= 1,
                Tok::Punct(',') if depth == 0 => break,
                _ => {}
            }
            self.pos += 1;
        }
        if depth > 0 {
            return Err(invalid("unclosed bracket in a default value".to_string()));
        }
        if self.pos == start {
            return Err(self.expected("a default value after '='"));
        }
        Ok(())
    }

    fn annotation(&mut self, depth: usize) -> Result<Ann, SpecError> {
        let mut parts = vec![self.primary(depth)?];
        while self.eat('|') {
            parts.push(self.primary(depth)?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Ann::Union(parts)
        })
    }

    fn primary(&mut self, mut depth: usize) -> Result<Ann, SpecError> {
        let mut ann = self.atom()?;
        loop {
            if self.eat('.') {
                let column = self.column();
                match (self.next().map(|t| t.tok), &mut ann) {
                    (Some(Tok::Name(attr)), Ann::Path(path)) => path.push(attr),
                    (Some(Tok::Name(_)), _) => {
                        return Err(invalid(format!(
                            "attribute access on a non-name at column {column}"
                        )))
                    }
                    _ => {
                        self.pos -= 1;
                        return Err(self.expected("a name after '.'"));
                    }
                }
            } else if self.peek() == Some(&Tok::Punct('[')) {
                let column = self.column();
                depth += 1;
                if depth > MAX_TYPE_DEPTH {
                    return Err(invalid(format!(
                        "types nest deeper than {MAX_TYPE_DEPTH} levels (column {column})"
                    )));
                }
                self.pos += 1;
                let args = self.arguments(depth)?;
                ann = Ann::Subscript(Box::new(ann), args);
            } else {
                return Ok(ann);
            }
        }
    }

    fn arguments(&mut self, depth: usize) -> Result<Vec<Ann>, SpecError> {
        let mut args = Vec::new();
        loop {
            if self.eat(']') {
                if args.is_empty() {
                    self.pos -= 1;
                    return Err(self.expected("a type inside '[]'"));
                }
                return Ok(args);
            }
            args.push(self.annotation(depth)?);
            if !self.eat(',') && self.peek() != Some(&Tok::Punct(']')) {
                return Err(self.expected("',' or ']'"));
            }
        }
    }

    fn atom(&mut self) -> Result<Ann, SpecError> {
        let column = self.column();
        match self.next().map(|t| t.tok) {
            Some(Tok::Name(name)) if KEYWORDS.contains(&name.as_str()) => Err(invalid(format!(
                "'{name}' is a Python keyword, not a type (column {column})"
            ))),
            Some(Tok::Name(name)) => Ok(Ann::Path(vec![name])),
            Some(Tok::Const(Const::Str(first))) => self.concatenate(Const::Str(first), column),
            Some(Tok::Const(Const::Bytes(first))) => self.concatenate(Const::Bytes(first), column),
            Some(Tok::Const(c)) => Ok(Ann::Const(c)),
            Some(Tok::Punct('-')) => match self.next().map(|t| t.tok) {
                Some(Tok::Const(Const::Int(i))) => Ok(Ann::Const(Const::Int(-i))),
                Some(Tok::Const(Const::Float(f))) => Ok(Ann::Const(Const::Float(-f))),
                _ => {
                    self.pos -= 1;
                    Err(self.expected("a number after '-'"))
                }
            },
            _ => {
                self.pos -= 1;
                Err(self.expected("a type"))
            }
        }
    }

    /// Adjacent string literals join, as in Python (`'it' 's'` is `'its'`).
    fn concatenate(&mut self, first: Const, column: usize) -> Result<Ann, SpecError> {
        let (mut text, bytes) = match first {
            Const::Bytes(b) => (b, true),
            Const::Str(s) => (s, false),
            other => return Ok(Ann::Const(other)),
        };
        loop {
            match self.peek() {
                Some(Tok::Const(Const::Str(s))) if !bytes => text.push_str(s),
                Some(Tok::Const(Const::Bytes(b))) if bytes => text.push_str(b),
                Some(Tok::Const(Const::Str(_) | Const::Bytes(_))) => {
                    return Err(invalid(format!(
                        "cannot mix bytes and text literals (column {column})"
                    )))
                }
                _ => break,
            }
            self.pos += 1;
        }
        Ok(Ann::Const(if bytes {
            Const::Bytes(text)
        } else {
            Const::Str(text)
        }))
    }
}

fn describe_const_keyword(tok: Option<&Tok>) -> &'static str {
    match tok {
        Some(Tok::Const(Const::Bool(true))) => "'True'",
        Some(Tok::Const(Const::Bool(false))) => "'False'",
        _ => "'None'",
    }
}

/// A token as an error message names it.
fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Name(name) => format!("'{name}'"),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::Other(s) => format!("'{s}'"),
        Tok::Const(Const::Str(_) | Const::Bytes(_)) => "a string".to_string(),
        Tok::Const(Const::Int(_) | Const::Float(_)) => "a number".to_string(),
        Tok::Const(Const::Bool(_) | Const::None) => describe_const_keyword(Some(tok)).to_string(),
        Tok::Const(Const::Ellipsis) => "'...'".to_string(),
    }
}
