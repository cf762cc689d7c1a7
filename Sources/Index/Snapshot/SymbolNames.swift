/// The names holding each symbol: for every scalar that is neither a letter, a digit nor
/// white space ("★", "?", "!", "♀", "-", "・") found in a display name, the name entries
/// holding it, ascending. Folding drops such scalars, so the keys cannot find them; a query
/// of symbols alone ("★", "???") reads the names of its rarest symbol instead of every
/// name (`★` is in a thousand names, `?` in far fewer; docs/PERFORMANCE.md has the times).
public struct SymbolNames: Sendable {
    /// The symbol scalars, ascending; `entries[start[i]..<start[i+1]]` hold `scalars[i]`.
    let scalars: [UInt32]
    let start: [UInt32]
    let entries: [UInt32]

    init(scalars: [UInt32], start: [UInt32], entries: [UInt32]) {
        self.scalars = scalars
        self.start = start
        self.entries = entries
    }

    /// Whether a scalar is a symbol here. Letters and digits of the scripts names are mostly
    /// written in are told by their ranges (most scalars of the corpus; a property lookup
    /// costs more), the rest by their Unicode properties.
    static func isSymbol(_ value: UInt32) -> Bool {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x20, 0x09...0x0D: return false
        case 0x21..<0x80: return true
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return false
        default:
            guard let scalar = Unicode.Scalar(value) else { return false }
            let properties = scalar.properties
            return !properties.isAlphabetic && properties.numericType == nil && !properties.isWhitespace
        }
    }

    /// Each name's symbols, grouped by symbol.
    static func build(_ names: StringPool) -> SymbolNames {
        var holders: [UInt32: [UInt32]] = [:]
        var seen: [UInt32] = []
        names.bytes.withUnsafeBufferPointer { bytes in
            for entry in 0..<names.count {
                seen.removeAll(keepingCapacity: true)
                forEachScalar(of: UnsafeBufferPointer(rebasing: bytes[names.range(entry)])) { value in
                    guard isSymbol(value) && !seen.contains(value) else { return }
                    seen.append(value)
                    holders[value, default: []].append(UInt32(entry))
                }
            }
        }
        let scalars = holders.keys.sorted()
        var start: [UInt32] = [0], entries: [UInt32] = []
        for scalar in scalars {
            entries += holders[scalar]!
            start.append(UInt32(entries.count))
        }
        return SymbolNames(scalars: scalars, start: start, entries: entries)
    }

    /// Calls `body` with each scalar of UTF-8 bytes, decoded in place (no String made per
    /// name); a malformed sequence is skipped.
    static func forEachScalar(of bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): body(scalar.value)
            case .emptyInput: return
            case .error: continue
            }
        }
    }

    /// The entries of the needle's rarest symbol (every name holding the needle is among
    /// them), or nil when the needle has no symbol (then any name may hold it).
    func candidates(for needle: [UInt8]) -> ArraySlice<UInt32>? {
        var rarest: ArraySlice<UInt32>? = nil
        needle.withUnsafeBufferPointer { bytes in
            Self.forEachScalar(of: bytes) { value in
                guard Self.isSymbol(value) else { return }
                let holding = holders(of: value)
                if holding.count < rarest?.count ?? .max { rarest = holding }
            }
        }
        return rarest
    }

    /// The entries holding a symbol (none when no name does).
    func holders(of scalar: UInt32) -> ArraySlice<UInt32> {
        var low = 0, high = scalars.count
        while low < high {
            let mid = (low + high) >> 1
            if scalars[mid] < scalar { low = mid + 1 } else { high = mid }
        }
        guard low < scalars.count, scalars[low] == scalar else { return [] }
        return entries[Int(start[low])..<Int(start[low + 1])]
    }

    /// Whether the lists fit the names, and each is ascending (names are read in order, their
    /// documents found by galloping on from the last one's).
    func isConsistent(nameCount: Int) -> Bool {
        guard start.count == scalars.count + 1, start.first == 0, start.last.map(Int.init) == entries.count,
              IndexSnapshot.isAscending(start), IndexSnapshot.isAscending(scalars),
              IndexSnapshot.allBelow(entries, shift: 0, nameCount) else { return false }
        return scalars.indices.allSatisfy { i in
            let list = entries[Int(start[i])..<Int(start[i + 1])]
            return zip(list, list.dropFirst()).allSatisfy { $0 < $1 }
        }
    }

    var byteSize: Int { (scalars.count + start.count + entries.count) * 4 }
}
