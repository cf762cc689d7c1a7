import Corpus

/// The names of everything the corpus names (entities and vocabularies such as genus,
/// colour, habitat, item category), looked up by kind and slug in a display language.
public struct CorpusNames: Sendable {
    /// "kind:slug" → language index → name.
    private let table: [String: [Int: String]]

    public init(_ names: [Name]) {
        var table: [String: [Int: String]] = [:]
        for name in names {
            guard let language = Language.index(of: name.language) else { continue }
            table["\(name.kind):\(name.slug)", default: [:]][language] = name.text
        }
        self.table = table
    }

    /// The name in `language` (a `Language` index), else English, else nil.
    public func lookup(_ kind: String, _ slug: String, language: Int) -> String? {
        guard let names = table["\(kind):\(slug)"] else { return nil }
        return names[language] ?? names[0]
    }

    /// The name in `language`, else English, else the slug with its hyphens as spaces.
    public func name(_ kind: String, _ slug: String, language: Int) -> String {
        lookup(kind, slug, language: language) ?? slug.replacingOccurrences(of: "-", with: " ")
    }
}
