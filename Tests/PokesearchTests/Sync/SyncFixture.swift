import Corpus
import Foundation

/// A subset of the bundled corpus (the first evolution chains, with their Pokémon and forms,
/// every type and vocabulary, the first moves and items, the abilities used) and that subset
/// served as PokeAPI's REST API would serve it: absolute urls, offset/limit paging, names
/// per language with PokeAPI's language ids.
struct PokeAPIFixture {
    static let corpusDirectory = Fixture.corpusDirectory
    /// PokeAPI's language ids (languages.csv).
    static let languageIDs = ["ja-hrkt": 1, "ja-roma": 2, "ko": 3, "zh-hant": 4, "fr": 5, "de": 6, "es": 7, "it": 8, "en": 9,
                              "cs": 10, "ja": 11, "zh-hans": 12, "pt-br": 13, "es-419": 14]
    static let vocabularyEndpoints = ["color": "pokemon-color", "habitat": "pokemon-habitat", "shape": "pokemon-shape",
                                      "item-category": "item-category", "item-pocket": "item-pocket",
                                      "damage-class": "move-damage-class", "generation": "generation"]

    let subset: CorpusTables

    static let shared: PokeAPIFixture = PokeAPIFixture(maxChain: 10, maxMove: 30, maxItem: 30)

    init(maxChain: Int, maxMove: Int, maxItem: Int) {
        let full = try! TSV.readCorpus(from: Self.corpusDirectory)
        func rows(_ stem: String, _ keep: ([String: String]) -> Bool) -> Table {
            let table = full.tables[stem]!
            var result = Table(columns: table.columns)
            result.rows = table.rows.filter { keep(Dictionary(uniqueKeysWithValues: zip(table.columns, $0))) }
            return result
        }
        let species = rows("species") { Int($0["evolution_chain"]!)! <= maxChain }
        let speciesIDs = Set(species.rows.map { $0[0] })
        let speciesSlugs = Set(species.rows.map { $0[1] })
        let pokemon = rows("pokemon") { speciesIDs.contains($0["species"]!) }
        let abilities = Set(pokemon.rows.flatMap { row -> [String] in (row[11] + "," + row[12]).split(separator: ",").map(String.init) })
        let moves = rows("moves") { Int($0["id"]!)! <= maxMove }
        let items = rows("items") { Int($0["id"]!)! <= maxItem }
        let abilityTable = rows("abilities") { abilities.contains($0["slug"]!) }
        // Kind → "id slug" of the entities kept (a cosmetic form's id may equal another Pokémon's).
        func keys(_ table: Table) -> Set<String> { Set(table.rows.map { $0[0] + " " + $0[1] }) }
        let kept: [String: Set<String>] = [
            "pokemon": keys(pokemon), "form": keys(pokemon), "genus": keys(species), "move": keys(moves), "item": keys(items), "ability": keys(abilityTable),
        ]
        // What the REST API does not have is left out: move effect ids and flags, a form's
        // generation, machines, fling effect texts, the vocabularies of the Pokédex page.
        func blanking(_ table: Table, _ columns: Set<String>) -> Table {
            var result = table
            let positions = table.columns.indices.filter { columns.contains(table.columns[$0]) }
            result.rows = table.rows.map { row in var row = row; for i in positions { row[i] = "" }; return row }
            return result
        }
        let servedGroups = Set(Self.vocabularyEndpoints.keys)
        // A move's prose is its effect's, as the API gives it for the move.
        let effectOfMove = Dictionary(uniqueKeysWithValues: moves.rows.map { ($0[0], $0[moves.columns.firstIndex(of: "effect")!]) })
        let allProse = full.tables["prose"]!
        var prose = Table(columns: allProse.columns)
        for row in allProse.rows {
            switch row[0] {
            case "move-effect":
                for move in moves.rows where effectOfMove[move[0]] == row[1] { prose.rows.append(["move", move[0], move[1]] + row[3...]) }
            case "ability", "item", "species":
                let kept = ["ability": keys(abilityTable), "item": keys(items), "species": keys(species)][row[0]]!
                if kept.contains(row[1] + " " + row[2]) { prose.rows.append(row) }
            default:
                break
            }
        }
        subset = CorpusTables(tables: [
            "pokemon": blanking(pokemon, ["generation"]), "species": species,
            "evolutions": rows("evolutions") { speciesSlugs.contains($0["species"]!) },
            "moves": blanking(moves, ["effect", "flags"]), "items": items, "abilities": abilityTable, "types": full.tables["types"]!,
            "type_efficacy": full.tables["type_efficacy"]!, "vocab": rows("vocab") { servedGroups.contains($0["group"]!) },
            "names": rows("names") { row in
                kept[row["kind"]!].map { $0.contains(row["id"]! + " " + row["slug"]!) }
                    ?? !(Vocabulary.groups.contains(row["kind"]!) && !servedGroups.contains(row["kind"]!))
            },
            "machines": Table(columns: full.tables["machines"]!.columns), "prose": prose,
        ])
    }

    // MARK: Serving

    /// Routes every resource of the subset on `server`, with urls under `server.origin`.
    func serve(on server: TestHTTPServer) {
        let base = server.origin + "/api/v2"
        func records(_ stem: String) -> [[String: String]] {
            let table = subset.tables[stem]!
            return table.rows.map { Dictionary(uniqueKeysWithValues: zip(table.columns, $0)) }
        }
        var names: [String: [String: [(String, String)]]] = [:] // kind → id → [(lang, name)]
        for row in records("names") { names[row["kind"]!, default: [:]][row["id"]!, default: []].append((row["lang"]!, row["name"]!)) }
        func nameList(_ kind: String, _ id: String) -> [[String: Any]] {
            (names[kind]?[id] ?? []).map { ["name": $0.1, "language": ref($0.0, "language", Self.languageIDs[$0.0]!)] }
        }
        func ref(_ name: String, _ endpoint: String, _ id: Any) -> [String: Any] { ["name": name, "url": "\(base)/\(endpoint)/\(id)/"] }
        func number(_ text: String?) -> Any { text.flatMap { Int($0) } ?? NSNull() }
        func detail(_ endpoint: String, _ id: String, _ object: [String: Any], name: String? = nil) {
            let body = json(object)
            server.route("/api/v2/\(endpoint)/\(id)/", json: body)
            if let name { server.route("/api/v2/\(endpoint)/\(name)/", json: body) }
        }
        var lists: [String: [(String, String)]] = [:]
        // Prose as the API gives it: effect entries, flavour texts, form descriptions.
        let prose = records("prose")
        func texts(_ kind: String, _ id: String, _ field: String) -> [(language: String, text: String)] {
            prose.filter { $0["kind"] == kind && $0["id"] == id && $0["field"] == field }.map { ($0["lang"]!, ProseText.unescape($0["text"]!)) }
        }
        func languageRef(_ code: String) -> [String: Any] { ref(code, "language", Self.languageIDs[code]!) }
        func effectEntries(_ kind: String, _ id: String) -> [[String: Any]] {
            let short = Dictionary(texts(kind, id, "short"), uniquingKeysWith: { a, _ in a })
            return texts(kind, id, "effect").map { ["effect": $0.text, "short_effect": short[$0.language] ?? "", "language": languageRef($0.language)] }
        }
        func flavourEntries(_ kind: String, _ id: String, key: String = "flavor_text") -> [[String: Any]] {
            texts(kind, id, "flavor").map { [key: $0.text, "language": languageRef($0.language)] }
        }
        func pairs(_ text: String?) -> [(String, Int)] {
            (text ?? "").split(separator: ",").map { pair in let parts = pair.split(separator: "="); return (String(parts[0]), Int(parts[1])!) }
        }

        let vocab = records("vocab")
        let typeIDs = Dictionary(uniqueKeysWithValues: records("types").map { ($0["slug"]!, $0["id"]!) })
        func vocabID(_ group: String, _ slug: String) -> String? { vocab.first { $0["group"] == group && $0["slug"] == slug }?["id"] }
        func vocabRef(_ group: String, _ slug: String?) -> Any {
            guard let slug, !slug.isEmpty, let id = vocabID(group, slug) else { return NSNull() }
            return ref(slug, Self.vocabularyEndpoints[group]!, id)
        }
        let pocketOfCategory = Dictionary(records("items").map { ($0["category"]!, $0["pocket"]!) }, uniquingKeysWith: { a, _ in a })
        for row in vocab {
            let (group, id, slug) = (row["group"]!, row["id"]!, row["slug"]!)
            guard let endpoint = Self.vocabularyEndpoints[group] else { continue }
            lists[endpoint, default: []].append((slug, "\(base)/\(endpoint)/\(id)/"))
            var object: [String: Any] = ["id": Int(id)!, "name": slug, "names": nameList(group, id)]
            if group == "item-category" { object["pocket"] = vocabRef("item-pocket", pocketOfCategory[slug]) }
            detail(endpoint, id, object)
        }
        for row in records("types") {
            let id = row["id"]!
            var relations: [String: [[String: Any]]] = ["double_damage_to": [], "half_damage_to": [], "no_damage_to": [],
                                                        "double_damage_from": [], "half_damage_from": [], "no_damage_from": []]
            for e in records("type_efficacy") {
                let key = ["200": "double_damage", "50": "half_damage", "0": "no_damage"][e["factor"]!]
                if let key, e["attacking"] == row["slug"] { relations[key + "_to"]!.append(ref(e["defending"]!, "type", typeIDs[e["defending"]!]!)) }
                if let key, e["defending"] == row["slug"] { relations[key + "_from"]!.append(ref(e["attacking"]!, "type", typeIDs[e["attacking"]!]!)) }
            }
            lists["type", default: []].append((row["slug"]!, "\(base)/type/\(id)/"))
            detail("type", id, ["id": Int(id)!, "name": row["slug"]!, "generation": vocabRef("generation", vocabSlug(vocab, "generation", row["generation"]!)),
                                "move_damage_class": vocabRef("damage-class", row["damage_class"]), "damage_relations": relations,
                                "names": nameList("type", id)], name: row["slug"]!)
        }
        for row in records("moves") {
            let id = row["id"]!
            lists["move", default: []].append((row["slug"]!, "\(base)/move/\(id)/"))
            detail("move", id, ["id": Int(id)!, "name": row["slug"]!, "generation": vocabRef("generation", vocabSlug(vocab, "generation", row["generation"]!)),
                                "type": ref(row["type"]!, "type", typeIDs[row["type"]!]!), "damage_class": vocabRef("damage-class", row["damage_class"]),
                                "power": number(row["power"]), "accuracy": number(row["accuracy"]), "pp": number(row["pp"]),
                                "priority": number(row["priority"]), "names": nameList("move", id),
                                "target": row["target"]!.isEmpty ? NSNull() : ref(row["target"]!, "move-target", 1),
                                "effect_chance": number(row["effect_chance"]),
                                "meta": row["category"]!.isEmpty ? NSNull() : [
                                    "category": ref(row["category"]!, "move-category", 1),
                                    "ailment": ref(row["ailment"]!.isEmpty ? "none" : row["ailment"]!, "move-ailment", 1),
                                    "min_hits": number(row["min_hits"]), "max_hits": number(row["max_hits"]),
                                    "min_turns": number(row["min_turns"]), "max_turns": number(row["max_turns"]),
                                    "drain": number(row["drain"]), "healing": number(row["healing"]), "crit_rate": number(row["crit_rate"]),
                                    "ailment_chance": number(row["ailment_chance"]), "flinch_chance": number(row["flinch_chance"]),
                                    "stat_chance": number(row["stat_chance"]),
                                ] as [String: Any],
                                "stat_changes": pairs(row["stat_changes"]).map { ["change": $0.1, "stat": ref($0.0, "stat", 1)] },
                                "effect_entries": effectEntries("move", id), "flavor_text_entries": [] as [Any]], name: row["slug"]!)
        }
        for row in records("items") {
            let id = row["id"]!
            lists["item", default: []].append((row["slug"]!, "\(base)/item/\(id)/"))
            var object: [String: Any] = ["id": Int(id)!, "name": row["slug"]!, "category": vocabRef("item-category", row["category"]),
                                         "fling_power": number(row["fling_power"]), "names": nameList("item", id),
                                         "fling_effect": row["fling_effect"]!.isEmpty ? NSNull() : ref("effect", "item-fling-effect", row["fling_effect"]!),
                                         "attributes": row["flags"]!.split(separator: ",").map { ref(String($0), "item-attribute", 1) },
                                         "effect_entries": effectEntries("item", id), "flavor_text_entries": flavourEntries("item", id, key: "text")]
            // Both shapes of the live API: `cost` before PokeAPI#1431, `prices` after.
            if Int(id)! % 2 == 0 {
                object["cost"] = number(row["cost"])
            } else {
                object["prices"] = row["cost"]!.isEmpty ? [] : [["currency": ref("poke-dollar", "currency", 1), "purchase_price": Int(row["cost"]!)!,
                                                                  "sell_price": Int(row["cost"]!)! / 2, "version_group": ref("sword-shield", "version-group", 20)]]
            }
            detail("item", id, object)
        }
        for row in records("abilities") {
            let id = row["id"]!
            lists["ability", default: []].append((row["slug"]!, "\(base)/ability/\(id)/"))
            detail("ability", id, ["id": Int(id)!, "name": row["slug"]!, "generation": vocabRef("generation", vocabSlug(vocab, "generation", row["generation"]!)),
                                   "is_main_series": row["is_main_series"] == "1", "names": nameList("ability", id),
                                   "effect_entries": effectEntries("ability", id), "flavor_text_entries": flavourEntries("ability", id)],
                   name: row["slug"]!)
        }
        let abilityIDs = Dictionary(uniqueKeysWithValues: records("abilities").map { ($0["slug"]!, $0["id"]!) })
        let pokemonRows = records("pokemon")
        let defaultPokemonOfSpecies = Dictionary(pokemonRows.filter { $0["is_default"] == "1" && $0["form_of"]!.isEmpty }.map { ($0["species"]!, $0["id"]!) },
                                                 uniquingKeysWith: { a, _ in a })
        let speciesRows = records("species")
        let speciesSlugs = Dictionary(uniqueKeysWithValues: speciesRows.map { ($0["id"]!, $0["slug"]!) })
        for row in pokemonRows where row["form_of"]!.isEmpty {
            let id = row["id"]!, slug = row["slug"]!
            // The Pokémon's own form; the corpus does not keep its id, so one is made up that
            // no cosmetic form has.
            let ownFormID = Int(id)! < 10000 ? Int(id)! : Int(id)! + 100_000
            let cosmetic = pokemonRows.filter { $0["form_of"] == id }
            let types = row["types"]!.split(separator: ",").enumerated().map { ["slot": $0.offset + 1, "type": ref(String($0.element), "type", typeIDs[String($0.element)]!)] }
            func formObject(_ form: [String: String], formID: Int, isDefault: Bool, names: [[String: Any]]) -> [String: Any] {
                ["id": formID, "name": form["slug"]!, "form_name": form["form"]!, "is_default": isDefault,
                 "is_battle_only": form["is_battle_only"] == "1", "is_mega": form["is_mega"] == "1", "pokemon": ref(slug, "pokemon", id),
                 "types": form["types"]!.split(separator: ",").enumerated().map { ["slot": $0.offset + 1, "type": ref(String($0.element), "type", typeIDs[String($0.element)]!)] },
                 "names": names, "form_names": [] as [Any]]
            }
            detail("pokemon-form", String(ownFormID), formObject(row, formID: ownFormID, isDefault: true,
                                                                 names: row["is_default"] == "1" ? [] : nameList("pokemon", id)))
            for form in cosmetic {
                detail("pokemon-form", form["id"]!, formObject(form, formID: Int(form["id"]!)!, isDefault: false, names: nameList("form", form["id"]!)),
                       name: form["slug"]!)
            }
            let visible = row["abilities"]!.split(separator: ",").enumerated().map {
                ["ability": ref(String($0.element), "ability", abilityIDs[String($0.element)]!), "is_hidden": false, "slot": $0.offset + 1] as [String: Any]
            }
            let hidden = row["hidden_ability"]!.isEmpty ? [] : [["ability": ref(row["hidden_ability"]!, "ability", abilityIDs[row["hidden_ability"]!]!),
                                                                 "is_hidden": true, "slot": 3] as [String: Any]]
            let statColumns = ["hp", "attack", "defense", "special_attack", "special_defense", "speed"]
            lists["pokemon", default: []].append((slug, "\(base)/pokemon/\(id)/"))
            detail("pokemon", id, [
                "id": Int(id)!, "name": slug, "species": ref(speciesSlugs[row["species"]!]!, "pokemon-species", row["species"]!),
                "is_default": row["is_default"] == "1", "height": Int(row["height"]!)!, "weight": Int(row["weight"]!)!, "types": types,
                "abilities": visible + hidden,
                "stats": statColumns.enumerated().map { stat -> [String: Any] in
                    let slug = stat.element.replacingOccurrences(of: "_", with: "-")
                    return ["base_stat": Int(row[stat.element]!)!, "effort": pairs(row["ev_yield"]).first { $0.0 == slug }?.1 ?? 0,
                            "stat": ref(slug, "stat", stat.offset + 1)]
                },
                "base_experience": number(row["base_experience"]),
                "forms": [ref(slug, "pokemon-form", ownFormID)] + cosmetic.map { ref($0["slug"]!, "pokemon-form", $0["id"]!) },
                "moves": [] as [Any],
                "sprites": ["front_default": "\(server.origin)/sprites/\(id).png", "back_default": NSNull()],
            ], name: slug)
        }
        var chains: [String: [[String: String]]] = [:]
        for row in speciesRows {
            let id = row["id"]!
            chains[row["evolution_chain"]!, default: []].append(row)
            let defaultPokemon = defaultPokemonOfSpecies[id]!
            lists["pokemon-species", default: []].append((row["slug"]!, "\(base)/pokemon-species/\(id)/"))
            detail("pokemon-species", id, [
                "id": Int(id)!, "name": row["slug"]!, "generation": vocabRef("generation", vocabSlug(vocab, "generation", row["generation"]!)),
                "evolves_from_species": row["evolves_from"]!.isEmpty ? NSNull() : ref(row["evolves_from"]!, "pokemon-species",
                                                                                       speciesRows.first { $0["slug"] == row["evolves_from"] }!["id"]!),
                "evolution_chain": ["url": "\(base)/evolution-chain/\(row["evolution_chain"]!)/"],
                "color": vocabRef("color", row["color"]), "habitat": vocabRef("habitat", row["habitat"]), "shape": vocabRef("shape", row["shape"]),
                "is_baby": row["is_baby"] == "1", "is_legendary": row["is_legendary"] == "1", "is_mythical": row["is_mythical"] == "1",
                "capture_rate": number(row["capture_rate"]), "gender_rate": number(row["gender_rate"]),
                "base_happiness": number(row["base_friendship"]), "hatch_counter": number(row["hatch_counter"]),
                "growth_rate": row["growth_rate"]!.isEmpty ? NSNull() : ref(row["growth_rate"]!, "growth-rate", 1),
                "egg_groups": row["egg_groups"]!.split(separator: ",").map { ref(String($0), "egg-group", 1) },
                "pokedex_numbers": pairs(row["dex_numbers"]).enumerated().map {
                    ["entry_number": $0.element.1, "pokedex": ref($0.element.0, "pokedex", $0.offset + 2)]
                } + [["entry_number": Int(id)!, "pokedex": ref("national", "pokedex", 1)]],
                "form_descriptions": texts("species", id, "forms").map { ["description": $0.text, "language": languageRef($0.language)] },
                "flavor_text_entries": [] as [Any],
                "names": nameList("pokemon", defaultPokemon),
                "genera": nameList("genus", id).map { ["genus": $0["name"]!, "language": $0["language"]!] },
            ], name: row["slug"]!)
        }
        let evolutions = records("evolutions")
        for (chainID, members) in chains.sorted(by: { Int($0.key)! < Int($1.key)! }) {
            func link(_ species: [String: String]) -> [String: Any] {
                let details = evolutions.filter { $0["species"] == species["slug"] }.map { Self.evolutionDetail($0, base: base) }
                let children = members.filter { $0["evolves_from"] == species["slug"] }.sorted { Int($0["id"]!)! < Int($1["id"]!)! }
                return ["species": ref(species["slug"]!, "pokemon-species", species["id"]!), "is_baby": species["is_baby"] == "1",
                        "evolution_details": details, "evolves_to": children.map(link)]
            }
            let slugs = Set(members.map { $0["slug"]! })
            guard let root = members.first(where: { $0["evolves_from"]!.isEmpty || !slugs.contains($0["evolves_from"]!) }) else { continue }
            lists["evolution-chain", default: []].append(("", "\(base)/evolution-chain/\(chainID)/"))
            detail("evolution-chain", chainID, ["id": Int(chainID)!, "baby_trigger_item": NSNull(), "chain": link(root)])
        }
        // The handlers capture the origin, not the server: the server keeps its handlers, so
        // capturing it made a cycle, and every sandbox's server leaked (found by LeakSanitizer).
        let origin = server.origin
        for (endpoint, entries) in lists {
            server.route("/api/v2/\(endpoint)/") { query in
                TestHTTPServer.Response(status: 200, body: Self.page(entries, endpoint: endpoint, query: query, origin: origin))
            }
        }
    }

    func vocabSlug(_ vocab: [[String: String]], _ group: String, _ id: String) -> String? {
        vocab.first { $0["group"] == group && $0["id"] == id }?["slug"]
    }

    /// A list page as the live API pages (PokeAPI/deploy): defaults offset 0 and limit 20,
    /// `next` with its limit cut to what is left, `previous` clamped to offset 0.
    static func page(_ entries: [(String, String)], endpoint: String, query: String, origin: String) -> [UInt8] {
        var parameters: [String: Int] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { parameters[String(parts[0])] = value }
        }
        let offset = max(0, parameters["offset"] ?? 0)
        let limit = (parameters["limit"] ?? 20) > 0 ? parameters["limit"]! : 20
        let slice = entries.dropFirst(offset).prefix(limit)
        let path = "\(origin)/api/v2/\(endpoint)/"
        let nextOffset = offset + limit
        let next: Any = nextOffset < entries.count ? "\(path)?offset=\(nextOffset)&limit=\(min(limit, entries.count - nextOffset))" : NSNull()
        let previous: Any = offset > 0 ? "\(path)?offset=\(max(0, offset - limit))&limit=\(offset - max(0, offset - limit))" : NSNull()
        return json(["count": entries.count, "next": next, "previous": previous,
                     "results": slice.map { ["name": $0.0.isEmpty ? NSNull() : $0.0 as Any, "url": $0.1] }])
    }

    /// An `evolution_details` entry from a corpus evolution row: each `name=value` condition
    /// back into its API field (an object for named things, a number, a flag or text).
    static func evolutionDetail(_ row: [String: String], base: String) -> [String: Any] {
        let named = ["item": "item", "held_item": "item", "known_move": "move", "known_move_type": "type", "party_species": "pokemon-species",
                     "party_type": "type", "trade_species": "pokemon-species", "used_move": "move"]
        let byID = ["location": "location", "region": "region", "base_form": "pokemon", "evolved_form": "pokemon"]
        let flags: Set<String> = ["needs_overworld_rain", "turn_upside_down", "needs_multiplayer", "near_special_rock"]
        var detail: [String: Any] = ["trigger": ["name": row["trigger"]!, "url": "\(base)/evolution-trigger/1/"], "is_default": row["is_default"] == "1",
                                     "time_of_day": "", "needs_overworld_rain": false, "turn_upside_down": false]
        for condition in row["conditions"]!.split(separator: ";") {
            let parts = condition.split(separator: "=", maxSplits: 1).map(String.init)
            let (label, value) = (parts[0], parts[1])
            if let endpoint = named[label] {
                detail[label] = ["name": value, "url": "\(base)/\(endpoint)/\(value)/"]
            } else if let endpoint = byID[label] {
                detail[label] = ["name": "x", "url": "\(base)/\(endpoint)/\(value)/"]
            } else if flags.contains(label) {
                detail[label] = value == "1"
            } else if let number = Int(value) {
                detail[label] = number
            } else {
                detail[label] = value
            }
        }
        return detail
    }
}

func json(_ object: Any) -> [UInt8] {
    Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
}
