# fish completion for pokesearch: copy to ~/.config/fish/completions/pokesearch.fish.
# Names come from `pokesearch complete` (a running `pokesearch serve`, else the database).

set -l commands search complete show random ingest serve fav history sprite help
complete -c pokesearch -f

complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a search -d 'search (the default)'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a complete -d 'autocompletion suggestions'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a show -d 'one entity in detail'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a random -d 'one random entity'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a ingest -d '(re)build the database'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a serve -d 'run the line-protocol server'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a fav -d 'favourites'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a history -d 'recent searches'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a sprite -d 'download and cache a sprite'
complete -c pokesearch -n "not __fish_seen_subcommand_from $commands" -a help -d 'help on one command'
complete -c pokesearch -n "__fish_seen_subcommand_from help" -a "$commands"
complete -c pokesearch -n "__fish_seen_subcommand_from fav" -a "add remove rm list"

complete -c pokesearch -s n -l limit -x -d 'results to show'
complete -c pokesearch -l offset -x -d 'skip results'
complete -c pokesearch -s k -l kind -x -a 'pokemon form move ability item type' -d 'only this kind'
complete -c pokesearch -s l -l lang -x -a 'en fr de es it ja ja-hrkt ja-roma ko zh-hans zh-hant cs pt-br es-419' -d 'language of names'
complete -c pokesearch -s s -l sort -x -a 'relevance id name hp attack defense special-attack special-defense speed total height weight power accuracy pp cost'
complete -c pokesearch -l desc -d 'sort descending'
complete -c pokesearch -s j -l json -d 'JSON Lines output'
complete -c pokesearch -l color -x -a 'auto always never' -d 'colour output'
complete -c pokesearch -l explain -d 'why each result matched'
complete -c pokesearch -l db -r -F -d 'database file'
complete -c pokesearch -l no-server -d 'never ask a running server'
complete -c pokesearch -l slugs -n "__fish_seen_subcommand_from complete" -d 'print slugs'
complete -c pokesearch -l socket -r -F -n "__fish_seen_subcommand_from serve search complete" -d 'server socket'
complete -c pokesearch -l idle-timeout -x -n "__fish_seen_subcommand_from serve" -d 'seconds'
complete -c pokesearch -l max-connections -x -n "__fish_seen_subcommand_from serve"
complete -c pokesearch -l csv -r -a '(__fish_complete_directories)' -n "__fish_seen_subcommand_from ingest"
complete -c pokesearch -l no-sprite -n "__fish_seen_subcommand_from show" -d 'no sprite beside the page'
complete -c pokesearch -l show -n "__fish_seen_subcommand_from sprite" -d 'draw the sprite'
complete -c pokesearch -l force -n "__fish_seen_subcommand_from sprite" -d 'download again'
complete -c pokesearch -s h -l help -d 'help'
complete -c pokesearch -s V -l version -d 'version'

# Names as you type, for searches and every command that takes one.
complete -c pokesearch -n "not __fish_seen_subcommand_from ingest serve history random help" \
    -a '(set -l word (commandline -ct); test -n "$word"; and command pokesearch complete --slugs --limit 20 -- $word 2>/dev/null)'
