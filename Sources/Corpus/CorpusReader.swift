import Foundation

extension Corpus {
    /// Reads the typed corpus from its tables, checking every field it needs.
    public init(tables: CorpusTables) throws {
        var reader = TableReader()
        pokemon = try reader.rows(tables, "pokemon") { r in
            Pokemon(id: try r.int("id"), slug: try r.text("slug"), speciesID: try r.int("species"),
                    formOf: try r.optionalInt("form_of"), isDefault: try r.bool("is_default"), form: try r.string("form"),
                    isMega: try r.bool("is_mega"), isBattleOnly: try r.bool("is_battle_only"),
                    height: try r.int("height"), weight: try r.int("weight"), types: try r.list("types"),
                    abilities: try r.list("abilities"), hiddenAbility: try r.optional("hidden_ability"),
                    stats: Stats(hp: try r.int("hp"), attack: try r.int("attack"), defense: try r.int("defense"),
                                 specialAttack: try r.int("special_attack"), specialDefense: try r.int("special_defense"),
                                 speed: try r.int("speed")),
                    generation: try r.optionalInt("generation", absentIsEmpty: true),
                    baseExperience: try r.optionalInt("base_experience", absentIsEmpty: true),
                    evYield: try r.pairs("ev_yield").map { ($0.key, $0.value) })
        }
        species = try reader.rows(tables, "species") { r in
            Species(id: try r.int("id"), slug: try r.text("slug"), generation: try r.int("generation"),
                    evolvesFrom: try r.optional("evolves_from"), evolutionChain: try r.int("evolution_chain"),
                    color: try r.optional("color"), habitat: try r.optional("habitat"), shape: try r.optional("shape"),
                    isBaby: try r.bool("is_baby"), isLegendary: try r.bool("is_legendary"), isMythical: try r.bool("is_mythical"),
                    captureRate: try r.optionalInt("capture_rate"), genderRate: try r.optionalInt("gender_rate"),
                    baseFriendship: try r.optionalInt("base_friendship", absentIsEmpty: true),
                    hatchCounter: try r.optionalInt("hatch_counter", absentIsEmpty: true),
                    growthRate: r.field("growth_rate").nilIfEmpty, eggGroups: r.fieldList("egg_groups"),
                    dexNumbers: try r.pairs("dex_numbers").map { ($0.key, $0.value) })
        }
        evolutions = try reader.rows(tables, "evolutions") { r in
            let conditions = try r.string("conditions").split(separator: ";").map { pair -> (key: String, value: String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
            return Evolution(species: try r.text("species"), trigger: try r.string("trigger"), conditions: conditions,
                             isDefault: try r.bool("is_default"))
        }
        moves = try reader.rows(tables, "moves") { r in
            Move(id: try r.int("id"), slug: try r.text("slug"), generation: try r.int("generation"), type: try r.string("type"),
                 damageClass: try r.string("damage_class"), power: try r.optionalInt("power"),
                 accuracy: try r.optionalInt("accuracy"), pp: try r.optionalInt("pp"), priority: try r.optionalInt("priority") ?? 0,
                 target: r.field("target").nilIfEmpty, effect: try r.optionalInt("effect", absentIsEmpty: true), effectChance: try r.optionalInt("effect_chance", absentIsEmpty: true),
                 meta: try Self.moveMeta(r), flags: r.fieldList("flags"))
        }
        items = try reader.rows(tables, "items") { r in
            Item(id: try r.int("id"), slug: try r.text("slug"), category: try r.string("category"), pocket: try r.string("pocket"),
                 cost: try r.optionalInt("cost"), flingPower: try r.optionalInt("fling_power"),
                 flingEffect: try r.optionalInt("fling_effect", absentIsEmpty: true), flags: r.fieldList("flags"))
        }
        abilities = try reader.rows(tables, "abilities") { r in
            Ability(id: try r.int("id"), slug: try r.text("slug"), generation: try r.int("generation"),
                    isMainSeries: try r.bool("is_main_series"))
        }
        types = try reader.rows(tables, "types") { r in
            PokemonType(id: try r.int("id"), slug: try r.text("slug"), generation: try r.int("generation"),
                        damageClass: try r.optional("damage_class"))
        }
        var efficacy: [String: [String: Int]] = [:]
        _ = try reader.rows(tables, "type_efficacy") { r in
            efficacy[try r.text("attacking"), default: [:]][try r.text("defending")] = try r.int("factor")
        }
        typeEfficacy = efficacy
        var vocabulary: [String: [Int: String]] = [:]
        var indexedSlugs: [String: Set<String>] = ["color": [], "habitat": []]
        _ = try reader.rows(tables, "vocab") { r in
            let group = try r.text("group"), slug = try r.text("slug")
            if indexedSlugs[group]?.insert(slug).inserted == false { throw r.error("repeated \(group) slug '\(slug)'") }
            vocabulary[group, default: [:]][try r.int("id")] = slug
        }
        self.vocabulary = vocabulary
        for (group, slugs) in indexedSlugs where slugs.count > 256 {
            throw CorpusError.format(file: "vocab.tsv", line: 1, message: "more than 256 \(group) slugs")
        }
        try Self.requireDistinct(types.map(\.slug), file: "types.tsv", what: "type slug", limit: 256)
        try Self.requireDistinct(types.map { String($0.id) }, file: "types.tsv", what: "type id")
        try Self.requireDistinct(abilities.map { String($0.id) }, file: "abilities.tsv", what: "ability id")
        names = try reader.rows(tables, "names") { r in
            let language = try r.text("lang")
            guard Language.index(of: language) != nil else { throw r.error("unknown language '\(language)'") }
            return Name(kind: try r.text("kind"), id: try r.int("id"), slug: try r.text("slug"), language: language, text: try r.text("name"))
        }
        formNames = try reader.rows(tables, "form_names") { r in
            let language = try r.text("lang")
            guard Language.index(of: language) != nil else { throw r.error("unknown language '\(language)'") }
            return Name(kind: try r.text("kind"), id: try r.int("id"), slug: try r.text("slug"), language: language, text: try r.text("name"))
        }
        synonyms = try reader.rows(tables, "synonyms") { r in
            Synonym(term: try r.text("term"), kind: try r.text("kind"), slug: try r.text("slug"), source: try r.text("source"))
        }
        // (Tables a corpus from before them lacks: none.)
        if tables.tables["machines"] != nil {
            machines = try reader.rows(tables, "machines") { r in
                Machine(move: try r.text("move"), versionGroup: try r.text("version_group"), item: try r.text("item"))
            }
        }
        if tables.tables["prose"] != nil {
            prose = try reader.rows(tables, "prose") { r in
                Prose(kind: try r.text("kind"), id: try r.int("id"), slug: try r.text("slug"), language: try r.text("lang"),
                      field: try r.text("field"), text: ProseText.unescape(try r.text("text")))
            }
        }
    }

    /// A move's metadata; nil for a move the data gives none for (no category).
    private static func moveMeta(_ r: TableReader.Row) throws -> MoveMeta? {
        guard !r.field("category").isEmpty else { return nil }
        func number(_ column: String) throws -> Int { try r.optionalInt(column, absentIsEmpty: true) ?? 0 }
        return MoveMeta(category: r.field("category").nilIfEmpty, ailment: r.field("ailment").nilIfEmpty,
                        ailmentChance: try number("ailment_chance"), flinchChance: try number("flinch_chance"),
                        critRate: try number("crit_rate"), drain: try number("drain"), healing: try number("healing"),
                        statChance: try number("stat_chance"),
                        statChanges: try r.pairs("stat_changes").map { StatChange(stat: $0.key, change: $0.value) },
                        minHits: try r.optionalInt("min_hits"), maxHits: try r.optionalInt("max_hits"),
                        minTurns: try r.optionalInt("min_turns"), maxTurns: try r.optionalInt("max_turns"))
    }

    /// The index numbers types, colours and habitats by slug in one byte each, and looks
    /// types and abilities up by id: a repeated one, or too many, is a corpus error (a
    /// damaged or hand-edited corpus), not a crash in ingest.
    static func requireDistinct(_ values: [String], file: String, what: String, limit: Int = .max) throws {
        if values.count > limit { throw CorpusError.format(file: file, line: 1, message: "more than \(limit) of \(what)s") }
        var seen = Set<String>()
        for (offset, value) in values.enumerated() where !seen.insert(value).inserted {
            throw CorpusError.format(file: file, line: offset + 2, message: "repeated \(what) '\(value)'")
        }
    }

    /// Reads the bundled corpus directory (`corpus/`).
    public init(directory: URL) throws {
        try self.init(tables: try TSV.readCorpus(from: directory))
    }
}

/// Typed access to one TSV row with errors that name the file, line and column.
struct TableReader {
    struct Row {
        let file: String
        let line: Int
        let columns: [String: Int]
        let fields: [String]

        func error(_ message: String) -> CorpusError { .format(file: file, line: line, message: message) }
        func string(_ column: String) throws -> String {
            guard let index = columns[column] else { throw CorpusError.format(file: file, line: 1, message: "missing column '\(column)'") }
            return fields[index]
        }
        func text(_ column: String) throws -> String {
            let value = try string(column)
            if value.isEmpty { throw error("empty '\(column)'") }
            return value
        }
        func optional(_ column: String) throws -> String? {
            let value = try string(column)
            return value.isEmpty ? nil : value
        }
        func int(_ column: String) throws -> Int {
            let value = try string(column)
            guard let number = Int(value) else { throw error("'\(column)' is not a whole number: '\(value)'") }
            return number
        }
        /// A column a corpus from before it lacks: empty there.
        func field(_ column: String) -> String {
            guard let index = columns[column] else { return "" }
            return fields[index]
        }
        func fieldList(_ column: String) -> [String] { field(column).split(separator: ",").map(String.init) }
        /// `slug=number` pairs joined by commas (a column a corpus lacks: none).
        func pairs(_ column: String) throws -> [(key: String, value: Int)] {
            try field(column).split(separator: ",").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1]) else { throw error("'\(column)' has a bad pair '\(pair)'") }
                return (String(parts[0]), value)
            }
        }
        func optionalInt(_ column: String, absentIsEmpty: Bool) throws -> Int? {
            if absentIsEmpty && columns[column] == nil { return nil }
            return try optionalInt(column)
        }
        func optionalInt(_ column: String) throws -> Int? {
            let value = try string(column)
            if value.isEmpty { return nil }
            guard let number = Int(value) else { throw error("'\(column)' is not a whole number: '\(value)'") }
            return number
        }
        func bool(_ column: String) throws -> Bool {
            switch try string(column) {
            case "1": return true
            case "0", "": return false
            case let other: throw error("'\(column)' is not 0 or 1: '\(other)'")
            }
        }
        func list(_ column: String) throws -> [String] {
            try string(column).split(separator: ",").map(String.init)
        }
    }

    mutating func rows<T>(_ tables: CorpusTables, _ stem: String, _ make: (Row) throws -> T) throws -> [T] {
        let table = try tables.table(stem)
        var columns: [String: Int] = [:]
        for (index, name) in table.columns.enumerated() { columns[name] = index }
        var result: [T] = []
        result.reserveCapacity(table.rows.count)
        for (offset, fields) in table.rows.enumerated() {
            result.append(try make(Row(file: "\(stem).tsv", line: offset + 2, columns: columns, fields: fields)))
        }
        return result
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
