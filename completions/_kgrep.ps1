
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kgrep' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kgrep'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kgrep' {
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Include only files matching GLOB (ripgrep syntax, `!` negates). Repeatable; commas separate several globs')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Include only files matching GLOB (ripgrep syntax, `!` negates). Repeatable; commas separate several globs')
            [CompletionResult]::new('--iglob', '--iglob', [CompletionResultType]::ParameterName, 'Like -g, but the glob matches in any case (`--iglob ''*.MD''` selects `notes.md`), as `rg --iglob` does. Repeatable; commas separate several')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Include only files of TYPE (ripgrep''s type names, e.g. py, rust, md); `.EXT` (e.g. `.py`) or an unknown name is a file extension. Repeatable; commas separate several types')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Include only files of TYPE (ripgrep''s type names, e.g. py, rust, md); `.EXT` (e.g. `.py`) or an unknown name is a file extension. Repeatable; commas separate several types')
            [CompletionResult]::new('-T', '-T ', [CompletionResultType]::ParameterName, 'Leave out files of TYPE (the names --type takes), as `rg -T` does. Repeatable; commas separate several types')
            [CompletionResult]::new('--type-not', '--type-not', [CompletionResultType]::ParameterName, 'Leave out files of TYPE (the names --type takes), as `rg -T` does. Repeatable; commas separate several types')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Descend at most NUM directories below each path given (0: only the paths themselves), as `rg --max-depth` does')
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'Descend at most NUM directories below each path given (0: only the paths themselves), as `rg --max-depth` does')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Use NUM threads to walk and search, as `rg -j` does (0, the default: as many as the machine has cores)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Use NUM threads to walk and search, as `rg -j` does (0, the default: as many as the machine has cores)')
            [CompletionResult]::new('--max-filesize', '--max-filesize', [CompletionResultType]::ParameterName, 'Skip files larger than NUM bytes while walking directories, as `rg --max-filesize` does. NUM may end in K, M or G (KiB, MiB, GiB). A file named on the command line is searched whatever its size')
            [CompletionResult]::new('--ignore-file', '--ignore-file', [CompletionResultType]::ParameterName, 'Read more ignore rules from PATH (gitignore syntax, matched from the current directory), as `rg --ignore-file` does; repeatable. They rank below every other ignore file and apply even with --no-ignore')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Show NUM lines of context before and after each match')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Show NUM lines of context after each match (overrides -C on that side)')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Show NUM lines of context before each match (overrides -C on that side)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Print at most NUM matching lines per file: a natural-language query keeps each file''s best lines (and --max-lines goes on to the next files), a literal or regex query the lowest line numbers')
            [CompletionResult]::new('--max-lines', '--max-lines', [CompletionResultType]::ParameterName, 'Print at most NUM matching lines in all for a natural-language query: the first file''s best line, then the best of the rest by score (default 15). 0 prints every strong line of every file holding a query word, the best files first, instead of the best places. Literal and regex queries print every match; a query with no word to search for (only stop words, such as `the`) is searched as exact text, and capped too')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A pattern to search, as `rg -e` does (one that starts with `-` too); with -e, every positional argument is a path. Repeatable: a line matching any of the patterns matches. One -e is read as PATTERN is (natural language, an identifier, a quoted literal or a regex); two or more are each a regex (a literal with -F), searched exactly')
            [CompletionResult]::new('--regexp', '--regexp', [CompletionResultType]::ParameterName, 'A pattern to search, as `rg -e` does (one that starts with `-` too); with -e, every positional argument is a path. Repeatable: a line matching any of the patterns matches. One -e is read as PATTERN is (natural language, an identifier, a quoted literal or a regex); two or more are each a regex (a literal with -F), searched exactly')
            [CompletionResult]::new('--thesaurus', '--thesaurus', [CompletionResultType]::ParameterName, 'Add a thesaurus layer: Terraphim JSON (or its legacy flat form) or a folder of Markdown concept files. Repeatable; later ones win')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Print the files in this order, ascending, as `rg --sort` does: path, modified, accessed, created, or none (the search''s own order: best first for natural language, by path for a literal or regex). The lines of a file keep their order')
            [CompletionResult]::new('--sortr', '--sortr', [CompletionResultType]::ParameterName, 'Like --sort, descending (`--sortr modified`: the newest file first)')
            [CompletionResult]::new('--token-budget', '--token-budget', [CompletionResultType]::ParameterName, 'Print at most about NUM tokens of results (for agents with a context limit): lines are added best first until the next one would pass the budget, and what was left out is said on stderr (and in the --json summary). Tokens are estimated as the model stage does (three bytes each, erring high). Not rlmgrep''s --max-tokens, which limits what a model generates')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output: auto (stdout is a terminal and NO_COLOR is unset), always (even into a pipe) or never. Colours: magenta paths, green line numbers, bold red matched text')
            [CompletionResult]::new('--signature', '--signature', [CompletionResultType]::ParameterName, 'Typed output fields, e.g. ''summary: str, files: list[str]''; prints sectioned text. Needs a model')
            [CompletionResult]::new('--signature-json', '--signature-json', [CompletionResultType]::ParameterName, 'Like --signature, but prints one compact JSON object. Needs a model')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Model name, e.g. openai/gpt-4o-mini, anthropic/claude-…, ollama/qwen2.5-coder')
            [CompletionResult]::new('--sub-model', '--sub-model', [CompletionResultType]::ParameterName, 'Model for sub-calls (query expansion)')
            [CompletionResult]::new('--api-base', '--api-base', [CompletionResultType]::ParameterName, 'Provider API base URL')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'Provider API key (prefer the provider''s environment variable)')
            [CompletionResult]::new('--model-type', '--model-type', [CompletionResultType]::ParameterName, 'API flavour: chat or responses')
            [CompletionResult]::new('--temperature', '--temperature', [CompletionResultType]::ParameterName, 'Sampling temperature')
            [CompletionResult]::new('--top-p', '--top-p', [CompletionResultType]::ParameterName, 'Top-p sampling')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Maximum tokens the model may generate per call')
            [CompletionResult]::new('--sub-api-base', '--sub-api-base', [CompletionResultType]::ParameterName, 'Sub-model API base URL')
            [CompletionResult]::new('--sub-api-key', '--sub-api-key', [CompletionResultType]::ParameterName, 'Sub-model API key')
            [CompletionResult]::new('--sub-model-type', '--sub-model-type', [CompletionResultType]::ParameterName, 'Sub-model API flavour: chat or responses')
            [CompletionResult]::new('--sub-temperature', '--sub-temperature', [CompletionResultType]::ParameterName, 'Sub-model sampling temperature')
            [CompletionResult]::new('--sub-top-p', '--sub-top-p', [CompletionResultType]::ParameterName, 'Sub-model top-p')
            [CompletionResult]::new('--sub-max-tokens', '--sub-max-tokens', [CompletionResultType]::ParameterName, 'Sub-model maximum tokens per call')
            [CompletionResult]::new('--max-iterations', '--max-iterations', [CompletionResultType]::ParameterName, 'Maximum rounds of follow-up searches the model may ask for')
            [CompletionResult]::new('--max-llm-calls', '--max-llm-calls', [CompletionResultType]::ParameterName, 'Maximum number of model calls per run')
            [CompletionResult]::new('--learn-to', '--learn-to', [CompletionResultType]::ParameterName, 'Where learned concepts are kept: `user` ($XDG_DATA_HOME/kgrep/thesaurus.json, the default) or `project` (.kgrep/thesaurus.json in the current directory). Also the file the --thesaurus-* commands work on (config `learn_to`)')
            [CompletionResult]::new('--thesaurus-accept', '--thesaurus-accept', [CompletionResultType]::ParameterName, 'Accept a learned concept: its synonyms get full weight from now on')
            [CompletionResult]::new('--thesaurus-forget', '--thesaurus-forget', [CompletionResultType]::ParameterName, 'Forget a learned concept: remove it and its synonyms from the learned thesaurus')
            [CompletionResult]::new('--thesaurus-export', '--thesaurus-export', [CompletionResultType]::ParameterName, 'Export the learned concepts: Terraphim JSON, or, when PATH is a directory or ends with `/`, a Markdown folder (one `NAME.md` per concept with `# Name` and `synonyms:: a, b`)')
            [CompletionResult]::new('--thesaurus-import', '--thesaurus-import', [CompletionResultType]::ParameterName, 'Import concepts (Terraphim JSON or a Markdown folder) into the learned thesaurus as accepted. Synonyms another concept already has, stop words and one-letter or overlong terms are skipped')
            [CompletionResult]::new('--generate', '--generate', [CompletionResultType]::ParameterName, 'Print a generated file and exit: the man page or a shell''s completions')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Search directories recursively (the default; accepted for rlmgrep compatibility)')
            [CompletionResult]::new('--no-recursive', '--no-recursive', [CompletionResultType]::ParameterName, 'Do not descend into directories; only files named on the command line are searched')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Search hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not respect ignore files (.gitignore, .ignore, .rgignore, git excludes)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Search binary files as text')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Search binary files as text')
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'Search what the walk leaves out, as `rg -u` does: -u ignored files (--no-ignore), -uu hidden ones too (--hidden), -uuu binary files too (-a)')
            [CompletionResult]::new('--unrestricted', '--unrestricted', [CompletionResultType]::ParameterName, 'Search what the walk leaves out, as `rg -u` does: -u ignored files (--no-ignore), -uu hidden ones too (--hidden), -uuu binary files too (-a)')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links while walking directories, as `rg -L` does (a link loop is reported as an error, not entered). Without it, only a symlink named on the command line is followed')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links while walking directories, as `rg -L` does (a link loop is reported as an error, not entered). Without it, only a symlink named on the command line is followed')
            [CompletionResult]::new('--paths-from-stdin', '--paths-from-stdin', [CompletionResultType]::ParameterName, 'Read the list of files to search from stdin, one per line (e.g. `rg -l … |`)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'With --paths-from-stdin: the list is separated by NUL bytes, not lines (`rg -l0`, `find -print0`), so names may hold newlines and spaces')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'With --paths-from-stdin: the list is separated by NUL bytes, not lines (`rg -l0`, `find -print0`), so names may hold newlines and spaces')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Skip the confirmation rlmgrep asks for before loading many files')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Skip the confirmation rlmgrep asks for before loading many files')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Search the pattern as the literal text it is (as `rg -F` does): never as natural language or a regex, quotes included; every line holding it')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Search the pattern as the literal text it is (as `rg -F` does): never as natural language or a regex, quotes included; every line holding it')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match a literal or regex query in any case (a natural-language query always is). The last of -i, -s and -S wins')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match a literal or regex query in any case (a natural-language query always is). The last of -i, -s and -S wins')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Match a literal or regex query in its case (the default), as `rg -s` does: undoes an -i or -S given before it')
            [CompletionResult]::new('--case-sensitive', '--case-sensitive', [CompletionResultType]::ParameterName, 'Match a literal or regex query in its case (the default), as `rg -s` does: undoes an -i or -S given before it')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Match a literal or regex query in any case when it has no upper-case letter, in its case when it has one, as `rg -S` does')
            [CompletionResult]::new('--smart-case', '--smart-case', [CompletionResultType]::ParameterName, 'Match a literal or regex query in any case when it has no upper-case letter, in its case when it has one, as `rg -S` does')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Match a literal or regex query only as a whole word (as `rg -w`: not inside a longer word); a natural-language query always matches code words')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Match a literal or regex query only as a whole word (as `rg -w`: not inside a longer word); a natural-language query always matches code words')
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Let a regex match across lines, as `rg -U` does (`\n` matches a line end; every line of a match prints). A natural-language query ignores it')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let a regex match across lines, as `rg -U` does (`\n` matches a line end; every line of a match prints). A natural-language query ignores it')
            [CompletionResult]::new('--multiline-dotall', '--multiline-dotall', [CompletionResultType]::ParameterName, 'With -U, `.` matches line ends too, as `rg --multiline-dotall` does')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Match only whole lines, as `rg -x` does (it overrides -w): a pattern that reads as natural language is searched as literal text')
            [CompletionResult]::new('--line-regexp', '--line-regexp', [CompletionResultType]::ParameterName, 'Match only whole lines, as `rg -x` does (it overrides -w): a pattern that reads as natural language is searched as literal text')
            [CompletionResult]::new('--no-builtin-thesaurus', '--no-builtin-thesaurus', [CompletionResultType]::ParameterName, 'Do not use the thesaurus compiled into kgrep')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show line numbers: they always are (`N:` before each line); accepted for grep, ripgrep and older rlmgrep command lines')
            [CompletionResult]::new('--line-number', '--line-number', [CompletionResultType]::ParameterName, 'Show line numbers: they always are (`N:` before each line); accepted for grep, ripgrep and older rlmgrep command lines')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Show file names: they always are (a `./path` heading above each file''s lines); accepted for grep, ripgrep and older rlmgrep command lines')
            [CompletionResult]::new('--with-filename', '--with-filename', [CompletionResultType]::ParameterName, 'Show file names: they always are (a `./path` heading above each file''s lines); accepted for grep, ripgrep and older rlmgrep command lines')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print only the paths of the files that hold a printed match, one per line, as `rg -l` does: for a natural-language query the files it would print, best first (--max-lines 0 for every file holding a query word); for a literal or regex query every file that matches')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Print only the paths of the files that hold a printed match, one per line, as `rg -l` does: for a natural-language query the files it would print, best first (--max-lines 0 for every file holding a query word); for a literal or regex query every file that matches')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print each file''s path and its number of match lines (`./src/app.py:3`), as `rg -c` does: every matching line of a literal or regex query, the lines a natural-language query would print. -m caps each count')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print each file''s path and its number of match lines (`./src/app.py:3`), as `rg -c` does: every matching line of a literal or regex query, the lines a natural-language query would print. -m caps each count')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print only the matched parts of each printed match line, each on a line of its own (`N:<TAB>part`), as `rg -o` does: every match of a literal or regex query, the query''s words (as matched) on the lines a natural-language query prints. With -c, the parts are counted')
            [CompletionResult]::new('--only-matching', '--only-matching', [CompletionResultType]::ParameterName, 'Print only the matched parts of each printed match line, each on a line of its own (`N:<TAB>part`), as `rg -o` does: every match of a literal or regex query, the query''s words (as matched) on the lines a natural-language query prints. With -c, the parts are counted')
            [CompletionResult]::new('--no-heading', '--no-heading', [CompletionResultType]::ParameterName, 'Print ripgrep''s flat lines instead of headings, as `rg --no-heading` does: `./PATH:N:text` for a match, `./PATH-N-text` for context, no blank lines and no tab, so each line names its file')
            [CompletionResult]::new('--vimgrep', '--vimgrep', [CompletionResultType]::ParameterName, 'Print each match as `./PATH:N:COLUMN:text`, as `rg --vimgrep` does for editors'' quickfix lists: a line with several matches once per match (the column of each, 1-based bytes)')
            [CompletionResult]::new('--trim', '--trim', [CompletionResultType]::ParameterName, 'Leave out the spaces and tabs each printed line starts with, as `rg --trim` does (fewer tokens for an agent; line numbers and columns are unchanged)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on stdout, and on stderr only errors (the file counts with -v): the exit status says whether a line matched (0) or not (1). No model is consulted unless --rlm asks for it')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on stdout, and on stderr only errors (the file counts with -v): the exit status says whether a line matched (0) or not (1). No model is consulted unless --rlm asks for it')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Print the files that would be searched, one per line, and search nothing, as `rg --files` does: every argument is a path (PATTERN too), and the ignore, hidden, glob, type and depth rules apply')
            [CompletionResult]::new('--answer', '--answer', [CompletionResultType]::ParameterName, 'Print a narrative answer (on stderr) before the grep output. Needs a model for a written answer; offline, the best lines are quoted as an extractive answer')
            [CompletionResult]::new('--answer-only', '--answer-only', [CompletionResultType]::ParameterName, 'Print only the narrative answer')
            [CompletionResult]::new('--mcp', '--mcp', [CompletionResultType]::ParameterName, 'Serve the Model Context Protocol on stdin and stdout (newline-delimited JSON-RPC) for coding agents: tools `search`, `answer` and `explain`. Other flags are ignored; each tool call takes its own arguments. See AGENTS in the man page')
            [CompletionResult]::new('--allow-outside', '--allow-outside', [CompletionResultType]::ParameterName, 'With --mcp: let tool calls search any path this user can read. Without it, a path outside the server''s roots (the roots the client declares, else the working directory), through `..` or a symlink too, is refused. The config key mcp_allow_outside = true does the same')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON Lines instead: ripgrep''s `--json` messages (begin, match, context, end, summary), with kgrep''s additions under `data.kgrep` and its own `answer` and `signature` messages. See JSON OUTPUT in the man page')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the exact requests that would be sent to the model (method, URL, headers with keys masked, JSON body) and send nothing; with --json, as `request` messages. When no request would be sent, stderr says why')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never consult a language model, whatever the judge says (as `llm = "off"` or `KGREP_LLM=off`)')
            [CompletionResult]::new('--rlm', '--rlm', [CompletionResultType]::ParameterName, 'Always consult the language model, even when the offline results are judged sufficient (as `llm = "always"` or `KGREP_LLM=always`); warns when no model is usable. `KGREP_LLM=off` overrides it')
            [CompletionResult]::new('--no-learn', '--no-learn', [CompletionResultType]::ParameterName, 'Do not write what the model teaches to the learned thesaurus for this run (as `learn = false`). `--offline` and `llm = "off"` never write either')
            [CompletionResult]::new('--thesaurus-list', '--thesaurus-list', [CompletionResultType]::ParameterName, 'List the learned concepts and exit: one per line, tab-separated: name, status (proposed or accepted), hits, date, model, synonyms (comma-separated), query')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Verbose: how the query was understood and why lines were chosen, on stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Verbose: how the query was understood and why lines were chosen, on stderr')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print each printed line''s score, decomposed (query words on the line and near it, identifier bonus, line kind, file score), on stderr. `-v` does too')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'For training a ranker: print each candidate file of a natural-language query with its ranking features, one JSON object a line, instead of the results, in the hand-tuned order (`tests/bench/train/`)')
            [CompletionResult]::new('--init-config', '--init-config', [CompletionResultType]::ParameterName, 'Write kgrep''s commented default config file if it does not exist, print its path')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print the version and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
