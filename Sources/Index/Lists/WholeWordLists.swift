/// For each key with many postings, the best documents holding it as a whole word, best
/// first, as list entries (`PrefixTops.entry`, exact) in the lists' display language: the
/// best `PrefixTops.capacity` by their names, then as many by their fields, each document
/// once in each at its best entry (names matched through their transliteration left out:
/// the trie's lists hold those where they rank). A one-word query equal to such a key
/// ("mega", "rock", "vivillon": a word of hundreds of names and fields in every language)
/// takes its window's worth of whole words from here instead of reading every posting.
public struct WholeWordLists: Sendable {
    /// The keys that have lists, ascending.
    let keys: [UInt32]
    /// Per listed key, where its names' entries start and where its fields' start (two
    /// values each, in key order), then the end of the last list.
    let start: [UInt32]
    let entries: [UInt32]

    /// Keys with more postings than this have lists: fewer, read in a few cache lines one
    /// after another, cost less than finding a list.
    public static let minimumPostings = 128

    init(keys: [UInt32], start: [UInt32], entries: [UInt32]) {
        self.keys = keys
        self.start = start
        self.entries = entries
    }

    var byteSize: Int { keys.count * 4 + start.count * 4 + entries.count * 4 }

    /// The lists of `key` as ranges of `entry(_:)`, nil when it has none (a key with at most
    /// `minimumPostings` postings has none: asked only of others, the search by halves is rare).
    @inline(__always) public func lists(of key: Int) -> (names: Range<Int>, fields: Range<Int>)? {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if Int(keys[mid]) < key { low = mid + 1 } else { high = mid }
        }
        guard low < keys.count, Int(keys[low]) == key else { return nil }
        let names = Int(start[2 * low]), fields = Int(start[2 * low + 1]), end = Int(start[2 * low + 2])
        return (names..<fields, fields..<end)
    }

    @inline(__always) public func entry(_ position: Int) -> UInt32 { entries[position] }

    /// Each document's best entry (`PrefixTops.entry`, exact) among the postings in `range`
    /// that `included` keeps, in document order; names matched through their transliteration
    /// left out. A key's postings come by document, so each document's best is known when
    /// its postings end.
    @inlinable @inline(__always)
    public static func forEachDocumentsBest(of postings: [UInt32], in range: Range<Int>, where included: (UInt32) -> Bool,
                                            _ body: (UInt32) -> Void) {
        var docBest = UInt32.max
        for p in range {
            let raw = postings[p]
            guard raw & 1 == 0, included(raw) else { continue }
            let entry = PrefixTops.entry(posting: raw, exact: true)
            if docBest != .max && PrefixTops.doc(docBest) != PrefixTops.doc(entry) {
                body(docBest)
                docBest = entry
            } else {
                docBest = min(docBest, entry)
            }
        }
        if docBest != .max { body(docBest) }
    }

    /// The lists of every key with more than `minimumPostings` postings.
    static func build(postingStart: [UInt32], postings: [UInt32]) -> WholeWordLists {
        var keys: [UInt32] = [], start: [UInt32] = [], entries: [UInt32] = []
        var part: [UInt32] = []
        for key in 0..<postingStart.count - 1 {
            let range = Int(postingStart[key])..<Int(postingStart[key + 1])
            guard range.count > minimumPostings else { continue }
            keys.append(UInt32(key))
            for fields in [false, true] {
                start.append(UInt32(entries.count))
                part.removeAll(keepingCapacity: true)
                forEachDocumentsBest(of: postings, in: range, where: { Posting.isField($0) == fields }) { part.append($0) }
                part.sort()
                entries.append(contentsOf: part.prefix(PrefixTops.capacity))
            }
        }
        start.append(UInt32(entries.count))
        return WholeWordLists(keys: keys, start: start, entries: entries)
    }

    /// Every stored index in bounds, for a snapshot read back from disk.
    func isConsistent(keyCount: Int, docCount: Int) -> Bool {
        keys.allSatisfy { Int($0) < keyCount } && zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }
            && start.count == 2 * keys.count + 1 && start.first == 0 && start.last.map(Int.init) == entries.count
            && IndexSnapshot.isAscending(start) && IndexSnapshot.allBelow(entries, mask: 0xFF_FFFF, shift: 0, docCount)
    }
}
