/// `pokesearch --help` and `pokesearch help COMMAND`.
enum Help {
    static let overview = """
        pokesearch: search Pokémon, moves, items, abilities and types (PokeAPI data) in every language.

        usage:
          pokesearch QUERY...                 search (same as `pokesearch search QUERY...`)
          pokesearch complete PREFIX          autocompletion suggestions
          pokesearch show NAME|SLUG|ID        one entity in detail (`show 25`, `show move:thunderbolt`)
          pokesearch random [QUERY...]        one random entity (among a query's matches)
          pokesearch ingest [--csv DIR|URL | --api [URL]]
                                              (re)build the database (bundled corpus by default)
          pokesearch serve [--socket PATH]    run the line-protocol server
          pokesearch fav [add|remove NAME]    favourites
          pokesearch history [--clear]        recent searches, newest first
          pokesearch sprite NAME              download and cache the sprite; prints its path
          pokesearch help COMMAND             help on one command

        options:
          --limit N        results to show (default 20)        --offset N    skip N results
          --kind K         only this kind (repeatable): pokemon, move, ability, item, type
          --lang L         language of names shown (default $POKESEARCH_LANG, else en)
          --sort FIELD     relevance, id, name, hp, attack, defense, special-attack,
                           special-defense, speed, total, height, weight, power, accuracy, pp, cost
          --desc           sort descending                     --json        JSON Lines output
          --explain        show why each result matched        --db PATH     database file
          --version        print the version

        query language (every term must match):
          fire dragon      words match names (prefix, substring, compact "mrmime"), types,
                           abilities, genus, colour, habitat; typos tolerated
          "mr mime"        a phrase              -term, -type:flying    negation
          *meleon ee?ee    wildcards             25                    an id, in every kind
          kind:move move:pound type:fire ability:levitate gen:1 color:red habitat:cave
          is:legendary|mythical|baby|fav|default|mega    lang:fr  @fr:dracaufeu
          hp>100 atk>=120 def<50 spa spd spe bst>600 height weight power accuracy pp cost id:1..151
          text:paralyze text:"speed by two stages"   the prose (effects, flavour texts), any language
          ailment:paralysis target:user flag:contact priority>0 tm:24              move filters

        exit status: 0 found, 1 nothing found, 2 usage error, 3 data or storage error.
        environment: POKESEARCH_DB, POKESEARCH_LANG, POKESEARCH_SOCKET, POKESEARCH_NO_HISTORY, NO_COLOR.
        """

    static let topics: [String: String] = [
        "search": "pokesearch [search] QUERY... [--limit N] [--offset N] [--kind K] [--lang L] [--sort FIELD [--desc]] [--json] [--explain] [--no-server]\n  Every term must match; see `pokesearch --help` for the query language.",
        "complete": "pokesearch complete PREFIX [--limit N] [--lang L] [--kind K] [--json] [--slugs] [--no-server]\n  Suggestions for the text being typed: the last word is a prefix of a name word (after other words,\n  also a type, ability... typed out: \"fire dragon\"), earlier words must match whole words of a name\n  or of a type, ability, genus, colour or habitat (\"fire char\").",
        "ingest": "pokesearch ingest [--csv DIR | --api [URL]] [--quiet]\n  Rebuilds the database aside and swaps it in atomically; favourites and history are kept.\n  Default source: the bundled corpus. --csv reads a PokeAPI CSV directory (data/v2/csv), or downloads\n  its tables from an http(s) URL. --api syncs from PokeAPI's REST API (default https://pokeapi.co/api/v2):\n  responses are cached in the database, a second sync asks only for what changed, an interrupted one resumes.\n  Progress goes to stderr (--quiet: none). POKESEARCH_HTTP_TIMEOUT, POKESEARCH_HTTP_ATTEMPTS and\n  POKESEARCH_HTTP_BACKOFF tune the per-request timeout, the tries per URL and the first retry delay.",
        "show": "pokesearch show NAME|SLUG|ID|KIND:SLUG [--lang L] [--json]\n  One entity in detail: a number is an id (the Pokémon first), else a slug or an exact name in any language.\n  A name several kinds share (metronome) lists them and exits 1; pick one with KIND:SLUG (`show move:metronome`).",
        "random": "pokesearch random [QUERY...] [--kind K] [--json]\n  One entity picked uniformly at random among a query's matches (`random type:fire gen:1`), or among\n  everything (of one kind with --kind): its Pokédex page on a terminal, else a result line.",
        "serve": "pokesearch serve [--socket PATH] [--idle-timeout SECONDS] [--max-connections N]\n  Runs the line-protocol server on a Unix socket (see docs/PROTOCOL.md): --socket, else $POKESEARCH_SOCKET,\n  else $XDG_RUNTIME_DIR/pokesearch.sock, else /tmp/pokesearch-$UID.sock. SIGHUP reloads the index.\n  Defaults: idle timeout 300 s, 1024 connections. `search` and `complete` use a running server (--no-server: never).",
        "fav": "pokesearch fav [add|remove NAME] [--json]\n  Favourites; with no words, lists them. `is:fav` filters searches to them.",
        "history": "pokesearch history [--clear] [--json]\n  Recent searches and completions, newest first (the last 50). POKESEARCH_NO_HISTORY=1 turns recording off.",
        "sprite": "pokesearch sprite NAME [--force] [--api URL]\n  Downloads the Pokémon's front sprite once into $XDG_CACHE_HOME/pokesearch/sprites/ and prints its path;\n  --force downloads it again. NAME is a slug or a name (the top Pokémon found).",
        "help": "pokesearch help COMMAND\n  Help on one command.",
    ]

    static func text(for topic: String?) throws -> String {
        guard let topic else { return overview }
        guard let text = topics[topic] else {
            throw CLIError.usage("no help on '\(topic)'; commands: \(topics.keys.sorted().joined(separator: ", "))")
        }
        return text
    }
}
