import Foundation

extension Converter {
    /// The tables behind a Pokédex page beyond names and the search facts: breeding and
    /// training facts, regional numbers, move metadata and machines, item flags, and prose.
    static let detailCSVFiles = [
        "version_groups", "egg_groups", "egg_group_prose", "pokemon_egg_groups", "pokedexes", "pokedex_prose",
        "pokemon_dex_numbers", "stats", "stat_names", "move_meta", "move_meta_ailments", "move_meta_ailment_names",
        "move_meta_categories", "move_meta_stat_changes", "move_targets", "move_target_prose", "move_flags",
        "move_flag_map", "move_flag_prose", "machines", "item_flags", "item_flag_map", "item_flag_prose",
        "item_fling_effect_prose", "move_effect_prose", "ability_prose", "ability_flavor_text", "item_prose",
        "pokemon_species_prose", "versions", "version_names",
    ]
}

/// Prose fields hold paragraphs: a line break is written `\n` and a backslash `\\`, so that a
/// row stays one line of the TSV file.
public enum ProseText {
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\t", with: " ") {
            switch character {
            case "\\": result += "\\\\"
            case "\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    public static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension Reader {
    /// PokeAPI's growth_rates table is not among the CSVs; its ids are stable.
    static let growthRates = [1: "slow", 2: "medium", 3: "fast", 4: "medium-slow", 5: "slow-then-very-fast", 6: "fast-then-very-slow"]

    /// Adds the detail columns to the pokemon, species, moves and items tables, the machines
    /// and prose tables, and the vocabularies (with their names) the details refer to.
    mutating func addDetails(to tables: inout CorpusTables, vocab: inout Vocabulary, names: inout NameCollector,
                             languages: [Int: String]) throws {
        for (group, table) in [("egg-group", "egg_groups"), ("pokedex", "pokedexes"), ("stat", "stats"), ("move-target", "move_targets"),
                               ("move-ailment", "move_meta_ailments"), ("move-category", "move_meta_categories"),
                               ("move-flag", "move_flags"), ("item-flag", "item_flags"), ("version-group", "version_groups")] {
            vocab.slugs[group] = try slugs(table)
        }
        vocab.slugs["growth-rate"] = Self.growthRates
        let sources: [(group: String, table: String, idColumn: String)] = [
            ("egg-group", "egg_group_prose", "egg_group_id"), ("pokedex", "pokedex_prose", "pokedex_id"),
            ("stat", "stat_names", "stat_id"), ("move-target", "move_target_prose", "move_target_id"),
            ("move-ailment", "move_meta_ailment_names", "move_meta_ailment_id"), ("move-flag", "move_flag_prose", "move_flag_id"),
            ("item-flag", "item_flag_prose", "item_flag_id"),
        ]
        try addVocabularyNames(sources, vocab: vocab, names: &names)
        try versionGroupNames(vocab: vocab, names: &names)
        tables.tables["pokemon"] = try pokemonDetails(try tables.table("pokemon"), vocab: vocab)
        tables.tables["species"] = try speciesDetails(try tables.table("species"), vocab: vocab)
        tables.tables["moves"] = try moveDetails(try tables.table("moves"), vocab: vocab)
        tables.tables["items"] = try itemDetails(try tables.table("items"), vocab: vocab)
        tables.tables["machines"] = try machinesTable(vocab: vocab)
        tables.tables["prose"] = try proseTable(languages: languages, vocab: vocab)
    }

    /// The names of vocabulary entries, each group's from its names table.
    mutating func addVocabularyNames(_ sources: [(group: String, table: String, idColumn: String)], vocab: Vocabulary,
                                     names: inout NameCollector) throws {
        for source in sources {
            let table = try csv(source.table)
            try table.require(source.idColumn, "local_language_id", "name")
            let slugs = vocab.slugs[source.group] ?? [:]
            for row in table.records {
                guard let id = row.int(source.idColumn), let slug = slugs[id], let lang = row.int("local_language_id") else { continue }
                names.add(kind: source.group, id: id, slug: slug, order: id, language: lang, name: row["name"])
            }
        }
    }

    /// A version group is named by its versions' names ("Red / Blue"), in the languages
    /// that name them all.
    mutating func versionGroupNames(vocab: Vocabulary, names: inout NameCollector) throws {
        var versionsOfGroup: [Int: [Int]] = [:]
        for row in try csv("versions").records {
            if let id = row.int("id"), let group = row.int("version_group_id") { versionsOfGroup[group, default: []].append(id) }
        }
        var versionNames: [Int: [Int: String]] = [:]
        for row in try csv("version_names").records {
            if let id = row.int("version_id"), let language = row.int("local_language_id") { versionNames[id, default: [:]][language] = row["name"] }
        }
        for (group, slug) in (vocab.slugs["version-group"] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let versions = (versionsOfGroup[group] ?? []).sorted()
            guard let first = versions.first else { continue }
            for language in (versionNames[first] ?? [:]).keys.sorted() {
                let parts = versions.compactMap { versionNames[$0]?[language] }
                if parts.count == versions.count {
                    names.add(kind: "version-group", id: group, slug: slug, order: group, language: language, name: parts.joined(separator: " / "))
                }
            }
        }
    }

    /// `slug=value` pairs joined by commas.


    mutating func pokemonDetails(_ table: Table, vocab: Vocabulary) throws -> Table {
        var generationOfGroup: [Int: String] = [:]
        for row in try csv("version_groups").records { if let id = row.int("id") { generationOfGroup[id] = row["generation_id"] } }
        // A form's generation is that of the version group that introduced it; a Pokémon's,
        // its own form's (the default one, or the one named as the Pokémon is).
        var formGeneration: [Int: String] = [:], pokemonGeneration: [Int: String] = [:]
        var pokemonSlugs: [Int: String] = [:], baseExperience: [Int: String] = [:]
        for row in try csv("pokemon").records {
            guard let id = row.int("id") else { continue }
            pokemonSlugs[id] = row["identifier"]
            baseExperience[id] = row["base_experience"]
        }
        for row in try csv("pokemon_forms").records {
            guard let id = row.int("id"), let generation = row.int("introduced_in_version_group_id").flatMap({ generationOfGroup[$0] })
            else { continue }
            formGeneration[id] = generation
            if let pokemon = row.int("pokemon_id"), row["is_default"] == "1" || row["identifier"] == pokemonSlugs[pokemon] {
                pokemonGeneration[pokemon] = generation
            }
        }
        var effort: [Int: [(String, Int)]] = [:]
        for row in try csv("pokemon_stats").records {
            guard let id = row.int("pokemon_id"), let stat = row.int("stat_id"), let value = row.int("effort"), value > 0,
                  let slug = vocab.slugs["stat"]?[stat] else { continue }
            effort[id, default: []].append((slug, value))
        }
        let formOf = try table.index(of: "form_of", in: "pokemon.tsv")
        return table.adding(["generation", "base_experience", "ev_yield"]) { row in
            let id = Int(row[0]) ?? 0
            let pokemon = Int(row[formOf]) ?? id
            let generation = row[formOf].isEmpty ? pokemonGeneration[id] : formGeneration[id]
            return [generation ?? "", baseExperience[pokemon] ?? "", Table.pairs(effort[pokemon] ?? [])]
        }
    }

    mutating func speciesDetails(_ table: Table, vocab: Vocabulary) throws -> Table {
        var facts: [Int: CSVTable.Row] = [:]
        for row in try csv("pokemon_species").records { if let id = row.int("id") { facts[id] = row } }
        var eggGroups: [Int: [String]] = [:]
        for row in try csv("pokemon_egg_groups").records {
            guard let id = row.int("species_id"), let slug = row.int("egg_group_id").flatMap({ vocab.slugs["egg-group"]?[$0] }) else { continue }
            eggGroups[id, default: []].append(slug)
        }
        // Regional numbers, in Pokédex id order; the national number is the species id.
        var numbers: [Int: [(dex: Int, slug: String, number: Int)]] = [:]
        for row in try csv("pokemon_dex_numbers").records {
            guard let id = row.int("species_id"), let dex = row.int("pokedex_id"), dex != 1,
                  let slug = vocab.slugs["pokedex"]?[dex], let number = row.int("pokedex_number") else { continue }
            numbers[id, default: []].append((dex, slug, number))
        }
        return table.adding(["base_friendship", "hatch_counter", "growth_rate", "egg_groups", "dex_numbers"]) { row in
            let id = Int(row[0]) ?? 0
            let species = facts[id]
            return [species?["base_happiness"] ?? "", species?["hatch_counter"] ?? "",
                    vocab.slug("growth-rate", species?.int("growth_rate_id")),
                    (eggGroups[id] ?? []).joined(separator: ","),
                    Table.pairs((numbers[id] ?? []).sorted { $0.dex < $1.dex }.map { ($0.slug, $0.number) })]
        }
    }

    mutating func moveDetails(_ table: Table, vocab: Vocabulary) throws -> Table {
        var moves: [Int: CSVTable.Row] = [:]
        for row in try csv("moves").records { if let id = row.int("id") { moves[id] = row } }
        var meta: [Int: CSVTable.Row] = [:]
        for row in try csv("move_meta").records { if let id = row.int("move_id") { meta[id] = row } }
        var statChanges: [Int: [(String, Int)]] = [:]
        for row in try csv("move_meta_stat_changes").records {
            guard let id = row.int("move_id"), let slug = row.int("stat_id").flatMap({ vocab.slugs["stat"]?[$0] }),
                  let change = row.int("change") else { continue }
            statChanges[id, default: []].append((slug, change))
        }
        var flags: [Int: [String]] = [:]
        for row in try csv("move_flag_map").records {
            guard let id = row.int("move_id"), let slug = row.int("move_flag_id").flatMap({ vocab.slugs["move-flag"]?[$0] }) else { continue }
            flags[id, default: []].append(slug)
        }
        let columns = ["target", "effect", "effect_chance", "category", "ailment", "ailment_chance", "flinch_chance", "crit_rate",
                       "drain", "healing", "stat_chance", "stat_changes", "min_hits", "max_hits", "min_turns", "max_turns", "flags"]
        return table.adding(columns) { row in
            let id = Int(row[0]) ?? 0
            let move = moves[id]
            var values = [vocab.slug("move-target", move?.int("target_id")), move?["effect_id"] ?? "", move?["effect_chance"] ?? ""]
            if let m = meta[id] {
                // "none" and "unknown" ailments say nothing: left empty.
                let ailment = m.int("meta_ailment_id").flatMap { $0 > 0 ? vocab.slugs["move-ailment"]?[$0] : nil } ?? ""
                values += [vocab.slug("move-category", m.int("meta_category_id")), ailment, m["ailment_chance"], m["flinch_chance"],
                           m["crit_rate"], m["drain"], m["healing"], m["stat_chance"], Table.pairs(statChanges[id] ?? []),
                           m["min_hits"], m["max_hits"], m["min_turns"], m["max_turns"]]
            } else {
                values += Array(repeating: "", count: 13)
            }
            return values + [(flags[id] ?? []).sorted().joined(separator: ",")]
        }
    }

    mutating func itemDetails(_ table: Table, vocab: Vocabulary) throws -> Table {
        var fling: [Int: String] = [:]
        for row in try csv("items").records { if let id = row.int("id") { fling[id] = row["fling_effect_id"] } }
        var flags: [Int: [String]] = [:]
        for row in try csv("item_flag_map").records {
            guard let id = row.int("item_id"), let slug = row.int("item_flag_id").flatMap({ vocab.slugs["item-flag"]?[$0] }) else { continue }
            flags[id, default: []].append(slug)
        }
        return table.adding(["fling_effect", "flags"]) { row in
            let id = Int(row[0]) ?? 0
            return [fling[id] ?? "", (flags[id] ?? []).joined(separator: ",")]
        }
    }

    /// One row per TM, TR or HM of a version group: the move it teaches and its item.
    mutating func machinesTable(vocab: Vocabulary) throws -> Table {
        let machines = try csv("machines")
        try machines.require("machine_number", "version_group_id", "item_id", "move_id")
        let moveSlugs = try slugs("moves"), itemSlugs = try slugs("items")
        var table = Table(columns: ["move", "version_group", "item"])
        let rows = machines.records.compactMap { row -> (move: Int, group: Int, number: Int, row: [String])? in
            guard let move = row.int("move_id"), let group = row.int("version_group_id"), let moveSlug = moveSlugs[move],
                  let groupSlug = vocab.slugs["version-group"]?[group], let item = row.int("item_id").flatMap({ itemSlugs[$0] })
            else { return nil }
            return (move, group, row.int("machine_number") ?? 0, [moveSlug, groupSlug, item])
        }
        table.rows = rows.sorted { ($0.move, $0.group, $0.number) < ($1.move, $1.group, $1.number) }.map(\.row)
        return table
    }

    /// Prose by entity and language: a move effect's text, an ability's effects and newest flavour text, an item's effects, a species' form
    /// description, a fling effect's text.
    mutating func proseTable(languages: [Int: String], vocab: Vocabulary) throws -> Table {
        struct Entry { var kindOrder: Int; var id: Int; var language: Int; var field: Int; var row: [String] }
        var entries: [Entry] = []
        let fields = ["short", "effect", "flavor", "forms"]
        func add(_ kind: String, _ kindOrder: Int, _ id: Int, _ slug: String, _ language: Int?, _ field: String, _ text: String) {
            let clean = ProseText.escape(text)
            guard let language, let code = languages[language], !clean.isEmpty, let fieldOrder = fields.firstIndex(of: field) else { return }
            entries.append(Entry(kindOrder: kindOrder, id: id, language: language, field: fieldOrder, row: [kind, String(id), slug, code, field, clean]))
        }
        // Move effects once per effect (many moves share one): a move's prose is its
        // effect's, with its own effect chance filled in when read (`Corpus.prose(ofMove:)`).
        for row in try csv("move_effect_prose").records {
            guard let effect = row.int("move_effect_id") else { continue }
            add("move-effect", 0, effect, String(effect), row.int("local_language_id"), "short", row["short_effect"])
            add("move-effect", 0, effect, String(effect), row.int("local_language_id"), "effect", row["effect"])
        }
        let abilitySlugs = try slugs("abilities")
        for row in try csv("ability_prose").records {
            guard let id = row.int("ability_id"), let slug = abilitySlugs[id] else { continue }
            add("ability", 1, id, slug, row.int("local_language_id"), "short", row["short_effect"])
            add("ability", 1, id, slug, row.int("local_language_id"), "effect", row["effect"])
        }
        // Flavour text: the newest version group's (by its order) in each language.
        var groupOrder: [Int: Int] = [:]
        for row in try csv("version_groups").records { if let id = row.int("id") { groupOrder[id] = row.int("order") ?? id } }
        var newest: [Int: [Int: (order: Int, text: String)]] = [:]
        for row in try csv("ability_flavor_text").records {
            guard let id = row.int("ability_id"), let language = row.int("language_id"),
                  let order = row.int("version_group_id").flatMap({ groupOrder[$0] }) else { continue }
            if let current = newest[id]?[language], current.order >= order { continue }
            newest[id, default: [:]][language] = (order, row["flavor_text"])
        }
        for (id, texts) in newest {
            guard let slug = abilitySlugs[id] else { continue }
            for (language, entry) in texts { add("ability", 1, id, slug, language, "flavor", entry.text) }
        }
        let itemSlugs = try slugs("items")
        for row in try csv("item_prose").records {
            guard let id = row.int("item_id"), let slug = itemSlugs[id] else { continue }
            add("item", 2, id, slug, row.int("local_language_id"), "short", row["short_effect"])
            add("item", 2, id, slug, row.int("local_language_id"), "effect", row["effect"])
        }
        let speciesSlugs = try slugs("pokemon_species")
        for row in try csv("pokemon_species_prose").records {
            guard let id = row.int("pokemon_species_id"), let slug = speciesSlugs[id] else { continue }
            add("species", 3, id, slug, row.int("local_language_id"), "forms", row["form_description"])
        }
        for row in try csv("item_fling_effect_prose").records {
            guard let id = row.int("item_fling_effect_id") else { continue }
            add("fling-effect", 4, id, String(id), row.int("local_language_id"), "effect", row["effect"])
        }
        var table = Table(columns: ProseTable.columns)
        table.rows = entries.sorted { ($0.kindOrder, $0.id, $0.language, $0.field) < ($1.kindOrder, $1.id, $1.language, $1.field) }.map(\.row)
        return table
    }
}

/// The prose table's layout (corpus/FORMAT.md).
public enum ProseTable {
    public static let columns = ["kind", "id", "slug", "lang", "field", "text"]
}

extension Corpus {
    /// A move's prose: its own (from the live API) and its effect's (from the CSVs), with
    /// its effect chance filled in (`EffectChance`).
    /// (`candidates`: the prose to look through, when the caller has it grouped; all by default.)
    public func prose(ofMove move: Move, among candidates: [Prose]? = nil) -> [Prose] {
        (candidates ?? prose).compactMap { p in
            guard p.kind == "move" && p.id == move.id && p.slug == move.slug || p.kind == "move-effect" && p.id == move.effect else { return nil }
            var filled = p
            filled.kind = "move"
            filled.id = move.id
            filled.slug = move.slug
            filled.text = EffectChance.fill(p.text, chance: move.effectChance, language: p.language)
            return filled
        }
    }
}

extension Table {
    /// This table with more columns, each row's values given by the row.
    public func adding(_ columns: [String], _ values: (_ row: [String]) -> [String]) -> Table {
        var result = Table(columns: self.columns + columns)
        result.rows = rows.map { $0 + values($0) }
        return result
    }

    /// `slug=value` pairs joined by commas, as the corpus writes them.
    public static func pairs(_ entries: [(String, Int)]) -> String { entries.map { "\($0.0)=\($0.1)" }.joined(separator: ",") }
}
