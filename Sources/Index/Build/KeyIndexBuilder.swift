import Corpus
import Folding
import Glibc

/// The key space of the index: sorted keys, their postings and the radix trie over them
/// (the suffix array over whole names is built from it, beside the trie's lists).
struct KeyIndex {
    var keys: StringPool
    var postingStart: [UInt32]
    var postings: [UInt32]
    var nodeChildStart: [UInt32]
    var nodeDepth: [UInt16]
    var nodeKeyLow: [UInt32]
    var nodeKeyHigh: [UInt32]
}

enum KeyIndexBuilder {
    /// `fieldLanguages`: the languages of field words (`FieldLanguages.of`).
    static func build(names: [FoldedName], fields: [(doc: Int, text: String)], fieldLanguages: [String: UInt16],
                      docCount: Int) -> KeyIndex {
        var table = KeyTable(expectedCount: 100_000)
        var pairs: [UInt64] = []   // key id << 32 | posting
        pairs.reserveCapacity(names.count * 5 + fields.count * 60)

        func add(_ bytes: UnsafeBufferPointer<UInt8>, _ posting: Posting) {
            guard !bytes.isEmpty else { return }
            pairs.append(UInt64(table.intern(bytes)) << 32 | UInt64(posting.raw))
        }
        /// The whole name, and for names of several words the compact form and each word.
        func addName(_ folded: String, _ compact: String, doc: Int, language: UInt32, transliterated: Bool) {
            var folded = folded
            var compact = compact
            folded.withUTF8 { text in
                add(text, Posting(doc: doc, language: language, role: .whole, transliterated: transliterated))
                guard text.contains(0x20) else { return }
                compact.withUTF8 { add($0, Posting(doc: doc, language: language, role: .compact, transliterated: transliterated)) }
                var start = 0
                var first = true
                for i in 0...text.count where i == text.count || text[i] == 0x20 {
                    if i > start {
                        let role: KeyRole = first ? .firstWord : .laterWord
                        add(UnsafeBufferPointer(rebasing: text[start..<i]), Posting(doc: doc, language: language, role: role, transliterated: transliterated))
                        first = false
                    }
                    start = i + 1
                }
            }
        }
        for name in names {
            // A slug or synonym is no language's: it ranks as a name in the display language.
            guard name.doc < docCount, let language = Language.index(of: name.language).map(UInt32.init)
                    ?? (Language.neutralCodes.contains(name.language) ? Posting.noLanguage : nil) else { continue }
            addName(name.folded, name.compact, doc: name.doc, language: language, transliterated: false)
            if let translit = name.translit, translit != name.folded {
                addName(translit, Folding.compact(translit), doc: name.doc, language: language, transliterated: true)
            }
        }
        for field in fields where field.doc < docCount {
            var text = field.text
            text.withUTF8 { bytes in
                var start = 0
                for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x20 {
                    if i > start {
                        let word = UnsafeBufferPointer(rebasing: bytes[start..<i])
                        // A field word is a word of its languages: "roca" (Spanish) is no
                        // English word, and a Pokémon whose ability is Cabeza Roca must not
                        // outrank the ability's own Spanish name for an English reader.
                        var languages = fieldLanguages[String(decoding: word, as: UTF8.self)] ?? 0
                        if languages == 0 {
                            add(word, Posting(doc: field.doc, language: Posting.noLanguage, role: .field, transliterated: false))
                        }
                        while languages != 0 {
                            add(word, Posting(doc: field.doc, language: UInt32(languages.trailingZeroBitCount), role: .field,
                                              transliterated: false))
                            languages &= languages - 1
                        }
                    }
                    start = i + 1
                }
            }
        }

        // Sort the keys byte-wise: by their first eight bytes as one big-endian integer (as
        // suffixes are, `SuffixArray.head`), and keys sharing those by all their bytes. The
        // sort makes over a million comparisons: integers compared in place took a third of
        // the time memcmp calls did.
        let keyCount = table.count
        let arena = table.arena
        let offsets = table.offsets
        var order: [(head: UInt64, id: Int32)] = []
        arena.withUnsafeBufferPointer { a in
            let base = a.baseAddress!
            order = (0..<keyCount).map { id in
                (SuffixArray.head(a, from: Int(offsets[id]), upTo: Int(offsets[id + 1])), Int32(id))
            }
            order.sort { x, y in
                if x.head != y.head { return x.head < y.head }
                let xs = Int(offsets[Int(x.id)]), xl = Int(offsets[Int(x.id) + 1]) - xs
                let ys = Int(offsets[Int(y.id)]), yl = Int(offsets[Int(y.id) + 1]) - ys
                let c = memcmp(base + xs, base + ys, min(xl, yl))
                return c != 0 ? c < 0 : xl < yl
            }
        }
        var rank = [UInt32](repeating: 0, count: keyCount)
        var keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(arena.count)
        var keyOffsets: [UInt32] = [0]
        keyOffsets.reserveCapacity(keyCount + 1)
        for (position, key) in order.enumerated() {
            let id = Int(key.id)
            rank[id] = UInt32(position)
            keyBytes.append(contentsOf: arena[Int(offsets[id])..<Int(offsets[id + 1])])
            keyOffsets.append(UInt32(keyBytes.count))
        }
        // Each key's postings, by sorted rank: grouped by counting, then each group sorted
        // (most hold a few) without its repeats (sorting all the pairs at once cost three
        // times as much).
        var groupStart = [Int](repeating: 0, count: keyCount + 1)
        for pair in pairs { groupStart[Int(rank[Int(pair >> 32)]) + 1] += 1 }
        for key in 0..<keyCount { groupStart[key + 1] += groupStart[key] }
        var grouped = [UInt32](repeating: 0, count: pairs.count)
        var fill = groupStart
        for pair in pairs {
            let key = Int(rank[Int(pair >> 32)])
            grouped[fill[key]] = UInt32(truncatingIfNeeded: pair)
            fill[key] += 1
        }
        var postingStart = [UInt32](repeating: 0, count: keyCount + 1)
        var postings: [UInt32] = []
        postings.reserveCapacity(pairs.count)
        grouped.withUnsafeMutableBufferPointer { grouped in
            for key in 0..<keyCount {
                var group = UnsafeMutableBufferPointer(rebasing: grouped[groupStart[key]..<groupStart[key + 1]])
                group.sort()
                for (i, posting) in group.enumerated() where i == 0 || posting != group[i - 1] { postings.append(posting) }
                postingStart[key + 1] = UInt32(postings.count)
            }
        }
        let keys = StringPool(bytes: keyBytes, offsets: keyOffsets)

        let trie = buildTrie(keys)
        return KeyIndex(keys: keys, postingStart: postingStart, postings: postings, nodeChildStart: trie.childStart,
                        nodeDepth: trie.depth, nodeKeyLow: trie.low, nodeKeyHigh: trie.high)
    }

    /// A radix trie over sorted keys, breadth first so that each node's children are
    /// contiguous. A node is the set of keys sharing its path (a key range) and its depth:
    /// the edge into it is bytes [parent depth, depth) of any of its keys.
    static func buildTrie(_ keys: StringPool) -> (childStart: [UInt32], depth: [UInt16], low: [UInt32], high: [UInt32]) {
        var childStart: [UInt32] = []
        var depth: [UInt16] = [0]
        var low: [UInt32] = [0]
        var high: [UInt32] = [UInt32(keys.count)]
        keys.bytes.withUnsafeBufferPointer { bytes in
            let offsets = keys.offsets
            @inline(__always) func length(_ k: Int) -> Int { Int(offsets[k + 1] - offsets[k]) }
            @inline(__always) func byte(_ k: Int, _ d: Int) -> UInt8 { bytes[Int(offsets[k]) + d] }
            func commonPrefix(_ a: Int, _ b: Int) -> Int {
                let n = min(length(a), length(b))
                var i = 0
                while i < n && byte(a, i) == byte(b, i) { i += 1 }
                return i
            }
            var next = 0
            while next < depth.count {
                let d = Int(depth[next])
                var i = Int(low[next])
                let end = Int(high[next])
                childStart.append(UInt32(depth.count))
                while i < end && length(i) <= d { i += 1 } // the key that ends here
                while i < end {
                    let b = byte(i, d)
                    var j = i + 1
                    while j < end && byte(j, d) == b { j += 1 }
                    let childDepth = j - i == 1 ? length(i) : commonPrefix(i, j - 1)
                    depth.append(UInt16(clamping: childDepth))
                    low.append(UInt32(i))
                    high.append(UInt32(j))
                    i = j
                }
                next += 1
            }
        }
        childStart.append(UInt32(depth.count))
        return (childStart, depth, low, high)
    }
}

/// The languages of the words fields are made of (the names of types, abilities, genera,
/// colours, habitats, damage classes and item categories), one bit a language. A word no
/// name has (a slug's, `legendary`) is no language's: it counts in every display language.
enum FieldLanguages {
    static let kinds: Set<String> = ["type", "ability", "genus", "color", "habitat", "damage-class", "item-category"]

    static func of(_ corpus: Corpus) -> [String: UInt16] {
        var languages: [String: UInt16] = [:]
        for name in corpus.names where kinds.contains(name.kind) {
            guard let language = Language.index(of: name.language), language < 16 else { continue }
            for word in Folding.words(Folding.fold(name.text)) { languages[String(word), default: 0] |= 1 << language }
        }
        return languages
    }
}
