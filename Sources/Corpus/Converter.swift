import Foundation

/// Turns a PokeAPI CSV checkout (its `data/v2/csv` directory) into the compact corpus
/// tables described in corpus/FORMAT.md: facts and names only, no flavour prose, every
/// id resolved to a slug, rows in a fixed order so the same input gives the same bytes.
public enum Converter {
    /// Every table `convert` reads (without `.csv`): what `ingest --csv URL` downloads.
    public static let csvFiles = [
        "languages", "types", "type_names", "type_efficacy", "abilities", "ability_names", "items", "item_names",
        "item_categories", "item_category_prose", "item_pockets", "item_pocket_names", "moves", "move_names",
        "move_damage_classes", "move_damage_class_prose", "generations", "generation_names", "pokemon", "pokemon_types",
        "pokemon_abilities", "pokemon_stats", "pokemon_forms", "pokemon_form_types", "pokemon_form_names",
        "pokemon_species", "pokemon_species_names", "pokemon_evolution", "pokemon_colors", "pokemon_color_names",
        "pokemon_habitats", "pokemon_habitat_names", "pokemon_shapes",
    ] + detailCSVFiles

    /// `convert`, with the synonyms of Pokémon Showdown's `aliases.ts` (its text) when
    /// given: the corpus, and the report of the nicknames that name nothing in it.
    public static func convert(csvDirectory directory: URL, showdownAliases: String?) throws -> (tables: CorpusTables, unmapped: String) {
        var tables = try convert(csvDirectory: directory)
        let showdown = try showdownAliases.map { try ShowdownAliases.synonyms(from: $0, corpus: tables) }
        tables.tables["synonyms"] = Synonyms.table(try shippedSynonyms(of: tables) + (showdown?.synonyms ?? []))
        return (tables, showdown?.report ?? "")
    }

    /// The synonyms pokesearch ships of its own for a corpus: the form words and the
    /// curated ones.
    static func shippedSynonyms(of tables: CorpusTables) throws -> [Synonym] {
        FormWords.synonyms + (try CuratedSynonyms.synonyms(of: tables))
    }

    public static func convert(csvDirectory directory: URL) throws -> CorpusTables {
        var reader = Reader(directory: directory)
        return try reader.convert()
    }
}

struct Reader {
    let directory: URL
    var cache: [String: CSVTable] = [:]

    init(directory: URL) { self.directory = directory }

    mutating func csv(_ name: String) throws -> CSVTable {
        if let table = cache[name] { return table }
        let table = try CSVTable.read(name + ".csv", in: directory)
        cache[name] = table
        return table
    }

    /// id → identifier for a PokeAPI table with `id` and `identifier` columns.
    mutating func slugs(_ name: String) throws -> [Int: String] {
        let table = try csv(name)
        try table.require("id", "identifier")
        var map: [Int: String] = [:]
        for row in table.records { if let id = row.int("id") { map[id] = row["identifier"] } }
        return map
    }

    mutating func convert() throws -> CorpusTables {
        let languages = try languageCodes()
        let typeSlugs = try slugs("types")
        let abilitySlugs = try slugs("abilities")
        let itemSlugs = try slugs("items")
        let moveSlugs = try slugs("moves")
        let speciesSlugs = try slugs("pokemon_species")
        let vocab = try vocabulary()

        var names = NameCollector(languages: languages)
        let pokemon = try pokemonTable(typeSlugs: typeSlugs, abilitySlugs: abilitySlugs, speciesSlugs: speciesSlugs, names: &names)
        let species = try speciesTable(vocab: vocab, names: &names)
        let evolutions = try evolutionTable(speciesSlugs: speciesSlugs, itemSlugs: itemSlugs, moveSlugs: moveSlugs, typeSlugs: typeSlugs)
        let moves = try movesTable(typeSlugs: typeSlugs, vocab: vocab, names: &names)
        let items = try itemsTable(vocab: vocab, names: &names)
        let abilities = try simpleTable("abilities", kind: "ability", nameTable: "ability_names", idColumn: "ability_id",
                                        extra: ["generation_id": "generation", "is_main_series": "is_main_series"], names: &names)
        let types = try typesTable(vocab: vocab, names: &names)
        let efficacy = try efficacyTable(typeSlugs: typeSlugs)
        try vocabularyNames(vocab: vocab, names: &names)

        var tables = CorpusTables(tables: [
            "pokemon": pokemon, "species": species, "evolutions": evolutions, "moves": moves, "items": items,
            "abilities": abilities, "types": types, "type_efficacy": efficacy,
            "form_names": try FormNameTable.build(languages: languages) { try csv($0) },
        ])
        tables.tables["synonyms"] = Synonyms.table(try Converter.shippedSynonyms(of: tables))
        var vocabulary = vocab
        try addDetails(to: &tables, vocab: &vocabulary, names: &names, languages: languages)
        tables.tables["vocab"] = vocabulary.table()
        tables.tables["names"] = names.table()
        return tables
    }

    mutating func languageCodes() throws -> [Int: String] {
        let table = try csv("languages")
        try table.require("id", "identifier")
        var codes: [Int: String] = [:]
        for row in table.records { if let id = row.int("id") { codes[id] = row["identifier"] } }
        return codes
    }

    mutating func vocabulary() throws -> Vocabulary {
        var vocab = Vocabulary()
        vocab.slugs["color"] = try slugs("pokemon_colors")
        vocab.slugs["habitat"] = try slugs("pokemon_habitats")
        vocab.slugs["shape"] = try slugs("pokemon_shapes")
        vocab.slugs["item-category"] = try slugs("item_categories")
        vocab.slugs["item-pocket"] = try slugs("item_pockets")
        vocab.slugs["damage-class"] = try slugs("move_damage_classes")
        vocab.slugs["generation"] = try slugs("generations")
        return vocab
    }

    mutating func vocabularyNames(vocab: Vocabulary, names: inout NameCollector) throws {
        let sources: [(group: String, table: String, idColumn: String)] = [
            ("color", "pokemon_color_names", "pokemon_color_id"),
            ("habitat", "pokemon_habitat_names", "pokemon_habitat_id"),
            ("item-category", "item_category_prose", "item_category_id"),
            ("item-pocket", "item_pocket_names", "item_pocket_id"),
            ("damage-class", "move_damage_class_prose", "move_damage_class_id"),
            ("generation", "generation_names", "generation_id"),
        ]
        try addVocabularyNames(sources, vocab: vocab, names: &names)
    }

    mutating func pokemonTable(typeSlugs: [Int: String], abilitySlugs: [Int: String], speciesSlugs: [Int: String],
                               names: inout NameCollector) throws -> Table {
        let pokemon = try csv("pokemon")
        try pokemon.require("id", "identifier", "species_id", "height", "weight", "is_default")
        var types: [Int: [(slot: Int, slug: String)]] = [:]
        for row in try csv("pokemon_types").records {
            guard let id = row.int("pokemon_id"), let type = row.int("type_id"), let slug = typeSlugs[type] else { continue }
            types[id, default: []].append((row.int("slot") ?? 0, slug))
        }
        var formTypes: [Int: [(slot: Int, slug: String)]] = [:]
        for row in try csv("pokemon_form_types").records {
            guard let id = row.int("pokemon_form_id"), let type = row.int("type_id"), let slug = typeSlugs[type] else { continue }
            formTypes[id, default: []].append((row.int("slot") ?? 0, slug))
        }
        var abilities: [Int: [(slot: Int, slug: String, hidden: Bool)]] = [:]
        for row in try csv("pokemon_abilities").records {
            guard let id = row.int("pokemon_id"), let ability = row.int("ability_id"), let slug = abilitySlugs[ability] else { continue }
            abilities[id, default: []].append((row.int("slot") ?? 0, slug, row["is_hidden"] == "1"))
        }
        var stats: [Int: [Int: Int]] = [:]
        for row in try csv("pokemon_stats").records {
            guard let id = row.int("pokemon_id"), let stat = row.int("stat_id"), let value = row.int("base_stat") else { continue }
            stats[id, default: [:]][stat] = value
        }
        // Names: species names for default Pokémon; a form's own Pokémon name ("Mega
        // Charizard X") otherwise, else the species name with the form name.
        let speciesNames = FormNameTable.speciesNames(try csv("pokemon_species_names"))
        let formNames = FormNameTable.formNames(try csv("pokemon_form_names"))
        let forms = try csv("pokemon_forms")
        try forms.require("id", "identifier", "form_identifier", "pokemon_id", "is_default", "is_battle_only", "is_mega")
        var pokemonSlugs: [Int: String] = [:]
        for row in pokemon.records { if let id = row.int("id") { pokemonSlugs[id] = row["identifier"] } }
        // A Pokémon's own form is its default form, or (where the data marks none default)
        // the form with the Pokémon's own identifier; every other form is cosmetic.
        var defaultForm: [Int: CSVTable.Row] = [:]
        var cosmeticForms: [Int: [CSVTable.Row]] = [:]
        for row in forms.records {
            guard let pokemonID = row.int("pokemon_id") else { continue }
            if row["is_default"] == "1" || row["identifier"] == pokemonSlugs[pokemonID] {
                defaultForm[pokemonID] = row
            }
        }
        for row in forms.records {
            guard let pokemonID = row.int("pokemon_id"), defaultForm[pokemonID]?["id"] != row["id"] else { continue }
            cosmeticForms[pokemonID, default: []].append(row)
        }

        func formDisplayNames(formID: Int?, species: Int) -> [Int: String] {
            FormNames.displayNames(species: speciesNames[species] ?? [:], form: formID.flatMap { formNames[$0] } ?? [:])
        }

        var table = Table(columns: [
            "id", "slug", "species", "form_of", "is_default", "form", "is_mega", "is_battle_only", "height", "weight",
            "types", "abilities", "hidden_ability", "hp", "attack", "defense", "special_attack", "special_defense", "speed",
        ])
        func statColumns(_ id: Int) -> [String] {
            (1...6).map { stats[id]?[$0].map(String.init) ?? "" }
        }
        func typeList(_ entries: [(slot: Int, slug: String)]?) -> String {
            (entries ?? []).sorted { $0.slot < $1.slot }.map(\.slug).joined(separator: ",")
        }
        let rows = pokemon.records.sorted { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }
        var order = 0
        for row in rows {
            guard let id = row.int("id"), let species = row.int("species_id") else { continue }
            let ownAbilities = (abilities[id] ?? []).sorted { $0.slot < $1.slot }
            let visible = ownAbilities.filter { !$0.hidden }.map(\.slug).joined(separator: ",")
            let hidden = ownAbilities.first { $0.hidden }?.slug ?? ""
            let form = defaultForm[id]
            let isDefault = row["is_default"] == "1"
            table.rows.append([
                String(id), row["identifier"], String(species), "", isDefault ? "1" : "0", form?["form_identifier"] ?? "",
                form?["is_mega"] ?? "0", form?["is_battle_only"] ?? "0", row["height"], row["weight"],
                typeList(types[id]), visible, hidden,
            ] + statColumns(id))
            let pokemonNames = isDefault ? (speciesNames[species] ?? [:]) : formDisplayNames(formID: form?.int("id"), species: species)
            order += 1
            for (lang, name) in pokemonNames { names.add(kind: "pokemon", id: id, slug: row["identifier"], order: order, language: lang, name: name) }

            // Cosmetic forms (shellos-east, unown-b) have no row of their own in `pokemon`:
            // they share this Pokémon's facts, except types where the form has its own.
            for cosmetic in (cosmeticForms[id] ?? []).sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
                guard let formID = cosmetic.int("id") else { continue }
                let ownTypes = formTypes[formID].map { typeList($0) } ?? typeList(types[id])
                table.rows.append([
                    String(formID), cosmetic["identifier"], String(species), String(id), "0", cosmetic["form_identifier"],
                    cosmetic["is_mega"], cosmetic["is_battle_only"], row["height"], row["weight"],
                    ownTypes, visible, hidden,
                ] + statColumns(id))
                order += 1
                for (lang, name) in formDisplayNames(formID: formID, species: species) {
                    names.add(kind: Kind.form.rawValue, id: formID, slug: cosmetic["identifier"], order: order, language: lang, name: name)
                }
            }
        }
        return table
    }

    mutating func speciesTable(vocab: Vocabulary, names: inout NameCollector) throws -> Table {
        let species = try csv("pokemon_species")
        try species.require("id", "identifier", "generation_id", "evolves_from_species_id", "evolution_chain_id",
                            "color_id", "habitat_id", "is_baby", "is_legendary", "is_mythical")
        let slugs = try self.slugs("pokemon_species")
        var table = Table(columns: [
            "id", "slug", "generation", "evolves_from", "evolution_chain", "color", "habitat", "shape",
            "is_baby", "is_legendary", "is_mythical", "capture_rate", "gender_rate",
        ])
        for row in species.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let id = row.int("id") else { continue }
            table.rows.append([
                String(id), row["identifier"], row["generation_id"],
                row.int("evolves_from_species_id").flatMap { slugs[$0] } ?? "", row["evolution_chain_id"],
                vocab.slug("color", row.int("color_id")), vocab.slug("habitat", row.int("habitat_id")),
                vocab.slug("shape", row.int("shape_id")),
                row["is_baby"], row["is_legendary"], row["is_mythical"], row["capture_rate"], row["gender_rate"],
            ])
        }
        for row in try csv("pokemon_species_names").records {
            guard let id = row.int("pokemon_species_id"), let slug = slugs[id], let lang = row.int("local_language_id") else { continue }
            names.add(kind: "genus", id: id, slug: slug, order: id, language: lang, name: row["genus"])
        }
        return table
    }

    /// PokeAPI's evolution_triggers table is not among the CSVs we read; its ids are stable.
    static let evolutionTriggers = [
        1: "level-up", 2: "trade", 3: "use-item", 4: "shed", 5: "spin", 6: "tower-of-darkness",
        7: "tower-of-waters", 8: "three-critical-hits", 9: "take-damage", 10: "other",
        11: "agile-style-move", 12: "strong-style-move", 13: "recoil-damage", 14: "use-move",
        15: "three-defeated-bisharp", 16: "gimmighoul-coins",
    ]

    mutating func evolutionTable(speciesSlugs: [Int: String], itemSlugs: [Int: String], moveSlugs: [Int: String],
                                 typeSlugs: [Int: String]) throws -> Table {
        let evolution = try csv("pokemon_evolution")
        try evolution.require("id", "evolved_species_id", "evolution_trigger_id")
        // Each condition column, written as name=value when set; ids resolved to slugs.
        let references: [String: (label: String, slugs: [Int: String])] = [
            "trigger_item_id": ("item", itemSlugs), "held_item_id": ("held_item", itemSlugs),
            "known_move_id": ("known_move", moveSlugs), "known_move_type_id": ("known_move_type", typeSlugs),
            "party_species_id": ("party_species", speciesSlugs), "party_type_id": ("party_type", typeSlugs),
            "trade_species_id": ("trade_species", speciesSlugs), "used_move_id": ("used_move", moveSlugs),
        ]
        let skipped: Set<String> = ["id", "evolved_species_id", "evolution_trigger_id", "version_group_id", "is_default"]
        let conditionColumns = evolution.columns.sorted { $0.value < $1.value }.map(\.key).filter { !skipped.contains($0) }
        var table = Table(columns: ["species", "trigger", "conditions", "is_default"])
        for row in evolution.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let species = row.int("evolved_species_id"), let slug = speciesSlugs[species] else { continue }
            let trigger = row.int("evolution_trigger_id").map { Self.evolutionTriggers[$0] ?? "trigger-\($0)" } ?? ""
            var conditions: [String] = []
            for column in conditionColumns {
                let value = row[column]
                // (0 is "none" for most columns, but for relative_physical_stats it is Attack = Defense.)
                if value.isEmpty || value == "0" && column != "minimum_level" && column != "relative_physical_stats" { continue }
                if let reference = references[column] {
                    conditions.append("\(reference.label)=\(Int(value).flatMap { reference.slugs[$0] } ?? value)")
                } else {
                    let label = column.hasSuffix("_id") ? String(column.dropLast(3)) : column
                    conditions.append("\(label.replacingOccurrences(of: "minimum_", with: "min_"))=\(value)")
                }
            }
            table.rows.append([slug, trigger, conditions.joined(separator: ";"), row["is_default"].isEmpty ? "1" : row["is_default"]])
        }
        return table
    }

    mutating func movesTable(typeSlugs: [Int: String], vocab: Vocabulary, names: inout NameCollector) throws -> Table {
        let moves = try csv("moves")
        try moves.require("id", "identifier", "generation_id", "type_id", "power", "pp", "accuracy", "damage_class_id")
        var table = Table(columns: ["id", "slug", "generation", "type", "damage_class", "power", "accuracy", "pp", "priority"])
        for row in moves.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let id = row.int("id") else { continue }
            table.rows.append([
                String(id), row["identifier"], row["generation_id"], row.int("type_id").flatMap { typeSlugs[$0] } ?? "",
                vocab.slug("damage-class", row.int("damage_class_id")), row["power"], row["accuracy"], row["pp"], row["priority"],
            ])
        }
        try addNames(kind: "move", nameTable: "move_names", idColumn: "move_id", slugs: try slugs("moves"), names: &names)
        return table
    }

    mutating func itemsTable(vocab: Vocabulary, names: inout NameCollector) throws -> Table {
        let items = try csv("items")
        try items.require("id", "identifier", "category_id", "cost")
        var pocketOfCategory: [Int: Int] = [:]
        for row in try csv("item_categories").records {
            if let id = row.int("id"), let pocket = row.int("pocket_id") { pocketOfCategory[id] = pocket }
        }
        var table = Table(columns: ["id", "slug", "category", "pocket", "cost", "fling_power"])
        for row in items.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let id = row.int("id") else { continue }
            let category = row.int("category_id")
            table.rows.append([
                String(id), row["identifier"], vocab.slug("item-category", category),
                vocab.slug("item-pocket", category.flatMap { pocketOfCategory[$0] }), row["cost"], row["fling_power"],
            ])
        }
        try addNames(kind: "item", nameTable: "item_names", idColumn: "item_id", slugs: try slugs("items"), names: &names)
        return table
    }

    mutating func typesTable(vocab: Vocabulary, names: inout NameCollector) throws -> Table {
        let types = try csv("types")
        try types.require("id", "identifier", "generation_id")
        var table = Table(columns: ["id", "slug", "generation", "damage_class"])
        for row in types.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let id = row.int("id") else { continue }
            table.rows.append([String(id), row["identifier"], row["generation_id"], vocab.slug("damage-class", row.int("damage_class_id"))])
        }
        try addNames(kind: "type", nameTable: "type_names", idColumn: "type_id", slugs: try slugs("types"), names: &names)
        return table
    }

    mutating func simpleTable(_ name: String, kind: String, nameTable: String, idColumn: String, extra: KeyValuePairs<String, String>,
                              names: inout NameCollector) throws -> Table {
        let source = try csv(name)
        try source.require("id", "identifier")
        var table = Table(columns: ["id", "slug"] + extra.map(\.value))
        for row in source.records.sorted(by: { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }) {
            guard let id = row.int("id") else { continue }
            table.rows.append([String(id), row["identifier"]] + extra.map { row[$0.key] })
        }
        try addNames(kind: kind, nameTable: nameTable, idColumn: idColumn, slugs: try slugs(name), names: &names)
        return table
    }

    mutating func efficacyTable(typeSlugs: [Int: String]) throws -> Table {
        let efficacy = try csv("type_efficacy")
        try efficacy.require("damage_type_id", "target_type_id", "damage_factor")
        var table = Table(columns: ["attacking", "defending", "factor"])
        let rows = efficacy.records.sorted {
            (($0.int("damage_type_id") ?? 0), ($0.int("target_type_id") ?? 0)) < (($1.int("damage_type_id") ?? 0), ($1.int("target_type_id") ?? 0))
        }
        for row in rows {
            guard let attacking = row.int("damage_type_id").flatMap({ typeSlugs[$0] }),
                  let defending = row.int("target_type_id").flatMap({ typeSlugs[$0] }) else { continue }
            table.rows.append([attacking, defending, row["damage_factor"]])
        }
        return table
    }

    mutating func addNames(kind: String, nameTable: String, idColumn: String, slugs: [Int: String], names: inout NameCollector) throws {
        let table = try csv(nameTable)
        try table.require(idColumn, "local_language_id", "name")
        for row in table.records {
            guard let id = row.int(idColumn), let slug = slugs[id], let lang = row.int("local_language_id") else { continue }
            names.add(kind: kind, id: id, slug: slug, order: id, language: lang, name: row["name"])
        }
    }
}

/// Small id → slug vocabularies (colours, habitats, item categories, …). The live-API sync
/// fills one too, so both paths write the same `vocab` table.
public struct Vocabulary {
    public static let groups = ["color", "habitat", "shape", "item-category", "item-pocket", "damage-class", "generation",
                                "egg-group", "growth-rate", "pokedex", "stat", "move-target", "move-ailment", "move-category",
                                "move-flag", "item-flag", "version-group"]
    public var slugs: [String: [Int: String]] = [:]
    public init() {}
    func slug(_ group: String, _ id: Int?) -> String { id.flatMap { slugs[group]?[$0] } ?? "" }

    public func table() -> Table {
        var table = Table(columns: ["group", "id", "slug"])
        for group in Self.groups {
            for (id, slug) in (slugs[group] ?? [:]).sorted(by: { $0.key < $1.key }) {
                table.rows.append([group, String(id), slug])
            }
        }
        return table
    }
}

/// Collects names and writes them sorted: by kind, entity order, then language id. Shared
/// by the CSV converter and the live-API sync.
public struct NameCollector {
    /// PokeAPI language id → our language code; names in other languages are dropped.
    let languages: [Int: String]
    var entries: [(kindOrder: Int, order: Int, slug: String, language: Int, row: [String])] = []
    static let kindOrder = ["pokemon", "form", "genus", "move", "ability", "item", "type", "color", "habitat", "item-category",
                            "item-pocket", "damage-class", "generation"] + Vocabulary.groups.suffix(from: 7)

    public init(languages: [Int: String]) { self.languages = languages }

    public mutating func add(kind: String, id: Int, slug: String, order: Int, language: Int, name: String) {
        let clean = Self.clean(name)
        guard !clean.isEmpty, let code = languages[language] else { return }
        let kindOrder = Self.kindOrder.firstIndex(of: kind) ?? Self.kindOrder.count
        entries.append((kindOrder, order, slug, language, [kind, String(id), slug, code, clean]))
    }

    /// A name as a TSV field: no TAB or line break inside, no spaces around.
    static func clean(_ name: String) -> String {
        name.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: "").trimmingCharacters(in: .whitespaces)
    }

    public func table() -> Table {
        let sorted = entries.sorted {
            ($0.kindOrder, $0.order, $0.slug, $0.language) < ($1.kindOrder, $1.order, $1.slug, $1.language)
        }
        var seen = Set<[String]>()
        var table = Table(columns: ["kind", "id", "slug", "lang", "name"])
        for entry in sorted where seen.insert(Array(entry.row.prefix(4))).inserted { table.rows.append(entry.row) }
        return table
    }
}

/// How forms are named, for the converter and the live sync alike.
public enum FormNames {
    /// A form is named only in the languages that name it: its own Pokémon name ("Mega
    /// Charizard X"), or the species name with its form name ("Shellos (East Sea)"); the
    /// bare species name there would make every form an exact match for its species. A form
    /// no language names takes the species names. Keys are PokeAPI language ids.
    public static func displayNames(species: [Int: String], form: [Int: (form: String, pokemon: String)]) -> [Int: String] {
        var result: [Int: String] = [:]
        for (language, names) in form {
            if !names.pokemon.isEmpty {
                result[language] = names.pokemon
            } else if !names.form.isEmpty, let base = species[language] {
                result[language] = "\(base) (\(names.form))"
            }
        }
        return result.isEmpty ? species : result
    }
}
