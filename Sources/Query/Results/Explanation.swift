import Corpus
import Folding
import Index

/// Why one term matched one result.
public struct TermExplanation: Sendable, Equatable {
    public var term: String
    public var matchClass: MatchClass
    /// Where it matched (the position rule), and whether as a whole word (the exactness rule).
    public var position: Position
    public var wholeWord: Bool
    public var typos: Int
    /// Found only inside a word of a name in another language: ranked as a typo.
    public var weak: Bool = false
    /// The language of the name it matched (its code: a language, or what else the name is,
    /// as the index tags it), nil for a field.
    public var language: String?
    /// What it matched: a name, a name's word, or the field (type, ability, genus ...).
    public var role: String
    public var transliterated: Bool
    /// The name a synonym the term matched stands for (a shipped nickname, a form word, a
    /// user's own), nil when the term matched no synonym.
    public var synonymOf: String? = nil
    /// Where the term matched no name or field of the result but named an entity it belongs
    /// to (`role` then says how: "Garchomp's hidden ability").
    public var related: Bool = false

    /// One line: where the term matched (a name's whole, its first word, a later whole word,
    /// a prefix ...; or the field, whole word or prefix), the name's language, and the rest;
    /// or what the entity the term named has to do with the result.
    public var summary: String {
        if related { return "\(term): \(role)" }
        let isName = role == "name" || role == "compact name"
        var parts = [isName ? "\(term): \(position.label)" : "\(term): \(role) \(wholeWord ? "whole word" : "prefix")"]
        if role == "compact name" { parts.append("(compact)") }
        if let language { parts.append("(\(language))") }
        if transliterated { parts.append("via transliteration") }
        if typos > 0 { parts.append("typo \(typos)") }
        if weak { parts.append(isName ? "(inside a foreign word: ranked as a typo)" : "(part of a foreign word: ranked as a typo)") }
        if let synonymOf { parts.append("synonym \(term) → \(synonymOf)") }
        return parts.joined(separator: " ")
    }
}

extension SearchEngine {
    /// A term's hit on a document explained: the field a field's hit is of, found among the
    /// document's own fields (the index keeps field words without saying whose they are).
    func explanation(_ term: Term, _ hit: Hit, doc: Int) -> TermExplanation {
        let role = hit.role == .field ? fieldMatched(term.text, doc: doc) : Self.roleLabel(hit.role)
        return TermExplanation(term: term.raw, matchClass: hit.matchClass, position: hit.position, wholeWord: hit.isWholeWord,
                               typos: hit.typos, weak: hit.isWeak, language: hit.language.map(Self.languageCode), role: role,
                               transliterated: hit.isTransliterated, synonymOf: synonymMatched(term, hit, doc: doc))
    }

    /// The document's name when a term's hit is on a synonym of it: a name of no language
    /// (a slug or a synonym) that is not the document's slug (its words, whole or run
    /// together).
    func synonymMatched(_ term: Term, _ hit: Hit, doc: Int) -> String? {
        // (A typo hit's key is not known here: it is not told.)
        guard hit.role != .field, hit.language == nil, hit.typos == 0 else { return nil }
        let slug = Folding.fold(index.slug(doc))
        let text = Folding.compact(term.text)
        let slugForms = [Folding.compact(slug)] + slug.split(separator: " ").map(String.init)
        guard !slugForms.contains(where: { $0.hasPrefix(text) }) else { return nil }
        return index.displayName(doc, language: Language.index(of: "en") ?? 0)
    }

    /// A language index's code, or what the index tags a name with beyond the languages.
    static func languageCode(_ language: Int) -> String {
        Language.codes.indices.contains(language) ? Language.codes[language] : "tag \(language)"
    }

    static func roleLabel(_ role: KeyRole) -> String {
        switch role {
        case .whole: return "name"
        case .compact: return "compact name"
        case .firstWord: return "name"
        case .laterWord: return "name"
        case .field: return "field"
        }
    }

    /// Which of a document's fields has a word starting with `folded`: its type, ability,
    /// colour, habitat, a flag's word, else what the rest of its kind's field text is
    /// (a Pokémon's genus, a move's damage class, an item's category).
    func fieldMatched(_ folded: String, doc: Int) -> String {
        func holds(_ texts: [String]) -> Bool {
            texts.contains { text in Folding.words(Folding.fold(text)).contains { $0.hasPrefix(folded) } }
        }
        func names(_ kind: Kind, _ slug: String?) -> [String] {
            guard let slug else { return [] }
            return [slug] + (index.doc(kind: kind, slug: slug).map { index.names($0).map(\.text) } ?? [])
        }
        for t in [index.docTypes[doc * 2], index.docTypes[doc * 2 + 1]] where t != 255 && Int(t) < index.typeSlugs.count {
            if holds(names(.type, index.typeSlugs[Int(t)])) { return "type" }
        }
        for ref in index.abilityRefs[Int(index.abilityStart[doc])..<Int(index.abilityStart[doc + 1])] {
            if holds(names(.ability, index.abilitySlugByID[Int32(ref & 0x7FFF)])) { return "ability" }
        }
        let colour = Int(index.docColor[doc]), habitat = Int(index.docHabitat[doc])
        if index.colorSlugs.indices.contains(colour), holds([index.colorSlugs[colour]]) { return "colour" }
        if index.habitatSlugs.indices.contains(habitat), holds([index.habitatSlugs[habitat]]) { return "habitat" }
        let flags = DocFlags(rawValue: index.docFlags[doc])
        for (flag, word) in [(DocFlags.legendary, "legendary"), (.mythical, "mythical"), (.baby, "baby")]
            where flags.contains(flag) && word.hasPrefix(folded) { return word }
        switch index.kind(doc) {
        case .pokemon, .form: return "genus"
        case .move: return "damage class"
        case .item: return "category"
        case .ability, .type: return "field"
        }
    }

    /// What decided between each result of a window and the next (nil for the last, and
    /// where the next is not shown).
    func decidingRules(_ window: ArraySlice<(key: UInt64, doc: Int)>) -> [RankingRule?] {
        let keys = window.map { RankingKey(raw: $0.key) }
        // Kind order reads a Pokémon's default form apart from its other forms.
        func kindOrder(_ doc: Int) -> Int {
            Int(index.docKind[doc]) * 2 + (index.kind(doc) == .pokemon && index.docFlags[doc] & DocFlags.isDefault.rawValue == 0 ? 1 : 0)
        }
        return keys.indices.map { i in i + 1 < keys.count ? keys[i].decidingRule(against: keys[i + 1], kindOf: kindOrder) : nil }
    }
}
