
use builtin;
use str;

set edit:completion:arg-completer[kgrep] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'kgrep'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'kgrep'= {
            cand -g 'Include only files matching GLOB (ripgrep syntax, `!` negates). Repeatable; commas separate several globs'
            cand --glob 'Include only files matching GLOB (ripgrep syntax, `!` negates). Repeatable; commas separate several globs'
            cand -t 'Include only files of TYPE (ripgrep''s type names, e.g. py, rust, md); `.EXT` (e.g. `.py`) or an unknown name is a file extension. Repeatable; commas separate several types'
            cand --type 'Include only files of TYPE (ripgrep''s type names, e.g. py, rust, md); `.EXT` (e.g. `.py`) or an unknown name is a file extension. Repeatable; commas separate several types'
            cand -T 'Leave out files of TYPE (the names --type takes), as `rg -T` does. Repeatable; commas separate several types'
            cand --type-not 'Leave out files of TYPE (the names --type takes), as `rg -T` does. Repeatable; commas separate several types'
            cand -d 'Descend at most NUM directories below each path given (0: only the paths themselves), as `rg --max-depth` does'
            cand --max-depth 'Descend at most NUM directories below each path given (0: only the paths themselves), as `rg --max-depth` does'
            cand -C 'Show NUM lines of context before and after each match'
            cand -A 'Show NUM lines of context after each match (overrides -C on that side)'
            cand -B 'Show NUM lines of context before each match (overrides -C on that side)'
            cand -m 'Print at most NUM matching lines per file: a natural-language query keeps each file''s best lines (and --max-lines goes on to the next files), a literal or regex query the lowest line numbers'
            cand --max-lines 'Print at most NUM matching lines in all for a natural-language query: the first file''s best line, then the best of the rest by score (default 15). 0 prints every strong line of every file holding a query word, the best files first, instead of the best places. Literal and regex queries print every match; a query with no word to search for (only stop words, such as `the`) is searched as exact text, and capped too'
            cand --thesaurus 'Add a thesaurus layer: Terraphim JSON (or its legacy flat form) or a folder of Markdown concept files. Repeatable; later ones win'
            cand --token-budget 'Print at most about NUM tokens of results (for agents with a context limit): lines are added best first until the next one would pass the budget, and what was left out is said on stderr (and in the --json summary). Tokens are estimated as the model stage does (three bytes each, erring high). Not rlmgrep''s --max-tokens, which limits what a model generates'
            cand --color 'When to colour the output: auto (stdout is a terminal and NO_COLOR is unset), always (even into a pipe) or never. Colours: magenta paths, green line numbers, bold red matched text'
            cand --signature 'Typed output fields, e.g. ''summary: str, files: list[str]''; prints sectioned text. Needs a model'
            cand --signature-json 'Like --signature, but prints one compact JSON object. Needs a model'
            cand --model 'Model name, e.g. openai/gpt-4o-mini, anthropic/claude-…, ollama/qwen2.5-coder'
            cand --sub-model 'Model for sub-calls (query expansion)'
            cand --api-base 'Provider API base URL'
            cand --api-key 'Provider API key (prefer the provider''s environment variable)'
            cand --model-type 'API flavour: chat or responses'
            cand --temperature 'Sampling temperature'
            cand --top-p 'Top-p sampling'
            cand --max-tokens 'Maximum tokens the model may generate per call'
            cand --sub-api-base 'Sub-model API base URL'
            cand --sub-api-key 'Sub-model API key'
            cand --sub-model-type 'Sub-model API flavour: chat or responses'
            cand --sub-temperature 'Sub-model sampling temperature'
            cand --sub-top-p 'Sub-model top-p'
            cand --sub-max-tokens 'Sub-model maximum tokens per call'
            cand --max-iterations 'Maximum rounds of follow-up searches the model may ask for'
            cand --max-llm-calls 'Maximum number of model calls per run'
            cand --learn-to 'Where learned concepts are kept: `user` ($XDG_DATA_HOME/kgrep/thesaurus.json, the default) or `project` (.kgrep/thesaurus.json in the current directory). Also the file the --thesaurus-* commands work on (config `learn_to`)'
            cand --thesaurus-accept 'Accept a learned concept: its synonyms get full weight from now on'
            cand --thesaurus-forget 'Forget a learned concept: remove it and its synonyms from the learned thesaurus'
            cand --thesaurus-export 'Export the learned concepts: Terraphim JSON, or, when PATH is a directory or ends with `/`, a Markdown folder (one `NAME.md` per concept with `# Name` and `synonyms:: a, b`)'
            cand --thesaurus-import 'Import concepts (Terraphim JSON or a Markdown folder) into the learned thesaurus as accepted. Synonyms another concept already has, stop words and one-letter or overlong terms are skipped'
            cand --generate 'Print a generated file and exit: the man page or a shell''s completions'
            cand -r 'Search directories recursively (the default; accepted for rlmgrep compatibility)'
            cand --no-recursive 'Do not descend into directories; only files named on the command line are searched'
            cand --hidden 'Search hidden files and directories'
            cand --no-ignore 'Do not respect ignore files (.gitignore, .ignore, .rgignore, git excludes)'
            cand -a 'Search binary files as text'
            cand --text 'Search binary files as text'
            cand -u 'Search what the walk leaves out, as `rg -u` does: -u ignored files (--no-ignore), -uu hidden ones too (--hidden), -uuu binary files too (-a)'
            cand --unrestricted 'Search what the walk leaves out, as `rg -u` does: -u ignored files (--no-ignore), -uu hidden ones too (--hidden), -uuu binary files too (-a)'
            cand --paths-from-stdin 'Read the list of files to search from stdin, one per line (e.g. `rg -l … |`)'
            cand -0 'With --paths-from-stdin: the list is separated by NUL bytes, not lines (`rg -l0`, `find -print0`), so names may hold newlines and spaces'
            cand --null 'With --paths-from-stdin: the list is separated by NUL bytes, not lines (`rg -l0`, `find -print0`), so names may hold newlines and spaces'
            cand -y 'Skip the confirmation rlmgrep asks for before loading many files'
            cand --yes 'Skip the confirmation rlmgrep asks for before loading many files'
            cand -F 'Search the pattern as the literal text it is (as `rg -F` does): never as natural language or a regex, quotes included; every line holding it'
            cand --fixed-strings 'Search the pattern as the literal text it is (as `rg -F` does): never as natural language or a regex, quotes included; every line holding it'
            cand -i 'Match a literal or regex query in any case (a natural-language query always is)'
            cand --ignore-case 'Match a literal or regex query in any case (a natural-language query always is)'
            cand -w 'Match a literal or regex query only as a whole word (as `rg -w`: not inside a longer word); a natural-language query always matches code words'
            cand --word-regexp 'Match a literal or regex query only as a whole word (as `rg -w`: not inside a longer word); a natural-language query always matches code words'
            cand --no-builtin-thesaurus 'Do not use the thesaurus compiled into kgrep'
            cand -n 'Show line numbers: they always are (`N:` before each line); accepted for grep, ripgrep and older rlmgrep command lines'
            cand --line-number 'Show line numbers: they always are (`N:` before each line); accepted for grep, ripgrep and older rlmgrep command lines'
            cand -H 'Show file names: they always are (a `./path` heading above each file''s lines); accepted for grep, ripgrep and older rlmgrep command lines'
            cand --with-filename 'Show file names: they always are (a `./path` heading above each file''s lines); accepted for grep, ripgrep and older rlmgrep command lines'
            cand -l 'Print only the paths of the files that hold a printed match, one per line, as `rg -l` does: for a natural-language query the files it would print, best first (--max-lines 0 for every file holding a query word); for a literal or regex query every file that matches'
            cand --files-with-matches 'Print only the paths of the files that hold a printed match, one per line, as `rg -l` does: for a natural-language query the files it would print, best first (--max-lines 0 for every file holding a query word); for a literal or regex query every file that matches'
            cand -c 'Print each file''s path and its number of match lines (`./src/app.py:3`), as `rg -c` does: every matching line of a literal or regex query, the lines a natural-language query would print. -m caps each count'
            cand --count 'Print each file''s path and its number of match lines (`./src/app.py:3`), as `rg -c` does: every matching line of a literal or regex query, the lines a natural-language query would print. -m caps each count'
            cand -q 'Print nothing on stdout: the exit status says whether a line matched (0) or not (1). No model is consulted unless --rlm asks for it'
            cand --quiet 'Print nothing on stdout: the exit status says whether a line matched (0) or not (1). No model is consulted unless --rlm asks for it'
            cand --files 'Print the files that would be searched, one per line, and search nothing, as `rg --files` does: every argument is a path (PATTERN too), and the ignore, hidden, glob, type and depth rules apply'
            cand --answer 'Print a narrative answer (on stderr) before the grep output. Needs a model for a written answer; offline, the best lines are quoted as an extractive answer'
            cand --answer-only 'Print only the narrative answer'
            cand --mcp 'Serve the Model Context Protocol on stdin and stdout (newline-delimited JSON-RPC) for coding agents: tools `search`, `answer` and `explain`. Other flags are ignored; each tool call takes its own arguments. See AGENTS in the man page'
            cand --allow-outside 'With --mcp: let tool calls search any path this user can read. Without it, a path outside the server''s roots (the roots the client declares, else the working directory), through `..` or a symlink too, is refused. The config key mcp_allow_outside = true does the same'
            cand --json 'Print JSON Lines instead: ripgrep''s `--json` messages (begin, match, context, end, summary), with kgrep''s additions under `data.kgrep` and its own `answer` and `signature` messages. See JSON OUTPUT in the man page'
            cand --dry-run 'Print the exact requests that would be sent to the model (method, URL, headers with keys masked, JSON body) and send nothing; with --json, as `request` messages. When no request would be sent, stderr says why'
            cand --offline 'Never consult a language model, whatever the judge says (as `llm = "off"` or `KGREP_LLM=off`)'
            cand --rlm 'Always consult the language model, even when the offline results are judged sufficient (as `llm = "always"` or `KGREP_LLM=always`); warns when no model is usable. `KGREP_LLM=off` overrides it'
            cand --no-learn 'Do not write what the model teaches to the learned thesaurus for this run (as `learn = false`). `--offline` and `llm = "off"` never write either'
            cand --thesaurus-list 'List the learned concepts and exit: one per line, tab-separated: name, status (proposed or accepted), hits, date, model, synonyms (comma-separated), query'
            cand -v 'Verbose: how the query was understood and why lines were chosen, on stderr'
            cand --verbose 'Verbose: how the query was understood and why lines were chosen, on stderr'
            cand --explain 'Print each printed line''s score, decomposed (query words on the line and near it, identifier bonus, line kind, file score), on stderr. `-v` does too'
            cand --features 'For training a ranker: print each candidate file of a natural-language query with its ranking features, one JSON object a line, instead of the results, in the hand-tuned order (`tests/bench/train/`)'
            cand --init-config 'Write kgrep''s commented default config file if it does not exist, print its path'
            cand --version 'Print the version and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
    ]
    $completions[$command]
}
