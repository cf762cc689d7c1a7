import CTrie
import Glibc

/// The primitive lookups over the key space that queries are made of.
extension IndexSnapshot {
    /// Keys that start with `prefix`: a contiguous range of key indexes, the range of the
    /// trie node the prefix leads to (a walk down the trie touches far fewer cache lines than
    /// a binary search over the keys). Empty when no key starts with it.
    public func keyRange(prefix: [UInt8]) -> Range<Int> {
        if prefix.isEmpty { return 0..<keys.count }
        guard let node = prefixNode(prefix) else { return 0..<0 }
        return nodeKeys(node)
    }

    /// The trie node whose key range is the keys starting with `prefix` (the node the prefix
    /// ends at, or ends inside the edge of), or nil when no key starts with it.
    ///
    /// The walk down the trie reads only the bytes where it chooses a child, and passes over
    /// the rest of each edge; those are compared once, at the end, with the first key of the
    /// node reached (every key below a node starts with its path). Read on the way down, each
    /// long edge cost two cache misses of its own (its first key's offset, then its bytes),
    /// one after the other, in a walk that is itself a chain of misses: for a name in kana,
    /// hangul or han, three bytes a scalar, most of a completion's misses were the walk's.
    /// Before that comparison, what answering from the node's list reads is asked for
    /// (`prefetchList`): a caller reads it next, and its misses then overlap the comparison's.
    /// A prefix in kana, hangul, han (any script beyond ASCII) ending at a node four bytes
    /// down or more is found by its path instead (`NodePaths`), then compared the same way.
    public func prefixNode(_ prefix: [UInt8]) -> Int? {
        prefix.withUnsafeBufferPointer { prefixNode($0) }
    }

    /// The same, for bytes in place (a caller's word, without an array).
    public func prefixNode(_ prefix: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !prefix.isEmpty, !trieNodes.isEmpty else { return nil }
        return prefixNode(prefix, from: 0, known: 0)
    }

    /// The node `prefix` leads to, given the node its first `known` bytes lead to (see
    /// `prefixNode`): the walk goes on from there ("mr mime" from "mr"'s node).
    public func prefixNode(_ prefix: UnsafeBufferPointer<UInt8>, from start: Int, known: Int) -> Int? {
        withTrie { trie in
            // A prefix ending at a deep node of a script beyond Latin: that node, by its path
            // (see `NodePaths`), once its depth and first key say it is the prefix's (a
            // fingerprint may be another's). (A walk from a node given goes on from there.)
            if known == 0, NodePaths.holds(prefix), let node = nodePaths.candidate(prefix),
               Int(trieNodes[node].depth) == prefix.count {
                prefetchList(of: node)
                if trie.startsNode(node, prefix, known: 0) { return node }
            }
            guard let (node, passedOver) = trie.descendByChildren(prefix, from: known > 0 ? start : 0, known: known) else { return nil }
            guard passedOver else { return node }
            prefetchList(of: node)
            return trie.startsNode(node, prefix, known: known) ? node : nil
        }
    }

    /// Calls `body` with the trie's arrays as raw pointers, for loops that read them a byte
    /// at a time.
    func withTrie<T>(_ body: (TrieView) -> T) -> T {
        keys.bytes.withUnsafeBufferPointer { bytes in
            keys.offsets.withUnsafeBufferPointer { offsets in
                trieNodes.withUnsafeBufferPointer { nodes in
                    nodeByte.withUnsafeBufferPointer { firstByte in
                        rootChild.withUnsafeBufferPointer { rootChild in
                            body(TrieView(bytes: bytes.baseAddress!, offsets: offsets.baseAddress!, nodes: nodes.baseAddress!,
                                          firstByte: firstByte.baseAddress!, nodeCount: firstByte.count, rootChild: rootChild.baseAddress!))
                        }
                    }
                }
            }
        }
    }

    /// The key equal to `bytes`, if any.
    public func keyIndex(_ bytes: [UInt8]) -> Int? {
        prefixNode(bytes).flatMap { keyEqualToPrefix(of: $0, length: bytes.count) }
    }

    /// The key equal to the `length`-byte prefix that led to `node` (see `prefixNode`), if
    /// any: it sorts first in the node's range.
    @inline(__always) public func keyEqualToPrefix(of node: Int, length: Int) -> Int? {
        let first = Int(trieNodes[node].keyLow)
        return keys.length(first) == length ? first : nil
    }

    /// Asks for what answering from `node`'s list reads next (the list's start, its first
    /// key's length and postings), each of them a cache miss apart from the others when
    /// the caches are cold: fetched together rather than one after another.
    @inline(__always) public func prefetchList(of node: Int) {
        let first = Int(trieNodes[node].keyLow)
        tops.start.withUnsafeBufferPointer { pokesearch_prefetch($0.baseAddress! + node) }
        keys.offsets.withUnsafeBufferPointer { pokesearch_prefetch($0.baseAddress! + first) }
        postingStart.withUnsafeBufferPointer { pokesearch_prefetch($0.baseAddress! + first) }
    }

    /// Asks for key `key`'s bytes (the line its offset is on must be read first: where that
    /// misses too, several keys asked for in turn still wait for memory together).
    @inline(__always) public func prefetchKey(_ key: Int) {
        keys.bytes.withUnsafeBufferPointer { pokesearch_prefetch($0.baseAddress! + Int(keys.offsets[key])) }
    }

    /// Whether a key is a whole name of no language's (a slug or a synonym, as written or run
    /// together): a term equal to it names that entity. Kept a bit a key: a common word
    /// ("normal", a type in many languages) has thousands of postings to read otherwise.
    public func isNeutralName(key: Int) -> Bool {
        neutralNames[key >> 6] >> UInt64(key & 63) & 1 != 0
    }

    /// Whether a text of `length` bytes, whose keys (those starting with it) are `range`, is
    /// itself such a name: the range's first key, the shortest, is the text.
    public func isNeutralName(text range: Range<Int>, length: Int) -> Bool {
        guard let first = range.first else { return false }
        return keys.length(first) == length && isNeutralName(key: first)
    }

    /// The bits `isNeutralName` reads, from the keys' postings.
    static func neutralNameBits(postingStart: [UInt32], postings: [UInt32]) -> [UInt64] {
        let keyCount = postingStart.count - 1
        var bits = [UInt64](repeating: 0, count: (keyCount + 63) / 64)
        for key in 0..<keyCount where postings[Int(postingStart[key])..<Int(postingStart[key + 1])].contains(where: { raw in
            Posting.isWholeName(raw) && (raw >> 4) & 15 == Posting.noLanguage
        }) {
            bits[key >> 6] |= 1 << UInt64(key & 63)
        }
        return bits
    }

    @inline(__always) public func postingRange(key: Int) -> Range<Int> {
        Int(postingStart[key])..<Int(postingStart[key + 1])
    }

    public func keyString(_ key: Int) -> String { keys.string(key) }

}

/// The trie's arrays as raw pointers (see `IndexSnapshot.withTrie`), valid only inside
/// that call. A place in the trie is a node and a byte position in its edge: the edge of
/// node n holds the bytes [depth of its parent, depth of n) of its first key.
struct TrieView {
    let bytes: UnsafePointer<UInt8>
    let offsets: UnsafePointer<UInt32>
    let nodes: UnsafePointer<TrieNode>
    let firstByte: UnsafePointer<UInt8>
    /// Nodes in all (the length of `nodes` and `firstByte`).
    let nodeCount: Int
    /// See `IndexSnapshot.rootChild`.
    let rootChild: UnsafePointer<Int32>

    @inline(__always) func keys(_ node: Int) -> Range<Int> { Int(nodes[node].keyLow)..<Int(nodes[node].keyHigh) }

    /// A typo search's finding: `node`'s keys, `distance` edits from the term.
    @inline(__always) func match(_ node: Int, _ distance: Int, length: Int) -> TypoMatch { (keys(node), node, distance, length) }

    /// The child of `node` whose edge starts with `byte`: the root's from its table; others
    /// (each child starting with a different byte, a few further down) found sixteen at a
    /// time (see `pokesearch_child_find`).
    @inline(__always) func child(of node: Int, startingWith byte: UInt8) -> Int? {
        let found = node == 0 ? Int(rootChild[Int(byte)])
            : pokesearch_child_find(firstByte, nodeCount, Int(nodes[node].childStart), Int(nodes[node].childCount), byte)
        return found < 0 ? nil : found
    }

    typealias Place = (node: Int, position: Int)

    /// Where `byte` leads from a place, or nil when no key goes on that way.
    @inline(__always) func step(_ place: Place?, _ byte: UInt8) -> Place? {
        guard let place else { return nil }
        let depth = Int(nodes[place.node].depth)
        if place.position < depth {
            return edgeByte(place.node, at: place.position) == byte ? (place.node, place.position + 1) : nil
        }
        return child(of: place.node, startingWith: byte).map { ($0, depth + 1) }
    }

    /// Byte `position` of `node`'s edge (read from its first key), for a position inside it.
    @inline(__always) func edgeByte(_ node: Int, at position: Int) -> UInt8 {
        bytes[Int(offsets[Int(nodes[node].keyLow)]) + position]
    }

    /// The node `prefix` would lead to (its last byte in the node's edge), given the node its
    /// first `known` bytes lead to, read only where the walk chooses a child; nil when no
    /// child starts with such a byte. `passedOver`: some bytes of the prefix were passed over
    /// inside edges, unread, so that `startsNode` must compare them (see
    /// `IndexSnapshot.prefixNode`).
    @inline(__always)
    func descendByChildren(_ prefix: UnsafeBufferPointer<UInt8>, from start: Int, known: Int) -> (node: Int, passedOver: Bool)? {
        var node = start
        var depth = Int(nodes[node].depth)
        // The start's edge past `known` is passed over.
        var passedOver = known < depth
        while depth < prefix.count {
            // The children's records are asked for while their first bytes are compared: a
            // step down waits for memory once instead of twice. (A node with many children,
            // near the root, is in the caches anyway.)
            let children = nodes[node].children
            if !children.isEmpty && children.count <= 8 && node != 0 {
                pokesearch_prefetch(nodes + children.lowerBound)
                pokesearch_prefetch(nodes + children.upperBound - 1)
            }
            guard let child = child(of: node, startingWith: prefix[depth]) else { return nil }
            let childDepth = Int(nodes[child].depth)
            // (A child is deeper than its parent; a damaged snapshot's is not, and would loop.)
            guard childDepth > depth else { return nil }
            if childDepth > depth + 1 { passedOver = true }
            node = child
            depth = childDepth
        }
        return (node, passedOver)
    }

    /// Whether `prefix` (its first `known` bytes known to match) starts `node`'s first key,
    /// and so every key below the node: for a prefix no longer than that key.
    @inline(__always) func startsNode(_ node: Int, _ prefix: UnsafeBufferPointer<UInt8>, known: Int) -> Bool {
        let key = bytes + Int(offsets[Int(nodes[node].keyLow)])
        var i = known
        while i < prefix.count && key[i] == prefix[i] { i += 1 }
        return i == prefix.count
    }

    /// Where reading `path` down from byte `position` of `node`'s edge leads, or nil when
    /// no key goes on that way. A node's first key is read only where its edge is longer
    /// than the byte that chose it.
    @inline(__always)
    func descend(from node: Int, at position: Int, through path: some Sequence<UInt8>) -> (node: Int, position: Int)? {
        var node = node, position = position
        var end = Int(nodes[node].depth)
        var keyStart = -1
        for byte in path {
            if position == end {
                guard let next = child(of: node, startingWith: byte) else { return nil }
                node = next
                end = Int(nodes[node].depth)
                keyStart = -1
            } else {
                if keyStart < 0 { keyStart = Int(offsets[Int(nodes[node].keyLow)]) }
                if bytes[keyStart + position] != byte { return nil }
            }
            position += 1
        }
        return (node, position)
    }
}
