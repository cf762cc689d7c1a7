import Glibc

/// The primitive lookups over the key space that queries are made of.
extension IndexSnapshot {
    /// Keys that start with `prefix`: a contiguous range of key indexes.
    public func keyRange(prefix: [UInt8]) -> Range<Int> {
        var node = 0
        for byte in prefix {
            guard let child = child(of: node, label: byte) else { return 0..<0 }
            node = child
        }
        return Int(nodeKeyLow[node])..<Int(nodeKeyHigh[node])
    }

    /// The key equal to `bytes`, if any.
    public func keyIndex(_ bytes: [UInt8]) -> Int? {
        let range = keyRange(prefix: bytes)
        guard let first = range.first, keys.length(first) == bytes.count else { return nil }
        return first
    }

    @inline(__always) func child(of node: Int, label: UInt8) -> Int? {
        var low = Int(nodeChildStart[node])
        var high = Int(nodeChildStart[node + 1])
        while low < high {
            let mid = (low + high) >> 1
            let l = nodeLabel[mid]
            if l == label { return mid }
            if l < label { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    @inline(__always) public func postingRange(key: Int) -> Range<Int> {
        Int(postingStart[key])..<Int(postingStart[key + 1])
    }

    public func keyString(_ key: Int) -> String { keys.string(key) }

    /// Whether key `key` contains `needle` (bytes); returns the byte offset of the first
    /// occurrence.
    public func keyOffset(of needle: [UInt8], in key: Int) -> Int? {
        let range = keys.range(key)
        guard needle.count <= range.count else { return nil }
        return keys.bytes.withUnsafeBufferPointer { bytes -> Int? in
            needle.withUnsafeBufferPointer { n -> Int? in
                let haystack = bytes.baseAddress! + range.lowerBound
                let last = range.count - n.count
                guard n.count > 0 else { return 0 }
                let first = n[0]
                var i = 0
                while i <= last {
                    if haystack[i] == first && memcmp(haystack + i, n.baseAddress!, n.count) == 0 { return i }
                    i += 1
                }
                return nil
            }
        }
    }

    // MARK: Substrings

    /// Name keys (whole or compact names) containing `needle`, a folded string of at least
    /// one scalar: candidates from the rarest trigram (or gram range for one and two
    /// scalars), each verified against the key's text. Sorted, without duplicates.
    public func keysContaining(_ needle: [UInt32], limit: Int = .max) -> [Int] {
        guard !needle.isEmpty else { return [] }
        let bytes = Array(String(String.UnicodeScalarView(needle.compactMap(Unicode.Scalar.init))).utf8)
        var best: Range<Int>? = nil
        var bestCount = Int.max
        if needle.count >= 3 {
            for i in 0...(needle.count - 3) {
                let code = Trigram.code(needle[i], needle[i + 1], needle[i + 2])
                guard let g = gramIndex(code) else { return [] }
                let count = Int(gramStart[g + 1] - gramStart[g])
                if count < bestCount { bestCount = count; best = Int(gramStart[g])..<Int(gramStart[g + 1]) }
            }
        }
        var candidates: [Int] = []
        if let best {
            candidates = gramKeys[best].map(Int.init)
        } else {
            // One or two scalars: every gram that starts with them.
            let low = needle.count == 1 ? Trigram.code(needle[0], 0, 0) : Trigram.code(needle[0], needle[1], 0)
            let high = needle.count == 1 ? Trigram.code(needle[0], 0x1FFFFF, 0x1FFFFF) : Trigram.code(needle[0], needle[1], 0x1FFFFF)
            let first = lowerBound(gramCodes, low)
            let last = lowerBound(gramCodes, high &+ 1)
            guard first < last else { return [] }
            var set = Set<Int>()
            for key in gramKeys[Int(gramStart[first])..<Int(gramStart[last])] { set.insert(Int(key)) }
            candidates = set.sorted()
        }
        var result: [Int] = []
        for key in candidates where keyOffset(of: bytes, in: key) != nil {
            result.append(key)
            if result.count >= limit { break }
        }
        return result
    }

    func gramIndex(_ code: UInt64) -> Int? {
        let i = lowerBound(gramCodes, code)
        return i < gramCodes.count && gramCodes[i] == code ? i : nil
    }

    // MARK: Typos

    /// Keys within `maxEdits` edits (insertions, deletions, substitutions, transpositions of
    /// neighbours) of `term`, or having a prefix that is: each found key range with its
    /// distance. A Latin (ASCII) term is only compared with ASCII keys.
    public func typoMatches(_ term: [UInt32], maxEdits: Int) -> [(keys: Range<Int>, distance: Int)] {
        guard maxEdits > 0, !term.isEmpty else { return [] }
        var search = TypoSearch(index: self, term: term, maxEdits: maxEdits, asciiOnly: term.allSatisfy { $0 < 0x80 })
        search.run()
        return search.found
    }
}

func lowerBound(_ array: [UInt64], _ value: UInt64) -> Int {
    var low = 0
    var high = array.count
    while low < high {
        let mid = (low + high) >> 1
        if array[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
}

/// Depth-first walk of the key trie, one Unicode scalar per step, carrying the rows of the
/// optimal-string-alignment (restricted Damerau–Levenshtein) matrix and pruning every
/// branch whose row minimum exceeds the edit budget.
struct TypoSearch {
    let index: IndexSnapshot
    let term: [UInt32]
    let maxEdits: Int
    let asciiOnly: Bool
    var found: [(keys: Range<Int>, distance: Int)] = []
    var rows: [[Int]]
    var path: [UInt32] = []
    /// Cap on trie nodes visited, so that no query can make this search unbounded.
    var budget = 200_000

    init(index: IndexSnapshot, term: [UInt32], maxEdits: Int, asciiOnly: Bool) {
        self.index = index
        self.term = term
        self.maxEdits = maxEdits
        self.asciiOnly = asciiOnly
        rows = [Array(0...term.count)]
    }

    mutating func run() { visit(node: 0) }

    private mutating func visit(node: Int) {
        forEachScalarChild(of: node, byteNode: node, scalar: 0, remaining: 0)
    }

    /// Walks from `byteNode` through UTF-8 continuation bytes until a whole scalar is read,
    /// then steps the matrix.
    private mutating func forEachScalarChild(of node: Int, byteNode: Int, scalar: UInt32, remaining: Int) {
        let start = Int(index.nodeChildStart[byteNode])
        let end = Int(index.nodeChildStart[byteNode + 1])
        for child in start..<end {
            if budget <= 0 { return }
            budget -= 1
            let byte = index.nodeLabel[child]
            if remaining > 0 {
                let value = scalar << 6 | UInt32(byte & 0x3F)
                if remaining == 1 { step(node: child, scalar: value) } else { forEachScalarChild(of: node, byteNode: child, scalar: value, remaining: remaining - 1) }
            } else if byte < 0x80 {
                step(node: child, scalar: UInt32(byte))
            } else {
                if asciiOnly { return } // children are sorted: the rest are non-ASCII too
                let (lead, count): (UInt32, Int) = byte >= 0xF0 ? (UInt32(byte & 0x07), 3) : byte >= 0xE0 ? (UInt32(byte & 0x0F), 2) : (UInt32(byte & 0x1F), 1)
                forEachScalarChild(of: node, byteNode: child, scalar: lead, remaining: count)
            }
        }
    }

    private mutating func step(node: Int, scalar: UInt32) {
        let previous = rows[rows.count - 1]
        let beforePrevious = rows.count >= 2 ? rows[rows.count - 2] : nil
        let lastScalar = path.last
        var row = [Int](repeating: 0, count: term.count + 1)
        row[0] = previous[0] + 1
        var minimum = row[0]
        for j in 1...term.count {
            let cost = term[j - 1] == scalar ? 0 : 1
            var value = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if let beforePrevious, let lastScalar, j >= 2, term[j - 1] == lastScalar, term[j - 2] == scalar {
                value = min(value, beforePrevious[j - 2] + 1)
            }
            row[j] = value
            minimum = min(minimum, value)
        }
        guard minimum <= maxEdits else { return }
        if row[term.count] <= maxEdits {
            // This prefix is close enough: every key below it matches.
            found.append((Int(index.nodeKeyLow[node])..<Int(index.nodeKeyHigh[node]), row[term.count]))
            return
        }
        rows.append(row)
        path.append(scalar)
        forEachScalarChild(of: node, byteNode: node, scalar: 0, remaining: 0)
        rows.removeLast()
        path.removeLast()
    }
}
