import Corpus
import Folding
import Glibc

/// How a key stands in one of a document's texts.
public enum KeyRole: UInt32, Sendable {
    /// The whole folded name ("mr mime", "pikachu").
    case whole = 0
    /// The whole name without spaces ("mrmime"), when it differs from `whole`.
    case compact = 1
    /// The first word of a name of several words ("mr").
    case firstWord = 2
    /// A later word of a name ("mime").
    case laterWord = 3
    /// A word of a field: type, ability, genus, colour, habitat; move type and damage
    /// class; item category.
    case field = 4
}

/// One occurrence of a key in a document, packed in 32 bits:
/// doc (24 bits) | language (4) | role (3) | transliterated (1).
public struct Posting: Sendable, Hashable {
    public let raw: UInt32
    @inlinable public static var noLanguage: UInt32 { 15 }

    public init(doc: Int, language: UInt32, role: KeyRole, transliterated: Bool) {
        raw = UInt32(doc) << 8 | (language & 15) << 4 | role.rawValue << 1 | (transliterated ? 1 : 0)
    }
    public init(raw: UInt32) { self.raw = raw }

    // Inlinable: read per posting in the query module's hot loops.
    @inlinable public var doc: Int { Int(raw >> 8) }
    @inlinable public var language: UInt32 { (raw >> 4) & 15 }
    @inlinable public var role: KeyRole { KeyRole(rawValue: (raw >> 1) & 7)! }
    @inlinable public var roleBits: UInt32 { (raw >> 1) & 7 }
    @inlinable public var isTransliterated: Bool { raw & 1 != 0 }

    /// 1 when the posting (`raw`, or any value with a posting's low byte) is of a name in
    /// another language than `display`, else 0 (what the language rule counts). What has no
    /// language (slugs, synonyms, field words of no language's names) counts as the display
    /// language's.
    @inlinable @inline(__always) public static func languageMiss(_ raw: UInt32, display: UInt32) -> UInt32 {
        let language = (raw >> 4) & 15
        return language == noLanguage || language == display ? 0 : 1
    }

    /// Whether the posting (`raw`, or any value with a posting's low byte) is of a whole name
    /// (as written or compact), not one of its words or a field: what an exact match or a name
    /// holding a word further in counts.
    @inlinable @inline(__always) public static func isWholeName(_ raw: UInt32) -> Bool {
        let role = (raw >> 1) & 7
        return role == KeyRole.whole.rawValue || role == KeyRole.compact.rawValue
    }

    /// The same, for a posting read.
    @inlinable public var isWholeName: Bool { Self.isWholeName(raw) }

    /// Whether the posting (`raw`, or any value with a posting's low byte) is of a field (a
    /// type, ability, colour... word), not of a name.
    @inlinable @inline(__always) public static func isField(_ raw: UInt32) -> Bool { (raw >> 1) & 7 == KeyRole.field.rawValue }

    /// Whether a term found inside the key of this posting (`raw`, or any value with a
    /// posting's low byte) is inside a name: a whole name as written; a compact form only
    /// for a term beyond ASCII (`latinTerm` false). Latin names space their words, and a
    /// Latin term inside a compact form is across two of them ("ttar" inside
    /// "cufanttarnish"); kana, hangul and han run their words together, the spaces in their
    /// names are folded brackets ("マダムゴミノミノ" inside "ミノマダム (ゴミノミノ)").
    @inlinable @inline(__always) public static func holdsInside(_ raw: UInt32, latinTerm: Bool) -> Bool {
        let role = (raw >> 1) & 7
        return role == KeyRole.whole.rawValue || (role == KeyRole.compact.rawValue && !latinTerm)
    }
}

/// One trie node, its fields side by side: a step down the trie reads one record, a
/// cache line's quarter (as columns, the step read four arrays). Sixteen bytes without
/// padding, stored as they are.
struct TrieNode: BitwiseCopyable {
    /// Its first child (children are contiguous).
    var childStart: UInt32
    /// The keys starting with its path: key indexes `keyLow..<keyHigh`. Its edge is its
    /// first key's bytes from its parent's depth to its own.
    var keyLow: UInt32
    var keyHigh: UInt32
    var depth: UInt16
    /// Its children, one per next byte: at most 256.
    var childCount: UInt16

    @inline(__always) var children: Range<Int> { Int(childStart)..<Int(childStart) + Int(childCount) }

    /// The records of a trie built as columns (`KeyIndexBuilder.buildTrie`).
    static func records(childStart: [UInt32], depth: [UInt16], low: [UInt32], high: [UInt32]) -> [TrieNode] {
        var nodes: [TrieNode] = []
        nodes.reserveCapacity(depth.count)
        for node in 0..<depth.count {
            nodes.append(TrieNode(childStart: childStart[node], keyLow: low[node], keyHigh: high[node], depth: depth[node],
                                  childCount: UInt16(childStart[node + 1] - childStart[node])))
        }
        return nodes
    }
}

/// Per-document flags.
public struct DocFlags: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let isDefault = DocFlags(rawValue: 1)
    public static let legendary = DocFlags(rawValue: 2)
    public static let mythical = DocFlags(rawValue: 4)
    public static let baby = DocFlags(rawValue: 8)
    public static let mega = DocFlags(rawValue: 16)
    public static let cosmeticForm = DocFlags(rawValue: 32)
}

/// Numeric columns that filters and sorting read, one value per document
/// (`NumericColumn.missing` where a kind has no such number).
public enum NumericColumn: Int, CaseIterable, Sendable, Equatable {
    case hp, attack, defense, specialAttack, specialDefense, speed, total, height, weight
    case power, accuracy, pp, cost, generation, speciesID
    public static let missing = Int32.min
}

/// The immutable in-memory index: every array is flat and fixed-width so that it builds
/// quickly, serialises by copying bytes, and is shared by any number of threads.
///
/// Keys (folded names, their words, compact forms, transliterations and field words) are
/// kept sorted byte-wise; a prefix is a contiguous key range. A byte trie over the same
/// keys (children contiguous, each node knowing its key range) serves typo search, and
/// a suffix array over whole names (and keys of fields alone) serves substrings, wildcards
/// and two-edit typos.
public final class IndexSnapshot: Sendable {
    /// 7: a suffix array instead of trigram postings. 8: the trie's nodes as records.
    /// 9: the names holding each symbol. 10: the suffix array's sample heads. 11: the nodes
    /// by their paths. 12: the lists ranked by the named rules, their names apart from their
    /// fields. 13: field words in their languages. 14: the kind `form` (kinds renumbered).
    /// 15: a prefix of a name of no language ranked as another language's. 18: common keys'
    /// whole words listed best first. 19: suffixes of keys that are no whole name marked.
    public static let formatVersion = 19

    // Documents
    public let docCount: Int
    public let docKind: [UInt8]
    public let docID: [Int32]
    public let docFlags: [UInt8]
    public let slugs: StringPool
    /// Display names: doc → entries [nameStart[doc], nameStart[doc+1]) of (language, text).
    public let nameStart: [UInt32]
    public let nameLanguage: [UInt8]
    public let nameTexts: StringPool
    /// Types (indexes into `typeSlugs`, 255 = none), abilities (ability id | 0x8000 if hidden).
    public let docTypes: [UInt8]          // 2 per doc
    public let abilityStart: [UInt32]
    public let abilityRefs: [UInt16]
    public let docColor: [UInt8]
    public let docHabitat: [UInt8]
    public let numbers: [[Int32]]         // by NumericColumn
    public let typeSlugs: [String]
    /// `typeSlugs`, `habitatSlugs` and the ability slugs folded as query text is, to compare
    /// with its words.
    public let foldedTypeSlugs: [String]
    public let foldedHabitatSlugs: [String]
    public let abilityIDsByFoldedSlug: [String: [Int32]]
    public let colorSlugs: [String]
    public let habitatSlugs: [String]
    public let abilitySlugByID: [Int32: String]

    // Keys and postings
    public let keys: StringPool
    public let postingStart: [UInt32]
    public let postings: [UInt32]
    /// One bit a key: whether it is a whole name of no language (`isNeutralName`).
    let neutralNames: [UInt64]

    // Trie over keys
    /// The nodes, breadth first (the root first; each node's children contiguous).
    let trieNodes: [TrieNode]
    /// The first byte of each node's edge (0 for the root): a walk down compares children's
    /// bytes side by side instead of reading each child's key.
    public let nodeByte: [UInt8]
    /// The root's child for each first byte (-1: none), made when the snapshot is: the root
    /// has the most children (every first byte of every key), and every lookup starts there.
    let rootChild: [Int32]
    /// The nodes at least four bytes down whose paths start beyond ASCII (kana, hangul, han...),
    /// by their paths: a prefix ending at one is found without walking down to it.
    let nodePaths: NodePaths

    // Every suffix of whole names, their compact forms and keys of fields alone, sorted.
    public let suffixes: SuffixArray

    /// Best-first document lists of the trie's large nodes, for one-word queries.
    public let tops: PrefixTops
    /// The best whole words of the keys with many postings, for one-word queries equal to one.
    public let wholeWords: WholeWordLists
    /// The names holding each symbol, for queries of symbols alone.
    let symbolNames: SymbolNames
    /// Each document's result facts together, for reading results quickly.
    public let cards: DocCards

    public let buildMilliseconds: Double
    /// Documents ordered by kind then slug bytes, for `doc(kind:slug:)`.
    public let slugOrder: [UInt32]

    /// Each document's own facts (kinds, ids, flags, slugs, types, abilities, numbers), in
    /// document order.
    struct DocumentParts {
        var docCount: Int
        var docKind: [UInt8], docID: [Int32], docFlags: [UInt8], slugs: StringPool, slugOrder: [UInt32]
        var docTypes: [UInt8], abilityStart: [UInt32], abilityRefs: [UInt16], docColor: [UInt8], docHabitat: [UInt8]
        var numbers: [[Int32]]
    }

    /// Each document's display names in every language.
    struct NameParts {
        var nameStart: [UInt32], nameLanguage: [UInt8], nameTexts: StringPool
    }

    /// The slugs the documents' types, colours, habitats and abilities refer to by number.
    struct Vocabulary {
        var typeSlugs: [String], colorSlugs: [String], habitatSlugs: [String], abilitySlugByID: [Int32: String]
    }

    /// The sorted keys with their postings, and the radix trie over them.
    struct KeyParts {
        var keys: StringPool, postingStart: [UInt32], postings: [UInt32], neutralNames: [UInt64]
        var trieNodes: [TrieNode], nodeByte: [UInt8], nodePaths: NodePaths
    }

    var documentParts: DocumentParts {
        DocumentParts(docCount: docCount, docKind: docKind, docID: docID, docFlags: docFlags, slugs: slugs, slugOrder: slugOrder,
                      docTypes: docTypes, abilityStart: abilityStart, abilityRefs: abilityRefs, docColor: docColor,
                      docHabitat: docHabitat, numbers: numbers)
    }
    var nameParts: NameParts { NameParts(nameStart: nameStart, nameLanguage: nameLanguage, nameTexts: nameTexts) }
    var vocabulary: Vocabulary {
        Vocabulary(typeSlugs: typeSlugs, colorSlugs: colorSlugs, habitatSlugs: habitatSlugs, abilitySlugByID: abilitySlugByID)
    }
    var keyParts: KeyParts {
        KeyParts(keys: keys, postingStart: postingStart, postings: postings, neutralNames: neutralNames, trieNodes: trieNodes,
                 nodeByte: nodeByte, nodePaths: nodePaths)
    }

    init(documents d: DocumentParts, names: NameParts, vocabulary v: Vocabulary, keys k: KeyParts, suffixes: SuffixArray,
         tops: PrefixTops, wholeWords: WholeWordLists, symbolNames: SymbolNames, cards: DocCards, buildMilliseconds: Double) {
        docCount = d.docCount
        docKind = d.docKind
        docID = d.docID
        docFlags = d.docFlags
        slugs = d.slugs
        slugOrder = d.slugOrder
        nameStart = names.nameStart
        nameLanguage = names.nameLanguage
        nameTexts = names.nameTexts
        docTypes = d.docTypes
        abilityStart = d.abilityStart
        abilityRefs = d.abilityRefs
        docColor = d.docColor
        docHabitat = d.docHabitat
        numbers = d.numbers
        typeSlugs = v.typeSlugs
        foldedTypeSlugs = v.typeSlugs.map(Folding.fold)
        foldedHabitatSlugs = v.habitatSlugs.map(Folding.fold)
        abilityIDsByFoldedSlug = Dictionary(grouping: v.abilitySlugByID.keys) { Folding.fold(v.abilitySlugByID[$0]!) }
        colorSlugs = v.colorSlugs
        habitatSlugs = v.habitatSlugs
        abilitySlugByID = v.abilitySlugByID
        keys = k.keys
        postingStart = k.postingStart
        postings = k.postings
        neutralNames = k.neutralNames
        trieNodes = k.trieNodes
        nodeByte = k.nodeByte
        var rootChild = [Int32](repeating: -1, count: 256)
        // (Made before a snapshot read from disk is checked: a child out of bounds is left out.)
        for child in k.trieNodes.first?.children ?? 0..<0 where child < k.nodeByte.count { rootChild[Int(k.nodeByte[child])] = Int32(child) }
        self.rootChild = rootChild
        nodePaths = k.nodePaths
        self.suffixes = suffixes
        self.tops = tops
        self.wholeWords = wholeWords
        self.symbolNames = symbolNames
        self.cards = cards
        self.buildMilliseconds = buildMilliseconds
    }

    static func nodeBytes(keys: StringPool, childStart: [UInt32], depth: [UInt16], low: [UInt32]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: depth.count)
        for parent in 0..<depth.count {
            for child in Int(childStart[parent])..<Int(childStart[parent + 1]) {
                bytes[child] = keys.bytes[Int(keys.offsets[Int(low[child])]) + Int(depth[parent])]
            }
        }
        return bytes
    }

    public var nodeCount: Int { trieNodes.count }

    /// The keys under a trie node (those starting with its path).
    @inline(__always) public func nodeKeys(_ node: Int) -> Range<Int> {
        Int(trieNodes[node].keyLow)..<Int(trieNodes[node].keyHigh)
    }

    static func slugOrder(docKind: [UInt8], slugs: StringPool) -> [UInt32] {
        (0..<UInt32(docKind.count)).sorted { a, b in
            let x = Int(a), y = Int(b)
            if docKind[x] != docKind[y] { return docKind[x] < docKind[y] }
            return slugs.bytes[slugs.range(x)].lexicographicallyPrecedes(slugs.bytes[slugs.range(y)])
        }
    }

    // MARK: Document accessors

    public func kind(_ doc: Int) -> Kind { Kind(rank: Int(docKind[doc]))! }
    public func id(_ doc: Int) -> Int { Int(docID[doc]) }
    public func slug(_ doc: Int) -> String { slugs.string(doc) }
    public func flags(_ doc: Int) -> DocFlags { DocFlags(rawValue: docFlags[doc]) }

    /// The name in `language` (a Language index), else English, else the slug.
    public func displayName(_ doc: Int, language: Int) -> String {
        withCard(doc, language: language) { String(decoding: $0.name, as: UTF8.self) }
    }

    /// Calls `body` with each name (document, entry of `nameTexts`) holding `needle` as
    /// written, and the byte offset where it first does, in entry order: for a query of
    /// symbols alone, which folding leaves empty. The names holding the needle's rarest
    /// symbol (`symbolNames`) are read; a needle without a symbol finds no name (every query
    /// of symbols alone holds one: the parser's white space is Unicode's).
    public func forEachNameHolding(symbols needle: [UInt8], _ body: (_ doc: Int, _ entry: Int, _ offset: Int) -> Void) {
        guard let candidates = symbolNames.candidates(for: needle) else { return }
        nameTexts.bytes.withUnsafeBufferPointer { bytes in
            needle.withUnsafeBufferPointer { needle in
                nameStart.withUnsafeBufferPointer { nameStart in
                    var doc = 0
                    for entry in candidates.lazy.map(Int.init) {
                        let name = UnsafeBufferPointer(rebasing: bytes[nameTexts.range(entry)])
                        guard let offset = Self.firstOffset(of: needle, in: name) else { continue }
                        doc = Self.lastIndex(in: nameStart, from: doc, atMost: entry)
                        body(doc, entry, offset)
                    }
                }
            }
        }
    }

    /// The last index at or after `from` of ascending `values` whose value is at most `value`
    /// (`from` itself when none is): galloping, then a binary search in the last stride.
    static func lastIndex(in values: UnsafeBufferPointer<UInt32>, from: Int, atMost value: Int) -> Int {
        var known = from, step = 1
        while known + step < values.count && Int(values[known + step]) <= value {
            known += step
            step <<= 1
        }
        var high = min(known + step, values.count) // values[high] > value, or the end
        while known + 1 < high {
            let mid = (known + high) >> 1
            if Int(values[mid]) <= value { known = mid } else { high = mid }
        }
        return known
    }

    /// All names of a document as (language code, text).
    public func names(_ doc: Int) -> [(language: String, text: String)] {
        (Int(nameStart[doc])..<Int(nameStart[doc + 1])).map { (Language.codes[Int(nameLanguage[$0])], nameTexts.string($0)) }
    }

    public func types(_ doc: Int) -> [String] { typeSlugs(of: (docTypes[doc * 2], docTypes[doc * 2 + 1])) }

    public func number(_ column: NumericColumn, _ doc: Int) -> Int32 { numbers[column.rawValue][doc] }

    public func abilities(_ doc: Int) -> [(slug: String, hidden: Bool)] {
        (Int(abilityStart[doc])..<Int(abilityStart[doc + 1])).map { entry in
            let ref = abilityRefs[entry]
            return (abilitySlugByID[Int32(ref & 0x7FFF)] ?? "", ref & 0x8000 != 0)
        }
    }

    public func color(_ doc: Int) -> String? { docColor[doc] == 255 ? nil : colorSlugs[Int(docColor[doc])] }
    public func habitat(_ doc: Int) -> String? { docHabitat[doc] == 255 ? nil : habitatSlugs[Int(docHabitat[doc])] }

    /// Documents with a given id in any kind, in document order.
    public func docs(withID id: Int) -> [Int] {
        (0..<docCount).filter { Int(docID[$0]) == id }
    }

    /// The document of a kind and slug: a binary search over documents ordered by
    /// (kind, slug).
    public func doc(kind: Kind, slug: String) -> Int? {
        let kindRaw = UInt8(kind.rank)
        let target = Array(slug.utf8)
        var low = 0, high = slugOrder.count
        while low < high {
            let mid = (low + high) >> 1
            let doc = Int(slugOrder[mid])
            if docKind[doc] < kindRaw || (docKind[doc] == kindRaw && slugs.bytes[slugs.range(doc)].lexicographicallyPrecedes(target)) {
                low = mid + 1
            } else {
                high = mid
            }
        }
        guard low < slugOrder.count else { return nil }
        let doc = Int(slugOrder[low])
        return docKind[doc] == kindRaw && slugs.equals(doc, slug) ? doc : nil
    }

    /// Approximate bytes held by the index arrays.
    public var byteSize: Int {
        var total = docKind.count + docID.count * 4 + docFlags.count + slugs.byteSize + nameStart.count * 4
        total += nameLanguage.count + nameTexts.byteSize + docTypes.count + abilityStart.count * 4 + abilityRefs.count * 2
        total += docColor.count + docHabitat.count + numbers.reduce(0) { $0 + $1.count * 4 }
        total += keys.byteSize + postingStart.count * 4 + postings.count * 4 + neutralNames.count * 8
        total += trieNodes.count * MemoryLayout<TrieNode>.stride + nodeByte.count + nodePaths.byteSize
        total += suffixes.byteSize + tops.byteSize + wholeWords.byteSize + symbolNames.byteSize + cards.pool.byteSize
        return total
    }
}

/// Many strings in one byte buffer: string i is bytes[offsets[i]..<offsets[i+1]].
public struct StringPool: Sendable {
    public let bytes: [UInt8]
    public let offsets: [UInt32]

    public init(bytes: [UInt8], offsets: [UInt32]) {
        self.bytes = bytes
        self.offsets = offsets
    }

    public init(_ strings: [String]) {
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(strings.count + 1)
        for s in strings {
            bytes.append(contentsOf: s.utf8)
            offsets.append(UInt32(bytes.count))
        }
        self.init(bytes: bytes, offsets: offsets)
    }

    public var count: Int { offsets.count - 1 }
    public var byteSize: Int { bytes.count + offsets.count * 4 }

    @inline(__always) public func range(_ i: Int) -> Range<Int> { Int(offsets[i])..<Int(offsets[i + 1]) }
    @inline(__always) public func length(_ i: Int) -> Int { Int(offsets[i + 1] - offsets[i]) }

    public func string(_ i: Int) -> String { String(decoding: bytes[range(i)], as: UTF8.self) }

    public func equals(_ i: Int, _ s: String) -> Bool {
        var s = s
        return s.withUTF8 { utf8 in
            let r = range(i)
            guard r.count == utf8.count else { return false }
            return bytes.withUnsafeBufferPointer { b in
                r.count == 0 || memcmp(b.baseAddress! + r.lowerBound, utf8.baseAddress!, r.count) == 0
            }
        }
    }
}

