import Corpus

/// Where names are looked up when they are not all held in memory: every name of one
/// thing (kind and slug), by language index, the later of two in one language winning.
public protocol NameSource: Sendable {
    func names(kind: String, slug: String) -> [Int: String]?
}

/// The names of everything the corpus names (entities and vocabularies such as genus,
/// colour, habitat, item category), looked up by kind and slug in a display language:
/// from the names given, or from a `NameSource` (the database) as they are asked for.
public struct CorpusNames: Sendable {
    /// "kind:slug" → language index → name.
    private let table: [String: [Int: String]]
    private let source: (any NameSource)?

    public init(_ names: [Name]) {
        var table: [String: [Int: String]] = [:]
        for name in names {
            guard let language = Language.index(of: name.language) else { continue }
            table["\(name.kind):\(name.slug)", default: [:]][language] = name.text
        }
        self.table = table
        source = nil
    }

    public init(source: any NameSource) {
        table = [:]
        self.source = source
    }

    /// The name in `language` (a `Language` index), else English, else nil.
    public func lookup(_ kind: String, _ slug: String, language: Int) -> String? {
        guard let names = source.map({ $0.names(kind: kind, slug: slug) }) ?? table["\(kind):\(slug)"] else { return nil }
        return names[language] ?? names[0]
    }

    /// The name in `language`, else English, else the slug with its hyphens as spaces.
    public func name(_ kind: String, _ slug: String, language: Int) -> String {
        lookup(kind, slug, language: language) ?? slug.replacingOccurrences(of: "-", with: " ")
    }
}
