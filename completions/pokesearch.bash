# bash completion for pokesearch. Source it, or install it as
# /usr/share/bash-completion/completions/pokesearch (or ~/.local/share/bash-completion/completions/).
# Names come from `pokesearch complete`, which asks a running `pokesearch serve` when there
# is one and reads the database when there is not.

_pokesearch_names() {
    local IFS=$'\n'
    [[ -n "$1" ]] || return 0
    COMPREPLY+=($(command pokesearch complete --slugs --limit 20 -- "$1" 2>/dev/null))
}

_pokesearch() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    local prev=""
    (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
    local commands="search complete show random ingest serve fav history sprite help"
    local options="--limit --offset --kind --lang --sort --desc --json --explain --db --color --no-server --socket --help --version"
    local value_options="--limit --offset --kind --lang --sort --db --socket --csv --api --idle-timeout --max-connections -n -k -l -s"
    COMPREPLY=()

    case "$prev" in
        --kind|-k) COMPREPLY=($(compgen -W "pokemon form move ability item type" -- "$cur")); return 0 ;;
        --lang|-l) COMPREPLY=($(compgen -W "en fr de es it ja ja-hrkt ja-roma ko zh-hans zh-hant cs pt-br es-419" -- "$cur")); return 0 ;;
        --sort|-s) COMPREPLY=($(compgen -W "relevance id name hp attack defense special-attack special-defense speed total height weight power accuracy pp cost" -- "$cur")); return 0 ;;
        --db|--socket) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
        --csv) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
        --limit|-n|--offset|--api|--idle-timeout|--max-connections) return 0 ;;
    esac

    # The command: the first word that is neither an option nor an option's value.
    local command="" position=0 i
    for (( i = 1; i < COMP_CWORD; i++ )); do
        local word="${COMP_WORDS[i]}"
        if [[ " $value_options " == *" $word "* ]]; then
            (( i++ ))
        elif [[ "$word" != -* ]]; then
            command="$word"
            position=$i
            break
        fi
    done

    if [[ "$cur" == -* ]]; then
        case "$command" in
            ingest) options="--csv --api --db --quiet --help" ;;
            serve) options="--socket --db --idle-timeout --max-connections --help" ;;
            history) options="--clear --json --limit --offset --db --help" ;;
            complete) options="--limit --kind --lang --json --slugs --db --no-server --socket --help" ;;
            show) options="--kind --lang --json --no-sprite --db --color --help" ;;
            random) options="--kind --lang --json --db --color --help" ;;
            fav) options="--lang --json --limit --offset --db --color --help" ;;
            sprite) options="--show --force --api --db --help" ;;
        esac
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return 0
    fi

    if [[ -z "$command" ]]; then
        # `pokesearch QUERY` searches: offer names when no command starts with the word.
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        (( ${#COMPREPLY[@]} == 0 )) && _pokesearch_names "$cur"
        return 0
    fi

    case "$command" in
        help) (( COMP_CWORD == position + 1 )) && COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
        fav)
            if (( COMP_CWORD == position + 1 )); then
                COMPREPLY=($(compgen -W "add remove rm list" -- "$cur"))
            else
                _pokesearch_names "$cur"
            fi ;;
        ingest|serve|history|random) ;;
        *) _pokesearch_names "$cur" ;;
    esac
    return 0
}

complete -F _pokesearch pokesearch
