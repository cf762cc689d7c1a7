import Catalog
import Corpus
import Foundation
import Terminal

/// The human Pokédex page of one entity, as lines no wider than `width` columns: labelled
/// fields, lists in columns, prose wrapped, stat bars, evolution and matchups. The page is
/// made as a list of lines (not printed as it goes) so that a block can be set beside it.
struct DetailPage {
    let output: Output
    let pokedex: Pokedex
    let language: Int
    let width: Int
    private(set) var lines: [String] = []

    init(output: Output, pokedex: Pokedex, language: Int, width: Int) {
        self.output = output
        self.pokedex = pokedex
        self.language = language
        self.width = max(20, width)
    }

    /// Labels take this many columns, less on a narrow terminal.
    var labelWidth: Int { min(15, width / 3) }
    var room: Int { width - labelWidth }

    mutating func blank() { lines.append("") }

    mutating func heading(_ title: String) {
        lines.append("")
        lines.append(output.bold(DisplayWidth.truncate(title, to: width)))
    }

    /// A labelled value; one wider than the room left wraps under itself. `plain` is the
    /// value without colour, when it is painted (its width is what counts).
    mutating func field(_ label: String, _ value: String, plain: String? = nil) {
        let text = plain ?? value
        let labelText = output.dim(DisplayWidth.pad(label, to: labelWidth))
        if DisplayWidth.of(text) <= room {
            lines.append(labelText + value)
            return
        }
        for (i, line) in DisplayWidth.wrap(text, to: room).enumerated() {
            lines.append((i == 0 ? labelText : String(repeating: " ", count: labelWidth)) + line)
        }
    }

    /// A labelled list in as many columns as fit beside the label (each item's `width` is
    /// its text's without colour).
    mutating func field(_ label: String, items: [(text: String, width: Int)]) {
        guard !items.isEmpty else { return }
        let labelText = output.dim(DisplayWidth.pad(label, to: labelWidth))
        let indent = String(repeating: " ", count: labelWidth)
        for (i, line) in columns(items, room: room).enumerated() { lines.append((i == 0 ? labelText : indent) + line) }
    }

    /// Items laid out in rows of equal columns (an item wider than the room cut to it).
    func columns(_ items: [(text: String, width: Int)], room: Int) -> [String] {
        let cell = min(room, (items.map(\.width).max() ?? 0) + 2)
        let perRow = max(1, (room + 2) / max(1, cell))
        var rows: [String] = []
        var row = ""
        for (i, item) in items.enumerated() {
            let column = i % perRow
            let text = item.width > room ? DisplayWidth.truncate(strippingColour(item.text), to: room) : item.text
            let shown = min(item.width, room)
            row += text + (column == perRow - 1 || i == items.count - 1 ? "" : String(repeating: " ", count: max(0, cell - shown)))
            if column == perRow - 1 || i == items.count - 1 {
                rows.append(row)
                row = ""
            }
        }
        return rows
    }

    func strippingColour(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Prose wrapped to the page, paragraph by paragraph.
    mutating func paragraph(_ text: String, indent: Int = 2, dim: Bool = false) {
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = paragraph.trimmingCharacters(in: .whitespaces)
            if words.isEmpty { if lines.last != "" { lines.append("") }; continue }
            for line in DisplayWidth.wrap(words, to: width - indent) {
                let text = String(repeating: " ", count: indent) + line
                lines.append(dim ? output.dim(text) : text)
            }
        }
    }

    /// Prose entries under their headings, saying when one is in English for want of the
    /// display language.
    mutating func prose(_ entries: [ProseEntry], titles: [String: String]) {
        let wanted = Language.codes[language]
        for entry in entries {
            guard let title = titles[entry.field] else { continue }
            let note = entry.language == wanted ? "" : " (\(languageName(entry.language)): none in \(languageName(wanted)))"
            heading(title + note)
            paragraph(entry.text)
        }
    }

    func languageName(_ code: String) -> String {
        ["en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "ja": "Japanese", "ko": "Korean",
         "zh-hans": "Chinese", "zh-hant": "Chinese", "cs": "Czech", "pt-br": "Portuguese"][code] ?? code
    }

    func typeName(_ slug: String) -> (text: String, width: Int) {
        let name = pokedex.names.name("type", slug, language: language)
        return (output.paint(name, TypeColors.code(slug)), DisplayWidth.of(name))
    }

    static func plainItems(_ texts: [String]) -> [(text: String, width: Int)] { texts.map { ($0, DisplayWidth.of($0)) } }

    mutating func render(_ detail: EntityDetail) {
        let entity = detail.entity
        // A Pokémon's number is its national (species) number, shared by its forms.
        var number = entity.id
        if case .pokemon(let p) = detail.facts { number = p.speciesID }
        let title = "#\(number) \(entity.name)", slug = "  \(entity.kind.rawValue):\(entity.slug)"
        lines.append(DisplayWidth.of(title + slug) <= width ? output.bold(title) + output.dim(slug) : output.bold(DisplayWidth.truncate(title, to: width)))
        switch detail.facts {
        case .pokemon(let p): renderPokemon(p, detail)
        case .move(let m): renderMove(m, detail)
        case .item(let i): renderItem(i, detail)
        case .ability(let a): renderAbility(a, detail)
        case .type(let t):
            names(detail)
            field("Generation", String(t.generation))
            field("Pokémon", "\(t.defaultPokemonCount) (\(t.pokemonCount) with forms)")
            field("", items: Self.plainItems(t.pokemon.map(\.name)))
            matchups("Damage dealt", t.attacking)
            matchups("Damage taken", t.defending)
        }
    }

    mutating func names(_ detail: EntityDetail) {
        let others = detail.names.filter { $0.text != detail.entity.name || $0.language != Language.codes[language] }
        field("Names", items: others.map { (output.dim($0.language) + " " + $0.text, DisplayWidth.of("\($0.language) \($0.text)")) })
    }

    static func number(_ value: Int?) -> String { value.map(String.init) ?? "—" }
    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : String(value) }

    mutating func renderPokemon(_ p: PokemonFacts, _ detail: EntityDetail) {
        if let genus = p.genus { field("Genus", genus) }
        names(detail)
        let types = p.types.map { typeName($0.slug) }
        field("Types", types.map(\.text).joined(separator: " / "), plain: p.types.map(\.name).joined(separator: " / "))
        field("Abilities", items: Self.plainItems(p.abilities.map { $0.ability.name + ($0.hidden ? " (hidden)" : "") }))
        let inches = (Double(p.height) * 3.937_007_874).rounded()
        field("Height", String(format: "%.1f m (%d′%02d″)", Double(p.height) / 10, Int(inches) / 12, Int(inches) % 12))
        field("Weight", String(format: "%.1f kg (%.1f lb)", Double(p.weight) / 10, Double(p.weight) * 0.220_462_262))
        if let color = p.color { field("Colour", color.name) }
        if let shape = p.shape { field("Shape", shape.name) }
        if let habitat = p.habitat { field("Habitat", habitat.name) }
        field("Generation", String(p.generation))
        let flags = [(p.isLegendary, "legendary"), (p.isMythical, "mythical"), (p.isBaby, "baby")].filter(\.0).map(\.1)
        if !flags.isEmpty { field("Flags", flags.joined(separator: ", ")) }
        field("Regional dex", items: Self.plainItems(p.dexNumbers.map { "\($0.pokedex.name) \($0.number)" }))

        heading("Base stats")
        let labels = ["HP", "Attack", "Defense", "Sp. Atk", "Sp. Def", "Speed"]
        let effort = Dictionary(p.training.evYield.map { ($0.stat.slug, $0.value) }, uniquingKeysWith: +)
        let barRoom = max(1, min(30, width - 22))
        for (index, (label, value)) in zip(labels, p.stats.values).enumerated() {
            let bar = output.paint(String(repeating: "█", count: max(1, Int((Double(value) / 255 * Double(barRoom)).rounded()))),
                                   value >= 100 ? "32" : value >= 60 ? "33" : "31")
            let ev = effort[Stats.names[index]].map { "+\($0) EV" } ?? ""
            lines.append("  " + DisplayWidth.pad(label, to: 8) + String(repeating: " ", count: max(0, 3 - String(value).count)) + String(value)
                         + " " + output.dim(DisplayWidth.pad(ev, to: 6)) + " " + bar)
        }
        lines.append("  " + DisplayWidth.pad("Total", to: 8) + String(p.stats.total))

        heading("Training")
        field("EV yield", p.training.evYield.isEmpty ? "—" : p.training.evYield.map { "\($0.value) \($0.stat.name)" }.joined(separator: ", "))
        field("Capture rate", Self.number(p.training.captureRate))
        field("Friendship", Self.number(p.training.baseFriendship))
        field("Base exp.", Self.number(p.training.baseExperience))
        field("Growth rate", p.training.growthRate?.name ?? "—")

        heading("Breeding")
        field("Gender", Self.gender(p.breeding.genderRate))
        field("Egg groups", p.breeding.eggGroups.isEmpty ? "—" : p.breeding.eggGroups.map(\.name).joined(separator: ", "))
        field("Hatch", p.breeding.hatchCounter.map { "\($0) egg cycles" } ?? "—")

        heading("Evolution")
        if p.evolutionStages.count > 1 {
            paragraph(p.evolutionStages.map { $0.map(\.name).joined(separator: " / ") }.joined(separator: " → "))
            for step in p.evolutionSteps {
                paragraph("\(step.from.name) → \(step.into.name)" + (step.method.isEmpty ? "" : ": " + step.method), indent: 4)
            }
        } else {
            paragraph("does not evolve")
        }
        if !p.forms.isEmpty {
            heading("Forms")
            lines += columns(p.forms.map { ($0.name, DisplayWidth.of($0.name)) }, room: width - 2).map { "  " + $0 }
        }
        matchups("Damage taken", p.matchups)
        prose(p.prose, titles: ["forms": "About its forms", "dex": "Pokédex entry"])
    }

    /// "50% female, 50% male", "genderless", "—".
    static func gender(_ rate: Int?) -> String {
        guard let rate else { return "—" }
        if rate < 0 { return "genderless" }
        let female = Double(rate) * 12.5
        func percent(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) + "%" : String(format: "%.1f%%", value) }
        return "\(percent(female)) female, \(percent(100 - female)) male"
    }

    mutating func renderMove(_ m: MoveFacts, _ detail: EntityDetail) {
        names(detail)
        let type = typeName(m.type.slug)
        field("Type", type.text, plain: m.type.name)
        field("Class", m.damageClass.name)
        field("Power", Self.number(m.power))
        field("Accuracy", m.accuracy.map { "\($0)%" } ?? "—")
        field("PP", Self.number(m.pp))
        field("Priority", Self.signed(m.priority))
        field("Target", m.target?.name ?? "—")
        field("Generation", String(m.generation))
        if let meta = m.meta {
            heading("Effects in battle")
            if let ailment = m.ailment {
                let chance = meta.ailmentChance > 0 ? meta.ailmentChance : m.effectChance ?? 0
                field("Ailment", chance > 0 ? "\(chance)% chance to cause \(ailment.name)" : ailment.name)
            } else if let chance = m.effectChance {
                field("Effect chance", "\(chance)%")
            }
            if meta.flinchChance > 0 { field("Flinch", "\(meta.flinchChance)% chance") }
            if meta.critRate > 0 { field("Critical hit", "+\(meta.critRate) stage\(meta.critRate == 1 ? "" : "s")") }
            if meta.drain > 0 { field("Drain", "\(meta.drain)% of the damage dealt") }
            if meta.drain < 0 { field("Recoil", "\(-meta.drain)% of the damage dealt") }
            if meta.healing > 0 { field("Healing", "\(meta.healing)% of its HP") }
            if meta.healing < 0 { field("HP cost", "\(-meta.healing)% of its HP") }
            if !m.statChanges.isEmpty {
                let changes = m.statChanges.map { "\(Self.signed($0.change)) \($0.stat.name)" }.joined(separator: ", ")
                field("Stat changes", changes + (meta.statChance > 0 ? " (\(meta.statChance)% chance)" : ""))
            }
            if let low = meta.minHits, let high = meta.maxHits { field("Hits", low == high ? "\(low)" : "\(low)–\(high)") }
            if let low = meta.minTurns, let high = meta.maxTurns { field("Turns", low == high ? "\(low)" : "\(low)–\(high)") }
        } else if let chance = m.effectChance {
            field("Effect chance", "\(chance)%")
        }
        field("Flags", items: Self.plainItems(m.flags.map(\.name)))
        if !m.machines.isEmpty {
            heading("Machines")
            for machine in m.machines { field(machine.label, machine.versionGroups.map(\.name).joined(separator: ", ")) }
        }
        prose(m.prose, titles: ["short": "Effect", "effect": "In detail", "flavor": "In the games"])
    }

    mutating func renderItem(_ i: ItemFacts, _ detail: EntityDetail) {
        names(detail)
        field("Category", i.category.name)
        field("Pocket", i.pocket.name)
        field("Cost", i.cost.map { "₽\($0)" } ?? "not sold")
        field("Fling power", Self.number(i.flingPower))
        field("Flags", items: Self.plainItems(i.flags.map(\.name)))
        if !i.teaches.isEmpty {
            heading("Teaches")
            for teach in i.teaches { field(teach.move.name, teach.versionGroups.map(\.name).joined(separator: ", ")) }
        }
        prose(i.prose, titles: ["short": "Effect", "effect": "In detail", "fling": "When flung", "flavor": "In the games"])
    }

    mutating func renderAbility(_ a: AbilityFacts, _ detail: EntityDetail) {
        names(detail)
        field("Generation", String(a.generation))
        prose(a.prose, titles: ["short": "Effect", "effect": "In detail", "flavor": "In the games"])
        let hidden = a.pokemon.filter(\.hidden).count
        heading("Pokémon: \(a.pokemon.count)" + (hidden > 0 ? " (\(hidden) with it as hidden ability, marked *)" : ""))
        if a.pokemon.isEmpty { paragraph("none") }
        lines += columns(a.pokemon.map { entry in
            let text = entry.pokemon.name + (entry.hidden ? " *" : "")
            return (text, DisplayWidth.of(text))
        }, room: width - 2).map { "  " + $0 }
    }

    mutating func matchups(_ title: String, _ matchups: [TypeMatchup]) {
        heading(title)
        let groups = matchups.groupedByFactor
        if groups.isEmpty { lines.append("  x1 for every type") }
        for group in groups {
            let names = group.types.map(typeName)
            let indent = "  " + DisplayWidth.pad(group.label, to: 6)
            for (i, line) in columns(names, room: width - 8).enumerated() { lines.append((i == 0 ? indent : String(repeating: " ", count: 8)) + line) }
        }
    }
}
