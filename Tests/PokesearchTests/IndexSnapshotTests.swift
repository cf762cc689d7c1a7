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
        return withTrie(nodes: TrieNode.records(childStart: childStart, depth: depth, low: low, high: high))
    }

    /// The fixture's index with other trie nodes.
    static func withTrie(nodes: [TrieNode]) -> IndexSnapshot {
        let index = Fixture.engine.index
        return IndexSnapshot(
            docCount: index.docCount, docKind: index.docKind, docID: index.docID, docFlags: index.docFlags, slugs: index.slugs,
            nameStart: index.nameStart, nameLanguage: index.nameLanguage, nameTexts: index.nameTexts, docTypes: index.docTypes,
            abilityStart: index.abilityStart, abilityRefs: index.abilityRefs, docColor: index.docColor, docHabitat: index.docHabitat,
            numbers: index.numbers, typeSlugs: index.typeSlugs, colorSlugs: index.colorSlugs, habitatSlugs: index.habitatSlugs,
            abilitySlugByID: index.abilitySlugByID, keys: index.keys, postingStart: index.postingStart, postings: index.postings,
            trieNodes: nodes, nodeByte: index.nodeByte,
            suffixes: index.suffixes, tops: index.tops, cards: index.cards, slugOrder: index.slugOrder,
            buildMilliseconds: index.buildMilliseconds)
    }

    /// The fixture's index with its trie's records changed by `damage`.
    static func withRecords(damaged damage: (inout [TrieNode]) -> Void) -> IndexSnapshot {
        var nodes = Fixture.engine.index.trieNodes
        damage(&nodes)
        return withTrie(nodes: nodes)
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

    /// Symbols and other text as written (what symbol queries look for), among them text
    /// that also sits across two neighbouring names of the pool.
    @Test(arguments: ["★", "?", "??", "!", "♀", ".", "-", "'", "(", "é", "ー", "X", "mega"])
    func namesHoldingATextAreTheNamesAScanFinds(_ text: String) {
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
        index.forEachNameHolding(needle) { found.append([$0, $1, $2]) }
        #expect(!expected.isEmpty, "'\(text)': no name holds it, the comparison says nothing")
        // Compared entry by entry, so that a failure names the first difference, not thousands.
        let firstDifference = zip(found, expected).first { $0 != $1 }.map { "reported \($0.0), a scan finds \($0.1)" }
        #expect(found.count == expected.count, "'\(text)': \(found.count) names reported, a scan finds \(expected.count)")
        #expect(firstDifference == nil, "'\(text)': \(firstDifference ?? "")")
    }
}
