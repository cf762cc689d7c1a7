import Corpus
import Index
import Store
import Locking

/// Entity details read from the database one entity at a time, for `show` and the server's
/// GET: the rows one entity's details need become a small typed corpus (the same `Corpus`
/// and `Pokedex` code as for the whole corpus, so the same output), and names are read as
/// the details ask for them. Neither front end holds the whole typed corpus (megabytes
/// resident in the server for its tens of thousands of names).
///
/// Takes over `store`'s connection: it stops mapping the file (mapped pages read once would
/// stay resident for as long as the reader lives) and keeps a small page cache; nothing
/// else may use the connection from another thread afterwards. Thread-safe: one entity at
/// a time.
public final class DetailReader: NameSource {
    private let queries: Locked<Queries>
    /// The type chart (21 types, 324 damage factors), read once.
    private let chart: Corpus
    public let path: String

    public init(store: Store) throws {
        path = store.path
        do {
            try store.database.execute("PRAGMA mmap_size = 0")
            try store.database.execute("PRAGMA cache_size = -512")
            let queries = try Queries(store)
            var tables = RowSet().tables()
            tables.tables["types"] = try queries.table(queries.allTypes)
            tables.tables["type_efficacy"] = try queries.table(queries.allEfficacy)
            chart = try Corpus(tables: tables)
            self.queries = Locked(queries)
        } catch {
            throw StoreError.from(error, path: store.path)
        }
    }

    /// A Pokédex holding what the details of document `doc` need: its rows, the rows they
    /// refer to, and names read on demand (what `show` lays out).
    public func pokedex(for doc: Int, index: IndexSnapshot) throws -> Pokedex {
        let corpus = try reading { queries in try queries.corpus(for: doc, index: index, chart: chart) }
        return Pokedex(corpus: corpus, index: index, names: CorpusNames(source: self))
    }

    /// The details of document `doc` with names in `language` (nil when the database lacks
    /// its rows), read in one transaction: what the server's GET answers.
    public func detail(_ doc: Int, index: IndexSnapshot, language: Int) throws -> EntityDetail? {
        try reading { queries in
            try queries.store.database.execute("BEGIN")
            defer { try? queries.store.database.execute("COMMIT") }
            let corpus = try queries.corpus(for: doc, index: index, chart: chart)
            return Pokedex(corpus: corpus, index: index, names: CorpusNames(source: queries)).detail(doc, language: language)
        }
    }

    /// The favourites' documents (`is:fav`), read now: one added since the index was loaded
    /// counts.
    public func favouriteDocs(index: IndexSnapshot) throws -> Set<Int> {
        try reading { queries in Set(try queries.store.favourites().compactMap { index.doc(kind: $0.kind, slug: $0.slug) }) }
    }

    /// Every name of one thing, by language index (a failed read is no name: the details
    /// then show the slug, as for a thing the corpus does not name).
    public func names(kind: String, slug: String) -> [Int: String]? {
        (try? reading { queries in queries.names(kind: kind, slug: slug) }) ?? nil
    }

    /// Runs `body` on the reader's connection and its prose query, under its lock (the
    /// database filters).
    func withStore<T: Sendable>(_ body: (Store, ProseQuery) throws -> T) throws -> T {
        try reading { queries in try body(queries.store, try queries.proseQuery()) }
    }

    private func reading<T: Sendable>(_ body: (Queries) throws -> T) throws -> T {
        do {
            return try queries.withLock { queries in try body(queries) }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }
}

/// The prepared statements of a `DetailReader`, used only under its lock.
private final class Queries: NameSource, @unchecked Sendable {
    let pokemon, pokemonOfSpecies, defaultPokemonByID, pokemonWithAbility, pokemonWithType: CorpusRowQuery
    let species, speciesOfChain, evolutionsOf: CorpusRowQuery
    let move, moveBySlug, item, ability, abilityBySlug: CorpusRowQuery
    let allTypes, allEfficacy, namesOf: CorpusRowQuery
    let machinesOfMove, machinesOfItem, proseOf: CorpusRowQuery
    let store: Store
    /// Prepared on first use (a database from before the prose index has none to prepare).
    private var prose: ProseQuery?

    func proseQuery() throws -> ProseQuery {
        if let prose { return prose }
        let query = try store.proseQuery()
        prose = query
        return query
    }

    init(_ store: Store) throws {
        self.store = store
        pokemon = try store.corpusRows(.pokemon)
        pokemonOfSpecies = try store.corpusRows(.pokemonOfSpecies)
        defaultPokemonByID = try store.corpusRows(.defaultPokemonByID)
        pokemonWithAbility = try store.corpusRows(.pokemonWithAbility)
        pokemonWithType = try store.corpusRows(.pokemonWithType)
        species = try store.corpusRows(.species)
        speciesOfChain = try store.corpusRows(.speciesOfChain)
        evolutionsOf = try store.corpusRows(.evolutionsOfSpecies)
        move = try store.corpusRows(.move)
        moveBySlug = try store.corpusRows(.moveBySlug)
        item = try store.corpusRows(.item)
        ability = try store.corpusRows(.ability)
        abilityBySlug = try store.corpusRows(.abilityBySlug)
        allTypes = try store.corpusRows(.allTypes)
        allEfficacy = try store.corpusRows(.allTypeEfficacy)
        namesOf = try store.corpusRows(.names)
        machinesOfMove = try store.corpusRows(.machinesOfMove)
        machinesOfItem = try store.corpusRows(.machinesOfItem)
        proseOf = try store.corpusRows(.prose)
    }

    /// The prose rows of one thing.
    func addProse(_ rows: inout RowSet, _ kind: String, _ id: Int) throws {
        rows.add(proseOf, try proseOf.rows([.text(kind), .integer(Int64(id))]))
    }

    func table(_ query: CorpusRowQuery, _ values: [SQLValue] = []) throws -> Table {
        Table(columns: query.columns, rows: try query.rows(values).map(\.fields))
    }

    /// Names read so far, by "kind slug" (an empty table: none in the database). The
    /// details of one Pokémon ask for a hundred names (its moves', abilities', types' ...),
    /// mostly the same from one entity to the next, each a query of its own without this.
    private var nameCache: [String: [Int: String]] = [:]
    /// Entries kept at most (a few hundred bytes each); the cache starts over when full.
    static let nameCacheCapacity = 4096

    func names(kind: String, slug: String) -> [Int: String]? {
        let key = kind + " " + slug
        if let cached = nameCache[key] { return cached.isEmpty ? nil : cached }
        guard let rows = try? namesOf.rows([.text(kind), .text(slug)]) else { return nil }
        var names: [Int: String] = [:]
        for row in rows {
            // Columns: kind, id, slug, lang, name.
            if let language = Language.index(of: row.fields[3]) { names[language] = row.fields[4] }
        }
        if nameCache.count >= Self.nameCacheCapacity { nameCache.removeAll(keepingCapacity: true) }
        nameCache[key] = names
        return names.isEmpty ? nil : names
    }

    /// The typed corpus of `tables(…)` for document `doc`, with the type chart.
    func corpus(for doc: Int, index: IndexSnapshot, chart: Corpus) throws -> Corpus {
        var corpus = try Corpus(tables: try tables(kind: index.kind(doc), id: index.id(doc), slug: index.slug(doc)))
        corpus.types = chart.types
        corpus.typeEfficacy = chart.typeEfficacy
        return corpus
    }

    /// The corpus tables (all but the type chart's) with the rows the details of one
    /// entity read: for a Pokémon its evolution family (species, evolutions, their Pokémon
    /// and forms) and abilities; for an ability or a type the Pokémon that have it.
    func tables(kind: Kind, id: Int, slug: String) throws -> CorpusTables {
        var rows = RowSet()
        let entity: [SQLValue] = [.integer(Int64(id)), .text(slug)]
        switch kind {
        case .move:
            rows.add(move, try move.rows(entity))
            rows.add(machinesOfMove, try machinesOfMove.rows([.text(slug)]))
            try addProse(&rows, "move", id)
            if let effect = try Corpus(tables: rows.tables(only: "moves")).moves.first?.effect { try addProse(&rows, "move-effect", effect) }
        case .item:
            rows.add(item, try item.rows(entity))
            rows.add(machinesOfItem, try machinesOfItem.rows([.text(slug)]))
            try addProse(&rows, "item", id)
            if let fling = try Corpus(tables: rows.tables(only: "items")).items.first?.flingEffect { try addProse(&rows, "fling-effect", fling) }
            // The moves its machine teaches (for their ids).
            for machine in try Corpus(tables: rows.tables(only: "machines")).machines where !rows.has("moves", slug: machine.move) {
                rows.add(moveBySlug, try moveBySlug.rows([.text(machine.move)]))
            }
        case .ability:
            try addProse(&rows, "ability", id)
            rows.add(ability, try ability.rows(entity))
            rows.add(pokemonWithAbility, try pokemonWithAbility.rows([.text(slug)]))
        case .type:
            // Its own row is in the type chart's tables.
            rows.add(pokemonWithType, try pokemonWithType.rows([.text(slug)]))
        case .pokemon, .form:
            rows.add(pokemon, try pokemon.rows(entity))
            // The Pokémon's species, its evolution family, their evolutions and Pokémon.
            guard let found = try Corpus(tables: rows.tables(only: "pokemon")).pokemon.first,
                  let own = try species.rows([.integer(Int64(found.speciesID))]).first else { break }
            rows.add(species, [own])
            try addProse(&rows, "species", found.speciesID)
            if let chain = try Corpus(tables: rows.tables(only: "species")).species.first?.evolutionChain {
                rows.add(speciesOfChain, try speciesOfChain.rows([.integer(Int64(chain))]))
            }
            for member in try Corpus(tables: rows.tables(only: "species")).species {
                rows.add(evolutionsOf, try evolutionsOf.rows([.text(member.slug)]))
                rows.add(pokemonOfSpecies, try pokemonOfSpecies.rows([.integer(Int64(member.id))]))
            }
            // Pokémon an evolution names by id (a regional form evolving into another).
            for evolution in try Corpus(tables: rows.tables(only: "evolutions")).evolutions {
                for (key, value) in evolution.conditions where key == "base_form" || key == "evolved_form" {
                    if let id = Int(value) { rows.add(defaultPokemonByID, try defaultPokemonByID.rows([.integer(Int64(id))])) }
                }
            }
            for ability in found.abilities + (found.hiddenAbility.map { [$0] } ?? []) {
                rows.add(abilityBySlug, try abilityBySlug.rows([.text(ability)]))
            }
        }
        return rows.tables()
    }
}

/// Rows gathered from several queries, each table's rows once and in the order they were
/// written (as the whole corpus has them: first matches and sort ties depend on it).
struct RowSet {
    private var rows: [String: (columns: [String], byRowID: [Int64: [String]])] = [:]

    init() {
        for table in Store.corpusTableColumns {
            rows[table.name] = (table.columns, [:])
        }
    }

    /// Whether a row of `table` with this slug (its second column) is gathered.
    func has(_ table: String, slug: String) -> Bool { rows[table]?.byRowID.values.contains { $0.count > 1 && $0[1] == slug } ?? false }

    mutating func add(_ query: CorpusRowQuery, _ found: [(rowid: Int64, fields: [String])]) {
        for row in found { rows[query.table]?.byRowID[row.rowid] = row.fields }
    }

    /// The tables gathered; with `only`, that one's rows alone, the others empty (a step that
    /// reads one table types only it: typing the whole family's Pokémon at each step was
    /// most of a Pokémon's GET).
    func tables(only: String? = nil) -> CorpusTables {
        CorpusTables(tables: Dictionary(uniqueKeysWithValues: rows.map { name, table in
            (name, Table(columns: table.columns,
                         rows: only == nil || only == name ? table.byRowID.sorted { $0.key < $1.key }.map(\.value) : []))
        }))
    }
}
