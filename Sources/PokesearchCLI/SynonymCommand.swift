import Catalog
import Corpus
import Query

/// `pokesearch synonym add TERM NAME... | remove TERM | list [TERM]`: the user's synonyms,
/// kept in the database across re-ingests like favourites. TERM then finds what NAME names
/// (a name, slug or id as `show` takes them; several NAMEs for several entities) and ranks
/// as that entity's whole name.
enum SynonymCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        var words = context.arguments.positional
        let action = words.isEmpty ? "list" : words.removeFirst()
        let language = try context.arguments.languageIndex(environment: context.environment)
        let catalog = try context.catalog()
        func label(_ doc: Int) -> String {
            "\(catalog.index.displayName(doc, language: language)) (\(catalog.index.kind(doc).rawValue):\(catalog.index.slug(doc)))"
        }
        switch action {
        case "list" where words.count <= 1:
            return try list(words.first, context: context, catalog: catalog, label: label)
        case "add" where words.count >= 2, "remove" where words.count == 1:
            guard catalog.isWritable else {
                throw CLIError.data("the database \(context.databasePath) is read-only; synonyms cannot change")
            }
            let term = words.removeFirst()
            do {
                if action == "remove" {
                    let removed = try catalog.removeSynonym(term)
                    context.output.line("removed the synonym '\(term)' (\(removed) \(removed == 1 ? "entity" : "entities"))")
                    return 0
                }
                let docs = try targets(words, catalog: catalog, language: language)
                try catalog.addSynonym(term, docs: docs)
                context.output.line("'\(term)' now also finds \(docs.map(label).joined(separator: ", "))")
                return 0
            } catch let error as SynonymError {
                if case .emptyTerm = error { throw CLIError.usage(error.description) }
                throw CLIError.notFound(error.description)
            }
        default:
            throw CLIError.usage("synonym takes `add TERM NAME...`, `remove TERM` or `list [TERM]`, not '\(context.arguments.positional.joined(separator: " "))'")
        }
    }

    /// The entities NAME... names: all its words as one name ("mr mime"), else each word one
    /// name. A word that names nothing (or several kinds) is an error saying so.
    static func targets(_ names: [String], catalog: Catalog, language: Int) throws -> [Int] {
        if names.count > 1, case .found(let doc, _) = EntityResolver(engine: catalog.engine).resolve(names.joined(separator: " "), language: language) {
            return [doc]
        }
        var docs: [Int] = []
        for name in names {
            let doc = try EntityLookup.resolve(name, catalog: catalog, language: language, kinds: [], command: "synonym add").doc
            if !docs.contains(doc) { docs.append(doc) }
        }
        return docs
    }

    /// The user's synonyms; with a TERM, every synonym (shipped too) written as it is.
    static func list(_ term: String?, context: CommandContext, catalog: Catalog, label: (Int) -> String) throws -> Int32 {
        if let term {
            let found = try catalog.synonyms(of: term)
            for synonym in found {
                let doc = Kind(rawValue: synonym.kind).flatMap { catalog.index.doc(kind: $0, slug: synonym.slug) }
                let target = doc.map(label) ?? "\(synonym.kind):\(synonym.slug)"
                context.output.line("\(synonym.term)\t\(target)\t\(synonym.source)")
            }
            if found.isEmpty { Output.error("no synonym is written '\(term)'") }
            return found.isEmpty ? 1 : 0
        }
        let synonyms = try catalog.userSynonyms()
        guard !synonyms.isEmpty else {
            Output.error("no synonyms of your own yet; add one with `pokesearch synonym add TERM NAME`")
            return 1
        }
        for synonym in synonyms {
            context.output.line("\(synonym.term)\t\(synonym.doc.map(label) ?? "(no longer in the data)")")
        }
        return 0
    }
}
