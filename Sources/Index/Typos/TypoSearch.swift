import CTrie
import Glibc

extension IndexSnapshot {
    /// Keys within `maxEdits` edits (insertions, deletions, substitutions, transpositions of
    /// neighbours) of `term`, or having a prefix that is: each found key range with the trie
    /// node holding it (whose best-first list ranks the range) and its distance. A Latin
    /// (ASCII) term is only compared with ASCII keys.
    /// At most `steps` scalars are stepped (`steps` is left with what remains): the caller's
    /// bound on the work of one query. `editsWithin`: the scalars edits may be made at (the
    /// rest read as written), for a Latin term; nil: anywhere.
    public func typoMatches(_ term: [UInt32], maxEdits: Int, editsWithin: Range<Int>? = nil, steps: inout Int) -> [TypoMatch] {
        guard maxEdits > 0, !term.isEmpty, steps > 0 else { return [] }
        // (A window that is the whole term is none: the term's search may then be split.)
        let editsWithin = editsWithin == 0..<term.count ? nil : editsWithin
        var search = TypoSearch(index: self, term: term, maxEdits: maxEdits,
                                split: term.count >= TypoSearch.minimumSplitLength && editsWithin == nil ? term.count / 2 : nil,
                                editsWithin: editsWithin, budget: steps)
        search.run()
        steps = search.budget
        return search.found
    }
}

/// Keys a typo search found: a trie node's range, the edits from the term to the path it
/// was aligned with, and that path's length in bytes (the range's keys all start with the
/// path; its first key is the path itself when as long).
public typealias TypoMatch = (keys: Range<Int>, node: Int, distance: Int, length: Int)

/// Keys with a prefix within a few edits of a term, found down the radix trie.
///
/// A Latin (ASCII) term, most typos, is searched by making its edits (`EditEnumeration`):
/// each edit is tried only where the trie holds the term up to it, with the bytes the trie
/// has there, and the rest is read as written; a way ends at the first byte the trie lacks.
/// Edits near the root reach much of the trie (dozens of bytes at each of the first
/// places), so a term of seven scalars or more is split in halves: an alignment within the
/// budget makes its last edit at or after the first half's last scalar, or leaves the rest
/// as written. The enumeration takes the first case; the second is looked up through the
/// suffix array by the rest, which then appears exactly in a key within the budget of where
/// the half ends (`runExactTail`). Edits only within a window after a part read as written
/// that starts few keys are counted on each of those keys instead (`measureKeys`).
///
/// Other terms (kana, hangul, accented letters: scalars of several bytes, which may span
/// edges) are searched by a depth-first walk one Unicode scalar at a time, running a
/// bit-parallel Levenshtein automaton with transpositions (Wu–Manber with the
/// optimal-string-alignment step): for each number of edits i ≤ budget, bit j of
/// `state[i]` says "the first j scalars of the term align with the path so far in at most i
/// edits". A branch is pruned when no state is left within the budget, or none could beat
/// the distance already found on its path. A node whose path aligns with the whole term
/// yields its key range: those keys have a prefix within that many edits. Such terms are
/// short (names in those scripts are), which keeps the walk small.
struct TypoSearch {
    let index: IndexSnapshot
    let term: [UInt32]
    let maxEdits: Int
    /// Whether the term is all ASCII (then only ASCII keys are compared with it).
    let asciiOnly: Bool
    /// For a split search (ASCII terms only), the length of the first half.
    let split: Int?
    /// Where edits may be made (ASCII terms only; the whole term otherwise).
    let editsWithin: Range<Int>
    var found: [TypoMatch] = []
    /// Steps left (bytes read, scalars stepped).
    var budget: Int

    /// Terms longer than this (bits of a word, less one) get no typo search.
    static let maxTermLength = 62
    /// Searches of Latin terms this long or longer are split (the rest is then at least four
    /// scalars: a narrow range of the suffix array).
    static let minimumSplitLength = 7

    init(index: IndexSnapshot, term: [UInt32], maxEdits: Int, split: Int? = nil, editsWithin: Range<Int>? = nil, budget: Int) {
        self.index = index
        self.term = term
        self.maxEdits = maxEdits
        asciiOnly = term.allSatisfy { $0 < 0x80 }
        self.split = asciiOnly ? split : nil
        self.editsWithin = asciiOnly ? editsWithin ?? 0..<term.count : 0..<term.count
        self.budget = budget
    }

    struct Walk {
        let trie: TrieView
        let term: [UInt32]
        let length: Int
        let maxEdits: Int
        /// Bit j + 1 set where term[j] is the scalar (ASCII scalars precomputed).
        let asciiMasks: [UInt64]
        /// The term's UTF-8, and where each of its scalars starts in it (plus the end).
        let termBytes: [UInt8]
        let scalarStarts: [Int]
        /// States per path length: (maxEdits + 1) words each, and the scalar read there.
        let states: UnsafeMutablePointer<UInt64>
        let path: UnsafeMutablePointer<UInt32>
        let maxDepth: Int
        var found: [TypoMatch] = []
        /// Scalars left to step, so that no term can make the search unbounded.
        var budget: Int

        @inline(__always) func mask(_ scalar: UInt32) -> UInt64 {
            if scalar < 128 { return asciiMasks[Int(scalar)] }
            var mask: UInt64 = 0
            for j in 0..<length where term[j] == scalar { mask |= 1 << UInt64(j + 1) }
            return mask
        }

        mutating func visit(node: Int, from: Int, scalars: Int, partial: UInt32, pending: Int, best: Int) {
            var scalars = scalars, partial = partial, pending = pending, best = best
            let depth = Int(trie.nodes[node].depth)
            var position = from
            if position < depth {
                let keyStart = Int(trie.offsets[Int(trie.nodes[node].keyLow)])
                while position < depth {
                    let byte = trie.bytes[keyStart + position]
                    position += 1
                    if pending > 0 {
                        partial = partial << 6 | UInt32(byte & 0x3F)
                        pending -= 1
                        if pending > 0 { continue }
                    } else if byte < 0x80 {
                        partial = UInt32(byte)
                    } else {
                        if byte >= 0xF0 { partial = UInt32(byte & 0x07); pending = 3 } else if byte >= 0xE0 { partial = UInt32(byte & 0x0F); pending = 2 } else { partial = UInt32(byte & 0x1F); pending = 1 }
                        continue
                    }
                    budget -= 1
                    guard budget > 0, scalars < maxDepth else { return }
                    let (minimum, distance) = step(scalars: scalars, scalar: partial)
                    scalars += 1
                    if distance < best {
                        found.append(trie.match(node, distance, length: position))
                        best = distance
                    }
                    // Deeper, no alignment gets cheaper than the cheapest one alive now.
                    if minimum > maxEdits || minimum >= best { return }
                    if budgetSpent(scalars: scalars) {
                        followExactly(node: node, position: position, scalars: scalars)
                        return
                    }
                }
            }
            for child in trie.nodes[node].children {
                if pending == 0 {
                    // A child whose first byte is a whole scalar is stepped on that byte (kept
                    // beside its siblings') before anything of it is read: most children end
                    // there, and one whose edge is that byte alone is entered without its key.
                    let byte = trie.firstByte[child]
                    if byte < 0x80 {
                        budget -= 1
                        guard budget > 0, scalars < maxDepth else { return }
                        let (minimum, distance) = step(scalars: scalars, scalar: UInt32(byte))
                        var childBest = best
                        if distance < childBest {
                            found.append(trie.match(child, distance, length: depth + 1))
                            childBest = distance
                        }
                        if minimum > maxEdits || minimum >= childBest { continue }
                        if budgetSpent(scalars: scalars + 1) {
                            followExactly(node: child, position: depth + 1, scalars: scalars + 1)
                            continue
                        }
                        visit(node: child, from: depth + 1, scalars: scalars + 1, partial: UInt32(byte), pending: 0, best: childBest)
                        continue
                    }
                }
                visit(node: child, from: depth, scalars: scalars, partial: partial, pending: pending, best: best)
            }
        }

        /// Whether every alignment alive after `scalars` path scalars has used the whole edit
        /// budget: then the path can only go on as the term does (every automaton step would
        /// be a match), or as a transposition begun at the last scalar finishes it.
        @inline(__always) func budgetSpent(scalars: Int) -> Bool {
            let current = states + scalars * (maxEdits + 1)
            for i in 0..<maxEdits where current[i] != 0 { return false }
            return true
        }

        /// With the budget spent (see `budgetSpent`), each way the path can still go on is
        /// followed down the trie by comparing bytes, instead of stepping the automaton on
        /// every child: from each term position j still aligned, the term's remaining
        /// scalars; from each position j aligned one edit below two scalars back whose next
        /// scalar is the path's last (a transposition begun), term[j] and then the rest from
        /// j + 2. Where a way is read to its end, the node reached holds keys within
        /// `maxEdits` of the term.
        mutating func followExactly(node: Int, position: Int, scalars: Int) {
            let k = maxEdits + 1
            let end = termBytes.count
            var aligned = states[scalars * k + maxEdits] & ((UInt64(1) << UInt64(length)) &- 1)
            while aligned != 0 {
                let j = aligned.trailingZeroBitCount
                aligned &= aligned &- 1
                follow(node: node, position: position, first: scalarStarts[j]..<end, then: end..<end)
            }
            let last = path[scalars - 1]
            var transposing = states[(scalars - 1) * k + maxEdits - 1]
            while transposing != 0 {
                let j = transposing.trailingZeroBitCount
                transposing &= transposing &- 1
                guard j + 2 <= length, term[j + 1] == last else { continue }
                follow(node: node, position: position, first: scalarStarts[j]..<scalarStarts[j + 1], then: scalarStarts[j + 2]..<end)
            }
        }

        /// Reads the term bytes `first` then `then` down from `position` in `node`'s edge; if
        /// all are there, records the node reached at `maxEdits`.
        mutating func follow(node: Int, position: Int, first: Range<Int>, then: Range<Int>) {
            budget -= first.count + then.count
            guard budget > 0, let middle = trie.descend(from: node, at: position, through: termBytes[first]),
                  let end = trie.descend(from: middle.node, at: middle.position, through: termBytes[then]) else { return }
            found.append(trie.match(end.node, maxEdits, length: end.position))
        }

        /// Advances the automaton by one scalar from path length `scalars`: the fewest edits
        /// any alive alignment has, and the edits of the whole term (Int.max if over budget).
        @inline(__always)
        mutating func step(scalars: Int, scalar: UInt32) -> (minimum: Int, distance: Int) {
            let k = maxEdits + 1
            path[scalars] = scalar
            let previous = states + scalars * k
            let current = previous + k
            let match = mask(scalar)
            let full = UInt64(1) << UInt64(length)
            let all = (full << 1) &- 1
            var transposable: UInt64 = 0
            var before: UnsafeMutablePointer<UInt64>? = nil
            if scalars >= 1 {
                // Term scalars j-2, j-1 equal to this scalar and the previous one.
                transposable = (match << 1) & mask(path[scalars - 1])
                before = previous - k
            }
            var minimum = Int.max
            var distance = Int.max
            for i in 0..<k {
                var next = (previous[i] << 1) & match
                if i > 0 {
                    next |= previous[i - 1] | (previous[i - 1] << 1) | (current[i - 1] << 1)
                    if let before { next |= (before[i - 1] << 2) & transposable }
                }
                next &= all
                current[i] = next
                if next != 0 && minimum == Int.max { minimum = i }
                if next & full != 0 && distance == Int.max { distance = i }
            }
            return (minimum, distance)
        }
    }

    mutating func run() {
        guard index.keys.count > 0, !index.keys.bytes.isEmpty, term.count <= Self.maxTermLength else { return }
        if asciiOnly { runEnumeration() } else { runAutomaton() }
    }

    mutating func runEnumeration() {
        let lastEditFrom = split.map { $0 - 1 } ?? 0
        let maxEdits = self.maxEdits, editsWithin = self.editsWithin
        // The term's bytes on the stack (as the split search's own arrays and set were: a
        // misspelt completion made fifteen allocations, these four of them).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: term.count) { termBytes in
            for (i, scalar) in term.enumerated() { termBytes[i] = UInt8(scalar) }
            let term = UnsafeBufferPointer(termBytes)
            // Edits only within a window, the rest after it as written: found by that rest, as
            // the second case of a split search (with the part before the window as written
            // too), where the window starts the term and the rest is four bytes or more, or
            // where the rest is in few keys (`fewOccurrences`); not by making edits near the
            // root, or after the part before the window on every key it starts
            // ("dragonjangbulletproof": the "dragon" keys, hundreds, few holding "bulletproof").
            // After a part before the window that starts few keys, each of them is measured.
            if editsWithin.lowerBound > 0 {
                let head = index.withTrie { trie in trie.descend(from: 0, at: 0, through: term[..<editsWithin.lowerBound]) }
                guard let head else { return }
                if index.nodeKeys(head.node).count <= Self.fewKeysAfterHead {
                    measureKeys(after: head, termBytes: term)
                    return
                }
            }
            let rest = UnsafeBufferPointer(rebasing: term[editsWithin.upperBound...])
            if !rest.isEmpty && editsWithin != 0..<term.count,
               editsWithin.lowerBound == 0 && rest.count >= 4
                || index.suffixes.suffixes(startingWith: rest).count
                   <= (editsWithin.lowerBound == 0 ? Self.fewOccurrences(edits: maxEdits) : Self.fewOccurrencesAfterHead) {
                runExactTail(split: editsWithin.upperBound, head: editsWithin.lowerBound, termBytes: term)
                return
            }
            var budget = self.budget
            found = index.withTrie { trie in
                var enumeration = EditEnumeration(trie: trie, term: term, lastEditFrom: lastEditFrom, editsWithin: editsWithin,
                                                  budget: budget)
                enumeration.walk(from: (0, 0), at: 0, editsLeft: maxEdits, used: 0)
                budget = enumeration.budget
                return enumeration.found
            }
            self.budget = budget
            if let split { runExactTail(split: split, termBytes: term) }
        }
    }

    mutating func runAutomaton() {
        let k = maxEdits + 1
        // Past term length + budget scalars, no alignment is within budget.
        let maxDepth = term.count + maxEdits + 1
        let states = UnsafeMutablePointer<UInt64>.allocate(capacity: (maxDepth + 1) * k)
        let path = UnsafeMutablePointer<UInt32>.allocate(capacity: maxDepth + 1)
        defer { states.deallocate(); path.deallocate() }
        // Before any scalar, i edits delete the term's first i scalars.
        for i in 0..<k { states[i] = (UInt64(1) << UInt64(min(i, term.count) + 1)) &- 1 }
        var asciiMasks = [UInt64](repeating: 0, count: 128)
        for (j, scalar) in term.enumerated() where scalar < 128 { asciiMasks[Int(scalar)] |= 1 << UInt64(j + 1) }
        var termBytes: [UInt8] = []
        var scalarStarts: [Int] = []
        for scalar in term {
            scalarStarts.append(termBytes.count)
            UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { termBytes.append($0) }
        }
        scalarStarts.append(termBytes.count)
        let term = self.term
        let maxEdits = self.maxEdits
        let steps = budget
        (found, budget) = index.withTrie { trie in
            var walk = Walk(trie: trie, term: term, length: term.count, maxEdits: maxEdits,
                            asciiMasks: asciiMasks, termBytes: termBytes, scalarStarts: scalarStarts,
                            states: states, path: path, maxDepth: maxDepth, budget: steps)
            walk.visit(node: 0, from: 0, scalars: 0, partial: 0, pending: 0, best: Int.max)
            return (walk.found, walk.budget)
        }
    }

    /// Keys within the edits of an ASCII term (or having a prefix that is), without the
    /// automaton: the term is read down the trie, and at each byte i it reaches, each edit
    /// (byte i deleted, replaced or preceded by another byte, swapped with byte i + 1) is
    /// made there and the rest of the term read on from where it leads, with the edits left
    /// (the same way) or, after the last, as written. Where the term is read to its end, the
    /// node reached holds keys with a prefix that many edits from it. A replacement or an
    /// insertion tries only the bytes the trie has at that place (dozens near the root, one
    /// inside an edge), and each way stops at the first byte the trie lacks: no automaton
    /// stepped on every child, no subtree entered that the term does not go on into.
    /// Every alignment is made this way with its edits in term order (two edits at one place,
    /// a byte inserted after a byte replaced, come one after the other); one is reported
    /// more than once where two edit sequences give the same key, harmless to a hit map.
    struct EditEnumeration {
        let trie: TrieView
        let term: UnsafeBufferPointer<UInt8>
        /// The last edit is made at this byte or later (a split search: the alignments whose
        /// edits all come earlier leave the second half as written, the other case's).
        let lastEditFrom: Int
        /// The bytes edits may be made at.
        let editsWithin: Range<Int>
        var found: [TypoMatch] = []
        /// Bytes left to read, so that no term can make the search unbounded.
        var budget: Int

        init(trie: TrieView, term: UnsafeBufferPointer<UInt8>, lastEditFrom: Int, editsWithin: Range<Int>, budget: Int) {
            self.trie = trie
            self.term = term
            self.lastEditFrom = lastEditFrom
            self.editsWithin = editsWithin
            self.budget = budget
            found.reserveCapacity(8)
        }

        /// Reads the term from byte `j` on, down from `start`, making up to `editsLeft` edits
        /// on the way (`used` made before).
        mutating func walk(from start: TrieView.Place, at j: Int, editsLeft: Int, used: Int) {
            let n = term.count
            var place = start
            var i = j
            while budget > 0 {
                if i == n {
                    found.append(trie.match(place.node, used, length: place.position))
                    return
                }
                let byte = term[i]
                if editsLeft > 0 && (editsLeft > 1 || i >= lastEditFrom) && editsWithin.contains(i) {
                    budget -= 1
                    // Deleted; swapped with the next byte.
                    edited(place, at: i + 1, editsLeft: editsLeft, used: used)
                    if i + 1 < n && term[i + 1] != byte, let swapped = trie.step(trie.step(place, term[i + 1]), byte) {
                        edited(swapped, at: i + 2, editsLeft: editsLeft, used: used)
                    }
                    // Replaced by, or preceded by, each other byte the trie has here (inserting
                    // the term's own byte here is inserting it after this byte: the next place's):
                    // the edge's next byte inside an edge, else each child's first.
                    func replacedOrPreceded(by other: UInt8, leadingTo next: TrieView.Place) {
                        guard other < 0x80 && other != byte else { return }
                        budget -= 1
                        edited(next, at: i + 1, editsLeft: editsLeft, used: used)
                        edited(next, at: i, editsLeft: editsLeft, used: used)
                    }
                    let depth = Int(trie.nodes[place.node].depth)
                    if place.position < depth {
                        replacedOrPreceded(by: trie.edgeByte(place.node, at: place.position), leadingTo: (place.node, place.position + 1))
                    } else {
                        for child in trie.nodes[place.node].children {
                            replacedOrPreceded(by: trie.firstByte[child], leadingTo: (child, depth + 1))
                        }
                    }
                }
                guard let following = trie.step(place, byte) else { return }
                place = following
                i += 1
            }
        }

        /// Goes on after an edit that led to `place`, the term to read from byte `j` on: as
        /// written after the last edit, else with the edits left.
        @inline(__always) mutating func edited(_ place: TrieView.Place, at j: Int, editsLeft: Int, used: Int) {
            if editsLeft > 1 {
                walk(from: place, at: j, editsLeft: editsLeft - 1, used: used + 1)
                return
            }
            budget -= term.count - j
            if let end = trie.descend(from: place.node, at: place.position, through: UnsafeBufferPointer(rebasing: term[j...])) {
                found.append(trie.match(end.node, used + 1, length: end.position))
            }
        }
    }

    /// The second case of a split search: every edit within the first `split` scalars, the
    /// rest (ASCII) exactly as written, and the first `head` scalars too (a window of edits).
    /// A key holding the rest at offset o has
    /// a path from one of its word starts w (a word of a name is a key of its own) with
    /// o - w within `maxEdits` of `split`; the path to the rest's end, all ASCII, is measured
    /// against the whole term (less what the two share at either end), and the keys under it
    /// are found within the budget.
    mutating func runExactTail(split: Int, head: Int = 0, termBytes term: UnsafeBufferPointer<UInt8>) {
        let rest = UnsafeBufferPointer(rebasing: term[split...])
        // Its findings join the enumeration's, each (node, distance) once.
        var found = self.found
        self.found = []
        let enumerated = found.count
        var budget = self.budget
        let index = self.index
        let maxEdits = self.maxEdits
        // Most paths share too few letters with the term to be within the budget: told from
        // their letters alone, they are not measured.
        let termLetters = Self.asciiLetters(UnsafeBufferPointer(rebasing: term[..<split])) ?? 0
        // The paths measured, kept in a small open-addressed table on the stack (a path's start
        // in the keys' bytes << 8 | its length; 0: empty): most keys holding the rest hold it
        // in the same few words ("thunder" in every name of a Thunder move), and a path
        // measured once need not be again ("pikachu thunder" completed spent most of its
        // work measuring "thunder" again). Once half full, it takes no more.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.measuredSlots) { measured in
            measured.initialize(repeating: 0)
            var recorded = 0
            index.withTrie { trie in
                let bytes = trie.bytes
                /// Whether `path` (at `pathStart` in the keys' bytes) was measured, recording it if not.
                func measuredBefore(_ path: UnsafeBufferPointer<UInt8>, at pathStart: Int) -> Bool {
                    var slot = KeyTable.hash(path) & (measured.count - 1)
                    while measured[slot] != 0 {
                        let entry = Int(measured[slot])
                        if entry & 0xFF == path.count && memcmp(bytes + (entry >> 8), path.baseAddress!, path.count) == 0 { return true }
                        slot = (slot + 1) & (measured.count - 1)
                    }
                    if recorded < measured.count / 2 && path.count <= 0xFF && pathStart < 1 << 24 {
                        measured[slot] = UInt32(pathStart << 8 | path.count)
                        recorded += 1
                    }
                    return false
                }
                index.suffixes.forEachOccurrence(of: rest, keyCount: index.keys.count) { key, suffixLength, _ in
                    budget -= 1
                    let range = index.keys.range(key)
                    guard budget > 0, suffixLength <= range.count else { return }
                    let key = UnsafeBufferPointer(start: bytes + range.lowerBound, count: range.count)
                    let offset = range.count - suffixLength
                    // Word starts w with offset - w within maxEdits of split.
                    guard offset - split + maxEdits >= 0 else { return }
                    for start in max(0, offset - split - maxEdits)...(offset - split + maxEdits) {
                        guard start == 0 || key[start - 1] == 0x20 else { continue }
                        let path = UnsafeBufferPointer(rebasing: key[start..<(offset + rest.count)])
                        // (The rest is the term's, ASCII: only the bytes before it are asked.)
                        guard path.count >= head, head == 0 || memcmp(path.baseAddress!, term.baseAddress!, head) == 0,
                              let letters = Self.asciiLetters(UnsafeBufferPointer(rebasing: key[start..<offset])),
                              Self.editsAtLeast(between: termLetters, and: letters) <= maxEdits,
                              !measuredBefore(path, at: range.lowerBound + start) else { continue }
                        budget -= path.count
                        // Measured between the part before the window and the rest, both as the
                        // term has them: a common prefix or suffix changes no distance.
                        let middle = offset - start, common = min(head, middle)
                        guard let distance = Self.distance(UnsafeBufferPointer(rebasing: term[common..<split]),
                                                           UnsafeBufferPointer(rebasing: path[common..<middle]), atMost: maxEdits),
                              let node = trie.descend(from: 0, at: 0, through: path)?.node,
                              !found[enumerated...].contains(where: { $0.node == node && $0.distance == distance }) else { continue }
                        found.append(trie.match(node, distance, length: path.count))
                    }
                }
            }
        }
        self.found = found
        self.budget = budget
    }

    /// The letters of an ASCII text as a set (bit `byte & 63` of each byte; letters of one
    /// case are distinct bits, another byte may share one), nil for a text beyond ASCII.
    @inline(__always) static func asciiLetters(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var letters: UInt64 = 0, all: UInt8 = 0
        for byte in text {
            letters |= asciiLetter(byte)
            all |= byte
        }
        return all < 0x80 ? letters : nil
    }

    /// An ASCII byte's bit in a set of letters (`asciiLetters`).
    @inline(__always) static func asciiLetter(_ byte: UInt8) -> UInt64 { 1 &<< UInt64(byte & 63) }

    /// A lower bound on the edits between two texts, from their letter sets (`asciiLetters`):
    /// each letter one has and the other lacks takes an edit of its own (a deletion or a
    /// replacement of it, an insertion or a replacement by it), a transposition none.
    @inline(__always) static func editsAtLeast(between a: UInt64, and b: UInt64) -> Int {
        max((a & ~b).nonzeroBitCount, (b & ~a).nonzeroBitCount)
    }

    /// A window of edits after a part before it (`head`, the place that part leads to), the
    /// rest after the window read as written, measured on each key starting with that part:
    /// the edits between the window and each start of the key's next bytes (its ASCII start,
    /// no longer than the window can reach within the budget) that the rest follows. Each key
    /// within the budget is found at its fewest edits, and read whole too where the whole key
    /// is within the budget (a whole key ranks as the whole word: `MatchContext.addRunTypos`),
    /// each as a range of that key alone. What the enumeration finds down the trie from the
    /// part before, where that part starts few keys: there every edit is tried at every
    /// place of the window on every byte the trie has there, many times the bytes of the keys.
    mutating func measureKeys(after head: TrieView.Place, termBytes term: UnsafeBufferPointer<UInt8>) {
        let window = UnsafeBufferPointer(rebasing: term[editsWithin])
        let rest = UnsafeBufferPointer(rebasing: term[editsWithin.upperBound...])
        let headLength = editsWithin.lowerBound, maxEdits = self.maxEdits
        // No key's bytes past the window's length and budget, and the rest, can be within it.
        let reach = window.count + maxEdits + rest.count
        let windowLetters = Self.asciiLetters(window) ?? 0
        var found = self.found, budget = self.budget
        index.withTrie { trie in
            // Which of the window's bytes each ASCII byte equals (bit i: byte i).
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 128) { equal in
                equal.initialize(repeating: 0)
                for (i, byte) in window.enumerated() { equal[Int(byte)] |= 1 &<< UInt64(i) }
                for key in trie.keys(head.node) {
                    budget -= 1
                    guard budget > 0 else { return }
                    let keyStart = Int(trie.offsets[key]), keyLength = Int(trie.offsets[key + 1]) - keyStart
                    let next = UnsafeBufferPointer(start: trie.bytes + keyStart + headLength, count: keyLength - headLength)
                    var ascii = 0, letters: UInt64 = 0
                    while ascii < min(next.count, reach) && next[ascii] < 0x80 {
                        letters |= Self.asciiLetter(next[ascii])
                        ascii += 1
                    }
                    let start = UnsafeBufferPointer(rebasing: next[..<ascii])
                    // Letters of the window the key's start lacks take an edit each (those of the
                    // start the window lacks may lie past the path).
                    guard (windowLetters & ~letters).nonzeroBitCount <= maxEdits else { continue }
                    budget -= ascii
                    // The fewest edits of a path ending inside the key, and of the whole key.
                    var nearest: (distance: Int, length: Int)? = nil
                    var whole: Int? = nil
                    func consider(_ aligned: Int, _ distance: Int) {
                        let end = aligned + rest.count
                        guard distance <= maxEdits, end <= ascii,
                              rest.isEmpty || memcmp(start.baseAddress! + aligned, rest.baseAddress!, rest.count) == 0 else { return }
                        if end == next.count { whole = distance }
                        if distance < nearest?.distance ?? .max { nearest = (distance, end) }
                    }
                    consider(0, window.count)
                    if !window.isEmpty {
                        var column = OSAColumn(patternLength: window.count)
                        for aligned in 0..<min(ascii, window.count + maxEdits) {
                            column.step(equal[Int(start[aligned])])
                            consider(aligned + 1, column.distance)
                        }
                    }
                    guard let nearest else { continue }
                    func report(_ distance: Int, length: Int) {
                        let path = UnsafeBufferPointer(start: trie.bytes + keyStart + headLength, count: length)
                        guard let end = trie.descend(from: head.node, at: head.position, through: path) else { return }
                        found.append((key..<key + 1, end.node, distance, headLength + length))
                    }
                    if let whole { report(whole, length: next.count) }
                    if nearest.length != next.count { report(nearest.distance, length: nearest.length) }
                }
            }
        }
        self.found = found
        self.budget = budget
    }

    /// A window after a part before it is measured on each key that part starts
    /// (`measureKeys`) when they are at most this many (tuned by instructions on the
    /// benchmark's searches of several words that typos beside results slow most: fewer than
    /// half as many did worse, four times as many no better).
    static let fewKeysAfterHead = 128

    /// The rest after a window of edits at the start is looked up in the suffix array when it
    /// has at most this many occurrences (or is four bytes or more): the enumeration would
    /// make edits near the root, but each occurrence's paths are measured from several word
    /// starts (tuned on the benchmark's searches of several words, by instructions). With two
    /// edits the enumeration near the root reaches far more of the trie ("avalugown", edits in
    /// "avalug": past the budget's share of steps, against a few hundred for the keys holding
    /// "own"), so the rest is looked up with sixteen times as many.
    static func fewOccurrences(edits: Int) -> Int { edits > 1 ? 16 * 60 : 60 }
    /// After a window with a part before it: the enumeration starts where that part leads,
    /// cheaper than measuring a common rest's paths ("groundmarorock": "rock" in hundreds of
    /// keys, each path measured from several word starts).
    static let fewOccurrencesAfterHead = 40

    /// Room for the paths `runExactTail` remembers measuring (a power of two; four bytes a
    /// path, so that the table fits the stack: past a kilobyte, a temporary allocation is
    /// made on the heap, which with its clearing cost a typo search more than its lookups).
    static let measuredSlots = 256

    /// The optimal-string-alignment distance between `a` and `b` (adjacent transpositions
    /// count one), or nil past `atMost`. Bit-parallel (`OSAColumn`: the shorter text's column,
    /// the longer read element by element), where the table computed a cell at a time cost
    /// several times as much on the paths the split search measures. The shorter text holds
    /// at most 64 elements (a term at most `maxTermLength` scalars). The project's one edit
    /// distance: the tests measure typos with it too.
    static func distance<Element: Equatable>(_ a: UnsafeBufferPointer<Element>, _ b: UnsafeBufferPointer<Element>, atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        let (pattern, text) = a.count <= b.count ? (a, b) : (b, a)
        guard !pattern.isEmpty else { return text.count }
        precondition(pattern.count <= 64, "an edit distance between texts of more than 64 elements each")
        var column = OSAColumn(patternLength: pattern.count)
        for element in text {
            var matches: UInt64 = 0
            for i in 0..<pattern.count where pattern[i] == element { matches |= 1 &<< UInt64(i) }
            column.step(matches)
        }
        return column.distance <= limit ? column.distance : nil
    }

    /// One column of the optimal-string-alignment table of a pattern (at most 64 elements)
    /// against a text read element by element (Hyyrö's bit-parallel algorithm with
    /// transpositions): bit i of each word holds a difference between neighbouring cells of
    /// the column for the pattern's first i + 1 elements, all of them updated at once for each
    /// element of the text. `distance`: the edits between the whole pattern and the text read
    /// so far.
    struct OSAColumn {
        let last: UInt64
        /// Vertical differences +1 and -1, the diagonal's zero differences, and the previous
        /// element's matches (for a transposition).
        var positive = ~UInt64(0), negative: UInt64 = 0, zero: UInt64 = 0, previousMatches: UInt64 = 0
        private(set) var distance: Int

        init(patternLength: Int) {
            last = UInt64(1) << UInt64(patternLength - 1)
            distance = patternLength
        }

        /// Reads the text's next element, given the pattern's elements equal to it (bit i: element i).
        @inline(__always) mutating func step(_ matches: UInt64) {
            let transposed = ((~zero & matches) &<< 1) & previousMatches
            zero = (((matches & positive) &+ positive) ^ positive) | matches | negative | transposed
            var horizontalPositive = negative | ~(zero | positive)
            var horizontalNegative = zero & positive
            if horizontalPositive & last != 0 { distance += 1 } else if horizontalNegative & last != 0 { distance -= 1 }
            horizontalPositive = horizontalPositive &<< 1 | 1
            horizontalNegative = horizontalNegative &<< 1
            positive = horizontalNegative | ~(zero | horizontalPositive)
            negative = horizontalPositive & zero
            previousMatches = matches
        }
    }
}
