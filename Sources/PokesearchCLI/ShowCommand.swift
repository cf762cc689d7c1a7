import Catalog
import Corpus
import Foundation
import Sync
import Terminal

/// `pokesearch show NAME|SLUG|ID|KIND:SLUG`: one entity in detail, as a Pokédex page or
/// (with --json) one JSON object.
enum ShowCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let text = context.arguments.positional.joined(separator: " ")
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        let (doc, others) = try EntityLookup.resolve(text, catalog: catalog, language: language, kinds: Set(context.arguments.kinds), command: "show")
        if context.arguments.json {
            guard let detail = try DetailReader(store: catalog.store).detail(doc, index: catalog.index, language: language) else {
                throw missing(doc, catalog)
            }
            context.output.line(detail.json)
            if let note = othersNote(others, id: detail.entity.id, catalog: catalog, language: language) { Output.error(note) }
            return 0
        }
        try printPage(doc, catalog: catalog, language: language, context: context,
                      note: othersNote(others, id: catalog.index.id(doc), catalog: catalog, language: language))
        return 0
    }

    static func missing(_ doc: Int, _ catalog: Catalog) -> CLIError {
        .data("the database lists \(catalog.index.kind(doc).rawValue):\(catalog.index.slug(doc)) but has no data for it; rebuild it with `pokesearch ingest`")
    }

    /// Says which other entities a bare number also names.
    static func othersNote(_ others: [Int], id: Int, catalog: Catalog, language: Int) -> String? {
        others.isEmpty ? nil : "id \(id) also names "
            + others.map { "\(catalog.index.kind($0).rawValue):\(catalog.index.slug($0)) (\(catalog.index.displayName($0, language: language)))" }
                .joined(separator: ", ") + "; pick one with `pokesearch show KIND:\(id)`"
    }

    /// The Pokédex page of document `doc`, to the terminal's width (`show`, `random`).
    static func printPage(_ doc: Int, catalog: Catalog, language: Int, context: CommandContext, note: String? = nil) throws {
        let pokedex = try DetailReader(store: catalog.store).pokedex(for: doc, index: catalog.index)
        guard let detail = pokedex.detail(doc, language: language) else { throw missing(doc, catalog) }
        let width = TerminalSize.columns(environment: context.environment)
        var page = DetailPage(output: context.output, pokedex: pokedex, language: language, width: width)
        page.render(detail)
        // A sprite downloaded earlier by `pokesearch sprite`.
        let sprite = Sprites.path(slug: detail.entity.slug, cacheDirectory: Paths.cache(environment: context.environment))
        let hasSprite = detail.entity.kind == .pokemon || detail.entity.kind == .form
        if hasSprite && FileManager.default.fileExists(atPath: sprite) {
            page.blank()
            page.field("Sprite", sprite)
        }
        if let note { page.blank(); page.paragraph(note, indent: 0, dim: true) }
        SpriteDrawing.page(slug: detail.entity.slug, isPokemon: hasSprite, context: context) {
            for line in page.lines { context.output.line(line) }
        }
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
        let nothing = kinds == [.pokemon] || kinds == [.pokemon, .form] ? "no Pokémon" : kinds.isEmpty ? "nothing" : "no " + kinds.map(\.rawValue).sorted().joined(separator: " or ")
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

