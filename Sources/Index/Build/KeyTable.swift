/// Interns byte strings: each distinct key gets a dense id. Keys live in one arena and the
/// table is open-addressed, so building the index does not allocate a String per key.
struct KeyTable {
    private(set) var arena: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]
    private var slots: [Int32]
    private var mask: Int

    init(expectedCount: Int) {
        var capacity = 1024
        while capacity < expectedCount * 2 { capacity <<= 1 }
        slots = [Int32](repeating: -1, count: capacity)
        mask = capacity - 1
        arena.reserveCapacity(expectedCount * 10)
        offsets.reserveCapacity(expectedCount + 1)
    }

    var count: Int { offsets.count - 1 }

    /// The id of `key`, adding it if new.
    mutating func intern(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        if count * 2 >= slots.count { grow() }
        let hash = Self.hash(key)
        var slot = hash & mask
        while true {
            let id = Int(slots[slot])
            if id < 0 {
                slots[slot] = Int32(count)
                arena.append(contentsOf: key)
                offsets.append(UInt32(arena.count))
                return count - 1
            }
            if equals(id, key) { return id }
            slot = (slot + 1) & mask
        }
    }

    func bytes(_ id: Int) -> ArraySlice<UInt8> { arena[Int(offsets[id])..<Int(offsets[id + 1])] }

    private func equals(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(offsets[id])
        let length = Int(offsets[id + 1]) - start
        guard length == key.count else { return false }
        return arena.withUnsafeBufferPointer { a in
            var i = 0
            while i < length {
                if a[start + i] != key[i] { return false }
                i += 1
            }
            return true
        }
    }

    private mutating func grow() {
        let capacity = slots.count * 2
        slots = [Int32](repeating: -1, count: capacity)
        mask = capacity - 1
        for id in 0..<count {
            let hash = arena.withUnsafeBufferPointer { a in
                Self.hash(UnsafeBufferPointer(rebasing: a[Int(offsets[id])..<Int(offsets[id + 1])]))
            }
            var slot = hash & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    /// FNV-1a, finished with a multiply-shift mix.
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        h ^= h >> 29
        h = h &* 0xbf58_476d_1ce4_e5b9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }
}
