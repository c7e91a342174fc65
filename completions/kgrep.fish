complete -c kgrep -s E -l encoding -d 'Decode every file from ENCODING before searching it, as `rg -E` does: a label of the Encoding Standard (`latin1`, `shift_jis`, `utf-16le`, `euc-kr`, …), though a byte-order mark still wins. `auto`, the default, decodes only the files that open with a UTF-16 byte-order mark; `none` decodes nothing (a UTF-16 file is then binary, as rlmgrep reads it)' -r
complete -c kgrep -s g -l glob -d 'Include only files matching GLOB (ripgrep syntax, `!` negates). Repeatable; commas separate several globs' -r
complete -c kgrep -l iglob -d 'Like -g, but the glob matches in any case (`--iglob \'*.MD\'` selects `notes.md`), as `rg --iglob` does. Repeatable; commas separate several' -r
complete -c kgrep -s t -l type -d 'Include only files of TYPE (ripgrep\'s type names, e.g. py, rust, md); `.EXT` (e.g. `.py`) or an unknown name is a file extension. Repeatable; commas separate several types' -r
complete -c kgrep -s T -l type-not -d 'Leave out files of TYPE (the names --type takes), as `rg -T` does. Repeatable; commas separate several types' -r
complete -c kgrep -s d -l max-depth -d 'Descend at most NUM directories below each path given (0: only the paths themselves), as `rg --max-depth` does' -r
complete -c kgrep -s j -l threads -d 'Use NUM threads to walk and search, as `rg -j` does (0, the default: as many as the machine has cores). The walk uses at most 64 and the ranking at most one a core: more only cost time' -r
complete -c kgrep -l max-filesize -d 'Skip files larger than NUM bytes while walking directories, as `rg --max-filesize` does. NUM may end in K, M or G (KiB, MiB, GiB). A file named on the command line is searched whatever its size' -r
complete -c kgrep -l ignore-file -d 'Read more ignore rules from PATH (gitignore syntax, matched from the current directory), as `rg --ignore-file` does; repeatable. They rank below every other ignore file and apply even with --no-ignore' -r -F
complete -c kgrep -l type-add -d 'Add a file type for -t and -T, as `rg --type-add` does: `name:glob` (`foo:*.foo`) or `name:include:a,b` (the globs of other types); repeatable, and a name given twice gathers the globs' -r
complete -c kgrep -l type-clear -d 'Drop a file type\'s globs (before any --type-add), as `rg --type-clear` does; repeatable' -r
complete -c kgrep -s C -l context -d 'Show NUM lines of context before and after each match' -r
complete -c kgrep -s A -l after-context -d 'Show NUM lines of context after each match (overrides -C on that side)' -r
complete -c kgrep -s B -l before-context -d 'Show NUM lines of context before each match (overrides -C on that side)' -r
complete -c kgrep -s m -l max-count -d 'Print at most NUM matching lines per file: a natural-language query keeps each file\'s best lines (and --max-lines goes on to the next files), a literal or regex query the lowest line numbers' -r
complete -c kgrep -l max-lines -d 'Print at most NUM matching lines in all for a natural-language query: the first file\'s best line, then the best of the rest by score (default 15). 0 prints every strong line of every file holding a query word, the best files first, instead of the best places. Literal and regex queries print every match; a query with no word to search for (only stop words, such as `the`) is searched as exact text, and capped too' -r
complete -c kgrep -s e -l regexp -d 'A pattern to search, as `rg -e` does (one that starts with `-` too); with -e, every positional argument is a path. Repeatable: a line matching any of the patterns matches. One -e is read as PATTERN is (natural language, an identifier, a quoted literal or a regex); two or more are each a regex (a literal with -F), searched exactly' -r
complete -c kgrep -s f -l file -d 'Read patterns from FILE, one a line, as `rg -f` does (`-` reads stdin); repeatable, and with -e all are searched. Each is a regex (a literal with -F), never natural language; an empty line matches every line. With -f, every positional argument is a path. A file with no line matches nothing (exit 1)' -r -F
complete -c kgrep -l engine -d 'Choose the regex engine, as `rg --engine` does: `default` (Rust\'s regex crate), `pcre2` (as -P) or `auto` (the default engine, or -P\'s when the pattern uses look-around or a back-reference, which the default refuses). The last of -P, --engine, --auto-hybrid-regex and --no-pcre2 wins' -r -f -a "default\t'Rust\'s regex crate (no look-around or back-references)'
pcre2\t'The engine -P runs (look-around, back-references)'
auto\t'The default engine, or -P\'s for a pattern only it runs'"
complete -c kgrep -l regex-size-limit -d 'Refuse a regex whose compiled program is larger than NUM bytes, as `rg --regex-size-limit` does. NUM may end in K, M or G' -r
complete -c kgrep -l dfa-size-limit -d 'Give the regex engine\'s lazy DFA at most NUM bytes of cache, as `rg --dfa-size-limit` does. NUM may end in K, M or G' -r
complete -c kgrep -l thesaurus -d 'Add a thesaurus layer: Terraphim JSON (or its legacy flat form) or a folder of Markdown concept files. Repeatable; later ones win' -r -F
complete -c kgrep -s M -l max-columns -d 'Print a line longer than NUM bytes as `[Omitted long matching line]` (or `context line`), as `rg -M` does (with -o, each part longer than NUM bytes); 0 sets no limit. It replaces the cut of long natural-language lines to 300 bytes' -r
complete -c kgrep -l replace -d 'Print each match replaced by REPLACEMENT, as `rg --replace` does (the file is not changed): `$1`, `${name}` and `$0` are the match\'s groups, `$$` is `$`. The pattern is then read as rg reads it, a regex (with -F, text), never natural language. Long name only: -r is rlmgrep\'s (recursive). --json and the counts show the matches as they are' -r
complete -c kgrep -l context-separator -d 'Print SEPARATOR between groups of context lines (-A, -B, -C) in place of `--`, as `rg --context-separator` does: escapes such as `\\t` and `\\x7F` are read, and an empty one still prints its (empty) line' -r
complete -c kgrep -l pre -d 'For each file searched, search what `COMMAND FILE` prints instead (FILE is its absolute path, and the file is on its stdin too), as `rg --pre` does: a converter such as `pdftotext` behind a script. It runs once per file (see --pre-glob); piped stdin is never preprocessed, and it wins over -z. An empty COMMAND turns it off' -r
complete -c kgrep -l pre-glob -d 'With --pre, run the command only for the files GLOB matches (gitignore syntax, `!` excludes; repeat for more), as `rg --pre-glob` does' -r
complete -c kgrep -l path-separator -d 'Print SEPARATOR (one byte) for each `/` in the paths printed, as `rg --path-separator` does (`\\\\` for a Windows tool reading kgrep\'s output under WSL or cygwin). --json keeps paths as they are, as rg\'s does' -r
complete -c kgrep -l field-match-separator -d 'Print SEPARATOR after each field of a match line (its path, number, column and offset) in place of `:`, as `rg --field-match-separator` does: escapes such as `\\t` and `\\x00` are read' -r
complete -c kgrep -l field-context-separator -d 'Print SEPARATOR after each field of a context line in place of `-`, as `rg --field-context-separator` does (escapes read)' -r
complete -c kgrep -l sort -d 'Print the files in this order, ascending, as `rg --sort` does: path, modified, accessed, created, or none (the search\'s own order: best first for natural language, by path for a literal or regex). It is rg 13\'s sorted walk: the path arguments as given, then a folder at a time, each folder\'s entries by name (`a/f` before `a b/g`) or by their own time (a folder by the folder\'s, its files together). The lines of a file keep their order' -r -f -a "path\t'By path (the heading\'s name)'
modified\t'By the time the file was last modified'
accessed\t'By the time the file was last read'
created\t'By the time the file was created'
none\t'The search\'s own order'"
complete -c kgrep -l sortr -d 'Like --sort, descending (`--sortr modified`: the newest file first)' -r -f -a "path\t'By path (the heading\'s name)'
modified\t'By the time the file was last modified'
accessed\t'By the time the file was last read'
created\t'By the time the file was created'
none\t'The search\'s own order'"
complete -c kgrep -l token-budget -d 'Print at most about NUM tokens of results (for agents with a context limit): lines are added best first until the next one would pass the budget, and what was left out is said on stderr (and in the --json summary). Tokens are estimated as the model stage does (three bytes each, erring high). Not rlmgrep\'s --max-tokens, which limits what a model generates' -r
complete -c kgrep -l color -d 'When to colour the output: auto (stdout is a terminal and NO_COLOR is unset), always (even into a pipe) or never. Colours: magenta paths, green line numbers, bold red matched text (see --colors)' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t'Always colour, even into a pipe or with NO_COLOR set'
never\t'Never colour'"
complete -c kgrep -l colors -d 'Change a colour, as `rg --colors` does: `TYPE:ATTRIBUTE:VALUE`, TYPE one of path, line (numbers), column (and byte offsets) and match, ATTRIBUTE fg, bg or style; a colour is black, blue, green, red, cyan, magenta, yellow, white, a number up to 255 (`0x10` too) or `R,G,B`; a style bold, nobold, intense, nointense, underline or nounderline; `TYPE:none` clears TYPE. Repeatable: each applies to the ones before (`--colors \'match:fg:blue\' --colors \'line:none\'`)' -r
complete -c kgrep -l signature -d 'Typed output fields, e.g. \'summary: str, files: list[str]\'; prints sectioned text. Needs a model' -r
complete -c kgrep -l signature-json -d 'Like --signature, but prints one compact JSON object. Needs a model' -r
complete -c kgrep -l model -d 'Model name, e.g. openai/gpt-4o-mini, anthropic/claude-…, ollama/qwen2.5-coder' -r
complete -c kgrep -l sub-model -d 'Model for sub-calls (query expansion)' -r
complete -c kgrep -l api-base -d 'Provider API base URL' -r
complete -c kgrep -l api-key -d 'Provider API key (prefer the provider\'s environment variable)' -r
complete -c kgrep -l model-type -d 'API flavour: chat or responses' -r
complete -c kgrep -l temperature -d 'Sampling temperature' -r
complete -c kgrep -l top-p -d 'Top-p sampling' -r
complete -c kgrep -l max-tokens -d 'Maximum tokens the model may generate per call' -r
complete -c kgrep -l sub-api-base -d 'Sub-model API base URL' -r
complete -c kgrep -l sub-api-key -d 'Sub-model API key' -r
complete -c kgrep -l sub-model-type -d 'Sub-model API flavour: chat or responses' -r
complete -c kgrep -l sub-temperature -d 'Sub-model sampling temperature' -r
complete -c kgrep -l sub-top-p -d 'Sub-model top-p' -r
complete -c kgrep -l sub-max-tokens -d 'Sub-model maximum tokens per call' -r
complete -c kgrep -l max-iterations -d 'Maximum rounds of follow-up searches the model may ask for' -r
complete -c kgrep -l max-llm-calls -d 'Maximum number of model calls per run' -r
complete -c kgrep -l learn-to -d 'Where learned concepts are kept: `user` ($XDG_DATA_HOME/kgrep/thesaurus.json, the default) or `project` (.kgrep/thesaurus.json in the current directory). Also the file the --thesaurus-* commands work on (config `learn_to`)' -r -f -a "user\t'The user\'s learned thesaurus, $XDG_DATA_HOME/kgrep/thesaurus.json'
project\t'The project\'s .kgrep/thesaurus.json (in the current directory)'"
complete -c kgrep -l thesaurus-accept -d 'Accept a learned concept: its synonyms get full weight from now on' -r
complete -c kgrep -l thesaurus-forget -d 'Forget a learned concept: remove it and its synonyms from the learned thesaurus' -r
complete -c kgrep -l thesaurus-export -d 'Export the learned concepts: Terraphim JSON, or, when PATH is a directory or ends with `/`, a Markdown folder (one `NAME.md` per concept with `# Name` and `synonyms:: a, b`)' -r -F
complete -c kgrep -l thesaurus-import -d 'Import concepts (Terraphim JSON or a Markdown folder) into the learned thesaurus as accepted. Synonyms another concept already has, stop words and one-letter or overlong terms are skipped' -r -F
complete -c kgrep -l generate -d 'Print a generated file and exit: the man page or a shell\'s completions' -r -f -a "man\t'The man page (roff)'
complete-bash\t'bash completions'
complete-zsh\t'zsh completions'
complete-fish\t'fish completions'
complete-powershell\t'PowerShell completions'
complete-elvish\t'elvish completions'"
complete -c kgrep -s r -d 'Search directories recursively (the default; accepted for rlmgrep compatibility)'
complete -c kgrep -l no-recursive -d 'Do not descend into directories; only files named on the command line are searched'
complete -c kgrep -l hidden -d 'Search hidden files and directories'
complete -c kgrep -l no-ignore -d 'Do not respect ignore files (.gitignore, .ignore, .rgignore, git excludes)'
complete -c kgrep -l no-ignore-vcs -d 'Do not respect version control ignore files (.gitignore, git\'s global excludes, .git/info/exclude), as `rg --no-ignore-vcs`; .ignore and .rgignore still hold'
complete -c kgrep -l no-ignore-dot -d 'Do not respect .ignore files, as `rg --no-ignore-dot` (ripgrep 13): .rgignore files still hold'
complete -c kgrep -l no-ignore-parent -d 'Do not respect ignore files in the folders above each path searched, as `rg --no-ignore-parent`'
complete -c kgrep -l no-ignore-global -d 'Do not respect git\'s global excludes file, as `rg --no-ignore-global`'
complete -c kgrep -l no-ignore-exclude -d 'Do not respect .git/info/exclude, as `rg --no-ignore-exclude`'
complete -c kgrep -l no-ignore-files -d 'Do not respect the --ignore-file files, as `rg --no-ignore-files`'
complete -c kgrep -l no-require-git -d 'Respect .gitignore files outside a git repository too, as `rg --no-require-git`'
complete -c kgrep -l one-file-system -d 'Do not cross into other file systems while walking a path, as `rg --one-file-system`'
complete -c kgrep -l glob-case-insensitive -d 'Match every -g glob in any case, as `rg --glob-case-insensitive`'
complete -c kgrep -l ignore-file-case-insensitive -d 'Read the globs of ignore files (.gitignore, .ignore, --ignore-file …) in any case, as `rg --ignore-file-case-insensitive` does'
complete -c kgrep -l no-ignore-messages -d 'Do not print the errors found in ignore files (a glob that does not parse), as `rg --no-ignore-messages` does'
complete -c kgrep -l mmap -d 'Accepted for ripgrep command lines (`--mmap`, `--no-mmap`): kgrep chooses how it reads each file. With --binary they choose where a file\'s NUL byte is noticed, as rg\'s memory maps do (see --binary)'
complete -c kgrep -l no-mmap -d 'See --mmap'
complete -c kgrep -l no-config -d 'Accepted for ripgrep command lines: kgrep never reads ripgrep\'s config file (RIPGREP_CONFIG_PATH). Its own config files still apply, so that a flag copied from an rg command line cannot lift a privacy setting'
complete -c kgrep -s a -l text -d 'Search binary files as text'
complete -c kgrep -l binary -d 'Search binary files (a NUL byte) as `rg --binary` does, for a literal or regex pattern'
complete -c kgrep -l null-data -d 'Read lines as ending with a NUL byte instead of a line feed, as `rg --null-data` does (for `find -print0` lists, `/proc/*/environ`); each printed line ends with its NUL. Implies -a. The pattern is then a regex (text with -F), never natural language; `\\n` in it matches a line feed inside a line'
complete -c kgrep -s u -l unrestricted -d 'Search what the walk leaves out, as `rg -u` does: -u ignored files (--no-ignore), -uu hidden ones too (--hidden), -uuu binary files too (--binary; -a wins over it)'
complete -c kgrep -s L -l follow -d 'Follow symbolic links while walking directories, as `rg -L` does (a link loop is reported as an error, not entered). Without it, only a symlink named on the command line is followed'
complete -c kgrep -l paths-from-stdin -d 'Read the list of files to search from stdin, one per line (e.g. `rg -l … |`)'
complete -c kgrep -s 0 -l null -d 'Paths listed by -l, --files-without-match, --files, -c and --count-matches end with a NUL byte, as rg\'s (`kgrep -l0 q | xargs -0`), and so does the path of each --no-heading or --vimgrep line, in place of the `:` or `-` after it (kgrep\'s headings are unchanged); with --paths-from-stdin, the list read is NUL-separated too (`rg -l0`, `find -print0`), so names may hold newlines and spaces'
complete -c kgrep -l no-messages -d 'Do not print errors about files that cannot be opened or read, as `rg --no-messages` does; they still make the exit status 2'
complete -c kgrep -l type-list -d 'Print ripgrep\'s file types (the names -t and -T take) and their globs, one a line (`rust: *.rs`), and exit'
complete -c kgrep -s y -l yes -d 'Skip the confirmation rlmgrep asks for before loading many files'
complete -c kgrep -s F -l fixed-strings -d 'Search the pattern as the literal text it is (as `rg -F` does): never as natural language or a regex, quotes included; every line holding it'
complete -c kgrep -s i -l ignore-case -d 'Match a literal or regex query in any case (a natural-language query always is). The last of -i, -s and -S wins'
complete -c kgrep -s s -l case-sensitive -d 'Match a literal or regex query in its case (the default), as `rg -s` does: undoes an -i or -S given before it'
complete -c kgrep -s S -l smart-case -d 'Match a literal or regex query in any case when it has no upper-case letter, in its case when it has one, as `rg -S` does'
complete -c kgrep -s w -l word-regexp -d 'Match a literal or regex query only as a whole word (as `rg -w`: not inside a longer word); a natural-language query always matches code words'
complete -c kgrep -s U -l multiline -d 'Let a regex match across lines, as `rg -U` does (`\\n` matches a line end; every line of a match prints). A natural-language query ignores it'
complete -c kgrep -s P -l pcre2 -d 'Use the regex engine with look-around and back-references, as `rg -P` does (rg links PCRE2; kgrep\'s engine is fancy-regex, in Rust): the pattern is then read as a regex, never natural language. -i, -S, -w, -x and -U apply'
complete -c kgrep -l auto-hybrid-regex -d 'The same as `--engine auto`, as rg 13\'s --auto-hybrid-regex'
complete -c kgrep -l no-unicode -d 'Match ASCII only where a regex means a class of characters (`\\w`, `\\d`, `\\s`, `\\b`, case folding), and let `.` match any byte, as `rg --no-unicode` does (`--no-pcre2-unicode` is the same)'
complete -c kgrep -l unicode -d 'Unicode-aware classes and case (the default): undoes --no-unicode, as `rg --unicode` does (`--pcre2-unicode` is the same)'
complete -c kgrep -l crlf -d 'Accepted for ripgrep command lines: kgrep always reads CRLF as a line end (a line prints without its `\\r`, and `$` matches before it), as rlmgrep reads text'
complete -c kgrep -l invert-match -d 'Print the lines that do not match, as `rg --invert-match` does (the pattern is then read as a regex, or text with -F, never natural language). Long name only: -v is rlmgrep\'s (verbose)'
complete -c kgrep -l multiline-dotall -d 'With -U, `.` matches line ends too, as `rg --multiline-dotall` does'
complete -c kgrep -s x -l line-regexp -d 'Match only whole lines, as `rg -x` does (it overrides -w): a pattern that reads as natural language is searched as literal text'
complete -c kgrep -l no-builtin-thesaurus -d 'Do not use the thesaurus compiled into kgrep'
complete -c kgrep -s p -l pretty -d 'Print for a person reading a pager, as `rg -p` does: `--color always --heading --line-number` (`kgrep -p … | less -R`); a later --color, --no-heading or -N still wins'
complete -c kgrep -s n -l line-number -d 'Show line numbers: they are shown unless -N says otherwise (`N:` before each line); accepted for grep, ripgrep and older rlmgrep command lines'
complete -c kgrep -s N -l no-line-number -d 'Show no line numbers, as `rg -N` does: a line prints without its `N:` (or `N-`) and the tab after it'
complete -c kgrep -s H -l with-filename -d 'Show file names: they are shown unless -I says otherwise (a `./path` heading above each file\'s lines); accepted for grep, ripgrep and older rlmgrep command lines'
complete -c kgrep -s I -l no-filename -d 'Show no file names, as `rg -I` does: no heading above a file\'s lines (a blank line still parts two files), no `PATH:` in --no-heading lines'
complete -c kgrep -l column -d 'Show the column (1-based byte) of each match line\'s first match after its number, as `rg --column` does: `N:COL:` (context lines keep `N-`)'
complete -c kgrep -l max-columns-preview -d 'With -M, print a long line\'s NUM bytes around its match instead, marked `[... N bytes omitted]` where bytes are left out (without -M, nothing)'
complete -c kgrep -s l -l files-with-matches -d 'Print only the paths of the files that hold a printed match, one per line, as `rg -l` does: for a natural-language query the files it would print, best first (--max-lines 0 for every file holding a query word); for a literal or regex query every file that matches'
complete -c kgrep -s c -l count -d 'Print each file\'s path and its number of match lines (`./src/app.py:3`), as `rg -c` does: every matching line of a literal or regex query, the lines a natural-language query would print. -m caps each count'
complete -c kgrep -l count-matches -d 'Print each file\'s path and its number of matches, not match lines (`./src/app.py:4`), as `rg --count-matches` does: -c counting what -o would print'
complete -c kgrep -l files-without-match -d 'Print the paths of the files searched that hold no match, one per line, as `rg --files-without-match` does (for natural language: no query word)'
complete -c kgrep -l include-zero -d 'With -c or --count-matches, list the files searched with no match too (`./src/app.py:0`), after the others (with --sort or --sortr, in their place among them), as `rg --include-zero` does'
complete -c kgrep -l passthru -d 'Print every line of every file searched, a match line as `N:` and any other as `N-`, as `rg --passthru` does (with --replace: a whole file with its matches replaced). The pattern is then read as a regex, or text with -F, never natural language; -m stops a file at its NUM-th match. With --json, every line is a message, the others `context`, as rg\'s. The last of --passthru and -A, -B, -C wins, as in rg'
complete -c kgrep -s o -l only-matching -d 'Print only the matched parts of each printed match line, each on a line of its own (`N:<TAB>part`), as `rg -o` does: every match of a literal or regex query, the query\'s words (as matched) on the lines a natural-language query prints. With -c, the parts are counted'
complete -c kgrep -l stats -d 'After the results, print ripgrep\'s statistics, as `rg --stats` does: the matches, matched lines and files printed, the files and bytes searched, the bytes printed and the time taken (with --json, its summary carries them)'
complete -c kgrep -l no-heading -d 'Print ripgrep\'s flat lines instead of headings, as `rg --no-heading` does: `./PATH:N:text` for a match, `./PATH-N-text` for context, no blank lines and no tab, so each line names its file'
complete -c kgrep -l heading -d 'Print a `./path` heading above each file\'s lines (the default): undoes an earlier --no-heading, as `rg --heading` does'
complete -c kgrep -l vimgrep -d 'Print each match as `./PATH:N:COLUMN:text`, as `rg --vimgrep` does for editors\' quickfix lists: a line with several matches once per match (the column of each, 1-based bytes)'
complete -c kgrep -l no-context-separator -d 'Print nothing between groups of context lines, not even a line, as `rg --no-context-separator` does'
complete -c kgrep -s z -l search-zip -d 'Search in compressed files, as `rg -z` does: gzip (`.gz`, `.tgz`), and with the program rg runs for each (found on PATH) bzip2, xz, lzma, lz4, brotli, zstd and compress (`.Z`) files. Their decompressed text is searched as a file\'s; the path printed is the compressed file\'s'
complete -c kgrep -l no-pre -d 'Run no --pre command (undoes an earlier --pre), as `rg --no-pre` does'
complete -c kgrep -s b -l byte-offset -d 'Print each line\'s byte offset in its file after its number (and column), as `rg -b` does: with -o each part\'s, with --vimgrep each match\'s. Offsets are of the file\'s bytes (a CRLF counts two), or of its text after -E or a UTF-16 mark decoded it'
complete -c kgrep -l trim -d 'Leave out the spaces and tabs each printed line starts with, as `rg --trim` does (fewer tokens for an agent; line numbers and columns are unchanged)'
complete -c kgrep -l sort-files -d 'The same as `--sort path`, as rg\'s (deprecated) --sort-files'
complete -c kgrep -l line-buffered -d 'Flush the output after every line, as `rg --line-buffered` does (kgrep prints when its search is done, so lines still come at once); the default is a block at a time. The last of --line-buffered and --block-buffered wins'
complete -c kgrep -l block-buffered -d 'Flush the output a block at a time (the default), as `rg --block-buffered` does'
complete -c kgrep -s q -l quiet -d 'Print nothing on stdout, and on stderr only errors (the file counts with -v): the exit status says whether a line matched (0) or not (1). No model is consulted unless --rlm asks for it'
complete -c kgrep -l files -d 'Print the files that would be searched, one per line, and search nothing, as `rg --files` does: every argument is a path (PATTERN too), and the ignore, hidden, glob, type and depth rules apply'
complete -c kgrep -l answer -d 'Print a narrative answer (on stderr) before the grep output. Needs a model for a written answer; offline, the best lines are quoted as an extractive answer'
complete -c kgrep -l answer-only -d 'Print only the narrative answer'
complete -c kgrep -l mcp -d 'Serve the Model Context Protocol on stdin and stdout (newline-delimited JSON-RPC) for coding agents: tools `search`, `answer` and `explain`. Other flags are ignored; each tool call takes its own arguments. See AGENTS in the man page'
complete -c kgrep -l allow-outside -d 'With --mcp: let tool calls search any path this user can read. Without it, a path outside the server\'s roots (the roots the client declares, else the working directory), through `..` or a symlink too, is refused. The config key mcp_allow_outside = true does the same'
complete -c kgrep -l json -d 'Print JSON Lines instead: ripgrep\'s `--json` messages (begin, match, context, end, summary), with kgrep\'s additions under `data.kgrep` and its own `answer` and `signature` messages. See JSON OUTPUT in the man page. As in rg, -o, --vimgrep and --no-heading leave the messages as they are, and -q prints none (with --stats, the summary alone)'
complete -c kgrep -l dry-run -d 'Print the exact requests that would be sent to the model (method, URL, headers with keys masked, JSON body) and send nothing; with --json, as `request` messages. When no request would be sent, stderr says why'
complete -c kgrep -l offline -d 'Never consult a language model, whatever the judge says (as `llm = "off"` or `KGREP_LLM=off`)'
complete -c kgrep -l rlm -d 'Always consult the language model, even when the offline results are judged sufficient (as `llm = "always"` or `KGREP_LLM=always`); warns when no model is usable. `KGREP_LLM=off` overrides it'
complete -c kgrep -l no-learn -d 'Do not write what the model teaches to the learned thesaurus for this run (as `learn = false`). `--offline` and `llm = "off"` never write either'
complete -c kgrep -l thesaurus-list -d 'List the learned concepts and exit: one per line, tab-separated: name, status (proposed or accepted), hits, date, model, synonyms (comma-separated), query'
complete -c kgrep -s v -l verbose -d 'Verbose: how the query was understood and why lines were chosen, on stderr'
complete -c kgrep -l debug -d 'The same as -v, for ripgrep command lines (`--debug`, `--trace`)'
complete -c kgrep -l pcre2-version -d 'Say whether PCRE2 is available, as `rg --pcre2-version` does, and exit: it is not (-P runs fancy-regex, written in Rust), so the status is 1'
complete -c kgrep -l explain -d 'Print each printed line\'s score, decomposed (query words on the line and near it, identifier bonus, line kind, file score), on stderr. `-v` does too'
complete -c kgrep -l features -d 'For training a ranker: print each candidate file of a natural-language query with its ranking features, one JSON object a line, instead of the results, in the hand-tuned order (`tests/bench/train/`)'
complete -c kgrep -l init-config -d 'Write kgrep\'s commented default config file if it does not exist, print its path'
complete -c kgrep -l version -d 'Print the version and exit'
complete -c kgrep -l no-pcre2
complete -c kgrep -l no-auto-hybrid-regex
complete -c kgrep -l no-multiline
complete -c kgrep -l no-multiline-dotall
complete -c kgrep -l no-fixed-strings
complete -c kgrep -l no-hidden
complete -c kgrep -l no-follow
complete -c kgrep -l no-search-zip
complete -c kgrep -l no-column
complete -c kgrep -l no-text
complete -c kgrep -l no-binary -d 'Undoes --binary and -a alike, as rg 13\'s does'
complete -c kgrep -l no-trim
complete -c kgrep -l no-sort-files
complete -c kgrep -l no-json
complete -c kgrep -l no-max-columns-preview
complete -c kgrep -l no-one-file-system
complete -c kgrep -l no-stats
complete -c kgrep -l no-encoding
complete -c kgrep -l no-glob-case-insensitive
complete -c kgrep -l no-ignore-file-case-insensitive
complete -c kgrep -l no-crlf
complete -c kgrep -l no-line-buffered
complete -c kgrep -l no-block-buffered
complete -c kgrep -l messages
complete -c kgrep -l ignore-messages
complete -c kgrep -l ignore
complete -c kgrep -l ignore-dot
complete -c kgrep -l ignore-exclude
complete -c kgrep -l ignore-files -d '(Not `ignore_files`: that is --ignore-file\'s list.)'
complete -c kgrep -l ignore-global
complete -c kgrep -l ignore-parent
complete -c kgrep -l ignore-vcs
complete -c kgrep -l require-git
complete -c kgrep -s h -l help -d 'Print help (see more with \'--help\')'
