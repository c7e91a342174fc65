_kgrep() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="kgrep"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        kgrep)
            opts="-r -a -E -g -t -T -u -d -j -L -0 -y -C -A -B -m -F -e -f -i -s -S -w -U -P -x -p -n -N -H -I -M -l -c -o -z -b -q -v -h --no-recursive --hidden --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-parent --no-ignore-global --no-ignore-exclude --no-ignore-files --no-require-git --one-file-system --glob-case-insensitive --ignore-file-case-insensitive --no-ignore-messages --mmap --no-mmap --no-config --text --binary --null-data --encoding --glob --iglob --type --type-not --unrestricted --max-depth --threads --max-filesize --ignore-file --follow --paths-from-stdin --null --no-messages --type-add --type-clear --type-list --yes --context --after-context --before-context --max-count --max-lines --fixed-strings --regexp --file --ignore-case --case-sensitive --smart-case --word-regexp --multiline --pcre2 --engine --auto-hybrid-regex --no-unicode --unicode --regex-size-limit --dfa-size-limit --crlf --invert-match --multiline-dotall --line-regexp --thesaurus --no-builtin-thesaurus --pretty --line-number --no-line-number --with-filename --no-filename --column --max-columns --max-columns-preview --files-with-matches --count --count-matches --files-without-match --include-zero --passthru --only-matching --stats --replace --no-heading --heading --vimgrep --context-separator --no-context-separator --search-zip --pre --no-pre --pre-glob --byte-offset --path-separator --field-match-separator --field-context-separator --trim --sort --sortr --sort-files --line-buffered --block-buffered --quiet --files --answer --answer-only --token-budget --mcp --allow-outside --json --color --colors --signature --signature-json --model --sub-model --api-base --api-key --model-type --temperature --top-p --max-tokens --sub-api-base --sub-api-key --sub-model-type --sub-temperature --sub-top-p --sub-max-tokens --max-iterations --max-llm-calls --dry-run --offline --rlm --no-learn --learn-to --thesaurus-list --thesaurus-accept --thesaurus-forget --thesaurus-export --thesaurus-import --verbose --debug --pcre2-version --explain --features --init-config --generate --version --no-pcre2 --no-auto-hybrid-regex --no-multiline --no-multiline-dotall --no-fixed-strings --no-hidden --no-follow --no-search-zip --no-column --no-text --no-binary --no-trim --no-sort-files --no-json --no-max-columns-preview --no-one-file-system --no-stats --no-encoding --no-glob-case-insensitive --no-ignore-file-case-insensitive --no-crlf --no-line-buffered --no-block-buffered --messages --ignore-messages --ignore --ignore-dot --ignore-exclude --ignore-files --ignore-global --ignore-parent --ignore-vcs --require-git --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --encoding)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -E)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -g)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --iglob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type-not)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -T)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-filesize)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignore-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type-add)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type-clear)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --after-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -A)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --before-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -B)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-count)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -m)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-lines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --regexp)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -e)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --engine)
                    COMPREPLY=($(compgen -W "default pcre2 auto" -- "${cur}"))
                    return 0
                    ;;
                --regex-size-limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dfa-size-limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thesaurus)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -M)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context-separator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pre)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pre-glob)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path-separator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --field-match-separator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --field-context-separator)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sort)
                    COMPREPLY=($(compgen -W "path modified accessed created none" -- "${cur}"))
                    return 0
                    ;;
                --sortr)
                    COMPREPLY=($(compgen -W "path modified accessed created none" -- "${cur}"))
                    return 0
                    ;;
                --token-budget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --colors)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --api-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model-type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --temperature)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --top-p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-api-base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-model-type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-temperature)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-top-p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-max-tokens)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-llm-calls)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learn-to)
                    COMPREPLY=($(compgen -W "user project" -- "${cur}"))
                    return 0
                    ;;
                --thesaurus-accept)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thesaurus-forget)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thesaurus-export)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thesaurus-import)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --generate)
                    COMPREPLY=($(compgen -W "man complete-bash complete-zsh complete-fish complete-powershell complete-elvish" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _kgrep -o nosort -o bashdefault -o default kgrep
else
    complete -F _kgrep -o bashdefault -o default kgrep
fi
