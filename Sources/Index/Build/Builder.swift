import Corpus
import Dispatch
import Folding
import Glibc

/// What the index is built from: the entities in document order, their folded names, and
/// each document's folded field text (type, ability, genus … words), plus the corpus facts.
public struct IndexInput: Sendable {
    public var entities: [Entity]
    public var names: [FoldedName]
    public var fields: [(doc: Int, text: String)]
    public var corpus: Corpus

    public init(entities: [Entity], names: [FoldedName], fields: [(doc: Int, text: String)], corpus: Corpus) {
        self.entities = entities
        self.names = names
        self.fields = fields
        self.corpus = corpus
    }
}

public enum IndexBuilder {
    public static func build(_ input: IndexInput) -> IndexSnapshot {
        let start = monotonicSeconds()
        let docCount = input.entities.count
        // In two phases of two independent halves, one per core: the key space beside the
        // documents' facts, then the suffix array beside the trie's lists.
        let (keyIndex, documents) = inParallel({ KeyIndexBuilder.build(names: input.names, fields: input.fields, fieldLanguages: FieldLanguages.of(input.corpus),
                                                                        docCount: docCount) },
                                               { documentFacts(input) })
        let (suffixes, trieLists) = inParallel({
            SuffixArray.build(keyIndex.keys, postingStart: keyIndex.postingStart, postings: keyIndex.postings)
        }, {
            (PrefixTops.build(keys: keyIndex.keys, postingStart: keyIndex.postingStart, postings: keyIndex.postings,
                              childStart: keyIndex.nodeChildStart, depth: keyIndex.nodeDepth, low: keyIndex.nodeKeyLow,
                              high: keyIndex.nodeKeyHigh, docCount: docCount),
             IndexSnapshot.nodeBytes(keys: keyIndex.keys, childStart: keyIndex.nodeChildStart, depth: keyIndex.nodeDepth,
                                     low: keyIndex.nodeKeyLow),
             WholeWordLists.build(postingStart: keyIndex.postingStart, postings: keyIndex.postings))
        })
        let d = documents
        let trieNodes = TrieNode.records(childStart: keyIndex.nodeChildStart, depth: keyIndex.nodeDepth, low: keyIndex.nodeKeyLow,
                                         high: keyIndex.nodeKeyHigh)
        return IndexSnapshot(
            documents: .init(docCount: docCount, docKind: d.docKind, docID: d.docID, docFlags: d.docFlags, slugs: d.slugs,
                             slugOrder: d.slugOrder, docTypes: d.docTypes, abilityStart: d.abilityStart, abilityRefs: d.abilityRefs,
                             docColor: d.docColor, docHabitat: d.docHabitat, numbers: d.numbers),
            names: .init(nameStart: d.nameStart, nameLanguage: d.nameLanguage, nameTexts: d.nameTexts),
            vocabulary: .init(typeSlugs: d.typeSlugs, colorSlugs: d.colorSlugs, habitatSlugs: d.habitatSlugs,
                              abilitySlugByID: d.abilitySlugByID),
            keys: .init(keys: keyIndex.keys, postingStart: keyIndex.postingStart, postings: keyIndex.postings,
                        neutralNames: IndexSnapshot.neutralNameBits(postingStart: keyIndex.postingStart, postings: keyIndex.postings),
                        trieNodes: trieNodes,
                        nodeByte: trieLists.1, nodePaths: NodePaths.build(nodes: trieNodes, keys: keyIndex.keys)),
            suffixes: suffixes, tops: trieLists.0, wholeWords: trieLists.2, symbolNames: d.symbolNames, cards: d.cards,
            buildMilliseconds: (monotonicSeconds() - start) * 1000)
    }

    /// Everything about the documents themselves: kinds, ids, flags, types, abilities,
    /// numbers, display names, slugs, cards.
    struct DocumentFacts {
        var docKind: [UInt8], docID: [Int32], docFlags: [UInt8], docTypes: [UInt8], docColor: [UInt8], docHabitat: [UInt8]
        var abilityStart: [UInt32], abilityRefs: [UInt16], numbers: [[Int32]]
        var typeSlugs: [String], colorSlugs: [String], habitatSlugs: [String], abilitySlugByID: [Int32: String]
        var nameStart: [UInt32], nameLanguage: [UInt8], nameTexts: StringPool, slugs: StringPool
        var cards: DocCards, slugOrder: [UInt32], symbolNames: SymbolNames
    }

    static func documentFacts(_ input: IndexInput) -> DocumentFacts {
        let corpus = input.corpus
        let docCount = input.entities.count
        // Documents and their facts.
        let typeSlugs = corpus.types.map(\.slug)
        let typeIndex = Dictionary(uniqueKeysWithValues: typeSlugs.enumerated().map { ($1, UInt8($0)) })
        let colorSlugs = (corpus.vocabulary["color"] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
        let habitatSlugs = (corpus.vocabulary["habitat"] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
        let colorIndex = Dictionary(uniqueKeysWithValues: colorSlugs.enumerated().map { ($1, UInt8($0)) })
        let habitatIndex = Dictionary(uniqueKeysWithValues: habitatSlugs.enumerated().map { ($1, UInt8($0)) })
        let abilityIDs = Dictionary(corpus.abilities.map { ($0.slug, $0.id) }, uniquingKeysWith: { a, _ in a })
        let pokemonBySlug = Dictionary(corpus.pokemon.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let speciesByID = Dictionary(corpus.species.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let movesBySlug = Dictionary(corpus.moves.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let itemsBySlug = Dictionary(corpus.items.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let abilitiesBySlug = Dictionary(corpus.abilities.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
        let typesBySlug = Dictionary(corpus.types.map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })

        var docKind = [UInt8](repeating: 0, count: docCount)
        var docID = [Int32](repeating: 0, count: docCount)
        var docFlags = [UInt8](repeating: 0, count: docCount)
        var docTypes = [UInt8](repeating: 255, count: docCount * 2)
        var docColor = [UInt8](repeating: 255, count: docCount)
        var docHabitat = [UInt8](repeating: 255, count: docCount)
        var abilityStart: [UInt32] = [0]
        var abilityRefs: [UInt16] = []
        var numbers = [[Int32]](repeating: [Int32](repeating: NumericColumn.missing, count: docCount),
                                count: NumericColumn.allCases.count)
        func set(_ column: NumericColumn, _ doc: Int, _ value: Int?) {
            if let value { numbers[column.rawValue][doc] = Int32(clamping: value) }
        }
        for entity in input.entities {
            let doc = entity.doc
            docKind[doc] = UInt8(entity.kind.rank)
            docID[doc] = Int32(clamping: entity.id)
            var flags: DocFlags = []
            switch entity.kind {
            case .pokemon, .form:
                guard let p = pokemonBySlug[entity.slug] else { break }
                if p.isDefault && p.formOf == nil { flags.insert(.isDefault) }
                if p.isMega { flags.insert(.mega) }
                if p.formOf != nil { flags.insert(.cosmeticForm) }
                for (slot, type) in p.types.prefix(2).enumerated() { docTypes[doc * 2 + slot] = typeIndex[type] ?? 255 }
                for ability in p.abilities { if let id = abilityIDs[ability] { abilityRefs.append(UInt16(id)) } }
                if let hidden = p.hiddenAbility, let id = abilityIDs[hidden] { abilityRefs.append(UInt16(id) | 0x8000) }
                let stats = p.stats
                set(.hp, doc, stats.hp); set(.attack, doc, stats.attack); set(.defense, doc, stats.defense)
                set(.specialAttack, doc, stats.specialAttack); set(.specialDefense, doc, stats.specialDefense)
                set(.speed, doc, stats.speed); set(.total, doc, stats.total)
                set(.height, doc, p.height); set(.weight, doc, p.weight); set(.speciesID, doc, p.speciesID)
                if let species = speciesByID[p.speciesID] {
                    if species.isLegendary { flags.insert(.legendary) }
                    if species.isMythical { flags.insert(.mythical) }
                    if species.isBaby { flags.insert(.baby) }
                    set(.generation, doc, species.generation)
                    docColor[doc] = species.color.flatMap { colorIndex[$0] } ?? 255
                    docHabitat[doc] = species.habitat.flatMap { habitatIndex[$0] } ?? 255
                }
            case .move:
                flags.insert(.isDefault)
                guard let m = movesBySlug[entity.slug] else { break }
                docTypes[doc * 2] = typeIndex[m.type] ?? 255
                set(.power, doc, m.power); set(.accuracy, doc, m.accuracy); set(.pp, doc, m.pp)
                set(.generation, doc, m.generation)
            case .item:
                flags.insert(.isDefault)
                set(.cost, doc, itemsBySlug[entity.slug]?.cost)
            case .ability:
                flags.insert(.isDefault)
                set(.generation, doc, abilitiesBySlug[entity.slug]?.generation)
            case .type:
                flags.insert(.isDefault)
                set(.generation, doc, typesBySlug[entity.slug]?.generation)
            }
            docFlags[doc] = flags.rawValue
            abilityStart.append(UInt32(abilityRefs.count))
        }

        // Display names, grouped by document.
        var namesByDoc = [[(UInt8, String)]](repeating: [], count: docCount)
        for name in input.names {
            // One display name a language, the first: later ones (a form's other names) are searched only.
            guard name.doc < docCount, let language = Language.index(of: name.language).map(UInt8.init),
                  !namesByDoc[name.doc].contains(where: { $0.0 == language }) else { continue }
            namesByDoc[name.doc].append((language, name.raw))
        }
        var nameStart: [UInt32] = [0]
        var nameLanguage: [UInt8] = []
        var nameStrings: [String] = []
        for entries in namesByDoc {
            for (language, text) in entries { nameLanguage.append(language); nameStrings.append(text) }
            nameStart.append(UInt32(nameLanguage.count))
        }

        var abilitySlugByID: [Int32: String] = [:]
        for ability in corpus.abilities { abilitySlugByID[Int32(ability.id)] = ability.slug }
        let slugs = StringPool(input.entities.map(\.slug))
        let nameTexts = StringPool(nameStrings)
        return DocumentFacts(
            docKind: docKind, docID: docID, docFlags: docFlags, docTypes: docTypes, docColor: docColor, docHabitat: docHabitat,
            abilityStart: abilityStart, abilityRefs: abilityRefs, numbers: numbers, typeSlugs: typeSlugs, colorSlugs: colorSlugs,
            habitatSlugs: habitatSlugs, abilitySlugByID: abilitySlugByID, nameStart: nameStart, nameLanguage: nameLanguage,
            nameTexts: nameTexts, slugs: slugs,
            cards: DocCards.build(docKind: docKind, docID: docID, docTypes: docTypes, slugs: slugs, nameStart: nameStart,
                                  nameLanguage: nameLanguage, nameTexts: nameTexts),
            slugOrder: IndexSnapshot.slugOrder(docKind: docKind, slugs: slugs), symbolNames: SymbolNames.build(nameTexts))
    }
}

/// Runs two independent pieces of work at once, the second on another thread, and returns
/// both results.
func inParallel<A, B>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    let a = ParallelResult<A>(), b = ParallelResult<B>()
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        if part == 0 { a.value = first() } else { b.value = second() }
    }
    return (a.value!, b.value!)
}

/// One result of `inParallel`: written by one thread, read once both are done.
private final class ParallelResult<T>: @unchecked Sendable {
    var value: T?
}

public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
