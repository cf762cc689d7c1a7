/// The trie's deeper nodes in scripts other than Latin by their paths: an open-addressing
/// table from a node's path (the first `depth` bytes of its first key) to the node, for nodes
/// at least `minimumDepth` bytes down whose path starts with a byte of a scalar beyond ASCII.
/// A prefix ending at such a node is found by one probe, where the walk down the trie stepped
/// once per node on the way, each step a cache miss where the caches are cold: a name in
/// kana, hangul or han, three bytes a scalar, branches at almost every byte ("喷火龙", nine
/// bytes: eight nodes, most of its completion's cache misses). A
/// prefix ending inside an edge is not in the table, and is walked. Latin keys are left out:
/// their prefixes end inside edges more often than not, the walk's first steps are shared by
/// most queries (in the caches), and a probe missing the table was one more miss (with them
/// in, the benchmark's completions missed the last-level cache more often, not less).
///
/// Each slot is a fingerprint of the path's hash (32 bits) above the node (0: empty; the root,
/// node 0, is never in the table). A fingerprint may match another path: the caller compares
/// the node's depth and first key with the prefix (`IndexSnapshot.prefixNode`).
public struct NodePaths: Sendable {
    /// Slots, a power of two of them, at most three quarters full.
    let slots: [UInt64]

    /// Nodes less deep are near the root, where the walk is short and in the caches.
    static let minimumDepth = 4

    /// Whether a path's nodes are in the table (by its first byte): not ASCII.
    @inline(__always) static func holds(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        path.count >= minimumDepth && path[0] >= 0x80
    }

    init(slots: [UInt64]) {
        self.slots = slots
    }

    static func build(nodes: [TrieNode], keys: StringPool) -> NodePaths {
        keys.bytes.withUnsafeBufferPointer { bytes in
            func path(_ node: Int) -> UnsafeBufferPointer<UInt8> {
                let start = Int(keys.offsets[Int(nodes[node].keyLow)])
                return UnsafeBufferPointer(rebasing: bytes[start..<start + Int(nodes[node].depth)])
            }
            let held = nodes.indices.filter { nodes[$0].keyLow < nodes[$0].keyHigh && holds(path($0)) }
            var size = 2
            while size * 3 < held.count * 4 { size <<= 1 }
            var slots = [UInt64](repeating: 0, count: size)
            let mask = slots.count - 1
            for node in held {
                let hash = Self.hash(path(node))
                var slot = Self.slot(hash, mask)
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Self.fingerprint(hash) << 32 | UInt64(node)
            }
            return NodePaths(slots: slots)
        }
    }

    /// A node whose path may be `path` (its fingerprint matches), or nil when no node the
    /// table holds has that path (for a path it `holds`).
    @inline(__always) func candidate(_ path: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(path)
        let fingerprint = Self.fingerprint(hash)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Self.slot(hash, mask)
            while true {
                let entry = slots[slot]
                if entry == 0 { return nil }
                if entry >> 32 == fingerprint { return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) }
                slot = (slot + 1) & mask
            }
        }
    }

    /// FNV-1a over the bytes, then mixed so that its high bits (the slot) and its low bits
    /// (the fingerprint) both depend on every byte.
    @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        hash = (hash ^ hash >> 31) &* 0xBF58_476D_1CE4_E5B9
        return hash ^ hash >> 32
    }

    @inline(__always) static func slot(_ hash: UInt64, _ mask: Int) -> Int { Int(truncatingIfNeeded: hash >> 40) & mask }
    @inline(__always) static func fingerprint(_ hash: UInt64) -> UInt64 { hash & 0xFFFF_FFFF }

    public var byteSize: Int { slots.count * 8 }

    /// Every slot empty or a node other than the root, within `nodeCount`; a power of two of
    /// slots, with an empty one (a lookup's probe ends), for a snapshot read back from disk.
    func isConsistent(nodeCount: Int) -> Bool {
        guard slots.count > 0, slots.count & (slots.count - 1) == 0, slots.contains(0) else { return false }
        var largest: UInt64 = 0
        slots.withUnsafeBufferPointer { for entry in $0 { largest = max(largest, entry & 0xFFFF_FFFF) } }
        return largest < UInt64(nodeCount)
    }
}
