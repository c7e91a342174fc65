//! Per-language tests: a small realistic file each, its units (kinds, names,
//! extents, defining lines, docs, parents, test flags), calls, strings,
//! comments and statements; then lookups, limits and extensions.

#![allow(clippy::unwrap_used)]

use std::ops::Range;
use std::time::Duration;

use super::*;

pub(super) const RUST: &str = r#"//! Retry helpers.
use std::time::Duration;

/// How many times to try.
pub const MAX_RETRIES: u32 = 3;

/// Retries `op` with exponential backoff.
#[inline]
pub fn retry<T>(mut op: impl FnMut() -> Option<T>) -> Option<T> {
    let mut delay = Duration::from_millis(10);
    for _ in 0..MAX_RETRIES {
        if let Some(v) = op() {
            return Some(v);
        }
        std::thread::sleep(delay);
        delay *= 2;
    }
    log::warn!("gave up after {} tries", MAX_RETRIES);
    None
}

pub struct Backoff {
    base: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { base: Duration::from_millis(10) }
    }
}

macro_rules! try_twice {
    ($e:expr) => { $e.or_else(|| $e) };
}

lazy_static! {
    static ref NAME: String = "x".to_string();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_until_success() {
        let mut n = 0;
        assert_eq!(retry(|| { n += 1; (n == 2).then_some(n) }), Some(2));
    }
}
"#;

pub(super) const PYTHON: &str = r#""""Server configuration."""
import logging

logger = logging.getLogger("app")
DEFAULT_PORT = 8000

# Reads the port from the environment.
def read_port(env):
    """Returns the port as an int."""
    return int(env.get("PORT", DEFAULT_PORT))


@dataclass
class Config:
    """Settings."""

    host: str = "127.0.0.1"

    @property
    def bind(self):
        return f"{self.host}:{read_port({})}"


class TestConfig(unittest.TestCase):
    def test_bind(self):
        self.assertEqual(Config().bind, "x")


if __name__ == "__main__":
    logging.basicConfig()
    print(read_port({}))
"#;

pub(super) const GO: &str = r#"package server

import (
	"fmt"
	"testing"
)

// MaxConns caps open connections.
const MaxConns = 100

const (
	ModeA = iota
	ModeB
)

// Server serves requests.
type Server struct {
	Addr string
}

type Handler interface {
	Serve(req string) error
}

// Start listens on the address.
func (s *Server) Start() error {
	return fmt.Errorf("listen %s: %w", s.Addr, errClosed)
}

var errClosed = fmt.Errorf(`closed`)

func TestStart(t *testing.T) {
	s := &Server{Addr: ":0"}
	if err := s.Start(); err == nil {
		t.Fatal("want error")
	}
}
"#;

pub(super) const JAVASCRIPT: &str = r#"'use strict';
const express = require('express');

const app = express();
const PORT = process.env.PORT || 3000;

/**
 * Formats a greeting.
 */
function greet(name) {
  return `Hello, ${name.trim()}!`;
}

const shout = (s) => s.toUpperCase();

app.get('/hello/:name', (req, res) => {
  res.send(greet(req.params.name));
});

module.exports = { greet, handlers: { ping() { return 'pong'; } } };

app.listen(PORT);
console.log('listening');
"#;

pub(super) const TYPESCRIPT: &str = r#"import { Context } from './context';

export interface Route {
  method: string;
  path: string;
}

export type Handler = (c: Context) => Response;

export enum Method {
  GET = 'GET',
  POST = 'POST',
}

/** A tiny router. */
export class Router {
  private routes: Route[] = [];

  /** Adds a route. */
  add(method: string, path: string): void {
    this.routes.push({ method, path });
  }

  match = (path: string): Route | undefined => this.routes.find((r) => r.path === path);
}

export namespace Util {
  export const VERSION = '1.0';
}

export default function createRouter(): Router {
  return new Router();
}
"#;

pub(super) const TSX: &str = r#"import React, { useState } from 'react';

type Props = { label: string };

export function Counter({ label }: Props) {
  const [count, setCount] = useState(0);
  const increment = () => setCount(count + 1);
  return (
    <button className="counter" onClick={increment}>
      {label}: {count}
    </button>
  );
}

describe('Counter', () => {
  it('renders the label', () => {
    render(<Counter label="Clicks" />);
  });
});
"#;

pub(super) const JAVA: &str = r#"package org.example;

import java.util.List;

/**
 * Parses documents.
 */
public class Parser {
    /** Largest input accepted. */
    public static final int MAX_SIZE = 1024;

    private final List<String> errors;

    public Parser(List<String> errors) {
        this.errors = errors;
    }

    /** Parses html into a document. */
    @Override
    public Document parse(String html) {
        if (html.length() > MAX_SIZE) {
            throw new IllegalArgumentException("too big");
        }
        return Document.create(html);
    }

    interface Listener {
        void onError(String message);
    }
}

class ParserChecks {
    @Test
    void parsesEmpty() {
        assertEquals(0, new Parser(List.of()).parse("").size());
    }
}
"#;

pub(super) const C: &str = r#"#include <stdio.h>
#include "buffer.h"

#define BUF_MAX 4096
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* A growable byte buffer. */
struct buffer {
	char *data;
	size_t len;
};

typedef struct {
	int code;
	const char *name;
} status_t;

static const status_t statuses[] = {
	{ 200, "OK" },
	{ 404, "Not Found" },
};

int buffer_append(struct buffer *, const char *, size_t);

/*
 * Appends len bytes, growing the buffer.
 */
int
buffer_append(struct buffer *b, const char *s, size_t len)
{
	if (b->len + len > BUF_MAX)
		return log_error("buffer full: %zu", len);
	memcpy(b->data + b->len, s, MIN(len, BUF_MAX));
	return 0;
}
"#;

pub(super) const CPP: &str = r#"#include <memory>

namespace net {

// A connection pool.
class Pool {
public:
    explicit Pool(int size);
    std::shared_ptr<Conn> acquire();

private:
    int size_;
};

Pool::Pool(int size) : size_(size) {}

std::shared_ptr<Conn> Pool::acquire() {
    auto conn = std::make_shared<Conn>("localhost");
    conn->open();
    return conn;
}

using ConnPtr = std::shared_ptr<Conn>;

}  // namespace net

TEST(PoolTest, AcquiresConnection) {
    net::Pool pool(1);
    EXPECT_NE(pool.acquire(), nullptr);
}
"#;

/// Every sample with its language.
pub(super) const SAMPLES: [(Lang, &str); 9] = [
    (Lang::Rust, RUST),
    (Lang::Python, PYTHON),
    (Lang::Go, GO),
    (Lang::JavaScript, JAVASCRIPT),
    (Lang::TypeScript, TYPESCRIPT),
    (Lang::Tsx, TSX),
    (Lang::Java, JAVA),
    (Lang::C, C),
    (Lang::Cpp, CPP),
];

fn parsed(lang: Lang, text: &str) -> Units {
    parse(lang, text.as_bytes()).expect("the sample parses")
}

fn shown<'t>(text: &'t str, range: &Range<usize>) -> &'t str {
    &text[range.clone()]
}

/// One line a unit, indented by depth: `kind name start-end def N`, then
/// ` test` and ` doc` when they apply.
fn outline(units: &Units, text: &str) -> Vec<String> {
    units
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let depth = units.ancestors(i).count() - 1;
            format!(
                "{}{} {} {}-{} def {}{}{}",
                "  ".repeat(depth),
                u.kind.name(),
                u.name.as_ref().map_or("-", |n| shown(text, n)),
                u.start_line,
                u.end_line,
                u.def_line,
                if u.test { " test" } else { "" },
                if u.doc.is_empty() { "" } else { " doc" },
            )
        })
        .collect()
}

fn texts<'t>(text: &'t str, ranges: &[Range<usize>]) -> Vec<&'t str> {
    ranges.iter().map(|r| shown(text, r)).collect()
}

/// The unit named `name` (the first one).
fn unit<'u>(units: &'u Units, text: &str, name: &str) -> &'u Unit {
    units
        .units
        .iter()
        .find(|u| u.name.as_ref().is_some_and(|n| shown(text, n) == name))
        .unwrap_or_else(|| panic!("no unit named {name}"))
}

fn docs<'t>(text: &'t str, unit: &Unit) -> Vec<&'t str> {
    texts(text, &unit.doc)
}

#[test]
fn rust_units() {
    let units = parsed(Lang::Rust, RUST);
    assert_eq!(
        outline(&units, RUST),
        [
            "const MAX_RETRIES 4-5 def 5 doc",
            "function retry 7-20 def 9 doc",
            "struct Backoff 22-24 def 22",
            "impl Backoff 26-30 def 26",
            "  method default 27-29 def 27",
            "macro try_twice 32-34 def 32",
            "statements - 36-38 def 36",
            "module tests 40-49 def 41 test",
            "  function retries_until_success 44-48 def 45 test",
        ]
    );
    let retry = unit(&units, RUST, "retry");
    assert_eq!(
        docs(RUST, retry),
        ["/// Retries `op` with exponential backoff."]
    );
    assert_eq!(
        shown(RUST, &retry.header),
        "#[inline]\npub fn retry<T>(mut op: impl FnMut() -> Option<T>) -> Option<T>"
    );
    let body = shown(RUST, retry.body.as_ref().unwrap());
    assert!(body.starts_with("{\n    let mut delay") && body.ends_with("None\n}"));
    let constant = unit(&units, RUST, "MAX_RETRIES");
    assert_eq!(shown(RUST, constant.body.as_ref().unwrap()), "3");
    assert_eq!(
        texts(RUST, &units.calls),
        [
            "from_millis",
            "op",
            "Some",
            "sleep",
            "warn",
            "from_millis",
            "or_else",
            "lazy_static",
            "to_string",
            "assert_eq",
            "retry",
            "then_some",
            "Some",
        ]
    );
    assert_eq!(texts(RUST, &units.strings), ["gave up after {} tries", "x"]);
    assert_eq!(texts(RUST, &units.comments), ["//! Retry helpers."]);
}

#[test]
fn rust_inner_doc_comments_document_their_module() {
    let text = "mod net {\n    //! Networking.\n    fn dial() {}\n}\n";
    let units = parsed(Lang::Rust, text);
    assert_eq!(
        outline(&units, text),
        ["module net 1-4 def 1 doc", "  function dial 3-3 def 3"]
    );
    assert_eq!(docs(text, &units.units[0]), ["//! Networking."]);
    assert!(units.comments.is_empty());
}

#[test]
fn python_units() {
    let units = parsed(Lang::Python, PYTHON);
    assert_eq!(
        outline(&units, PYTHON),
        [
            "var logger 4-4 def 4",
            "const DEFAULT_PORT 5-5 def 5",
            "function read_port 7-10 def 8 doc",
            "class Config 13-21 def 14 doc",
            // A class attribute is a unit of its own, as a module's is.
            "  var host 17-17 def 17",
            "  method bind 19-21 def 20",
            "class TestConfig 24-26 def 24 test",
            "  method test_bind 25-26 def 25 test",
            "statements - 29-31 def 29",
        ]
    );
    let read_port = unit(&units, PYTHON, "read_port");
    assert_eq!(
        docs(PYTHON, read_port),
        [
            "# Reads the port from the environment.",
            "\"\"\"Returns the port as an int.\"\"\""
        ]
    );
    assert_eq!(shown(PYTHON, &read_port.header), "def read_port(env):");
    let config = unit(&units, PYTHON, "Config");
    assert_eq!(docs(PYTHON, config), ["\"\"\"Settings.\"\"\""]);
    assert!(shown(PYTHON, &config.header).starts_with("@dataclass\nclass Config:"));
    assert_eq!(
        texts(PYTHON, &units.calls),
        [
            "getLogger",
            "int",
            "get",
            "read_port",
            "assertEqual",
            "Config",
            "basicConfig",
            "print",
            "read_port",
        ]
    );
    assert_eq!(
        texts(PYTHON, &units.strings),
        [
            "app",
            "PORT",
            "127.0.0.1",
            "{self.host}:{read_port({})}",
            "x",
            "__main__"
        ]
    );
    assert_eq!(
        texts(PYTHON, &units.comments),
        ["\"\"\"Server configuration.\"\"\""]
    );
}

#[test]
fn go_units() {
    let units = parsed(Lang::Go, GO);
    assert_eq!(
        outline(&units, GO),
        [
            "const MaxConns 8-9 def 9 doc",
            "const ModeA 12-12 def 12",
            "const ModeB 13-13 def 13",
            "struct Server 16-19 def 17 doc",
            "interface Handler 21-23 def 21",
            "method Start 25-28 def 26 doc",
            "var errClosed 30-30 def 30",
            "function TestStart 32-37 def 32 test",
        ]
    );
    let server = unit(&units, GO, "Server");
    assert_eq!(
        shown(GO, server.body.as_ref().unwrap()),
        "{\n\tAddr string\n}"
    );
    assert_eq!(docs(GO, server), ["// Server serves requests."]);
    assert_eq!(
        texts(GO, &units.calls),
        ["Errorf", "Errorf", "Start", "Fatal"]
    );
    assert_eq!(
        texts(GO, &units.strings),
        ["listen %s: %w", "closed", ":0", "want error"]
    );
}

#[test]
fn javascript_units() {
    let units = parsed(Lang::JavaScript, JAVASCRIPT);
    assert_eq!(
        outline(&units, JAVASCRIPT),
        [
            "statements - 1-1 def 1",
            "const app 4-4 def 4",
            "const PORT 5-5 def 5",
            "function greet 7-12 def 10 doc",
            "function shout 14-14 def 14",
            "function /hello/:name 16-18 def 16",
            "statements - 20-20 def 20",
            "  method ping 20-20 def 20",
            "statements - 22-23 def 22",
        ]
    );
    let route = unit(&units, JAVASCRIPT, "/hello/:name");
    assert_eq!(
        shown(JAVASCRIPT, &route.header),
        "app.get('/hello/:name', (req, res) =>"
    );
    assert!(!route.test);
    let shout = unit(&units, JAVASCRIPT, "shout");
    assert_eq!(
        shown(JAVASCRIPT, shout.body.as_ref().unwrap()),
        "s.toUpperCase()"
    );
    assert_eq!(
        texts(JAVASCRIPT, &units.calls),
        [
            "express",
            "trim",
            "toUpperCase",
            "get",
            "send",
            "greet",
            "listen",
            "log"
        ]
    );
    assert_eq!(
        texts(JAVASCRIPT, &units.strings),
        [
            "use strict",
            "Hello, ${name.trim()}!",
            "/hello/:name",
            "pong",
            "listening"
        ]
    );
}

#[test]
fn typescript_units() {
    let units = parsed(Lang::TypeScript, TYPESCRIPT);
    assert_eq!(
        outline(&units, TYPESCRIPT),
        [
            "interface Route 3-6 def 3",
            "type_alias Handler 8-8 def 8",
            "enum Method 10-13 def 10",
            "class Router 15-25 def 16 doc",
            "  method add 19-22 def 20 doc",
            "  method match 24-24 def 24",
            "module Util 27-29 def 27",
            "  const VERSION 28-28 def 28",
            "function createRouter 31-33 def 31",
        ]
    );
    let router = unit(&units, TYPESCRIPT, "Router");
    assert_eq!(docs(TYPESCRIPT, router), ["/** A tiny router. */"]);
    assert_eq!(shown(TYPESCRIPT, &router.header), "export class Router");
    assert_eq!(texts(TYPESCRIPT, &units.calls), ["push", "find", "Router"]);
    assert_eq!(texts(TYPESCRIPT, &units.strings), ["GET", "POST", "1.0"]);
}

#[test]
fn tsx_units() {
    let units = parsed(Lang::Tsx, TSX);
    assert_eq!(
        outline(&units, TSX),
        [
            "type_alias Props 3-3 def 3",
            "function Counter 5-13 def 5",
            "  function increment 7-7 def 7",
            "function Counter 15-19 def 15 test",
            "  function renders the label 16-18 def 16 test",
        ]
    );
    assert_eq!(
        texts(TSX, &units.calls),
        ["useState", "setCount", "describe", "it", "render"]
    );
    assert_eq!(
        texts(TSX, &units.strings),
        ["counter", "Counter", "renders the label", "Clicks"]
    );
}

#[test]
fn java_units() {
    let units = parsed(Lang::Java, JAVA);
    assert_eq!(
        outline(&units, JAVA),
        [
            "class Parser 5-30 def 8 doc",
            "  const MAX_SIZE 9-10 def 10 doc",
            "  var errors 12-12 def 12",
            "  method Parser 14-16 def 14",
            "  method parse 18-25 def 20 doc",
            "  interface Listener 27-29 def 27",
            "    method onError 28-28 def 28",
            "class ParserChecks 32-37 def 32 test",
            "  method parsesEmpty 33-36 def 34 test",
        ]
    );
    let parse = unit(&units, JAVA, "parse");
    assert_eq!(docs(JAVA, parse), ["/** Parses html into a document. */"]);
    assert_eq!(
        shown(JAVA, &parse.header),
        "@Override\n    public Document parse(String html)"
    );
    assert_eq!(
        texts(JAVA, &units.calls),
        [
            "length",
            "IllegalArgumentException",
            "create",
            "assertEquals",
            "Parser",
            "of",
            "parse",
            "size",
        ]
    );
    assert_eq!(texts(JAVA, &units.strings), ["too big", ""]);
}

#[test]
fn c_units() {
    let units = parsed(Lang::C, C);
    assert_eq!(
        outline(&units, C),
        [
            "macro BUF_MAX 4-4 def 4",
            "macro MIN 5-5 def 5",
            "struct buffer 7-11 def 8 doc",
            "struct status_t 13-16 def 16",
            "const statuses 18-21 def 18",
            "function buffer_append 23-23 def 23",
            "function buffer_append 25-35 def 29 doc",
        ]
    );
    let table = unit(&units, C, "statuses");
    assert!(shown(C, table.body.as_ref().unwrap()).starts_with("{\n\t{ 200, \"OK\" },"));
    let append = &units.units[6];
    assert_eq!(
        shown(C, &append.header),
        "int\nbuffer_append(struct buffer *b, const char *s, size_t len)"
    );
    assert_eq!(texts(C, &units.calls), ["log_error", "memcpy", "MIN"]);
    assert_eq!(
        texts(C, &units.strings),
        ["OK", "Not Found", "buffer full: %zu"]
    );
}

#[test]
fn cpp_units() {
    let units = parsed(Lang::Cpp, CPP);
    assert_eq!(
        outline(&units, CPP),
        [
            "module net 3-25 def 3",
            "  class Pool 5-13 def 6 doc",
            "    method Pool 8-8 def 8",
            "    method acquire 9-9 def 9",
            "  method Pool 15-15 def 15",
            "  method acquire 17-21 def 17",
            "  type_alias ConnPtr 23-23 def 23",
            "function TEST 27-30 def 27 test",
        ]
    );
    assert_eq!(
        texts(CPP, &units.calls),
        ["make_shared", "open", "EXPECT_NE", "acquire"]
    );
    assert_eq!(texts(CPP, &units.strings), ["localhost"]);
    assert_eq!(texts(CPP, &units.comments), ["// namespace net"]);
}

#[test]
fn long_runs_of_statements_split_at_blank_lines() {
    let mut text = String::from("import os\n");
    for i in 0..12 {
        text.push_str(&format!("print({i})\n"));
    }
    text.push('\n');
    for i in 0..6 {
        text.push_str(&format!("print({i})\n"));
    }
    let units = parsed(Lang::Python, &text);
    assert_eq!(
        outline(&units, &text),
        ["statements - 2-13 def 2", "statements - 15-20 def 15"]
    );
    let first = &units.units[0];
    assert_eq!(first.header, first.span.start..first.span.start);
    assert_eq!(first.body.as_ref(), Some(&first.span));
}

#[test]
fn lookups_find_the_innermost_unit() {
    let units = parsed(Lang::Python, PYTHON);
    let name = |i: Option<usize>| i.and_then(|i| units.units[i].name_in(PYTHON.as_bytes()));
    assert_eq!(name(units.at_line(21)), Some("bind"));
    assert_eq!(name(units.at_line(17)), Some("host"));
    assert_eq!(name(units.at_line(15)), Some("Config"));
    assert_eq!(name(units.at_line(7)), Some("read_port")); // its comment
    assert_eq!(units.at_line(3), None);
    assert_eq!(units.at_line(1000), None);
    let offset = PYTHON.find("self.host").unwrap();
    assert_eq!(name(units.at_byte(offset)), Some("bind"));
    let offset = PYTHON.find("host: str").unwrap();
    assert_eq!(name(units.at_byte(offset)), Some("host"));
    let offset = PYTHON.find("\"\"\"Settings").unwrap();
    assert_eq!(name(units.at_byte(offset)), Some("Config"));
    assert_eq!(units.at_byte(0), None);
    assert_eq!(units.at_byte(PYTHON.len() + 10), None);
    let main = units.at_byte(PYTHON.find("basicConfig").unwrap()).unwrap();
    assert_eq!(units.units[main].kind, UnitKind::Statements);
}

#[test]
fn every_sample_parses_with_its_extension() {
    let files = [
        "src/lib.rs",
        "app/config.py",
        "server.go",
        "index.js",
        "router.ts",
        "Counter.tsx",
        "Parser.java",
        "buffer.c",
        "pool.cc",
    ];
    for ((lang, _), file) in SAMPLES.iter().zip(files) {
        assert_eq!(Lang::of_path(file), Some(*lang), "{file}");
    }
}

#[test]
fn extensions_choose_grammars() {
    let cases = [
        ("a.pyi", Some(Lang::Python)),
        ("a.mjs", Some(Lang::JavaScript)),
        ("a.cjs", Some(Lang::JavaScript)),
        ("a.jsx", Some(Lang::JavaScript)),
        ("a.mts", Some(Lang::TypeScript)),
        ("a.cts", Some(Lang::TypeScript)),
        ("types.d.ts", Some(Lang::TypeScript)),
        ("a.h", Some(Lang::C)),
        ("a.hpp", Some(Lang::Cpp)),
        ("a.hh", Some(Lang::Cpp)),
        ("a.hxx", Some(Lang::Cpp)),
        ("a.cxx", Some(Lang::Cpp)),
        ("a.cpp", Some(Lang::Cpp)),
        ("A.JAVA", Some(Lang::Java)),
        ("dir.rs/README", None),
        (".rs", None),
        ("a.md", None),
        ("Makefile", None),
        ("a.rs.orig", None),
        ("C:\\src\\main.go", Some(Lang::Go)),
    ];
    for (path, lang) in cases {
        assert_eq!(Lang::of_path(path), lang, "{path}");
    }
}

#[test]
fn a_header_that_reads_as_cpp_is_parsed_as_cpp() {
    let cpp = b"namespace fmt {\nstd::string format_float(double v) {\n  return x;\n}\n}\n";
    assert_eq!(Lang::of_source("include/util.h", cpp), Some(Lang::Cpp));
    assert_eq!(
        Lang::of_source("include/util.h", b"int add(int a, int b);\n"),
        Some(Lang::C)
    );
    assert_eq!(Lang::of_source("src/a.c", cpp), Some(Lang::C));
    assert_eq!(Lang::of_source("a.md", cpp), None);
    // Parsed as C++, the function inside the namespace is a unit of its own.
    let text = std::str::from_utf8(cpp).unwrap();
    let units = parse(Lang::Cpp, cpp).unwrap();
    assert_eq!(unit(&units, text, "format_float").def_line, 2);
}

#[test]
fn too_big_or_too_slow_is_not_parsed_and_the_parser_recovers() {
    let big = "x".repeat(MAX_PARSE_BYTES + 1);
    assert_eq!(parse(Lang::Rust, big.as_bytes()), None);
    // far more work than one progress check: stopped at the first one
    let many: String = (0..20_000)
        .map(|i| format!("fn f{i}() {{ g({i}); }}\n"))
        .collect();
    assert_eq!(
        parse_within(Lang::Rust, many.as_bytes(), Duration::ZERO),
        None
    );
    // the same thread's parser starts afresh next time
    assert_eq!(
        parse(Lang::Rust, RUST.as_bytes()),
        Some(parsed(Lang::Rust, RUST))
    );
    let units = parse_within(Lang::Rust, many.as_bytes(), Duration::from_secs(60)).unwrap();
    assert_eq!(units.units.len(), 20_000);
}

#[test]
fn empty_and_blank_texts_have_no_units() {
    for lang in Lang::ALL {
        assert_eq!(parse(lang, b""), Some(Units::default()), "{lang:?}");
        let blank = parse(lang, b"\n\n   \n").unwrap();
        assert!(blank.units.is_empty(), "{lang:?}");
    }
}
/// A conditional inside a body whose branches each open the same block
/// (a compiler sees one of them) no longer folds the functions after it
/// into the first one (`preproc`).
#[test]
fn c_conditional_compilation_inside_a_body_keeps_the_functions_after_it() {
    let text = "int retry(int fd, int tries)
{
#if defined(_WIN32)
    while (tries-- > 0 && !win_ready(fd)) {
#else
    while (tries-- > 0 && !posix_ready(fd)) {
#endif
        sleep_ms(10);
    }
    return tries;
}

static int backoff(int delay)
{
    return delay * 2;
}
";
    let units = parse(Lang::C, text.as_bytes()).unwrap();
    let functions: Vec<(&str, usize, usize)> = units
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Function)
        .map(|u| {
            (
                u.name_in(text.as_bytes()).unwrap(),
                u.start_line,
                u.end_line,
            )
        })
        .collect();
    assert_eq!(functions, [("retry", 1, 11), ("backoff", 13, 16)]);
}
