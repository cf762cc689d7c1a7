import Corpus

/// A species' whole evolution family: its stages and how each evolution happens.
public struct EvolutionChain: Sendable {
    /// Species slugs by stage: [["pichu"], ["pikachu"], ["raichu"]].
    public var stages: [[String]]
    public var steps: [EvolutionStep]

    /// The chain `species` belongs to, built from species' `evolvesFrom` links and the
    /// corpus's evolution rows (default methods; the others when a species has none).
    public init(species: Species, corpus: Corpus) {
        let family = corpus.species.filter { $0.evolutionChain == species.evolutionChain }.sorted { $0.id < $1.id }
        let slugs = Set(family.map(\.slug))
        var stages: [[String]] = []
        var current = family.filter { $0.evolvesFrom.map { !slugs.contains($0) } ?? true }.map(\.slug)
        var placed = Set<String>()
        while !current.isEmpty {
            stages.append(current)
            placed.formUnion(current)
            current = family.filter { s in s.evolvesFrom.map(current.contains) ?? false && !placed.contains(s.slug) }.map(\.slug)
        }
        self.stages = stages

        let parents = Dictionary(family.compactMap { s in s.evolvesFrom.map { (s.slug, $0) } }, uniquingKeysWith: { a, _ in a })
        let defaultPokemon = EvolutionChain.defaultPokemon(corpus)
        let pokemonByID = Dictionary(corpus.pokemon.filter { $0.formOf == nil }.map { ($0.id, $0.slug) }, uniquingKeysWith: { a, _ in a })
        var steps: [EvolutionStep] = []
        for slug in stages.dropFirst().flatMap({ $0 }) {
            let rows = corpus.evolutions.filter { $0.species == slug }
            let chosen = rows.contains(where: \.isDefault) ? rows.filter(\.isDefault) : rows
            guard let parent = parents[slug] else { continue }
            if chosen.isEmpty {
                steps.append(EvolutionStep(species: slug, from: parent, pokemon: defaultPokemon[slug] ?? slug,
                                           fromPokemon: defaultPokemon[parent] ?? parent, trigger: "", conditions: []))
            }
            for row in chosen {
                let conditions = row.conditions.filter { $0.key != "base_form" && $0.key != "evolved_form" }
                let into = row.conditions.first { $0.key == "evolved_form" }.flatMap { Int($0.value) }.flatMap { pokemonByID[$0] }
                let from = row.conditions.first { $0.key == "base_form" }.flatMap { Int($0.value) }.flatMap { pokemonByID[$0] }
                steps.append(EvolutionStep(species: slug, from: parent, pokemon: into ?? defaultPokemon[slug] ?? slug,
                                           fromPokemon: from ?? defaultPokemon[parent] ?? parent,
                                           trigger: row.trigger, conditions: conditions))
            }
        }
        self.steps = steps
    }

    /// Species slug → the slug of its default Pokémon (`deoxys` → `deoxys-normal`).
    public static func defaultPokemon(_ corpus: Corpus) -> [String: String] {
        let speciesSlug = Dictionary(corpus.species.map { ($0.id, $0.slug) }, uniquingKeysWith: { a, _ in a })
        var result: [String: String] = [:]
        for p in corpus.pokemon where p.isDefault && p.formOf == nil {
            if let species = speciesSlug[p.speciesID] { result[species] = p.slug }
        }
        return result
    }
}

/// One way one species evolves into the next.
public struct EvolutionStep: Sendable {
    /// Species slugs.
    public var species: String
    public var from: String
    /// The Pokémon slugs involved (a regional form evolves into a regional form).
    public var pokemon: String
    public var fromPokemon: String
    public var trigger: String
    public var conditions: [(key: String, value: String)]

    /// How it happens, in words: "level 16", "Thunder Stone", "trade holding Metal Coat",
    /// "friendship 220, during the day". Names come from the corpus in `language`.
    public func method(names: CorpusNames, language: Int) -> String {
        func named(_ kind: String, _ slug: String) -> String { names.name(kind, slug, language: language) }
        var parts: [String] = []
        let levelled = conditions.contains { $0.key == "min_level" }
        switch trigger {
        case "level-up" where !levelled && conditions.isEmpty: parts.append("level up")
        case "level-up", "use-item", "": break
        case "trade": parts.append("trade")
        // Shedinja appears beside Ninjask: PokeAPI records no condition for it.
        case "shed": parts.append("appears when \(named("pokemon", from)) evolves into \(named("pokemon", "ninjask")), with an empty party slot and a Poké Ball in the bag")
        default: parts.append(trigger.replacingOccurrences(of: "-", with: " "))
        }
        for (key, value) in conditions {
            switch key {
            case "min_level": parts.append("level \(value)")
            case "item": parts.append(named("item", value))
            case "held_item": parts.append("holding \(named("item", value))")
            case "min_happiness": parts.append("friendship \(value)")
            case "min_affection": parts.append("affection \(value)")
            case "min_beauty": parts.append("beauty \(value)")
            case "time_of_day": parts.append(value == "night" ? "at night" : value == "day" ? "during the day" : "at \(value)")
            case "known_move": parts.append("knowing \(named("move", value))")
            case "known_move_type": parts.append("knowing a \(named("type", value)) move")
            case "gender": parts.append(value == "1" ? "female" : value == "2" ? "male" : "gender \(value)")
            case "party_species": parts.append("with \(named("pokemon", value)) in the party")
            case "party_type": parts.append("with a \(named("type", value)) Pokémon in the party")
            case "trade_species": parts.append("for \(named("pokemon", value))")
            case "relative_physical_stats":
                parts.append(value == "1" ? "Attack > Defense" : value == "-1" ? "Attack < Defense" : "Attack = Defense")
            case "location": parts.append("at a particular place")
            case "near_special_rock": parts.append("near a special rock")
            case "needs_overworld_rain": parts.append("while it rains")
            case "turn_upside_down": parts.append("holding the console upside down")
            case "needs_multiplayer": parts.append("in multiplayer")
            case "min_steps": parts.append("after \(value) steps")
            case "region": parts.append(Self.regions[value].map { "in \($0)" } ?? "in region \(value)")
            default:
                let words = key.replacingOccurrences(of: "_", with: " ")
                parts.append(value == "1" ? words : "\(words) \(value)")
            }
        }
        // Several rows (older games) can set the same place: say it once.
        var seen = Set<String>()
        return parts.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    /// PokeAPI region ids (the corpus has no region names).
    static let regions = ["1": "Kanto", "2": "Johto", "3": "Hoenn", "4": "Sinnoh", "5": "Unova", "6": "Kalos",
                          "7": "Alola", "8": "Galar", "9": "Hisui", "10": "Paldea"]
}
