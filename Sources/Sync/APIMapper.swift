import Corpus
import Foundation

/// Everything a crawl fetched, decoded.
struct APIData: Sendable {
    var pokemon: [APIPokemon] = []
    var species: [APISpecies] = []
    var forms: [APIForm] = []
    var moves: [APIMove] = []
    var items: [APIItem] = []
    var abilities: [APIAbility] = []
    var types: [APIType] = []
    var chains: [APIEvolutionChain] = []
    /// Vocabulary group (`color`, `habitat`, …) → the entries of its list endpoint.
    var vocabulary: [String: [APIRef]] = [:]
    /// Vocabulary group → its fetched details (names, an item category's pocket).
    var vocabularyDetails: [String: [APIVocabulary]] = [:]
}

/// Maps PokeAPI's REST resources to the same corpus tables the CSV converter writes, so that
/// `Ingest.run` builds the same database from either.
enum APIMapper {
    static func tables(_ data: APIData) -> CorpusTables {
        var names = NameCollector(languages: languageCodes(data))
        var vocab = Vocabulary()
        for (group, refs) in data.vocabulary {
            vocab.slugs[group] = Dictionary(refs.compactMap { ref in ref.id.flatMap { id in ref.name.map { (id, $0) } } },
                                            uniquingKeysWith: { first, _ in first })
        }
        for (group, details) in data.vocabularyDetails {
            for entry in details { add(&names, kind: group, id: entry.id, slug: entry.name, order: entry.id, entry.names ?? []) }
        }
        let pocketOfCategory = Dictionary((data.vocabularyDetails["item-category"] ?? []).compactMap { c in c.pocket?.name.map { (c.name, $0) } },
                                          uniquingKeysWith: { first, _ in first })
        var tables = CorpusTables(tables: [
            "pokemon": pokemonTable(data, names: &names),
            "species": speciesTable(data, names: &names),
            "evolutions": evolutionTable(data),
            "moves": table(["id", "slug", "generation", "type", "damage_class", "power", "accuracy", "pp", "priority"],
                           data.moves, kind: "move", names: &names) { m in
                [String(m.id), m.name, text(m.generation.id), m.type.name ?? "", m.damage_class?.name ?? "",
                 text(m.power), text(m.accuracy), text(m.pp), String(m.priority)]
            },
            "items": table(["id", "slug", "category", "pocket", "cost", "fling_power"], data.items, kind: "item", names: &names) { i in
                [String(i.id), i.name, i.category.name ?? "", i.category.name.flatMap { pocketOfCategory[$0] } ?? "",
                 text(i.effectiveCost), text(i.fling_power)]
            },
            "abilities": table(["id", "slug", "generation", "is_main_series"], data.abilities, kind: "ability", names: &names) { a in
                [String(a.id), a.name, text(a.generation.id), a.is_main_series ? "1" : "0"]
            },
            "types": table(["id", "slug", "generation", "damage_class"], data.types, kind: "type", names: &names) { t in
                [String(t.id), t.name, text(t.generation.id), t.move_damage_class?.name ?? ""]
            },
            "type_efficacy": efficacyTable(data.types),
            "vocab": vocab.table(),
            "names": names.table(),
        ])
        APIDetails.add(to: &tables, data)
        return tables
    }

    static func text(_ number: Int?) -> String { number.map(String.init) ?? "" }

    /// PokeAPI language id (from the language urls) → our code, for the languages we keep.
    static func languageCodes(_ data: APIData) -> [Int: String] {
        var codes: [Int: String] = [:]
        func note(_ entries: [APIName]) {
            for entry in entries { note(entry.language) }
        }
        func note(_ language: APIRef) {
            if let id = language.id, let code = language.name, Language.codes.contains(code) { codes[id] = code }
        }
        data.species.forEach { note($0.names); $0.genera.forEach { note($0.language) } }
        data.forms.forEach { note($0.names); note($0.form_names) }
        data.moves.forEach { note($0.names) }
        data.items.forEach { note($0.names) }
        data.abilities.forEach { note($0.names) }
        data.types.forEach { note($0.names) }
        data.vocabularyDetails.values.forEach { $0.forEach { note($0.names ?? []) } }
        return codes
    }

    static func add(_ names: inout NameCollector, kind: String, id: Int, slug: String, order: Int, _ entries: [APIName]) {
        for entry in entries {
            guard let language = entry.language.id else { continue }
            names.add(kind: kind, id: id, slug: slug, order: order, language: language, name: entry.name)
        }
    }

    /// A simple table: rows sorted by id, names of kind `kind` in id order.
    static func table<Resource: Sendable>(_ columns: [String], _ resources: [Resource], kind: String, names: inout NameCollector,
                                          row: (Resource) -> [String]) -> Table where Resource: APINamedResource {
        var table = Table(columns: columns)
        for resource in resources.sorted(by: { $0.id < $1.id }) {
            table.rows.append(row(resource))
            add(&names, kind: kind, id: resource.id, slug: resource.name, order: resource.id, resource.names)
        }
        return table
    }

    static func pokemonTable(_ data: APIData, names: inout NameCollector) -> Table {
        var speciesNames: [Int: [Int: String]] = [:]
        for species in data.species {
            for entry in species.names where !entry.name.isEmpty {
                if let language = entry.language.id { speciesNames[species.id, default: [:]][language] = entry.name }
            }
        }
        let formsByPokemon = Dictionary(grouping: data.forms) { $0.pokemon.name ?? "" }

        func formDisplayNames(_ form: APIForm?, species: Int) -> [Int: String] {
            var formNames: [Int: (form: String, pokemon: String)] = [:]
            for entry in form?.form_names ?? [] { if let l = entry.language.id { formNames[l, default: ("", "")].form = entry.name } }
            for entry in form?.names ?? [] { if let l = entry.language.id { formNames[l, default: ("", "")].pokemon = entry.name } }
            return FormNames.displayNames(species: speciesNames[species] ?? [:], form: formNames)
        }
        func typeList(_ slots: [APITypeSlot]) -> String {
            slots.sorted { $0.slot < $1.slot }.compactMap(\.type.name).joined(separator: ",")
        }

        var table = Table(columns: [
            "id", "slug", "species", "form_of", "is_default", "form", "is_mega", "is_battle_only", "height", "weight",
            "types", "abilities", "hidden_ability", "hp", "attack", "defense", "special_attack", "special_defense", "speed",
        ])
        var order = 0
        for pokemon in data.pokemon.sorted(by: { $0.id < $1.id }) {
            guard let species = pokemon.species.id else { continue }
            let abilities = pokemon.abilities.sorted { $0.slot < $1.slot }
            let visible = abilities.filter { !$0.is_hidden }.compactMap(\.ability?.name).joined(separator: ",")
            let hidden = abilities.first { $0.is_hidden }?.ability?.name ?? ""
            let stats = Stats.names.map { name in text(pokemon.stats.first { $0.stat.name == name }?.base_stat) }
            // The Pokémon's own form is its default form, or the one named like the Pokémon;
            // every other form is cosmetic (as in the CSV converter).
            let forms = (formsByPokemon[pokemon.name] ?? []).sorted { $0.id < $1.id }
            let own = forms.first { $0.is_default } ?? forms.first { $0.name == pokemon.name }
            table.rows.append([
                String(pokemon.id), pokemon.name, String(species), "", pokemon.is_default ? "1" : "0", own?.form_name ?? "",
                own?.is_mega == true ? "1" : "0", own?.is_battle_only == true ? "1" : "0", String(pokemon.height),
                String(pokemon.weight), typeList(pokemon.types), visible, hidden,
            ] + stats)
            order += 1
            let pokemonNames = pokemon.is_default ? (speciesNames[species] ?? [:]) : formDisplayNames(own, species: species)
            for (language, name) in pokemonNames {
                names.add(kind: "pokemon", id: pokemon.id, slug: pokemon.name, order: order, language: language, name: name)
            }
            for form in forms where form.id != own?.id {
                table.rows.append([
                    String(form.id), form.name, String(species), String(pokemon.id), "0", form.form_name,
                    form.is_mega ? "1" : "0", form.is_battle_only ? "1" : "0", String(pokemon.height), String(pokemon.weight),
                    form.types.isEmpty ? typeList(pokemon.types) : typeList(form.types), visible, hidden,
                ] + stats)
                order += 1
                for (language, name) in formDisplayNames(form, species: species) {
                    names.add(kind: Kind.form.rawValue, id: form.id, slug: form.name, order: order, language: language, name: name)
                }
            }
        }
        return table
    }

    static func speciesTable(_ data: APIData, names: inout NameCollector) -> Table {
        var table = Table(columns: [
            "id", "slug", "generation", "evolves_from", "evolution_chain", "color", "habitat", "shape",
            "is_baby", "is_legendary", "is_mythical", "capture_rate", "gender_rate",
        ])
        func flag(_ value: Bool) -> String { value ? "1" : "0" }
        for s in data.species.sorted(by: { $0.id < $1.id }) {
            table.rows.append([
                String(s.id), s.name, text(s.generation.id), s.evolves_from_species?.name ?? "", text(s.evolution_chain?.id),
                s.color?.name ?? "", s.habitat?.name ?? "", s.shape?.name ?? "",
                flag(s.is_baby), flag(s.is_legendary), flag(s.is_mythical), text(s.capture_rate), text(s.gender_rate),
            ])
            for genus in s.genera {
                guard let language = genus.language.id else { continue }
                names.add(kind: "genus", id: s.id, slug: s.name, order: s.id, language: language, name: genus.genus)
            }
        }
        return table
    }

    /// One row per way of evolving into a species, ordered by that species' id.
    static func evolutionTable(_ data: APIData) -> Table {
        var rows: [(species: Int, row: [String])] = []
        func visit(_ link: APIEvolutionChain.Link) {
            if let slug = link.species.name {
                for detail in link.evolution_details {
                    rows.append((link.species.id ?? 0, [slug, detail.trigger?.name ?? "", detail.conditions,
                                                        detail.is_default == false ? "0" : "1"]))
                }
            }
            link.evolves_to.forEach(visit)
        }
        data.chains.sorted { $0.id < $1.id }.forEach { visit($0.chain) }
        var table = Table(columns: ["species", "trigger", "conditions", "is_default"])
        table.rows = rows.enumerated().sorted { ($0.element.species, $0.offset) < ($1.element.species, $1.offset) }.map(\.element.row)
        return table
    }

    /// Damage factors between the types that have any damage relation, both ways.
    static func efficacyTable(_ types: [APIType]) -> Table {
        var involved = Set<String>()
        for type in types {
            let targets = type.damage_relations.double_damage_to + type.damage_relations.half_damage_to + type.damage_relations.no_damage_to
            if !targets.isEmpty { involved.insert(type.name) }
            involved.formUnion(targets.compactMap(\.name))
        }
        let ordered = types.sorted { $0.id < $1.id }.filter { involved.contains($0.name) }
        var table = Table(columns: ["attacking", "defending", "factor"])
        for attacking in ordered {
            let relations = attacking.damage_relations
            for defending in ordered {
                let factor: Int
                if relations.double_damage_to.contains(where: { $0.name == defending.name }) { factor = 200 }
                else if relations.half_damage_to.contains(where: { $0.name == defending.name }) { factor = 50 }
                else if relations.no_damage_to.contains(where: { $0.name == defending.name }) { factor = 0 }
                else { factor = 100 }
                table.rows.append([attacking.name, defending.name, String(factor)])
            }
        }
        return table
    }
}

/// A resource with an id, a slug and names in several languages.
protocol APINamedResource {
    var id: Int { get }
    var name: String { get }
    var names: [APIName] { get }
}

extension APIMove: APINamedResource {}
extension APIItem: APINamedResource {}
extension APIAbility: APINamedResource {}
extension APIType: APINamedResource {}
