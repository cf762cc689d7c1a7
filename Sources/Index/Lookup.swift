import Glibc

/// The primitive lookups over the key space that queries are made of.
extension IndexSnapshot {
    /// Keys that start with `prefix`: a contiguous range of key indexes (binary search).
    public func keyRange(prefix: [UInt8]) -> Range<Int> {
        keys.bytes.withUnsafeBufferPointer { bytes in
            prefix.withUnsafeBufferPointer { p in
                // -1: key sorts before the prefix; 0: key starts with it; 1: after.
                @inline(__always) func compare(_ key: Int) -> Int32 {
                    let start = Int(keys.offsets[key])
                    let length = Int(keys.offsets[key + 1]) - start
                    let n = min(length, p.count)
                    let c = n == 0 ? 0 : memcmp(bytes.baseAddress! + start, p.baseAddress!, n)
                    if c != 0 { return c < 0 ? -1 : 1 }
                    return length < p.count ? -1 : 0
                }
                var low = 0, high = keys.count
                while low < high {
                    let mid = (low + high) >> 1
                    if compare(mid) < 0 { low = mid + 1 } else { high = mid }
                }
                let first = low
                high = keys.count
                while low < high {
                    let mid = (low + high) >> 1
                    if compare(mid) <= 0 { low = mid + 1 } else { high = mid }
                }
                return first..<low
            }
        }
    }

    /// The key equal to `bytes`, if any.
    public func keyIndex(_ bytes: [UInt8]) -> Int? {
        let range = keyRange(prefix: bytes)
        guard let first = range.first, keys.length(first) == bytes.count else { return nil }
        return first
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

/// Depth-first walk of the radix trie, one Unicode scalar at a time (edges hold several
/// bytes; scalars may span edges), carrying the rows of the optimal-string-alignment
/// (restricted Damerau–Levenshtein) matrix and pruning every branch whose row minimum
/// exceeds the edit budget. A node whose path is within budget of the whole term yields its
/// key range: those keys have a prefix within that many edits.
struct TypoSearch {
    let index: IndexSnapshot
    let term: [UInt32]
    let maxEdits: Int
    let asciiOnly: Bool
    var found: [(keys: Range<Int>, distance: Int)] = []
    /// Matrix rows, one per scalar of the current path (row 0 is the empty path).
    var rows: [Int]
    var path: [UInt32]
    let width: Int
    let maxDepth: Int
    /// Cap on scalars stepped, so that no term can make this search unbounded.
    var budget = 100_000

    init(index: IndexSnapshot, term: [UInt32], maxEdits: Int, asciiOnly: Bool) {
        self.index = index
        self.term = term
        self.maxEdits = maxEdits
        self.asciiOnly = asciiOnly
        width = term.count + 1
        // Past term length + budget scalars, every row minimum exceeds the budget.
        maxDepth = term.count + maxEdits + 1
        rows = [Int](repeating: 0, count: (maxDepth + 1) * width)
        for j in 0..<width { rows[j] = j }
        path = [UInt32](repeating: 0, count: maxDepth + 1)
    }

    mutating func run() { walk(node: 0, from: 0, scalars: 0, partial: 0, pending: 0, best: Int.max) }

    /// Reads the edge into `node` from byte `from`, stepping the matrix on each complete
    /// scalar, then visits the children.
    private mutating func walk(node: Int, from: Int, scalars: Int, partial: UInt32, pending: Int, best: Int) {
        var scalars = scalars, partial = partial, pending = pending, best = best
        let depth = Int(index.nodeDepth[node])
        let keyStart = Int(index.keys.offsets[Int(index.nodeKeyLow[node])])
        var position = from
        while position < depth {
            let byte = index.keys.bytes[keyStart + position]
            position += 1
            if pending > 0 {
                partial = partial << 6 | UInt32(byte & 0x3F)
                pending -= 1
                if pending > 0 { continue }
            } else if byte < 0x80 {
                partial = UInt32(byte)
            } else {
                if asciiOnly { return }
                if byte >= 0xF0 { partial = UInt32(byte & 0x07); pending = 3 } else if byte >= 0xE0 { partial = UInt32(byte & 0x0F); pending = 2 } else { partial = UInt32(byte & 0x1F); pending = 1 }
                continue
            }
            budget -= 1
            guard budget > 0, scalars < maxDepth, let distance = step(scalars: scalars, scalar: partial) else { return }
            scalars += 1
            if distance <= maxEdits && distance < best {
                found.append((Int(index.nodeKeyLow[node])..<Int(index.nodeKeyHigh[node]), distance))
                best = distance
                if distance == 0 { return }
            }
        }
        for child in Int(index.nodeChildStart[node])..<Int(index.nodeChildStart[node + 1]) {
            walk(node: child, from: depth, scalars: scalars, partial: partial, pending: pending, best: best)
        }
    }

    /// Computes the matrix row for path length `scalars + 1`; nil when the branch is out of
    /// budget, else the distance of the path to the whole term.
    private mutating func step(scalars: Int, scalar: UInt32) -> Int? {
        path[scalars] = scalar
        let previous = scalars * width
        let current = previous + width
        rows[current] = rows[previous] + 1
        var minimum = rows[current]
        for j in 1..<width {
            let cost = term[j - 1] == scalar ? 0 : 1
            var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
            if scalars >= 1 && j >= 2 && term[j - 1] == path[scalars - 1] && term[j - 2] == scalar {
                value = min(value, rows[previous - width + j - 2] + 1)
            }
            rows[current + j] = value
            minimum = min(minimum, value)
        }
        return minimum <= maxEdits ? rows[current + width - 1] : nil
    }
}
