import Catalog
import Corpus
import Foundation
import Sync

/// `pokesearch show NAME|SLUG|ID|KIND:SLUG`: one entity in detail, as a Pokédex page or
/// (with --json) one JSON object.
enum ShowCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let text = context.arguments.positional.joined(separator: " ")
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        let (doc, others) = try EntityLookup.resolve(text, catalog: catalog, language: language, kinds: Set(context.arguments.kinds), command: "show")
        let pokedex = try DetailReader(store: catalog.store).pokedex(for: doc, index: catalog.index)
        guard let detail = pokedex.detail(doc, language: language) else {
            throw CLIError.data("the database lists \(catalog.index.kind(doc).rawValue):\(catalog.index.slug(doc)) but has no data for it; rebuild it with `pokesearch ingest`")
        }
        let othersNote = others.isEmpty ? nil : "id \(detail.entity.id) also names "
            + others.map { "\(catalog.index.kind($0).rawValue):\(catalog.index.slug($0)) (\(catalog.index.displayName($0, language: language)))" }
                .joined(separator: ", ") + "; pick one with `pokesearch show KIND:\(detail.entity.id)`"
        if context.arguments.json {
            context.output.line(detail.json)
            if let othersNote { Output.error(othersNote) }
            return 0
        }
        SpriteDrawing.page(slug: detail.entity.slug, isPokemon: detail.entity.kind == .pokemon, context: context) {
            DetailPage(output: context.output, pokedex: pokedex, language: language).render(detail)
        }
        // A sprite downloaded earlier by `pokesearch sprite`.
        let sprite = Sprites.path(slug: detail.entity.slug, cacheDirectory: Paths.cache(environment: context.environment))
        if detail.entity.kind == .pokemon && FileManager.default.fileExists(atPath: sprite) {
            context.output.line()
            DetailPage(output: context.output, pokedex: pokedex, language: language).field("Sprite", sprite)
        }
        if let othersNote { context.output.line(); context.output.line(context.output.dim(othersNote)) }
        return 0
    }
}

/// Resolves the name a command was given, turning ambiguity and absence into errors that
/// say how to go on.
enum EntityLookup {
    /// `kinds` (`--kind`) narrows what the name may be.
    static func resolve(_ text: String, catalog: Catalog, language: Int, kinds: Set<Kind>, command: String) throws -> (doc: Int, others: [Int]) {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw CLIError.usage("\(command) needs a name, slug or id, e.g. `pokesearch \(command) pikachu`")
        }
        let index = catalog.index
        func label(_ doc: Int) -> String { "\(index.kind(doc).rawValue):\(index.slug(doc)) (\(Output.visible(index.displayName(doc, language: language))))" }
        func allowed(_ doc: Int) -> Bool { kinds.isEmpty || kinds.contains(index.kind(doc)) }
        let resolver = EntityResolver(engine: catalog.engine)
        let hasKindPrefix = text.firstIndex(of: ":").map { Kind(rawValue: text[..<$0].lowercased()) != nil } ?? false
        var resolution = kinds.count == 1 && !hasKindPrefix ? resolver.resolve("\(kinds.first!.rawValue):\(text)", language: language)
            : resolver.resolve(text, language: language)
        switch resolution {
        case .found(let doc, let others):
            let narrowed = ([doc] + others).filter(allowed)
            resolution = narrowed.isEmpty ? .notFound(suggestions: []) : .found(doc: narrowed[0], others: Array(narrowed.dropFirst()))
        case .ambiguous(let docs) where !kinds.isEmpty:
            let narrowed = docs.filter(allowed)
            resolution = narrowed.count == 1 ? .found(doc: narrowed[0], others: []) : narrowed.isEmpty ? .notFound(suggestions: []) : .ambiguous(narrowed)
        default: break
        }
        let shown = Output.visible(text)
        let nothing = kinds == [.pokemon] ? "no Pokémon" : kinds.isEmpty ? "nothing" : "no " + kinds.map(\.rawValue).sorted().joined(separator: " or ")
        switch resolution {
        case .found(let doc, let others):
            return (doc, others)
        case .ambiguous(let docs):
            throw CLIError.notFound("'\(shown)' names several things: \(docs.map(label).joined(separator: ", ")); pick one, e.g. `pokesearch \(command) \(index.kind(docs[0]).rawValue):\(index.slug(docs[0]))`")
        case .notFound(let found):
            let suggestions = found.filter { allowed($0.doc) }
            guard !suggestions.isEmpty else {
                throw CLIError.notFound("\(nothing) is named '\(shown)'; search with `pokesearch \(shellWord(shown))`")
            }
            throw CLIError.notFound("\(nothing) is named '\(shown)'; did you mean \(suggestions.map { label($0.doc) }.joined(separator: ", "))?")
        }
    }

    /// `text` as the shell takes it back: quoted when it holds characters the shell treats specially.
    static func shellWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || " -:.".unicodeScalars.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// The human page of one entity: labelled lines, stat bars, evolution and matchups.
struct DetailPage {
    let output: Output
    let pokedex: Pokedex
    let language: Int

    static let labelWidth = 13

    func field(_ label: String, _ value: String) {
        output.line(output.dim(ResultPrinter.pad(label, Self.labelWidth)) + value)
    }

    /// A field whose items wrap onto further lines, aligned under the first.
    func field(_ label: String, items: [(text: String, width: Int)]) {
        let room = 100 - Self.labelWidth
        var lines: [String] = []
        var current = "", width = 0
        for item in items {
            if width > 0 && width + 2 + item.width > room {
                lines.append(current)
                current = ""
                width = 0
            }
            current += (width > 0 ? "  " : "") + item.text
            width += (width > 0 ? 2 : 0) + item.width
        }
        if width > 0 { lines.append(current) }
        for (i, line) in lines.enumerated() {
            if i == 0 { field(label, line) } else { output.line(String(repeating: " ", count: Self.labelWidth) + line) }
        }
    }

    func typeName(_ slug: String) -> String {
        output.paint(pokedex.names.name("type", slug, language: language), TypeColors.code(slug))
    }

    func render(_ detail: EntityDetail) {
        let entity = detail.entity
        // A Pokémon's number is its national (species) number, shared by its forms.
        var number = entity.id
        if case .pokemon(let p) = detail.facts { number = p.speciesID }
        output.line(output.bold("#\(number) \(entity.name)") + output.dim("  \(entity.kind.rawValue):\(entity.slug)"))
        switch detail.facts {
        case .pokemon(let p): renderPokemon(p, detail)
        case .move(let m):
            names(detail)
            field("Type", typeName(m.type.slug))
            field("Class", m.damageClass.name)
            field("Power", m.power.map(String.init) ?? "—")
            field("Accuracy", m.accuracy.map { "\($0)%" } ?? "—")
            field("PP", m.pp.map(String.init) ?? "—")
            if m.priority != 0 { field("Priority", m.priority > 0 ? "+\(m.priority)" : String(m.priority)) }
            field("Generation", String(m.generation))
        case .item(let i):
            names(detail)
            field("Category", i.category.name)
            field("Pocket", i.pocket.name)
            field("Cost", i.cost.map { "₽\($0)" } ?? "—")
            if let fling = i.flingPower { field("Fling power", String(fling)) }
        case .ability(let a):
            names(detail)
            field("Generation", String(a.generation))
            field("Pokémon", a.pokemon.isEmpty ? "none" : "\(a.pokemon.count)")
            for (pokemon, hidden) in a.pokemon {
                output.line(String(repeating: " ", count: Self.labelWidth) + pokemon.name + (hidden ? output.dim(" (hidden)") : ""))
            }
        case .type(let t):
            names(detail)
            field("Generation", String(t.generation))
            field("Pokémon", "\(t.defaultPokemonCount) (\(t.pokemonCount) with forms)")
            output.line()
            matchups("Damage dealt", t.attacking)
            matchups("Damage taken", t.defending)
        }
    }

    func names(_ detail: EntityDetail) {
        let others = detail.names.filter { $0.text != detail.entity.name || $0.language != Language.codes[language] }
        guard !others.isEmpty else { return }
        field("Names", items: others.map { (output.dim($0.language) + " " + $0.text, ResultPrinter.displayWidth("\($0.language) \($0.text)")) })
    }

    func renderPokemon(_ p: PokemonFacts, _ detail: EntityDetail) {
        if let genus = p.genus { field("Genus", genus) }
        names(detail)
        field("Types", p.types.map { typeName($0.slug) }.joined(separator: " / "))
        field("Abilities", p.abilities.map { $0.ability.name + ($0.hidden ? " (hidden)" : "") }.joined(separator: ", "))
        let inches = (Double(p.height) * 3.937_007_874).rounded()
        field("Height", String(format: "%.1f m (%d′%02d″)", Double(p.height) / 10, Int(inches) / 12, Int(inches) % 12))
        field("Weight", String(format: "%.1f kg (%.1f lb)", Double(p.weight) / 10, Double(p.weight) * 0.220_462_262))
        if let color = p.color { field("Colour", color.name) }
        if let habitat = p.habitat { field("Habitat", habitat.name) }
        field("Generation", String(p.generation))
        let flags = [(p.isLegendary, "legendary"), (p.isMythical, "mythical"), (p.isBaby, "baby")].filter(\.0).map(\.1)
        if !flags.isEmpty { field("Flags", flags.joined(separator: ", ")) }

        output.line()
        output.line(output.bold("Base stats"))
        let labels = ["HP", "Attack", "Defense", "Sp. Atk", "Sp. Def", "Speed"]
        for (label, value) in zip(labels, p.stats.values) {
            let width = max(1, Int((Double(value) / 255 * 30).rounded()))
            let bar = output.paint(String(repeating: "█", count: width), value >= 100 ? "32" : value >= 60 ? "33" : "31")
            output.line("  " + ResultPrinter.pad(label, 9) + String(repeating: " ", count: 4 - String(value).count) + String(value) + "  " + bar)
        }
        output.line("  " + ResultPrinter.pad("Total", 9) + String(repeating: " ", count: max(0, 4 - String(p.stats.total).count)) + String(p.stats.total))

        output.line()
        if p.evolutionStages.count > 1 {
            field("Evolution", p.evolutionStages.map { $0.map(\.name).joined(separator: " / ") }.joined(separator: " → "))
            for step in p.evolutionSteps {
                output.line(String(repeating: " ", count: Self.labelWidth) + "\(step.from.name) → \(step.into.name)"
                            + (step.method.isEmpty ? "" : output.dim(": ") + step.method))
            }
        } else {
            field("Evolution", "does not evolve")
        }
        if !p.forms.isEmpty {
            field("Forms", items: p.forms.map { ("\($0.name) " + output.dim("(\($0.slug))"), ResultPrinter.displayWidth("\($0.name) (\($0.slug))")) })
        }
        output.line()
        matchups("Damage taken", p.matchups)
    }

    func matchups(_ title: String, _ matchups: [TypeMatchup]) {
        output.line(output.bold(title))
        let groups = matchups.groupedByFactor
        if groups.isEmpty { output.line("  x1 for every type") }
        for group in groups {
            output.line("  " + ResultPrinter.pad(group.label, 6) + group.types.map(typeName).joined(separator: ", "))
        }
    }
}
