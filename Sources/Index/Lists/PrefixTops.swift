import CTrie

/// Best-first document lists carried by the trie's nodes, so that a one-word query (the word
/// being typed: "p", "pik", "pikachu") ranks without reading its whole key range.
///
/// For every node, `entries` keeps the `capacity` best documents of its key range by their
/// names (all of them when fewer), then the `capacity` best by their fields, in the default
/// display language, as a one-word query ranks them: `rank << 24 | doc`, smallest first,
/// where rank is the bits the ranking reads of the document's best posting in the range
/// (`HitRank`, as for a key longer than the query). A field has no language, so it may rank
/// above a name in another language: names and fields are listed apart, so that a list's
/// names are every name of its range or its best names (what a completion, which matches
/// names only, reads), and a search merges the two. A query equal to a key upgrades that
/// key's postings to whole words itself, and a search adds substring matches; both only
/// move documents up, so the lists stay sufficient.
///
/// `distinctDocs` counts the documents with any posting (fields included) in the node's
/// range: a search's total without reading the range. `docPostings` is the forward index:
/// each document's postings as `key << 8 | the posting's low byte` (language, role,
/// transliterated), ascending; it tells whether a document found another way (a substring)
/// is already in a key range, and how a term matches one candidate document without reading
/// the term's whole key range.
public struct PrefixTops: Sendable {
    /// Per trie node: where its entries start in `entries` (one more than the nodes).
    public let start: [UInt32]
    public let entries: [UInt32]
    public let distinctDocs: [UInt32]
    public let docKeyStart: [UInt32]
    public let docPostings: [UInt32]

    /// The display language the lists are ranked for (English, the default).
    @inlinable public static var language: UInt32 { 0 }
    public static let capacity = 32

    public init(start: [UInt32], entries: [UInt32], distinctDocs: [UInt32], docKeyStart: [UInt32], docPostings: [UInt32]) {
        self.start = start
        self.entries = entries
        self.distinctDocs = distinctDocs
        self.docKeyStart = docKeyStart
        self.docPostings = docPostings
    }

    public var byteSize: Int {
        start.count * 4 + entries.count * 4 + distinctDocs.count * 4 + docKeyStart.count * 4 + docPostings.count * 4
    }

    /// A list entry: a posting's document in the low 24 bits, and above them the ranking's
    /// bits of a hit on it (`HitRank`), for a key equal to the query (`exact`) or longer, in
    /// the lists' language: entries sort best first.
    @inlinable @inline(__always) public static func entry(posting: UInt32, exact: Bool) -> UInt32 {
        entry(rank: HitRank.of(posting: posting, exact: exact, display: language), doc: posting >> 8)
    }

    /// An entry of a hit's bits (`HitRank`) on `doc`.
    @inlinable @inline(__always) public static func entry(rank: UInt32, doc: UInt32) -> UInt32 { rank << 24 | doc }

    /// An entry's document, and its hit's bits.
    @inlinable @inline(__always) public static func doc(_ entry: UInt32) -> Int { Int(entry & 0xFF_FFFF) }
    @inlinable @inline(__always) public static func rank(_ entry: UInt32) -> UInt32 { entry >> 24 }

    /// Builds the lists bottom-up (the trie is in breadth-first order, so children come after
    /// their parent): a node's best documents are among its own key's and its children's best.
    static func build(keys: StringPool, postingStart: [UInt32], postings: [UInt32], childStart: [UInt32],
                      depth: [UInt16], low: [UInt32], high: [UInt32], docCount: Int) -> PrefixTops {
        let nodeCount = depth.count
        var counts = [UInt32](repeating: 0, count: nodeCount)
        var seen = [Int32](repeating: -1, count: max(docCount, 1))
        var candidates: [UInt32] = []
        // The lists one after another in the order they are made (the last node's first),
        // each node's place among them noted: an array per node (100,000 of them) cost more to
        // allocate, join and free than the lists took to make (this half of the build took
        // several times as long with them; docs/PERFORMANCE.md).
        var made: [UInt32] = []
        made.reserveCapacity(4 * nodeCount)
        var madeStart = [UInt32](repeating: 0, count: nodeCount)
        var madeCount = [UInt8](repeating: 0, count: nodeCount)
        postings.withUnsafeBufferPointer { postings in
            for node in stride(from: nodeCount - 1, through: 1, by: -1) {
                let first = Int(low[node]), end = Int(high[node])
                let stamp = Int32(node)
                var distinct: UInt32 = 0
                for p in Int(postingStart[first])..<Int(postingStart[end]) {
                    let doc = Int(postings[p] >> 8)
                    if seen[doc] != stamp { seen[doc] = stamp; distinct += 1 }
                }
                counts[node] = distinct
                candidates.removeAll(keepingCapacity: true)
                if keys.length(first) == Int(depth[node]) {
                    for p in Int(postingStart[first])..<Int(postingStart[first + 1]) {
                        candidates.append(entry(posting: postings[p], exact: false))
                    }
                }
                for child in Int(childStart[node])..<Int(childStart[node + 1]) {
                    let listStart = Int(madeStart[child])
                    candidates.append(contentsOf: made[listStart..<listStart + Int(madeCount[child])])
                }
                candidates.sort()
                let listStart = made.count
                // The names, best first, then the fields (each document once in each).
                for part in 0..<2 {
                    let fields = part == 1
                    let partStart = made.count
                    let partStamp = Int32(fields ? -2 - nodeCount - node : -2 - node)
                    for entry in candidates where HitRank.isField(rank(entry)) == fields {
                        let doc = Self.doc(entry)
                        if seen[doc] == partStamp { continue }
                        seen[doc] = partStamp
                        made.append(entry)
                        if made.count - partStart == capacity { break }
                    }
                }
                madeStart[node] = UInt32(listStart)
                madeCount[node] = UInt8(made.count - listStart)
            }
        }
        // In node order.
        var start: [UInt32] = [0]
        start.reserveCapacity(nodeCount + 1)
        var entries: [UInt32] = []
        entries.reserveCapacity(made.count)
        for node in 0..<nodeCount {
            let listStart = Int(madeStart[node])
            entries.append(contentsOf: made[listStart..<listStart + Int(madeCount[node])])
            start.append(UInt32(entries.count))
        }
        // The forward index, by counting: keys are visited in order, so each document's
        // postings come out by key.
        var docKeyStart = [UInt32](repeating: 0, count: docCount + 1)
        for posting in postings { docKeyStart[Int(posting >> 8) + 1] += 1 }
        for doc in 0..<docCount { docKeyStart[doc + 1] += docKeyStart[doc] }
        var fill = Array(docKeyStart.dropLast())
        var docPostings = [UInt32](repeating: 0, count: postings.count)
        for key in 0..<keys.count {
            for p in Int(postingStart[key])..<Int(postingStart[key + 1]) {
                let doc = Int(postings[p] >> 8)
                docPostings[Int(fill[doc])] = UInt32(key) << 8 | postings[p] & 0xFF
                fill[doc] += 1
            }
        }
        return PrefixTops(start: start, entries: entries, distinctDocs: counts,
                          docKeyStart: docKeyStart, docPostings: docPostings)
    }

    /// Where `doc`'s postings on keys from `key` on start in `docPostings` (a binary search).
    @inlinable @inline(__always) public func firstPosting(of doc: Int, fromKey key: Int) -> Int {
        var lowIndex = Int(docKeyStart[doc]), highIndex = Int(docKeyStart[doc + 1])
        while lowIndex < highIndex {
            let mid = (lowIndex + highIndex) >> 1
            if Int(docPostings[mid] >> 8) < key { lowIndex = mid + 1 } else { highIndex = mid }
        }
        return lowIndex
    }

    /// Calls `body` with each of `doc`'s entries (a key << 8 | the low byte of the document's
    /// posting of it) on a key in `keys`, in key order, while `body` returns true.
    @inlinable @inline(__always) public func forEachEntry(of doc: Int, in keys: Range<Int>, _ body: (_ key: Int, _ entry: UInt32) -> Bool) {
        let end = Int(docKeyStart[doc + 1])
        var i = firstPosting(of: doc, fromKey: keys.lowerBound)
        while i < end {
            let entry = docPostings[i]
            let key = Int(entry >> 8)
            guard key < keys.upperBound, body(key, entry) else { return }
            i += 1
        }
    }

    /// For a loop reading the postings of `count` candidates in turn, now at candidate `n`
    /// (`doc(i)`: candidate i's document): asks for the postings of the candidate two ahead
    /// (its first sixteen cache lines at most) and for where those of the one four ahead
    /// start; at the first, for those of the first two as well. Each candidate's postings
    /// are read by a binary search, a chain of misses when the caches are cold; asked for
    /// ahead, the misses of several candidates overlap instead of following one another
    /// (`pokesearch_prefetch`), and those of one candidate's search overlap one another:
    /// a query with one or two candidates (most completions of a name and a type) has no
    /// candidate two ahead.
    @inline(__always) public func prefetchPostings(aheadOf n: Int, count: Int, doc: (Int) -> Int) {
        if n == 0 {
            for first in 0..<min(2, count) { prefetchPostings(of: doc(first), then: doc(min(first + 2, count - 1))) }
        }
        guard n + 2 < count else { return }
        prefetchPostings(of: doc(n + 2), then: doc(min(n + 4, count - 1)))
    }

    @inline(__always) func prefetchPostings(of doc: Int, then later: Int) {
        docKeyStart.withUnsafeBufferPointer { starts in
            pokesearch_prefetch(starts.baseAddress! + later)
            let start = Int(starts[doc]), end = min(Int(starts[doc + 1]), Int(starts[doc]) + 16 * 16)
            docPostings.withUnsafeBufferPointer { postings in
                var i = start
                while i < end {
                    pokesearch_prefetch(postings.baseAddress! + i)
                    i += 16
                }
                if end > start { pokesearch_prefetch(postings.baseAddress! + end - 1) }
            }
        }
    }

    /// The entries of a node's list that are names (they come before the fields).
    public func names(_ node: Int) -> Range<Int> {
        let list = Int(start[node])..<Int(start[node + 1])
        // A list holds `capacity` names at most: where the last of those places is a name, the
        // names fill them (most short prefixes, one look); else where the fields start, found
        // by halves.
        if list.count >= Self.capacity && !HitRank.isField(Self.rank(entries[list.lowerBound + Self.capacity - 1])) {
            return list.lowerBound..<list.lowerBound + Self.capacity
        }
        var low = list.lowerBound, high = min(list.upperBound, list.lowerBound + Self.capacity)
        while low < high {
            let mid = (low + high) >> 1
            if HitRank.isField(Self.rank(entries[mid])) { high = mid } else { low = mid + 1 }
        }
        return list.lowerBound..<low
    }

    /// The entries of a node's list that are fields (after its names).
    public func fields(_ node: Int) -> Range<Int> {
        names(node).upperBound..<Int(start[node + 1])
    }

    /// Whether `doc` has a posting on a key in `keys`.
    @inline(__always) public func hasKey(_ doc: Int, in keys: Range<Int>) -> Bool {
        let i = firstPosting(of: doc, fromKey: keys.lowerBound)
        return i < Int(docKeyStart[doc + 1]) && Int(docPostings[i] >> 8) < keys.upperBound
    }

    /// Every stored index in bounds, for a snapshot read back from disk.
    func isConsistent(nodeCount: Int, keyCount: Int, docCount: Int) -> Bool {
        return distinctDocs.count == nodeCount && start.count == nodeCount + 1
            && start.first == 0 && start.last.map(Int.init) == entries.count && IndexSnapshot.isAscending(start)
            && IndexSnapshot.allBelow(entries, mask: 0xFF_FFFF, shift: 0, docCount)
            && docKeyStart.count == docCount + 1 && docKeyStart.first == 0 && docKeyStart.last.map(Int.init) == docPostings.count
            && IndexSnapshot.isAscending(docKeyStart) && IndexSnapshot.allBelow(docPostings, shift: 8, keyCount) && IndexSnapshot.rolesValid(docPostings)
    }
}
