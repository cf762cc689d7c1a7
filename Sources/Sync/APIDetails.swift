import Corpus

/// The Pokédex page's facts and prose the REST API has, in the corpus's columns and prose
/// table (corpus/FORMAT.md). What only the CSVs have (move effect ids and flags, a form's
/// generation, machines, fling effect texts, the names of the new vocabularies) is left empty.
enum APIDetails {
    static func add(to tables: inout CorpusTables, _ data: APIData) {
        let pokemon = Dictionary(data.pokemon.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        tables.tables["pokemon"] = tables.tables["pokemon"]?.adding(["generation", "base_experience", "ev_yield"]) { row in
            // (A cosmetic form has its Pokémon's facts.)
            let id = Int(row[3]) ?? Int(row[0]) ?? 0
            let p = pokemon[id]
            let effort = (p?.stats ?? []).compactMap { stat in stat.effort.flatMap { $0 > 0 ? (stat.stat.name ?? "", $0) : nil } }
            return ["", APIMapper.text(p?.base_experience), Table.pairs(effort)]
        }
        let species = Dictionary(data.species.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        tables.tables["species"] = tables.tables["species"]?.adding(["base_friendship", "hatch_counter", "growth_rate", "egg_groups", "dex_numbers"]) { row in
            let s = species[Int(row[0]) ?? 0]
            let numbers = (s?.pokedex_numbers ?? []).filter { $0.pokedex.name != "national" }.sorted { ($0.pokedex.id ?? 0) < ($1.pokedex.id ?? 0) }
            return [APIMapper.text(s?.base_happiness), APIMapper.text(s?.hatch_counter), s?.growth_rate?.name ?? "",
                    (s?.egg_groups ?? []).compactMap(\.name).joined(separator: ","),
                    Table.pairs(numbers.map { ($0.pokedex.name ?? "", $0.entry_number) })]
        }
        let moves = Dictionary(data.moves.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        tables.tables["moves"] = tables.tables["moves"]?.adding(["target", "effect", "effect_chance", "category", "ailment", "ailment_chance",
                                                                  "flinch_chance", "crit_rate", "drain", "healing", "stat_chance",
                                                                  "stat_changes", "min_hits", "max_hits", "min_turns", "max_turns", "flags"]) { row in
            let m = moves[Int(row[0]) ?? 0]
            var values = [m?.target?.name ?? "", "", APIMapper.text(m?.effect_chance)]
            if let meta = m?.meta {
                let ailment = meta.ailment?.name.flatMap { ["none", "unknown"].contains($0) ? nil : $0 } ?? ""
                let changes = (m?.stat_changes ?? []).map { ($0.stat.name ?? "", $0.change) }
                values += [(meta.category?.name ?? "").replacingOccurrences(of: "+", with: "-"), ailment,
                           APIMapper.text(meta.ailment_chance), APIMapper.text(meta.flinch_chance), APIMapper.text(meta.crit_rate),
                           APIMapper.text(meta.drain), APIMapper.text(meta.healing), APIMapper.text(meta.stat_chance), Table.pairs(changes),
                           APIMapper.text(meta.min_hits), APIMapper.text(meta.max_hits), APIMapper.text(meta.min_turns), APIMapper.text(meta.max_turns)]
            } else {
                values += Array(repeating: "", count: 13)
            }
            return values + [""]
        }
        let items = Dictionary(data.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        tables.tables["items"] = tables.tables["items"]?.adding(["fling_effect", "flags"]) { row in
            let i = items[Int(row[0]) ?? 0]
            return [APIMapper.text(i?.fling_effect?.id), (i?.attributes ?? []).compactMap(\.name).joined(separator: ",")]
        }
        tables.tables["machines"] = Table(columns: ["move", "version_group", "item"])
        tables.tables["prose"] = proseTable(data)
    }

    /// Effect entries, the newest flavour text per language (the API lists them oldest
    /// first), form descriptions, and a species' newest Pokédex entry per language.
    static func proseTable(_ data: APIData) -> Table {
        var rows: [[String]] = []
        func add(_ kind: String, _ id: Int, _ slug: String, _ field: String, _ entries: [APIText], _ text: (APIText) -> String?) {
            var newest: [String: String] = [:]
            for entry in entries {
                guard let language = entry.language.name, Language.codes.contains(language), let value = text(entry) else { continue }
                newest[language] = value
            }
            for (language, value) in newest {
                let clean = ProseText.escape(value.replacingOccurrences(of: "\u{0C}", with: " ").replacingOccurrences(of: "\u{AD}\n", with: ""))
                if !clean.isEmpty { rows.append([kind, String(id), slug, language, field, clean]) }
            }
        }
        for m in data.moves {
            add("move", m.id, m.name, "short", m.effect_entries ?? [], \.short_effect)
            add("move", m.id, m.name, "effect", m.effect_entries ?? [], \.effect)
            add("move", m.id, m.name, "flavor", m.flavor_text_entries ?? [], \.flavor_text)
        }
        for a in data.abilities {
            add("ability", a.id, a.name, "short", a.effect_entries ?? [], \.short_effect)
            add("ability", a.id, a.name, "effect", a.effect_entries ?? [], \.effect)
            add("ability", a.id, a.name, "flavor", a.flavor_text_entries ?? [], \.flavor_text)
        }
        for i in data.items {
            add("item", i.id, i.name, "short", i.effect_entries ?? [], \.short_effect)
            add("item", i.id, i.name, "effect", i.effect_entries ?? [], \.effect)
            add("item", i.id, i.name, "flavor", i.flavor_text_entries ?? [], \.text)
        }
        for s in data.species {
            add("species", s.id, s.name, "forms", s.form_descriptions ?? [], \.description)
            add("species", s.id, s.name, "dex", s.flavor_text_entries ?? [], \.flavor_text)
        }
        var table = Table(columns: ProseTable.columns)
        table.rows = rows.sorted { $0.lexicographicallyPrecedes($1) }
        return table
    }
}
