import Corpus

/// The Pokédex page's facts beyond the search facts: breeding, training, regional numbers,
/// move metadata and machines, item flags, and prose in the display language.
extension Pokedex {
    /// The prose of one thing, each field in `language` where the data has it, else in
    /// English (the entry says which language it is in).
    func prose(_ kind: String, _ id: Int, _ slug: String?, language: Int, from all: [Prose]? = nil) -> [ProseEntry] {
        let code = Language.codes[language]
        let candidates = (all ?? corpus.prose).filter { $0.kind == kind && $0.id == id && (slug == nil || $0.slug == slug) }
        var fields: [String] = []
        for p in candidates where !fields.contains(p.field) { fields.append(p.field) }
        fields.sort { (Self.proseOrder.firstIndex(of: $0) ?? Self.proseOrder.count) < (Self.proseOrder.firstIndex(of: $1) ?? Self.proseOrder.count) }
        return fields.compactMap { field in
            let texts = candidates.filter { $0.field == field }
            guard let chosen = texts.first(where: { $0.language == code }) ?? texts.first(where: { $0.language == "en" }) else { return nil }
            return ProseEntry(field: field, language: chosen.language, text: chosen.text)
        }
    }

    /// The order prose is shown in.
    static let proseOrder = ["short", "effect", "flavor", "forms", "dex", "fling"]

    /// A vocabulary value's name; one the data does not name reads as its slug in words.
    func vocabulary(_ group: String, _ slug: String, _ language: Int) -> NamedValue {
        NamedValue(slug: slug, name: names.lookup(group, slug, language: language) ?? Self.words(slug))
    }

    /// "medium-slow" → "Medium slow".
    static func words(_ slug: String) -> String {
        let spaced = slug.replacingOccurrences(of: "-", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }

    func addDetails(to facts: inout PokemonFacts, _ p: Pokemon, _ species: Species, language: Int) {
        facts.breeding = Breeding(genderRate: species.genderRate, eggGroups: species.eggGroups.map { vocabulary("egg-group", $0, language) },
                                  hatchCounter: species.hatchCounter)
        facts.training = Training(evYield: p.evYield.map { (vocabulary("stat", $0.stat, language), $0.value) },
                                  captureRate: species.captureRate, baseFriendship: species.baseFriendship,
                                  baseExperience: p.baseExperience,
                                  growthRate: species.growthRate.map { vocabulary("growth-rate", $0, language) })
        facts.shape = species.shape.map { vocabulary("shape", $0, language) }
        facts.dexNumbers = species.dexNumbers.map { (vocabulary("pokedex", $0.pokedex, language), $0.number) }
        facts.prose = prose("species", species.id, species.slug, language: language)
    }

    func addDetails(to facts: inout MoveFacts, _ m: Move, language: Int) {
        // PokeAPI gives 0 for "none" in a few moves (Burning Bulwark): no move has power 0.
        if m.power == 0 { facts.power = nil }
        if m.accuracy == 0 { facts.accuracy = nil }
        facts.target = m.target.map { vocabulary("move-target", $0, language) }
        facts.effectChance = m.effectChance
        facts.meta = m.meta
        facts.ailment = m.meta?.ailment.map { vocabulary("move-ailment", $0, language) }
        facts.statChanges = (m.meta?.statChanges ?? []).map { (vocabulary("stat", $0.stat, language), $0.change) }
        facts.flags = m.flags.map { vocabulary("move-flag", $0, language) }
        facts.machines = machineNumbers(corpus.machines.filter { $0.move == m.slug }, language: language)
        facts.prose = prose("move", m.id, m.slug, language: language, from: corpus.prose(ofMove: m))
    }

    func addDetails(to facts: inout ItemFacts, _ i: Item, language: Int) {
        // A cost of 0 is an item no shop sells (the Master Ball).
        if i.cost == 0 { facts.cost = nil }
        facts.flags = i.flags.map { vocabulary("item-flag", $0, language) }
        var teaches: [(move: String, groups: [String])] = []
        for machine in corpus.machines where machine.item == i.slug {
            if let at = teaches.firstIndex(where: { $0.move == machine.move }) {
                teaches[at].groups.append(machine.versionGroup)
            } else {
                teaches.append((machine.move, [machine.versionGroup]))
            }
        }
        facts.teaches = teaches.map { entry in
            let id = corpus.moves.first { $0.slug == entry.move }?.id ?? 0
            return (EntityRef(kind: .move, id: id, slug: entry.move, name: names.name("move", entry.move, language: language)),
                    entry.groups.map { vocabulary("version-group", $0, language) })
        }
        facts.prose = prose("item", i.id, i.slug, language: language)
        if let fling = i.flingEffect {
            facts.prose += prose("fling-effect", fling, nil, language: language).map { ProseEntry(field: "fling", language: $0.language, text: $0.text) }
        }
    }

    /// Machines grouped by their number, in the order first met.
    func machineNumbers(_ machines: [Machine], language: Int) -> [MachineNumber] {
        var numbers: [MachineNumber] = []
        for machine in machines {
            let label = machine.item.uppercased()
            let group = vocabulary("version-group", machine.versionGroup, language)
            if let at = numbers.firstIndex(where: { $0.label == label }) {
                numbers[at].versionGroups.append(group)
            } else {
                numbers.append(MachineNumber(label: label, versionGroups: [group]))
            }
        }
        return numbers
    }
}
