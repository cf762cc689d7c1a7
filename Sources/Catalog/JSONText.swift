import Corpus
import Foundation
import Index
import Query

/// JSON text for pokesearch's outputs, shared by `--json` and the socket protocol so the two
/// always print the same objects. Objects keep their key order.
///
/// Search results, suggestions and strings are written as UTF-8 bytes straight into the
/// caller's buffer (`append…(into:)`): the server writes every answer that way, with no
/// intermediate `String` per field. The `String`-returning forms are the same bytes decoded.
public enum JSONText {
    public static func string(_ s: String) -> String {
        let out = ByteBuffer(capacity: s.utf8.count + 2)
        appendString(s, into: out)
        return out.string
    }

    /// `s` quoted, with `"`, `\` and the control characters escaped (`\n`, `\r`, `\t`, else
    /// `\u00XX`); every other character as it is, in UTF-8.
    public static func appendString(_ s: String, into out: ByteBuffer) {
        if s.utf8.withContiguousStorageIfAvailable({ appendString(bytes: $0, into: out) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { appendString(bytes: $0, into: out) }
        }
    }

    /// UTF-8 bytes quoted and escaped as `appendString`.
    public static func appendString(bytes: UnsafeBufferPointer<UInt8>, into out: ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        appendEscaped(bytes, into: out)
        out.append(UInt8(ascii: "\""))
    }

    /// The bytes, escaped; runs needing no escape copied whole. Names rarely hold a byte to
    /// escape, so they are scanned eight bytes at a time (the byte-at-a-time scan was most of
    /// the server's cost in writing a completion's answer).
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: ByteBuffer) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var start = 0
        var i = 0
        while i < count {
            while i + 8 <= count, !anyNeedsEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { i += 8 }
            guard i < count else { break }
            let byte = base[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(UnsafeBufferPointer(start: base + start, count: i - start))
                appendEscape(byte, into: out)
                start = i + 1
            }
            i += 1
        }
        out.append(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Whether any of the eight bytes in `word` is a control character, `"` or `\`.
    /// (`(x - 0x01…01 * n) & ~x & 0x80…80` is non-zero exactly when some byte of x is below
    /// n ≤ 0x80; a byte equal to c is a byte of x ^ c…c below 1.)
    @inline(__always)
    static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\""))), backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highBits != 0
    }

    private static func appendEscape(_ byte: UInt8, into out: ByteBuffer) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10 }
            out.append("u00")
            out.append(hex(byte >> 4))
            out.append(hex(byte & 0xF))
        }
    }

    /// A whole number in decimal.
    public static func appendInt(_ value: Int, into out: ByteBuffer) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(UnsafeBufferPointer(rebasing: digits[position...]))
        }
    }

    /// An object from ordered pairs whose values are already JSON.
    public static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    public static func bool(_ value: Bool) -> String { value ? "true" : "false" }
    public static func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    public static func number(_ value: Double) -> String { value.isFinite ? String(value) : "null" }

    /// One search result: `{"kind","id","slug","name","score"}`, `"dex"` (national dex
    /// number) for Pokémon and forms, `"types"` for them and moves, `"explain"` when asked.
    public static func result(_ r: SearchResult) -> String {
        let out = ByteBuffer()
        appendResult(r, into: out)
        return out.string
    }

    public static func appendResult(_ r: SearchResult, into out: ByteBuffer) {
        var slug = r.slug, name = r.name
        slug.withUTF8 { slug in
            name.withUTF8 { name in
                appendResult(kind: r.kind, id: r.id, dex: r.dex, slug: slug, name: name, score: r.score, types: r.types,
                             explanation: r.explanation, into: out)
            }
        }
    }

    /// A search's window, the results separated by commas, written from the index's bytes.
    public static func appendResults(_ results: SearchResults, into out: ByteBuffer) {
        results.forEachCard { position, card in
            if position > 0 { out.append(UInt8(ascii: ",")) }
            appendResult(kind: card.kind, id: card.id, dex: results.dex(at: position), slug: card.slug, name: card.name,
                         score: results.score(at: position),
                         types: [card.types.0, card.types.1].lazy.filter { $0 != 255 }.map { results.typeSlug($0) },
                         explanation: results.explanation(at: position), into: out)
        }
    }

    private static func appendResult(kind: Kind, id: Int, dex: Int?, slug: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>,
                                     score: Int, types: some Sequence<String>, explanation: [TermExplanation], into out: ByteBuffer) {
        out.append(#"{"kind":"#)
        appendString(kind.rawValue, into: out)
        out.append(#","id":"#)
        appendInt(id, into: out)
        if let dex {
            out.append(#","dex":"#)
            appendInt(dex, into: out)
        }
        out.append(#","slug":"#)
        appendString(bytes: slug, into: out)
        out.append(#","name":"#)
        appendString(bytes: name, into: out)
        out.append(#","score":"#)
        appendInt(score, into: out)
        if kind == .pokemon || kind == .form || kind == .move {
            out.append(#","types":["#)
            for (i, type) in types.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(type, into: out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if !explanation.isEmpty {
            out.append(#","explain":"#)
            out.appendUTF8(array(explanation.map { e in
                object([("term", string(e.term)), ("match", string(e.matchClass.label)), ("field", string(e.role)),
                        ("lang", e.language.map(string) ?? "null"), ("typos", String(e.typos)),
                        ("transliterated", bool(e.transliterated))])
            }))
        }
        out.append(UInt8(ascii: "}"))
    }

    public static func suggestion(_ s: Suggestion) -> String {
        let out = ByteBuffer()
        appendSuggestion(s, into: out)
        return out.string
    }

    /// `{"text","kind","id","slug"}`.
    public static func appendSuggestion(_ s: Suggestion, into out: ByteBuffer) {
        var text = s.text, slug = s.slug
        text.withUTF8 { text in
            slug.withUTF8 { slug in appendSuggestion(text: text, kind: s.kind, id: s.id, slug: slug, into: out) }
        }
    }

    /// A completion's suggestions, separated by commas, written from the index's bytes.
    public static func appendSuggestions(_ suggestions: Suggestions, into out: ByteBuffer) {
        suggestions.forEachCard { position, card in
            if position > 0 { out.append(UInt8(ascii: ",")) }
            appendSuggestion(text: card.name, kind: card.kind, id: card.id, slug: card.slug, into: out)
        }
    }

    private static func appendSuggestion(text: UnsafeBufferPointer<UInt8>, kind: Kind, id: Int, slug: UnsafeBufferPointer<UInt8>,
                                         into out: ByteBuffer) {
        out.append(#"{"text":"#)
        appendString(bytes: text, into: out)
        switch kind {
        case .pokemon: out.append(#","kind":"pokemon","id":"#)
        case .form: out.append(#","kind":"form","id":"#)
        case .move: out.append(#","kind":"move","id":"#)
        case .ability: out.append(#","kind":"ability","id":"#)
        case .item: out.append(#","kind":"item","id":"#)
        case .type: out.append(#","kind":"type","id":"#)
        }
        appendInt(id, into: out)
        out.append(#","slug":"#)
        appendString(bytes: slug, into: out)
        out.append(UInt8(ascii: "}"))
    }
}
