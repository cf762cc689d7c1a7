/// A key the interactive mode reacts to, decoded from the bytes a terminal sends.
enum Key: Equatable {
    /// Text typed (one or more characters: a paste, or what arrived in one read).
    case text(String)
    case enter, backspace, delete, tab, backTab, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// A control key, by its letter: `.control("w")` is Ctrl-W.
    case control(Character)
    /// Alt (Meta) and a key, as terminals send it: ESC, then the key.
    case alt(Character)
}

/// Turns the terminal's bytes into keys: UTF-8 text, control characters, and the escape
/// sequences of cursor and editing keys (both the `ESC [` and the `ESC O` forms, with or
/// without modifier parameters). A lone ESC cannot be told from the start of a sequence
/// until the bytes after it arrive or do not: it stays pending until `flushPending`.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Whether bytes are waiting for more (an ESC, a sequence or a character begun).
    var hasPending: Bool { !pending.isEmpty }

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var position = 0
        while position < pending.count {
            guard let (key, length) = Self.decode(pending[position...]) else { break }
            if let key {
                if case .text(let more) = key, case .text(let text)? = keys.last {
                    keys[keys.count - 1] = .text(text + more)
                } else {
                    keys.append(key)
                }
            }
            position += length
        }
        pending.removeFirst(position)
        return keys
    }

    /// What is pending when no more bytes came: a lone ESC is the Escape key; the rest of an
    /// unfinished sequence or character is dropped.
    mutating func flushPending() -> [Key] {
        defer { pending.removeAll() }
        return pending.first == 0x1B ? [.escape] : []
    }

    /// The key at the start of `bytes` and how many bytes it took (a nil key: bytes that
    /// mean nothing here, skipped), or nil when more bytes are needed to tell.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B: return decodeEscape(bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x00: return (nil, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x1C...0x1F: return (nil, 1)
        case 0x20..<0x80: return (.text(String(Unicode.Scalar(first))), 1)
        default: return decodeUTF8(bytes)
        }
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        guard length > 1, first < 0xF8 else { return (nil, 1) }
        let end = bytes.startIndex + length
        // Continuation bytes only: a broken sequence is skipped a byte at a time.
        for i in bytes.startIndex + 1..<min(end, bytes.endIndex) where bytes[i] & 0xC0 != 0x80 { return (nil, 1) }
        guard end <= bytes.endIndex else { return nil }
        guard let text = String(validating: bytes[bytes.startIndex..<end], as: UTF8.self) else { return (nil, length) }
        return (.text(text), length)
    }

    private static func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        guard bytes.count > 1 else { return nil }
        let introducer = bytes[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            // CSI: parameters and intermediates (0x20–0x3F), then a final byte.
            var end = start + 2
            while end < bytes.endIndex, (0x20...0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.endIndex else { return nil }
            let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
            return (csiKey(final: bytes[end], parameters: parameters), end - start + 1)
        case UInt8(ascii: "O"):
            guard bytes.count > 2 else { return nil }
            return (csiKey(final: bytes[start + 2], parameters: ""), 3)
        case 0x1B:
            // ESC ESC: the first is a lone Escape.
            return (.escape, 1)
        case 0x7F, 0x08:
            return (.alt("\u{7F}"), 2)
        case 0x20..<0x7F:
            return (.alt(Character(Unicode.Scalar(introducer))), 2)
        default:
            return (.escape, 1)
        }
    }

    private static func csiKey(final: UInt8, parameters: String) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "~"):
            // The key's number comes first; a modifier may follow after ';'.
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }
}
