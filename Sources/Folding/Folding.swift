import CICU
import Locking

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
        if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }) ?? text.utf8.allSatisfy({ $0 < 0x80 }) {
            return foldASCII(text)
        }
        return foldByScalar(text) ?? foldWithICU(text)
    }

    /// Whether folded text holds several words. (Its bytes read in place: iterating a
    /// string's UTF-8 view costs tens of instructions a byte, a tenth of a word's parsing.)
    @inlinable public static func hasSeveralWords(_ folded: String) -> Bool {
        folded.utf8.withContiguousStorageIfAvailable { $0.contains(0x20) } ?? folded.utf8.contains(0x20)
    }

    /// The folding through ICU (what `fold` gives for any text).
    static func foldWithICU(_ text: String) -> String { separateWords(icuFold(text)) }

    /// The folded text with its spaces removed: "mr mime" → "mrmime".
    public static func compact(_ folded: String) -> String {
        // Bytes, not characters: a space is one byte, and grapheme breaking costs more than
        // the rest of a query's phrase match.
        guard hasSeveralWords(folded) else { return folded }
        // Written in place: one allocation at most (none for a short name).
        var text = folded
        return text.withUTF8 { bytes in String(unsafeUninitializedCapacity: bytes.count) { compact(bytes, into: $0) } }
    }

    /// The compact form of folded text's bytes, written into `output` (as many bytes as the
    /// text at most): how many were written.
    @inlinable
    public static func compact(_ folded: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in folded where byte != 0x20 {
            output[count] = byte
            count += 1
        }
        return count
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
    /// "pikachuu", "피카츄" → "pikachyu", "皮卡丘" → "pi ka qiu"), or nil for Latin text.
    ///
    /// Each run of one script goes through that script's ICU transliterator (kana, hangul;
    /// Any-Latin for the rest), and han characters one at a time through Han-Latin with a
    /// cache: Any-Latin is slow on a Chinese name and slower still to open (DEVELOPERS.md),
    /// the cached path cheap after the first sight of each character.
    public static func transliterate(_ text: String) -> String? {
        guard hasNonLatinLetters(text) else { return nil }
        var latin = ""
        var run = String.UnicodeScalarView()
        var runScript = Script.latin
        func flushRun() {
            guard !run.isEmpty else { return }
            let segment = String(run)
            switch runScript {
            case .latin: latin += segment
            case .kana: latin += transliterators.kana.run(segment)
            case .hangul: latin += transliterators.hangul.run(segment)
            case .other: latin += transliterators.any.run(segment)
            case .han: break
            }
            run = .init()
        }
        for scalar in text.unicodeScalars {
            let script = Script(scalar)
            if script == .han {
                flushRun()
                latin += " " + hanReading(scalar) + " "
                runScript = .han
                continue
            }
            if script != runScript { flushRun(); runScript = script }
            // Hiragana read as katakana: one transliterator for both.
            if script == .kana, (0x3041...0x3096).contains(scalar.value), let katakana = Unicode.Scalar(scalar.value + 0x60) {
                run.append(katakana)
            } else {
                run.append(scalar)
            }
        }
        flushRun()
        let folded = fold(latin)
        return folded.isEmpty ? nil : folded
    }

    private enum Script: Equatable {
        case latin, kana, hangul, han, other

        init(_ scalar: Unicode.Scalar) {
            let v = scalar.value
            switch v {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .kana
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F: self = .hangul
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0xF900...0xFAFF: self = .han
            default:
                self = v >= 0x250 && scalar.properties.isAlphabetic && !Folding.isLatinExtension(v) ? .other : .latin
            }
        }
    }

    private static let hanReadings = Locked<[UInt32: String]>([:])

    /// The pinyin of one han character, from ICU's Han-Latin, cached.
    private static func hanReading(_ scalar: Unicode.Scalar) -> String {
        if let cached = hanReadings.withLock({ $0[scalar.value] }) { return cached }
        let reading = transliterators.han.run(String(scalar))
        hanReadings.withLock { $0[scalar.value] = reading }
        return reading
    }

    // MARK: - Implementation

    fileprivate static func isLatinExtension(_ value: UInt32) -> Bool {
        (0x1E00...0x1EFF).contains(value) || (0x2C60...0x2C7F).contains(value) || (0xA720...0xA7FF).contains(value)
            || (0xFF21...0xFF5A).contains(value) // full-width Latin
    }

    /// ASCII text (most queries) folds without ICU: what ICU's folding would give, byte by
    /// byte: lower case, apostrophes joined, other punctuation and spaces one space.
    private static func foldASCII(_ text: String) -> String {
        // Never longer than the text: written on the stack, then made a string once (one
        // that fits in the string itself for a word of up to 15 bytes, no allocation).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, text.utf8.count)) { output in
            var count = 0
            var pendingSpace = false
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    if pendingSpace && count > 0 { output[count] = 0x20; count += 1 }
                    pendingSpace = false
                    output[count] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    count += 1
                case UInt8(ascii: "'"), UInt8(ascii: "`"):
                    continue
                default:
                    pendingSpace = true
                }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: output[..<count]), as: UTF8.self)
        }
    }

    /// The symbols and forms beyond letters that `foldByScalar` folds: fullwidth ASCII, ♀, ♂,
    /// ★ and the typographic apostrophes (what corpus names hold besides letters and digits:
    /// "★Sgr6859", "ＸＬ", "Tranch’Air").
    @inlinable public static func isSymbolFoldedByScalar(_ v: UInt32) -> Bool {
        (0xFF01...0xFF5E).contains(v) || v == 0x2640 || v == 0x2642 || v == 0x2605 || v == 0x2018 || v == 0x2019 || v == 0x2BC
    }

    /// Text in scripts whose folding is a matter of each character alone (ASCII, accented
    /// Latin letters, kana, hangul syllables, common han; `isSymbolFoldedByScalar`), folded
    /// without ICU, a character at a time: what ICU's folding gives (a test checks every name
    /// of the corpus), at a fraction of its cost. Nil for any other character (marks, other
    /// symbols, other scripts).
    static func foldByScalar(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { foldByScalar(utf8: $0) }
    }

    /// The same, for a string's UTF-8 (valid, as a string's is), its scalars decoded here
    /// rather than through the string's scalar view (a measurable part of a one-word
    /// completion in kana or accented Latin).
    static func foldByScalar(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // Written on the stack, then made a string once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byScalarCapacity(bytes.count)) { output -> String? in
            foldByScalar(utf8: bytes, into: output).map { String(decoding: UnsafeBufferPointer(rebasing: output[..<$0]), as: UTF8.self) }
        }
    }

    /// Room for the folding by character of `count` bytes of UTF-8: a letter's folding is at
    /// most as long as its UTF-8 but for a few Latin letters (`latinLetterGrowth`), a space
    /// stands for at least one byte.
    public static func byScalarCapacity(_ count: Int) -> Int { max(1, count * latinLetterGrowth) }

    /// The folding by character of `bytes` written into `output` (room for
    /// `byScalarCapacity(bytes.count)`): its length, or nil as above.
    public static func foldByScalar(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var count = 0
        var pendingSpace = false
        @inline(__always) func startWord() {
            if pendingSpace && count > 0 { output[count] = 0x20; count += 1 }
            pendingSpace = false
        }
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            var v: UInt32
            if lead < 0x80 {
                v = UInt32(lead)
                i += 1
            } else if lead < 0xE0 {
                v = UInt32(lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                i += 2
            } else if lead < 0xF0 {
                v = UInt32(lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                i += 3
            } else {
                return nil // beyond the Basic Multilingual Plane: none of the scripts below
            }
            // Fullwidth ASCII ("ＸＬ", "２７" in Japanese and Chinese names) is its ASCII
            // character to NFKC, and then folds as that character does.
            if (0xFF01...0xFF5E).contains(v) { v -= 0xFEE0 }
            switch v {
            case 0x30...0x39, 0x61...0x7A, 0x41...0x5A:
                startWord()
                output[count] = v <= 0x5A && v >= 0x41 ? UInt8(v) | 0x20 : UInt8(v)
                count += 1
            case 0x27, 0x60, 0x2018, 0x2019, 0x2BC:
                continue // apostrophes join
            case 0..<0x80:
                pendingSpace = true
            case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC, 0xAC00...0xD7A3, 0x4E00...0x9FEF:
                startWord()
                // Hiragana read as katakana; all three bytes long in UTF-8.
                let kept = v <= 0x3096 ? v + 0x60 : v
                output[count] = UInt8(0xE0 | kept >> 12)
                output[count + 1] = UInt8(0x80 | (kept >> 6) & 0x3F)
                output[count + 2] = UInt8(0x80 | kept & 0x3F)
                count += 3
            case 0x2640, 0x2642:
                // ♀ and ♂, words of their own ("nidoran♀" → "nidoran f"), as `separateWords` has them.
                pendingSpace = true
                startWord()
                output[count] = v == 0x2640 ? 0x66 : 0x6D
                count += 1
                pendingSpace = true
            case 0x2605:
                pendingSpace = true // ★, a symbol (★Sgr6859): it separates words, as ICU's folding has it
            case 0xC0...0x24F:
                guard let folded = latinLetters[Int(v - 0xC0)] else { return nil }
                startWord()
                for byte in folded {
                    output[count] = byte
                    count += 1
                }
            default:
                return nil
            }
        }
        return count
    }

    /// How many times longer than its UTF-8 (two bytes) a Latin letter's folding may be (a
    /// letter folding longer is left to ICU, see `latinLetters`). A constant, so that sizing
    /// a buffer folds no letter: made from the letters' foldings, it made a process's first
    /// query fold all 400 of them, accented or not (a large share of the one-shot
    /// CLI's work).
    static let latinLetterGrowth = 2

    /// ICU's folding of each Latin-1 and Latin Extended-A/B letter (U+00C0–U+024F) on its own
    /// ("é" → "e", "ß" → "ss", "Ǆ" → "dz"), or nil where it is not a run of word characters
    /// or is longer than `latinLetterGrowth` allows (none is: a text holding one goes to ICU).
    /// Written out (`latinLetterFoldings`) rather than asked of ICU: folding the 400 letters
    /// cost a process's first query with an accented letter a large share of a one-shot
    /// search (`pokesearch Évoli` against `pokesearch evoli`: docs/PERFORMANCE.md).
    /// FoldingTests checks each against ICU.
    static let latinLetters: [[UInt8]?] = latinLetterFoldings.withUTF8Buffer { table in
        table.split(separator: 0x20).map { $0.elementsEqual([0x2D]) ? nil : Array($0) }
    }

    /// The foldings of U+00C0–U+024F in order, sixteen a line, one space apart; "-" for nil.
    private static let latinLetterFoldings: StaticString = """
        a a a a a a ae c e e e e i i i i \
        d n o o o o o - o u u u u y th ss \
        a a a a a a ae c e e e e i i i i \
        d n o o o o o - o u u u u y th y \
        a a a a a a c c c c c c c c d d \
        d d e e e e e e e e e e g g g g \
        g g g g h h ħ ħ i i i i i i i i \
        i i ij ij j j k k ĸ l l l l l l - \
        - l l n n n n n n n ŋ ŋ o o o o \
        o o oe oe r r r r r r s s s s s s \
        s s t t t t ŧ ŧ u u u u u u u u \
        u u u u w w y y y z z z z z z s \
        ƀ ɓ ƃ ƃ ƅ ƅ ɔ ƈ ƈ ɖ ɗ ƌ ƌ ƍ ǝ ə \
        ɛ ƒ ƒ ɠ ɣ ƕ ɩ ɨ ƙ ƙ ƚ ƛ ɯ ɲ ƞ ɵ \
        o o ƣ ƣ ƥ ƥ ʀ ƨ ƨ ʃ ƪ ƫ ƭ ƭ ʈ u \
        u ʊ ʋ ƴ ƴ ƶ ƶ ʒ ƹ ƹ ƺ ƻ ƽ ƽ ƾ ƿ \
        ǀ ǁ ǂ ǃ dz dz dz lj lj lj nj nj nj a a i \
        i o o u u u u u u u u u u ǝ a a \
        a a ae ae ǥ ǥ g g k k o o o o ʒ ʒ \
        j dz dz dz g g ƕ ƿ n n a a ae ae o o \
        a a a a e e e e i i i i o o o o \
        r r r r u u u u s s t t ȝ ȝ h h \
        ƞ ȡ ȣ ȣ ȥ ȥ a a e e o o o o o o \
        o o y y ȴ ȵ ȶ ȷ ȸ ȹ ⱥ ȼ ȼ ƚ ⱦ ȿ \
        ɀ ɂ ɂ ƀ ʉ ʌ ɇ ɇ ɉ ɉ ɋ ɋ ɍ ɍ ɏ ɏ
        """

    /// Apostrophes join the letters around them ("farfetch'd" → "farfetchd").
    static let apostrophes: Set<UInt32> = [0x27, 0x60, 0xB4, 0x2BC, 0x2018, 0x2019]

    static func icuFold(_ text: String) -> String {
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

    static func separateWords(_ folded: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        func append(_ scalar: Unicode.Scalar) {
            if pendingSpace && !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        for scalar in folded.unicodeScalars {
            switch scalar.value {
            case _ where apostrophes.contains(scalar.value): continue // apostrophes join: farfetch'd → farfetchd
            case 0x2640: pendingSpace = true; append("f"); pendingSpace = true // ♀
            case 0x2642: pendingSpace = true; append("m"); pendingSpace = true // ♂
            default:
                if isWordScalar(scalar) { append(scalar) } else { pendingSpace = true }
            }
        }
        return String(result)
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
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

    private static let transliterators = (
        any: TransliteratorPool(id: "Any-Latin"), kana: TransliteratorPool(id: "Katakana-Latin"),
        hangul: TransliteratorPool(id: "Hangul-Latin"), han: TransliteratorPool(id: "Han-Latin")
    )

    fileprivate static func runTransliterator(_ handle: OpaquePointer, _ text: String) -> String {
        callICU(text) { input, length, output, capacity, status in
            pokesearch_icu_transliterate(handle, input, length, output, capacity, status)
        }
    }
}

/// ICU transliterators are not thread-safe and costly to open: the pool opens one, then
/// hands each concurrent caller its own clone, kept for reuse.
final class TransliteratorPool: Sendable {
    private let id: String
    private let idle = Locked<[UInt]>([]) // OpaquePointer bit patterns, so the state is Sendable

    init(id: String) { self.id = id }

    /// Transliterates `text`, unfolded.
    func run(_ text: String) -> String {
        withTransliterator { Folding.runTransliterator($0, text) }
    }

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
