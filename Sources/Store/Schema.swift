/// The database schema, version by version. docs/STORAGE.md describes every table.
///
/// The corpus tables mirror corpus/FORMAT.md column for column (empty fields are NULL),
/// so the typed corpus can be read back without the corpus files. `entity` numbers every
/// searchable thing (its `doc` is the in-memory index's document number, in ranking
/// order); `name` holds each name raw and in its folded forms.
enum Schema {
    /// 2: the corpus's `form_names` and `synonyms` tables, and the user's `user_synonym`.
    /// 3: the Pokédex page's facts (columns added to pokemon, species, moves, items), the
    /// machines and prose tables, and `prose_fts`.
    /// 4: cosmetic forms are of kind `form` wherever a kind names them (`migrationTo4`).
    static let version = 4

    /// Corpus table → its columns with SQL types, in corpus file order.
    static let corpusTables: [(name: String, columns: [(String, String)])] = [
        ("pokemon", [("id", "INTEGER"), ("slug", "TEXT"), ("species", "INTEGER"), ("form_of", "INTEGER"),
                     ("is_default", "INTEGER"), ("form", "TEXT"), ("is_mega", "INTEGER"), ("is_battle_only", "INTEGER"),
                     ("height", "INTEGER"), ("weight", "INTEGER"), ("types", "TEXT"), ("abilities", "TEXT"),
                     ("hidden_ability", "TEXT"), ("hp", "INTEGER"), ("attack", "INTEGER"), ("defense", "INTEGER"),
                     ("special_attack", "INTEGER"), ("special_defense", "INTEGER"), ("speed", "INTEGER")]
                    + addedColumns["pokemon"]!),
        ("species", [("id", "INTEGER"), ("slug", "TEXT"), ("generation", "INTEGER"), ("evolves_from", "TEXT"),
                     ("evolution_chain", "INTEGER"), ("color", "TEXT"), ("habitat", "TEXT"), ("shape", "TEXT"),
                     ("is_baby", "INTEGER"), ("is_legendary", "INTEGER"), ("is_mythical", "INTEGER"),
                     ("capture_rate", "INTEGER"), ("gender_rate", "INTEGER")] + addedColumns["species"]!),
        ("evolutions", [("species", "TEXT"), ("trigger", "TEXT"), ("conditions", "TEXT"), ("is_default", "INTEGER")]),
        ("moves", [("id", "INTEGER"), ("slug", "TEXT"), ("generation", "INTEGER"), ("type", "TEXT"),
                   ("damage_class", "TEXT"), ("power", "INTEGER"), ("accuracy", "INTEGER"), ("pp", "INTEGER"),
                   ("priority", "INTEGER")] + addedColumns["moves"]!),
        ("items", [("id", "INTEGER"), ("slug", "TEXT"), ("category", "TEXT"), ("pocket", "TEXT"), ("cost", "INTEGER"),
                   ("fling_power", "INTEGER")] + addedColumns["items"]!),
        ("abilities", [("id", "INTEGER"), ("slug", "TEXT"), ("generation", "INTEGER"), ("is_main_series", "INTEGER")]),
        ("types", [("id", "INTEGER"), ("slug", "TEXT"), ("generation", "INTEGER"), ("damage_class", "TEXT")]),
        ("type_efficacy", [("attacking", "TEXT"), ("defending", "TEXT"), ("factor", "INTEGER")]),
        ("vocab", [("group", "TEXT"), ("id", "INTEGER"), ("slug", "TEXT")]),
        ("names", [("kind", "TEXT"), ("id", "INTEGER"), ("slug", "TEXT"), ("lang", "TEXT"), ("name", "TEXT")]),
        ("form_names", [("kind", "TEXT"), ("id", "INTEGER"), ("slug", "TEXT"), ("lang", "TEXT"), ("name", "TEXT")]),
        ("synonyms", [("term", "TEXT"), ("kind", "TEXT"), ("slug", "TEXT"), ("source", "TEXT")]),
    ] + addedTables

    /// The user's synonyms: `term` also finds the entity `kind`:`slug` (kept across ingests
    /// like favourites).
    static let userSynonymTable = """
        CREATE TABLE user_synonym (
            term     TEXT NOT NULL,
            kind     TEXT NOT NULL,
            slug     TEXT NOT NULL,
            added_at REAL NOT NULL,
            PRIMARY KEY (term, kind, slug)
        );
        """

    /// Corpus columns added in version 3, by table.
    static let addedColumns: [String: [(String, String)]] = [
        "pokemon": [("generation", "INTEGER"), ("base_experience", "INTEGER"), ("ev_yield", "TEXT")],
        "species": [("base_friendship", "INTEGER"), ("hatch_counter", "INTEGER"), ("growth_rate", "TEXT"),
                    ("egg_groups", "TEXT"), ("dex_numbers", "TEXT")],
        "moves": [("target", "TEXT"), ("effect", "INTEGER"), ("effect_chance", "INTEGER"), ("category", "TEXT"),
                  ("ailment", "TEXT"), ("ailment_chance", "INTEGER"), ("flinch_chance", "INTEGER"), ("crit_rate", "INTEGER"),
                  ("drain", "INTEGER"), ("healing", "INTEGER"), ("stat_chance", "INTEGER"), ("stat_changes", "TEXT"),
                  ("min_hits", "INTEGER"), ("max_hits", "INTEGER"), ("min_turns", "INTEGER"), ("max_turns", "INTEGER"),
                  ("flags", "TEXT")],
        "items": [("fling_effect", "INTEGER"), ("flags", "TEXT")],
    ]

    /// Corpus tables added in version 3.
    static let addedTables: [(name: String, columns: [(String, String)])] = [
        ("machines", [("move", "TEXT"), ("version_group", "TEXT"), ("item", "TEXT")]),
        ("prose", [("kind", "TEXT"), ("id", "INTEGER"), ("slug", "TEXT"), ("lang", "TEXT"), ("field", "TEXT"), ("text", "TEXT")]),
    ]

    /// Full-text search of the prose (`text:`). FTS5 because SQLite has it already, with
    /// bm25 ranking, phrases and prefix queries, and the prose (megabytes, read only by
    /// `text:` queries) need not sit in the in-memory index. The unicode61 tokenizer splits
    /// words at spaces and punctuation; the text is folded first (case, diacritics, width,
    /// as names are), and each CJK character is spaced apart so that a Japanese or Chinese
    /// word is found as the phrase of its characters (those scripts have no spaces).
    static let proseFullText = """
        CREATE VIRTUAL TABLE prose_fts USING fts5 (text, doc UNINDEXED, lang UNINDEXED, tokenize = '\(proseTokenizer.joined(separator: " "))');

        """
    /// The prose index's tokenizer and its arguments (`Store.writeProse` counts tokens with it).
    static let proseTokenizer = ["unicode61", "remove_diacritics", "0"]

    /// The statements that create version `version` from an empty database.
    static var create: String {
        var sql = """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE entity (
                doc  INTEGER PRIMARY KEY,      -- document number: kind order, default forms first, id
                kind TEXT NOT NULL,
                id   INTEGER NOT NULL,
                slug TEXT NOT NULL,
                UNIQUE (kind, id, slug)         -- PokeAPI repeats a few slugs (two roseli-berry items)
            );
            CREATE INDEX entity_id ON entity (id);
            CREATE TABLE folded_name (
                doc      INTEGER NOT NULL REFERENCES entity (doc),
                lang     TEXT NOT NULL,
                raw      TEXT NOT NULL,
                folded   TEXT NOT NULL,        -- Folding.fold: lower case, no diacritics, NFKC, words
                compact  TEXT NOT NULL,        -- folded without spaces: "mrmime"
                translit TEXT                  -- folded Latin transliteration of non-Latin names
            );
            CREATE INDEX folded_name_doc ON folded_name (doc);
            CREATE TABLE favourite (kind TEXT NOT NULL, slug TEXT NOT NULL, added_at REAL NOT NULL, PRIMARY KEY (kind, slug));
            \(userSynonymTable)
            CREATE TABLE history (query TEXT PRIMARY KEY, searched_at REAL NOT NULL);
            CREATE TABLE http_cache (
                url TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, body BLOB NOT NULL, fetched_at REAL NOT NULL
            );
            CREATE TABLE index_snapshot (format INTEGER NOT NULL, data BLOB NOT NULL);
            -- FTS5 over folded text. Names use the trigram tokenizer so any substring of three
            -- or more characters is found, in every script (CJK names have no word breaks for
            -- unicode61 to use); it cannot remove diacritics in SQLite 3.40, hence folded text.
            CREATE VIRTUAL TABLE name_fts USING fts5 (text, doc UNINDEXED, tokenize = 'trigram');
            -- Fields (types, abilities, genus, colour, habitat, category) match by word prefix:
            -- unicode61 words with prefix queries.
            CREATE VIRTUAL TABLE field_fts USING fts5 (text, doc UNINDEXED, tokenize = 'unicode61 remove_diacritics 0');

            """ + proseFullText
        for table in corpusTables {
            let columns = table.columns.map { "\"\($0.0)\" \($0.1)" }.joined(separator: ", ")
            sql += "CREATE TABLE \(table.name) (\(columns));\n"
        }
        return sql
    }

    /// Indexes for reading one entity's details from the corpus tables (`show`, the
    /// server's GET), made by ingest once the tables are written. Additive: a database made
    /// before them gets them when next opened writable (`Store.createLookupIndexes`) and is
    /// read correctly without them meanwhile, only more slowly; an older pokesearch reads and
    /// writes a database that has them. So they need no schema version.
    static let lookupIndexes: [(name: String, sql: String)] = [
        ("names_kind_slug", "CREATE INDEX IF NOT EXISTS names_kind_slug ON names (kind, slug)"),
        ("pokemon_id", "CREATE INDEX IF NOT EXISTS pokemon_id ON pokemon (id)"),
        ("pokemon_species", "CREATE INDEX IF NOT EXISTS pokemon_species ON pokemon (species)"),
        ("species_id", "CREATE INDEX IF NOT EXISTS species_id ON species (id)"),
        ("species_chain", "CREATE INDEX IF NOT EXISTS species_chain ON species (evolution_chain)"),
        ("evolutions_species", "CREATE INDEX IF NOT EXISTS evolutions_species ON evolutions (species)"),
        ("moves_id", "CREATE INDEX IF NOT EXISTS moves_id ON moves (id)"),
        ("moves_slug", "CREATE INDEX IF NOT EXISTS moves_slug ON moves (slug)"),
        ("items_id", "CREATE INDEX IF NOT EXISTS items_id ON items (id)"),
        ("abilities_id", "CREATE INDEX IF NOT EXISTS abilities_id ON abilities (id)"),
        ("abilities_slug", "CREATE INDEX IF NOT EXISTS abilities_slug ON abilities (slug)"),
        ("machines_move", "CREATE INDEX IF NOT EXISTS machines_move ON machines (move)"),
        ("machines_item", "CREATE INDEX IF NOT EXISTS machines_item ON machines (item)"),
        ("prose_kind_id", "CREATE INDEX IF NOT EXISTS prose_kind_id ON prose (kind, id)"),
    ]

    /// Migrations from version N to N+1, applied in order on open. Version 1 is the first;
    /// a later version appends its ALTER/CREATE statements here.
    static let migrations: [Int: String] = [
        1: """
            CREATE TABLE form_names ("kind" TEXT, "id" INTEGER, "slug" TEXT, "lang" TEXT, "name" TEXT);
            CREATE TABLE synonyms ("term" TEXT, "kind" TEXT, "slug" TEXT, "source" TEXT);
            \(userSynonymTable)
            """,
        2: migrationTo3,
        3: migrationTo4,
    ]

    /// Version 4: a cosmetic form (a `pokemon` row with `form_of`) is an entity of kind
    /// `form`, so the rows naming one by kind say `form`: the corpus's names, form names
    /// and synonyms, and the user's favourites and synonyms (which keep pointing at it).
    /// Names are matched by id and slug (cosmetic-form ids repeat Pokémon ids), the rest by
    /// slug, which no cosmetic form shares with a Pokémon. The entities and the index are
    /// rebuilt from these tables when the database is next opened (`Documents.version`).
    static let migrationTo4 = """
        UPDATE names SET kind = 'form' WHERE kind = 'pokemon' AND EXISTS
            (SELECT 1 FROM pokemon p WHERE p.form_of IS NOT NULL AND p.id = names.id AND p.slug = names.slug);
        UPDATE form_names SET kind = 'form' WHERE kind = 'pokemon' AND EXISTS
            (SELECT 1 FROM pokemon p WHERE p.form_of IS NOT NULL AND p.id = form_names.id AND p.slug = form_names.slug);
        CREATE TEMP TABLE cosmetic_slug AS
            SELECT slug FROM pokemon WHERE form_of IS NOT NULL EXCEPT SELECT slug FROM pokemon WHERE form_of IS NULL;
        UPDATE synonyms SET kind = 'form' WHERE kind = 'pokemon' AND slug IN (SELECT slug FROM cosmetic_slug);
        UPDATE OR IGNORE favourite SET kind = 'form' WHERE kind = 'pokemon' AND slug IN (SELECT slug FROM cosmetic_slug);
        UPDATE OR IGNORE user_synonym SET kind = 'form' WHERE kind = 'pokemon' AND slug IN (SELECT slug FROM cosmetic_slug);
        DROP TABLE cosmetic_slug;
        """

    /// The version 3 columns and tables (empty: the database's documents are rebuilt from
    /// its corpus tables when opened, and `ingest` fills them).
    static var migrationTo3: String {
        var sql = ""
        for (table, columns) in addedColumns.sorted(by: { $0.key < $1.key }) {
            for column in columns { sql += "ALTER TABLE \(table) ADD COLUMN \"\(column.0)\" \(column.1);\n" }
        }
        for table in addedTables {
            sql += "CREATE TABLE \(table.name) (\(table.columns.map { "\"\($0.0)\" \($0.1)" }.joined(separator: ", ")));\n"
        }
        return sql + proseFullText
    }
}

/// The lookups entity details are read with (`Store.corpusRows`, `DetailReader`): each a
/// corpus table and a constant condition over its columns, `?` for each bound value.
public enum CorpusLookup: Sendable {
    case pokemon, pokemonOfSpecies, defaultPokemonByID, pokemonWithAbility, pokemonWithType
    case species, speciesOfChain, evolutionsOfSpecies
    case move, item, ability, abilityBySlug, allTypes, allTypeEfficacy, names
    case machinesOfMove, machinesOfItem, prose, moveBySlug

    var table: String {
        switch self {
        case .pokemon, .pokemonOfSpecies, .defaultPokemonByID, .pokemonWithAbility, .pokemonWithType: return "pokemon"
        case .species, .speciesOfChain: return "species"
        case .evolutionsOfSpecies: return "evolutions"
        case .move, .moveBySlug: return "moves"
        case .item: return "items"
        case .ability, .abilityBySlug: return "abilities"
        case .allTypes: return "types"
        case .allTypeEfficacy: return "type_efficacy"
        case .names: return "names"
        case .machinesOfMove, .machinesOfItem: return "machines"
        case .prose: return "prose"
        }
    }

    var condition: String {
        switch self {
        case .pokemon, .move, .item, .ability: return "id = ? AND slug = ?"
        case .pokemonOfSpecies: return "species = ?"
        case .defaultPokemonByID: return "id = ? AND form_of IS NULL"
        // Supersets (a slug inside a comma-separated list), narrowed exactly by the details.
        case .pokemonWithAbility: return "form_of IS NULL AND (instr(abilities, ?1) > 0 OR hidden_ability = ?1)"
        case .pokemonWithType: return "instr(types, ?) > 0"
        case .species: return "id = ?"
        case .speciesOfChain: return "evolution_chain = ?"
        case .evolutionsOfSpecies: return "species = ?"
        case .abilityBySlug, .moveBySlug: return "slug = ?"
        case .allTypes, .allTypeEfficacy: return "1"
        case .names: return "kind = ? AND slug = ?"
        case .machinesOfMove: return "move = ?"
        case .machinesOfItem: return "item = ?"
        case .prose: return "kind = ? AND id = ?"
        }
    }
}
