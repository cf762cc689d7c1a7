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
          pokesearch fav [add|rm NAME | list]  favourites
          pokesearch synonym add TERM NAME... | remove TERM | list [TERM]
                                              your own synonyms (TERM also finds NAME)
          pokesearch history [--clear]        recent searches, newest first
          pokesearch sprite NAME [--show]     download and cache the sprite; prints its path (or draws it)
          pokesearch interactive [QUERY]      search as you type, full screen (also -i, --interactive;
                                              Ctrl-O prints the pick)
          pokesearch help COMMAND             help on one command

        options (short forms: -n -j -k -l -s -h -V; `--` ends the options):
          -n, --limit N      results to show (default 20)      --offset N    skip N results
          -k, --kind K       only this kind (repeatable): pokemon, form, move, ability, item,
                             type
          -l, --lang L       language of names shown (default $POKESEARCH_LANG, else en;
                             a locale such as fr_FR.UTF-8 means its language)
          -s, --sort FIELD   relevance, id, name, hp, attack, defense, special-attack,
                             special-defense, speed, total, height, weight, power, accuracy, pp, cost
          --desc             sort descending (with --sort)     -j, --json    JSON Lines output
          --explain          show why each result matched      --db PATH     database file
          --color[=WHEN]     auto (default: on a terminal, without NO_COLOR), always, never
          --no-server        never ask a running server        --socket PATH the server's socket
          --slugs            complete: print slugs             --no-sprite   show: no sprite beside the page
          --show             sprite: draw it in the terminal   --force       sprite: download again
          --clear            history: forget it                --quiet       ingest: no progress
          --csv DIR|URL      ingest: from PokeAPI's CSV tables --api [URL]   ingest: from PokeAPI's API
          --idle-timeout S   serve: close idle connections     --max-connections N   serve
          --request-timeout S  serve: time for a request line to arrive whole
          -h, --help         this help (`help COMMAND`: one command's)   -V, --version  the version

        A word starting with `-` is an option: to negate a term, quote the query
        (`pokesearch "pikachu -type:electric"`) or put it after `--`.

        query language (every term must match):
          fire dragon      words match names (prefix, substring, compact "mrmime"), types,
                           abilities, genus, colour, habitat; typos tolerated
          rotom-wash rotomwash ttar zardx   slugs, Showdown nicknames and your synonyms are names
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
        "search": """
            pokesearch [search] QUERY... [--limit N] [--offset N] [--kind K] [--lang L] [--sort FIELD [--desc]] [--json] [--explain] [--no-server]
              Every term must match; see `pokesearch --help` for the query language.
              Punctuation inside a term matches its parts and their run-together form
              (Porygon-Z, porygonz, Type: Null, Mr. Mime); terms run together too (thunder bolt,
              poke ball). Typos: 1 from 4 letters, 2 from 8, on every term of several, ranked
              below exact hits and tried only while these do not fill the page (arma veil →
              Aroma Veil); a run of short words counts its letters together (perish sog →
              Perish Song, stone nxe → Stone Axe). A word that is a name's word is taken as typed;
              one word alone gets typos where it starts nothing, or only a few foreign names.
              --explain says which synonym matched (ttar: synonym ttar → Tyranitar).
            """,
        "complete": "pokesearch complete PREFIX [-n N] [-l L] [-k K] [-j] [--slugs] [--no-server]\n  Suggestions for the text being typed: the last word is a prefix of a name word (after other words,\n  also a type, ability... typed out: \"fire dragon\"), earlier words must match whole words of a name\n  or of a type, ability, genus, colour or habitat (\"fire char\").",
        "ingest": "pokesearch ingest [--csv DIR | --api [URL]] [--quiet]\n  Rebuilds the database aside and swaps it in atomically; favourites and history are kept.\n  Default source: the bundled corpus. --csv reads a PokeAPI CSV directory (data/v2/csv), or downloads\n  its tables from an http(s) URL. --api syncs from PokeAPI's REST API (default https://pokeapi.co/api/v2):\n  responses are cached in the database, a second sync asks only for what changed, an interrupted one resumes.\n  Progress goes to stderr (--quiet: none). POKESEARCH_HTTP_TIMEOUT, POKESEARCH_HTTP_ATTEMPTS and\n  POKESEARCH_HTTP_BACKOFF tune the per-request timeout, the tries per URL and the first retry delay.",
        "show": "pokesearch show NAME|SLUG|ID|KIND:SLUG [-k K] [-l L] [-j] [--no-sprite]\n  --kind narrows a name several kinds share (`show metronome -k move`). On a terminal, a Pokémon's sprite\n  cached by `pokesearch sprite` is drawn beside the page (never when piped; --no-sprite: never).\n  One entity in detail: a number is an id (the Pokémon first), else a slug or an exact name in any language.\n  A name several kinds share (metronome) lists them and exits 1; pick one with KIND:SLUG (`show move:metronome`).",
        "random": "pokesearch random [QUERY...] [--kind K] [--json]\n  One entity picked uniformly at random among a query's matches (`random type:fire gen:1`), or among\n  everything (of one kind with --kind): its Pokédex page on a terminal, else a result line.",
        "serve": "pokesearch serve [--socket PATH] [--idle-timeout SECONDS] [--request-timeout SECONDS] [--max-connections N]\n  Runs the line-protocol server on a Unix socket (see docs/PROTOCOL.md): --socket, else $POKESEARCH_SOCKET,\n  else $XDG_RUNTIME_DIR/pokesearch.sock, else /tmp/pokesearch-$UID.sock. SIGHUP reloads the index.\n  Defaults: idle timeout 300 s, 10 s for a request line to arrive whole, 1024 connections. `search` and `complete` use a running server (--no-server: never).",
        "fav": "pokesearch fav [add NAME | remove NAME | rm NAME | list] [-j]\n  Favourites; `list` or no words lists them. `is:fav` filters searches to them.",
        "synonym": "pokesearch synonym add TERM NAME... | remove TERM | list [TERM]\n  Your own synonyms, kept across ingests like favourites: TERM then finds what NAME names (a name, slug or\n  id as `show` takes them; several NAMEs for several entities) and ranks as its whole name. A NAME that names\n  nothing is refused (exit 1). `list` shows yours; `list TERM` every synonym written TERM, shipped ones too\n  (Pokémon Showdown's nicknames such as ttar, lando-t, zardx; form words such as alolan/alola, gmax/gigantamax).\n  A running server sees a change after RELOAD (or SIGHUP).",
        "history": "pokesearch history [--clear] [--json]\n  Recent searches and `show`s, newest first with their times (the last 50); completions are not recorded. POKESEARCH_NO_HISTORY=1 turns recording off.",
        "sprite": "pokesearch sprite NAME [--show] [--force] [--api URL]\n  Downloads the Pokémon's front sprite once into $XDG_CACHE_HOME/pokesearch/sprites/ and prints its path;\n  --show draws it instead, --force downloads it again. NAME is a Pokémon's or form's name, slug or id.\n  Drawing: the kitty graphics protocol where the terminal speaks it (KITTY_WINDOW_ID, TERM=xterm-kitty,\n  TERM_PROGRAM=WezTerm or ghostty, KONSOLE_VERSION), sixel where TERM names a sixel terminal (foot, mlterm,\n  contour, *sixel*), else half blocks in 24-bit colour; POKESEARCH_SPRITE=kitty|sixel|blocks chooses.",
        "interactive": "pokesearch -i | pokesearch interactive [QUERY] [--kind K] [--lang L]\n  Search as you type on the whole terminal. Up/Down (Ctrl-P/N), PageUp/PageDown move; Enter opens the page, Esc or q goes back;\n  Tab cycles the kind shown; Ctrl-F toggles the favourite; Ctrl-O prints the chosen slug on stdout and exits (`show \"$(pokesearch -i)\"`);\n  Ctrl-C, or Esc on an empty query, quits. Draws on /dev/tty, so stdout may be a pipe.",
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
