@testable import Index
import Testing

/// The stored index is read back byte for byte, a damaged trie is refused on load (a rebuild
/// follows) rather than read out of bounds, and the names holding a text as written are those
/// a scan of every name finds.
@Suite("Index snapshot")
struct IndexSnapshotTests {
    @Test func aSnapshotReadsBackAsItWasWritten() throws {
        let bytes = Fixture.engine.index.serialized()
        let back = try #require(bytes.withUnsafeBytes { IndexSnapshot.deserialize($0) })
        #expect(back.nodeCount == Fixture.engine.index.nodeCount && back.nodeCount > 1)
        #expect(back.serialized() == bytes)
        // The sample heads are stored, not recomputed on load: they must be what the text says.
        let suffixes = back.suffixes
        #expect(suffixes.sampleHeads == SuffixArray(text: suffixes.text, starts: suffixes.starts).sampleHeads)
    }

    /// The key space as the build sorts it (keys by their first eight bytes as one integer,
    /// then by all of them; each key's postings grouped by counting, then sorted): keys in
    /// byte order without repeats (among them many sharing their first eight bytes, and
    /// keys that a later one starts with), each key's postings ascending without repeats.
    @Test func keysAreInByteOrderAndEachKeysPostingsAscend() {
        let index = Fixture.engine.index
        var misordered: [Int] = [], sharingHeads = 0, startingLater = 0
        for key in 1..<index.keys.count {
            let previous = index.keys.bytes[index.keys.range(key - 1)], current = index.keys.bytes[index.keys.range(key)]
            if !previous.lexicographicallyPrecedes(current) { misordered.append(key) }
            if previous.count >= 8 && current.count >= 8 && previous.prefix(8).elementsEqual(current.prefix(8)) { sharingHeads += 1 }
            if current.starts(with: previous) { startingLater += 1 }
        }
        #expect(misordered.isEmpty, "keys out of order at \(misordered.prefix(5))")
        #expect(sharingHeads > 1_000 && startingLater > 1_000, "\(sharingHeads) sharing heads, \(startingLater) prefixes")
        let unsorted = (0..<index.keys.count).filter { key in
            let postings = index.postings[index.postingRange(key: key)]
            return !zip(postings, postings.dropFirst()).allSatisfy { $0 < $1 }
        }
        #expect(unsorted.isEmpty, "postings out of order or repeated for keys \(unsorted.prefix(5))")
    }

    /// A key names an entity (a slug or synonym, as written or run together) exactly where one
    /// of its postings is a whole name of no language: the bit kept a key says what its
    /// postings say.
    @Test func neutralNamesAreTheKeysWithAWholeNameOfNoLanguage() throws {
        let index = Fixture.engine.index
        var named = 0, mistold: [String] = []
        for key in 0..<index.keys.count {
            let neutral = index.postingRange(key: key).contains { p in
                Posting.isWholeName(index.postings[p]) && Posting(raw: index.postings[p]).language == Posting.noLanguage
            }
            if neutral { named += 1 }
            if neutral != index.isNeutralName(key: key) { mistold.append(index.keyString(key)) }
        }
        #expect(mistold.isEmpty, "\(mistold.prefix(5))")
        let rotomWash = try #require(index.prefixNode(Array("rotom wash".utf8)).flatMap { index.keyEqualToPrefix(of: $0, length: 10) })
        let pikachu = try #require(index.prefixNode(Array("pikachu".utf8)).flatMap { index.keyEqualToPrefix(of: $0, length: 7) })
        #expect(named > 1_000 && index.isNeutralName(key: rotomWash))
        #expect(index.isNeutralName(key: pikachu), "the slug 'pikachu' is a whole name of no language")
    }

    /// A text is a neutral name where the first (shortest) key starting with it is the text
    /// and such a name: "pikachu" is, "pikach" (which starts it) is not.
    @Test func aTextIsANeutralNameOnlyAsAWholeKey() throws {
        let index = Fixture.engine.index
        func isNeutral(_ text: String) throws -> Bool {
            let node = try #require(index.prefixNode(Array(text.utf8)), "no key starts with '\(text)'")
            return index.isNeutralName(text: index.nodeKeys(node), length: text.utf8.count)
        }
        #expect(try isNeutral("pikachu"))
        #expect(try !isNeutral("pikach"))
        #expect(!index.isNeutralName(text: 0..<0, length: 0))
    }

    @Test func sampleHeadsOfTheWrongCountAreRefused() {
        let suffixes = Fixture.engine.index.suffixes
        #expect(Self.rebuilt(suffixes: suffixes).isConsistent)
        for heads in [Array(suffixes.sampleHeads.dropLast()), suffixes.sampleHeads + [0], []] {
            #expect(!Self.rebuilt(suffixes: SuffixArray(text: suffixes.text, starts: suffixes.starts, sampleHeads: heads)).isConsistent)
        }
    }

    /// The fixture's index with its trie's columns (as the builder makes them) changed by
    /// `damage`.
    static func withTrie(damaged damage: (inout [UInt32], inout [UInt16], inout [UInt32], inout [UInt32]) -> Void) -> IndexSnapshot {
        let index = Fixture.engine.index
        var childStart = index.trieNodes.map(\.childStart) + [UInt32(index.trieNodes.last!.children.upperBound)]
        var depth = index.trieNodes.map(\.depth)
        var low = index.trieNodes.map(\.keyLow)
        var high = index.trieNodes.map(\.keyHigh)
        damage(&childStart, &depth, &low, &high)
        return rebuilt(nodes: TrieNode.records(childStart: childStart, depth: depth, low: low, high: high))
    }

    /// The fixture's index with other trie nodes, suffix array or symbol lists.
    static func rebuilt(nodes: [TrieNode]? = nil, nodeByte: [UInt8]? = nil, nodePaths: NodePaths? = nil, suffixes: SuffixArray? = nil,
                        symbolNames: SymbolNames? = nil) -> IndexSnapshot {
        let index = Fixture.engine.index
        var keys = index.keyParts
        keys.trieNodes = nodes ?? keys.trieNodes
        keys.nodeByte = nodeByte ?? keys.nodeByte
        keys.nodePaths = nodePaths ?? keys.nodePaths
        return IndexSnapshot(documents: index.documentParts, names: index.nameParts, vocabulary: index.vocabulary, keys: keys,
                             suffixes: suffixes ?? index.suffixes, tops: index.tops, wholeWords: index.wholeWords, symbolNames: symbolNames ?? index.symbolNames,
                             cards: index.cards, buildMilliseconds: index.buildMilliseconds)
    }

    /// Every node the table holds (at least `NodePaths.minimumDepth` deep, its path starting
    /// beyond ASCII) is found by its path, first among the candidates; other nodes' paths, and
    /// prefixes ending inside an edge, find no node of that path.
    @Test func deepNodesAreFoundByTheirPaths() {
        let index = Fixture.engine.index
        var parentDepth = [Int](repeating: 0, count: index.nodeCount)
        for node in 0..<index.nodeCount {
            for child in index.trieNodes[node].children { parentDepth[child] = Int(index.trieNodes[node].depth) }
        }
        var found = 0, inEdges = 0
        index.keys.bytes.withUnsafeBufferPointer { bytes in
            for node in 0..<index.nodeCount {
                let record = index.trieNodes[node]
                guard node > 0, record.keyLow < record.keyHigh else { continue }
                let start = Int(index.keys.offsets[Int(record.keyLow)])
                let path = UnsafeBufferPointer(rebasing: bytes[start..<start + Int(record.depth)])
                let candidate = index.nodePaths.candidate(path)
                if NodePaths.holds(path) {
                    #expect(candidate == node, "node \(node)")
                    found += 1
                } else {
                    #expect(candidate.map { Int(index.trieNodes[$0].depth) } != Int(record.depth), "node \(node)")
                }
                // A prefix ending inside the node's edge: no node has it as its path (none of
                // that depth, or not that path), and the walk finds the node.
                let inside = UnsafeBufferPointer(rebasing: path[..<(path.count - 1)])
                if NodePaths.holds(inside), parentDepth[node] < inside.count {
                    if let other = index.nodePaths.candidate(inside), Int(index.trieNodes[other].depth) == inside.count {
                        let otherStart = Int(index.keys.offsets[Int(index.trieNodes[other].keyLow)])
                        #expect(!bytes[otherStart..<otherStart + inside.count].elementsEqual(inside), "node \(node)")
                    }
                    #expect(index.prefixNode(inside) == node, "node \(node)")
                    inEdges += 1
                }
            }
        }
        #expect(found > 20_000 && inEdges > 1_000, "\(found) nodes held, \(inEdges) prefixes inside edges")
        #expect(index.nodePaths.slots.count * 3 >= found * 4, "at most three quarters full")
    }

    /// `prefixNode` takes a prefix in kana, hangul or han from the table, not the walk: with
    /// the first bytes of some such nodes' edges changed (so that no walk reaches them), their
    /// paths still find them, and a Latin node so changed is lost (Latin is walked).
    @Test func prefixesBeyondASCIIAreFoundByTheirPathsNotTheWalk() {
        let index = Fixture.engine.index
        func path(_ node: Int) -> [UInt8] {
            let start = Int(index.keys.offsets[Int(index.trieNodes[node].keyLow)])
            return Array(index.keys.bytes[start..<start + Int(index.trieNodes[node].depth)])
        }
        var unreachable = index.nodeByte
        var held: [Int] = [], latin: [Int] = []
        // Nodes below the root's children (the root's table is made from the same bytes),
        // each given a first byte none of its siblings has.
        for parent in 1..<index.nodeCount where held.count < 200 || latin.count < 50 {
            let children = index.trieNodes[parent].children
            guard let child = children.first, Int(index.trieNodes[child].depth) >= NodePaths.minimumDepth,
                  let unused = (UInt8(1)...UInt8.max).first(where: { byte in !children.contains { index.nodeByte[$0] == byte } })
            else { continue }
            let bytes = path(child)
            if bytes[0] >= 0x80 { if held.count < 200 { held.append(child) } else { continue } }
            else if latin.count < 50 { latin.append(child) } else { continue }
            unreachable[child] = unused
        }
        #expect(held.count == 200 && latin.count == 50)
        let damaged = Self.rebuilt(nodeByte: unreachable)
        for node in held {
            #expect(damaged.prefixNode(path(node)) == node, "node \(node)")
        }
        for node in latin {
            #expect(damaged.prefixNode(path(node)) != node, "node \(node)")
        }
    }

    /// A table of node paths read back damaged (a node past the last, no empty slot, a size
    /// that is no power of two) makes the snapshot be rebuilt; one whose fingerprints all lead
    /// to the wrong nodes only costs the walk: every prefix still finds its own node.
    @Test func damagedNodePathsAreRefusedOrWalkedPast() {
        let index = Fixture.engine.index
        let slots = index.nodePaths.slots
        #expect(Self.rebuilt(nodePaths: NodePaths(slots: slots)).isConsistent)
        let full = slots.map { $0 == 0 ? 1 << 32 | 1 : $0 }
        var pastTheEnd = slots
        pastTheEnd[slots.firstIndex { $0 != 0 }!] = 7 << 32 | UInt64(index.nodeCount)
        for damaged in [full, pastTheEnd, Array(slots.dropLast()), []] {
            #expect(!Self.rebuilt(nodePaths: NodePaths(slots: damaged)).isConsistent)
        }
        // Every occupied slot's node moved to the next node: fingerprints match, nodes do not.
        let shifted = Self.rebuilt(nodePaths: NodePaths(slots: slots.map {
            $0 == 0 ? 0 : $0 & ~0xFFFF_FFFF | ($0 & 0xFFFF_FFFF + 1) % UInt64(index.nodeCount)
        }))
        #expect(shifted.isConsistent)
        var held = 0
        for key in stride(from: 0, to: index.keys.count, by: 13) {
            let bytes = Array(index.keys.bytes[index.keys.range(key)])
            if bytes.first! >= 0x80 { held += 1 }
            for length in [4, 7, 9, bytes.count] where length <= bytes.count {
                let prefix = Array(bytes[..<length])
                #expect(shifted.prefixNode(prefix) == index.prefixNode(prefix), "\(prefix)")
            }
        }
        #expect(held > 500)
    }

    /// The fixture's index with its trie's records changed by `damage`.
    static func withRecords(damaged damage: (inout [TrieNode]) -> Void) -> IndexSnapshot {
        var nodes = Fixture.engine.index.trieNodes
        damage(&nodes)
        return rebuilt(nodes: nodes)
    }

    @Test func aDamagedTrieIsRefused() {
        // Unchanged columns make a consistent snapshot: the checks below refuse the damage.
        #expect(Self.withTrie { _, _, _, _ in }.isConsistent)
        let last = Fixture.engine.index.nodeCount - 1
        // Children past the last node.
        #expect(!Self.withTrie { childStart, _, _, _ in childStart[last] = UInt32(last + 2); childStart[last + 1] = UInt32(last + 5) }.isConsistent)
        // An edge longer than the first key it is read from.
        #expect(!Self.withTrie { _, depth, _, _ in depth[last] = UInt16.max }.isConsistent)
        // A node without keys whose edge would be read.
        #expect(!Self.withTrie { _, depth, low, high in low[last] = high[last]; depth[last] = 3 }.isConsistent)
        // Children past the last node, by their count.
        #expect(!Self.withRecords { $0[last].childCount = 300 }.isConsistent)
        // Keys past the last key.
        #expect(!Self.withTrie { _, _, _, high in high[last] = UInt32.max }.isConsistent)
    }

    /// Symbols as written (what queries of symbols alone look for, with letters and spaces
    /// beside them too), among them text that also sits across two neighbouring names of the
    /// pool.
    @Test(arguments: ["★", "?", "??", "? A", "!", "♀", ".", "-", "'", "(", "・", "★A", "Mr."])
    func namesHoldingSymbolsAreTheNamesAScanFinds(_ text: String) {
        let index = Fixture.engine.index
        let needle = Array(text.utf8)
        var expected: [[Int]] = []
        needle.withUnsafeBufferPointer { needle in
            index.nameTexts.bytes.withUnsafeBufferPointer { bytes in
                for doc in 0..<index.docCount {
                    for entry in Int(index.nameStart[doc])..<Int(index.nameStart[doc + 1]) {
                        let name = UnsafeBufferPointer(rebasing: bytes[index.nameTexts.range(entry)])
                        if let offset = IndexSnapshot.firstOffset(of: needle, in: name) { expected.append([doc, entry, offset]) }
                    }
                }
            }
        }
        var found: [[Int]] = []
        index.forEachNameHolding(symbols: needle) { found.append([$0, $1, $2]) }
        #expect(!expected.isEmpty, "'\(text)': no name holds it, the comparison says nothing")
        // Compared entry by entry, so that a failure names the first difference, not thousands.
        let firstDifference = zip(found, expected).first { $0 != $1 }.map { "reported \($0.0), a scan finds \($0.1)" }
        #expect(found.count == expected.count, "'\(text)': \(found.count) names reported, a scan finds \(expected.count)")
        #expect(firstDifference == nil, "'\(text)': \(firstDifference ?? "")")
    }

    /// The ranges `SymbolNames.isSymbol` tells without a property lookup agree with the
    /// properties, for every scalar.
    @Test func symbolsAreTheScalarsNeitherLettersDigitsNorSpace() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let symbol = !properties.isAlphabetic && properties.numericType == nil && !properties.isWhitespace
            if SymbolNames.isSymbol(value) != symbol { disagreements.append(value) }
        }
        #expect(disagreements.isEmpty, "first: \(disagreements.prefix(5).map { String($0, radix: 16) })")
    }

    /// Each symbol's list holds exactly the names holding it, ascending.
    @Test func eachSymbolListsTheNamesHoldingIt() throws {
        let index = Fixture.engine.index
        var expected: [UInt32: [UInt32]] = [:]
        for entry in 0..<index.nameTexts.count {
            for value in Set(index.nameTexts.string(entry).unicodeScalars.map(\.value)) where SymbolNames.isSymbol(value) {
                expected[value, default: []].append(UInt32(entry))
            }
        }
        #expect(expected.count > 20, "the fixture's names hold few symbols: the comparison says little")
        #expect(index.symbolNames.scalars == expected.keys.sorted())
        for (value, entries) in expected {
            #expect(Array(index.symbolNames.holders(of: value)) == entries.sorted(), "U+\(String(value, radix: 16))")
        }
        #expect(index.symbolNames.holders(of: 0x2603).isEmpty) // "☃": in no name
        #expect(index.symbolNames.candidates(for: Array("mega".utf8)) == nil)
        // Text without a symbol finds no name through them (no query of symbols alone is such).
        var found = 0
        for text in ["mega", "é", "X", "ー"] { index.forEachNameHolding(symbols: Array(text.utf8)) { _, _, _ in found += 1 } }
        #expect(found == 0)
    }

    @Test func damagedSymbolListsAreRefused() {
        let names = Fixture.engine.index.symbolNames
        #expect(Self.rebuilt(symbolNames: names).isConsistent)
        // A name past the last.
        let count = UInt32(Fixture.engine.index.nameTexts.count)
        #expect(!Self.rebuilt(symbolNames: SymbolNames(scalars: names.scalars, start: names.start,
                                                       entries: names.entries.dropLast() + [count])).isConsistent)
        // Symbols out of order (the lookup is a binary search).
        #expect(!Self.rebuilt(symbolNames: SymbolNames(scalars: names.scalars.reversed(), start: names.start,
                                                       entries: names.entries)).isConsistent)
        // A list out of order (its names' documents are found by galloping on).
        var swapped = names.entries
        let (first, second) = (Int(names.start[0]), Int(names.start[0]) + 1)
        #expect(names.start[1] > names.start[0] + 1, "the first symbol's list has one name: nothing to swap")
        swapped.swapAt(first, second)
        #expect(!Self.rebuilt(symbolNames: SymbolNames(scalars: names.scalars, start: names.start, entries: swapped)).isConsistent)
        // A list ending past the entries.
        #expect(!Self.rebuilt(symbolNames: SymbolNames(scalars: names.scalars, start: names.start.dropLast() + [names.start.last! + 1],
                                                       entries: names.entries)).isConsistent)
    }
}
