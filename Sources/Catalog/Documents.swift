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
    /// 4: every name people type: forms' other names, slugs, synonyms (`searchedNames`).
    /// 5: a slug is a name even where a name in some language folds alike.
    /// 6: the prose index (`prose_fts`).
    /// 7: move effects' prose says the move's effect chance (`EffectChance`); the prose
    ///    index's rowids hold each row's document and size (`ProseRowID`).
    /// 8: cosmetic forms are entities of kind `form`, after every Pokémon.
    public static let version = 8

    /// What the in-memory index is built from: these documents, and the corpus they were
    /// made from.
    public func indexInput(_ corpus: Corpus) -> IndexInput {
        IndexInput(entities: entities, names: names, fields: fields, corpus: corpus)
    }

    /// `userSynonyms`: the user's own (`pokesearch synonym`), beside the corpus's.
    public init(corpus: Corpus, userSynonyms: [Synonym] = []) {
        // Document order is ranking order: kind, default Pokémon before the other Pokémon,
        // then id.
        var entities: [Entity] = []
        let pokemon = corpus.pokemon.sorted {
            if $0.kind != $1.kind { return $0.kind < $1.kind }
            return $0.isDefault != $1.isDefault ? $0.isDefault : ($0.id, $0.slug) < ($1.id, $1.slug)
        }
        for p in pokemon { entities.append(Entity(doc: entities.count, kind: p.kind, id: p.id, slug: p.slug)) }
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
        let formNames = corpus.formNames.compactMap { name -> (Int, Name)? in
            docOf["\(name.kind):\(name.id):\(name.slug)"].map { ($0, name) }
        }
        let allFolded = Self.fold(entityNames + formNames + Self.slugNames(entities))
        let displayed = Array(allFolded[..<entityNames.count])
        names = displayed + Self.searchedNames(allFolded[entityNames.count...], entities: entities, displayed: displayed,
                                 synonyms: corpus.synonyms + userSynonyms)

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
            case .pokemon, .form:
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

    /// Every entity's slug as a name ("rotom-wash": "rotom wash", compact "rotomwash").
    static func slugNames(_ entities: [Entity]) -> [(Int, Name)] {
        entities.map { e in (e.doc, Name(kind: e.kind.rawValue, id: e.id, slug: e.slug, language: Language.slug, text: e.slug)) }
    }

    /// The names searched beside the displayed ones (`displayed`, already folded): forms'
    /// other names and slugs (`extra`, folded), then the names synonyms give
    /// (`synonymNames`).
    static func searchedNames(_ extra: ArraySlice<FoldedName>, entities: [Entity], displayed: [FoldedName],
                              synonyms: [Synonym]) -> [FoldedName] {
        var names = NewNames(docCount: entities.count, base: displayed)
        // Form names in their languages before any language-less name.
        for name in extra where name.language != Language.slug { names.keep(name) }
        for name in extra where name.language == Language.slug { names.keep(name) }
        return names.kept + synonymNames(base: displayed + names.kept, entities: entities, synonyms: synonyms)
    }

    /// The names synonyms give (language `Synonym.language`: none, or romaji) beside the `base` names: each
    /// entity synonym's term as a name of its entity, and each Pokémon's English name, form
    /// name or slug with a form word swapped for another of its group ("Alolan Raticate":
    /// "alola raticate"; "nidoran f": "nidoran female").
    public static func synonymNames(base: [FoldedName], entities: [Entity], synonyms: [Synonym]) -> [FoldedName] {
        var names = NewNames(docCount: entities.count, base: base)
        var docOf: [String: Int] = [:]
        for e in entities.reversed() { docOf["\(e.kind.rawValue):\(e.slug)"] = e.doc }
        var groups: [String: Set<String>] = [:]       // group head → its words, folded
        for synonym in synonyms {
            if synonym.kind == Synonym.wordKind {
                let head = Folding.fold(synonym.slug)
                groups[head, default: [head]].insert(Folding.fold(synonym.term))
            } else if let doc = docOf["\(synonym.kind):\(synonym.slug)"] {
                names.keep(FoldedName(doc: doc, language: synonym.language, raw: synonym.term))
            }
        }
        var alternatives: [String: [String]] = [:]   // word → the other words of its group
        for words in groups.values {
            for word in words where !word.isEmpty && !Folding.hasSeveralWords(word) {
                alternatives[word, default: []] += words.filter { $0 != word && !$0.isEmpty }.sorted()
            }
        }
        for name in base where (name.language == "en" || name.language == Language.slug)
            && name.doc < entities.count && [.pokemon, .form].contains(entities[name.doc].kind) {
            let words = Folding.words(name.folded).map(String.init)
            for (position, word) in words.enumerated() {
                for alternative in alternatives[word] ?? [] {
                    var swapped = words
                    swapped[position] = alternative
                    names.keep(FoldedName(doc: name.doc, language: Language.synonym, raw: swapped.joined(separator: " ")))
                }
            }
        }
        return names.kept
    }

    /// Names added to documents once each: one a document already has (as written, or as
    /// another name's compact form) is left out. A language-less name (slug, synonym) is
    /// compared with language-less names only: it ranks in every display language, where a
    /// name of one language alike ("pikachu", English) is foreign to the others.
    struct NewNames {
        var known: [Set<String>]
        var knownNeutral: [Set<String>]
        var kept: [FoldedName] = []

        init(docCount: Int, base: [FoldedName]) {
            known = Array(repeating: [], count: docCount)
            knownNeutral = Array(repeating: [], count: docCount)
            for name in base where name.doc < docCount { remember(name) }
        }

        mutating func keep(_ name: FoldedName) {
            // "rotom w" stays beside "rotomw": its words match where the compact cannot.
            guard name.doc < known.count, !name.folded.isEmpty else { return }
            let neutral = Language.neutralCodes.contains(name.language)
            guard !(neutral ? knownNeutral : known)[name.doc].contains(name.folded) else { return }
            remember(name)
            kept.append(name)
        }

        private mutating func remember(_ name: FoldedName) {
            if Language.neutralCodes.contains(name.language) {
                knownNeutral[name.doc].insert(name.folded)
                knownNeutral[name.doc].insert(name.compact)
            } else {
                known[name.doc].insert(name.folded)
                known[name.doc].insert(name.compact)
            }
        }
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
    public var fullTextNames: [(doc: Int, text: String)] { Self.fullText(of: names) }

    /// The full text of `names`, one row a document, as `fullTextNames` gives it.
    public static func fullText(of names: [FoldedName]) -> [(doc: Int, text: String)] {
        // A document's searched names come after every displayed one: grouped here (stably).
        let names = names.sorted { $0.doc < $1.doc }
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
