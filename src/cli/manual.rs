//! The man page's prose: the sections clap cannot generate from the flag
//! definitions (configuration, environment, thesaurus layers and file
//! formats, exit status, the JSON messages, examples), as data rendered to roff.
//! The configuration keys' items come from their one definition,
//! `config::KEYS`.
//!
//! `generate.rs` places them after the generated OPTIONS sections. Tests check
//! that every config key kgrep reads is documented and that every example
//! names real flags; the wording is for users, like the flags' help.

use std::io::{self, Write};

use roff::{bold, roman, Roff};

/// One piece of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// A paragraph.
    Para(&'static str),
    /// A tagged paragraph: a term (bold) and its description.
    Item(&'static str, &'static str),
    /// Literal lines (commands, file contents), shown indented and unfilled.
    Code(&'static str),
}

/// A man page section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub title: &'static str,
    pub blocks: &'static [Block],
}

use Block::{Code, Item, Para};

const DESCRIPTION: Section = Section {
    title: "HOW QUERIES ARE READ",
    blocks: &[
        Para("A query that is clearly code is searched exactly, like ripgrep: an identifier (parse_args, maxRetry, MAX_RETRIES, std::io), a \"quoted string\", or a regular expression that compiles (fn\\s+main, retry|backoff, a*b, (a+)+b, gr[ae]y: regex syntax, or a *, + or ? right after what it repeats, or a class a word goes on after, in a query without spaces; C++, an index such as arr[0] and a question ending in ? stay words). Every matching line is printed, case-sensitively, files in path order. As in ripgrep, -i matches in any case, -w only whole words, and -F searches the pattern as the text it is, whatever it looks like (quotes included, never as natural language or a regex, and never capped); a natural-language query ignores -i and -w."),
        Para("A one-word query that is not code (retry, Abort, 404, X-Forwarded-For) is natural language like any other: stemmed, expanded with synonyms and ranked, its best places printed within --max-lines. When lines holding it were left out, stderr says so in one line, and how to print every line holding it exactly, as ripgrep would: quote it (kgrep '\"Abort\"') or pass -F (kgrep -F Abort). A word in no file that was searched as the identifier it spells run together (csvformat: CSVFormat, csv_format) says so too, with the regex that prints every spelling (kgrep -i 'csv[-_]?format')."),
        Para("CJK text (Chinese, Japanese, Korean) has no spaces: a run of it is split from the Latin text around it (客户端IP: 客户端 and the word IP), the question's phrasing is taken out (在哪里, 什么, 的, ...), and each piece left is searched as its overlapping two-character sequences (客户端: 客户, 户端), found anywhere in the CJK text of a line. A word with other non-ASCII letters (größe, données) is matched as written, whole. A query with no word that can be searched for (only stop words or punctuation, or only words over 64 bytes) says so on stderr."),
        Para("Anything else is natural language. Question words and stop words are dropped, words that describe a change (fix, add, make sure) weigh little, the rest are stemmed; identifiers split on camelCase, snake_case and kebab-case, and an identifier typed in the query also matches whole in any spelling. Each word is expanded with the synonyms of its concept in the thesaurus and, more weakly, with the other verbs of its family (find: lookup, locate, resolve). A function word typed beside a word (too small, is empty) is also searched joined as code names it (too_small, isEmpty). A line scores by the query words it holds (most of all in the name it defines: a definition beats its call sites) and those met nearby (comments, test code and imports count less). The best candidate files (16 at most) are cut into code units with tree-sitter (functions, methods, classes, structs, impls, traits, interfaces, top-level constants and variables, and the statements between them) for Rust, Python, Go, JavaScript, TypeScript/TSX, Java, C and C++; other files and documents by line patterns. A unit scores as a document of fields, each with its own weight: the words of its name, its signature, its doc comment, its body's identifiers, its calls, its strings and its comments; a declaration that only names the words counts less than a function whose body does the thing (but a where-question weighs a constant, variable or macro named for its words more: it asks for the value), a long unit or a whole class less than a method inside it. Files are ranked with BM25, the query words in their path, their best unit and, weaker, their second best. Tests, docs and build files rank below source unless the query asks for them (then tests come first); generated, vendored and minified files far below. The best file is printed in full: its best unit's defining line, then the lines of its body that carry the query, best first, then up to ten more units that score at least half as much, one line each; runners-up that come close get one line each (up to 5 files; from 0.6 of the first file's score when the judge is unsure of it, 0.8 when sure); at most --max-lines lines in all: the first file's best line (under a cap of 15 or more, the default, with the first two lines of code of its function's body, then each runner-up's line), then the best of the others by score, so a small --max-lines never prints a weaker line in place of a stronger one. --explain names each printed line's unit (kind, name, lines) with its score by field. On a tree of thousands of files, words found in over a tenth of an even sample of 300 files (of a tree over 1,000) are counted only in the files that hold a rarer word of the query, unless too few do; with --max-lines 0 every file holding a query word is ranked and printed, the best first."),
        Para("When stdout is not a terminal the output is rlmgrep's, byte for byte: a ./path heading, N:<TAB>line for matches, N-<TAB>line for context, -- between groups, an empty line between files. On a terminal it is rlmgrep's \"===== Matches =====\" section. Messages go to stderr, prefixed \"kgrep: \", starting with \"Scanned N files. Loaded M.\" A natural-language result line longer than 300 bytes (a minified bundle) is cut to a 300-byte preview around its matched words, with \"[... N bytes omitted]\" where bytes were left out, as ripgrep's --max-columns-preview shows a preview; -a, literal and regex queries and --json print every byte."),
    ],
};

const CONFIGURATION: Section = Section {
    title: "CONFIGURATION",
    blocks: &[
        Para("kgrep reads rlmgrep's ~/.rlmgrep/config.toml, so an existing setup works unchanged, and its own $XDG_CONFIG_HOME/kgrep/config.toml (default ~/.config/kgrep/config.toml), which wins key by key. Command-line flags win over both. kgrep --init-config writes a commented default file. A file that cannot be read or parsed is reported with its line and left untouched; unknown keys are ignored. Such a file fails closed: the settings of its readable lines are kept, key by key, and when a line that cannot be read may set whether or where queries are sent (llm, model, sub_model, api_base, sub_api_base, api_key, sub_api_key, model_type, prompt_tokens, max_llm_calls, max_iterations), or names no key at all, no model is consulted until the file is fixed, whatever KGREP_LLM or --rlm say. A config that is not a regular file (a FIFO, a device) or is over 64 MiB is refused at once. The keys:"),
    ],
};

const ENVIRONMENT: Section = Section {
    title: "ENVIRONMENT",
    blocks: &[
        Item("KGREP_LLM", "When to consult a language model, for this session: auto, off (also never, 0, false) or always (also on). Overrides the llm config key; an invalid value is an error (exit 2). KGREP_LLM=off is a safety switch: it wins over --rlm and every config key, so no model is consulted (a --rlm it overrides is warned about)."),
        Item("NO_COLOR", "When set to a non-empty value, --color auto (the default) does not colour. --color always still does."),
        Item("KGREP_PROGRESS_DELAY_MS", "Milliseconds a stage must run before progress shows on a terminal (default 250). Progress is never written when stderr is not a terminal."),
        Item("HOME", "Locates ~/.rlmgrep/config.toml and the XDG defaults."),
        Item("XDG_CONFIG_HOME", "kgrep's config file is $XDG_CONFIG_HOME/kgrep/config.toml (default ~/.config)."),
        Item("XDG_DATA_HOME", "The learned thesaurus is $XDG_DATA_HOME/kgrep/thesaurus.json (default ~/.local/share)."),
        Item("OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY", "The provider's API key, as rlmgrep reads them: --api-key or the api_key config key win; otherwise the variable of the model's provider (openai/…, anthropic/…, gemini/…, openrouter/…); for another provider, the only one of these that is set. Keys are never printed."),
    ],
};

const THESAURUS: Section = Section {
    title: "THESAURUS",
    blocks: &[
        Para("Natural-language queries are expanded through a thesaurus of software concepts and the words code uses for them (configuration: cfg, conf, settings, ...). It is built from layers; a later layer wins for a synonym it redefines:"),
        Item("embedded", "Compiled into kgrep (off with --no-builtin-thesaurus)."),
        Item("learned", "$XDG_DATA_HOME/kgrep/thesaurus.json (default ~/.local/share/kgrep/thesaurus.json): concepts learned from a language model."),
        Item("project", ".kgrep/thesaurus.json or a .kgrep/kg/ folder, in the current directory and in the directory given as the only path."),
        Item("--thesaurus PATH", "Each given file or folder, in order."),
        Para("A layer is Terraphim's JSON, its legacy flat form, or a folder of Markdown files. A missing layer is fine; a corrupt or unreadable one is reported once and skipped, never rewritten. Files over 64 MiB and anything that is not a regular file (a FIFO, a device) are refused at once, and a project's .kgrep files and the learned file are not read through a symbolic link (a --thesaurus PATH you name is), nor is a project's .kgrep folder that is one used at all (it came with the project: nothing is read from it or learned into it); a --thesaurus PATH that is refused is an error (exit 2). Terraphim JSON maps each synonym to its concept's id and normalised term:"),
        Code("{\"name\": \"engineering\", \"data\": {\n  \"cfg\":      {\"id\": 1, \"nterm\": \"configuration\"},\n  \"settings\": {\"id\": 1, \"nterm\": \"configuration\"}\n}}"),
        Para("The legacy flat form is the same map without the envelope: {\"cfg\": {\"id\": 1, \"nterm\": \"configuration\"}}. In a Markdown folder each NAME.md file is one concept named NAME; its first \"# Heading\" is also a synonym, and \"synonyms::\" lines list the others:"),
        Code("# Configuration\nsynonyms:: cfg, conf, settings, options"),
    ],
};

const LEARNING: Section = Section {
    title: "THE LEARNING LOOP",
    blocks: &[
        Para("When the judge finds the offline results wanting and a language model's expansion leads to verified, printed results, kgrep keeps what the model taught: each concept's name, the terms of it that matched the corpus, and the query's own words the model tied to it. The next query that uses those words is expanded offline, without a model call. Concepts go to the learned thesaurus ($XDG_DATA_HOME/kgrep/thesaurus.json), or with --learn-to project (config learn_to) to .kgrep/thesaurus.json in the current directory."),
        Para("Junk is refused: stop words, one-letter terms, numbers, terms of more than four words or 48 characters, and any synonym a loaded thesaurus layer (or the learned file) already maps to another concept: the first mapping wins. A concept whose name already means another concept is not learned."),
        Para("A learned concept starts as proposed: its synonyms weigh less than those of the embedded and hand-written layers. It becomes accepted, with full weight, when it helps again in a later run (a second hit: a query using it was answered offline, judged sufficient without a model, or a model taught it again), or when you accept it with --thesaurus-accept. A model's fresh expansion terms weigh as much as a proposed concept's synonyms, so the query that taught a concept ranks the same the next time, offline. --no-learn (config learn = false), --offline and llm = \"off\" write nothing; nothing is written when a model call failed or nothing was printed. -v says which concepts came from the learned layer and what was learned."),
        Para("The file is Terraphim JSON; kgrep's provenance sits under the top-level \"kgrep\" key, which other readers ignore. Keys are sorted and ids are stable (a new concept gets the largest id plus one); keys kgrep does not know are kept. Writers take an exclusive lock on a sidecar thesaurus.json.lock (never opened through a symbolic link, so a planted link creates nothing where it points) and replace the file atomically (a temp file renamed over it), so concurrent runs lose nothing and a crash never leaves half a file. A corrupt learned file is reported once, skipped and never overwritten: fix it, or move it aside and kgrep starts a new one."),
        Code("{\"data\": {\n  \"evict\": {\"id\": 1, \"nterm\": \"cache eviction\"}, ...},\n \"kgrep\": {\"concepts\": {\"cache eviction\": {\"date\": \"2026-11-23T11:24:46Z\",\n   \"hits\": 1, \"id\": 1, \"model\": \"openai/gpt-4o-mini\",\n   \"query\": \"where are stale entries thrown away\", \"status\": \"proposed\"}}},\n \"name\": \"kgrep learned concepts\"}"),
        Para("--thesaurus-list prints one learned concept per line, tab-separated: name, status, hits, date, model, synonyms (comma-separated), query. --thesaurus-accept NAME and --thesaurus-forget NAME change one concept (exit 1 if there is none by that name). --thesaurus-export PATH writes the file as Terraphim JSON, or, when PATH is a directory or ends with /, one Markdown file per concept. --thesaurus-import PATH adds the concepts of a Terraphim JSON file or Markdown folder as accepted, with the same filter. These commands need no query and work on the file --learn-to names."),
    ],
};

const EXIT_STATUS: Section = Section {
    title: "EXIT STATUS",
    blocks: &[
        Item("0", "At least one line was printed (with -l, -c or -q: would have been; or a command such as --init-config succeeded)."),
        Item("1", "Nothing matched."),
        Item("2", "An error: a usage or configuration error, or an input that could not be read (a PDF page that could not be read in full counts: its text up to there is still searched). An error wins: a missing path among real ones still exits 2 after the others are searched, as in ripgrep. A closed stdout (a pipe into head) is not an error."),
        Para("The same codes hold with --json; errors still go to stderr."),
    ],
};

const JSON_OUTPUT: Section = Section {
    title: "JSON OUTPUT",
    blocks: &[
        Para("--json prints JSON Lines that are a strict superset of rg --json: one message per line, {\"type\": ..., \"data\": {...}}, with ripgrep's message types, field names, nesting and order, so a consumer of ripgrep's output reads kgrep's unchanged. kgrep adds fields only under data.kgrep, plus message types of its own (answer, signature, request). Text is {\"text\": \"...\"} when it is valid UTF-8 and {\"bytes\": \"<base64>\"} otherwise (file names, lines, matches)."),
        Item("begin", "A file with printed lines starts. Fields: path, spelt as rg spells it: under the path argument as given (./src/a.py for ., /abs/dir/a.py for /abs/dir), or relative to the current directory with no ./ when no path was given. Text output keeps rlmgrep's ./path headings."),
        Item("match", "A matching line. Fields: path; lines (the line, with its newline); line_number (null with -N, as rg's); absolute_offset (byte offset of the line in the file: a CRLF counts two bytes); submatches, each {match, start, end} with byte offsets into lines: the literal or regex matches, or for natural language the occurrences of query terms (none on a unit's defining line that holds no query term, printed for the lines of its body after it); kgrep."),
        Item("context", "A context line (-A, -B, -C): the same fields as match, submatches empty, no kgrep."),
        Item("end", "The file is done. Fields: path; binary_offset (always null: binary files are skipped, or searched as text with -a); stats {elapsed {secs, nanos, human}, searches, searches_with_match, bytes_searched, bytes_printed, matched_lines, matches}."),
        Item("answer", "kgrep's own, with --answer or --answer-only, before the summary: {\"text\": ..., \"source\": \"model\" | \"extractive\", \"model\": NAME | null}."),
        Item("signature", "kgrep's own, with --signature or --signature-json, before the summary: {\"spec\": SPEC, \"fields\": {...}}, fields being the object --signature-json prints."),
        Item("request", "kgrep's own, with --dry-run, instead of any match: one per model request that would be sent, before the summary: {\"stage\": \"expansion\" | \"selection\", \"method\": \"POST\", \"url\": URL, \"headers\": {NAME: VALUE} (keys masked), \"body\": {...} (exactly what would be sent), \"fallback\": true for the chat request sent only if the server has no Responses endpoint}."),
        Item("summary", "Always the last line, even when nothing matched: {\"data\": {\"elapsed_total\": {human, nanos, secs}, \"kgrep\": {...}, \"stats\": {...}}, \"type\": \"summary\"}, keys sorted as ripgrep writes them; stats add up the end messages."),
        Para("data.kgrep of a match: source (lexical when a query word matched, thesaurus when only synonyms did, fuzzy when only typo corrections did, or model); verified (checked against the file); score (null for literal and regex queries, else {total, terms, near, merged, name, factor} with total = (terms + near + merged + name) * factor); terms (the query terms on the line, each {text, concept, origin: query | synonym | fuzzy}); concepts; submatch_terms (for each submatch, its index in terms); for a natural-language query, unit: the code unit holding the line as ranking saw it, {kind (function, method, class, struct, enum, union, trait, interface, impl, module, type_alias, const, var, macro, statements, or definition when found by line patterns rather than a parser), name (null for statements), start, end, def_line (1-based, inclusive), score, fields (the weight of the query words found in each of name, signature, doc, body, call, string and comment; fields without any are left out), support (words found in a second field), context (words only an enclosing unit's name holds), line (its best line's share), factor (below 1 for a declaration that only names the words, or test code the query did not ask for), length (below 1 for a long unit or a container), branching (above 1 for a unit whose lines branch when the question asks how something is done or what happens in a case; 1 otherwise)}, omitted for lines outside any unit and for literal and regex queries."),
        Para("data.kgrep of the summary: version; query {text, kind: natural | literal | regex, terms}; files {scanned, loaded, skipped}; judge ({sufficient, coverage, confidence, diversity, reason}); model ({calls, prompt_tokens, completion_tokens}); concepts_learned (a list of names); budget ({max_tokens, lines_left_out, files_left_out, answer_cut}: what --token-budget left out). judge, model, concepts_learned and budget are null when that stage did not run."),
        Para("Where kgrep's JSON differs from rg's for the same search: lines are the text kgrep searched (a file's CRLF is read as LF and invalid UTF-8 as U+FFFD, as rlmgrep reads files; piped stdin is raw), so offsets and bytes_searched refer to that text; bytes_printed counts kgrep's longer lines; a file's elapsed is the time spent re-reading and printing it. Files come in rank order for natural language, path order otherwise. When stdout is a terminal, DEL and C1 control characters in strings are written as \\u escapes (same JSON, terminal-safe bytes)."),
    ],
};

const AGENTS: Section = Section {
    title: "AGENTS",
    blocks: &[
        Para("-l prints only the paths of the files the output would show, one per line and best first for natural language (kgrep -l 'where is the retry delay computed' | head -1 is the file to open); -c adds each file's number of match lines (./src/app.py:3); -q prints nothing and exits 0 if a line matched (even when a path was missing, as in ripgrep), 1 if not, without consulting a model unless --rlm asks; a literal or regex query stops reading files and walking the tree at the first file that matches. As in ripgrep, a literal or regex query lists every file that matches, and -m caps each count. A list is never cut by --token-budget."),
        Para("--token-budget N keeps the output within about N tokens, estimated as the model stage estimates prompts (three bytes a token, erring high): the answer first (cut if it must be), then lines best first (by score for natural language, the first file's best line first; in print order for literal and regex queries) while the next still fits, and never fewer than one line when there is one: a budget too small for the best line (or, in --json, for the summary and it) is exceeded by that line, the exit status still says a line matched, and stderr says so. What was left out is said on stderr and in the --json summary (budget). In --json the budget covers every message, the summary included."),
        Para("kgrep --mcp serves the Model Context Protocol over stdin and stdout: newline-delimited JSON-RPC 2.0, protocol revisions 2025-11-25 and 2025-06-18 (the client's when it asks for one of them, else 2025-11-25), methods initialize, ping, tools/list and tools/call; it exits when stdin ends. stdout carries protocol messages only; diagnostics go to stderr. Flags given with --mcp are defaults for every call (kgrep --mcp --offline never consults a model unless a call says offline: false); a pattern, -e, -f, and a mode that prints no lines or other rows (-l, -c, --count-matches, --files-without-match, -q, --passthru, --files, --features, --type-list) are refused. A typical agent configuration:"),
        Code("{\"mcpServers\": {\"kgrep\": {\"command\": \"kgrep\", \"args\": [\"--mcp\"]}}}"),
        Para("Tool calls stay inside the server's roots: the roots the client declares through MCP roots (asked with roots/list once the session is initialized, and again on notifications/roots/list_changed), else the directory the server was started in. A path a call names must resolve under one of them, symbolic links and .. included, as the system resolves them (link-out/.. is the parent of where the link points); anything else (/etc/passwd, ../../.ssh, a symlink out of the project) is a result with isError true and one sentence, and nothing outside is read. A call never follows a symbolic link while it walks, even under -L. A call that arrives before the client has answered roots/list waits for the answer, and is refused if none comes; roots none of which is a local folder leave nothing to search (an empty list declares none: the working directory stays the root). A call without paths searches the working directory, or the declared roots when it is not under one. kgrep --mcp --allow-outside (or mcp_allow_outside = true in the config) lifts the rule, with a warning on stderr. Files that are secrets by nature (.env and .env.* but templates, .envrc, keys and key stores, ~/.ssh, .netrc, .npmrc, .pypirc, .pgpass, .git-credentials, credentials and secrets files, *.tfvars) are never returned: a call that names one is refused with one sentence, and a walk leaves them out, even under --hidden or --no-ignore."),
        Para("Tools, each with an inputSchema and an outputSchema: search (the grep-style text as content; files in print order, lines with numbers, scores and matched terms, whether a model was consulted and whether the offline results were judged sufficient, as structuredContent), answer (the --answer mode: a grounded answer with path:line citations, or offline an extractive one, then its lines) and explain (search, plus why each line was printed). Arguments: query (required), paths, globs, types (lists of strings), context, max_lines, max_tokens (default 4000; the whole result, text and structuredContent, stays within it, and a query too long to echo within it is echoed cut, with cut and bytes set; a line over 300 bytes is a window around its matches with [... N bytes omitted] markers, narrower under a small max_tokens, unless the server's -M says otherwise; the context of a best line over the budget is halved until it fits, with a note) and offline. A bad argument, a missing path or a tree with nothing readable is a result with isError true and one sentence saying what to change; a malformed message gets a JSON-RPC error and the server goes on. The embedded thesaurus is built once per server; the learned one is read again when its file changes."),
    ],
};

const LEAVES: Section = Section {
    title: "WHAT LEAVES YOUR MACHINE",
    blocks: &[
        Para("Nothing, unless a language model is configured (an API key, or a local server with --api-base) and consulted. kgrep has no telemetry and makes no other network request. A model is consulted: with llm = \"auto\" (the default) when the judge finds the offline results wanting, and for --answer, --answer-only, --signature and --signature-json; with llm = \"always\" or --rlm for every query; never with llm = \"off\", KGREP_LLM=off or --offline, nor when the config could not be read where it matters (CONFIGURATION). --dry-run prints every request that would be sent, and sends none."),
        Para("What is sent, as HTTP(S) POST requests to the configured base URL only (redirects are not followed): the model name and sampling settings; the API key, in a header; kgrep's instructions; the query, redacted; for an expansion, up to 150 words taken from the lines near the best places of the top 5 files; for a selection, numbered excerpts of the top 8 files (their best lines with 4 lines around, at most 60 lines a file, each line cut at 400 characters) with their paths as you named them, within the prompt budget (prompt_tokens, default 4000 estimated tokens a query), the lines of follow-up searches the model asks for, and for a signature its field names and types."),
        Para("What is never sent: files that are secrets by nature (.env and .env.*, except templates such as .env.example; .envrc; id_rsa, id_ed25519 and the rest of ~/.ssh; *.pem, *.key, *.p12 and other key stores; .netrc, .npmrc, .pypirc, .pgpass, .git-credentials, credentials and secrets files, *.tfvars), which are not even read for a prompt, nor their names; the secrets in any other file, replaced by [REDACTED] before the file is cut into excerpts or split into words (provider key shapes such as sk-, AKIA, ghp_; private-key blocks and bare key bodies; bearer and basic tokens; passwords in URLs; values assigned to secret-looking names such as password, token, api_key, DATABASE_PASS; the password of a login(...) call; random-looking tokens); whole files or the corpus; your configuration and your thesauri. The redaction is a safety net, not a guarantee: a secret that looks like an ordinary word can get through, so use llm = \"off\" where nothing may leave."),
    ],
};

const EXAMPLES: Section = Section {
    title: "EXAMPLES",
    blocks: &[
        Para("Ask where something happens; the best files come first:"),
        Code("kgrep \"where is the retry delay computed\" src"),
        Para("Search an identifier exactly, with a line of context:"),
        Code("kgrep -C 1 MAX_RETRIES"),
        Para("A short answer for an agent: at most 5 lines, at most 2 per file:"),
        Code("kgrep --max-lines 5 -m 2 \"how are tokens parsed\""),
        Para("At most about 500 tokens of results, for an agent's context:"),
        Code("kgrep --token-budget 500 \"where is the retry delay computed\""),
        Para("Machine-readable results; keep only the matches:"),
        Code("kgrep --json \"parse jwt\" | grep '\"type\":\"match\"'"),
        Para("Narrow a ripgrep file list with a question:"),
        Code("rg -l token | kgrep --paths-from-stdin \"where is the token validated\""),
        Para("Colour into a pager, and never consult a model:"),
        Code("KGREP_LLM=off kgrep --color always \"retry backoff\" | less -R"),
        Para("Review what kgrep learned, keep one concept, drop another, share the rest as Markdown:"),
        Code("kgrep --thesaurus-list\nkgrep --thesaurus-accept \"cache eviction\"\nkgrep --thesaurus-forget retry\nkgrep --thesaurus-export kg/"),
        Para("Install the man page and completions from the binary:"),
        Code("kgrep --generate man > kgrep.1\nkgrep --generate complete-zsh > _kgrep"),
    ],
};

const FILES: Section = Section {
    title: "FILES",
    blocks: &[
        Item(
            "~/.rlmgrep/config.toml",
            "rlmgrep's configuration, read, never written.",
        ),
        Item(
            "$XDG_CONFIG_HOME/kgrep/config.toml",
            "kgrep's configuration (--init-config).",
        ),
        Item(
            "$XDG_DATA_HOME/kgrep/thesaurus.json",
            "The learned thesaurus layer, with its lock file thesaurus.json.lock (neither followed through a symbolic link).",
        ),
        Item(
            ".kgrep/thesaurus.json, .kgrep/kg/",
            "A project's thesaurus layer.",
        ),
    ],
};

/// The prose sections, in man page order.
pub fn sections() -> [Section; 11] {
    [
        DESCRIPTION,
        CONFIGURATION,
        THESAURUS,
        LEARNING,
        JSON_OUTPUT,
        AGENTS,
        LEAVES,
        ENVIRONMENT,
        FILES,
        EXIT_STATUS,
        EXAMPLES,
    ]
}

/// Renders the prose sections as roff.
pub fn render(out: &mut dyn Write) -> io::Result<()> {
    let mut roff = Roff::new();
    for section in sections() {
        roff.control("SH", [section.title]);
        for block in section.blocks {
            render_block(&mut roff, *block);
        }
        if section.title == CONFIGURATION.title {
            for key in crate::config::KEYS {
                render_block(&mut roff, Item(key.name, key.about));
            }
        }
    }
    roff.to_writer(out)
}

fn render_block(roff: &mut Roff, block: Block) {
    match block {
        Para(text) => {
            roff.control("PP", []).text([roman(text)]);
        }
        Item(tag, text) => {
            roff.control("TP", []).text([bold(tag)]).text([roman(text)]);
        }
        Code(lines) => {
            roff.control("PP", [])
                .control("RS", ["4"])
                .control("nf", []);
            for line in lines.lines() {
                roff.text([roman(line)]);
            }
            roff.control("fi", []).control("RE", []);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::config::Config;
    use serde::de::{self, Deserializer, Visitor};

    /// A deserializer that only records the field names a struct asks for.
    struct FieldNames(Vec<&'static str>);

    #[derive(Debug)]
    struct Done(String);

    impl std::fmt::Display for Done {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }
    impl std::error::Error for Done {}
    impl de::Error for Done {
        fn custom<T: std::fmt::Display>(msg: T) -> Done {
            Done(msg.to_string())
        }
    }

    impl<'de> Deserializer<'de> for &mut FieldNames {
        type Error = Done;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Done> {
            Err(Done("not a struct".into()))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Done> {
            self.0.extend_from_slice(fields);
            Err(Done("recorded".into()))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct
            map enum identifier ignored_any
        }
    }

    #[test]
    fn every_config_key_is_documented_and_every_documented_key_is_read() {
        let mut names = FieldNames(Vec::new());
        let _ = <Config as serde::Deserialize>::deserialize(&mut names);
        let mut read: Vec<&str> = names.0;
        let mut documented: Vec<&str> = crate::config::KEYS.iter().map(|k| k.name).collect();
        read.sort_unstable();
        documented.sort_unstable();
        assert!(!read.is_empty());
        assert_eq!(documented, read);
    }

    #[test]
    fn the_privacy_keys_named_in_prose_are_the_configs() {
        let Para(text) = CONFIGURATION.blocks[0] else {
            panic!("CONFIGURATION opens with a paragraph");
        };
        let at = text
            .find("may set whether or where queries are sent (")
            .unwrap();
        let list = &text[at..];
        let list = &list[list.find('(').unwrap() + 1..list.find(')').unwrap()];
        let mut named: Vec<&str> = list.split(", ").collect();
        let mut keys: Vec<&str> = crate::config::KEYS
            .iter()
            .filter(|k| k.privacy)
            .map(|k| k.name)
            .collect();
        named.sort_unstable();
        keys.sort_unstable();
        assert_eq!(named, keys);
    }

    #[test]
    fn examples_use_real_flags() {
        use clap::CommandFactory;
        let cmd = crate::cli::Flags::command();
        let known: Vec<String> = cmd
            .get_arguments()
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        for line in EXAMPLES.blocks.iter().filter_map(|b| match b {
            Code(text) => Some(*text),
            _ => None,
        }) {
            for word in line.split_whitespace().filter(|w| w.starts_with("--")) {
                assert!(
                    known.iter().any(|k| k == word),
                    "unknown flag {word} in {line:?}"
                );
            }
        }
    }

    #[test]
    fn renders_every_section_as_roff() {
        let mut out = Vec::new();
        render(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for section in sections() {
            assert!(
                text.contains(&format!(".SH \"{}\"", section.title))
                    || text.contains(&format!(".SH {}", section.title)),
                "{}",
                section.title
            );
        }
        assert!(text.contains("OPENROUTER_API_KEY"));
        assert!(text.contains("file_hard_max"));
    }
}
