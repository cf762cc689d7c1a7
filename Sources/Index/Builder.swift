import Corpus
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
            case .pokemon:
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
            guard name.doc < docCount, let language = Language.index(of: name.language) else { continue }
            namesByDoc[name.doc].append((UInt8(language), name.raw))
        }
        var nameStart: [UInt32] = [0]
        var nameLanguage: [UInt8] = []
        var nameStrings: [String] = []
        for entries in namesByDoc {
            for (language, text) in entries { nameLanguage.append(language); nameStrings.append(text) }
            nameStart.append(UInt32(nameLanguage.count))
        }

        // Keys → postings.
        var keyPostings: [String: [UInt32]] = [:]
        keyPostings.reserveCapacity(input.names.count * 3)
        func add(_ key: Substring, _ posting: Posting) {
            guard !key.isEmpty else { return }
            keyPostings[String(key), default: []].append(posting.raw)
        }
        func addName(_ folded: String, _ compact: String, doc: Int, language: UInt32, transliterated: Bool) {
            guard !folded.isEmpty else { return }
            add(folded[...], Posting(doc: doc, language: language, role: .whole, transliterated: transliterated))
            let words = Folding.words(folded)
            if words.count > 1 {
                add(compact[...], Posting(doc: doc, language: language, role: .compact, transliterated: transliterated))
                add(words[0], Posting(doc: doc, language: language, role: .firstWord, transliterated: transliterated))
                for word in words.dropFirst() {
                    add(word, Posting(doc: doc, language: language, role: .laterWord, transliterated: transliterated))
                }
            }
        }
        for name in input.names {
            guard name.doc < docCount, let language = Language.index(of: name.language) else { continue }
            addName(name.folded, name.compact, doc: name.doc, language: UInt32(language), transliterated: false)
            if let translit = name.translit, translit != name.folded {
                addName(translit, Folding.compact(translit), doc: name.doc, language: UInt32(language), transliterated: true)
            }
        }
        for field in input.fields where field.doc < docCount {
            for word in Set(Folding.words(field.text)) {
                add(word, Posting(doc: field.doc, language: Posting.noLanguage, role: .field, transliterated: false))
            }
        }
        var sortedKeys = keyPostings.map { (bytes: Array($0.key.utf8), postings: $0.value) }
        sortedKeys.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        var keyBytes: [UInt8] = []
        var keyOffsets: [UInt32] = [0]
        var postingStart: [UInt32] = [0]
        var postings: [UInt32] = []
        var nameKeys: [UInt32] = []
        keyOffsets.reserveCapacity(sortedKeys.count + 1)
        for (index, entry) in sortedKeys.enumerated() {
            keyBytes.append(contentsOf: entry.bytes)
            keyOffsets.append(UInt32(keyBytes.count))
            let list = Array(Set(entry.postings)).sorted()
            postings.append(contentsOf: list)
            postingStart.append(UInt32(postings.count))
            if list.contains(where: { Posting(raw: $0).role != .field }) { nameKeys.append(UInt32(index)) }
        }
        let keys = StringPool(bytes: keyBytes, offsets: keyOffsets)

        // Trie over the sorted keys, breadth first so each node's children are contiguous.
        var nodeChildStart: [UInt32] = []
        var nodeLabel: [UInt8] = [0]
        var nodeKeyLow: [UInt32] = [0]
        var nodeKeyHigh: [UInt32] = [UInt32(keys.count)]
        var nodeDepth: [UInt16] = [0]
        var next = 0
        keyBytes.withUnsafeBufferPointer { bytes in
            while next < nodeLabel.count {
                let depth = Int(nodeDepth[next])
                var low = Int(nodeKeyLow[next])
                let high = Int(nodeKeyHigh[next])
                nodeChildStart.append(UInt32(nodeLabel.count))
                while low < high && keys.length(low) <= depth { low += 1 } // keys ending here
                while low < high {
                    let byte = bytes[Int(keyOffsets[low]) + depth]
                    var end = low + 1
                    while end < high && keys.length(end) > depth && bytes[Int(keyOffsets[end]) + depth] == byte { end += 1 }
                    nodeLabel.append(byte)
                    nodeKeyLow.append(UInt32(low))
                    nodeKeyHigh.append(UInt32(end))
                    nodeDepth.append(UInt16(depth + 1))
                    low = end
                }
                next += 1
            }
        }
        nodeChildStart.append(UInt32(nodeLabel.count))

        // Trigrams over whole and compact names (each padded with two terminators so that
        // one- and two-character substrings are found through gram ranges).
        var gramPairs: [(UInt64, UInt32)] = []
        for (index, entry) in sortedKeys.enumerated() {
            guard entry.postings.contains(where: {
                let role = Posting(raw: $0).role
                return role == .whole || role == .compact
            }) else { continue }
            var scalars = String(decoding: entry.bytes, as: UTF8.self).unicodeScalars.map(\.value)
            scalars.append(0)
            scalars.append(0)
            var seen = Set<UInt64>()
            for i in 0..<(scalars.count - 2) {
                let code = Trigram.code(scalars[i], scalars[i + 1], scalars[i + 2])
                if seen.insert(code).inserted { gramPairs.append((code, UInt32(index))) }
            }
        }
        gramPairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var gramCodes: [UInt64] = []
        var gramStart: [UInt32] = []
        var gramKeys: [UInt32] = []
        gramKeys.reserveCapacity(gramPairs.count)
        for (code, key) in gramPairs {
            if gramCodes.last != code { gramCodes.append(code); gramStart.append(UInt32(gramKeys.count)) }
            gramKeys.append(key)
        }
        gramStart.append(UInt32(gramKeys.count))

        var abilitySlugByID: [Int32: String] = [:]
        for ability in corpus.abilities { abilitySlugByID[Int32(ability.id)] = ability.slug }

        return IndexSnapshot(
            docCount: docCount, docKind: docKind, docID: docID, docFlags: docFlags,
            slugs: StringPool(input.entities.map(\.slug)), nameStart: nameStart, nameLanguage: nameLanguage,
            nameTexts: StringPool(nameStrings), docTypes: docTypes, abilityStart: abilityStart, abilityRefs: abilityRefs,
            docColor: docColor, docHabitat: docHabitat, numbers: numbers, typeSlugs: typeSlugs, colorSlugs: colorSlugs,
            habitatSlugs: habitatSlugs, abilitySlugByID: abilitySlugByID, keys: keys, postingStart: postingStart,
            postings: postings, nodeChildStart: nodeChildStart, nodeLabel: nodeLabel, nodeKeyLow: nodeKeyLow,
            nodeKeyHigh: nodeKeyHigh, gramCodes: gramCodes, gramStart: gramStart, gramKeys: gramKeys, nameKeys: nameKeys,
            buildMilliseconds: (monotonicSeconds() - start) * 1000)
    }
}

/// Trigram codes: three Unicode scalars (21 bits each) in one integer, so that all grams
/// starting with the same one or two scalars form a contiguous range.
public enum Trigram {
    @inline(__always) public static func code(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt64 {
        UInt64(a) << 42 | UInt64(b) << 21 | UInt64(c)
    }
}

public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
