import CICU
import Synchronization

/// The one text normalisation pokesearch uses, at ingest and at query time alike, so that
/// what a user types and what the index holds meet in the same form.
///
/// `fold` gives lower-case text without diacritics, in NFKC (full-width and compatibility
/// forms unified), with hiragana mapped to katakana, apostrophes dropped ("farfetchd"),
/// ♀/♂ spelled as the words "f"/"m" (like PokeAPI's slugs), and every other run of
/// punctuation, symbols or spaces turned into one space ("mr mime", "type null").
public enum Folding {
    /// The folded form of `text`: words of letters, digits and marks, one space apart.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return separateWords(asciiLowercased(text)) }
        return separateWords(icuFold(text))
    }

    /// The folded text with its spaces removed: "mr mime" → "mrmime".
    public static func compact(_ folded: String) -> String {
        folded.contains(" ") ? String(folded.filter { $0 != " " }) : folded
    }

    /// The words of a folded text.
    public static func words(_ folded: String) -> [Substring] {
        folded.split(separator: " ")
    }

    /// Whether `text` holds letters outside the Latin script (kana, hangul, han, Cyrillic…),
    /// which are also matched through their Latin transliteration.
    public static func hasNonLatinLetters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.value >= 0x250 && scalar.properties.isAlphabetic && !isLatinExtension(scalar.value)
        }
    }

    /// The folded Latin transliteration of text with non-Latin letters ("ピカチュウ" →
    /// "pikachu", "피카츄" → "pikachyu", "皮卡丘" → "pi ka qiu"), or nil for Latin text.
    public static func transliterate(_ text: String) -> String? {
        guard hasNonLatinLetters(text) else { return nil }
        let latin = transliterators.withTransliterator { handle in
            callICU(text) { input, length, output, capacity, status in
                pokesearch_icu_transliterate(handle, input, length, output, capacity, status)
            }
        }
        let folded = fold(latin)
        return folded.isEmpty ? nil : folded
    }

    // MARK: - Implementation

    private static func isLatinExtension(_ value: UInt32) -> Bool {
        (0x1E00...0x1EFF).contains(value) || (0x2C60...0x2C7F).contains(value) || (0xA720...0xA7FF).contains(value)
            || (0xFF21...0xFF5A).contains(value) // full-width Latin
    }

    private static func asciiLowercased(_ text: String) -> String {
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func icuFold(_ text: String) -> String {
        callICU(text) { input, length, output, capacity, status in
            pokesearch_icu_fold(input, length, output, capacity, status)
        }
    }

    /// Runs an ICU call with pokesearch_icu's output convention (returns the length it
    /// needs), growing the buffer once if needed. ICU failures here can only be memory
    /// exhaustion, so they fold to the input unchanged rather than lose the name.
    private static func callICU(
        _ text: String,
        _ call: (UnsafePointer<CChar>, Int32, UnsafeMutablePointer<CChar>, Int32, UnsafeMutablePointer<Int32>) -> Int32
    ) -> String {
        var input = text
        return input.withUTF8 { utf8 -> String in
            utf8.withMemoryRebound(to: CChar.self) { chars -> String in
                var capacity = max(64, utf8.count * 4 + 16)
                for _ in 0..<2 {
                    var status: Int32 = 0
                    var output = [CChar](repeating: 0, count: capacity)
                    let needed = output.withUnsafeMutableBufferPointer { out in
                        call(chars.baseAddress!, Int32(chars.count), out.baseAddress!, Int32(capacity), &status)
                    }
                    if needed < 0 { return text }
                    if Int(needed) <= capacity {
                        return String(decoding: output[0..<Int(needed)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    }
                    capacity = Int(needed)
                }
                return text
            }
        }
    }

    private static func separateWords(_ folded: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        func append(_ scalar: Unicode.Scalar) {
            if pendingSpace && !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        for scalar in folded.unicodeScalars {
            switch scalar.value {
            case 0x27, 0x60, 0xB4, 0x2BC, 0x2018, 0x2019: continue // apostrophes join: farfetch'd → farfetchd
            case 0x2640: pendingSpace = true; append("f"); pendingSpace = true // ♀
            case 0x2642: pendingSpace = true; append("m"); pendingSpace = true // ♂
            default:
                if isWordScalar(scalar) { append(scalar) } else { pendingSpace = true }
            }
        }
        return String(result)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let v = scalar.value
            return (v >= 0x30 && v <= 0x39) || (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    private static let transliterators = TransliteratorPool(id: "Any-Latin")
}

/// ICU transliterators are not thread-safe and costly to open: the pool opens one, then
/// hands each concurrent caller its own clone, kept for reuse.
final class TransliteratorPool: Sendable {
    private let id: String
    private let idle = Mutex<[UInt]>([]) // OpaquePointer bit patterns, so the state is Sendable

    init(id: String) { self.id = id }

    func withTransliterator<R>(_ body: (OpaquePointer) -> R) -> R {
        let handle = take()
        defer { idle.withLock { $0.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))) } }
        return body(handle)
    }

    private func take() -> OpaquePointer {
        if let bits = idle.withLock({ $0.popLast() }) { return OpaquePointer(bitPattern: bits)! }
        var status: Int32 = 0
        guard let handle = pokesearch_icu_transliterator_open(id, &status) else {
            fatalError("ICU cannot open transliterator \(id): \(String(cString: pokesearch_icu_error_name(status)))")
        }
        return handle
    }
}

/// A name in all the forms the index matches: raw as displayed, folded, compact, and
/// (for non-Latin names) transliterated. `doc` is the document it names.
public struct FoldedName: Sendable, Equatable {
    public var doc: Int
    public var language: String
    public var raw: String
    public var folded: String
    public var compact: String
    public var translit: String?

    public init(doc: Int, language: String, raw: String, folded: String, compact: String, translit: String?) {
        self.doc = doc
        self.language = language
        self.raw = raw
        self.folded = folded
        self.compact = compact
        self.translit = translit
    }

    /// Folds a raw name.
    public init(doc: Int, language: String, raw: String) {
        let folded = Folding.fold(raw)
        self.init(doc: doc, language: language, raw: raw, folded: folded, compact: Folding.compact(folded),
                  translit: Folding.transliterate(raw))
    }
}
