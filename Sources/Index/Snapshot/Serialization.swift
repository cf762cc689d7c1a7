import Corpus

/// The persisted form of an index snapshot: a magic, the format version, then every array
/// as a count and its raw little-endian bytes. Loading copies bytes into arrays, which is
/// what lets a one-shot CLI answer without rebuilding the index.
extension IndexSnapshot {
    static let magic: UInt32 = 0x5053_4B58 // "PSKX"

    public func serialized() -> [UInt8] {
        var w = BinaryWriter()
        w.scalar(Self.magic)
        w.scalar(UInt32(Self.formatVersion))
        w.scalar(UInt64(docCount))
        w.array(docKind); w.array(docID); w.array(docFlags); w.pool(slugs)
        w.array(nameStart); w.array(nameLanguage); w.pool(nameTexts)
        w.array(docTypes); w.array(abilityStart); w.array(abilityRefs); w.array(docColor); w.array(docHabitat)
        w.scalar(UInt64(numbers.count))
        for column in numbers { w.array(column) }
        w.strings(typeSlugs); w.strings(colorSlugs); w.strings(habitatSlugs)
        let abilities = abilitySlugByID.sorted { $0.key < $1.key }
        w.array(abilities.map(\.key)); w.strings(abilities.map(\.value))
        w.pool(keys); w.array(postingStart); w.array(postings); w.array(neutralNames)
        w.array(trieNodes); w.array(nodeByte); w.array(nodePaths.slots)
        w.array(suffixes.text); w.array(suffixes.starts); w.array(suffixes.sampleHeads)
        w.array(tops.start); w.array(tops.entries); w.array(tops.distinctDocs)
        w.array(tops.docKeyStart); w.array(tops.docPostings)
        w.array(wholeWords.keys); w.array(wholeWords.start); w.array(wholeWords.entries)
        w.array(symbolNames.scalars); w.array(symbolNames.start); w.array(symbolNames.entries)
        w.pool(cards.pool)
        w.array(slugOrder)
        w.scalar(buildMilliseconds.bitPattern)
        return w.bytes
    }

    /// Reads a snapshot written by `serialized()`; nil if the bytes are not one (wrong
    /// magic or version, truncated, inconsistent), so the caller rebuilds instead.
    public static func deserialize(_ buffer: UnsafeRawBufferPointer) -> IndexSnapshot? {
        deserialize(from: MemorySource(buffer: buffer))
    }

    /// Reads a snapshot from any byte source (a SQLite blob reads straight into the arrays).
    public static func deserialize(from source: some ByteSource) -> IndexSnapshot? {
        var r = BinaryReader(source: source)
        guard r.scalar(UInt32.self) == magic, r.scalar(UInt32.self) == UInt32(formatVersion),
              let docCount = r.scalar(UInt64.self).map(Int.init) else { return nil }
        guard let docKind: [UInt8] = r.array(), let docID: [Int32] = r.array(), let docFlags: [UInt8] = r.array(),
              let slugs = r.pool(), let nameStart: [UInt32] = r.array(), let nameLanguage: [UInt8] = r.array(),
              let nameTexts = r.pool(), let docTypes: [UInt8] = r.array(), let abilityStart: [UInt32] = r.array(),
              let abilityRefs: [UInt16] = r.array(), let docColor: [UInt8] = r.array(), let docHabitat: [UInt8] = r.array(),
              let columnCount = r.scalar(UInt64.self), columnCount == UInt64(NumericColumn.allCases.count)
        else { return nil }
        var numbers: [[Int32]] = []
        for _ in 0..<columnCount {
            guard let column: [Int32] = r.array(), column.count == docCount else { return nil }
            numbers.append(column)
        }
        guard let typeSlugs = r.strings(), let colorSlugs = r.strings(), let habitatSlugs = r.strings(),
              let abilityIDs: [Int32] = r.array(), let abilitySlugs = r.strings(), abilityIDs.count == abilitySlugs.count,
              let keys = r.pool(), let postingStart: [UInt32] = r.array(), let postings: [UInt32] = r.array(),
              let neutralNames: [UInt64] = r.array(),
              let trieNodes: [TrieNode] = r.array(), let nodeByte: [UInt8] = r.array(), let pathSlots: [UInt64] = r.array(),
              let suffixText: [UInt8] = r.array(), let suffixStarts: [UInt32] = r.array(), let sampleHeads: [UInt64] = r.array(),
              let topStart: [UInt32] = r.array(), let topEntries: [UInt32] = r.array(),
              let topDistinct: [UInt32] = r.array(), let docKeyStart: [UInt32] = r.array(), let docPostings: [UInt32] = r.array(),
              let wholeKeys: [UInt32] = r.array(), let wholeStart: [UInt32] = r.array(), let wholeEntries: [UInt32] = r.array(),
              let symbolScalars: [UInt32] = r.array(), let symbolStart: [UInt32] = r.array(), let symbolEntries: [UInt32] = r.array(),
              let cards = r.pool(),
              let slugOrder: [UInt32] = r.array(), let buildBits = r.scalar(UInt64.self), r.isAtEnd
        else { return nil }
        // Cheap structural checks: every offset array must fit what it indexes.
        guard docKind.count == docCount, docID.count == docCount, docFlags.count == docCount, slugs.count == docCount,
              nameStart.count == docCount + 1, nameStart.last.map(Int.init) == nameLanguage.count,
              nameTexts.count == nameLanguage.count, docTypes.count == docCount * 2,
              abilityStart.count == docCount + 1, abilityStart.last.map(Int.init) == abilityRefs.count,
              postingStart.count == keys.count + 1, postingStart.last.map(Int.init) == postings.count,
              neutralNames.count == (keys.count + 63) / 64,
              nodeByte.count == trieNodes.count,
              slugOrder.count == docCount
        else { return nil }
        let snapshot = IndexSnapshot(
            documents: .init(docCount: docCount, docKind: docKind, docID: docID, docFlags: docFlags, slugs: slugs, slugOrder: slugOrder,
                             docTypes: docTypes, abilityStart: abilityStart, abilityRefs: abilityRefs, docColor: docColor,
                             docHabitat: docHabitat, numbers: numbers),
            names: .init(nameStart: nameStart, nameLanguage: nameLanguage, nameTexts: nameTexts),
            vocabulary: .init(typeSlugs: typeSlugs, colorSlugs: colorSlugs, habitatSlugs: habitatSlugs,
                              abilitySlugByID: Dictionary(uniqueKeysWithValues: zip(abilityIDs, abilitySlugs))),
            keys: .init(keys: keys, postingStart: postingStart, postings: postings, neutralNames: neutralNames, trieNodes: trieNodes,
                        nodeByte: nodeByte,
                        nodePaths: NodePaths(slots: pathSlots)),
            suffixes: SuffixArray(text: suffixText, starts: suffixStarts, sampleHeads: sampleHeads),
            tops: PrefixTops(start: topStart, entries: topEntries, distinctDocs: topDistinct,
                             docKeyStart: docKeyStart, docPostings: docPostings),
            wholeWords: WholeWordLists(keys: wholeKeys, start: wholeStart, entries: wholeEntries),
            symbolNames: SymbolNames(scalars: symbolScalars, start: symbolStart, entries: symbolEntries),
            cards: DocCards(pool: cards),
            buildMilliseconds: Double(bitPattern: buildBits))
        return snapshot.isConsistent ? snapshot : nil
    }

    /// Whether every value of `values`, shifted right by `shift`, is below `limit`: a plain
    /// loop over a maximum, which the compiler vectorises (checking the large arrays is most
    /// of the cost of loading a snapshot).
    static func allBelow(_ values: [UInt32], mask: UInt32 = .max, shift: UInt32, _ limit: Int) -> Bool {
        values.withUnsafeBufferPointer { buffer in
            var largest: UInt32 = 0
            for value in buffer { largest = max(largest, (value & mask) >> shift) }
            return buffer.isEmpty || Int(largest) < limit
        }
    }

    /// Whether `values` never decrease (offset arrays), in one plain loop.
    static func isAscending(_ values: [UInt32]) -> Bool {
        values.withUnsafeBufferPointer { buffer in
            var descents = 0
            for i in buffer.indices.dropFirst() where buffer[i] < buffer[i - 1] { descents += 1 }
            return descents == 0
        }
    }

    /// Whether every posting-shaped value (`… | role << 1 | flag`) has a known role.
    static func rolesValid(_ values: [UInt32]) -> Bool {
        values.withUnsafeBufferPointer { buffer in
            var largest: UInt32 = 0
            for value in buffer { largest = max(largest, (value >> 1) & 7) }
            return largest <= KeyRole.field.rawValue
        }
    }

    /// Every stored index points inside what it indexes, so that no damaged snapshot can
    /// make a lookup read out of bounds.
    var isConsistent: Bool {
        let keyCount = UInt32(keys.count), nodeCount = UInt32(trieNodes.count)
        guard docKind.allSatisfy({ Int($0) < Kind.allCases.count }),
              nameLanguage.allSatisfy({ Int($0) < Language.codes.count }),
              docTypes.allSatisfy({ $0 == 255 || Int($0) < typeSlugs.count }),
              docColor.allSatisfy({ $0 == 255 || Int($0) < colorSlugs.count }),
              docHabitat.allSatisfy({ $0 == 255 || Int($0) < habitatSlugs.count }),
              Self.allBelow(postings, shift: 8, Int(docCount)), Self.rolesValid(postings),
              Self.isAscending(postingStart),
              Self.isAscending(nameStart),
              Self.isAscending(abilityStart),
              suffixes.isConsistent, slugOrder.allSatisfy({ Int($0) < docCount }),
              trieNodes.first?.depth == 0, nodePaths.isConsistent(nodeCount: trieNodes.count),
              tops.isConsistent(nodeCount: trieNodes.count, keyCount: keys.count, docCount: docCount),
              wholeWords.isConsistent(keyCount: keys.count, docCount: docCount),
              symbolNames.isConsistent(nameCount: nameTexts.count),
              cards.isConsistent(docCount: docCount, typeCount: typeSlugs.count)
        else { return false }
        for node in trieNodes {
            let low = node.keyLow, high = node.keyHigh
            guard node.children.upperBound <= nodeCount,
                  low <= high, high <= keyCount,
                  // An edge is read from the node's first key: a node without keys has none.
                  low == high ? node.depth == 0 : Int(node.depth) <= keys.length(Int(low)) else { return false }
        }
        return true
    }
}

struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func scalar<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Integers, or records of them without padding (`TrieNode`), as their raw bytes.
    mutating func array<T: BitwiseCopyable>(_ values: [T]) {
        scalar(UInt64(values.count))
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func pool(_ pool: StringPool) {
        array(pool.bytes)
        array(pool.offsets)
    }

    mutating func strings(_ strings: [String]) { pool(StringPool(strings)) }
}

/// Random-access bytes to deserialize from.
public protocol ByteSource {
    var count: Int { get }
    /// Copies `destination.count` bytes starting at `offset`; false on failure.
    func read(into destination: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool
}

public struct MemorySource: ByteSource {
    let buffer: UnsafeRawBufferPointer
    public init(buffer: UnsafeRawBufferPointer) { self.buffer = buffer }
    public var count: Int { buffer.count }
    public func read(into destination: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset + destination.count <= buffer.count else { return false }
        if destination.count > 0 { destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + destination.count)])) }
        return true
    }
}

struct BinaryReader<Source: ByteSource> {
    let source: Source
    var offset = 0

    var isAtEnd: Bool { offset == source.count }

    mutating func scalar<T: FixedWidthInteger>(_: T.Type) -> T? {
        var value = T.zero
        let ok = withUnsafeMutableBytes(of: &value) { source.read(into: $0, at: offset) }
        guard ok else { return nil }
        offset += MemoryLayout<T>.size
        return T(littleEndian: value)
    }

    mutating func array<T: BitwiseCopyable>() -> [T]? {
        guard let count = scalar(UInt64.self), count <= UInt64(source.count) else { return nil }
        let size = Int(count) * MemoryLayout<T>.stride
        guard offset + size <= source.count else { return nil }
        var ok = true
        let start = offset
        let result = [T](unsafeUninitializedCapacity: Int(count)) { destination, initialized in
            ok = source.read(into: UnsafeMutableRawBufferPointer(destination), at: start)
            initialized = ok ? Int(count) : 0
        }
        guard ok else { return nil }
        offset += size
        return result
    }

    mutating func pool() -> StringPool? {
        guard let bytes: [UInt8] = array(), let offsets: [UInt32] = array(), let first = offsets.first, first == 0,
              let last = offsets.last, Int(last) == bytes.count, IndexSnapshot.isAscending(offsets)
        else { return nil }
        return StringPool(bytes: bytes, offsets: offsets)
    }

    mutating func strings() -> [String]? {
        guard let pool = pool() else { return nil }
        return (0..<pool.count).map { pool.string($0) }
    }
}
