//! Definitions first: for a query that names what a function does, the line
//! that *defines* the function wins over the lines that call it, in every
//! language kgrep reads definitions of. Each project calls the function more
//! often (and talks about it in comments) in another file than it defines it,
//! so counting words alone would put the call sites first.
//! And for a question, the code comes before a file of type declarations
//! that only names it; a question about tests finds a test written beside
//! the code as it finds a test file.

use crate::harness::Dir;

struct Case {
    lang: &'static str,
    query: &'static str,
    /// The defining file and its text; `defines` is the definition line.
    def_file: &'static str,
    def_src: &'static str,
    defines: &'static str,
    /// A file that uses the function, more often than it is defined.
    call_file: &'static str,
    call_src: &'static str,
}

/// Unrelated modules, so the query's words are as rare as in a real tree
/// (in a two-file tree every word is in half the files and weighs nothing).
const FILLER: &[&str] = &[
    "cache", "config", "errors", "logging", "metrics", "paths", "queue", "retry", "signals",
    "timer",
];

fn filler(name: &str) -> String {
    format!(
        "// The {name} module.\nconst {up}_LIMIT = 10\n\nfunction {name}_open(handle) {{\n  return handle.{name}\n}}\n\nfunction {name}_close(handle) {{\n  handle.{name} = null\n}}\n",
        up = name.to_uppercase()
    )
}

/// A tree holding the [`FILLER`] modules as `folder/NAME.ext`.
fn with_filler(folder: &str, ext: &str) -> Dir {
    let d = Dir::new();
    for name in FILLER {
        d.write(&format!("{folder}/{name}.{ext}"), filler(name));
    }
    d
}

/// The one line printed with `--max-lines 1`, with its file.
fn best_line(case: &Case) -> (String, String) {
    let d = with_filler("misc", "txt");
    d.write(case.def_file, case.def_src);
    d.write(case.call_file, case.call_src);
    let run = d.run(&["--max-lines", "1", case.query, "."]);
    run.code(0);
    let heading = run.headings().first().cloned().unwrap_or_default();
    let line = run
        .stdout
        .lines()
        .find(|l| {
            l.split_once(":\t")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .map(|l| {
            l.split_once(":\t")
                .map_or("", |(_, t)| t)
                .trim()
                .to_string()
        })
        .unwrap_or_default();
    (heading, line)
}

fn check(case: &Case) {
    let (heading, line) = best_line(case);
    assert_eq!(
        (heading.as_str(), line.as_str()),
        (format!("./{}", case.def_file).as_str(), case.defines),
        "{}: the definition should win for {:?}",
        case.lang,
        case.query
    );
}

const RUST_DEF: &str = "use std::collections::HashMap;\n\npub struct Registry {\n    items: HashMap<String, Box<dyn Fn()>>,\n}\n\nimpl Registry {\n    pub fn register_plugin(&mut self, name: &str, f: Box<dyn Fn()>) {\n        self.items.insert(name.to_string(), f);\n    }\n}\n";
const RUST_CALL: &str = "// Every plugin is registered here: register the plugins at start.\nfn main() {\n    let mut r = registry::Registry::default();\n    r.register_plugin(\"a\", Box::new(|| ()));\n    r.register_plugin(\"b\", Box::new(|| ()));\n    r.register_plugin(\"c\", Box::new(|| ()));\n    // plugins registered\n}\n";

#[test]
fn rust() {
    check(&Case {
        lang: "rust",
        query: "where are plugins registered",
        def_file: "src/util.rs",
        def_src: RUST_DEF,
        defines: "pub fn register_plugin(&mut self, name: &str, f: Box<dyn Fn()>) {",
        call_file: "src/app.rs",
        call_src: RUST_CALL,
    });
}

#[test]
fn python() {
    check(&Case {
        lang: "python",
        query: "where is the best app found",
        def_file: "app/util.py",
        def_src: "import importlib\n\n\ndef find_best_app(module):\n    \"\"\"Return the Flask object in the module.\"\"\"\n    for value in vars(module).values():\n        if callable(value):\n            return value\n",
        defines: "def find_best_app(module):",
        call_file: "app/main.py",
        call_src: "from .util import find_best_app\n\n\ndef main(module):\n    app = find_best_app(module)\n    app.run()\n    find_best_app(module).run()\n    return find_best_app(module)\n",
    });
}

#[test]
fn go() {
    check(&Case {
        lang: "go",
        query: "where is the version flag added",
        def_file: "util.go",
        def_src: "package cobra\n\n// InitDefaultVersionFlag adds a default version flag.\nfunc (c *Command) InitDefaultVersionFlag() {\n\tif c.Flags().Lookup(\"version\") == nil {\n\t\tc.Flags().Bool(\"version\", false, \"version\")\n\t}\n}\n",
        defines: "func (c *Command) InitDefaultVersionFlag() {",
        call_file: "main.go",
        call_src: "package cobra\n\n// The version flag is added before the flags are parsed.\nfunc (c *Command) execute() {\n\tc.InitDefaultVersionFlag()\n\tc.InitDefaultVersionFlag()\n\t// version flag added\n\tc.InitDefaultVersionFlag()\n}\n",
    });
}

#[test]
fn javascript() {
    check(&Case {
        lang: "javascript",
        query: "how is the url built",
        def_file: "lib/util.js",
        def_src: "'use strict';\n\nexport default function buildURL(url, params) {\n  if (!params) {\n    return url;\n  }\n  return url + '?' + new URLSearchParams(params);\n}\n",
        defines: "export default function buildURL(url, params) {",
        call_file: "lib/main.js",
        call_src: "import buildURL from './util.js';\n\n// The request url is built from the config before the request is sent.\nexport function dispatch(config) {\n  const url = buildURL(config.url, config.params);\n  const retry = buildURL(config.url, config.params);\n  return send(buildURL(config.url, config.params), url, retry);\n}\n",
    });
}

#[test]
fn typescript() {
    check(&Case {
        lang: "typescript",
        query: "where are headers parsed",
        def_file: "src/util.ts",
        def_src: "export type Headers = Record<string, string>;\n\nexport const parseHeaders = (raw: string): Headers => {\n  const out: Headers = {};\n  for (const line of raw.split('\\n')) {\n    const [k, v] = line.split(':');\n    out[k.trim()] = v.trim();\n  }\n  return out;\n};\n",
        defines: "export const parseHeaders = (raw: string): Headers => {",
        call_file: "src/main.ts",
        call_src: "import { parseHeaders } from './util';\n\n// Response headers are parsed once the response arrives.\nexport class Client {\n  onResponse(raw: string) {\n    const headers = parseHeaders(raw);\n    const again = parseHeaders(raw);\n    return [headers, again, parseHeaders(raw)];\n  }\n}\n",
    });
}

#[test]
fn java() {
    check(&Case {
        lang: "java",
        query: "how are child nodes appended",
        def_file: "src/main/java/org/x/Util.java",
        def_src: "package org.x;\n\npublic class Element extends Node {\n    public Element appendChild(Node child) {\n        children.add(child);\n        return this;\n    }\n}\n",
        defines: "public Element appendChild(Node child) {",
        call_file: "src/main/java/org/x/Main.java",
        call_src: "package org.x;\n\n// Child nodes are appended as they are parsed.\npublic class Builder {\n    void build(Element root, Node a, Node b) {\n        root.appendChild(a);\n        root.appendChild(b);\n        root.appendChild(a.copy());\n        // appended child nodes\n    }\n}\n",
    });
}

#[test]
fn c() {
    check(&Case {
        lang: "c",
        query: "where are numeric literals parsed",
        def_file: "src/util.c",
        def_src: "#include \"jv.h\"\n\nstatic jv parse_numeric_literal(const char *s, int len) {\n  double d = 0;\n  return jv_number(d);\n}\n",
        defines: "static jv parse_numeric_literal(const char *s, int len) {",
        call_file: "src/main.c",
        call_src: "#include \"jv.h\"\n\n/* Numeric literals are parsed by the lexer as they are read. */\nvoid lex(const char *s, int n) {\n  jv a = parse_numeric_literal(s, n);\n  jv b = parse_numeric_literal(s + 1, n - 1);\n  jv c = parse_numeric_literal(s + 2, n - 2);\n}\n",
    });
}

#[test]
fn cpp() {
    check(&Case {
        lang: "c++",
        query: "how is a float value formatted",
        def_file: "include/util.h",
        def_src: "#include <string>\n\nnamespace fmt {\nstd::string format_float(double value, int precision) {\n  return std::to_string(value);\n}\n}  // namespace fmt\n",
        defines: "std::string format_float(double value, int precision) {",
        call_file: "src/main.cc",
        call_src: "#include \"util.h\"\n\n// A float value is formatted before it is written.\nvoid write(double value) {\n  auto a = fmt::format_float(value, 2);\n  auto b = fmt::format_float(value, 3);\n  auto c = fmt::format_float(value, 4);\n}\n",
    });
}

/// A type-declaration file (`.d.ts`) names every option and method with its
/// words in doc comments, so it can outrank the code; a question asks for
/// the code that does the thing.
#[test]
fn a_question_puts_the_code_before_its_type_declarations() {
    let d = with_filler("lib", "js");
    d.write(
        "typings/index.d.ts",
        "export class Command {\n  /**\n   * Copy settings that are useful to have in common across root command and subcommands.\n   * The settings are inherited by a subcommand from its parent when it is created.\n   */\n  copyInheritedSettings(sourceCommand: Command): this;\n  /** Add a subcommand; it inherits the parent's settings. */\n  command(nameAndArgs: string): Command;\n  /** The settings for output, copied to subcommands. */\n  configureOutput(configuration: OutputConfiguration): this;\n  /** Settings for help, inherited by subcommands. */\n  configureHelp(configuration: HelpConfiguration): this;\n}\nexport interface OutputConfiguration { writeOut?(str: string): void; }\nexport interface HelpConfiguration { sortSubcommands?: boolean; }\n",
    );
    d.write(
        "lib/command.js",
        "class Command {\n  copyInheritedSettings(sourceCommand) {\n    this._outputConfiguration = sourceCommand._outputConfiguration;\n    this._helpConfiguration = sourceCommand._helpConfiguration;\n    this._exitCallback = sourceCommand._exitCallback;\n    return this;\n  }\n\n  command(nameAndArgs) {\n    const cmd = this.createCommand(nameAndArgs);\n    cmd.copyInheritedSettings(this);\n    return cmd;\n  }\n}\n",
    );
    let question =
        "Where are the settings copied that a subcommand inherits from its parent when it is created?";
    let run = d.run(&[question, "."]);
    run.code(0);
    run.first_heading_is("./lib/command.js");
    run.stdout_has("2:\t  copyInheritedSettings(sourceCommand) {");
    // A statement that looks for code (no change verb) is ordered by the
    // commit model (fitted on commits, which change the declarations with
    // the code), which puts the declarations first: `--explain` says why the
    // code is first despite a lower learned score.
    let statement = "Settings copied to a subcommand from its parent when created";
    let run = d.run(&["--explain", statement, "."]);
    run.code(0)
        .stderr_has("explain: lib/command.js: ")
        .stderr_has("; moved first: code, before a file that only declares it");
    run.first_heading_is("./lib/command.js");
}

/// A C header's prototypes and their comments name what a function does; a
/// question (or keywords) asks for the body that does it, in the `.c` file,
/// unless it asks for the declaration.
#[test]
fn a_question_puts_the_code_before_a_header_of_prototypes() {
    let d = with_filler("src", "c");
    d.write(
        "include/net.h",
        "#ifndef NET_H\n#define NET_H\n\n/* Resolve the host name of the server, choosing an IPv4 or an IPv6\n * address as the client prefers. */\nint net_resolve_host(struct client *c, const char *host);\n\n/* Choose the address family (IPv4 or IPv6) the client prefers. */\nint net_choose_family(struct client *c);\n\n/* Connect the client to the resolved address of the host. */\nint net_connect(struct client *c, const char *host, int port);\n\n/* The host name the client resolves, and whether it chooses IPv6 over IPv4. */\nstruct client {\n    const char *host_name;\n    int prefer_ipv6; /* choose IPv6 first when resolving the host name */\n    struct addrinfo *addr;\n};\n\n/* Resolve a host name again when the client reconnects (IPv4 or IPv6). */\nint net_resolve_again(struct client *c);\n\n#endif\n",
    );
    d.write(
        "src/net.c",
        "#include \"net.h\"\n\nint net_resolve_host(struct client *c, const char *host) {\n    struct addrinfo hints = {0};\n    hints.ai_family = c->prefer_ipv6 ? AF_INET6 : AF_INET;\n    int rv = getaddrinfo(host, NULL, &hints, &c->addr);\n    if (rv != 0 && c->prefer_ipv6) {\n        hints.ai_family = AF_INET;\n        rv = getaddrinfo(host, NULL, &hints, &c->addr);\n    }\n    return rv;\n}\n",
    );
    let question =
        "How does the client choose between IPv4 and IPv6 when it resolves the host name?";
    let run = d.run(&["--explain", question, "."]);
    run.code(0)
        .stderr_has("explain: src/net.c: ")
        .stderr_has("; moved first: code, before a file that only declares it");
    run.first_heading_is("./src/net.c");
    // Typed as keywords, the same.
    d.run(&[
        "--explain",
        "client choose ipv4 ipv6 resolve host name",
        ".",
    ])
    .code(0)
    .stderr_has("; moved first: code, before a file that only declares it");
    // A question that asks for the declaration itself: no move.
    d.run(&[
        "--explain",
        "Where is the function that resolves the host name declared?",
        ".",
    ])
    .code(0)
    .stderr_lacks("; moved first: code, before a file that only declares it");
}

/// A header with an inline helper is not only declarations, but its
/// prototypes still name what the `.c` file does (hiredis's `alloc.h` above
/// `alloc.c`): a question asking how the code does it gets the `.c` first.
#[test]
fn a_question_puts_the_code_before_a_header_with_an_inline_function() {
    let d = with_filler("src", "c");
    d.write(
        "alloc.h",
        "#ifndef ALLOC_H\n#define ALLOC_H\n\n/* The allocator functions the library calls: malloc, calloc, realloc\n * and free by default, replaced by the user's own allocator functions. */\ntypedef struct allocator_funcs {\n    void *(*malloc_fn)(size_t);\n    void *(*calloc_fn)(size_t, size_t);\n    void *(*realloc_fn)(void *, size_t);\n    void (*free_fn)(void *);\n} allocator_funcs;\n\n/* Replace the default allocator functions with the user's own. */\nallocator_funcs set_allocator_funcs(allocator_funcs *fns);\n/* Restore the default allocator functions. */\nvoid reset_allocator_funcs(void);\n\nextern allocator_funcs global_allocator_funcs;\n\n/* Allocate with the user's allocator function. */\nstatic inline void *lib_malloc(size_t size) {\n    return global_allocator_funcs.malloc_fn(size);\n}\n\n#endif\n",
    );
    d.write(
        "alloc.c",
        "#include \"alloc.h\"\n\nallocator_funcs global_allocator_funcs = {\n    .malloc_fn = malloc,\n    .calloc_fn = calloc,\n    .realloc_fn = realloc,\n    .free_fn = free,\n};\n\nallocator_funcs set_allocator_funcs(allocator_funcs *override) {\n    allocator_funcs orig = global_allocator_funcs;\n    global_allocator_funcs = *override;\n    return orig;\n}\n\nvoid reset_allocator_funcs(void) {\n    global_allocator_funcs = (allocator_funcs){malloc, calloc, realloc, free};\n}\n",
    );
    let question = "How does the library let the user replace the default allocator functions?";
    let run = d.run(&["--explain", question, "."]);
    run.code(0)
        .stderr_has("explain: alloc.c: ")
        .stderr_has("; moved first: code, before a file that only declares it");
    run.first_heading_is("./alloc.c");
}

/// Rust keeps unit tests in the source file (`mod tests`): asked which test
/// checks something, that test is the answer, as a test file's would be.
#[test]
fn a_test_question_finds_a_test_beside_the_code() {
    let d = with_filler("src", "rs");
    d.write(
        "src/search.rs",
        "pub fn tokenize(text: &str) -> Vec<&str> {\n    text.split_whitespace().filter(|w| w.len() <= MAX_WORD).collect()\n}\n\nconst MAX_WORD: usize = 80;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn long_words_are_left_out_of_the_index() {\n        let long = \"x\".repeat(81);\n        assert!(tokenize(&long).is_empty());\n    }\n}\n",
    );
    d.write(
        "tests/search.rs",
        "// Tests of the search page.\n#[test]\nfn search_page_is_written() {\n    let book = build_book(\"a book of words\");\n    assert!(book.search_page().exists());\n}\n\n#[test]\nfn search_index_is_loaded() {\n    let book = build_book(\"words\");\n    assert!(book.search_index().len() > 0);\n}\n",
    );
    let question = "Which test checks that very long words are left out of the search index?";
    let run = d.run(&[question, "."]);
    run.code(0);
    run.first_heading_is("./src/search.rs");
    run.stdout_has("fn long_words_are_left_out_of_the_index() {");
}

/// A testing helper library (`packages/testing/`) is on the tests' side by
/// its path, but holds no tests: asked which tests check something, the spec
/// beside it, whose tests name the thing, comes first, though the helper
/// names it more often.
#[test]
fn a_test_question_finds_the_tests_not_the_testing_helpers() {
    let d = with_filler("src", "ts");
    d.write(
        "packages/testing/src/testing.ts",
        "// Lets a test override a computed value with a fixed value, and reset it.\nexport function overrideComputed(store, key, value) {\n  const computed = store[key]\n  store._overridden[key] = computed\n  store[key] = value\n}\n\nexport function resetComputed(store, key) {\n  store[key] = store._overridden[key]\n  delete store._overridden[key]\n}\n\nexport function isOverridden(store, key) {\n  return key in store._overridden\n}\n",
    );
    d.write(
        "packages/testing/src/testing.spec.ts",
        "import { overrideComputed, resetComputed } from './testing'\n\ndescribe('testing', () => {\n  it('can override a computed value and reset it', () => {\n    const store = makeStore()\n    overrideComputed(store, 'double', 4)\n    expect(store.double).toBe(4)\n    resetComputed(store, 'double')\n    expect(store.double).toBe(2)\n  })\n})\n",
    );
    let question =
        "Where are the tests that check that a computed value can be overridden and reset?";
    let run = d.run(&[question, "."]);
    run.code(0);
    run.first_heading_is("./packages/testing/src/testing.spec.ts");
}

/// `--explain` says when the definer was moved above the file that calls it.
#[test]
fn explain_says_the_definer_was_moved_first() {
    let d = with_filler("misc", "txt");
    d.write("src/util.rs", RUST_DEF);
    // The caller is named for the words, which leads the learned ranking.
    d.write("src/plugins.rs", RUST_CALL);
    let run = d.run(&["--explain", "how are plugins registered", "."]);
    run.code(0)
        .stderr_has("; moved first: it defines what the learned first file only calls");
    run.first_heading_is("./src/util.rs");
    // Asked where, the hand order (the definer first) weighs in the order
    // itself: the definer is first with no move.
    let d = with_filler("misc", "txt");
    d.write("src/util.rs", RUST_DEF);
    d.write("src/app.rs", RUST_CALL);
    let run = d.run(&["--explain", "where are plugins registered", "."]);
    run.code(0)
        .stderr_has(", and by the hand order (a where-question)")
        .stderr_lacks("; moved first: it defines what the learned first file only calls");
    run.first_heading_is("./src/util.rs");
}

/// For a how-question, a runner-up whose best unit is a function doing far
/// more of what is asked than the learned first file's best (a file that
/// talks about it in comments, its words leading the file ranking, with a
/// one-line counter) goes first, and `--explain` says why.
#[test]
fn a_how_question_puts_the_function_that_does_it_first() {
    let d = with_filler("misc", "txt");
    d.write(
        "src/scheduler/retry_failed_jobs.py",
        "# Failed jobs.\n#\n# The scheduler runs each job. A failed job goes back to the scheduler,\n# which may retry the failed job later; a job that failed too often is\n# dropped. The scheduler keeps a list of failed jobs for the retry.\n# Each retry of a failed job is logged by the scheduler.\n#\n# See the worker for the job loop: the scheduler, the retry, the failed job.\n\nLIMIT = 3\n\n\ndef failed_count(jobs):\n    return len(jobs)\n",
    );
    d.write(
        "src/worker.py",
        "import time\n\n\ndef retry_failed_job(scheduler, job, error):\n    if job.attempts < scheduler.retry_limit:\n        job.attempts += 1\n        time.sleep(scheduler.retry_delay * job.attempts)\n        scheduler.requeue(job)\n    elif scheduler.failed_jobs is not None:\n        scheduler.failed_jobs.append((job, error))\n    else:\n        raise error\n",
    );
    let run = d.run(&[
        "--explain",
        "how does the scheduler retry a failed job",
        ".",
    ]);
    run.code(0)
        .stderr_has("; moved first: its best unit does far more of what the question asks");
    run.first_heading_is("./src/worker.py");
    run.stdout_has("def retry_failed_job(scheduler, job, error):");
}
