import Corpus
import Foundation
import Folding
import Index
import Query

/// What a name given on the command line (or to GET) refers to.
public enum Resolution: Sendable {
    /// One entity; `others` are the other entities with the same id when an id was given.
    case found(doc: Int, others: [Int])
    /// Several entities of different kinds answer to the name (`metronome`: a move and an item).
    case ambiguous([Int])
    /// Nothing by that name; the typo-tolerant search's best guesses.
    case notFound(suggestions: [SearchResult])
}

/// Finds the entity a user means by `kind:slug`, an id, a slug or a name in any language.
public struct EntityResolver: Sendable {
    public let engine: SearchEngine
    var index: IndexSnapshot { engine.index }

    public init(engine: SearchEngine) { self.engine = engine }

    /// In order: a `kind:` prefix restricts the kinds; a number is an id (in kind order:
    /// the Pokémon first, the others it names are `others`);
    /// then exact slugs and exact names (folded) in every language. Several kinds answering
    /// is ambiguous; several Pokémon forms answering resolve to the first (the default form).
    public func resolve(_ text: String, language: Int = 0) -> Resolution {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let colon = trimmed.firstIndex(of: ":"), let kind = Kind(rawValue: trimmed[..<colon].lowercased()) {
            let rest = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            var restricted = resolve(rest, kinds: [kind], language: language)
            // Cosmetic forms were of kind `pokemon` before they had their own: a
            // `pokemon:unown-j` written then (a script, the history) still finds the form.
            if kind == .pokemon, Int(rest) == nil, case .notFound = restricted,
               case .found(let doc, let others) = resolve(rest, kinds: [.form], language: language) {
                restricted = .found(doc: doc, others: others)
            }
            // "Type: Null" is a name, not the kind `type`.
            if case .notFound = restricted, case .found(let doc, let others) = resolve(trimmed, kinds: [], language: language) {
                return .found(doc: doc, others: others)
            }
            return restricted
        }
        return resolve(trimmed, kinds: [], language: language)
    }

    func resolve(_ text: String, kinds: Set<Kind>, language: Int) -> Resolution {
        func allowed(_ doc: Int) -> Bool { kinds.isEmpty || kinds.contains(index.kind(doc)) }
        if let id = Int(text) {
            let docs = index.docs(withID: id).filter(allowed)
            if let first = docs.first { return .found(doc: first, others: Array(docs.dropFirst())) }
        }
        // One document of each kind: the one whose slug the text is, else the first with it as
        // a whole name (default forms come before the other forms). A slug names one
        // document, a name may be several's: "zygarde-10" is the German name "Zygarde (10%)"
        // of the power-construct form too, which comes first. Pokémon and cosmetic forms
        // count as one kind here: a species' forms answering to its name ("アンノーン", Unown's,
        // is in the names of Unown's forms) are no ambiguity.
        func group(_ kind: Kind) -> Kind { kind == .form ? .pokemon : kind }
        var perKind: [Kind: Int] = [:]
        for doc in exactNameDocs(text) where allowed(doc) {
            let kind = group(index.kind(doc))
            perKind[kind] = min(perKind[kind] ?? doc, doc)
        }
        let slug = text.lowercased()
        for kind in Kind.allCases where kinds.isEmpty || kinds.contains(kind) {
            if let doc = index.doc(kind: kind, slug: slug) { perKind[group(kind)] = doc }
        }
        let firstPerKind = perKind.values.sorted()
        switch firstPerKind.count {
        case 0:
            var options = SearchOptions()
            options.limit = 10
            options.language = language
            options.kinds = kinds
            options.explain = true
            // Only results found by their names: a filter ("hp>100") or a field word names nothing.
            let results = (try? engine.search(text, options: options)).map { Array($0.results) } ?? []
            let byName = results.filter { !$0.explanation.isEmpty && $0.explanation.allSatisfy { $0.matchClass != .field } }
            return .notFound(suggestions: Array(byName.prefix(3)))
        case 1: return .found(doc: firstPerKind[0], others: [])
        default: return .ambiguous(firstPerKind)
        }
    }

    /// Documents with a whole name (or its compact form) equal to `text` folded. Names
    /// through transliteration count only when no name matches as written.
    func exactNameDocs(_ text: String) -> [Int] {
        let folded = Folding.fold(text)
        guard !folded.isEmpty else { return [] }
        var direct: [Int] = []
        var transliterated: [Int] = []
        for key in Set([folded, Folding.compact(folded)]) {
            guard let keyIndex = index.keyIndex(Array(key.utf8)) else { continue }
            for p in index.postingRange(key: keyIndex) {
                let posting = Posting(raw: index.postings[p])
                guard posting.isWholeName else { continue }
                if posting.isTransliterated { transliterated.append(posting.doc) } else { direct.append(posting.doc) }
            }
        }
        return direct.isEmpty ? transliterated : direct
    }
}
