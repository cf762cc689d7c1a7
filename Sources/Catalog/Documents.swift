import Corpus
import Dispatch
import Folding
import Index
import Locking

/// The searchable documents made from a corpus: every entity numbered in ranking order,
/// every name folded, and each document's field text (the words of its types, abilities,
/// genus, colour, habitat, in every language, and of its species' flags, legendary,
/// mythical, baby, in English as `is:` has them; a move's type and damage class; an item's
/// category). The in-memory index and the FTS5 tables are both built from this, so they
/// always agree.
public struct Documents: Sendable {
    public var entities: [Entity]
    public var names: [FoldedName]
    public var fields: [(doc: Int, text: String)]
    /// Each document's prose by language, folded for the prose index (`text:`).
    public var prose: [(doc: Int, language: String, text: String)]

    /// How documents are made from a corpus, stored with them at ingest (meta
    /// `documents_version`; none stored: 1). A database whose documents are older is
    /// rebuilt from its own corpus tables when opened (`Catalog.open`): searching it as it
    /// is would miss what the newer documents hold.
    /// 2: the species flags (legendary, mythical, baby) are field words.
    /// 3: the capitals Ø Ł Æ Œ Đ Þ Ð fold as their small letters do ("Œil" → "oeil", was "œil").
    /// 4: the prose index (`prose_fts`).
    public static let version = 4

    /// What the in-memory index is built from: these documents, and the corpus they were
    /// made from.
    public func indexInput(_ corpus: Corpus) -> IndexInput {
        IndexInput(entities: entities, names: names, fields: fields, corpus: corpus)
    }

    public init(corpus: Corpus) {
        // Document order is ranking order: kind, default Pokémon before forms, then id.
        var entities: [Entity] = []
        let pokemon = corpus.pokemon.sorted {
            let a = $0.isDefault && $0.formOf == nil, b = $1.isDefault && $1.formOf == nil
            return a != b ? a : ($0.id, $0.slug) < ($1.id, $1.slug)
        }
        for p in pokemon { entities.append(Entity(doc: entities.count, kind: .pokemon, id: p.id, slug: p.slug)) }
        for m in corpus.moves.sorted(by: { $0.id < $1.id }) { entities.append(Entity(doc: entities.count, kind: .move, id: m.id, slug: m.slug)) }
        for a in corpus.abilities.sorted(by: { $0.id < $1.id }) { entities.append(Entity(doc: entities.count, kind: .ability, id: a.id, slug: a.slug)) }
        for i in corpus.items.sorted(by: { $0.id < $1.id }) { entities.append(Entity(doc: entities.count, kind: .item, id: i.id, slug: i.slug)) }
        for t in corpus.types.sorted(by: { $0.id < $1.id }) { entities.append(Entity(doc: entities.count, kind: .type, id: t.id, slug: t.slug)) }
        self.entities = entities

        var docOf: [String: Int] = [:]
        for e in entities { docOf["\(e.kind.rawValue):\(e.id):\(e.slug)"] = e.doc }
        let entityNames = corpus.names.compactMap { name -> (Int, Name)? in
            guard let doc = docOf["\(name.kind):\(name.id):\(name.slug)"] else { return nil }
            return (doc, name)
        }
        names = Self.fold(entityNames)

        // Field words: the names (in every language) and slugs of what describes a document.
        var vocabularyNames: [String: [String]] = [:]   // "kind:slug" → raw names
        for name in corpus.names { vocabularyNames["\(name.kind):\(name.slug)", default: []].append(name.text) }
        var foldCache: [String: String] = [:]
        func folded(_ text: String) -> String {
            if let cached = foldCache[text] { return cached }
            let value = Folding.fold(text)
            foldCache[text] = value
            return value
        }
        func words(_ kind: String, _ slug: String?) -> [String] {
            guard let slug, !slug.isEmpty else { return [] }
            return [folded(slug)] + (vocabularyNames["\(kind):\(slug)"] ?? []).map(folded)
        }
        let pokemonBySlug = Dictionary(corpus.pokemon.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let speciesByID = Dictionary(corpus.species.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let movesBySlug = Dictionary(corpus.moves.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let itemsBySlug = Dictionary(corpus.items.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        var fields: [(doc: Int, text: String)] = []
        for e in entities {
            var parts: [String] = []
            switch e.kind {
            case .pokemon:
                guard let p = pokemonBySlug[e.slug] else { break }
                for type in p.types { parts += words("type", type) }
                for ability in p.abilities + [p.hiddenAbility].compactMap({ $0 }) { parts += words("ability", ability) }
                if let species = speciesByID[p.speciesID] {
                    parts += (vocabularyNames["genus:\(species.slug)"] ?? []).map(folded)
                    parts += words("color", species.color)
                    parts += words("habitat", species.habitat)
                    // "legendary psychic" as a user types it, beside `is:legendary type:psychic`.
                    if species.isLegendary { parts.append("legendary") }
                    if species.isMythical { parts.append("mythical") }
                    if species.isBaby { parts.append("baby") }
                }
            case .move:
                guard let m = movesBySlug[e.slug] else { break }
                parts += words("type", m.type) + words("damage-class", m.damageClass)
            case .item:
                guard let i = itemsBySlug[e.slug] else { break }
                parts += words("item-category", i.category)
            case .ability, .type:
                break
            }
            var seen = Set<Substring>()
            let unique = parts.flatMap { Folding.words($0) }.filter { seen.insert($0).inserted }
            if !unique.isEmpty { fields.append((e.doc, unique.joined(separator: " "))) }
        }
        self.fields = fields
        prose = Self.prose(corpus, entities: entities)
    }

    /// Folds names on every core: ICU folding and transliteration dominate ingest time.
    static func fold(_ names: [(Int, Name)]) -> [FoldedName] {
        let chunks = max(1, min(16, names.count / 2000))
        let results = Locked<[[FoldedName]]>(Array(repeating: [], count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (names.count * chunk / chunks)..<(names.count * (chunk + 1) / chunks)
            let folded = names[range].map { doc, name in FoldedName(doc: doc, language: name.language, raw: name.text) }
            results.withLock { $0[chunk] = folded }
        }
        return results.withLock { $0.flatMap { $0 } }
    }

    /// The text FTS5 indexes for each document's names: every distinct folded name,
    /// compact form and transliteration, one per line. The trigram tokenizer reads the
    /// newlines too, so no query (which never holds one) matches across two names.
    public var fullTextNames: [(doc: Int, text: String)] {
        var rows: [(doc: Int, text: String)] = []
        var current = -1
        var forms: [String] = []
        func flush() {
            if current >= 0 && !forms.isEmpty { rows.append((current, forms.joined(separator: "\n"))) }
            forms.removeAll(keepingCapacity: true)
        }
        for name in names {
            if name.doc != current { flush(); current = name.doc }
            var candidates = [name.folded, name.compact]
            if let translit = name.translit { candidates += [translit, Folding.compact(translit)] }
            for form in candidates where !form.isEmpty && !forms.contains(form) { forms.append(form) }
        }
        flush()
        return rows
    }
}
