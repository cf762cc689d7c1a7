import Corpus
import Folding
import Index

extension QueryParser {
    struct Token {
        var text: String
        var position: Int
        var quoted: Bool          // the whole token was one quoted phrase
    }

    /// What `parseWords` reads at byte `i` of a query: an ASCII digit, capital, small letter,
    /// space or other printable character, a common letter of 2–3 bytes (`isCommonLetter`) or
    /// a symbol folded as one (`Folding.isSymbolFoldedByScalar`: "★Sgr6859", "ＸＬ"), or what
    /// only the general parser reads (query syntax, `-` starting a word (`inWord`
    /// false: a negation), controls, other scalars).
    enum PlainByte {
        case digit, capital, small, space, punctuation
        case letter(length: Int)
        case notPlain
    }

    @inline(__always) static func plainByte(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, inWord: Bool) -> PlainByte {
        let byte = bytes[i]
        switch byte {
        case 0x30...0x39:
            return .digit
        case 0x41...0x5A:
            return .capital
        case 0x61...0x7A:
            return .small
        case 0x20, 0x09, 0x0A, 0x0D:
            return .space
        case 0x22, 0x2A, 0x2B, 0x3A, 0x3C...0x3F, 0x40:
            return .notPlain // " * + : < = > ? @: query syntax
        case 0x2D where !inWord:
            return .notPlain // a word starting with '-' is negated
        case 0x23 where !inWord:
            return .notPlain // a word starting with '#' may be a number ("#25")
        case 0x21...0x7E:
            return .punctuation
        case 0xC0...0xDF, 0xE0...0xEF:
            // Two- and three-byte scalars: only letters no property lookup is needed for.
            let length = byte >= 0xE0 ? 3 : 2
            guard i + length <= bytes.count else { return .notPlain }
            var scalar = UInt32(byte & (length == 2 ? 0x1F : 0x0F))
            for k in 1..<length { scalar = scalar << 6 | UInt32(bytes[i + k] & 0x3F) }
            return isCommonLetter(scalar) || Folding.isSymbolFoldedByScalar(scalar) ? .letter(length: length) : .notPlain
        default:
            return .notPlain // controls, four-byte scalars
        }
    }

    /// An ASCII byte with a capital made small (how a word of letters and digits folds).
    @inline(__always) static func lowercasedASCII(_ byte: UInt8) -> UInt8 { byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) }

    /// The folded text of a query that is one word, as `parse` makes it the query's only term
    /// (a `.word`, or a `.phrase` where it folds to several words: "multi-attack"), written
    /// into `output` (room for `Folding.byScalarCapacity` of the query's bytes): its length
    /// and how many words it holds, or nil when the query is anything else: several words, a
    /// number (an id), syntax, a word whose folding needs ICU or is empty. No string is made.
    static func foldedWord(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> (count: Int, words: Int)? {
        guard !bytes.isEmpty, bytes.count <= maxLength else { return nil }
        var digitsOnly = true, lettersAndDigits = true
        // The ASCII bytes read as the parser reads them; the others are left to the folding,
        // which folds no scalar `plainByte` would not take as a letter (and none of four bytes),
        // rather than decoded twice (a tenth of a completion in kana, hangul or han).
        for i in bytes.indices {
            guard bytes[i] < 0x80 else {
                digitsOnly = false
                lettersAndDigits = false
                continue
            }
            switch plainByte(bytes, i, inWord: i > 0) {
            case .digit:
                break
            case .capital, .small:
                digitsOnly = false
            case .punctuation:
                digitsOnly = false
                lettersAndDigits = false
            case .letter, .space, .notPlain:
                return nil
            }
        }
        // (Digits alone are an id, or past Int's range a term: left to the parser.)
        guard !digitsOnly else { return nil }
        if lettersAndDigits {
            // (Letters and digits alone fold to one word: only punctuation separates words.)
            for j in bytes.indices { output[j] = lowercasedASCII(bytes[j]) }
            return (bytes.count, 1)
        }
        // (A number sign run together with a number, "No.25", is a number: the parser's.)
        guard numberAfterSign(bytes) == nil else { return nil }
        guard let count = Folding.foldByScalar(utf8: bytes, into: output), count > 0 else { return nil }
        return (count, 1 + UnsafeBufferPointer(rebasing: output[..<count]).reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) })
    }

    static func tokenize(_ scalars: [Unicode.Scalar], lenient: Bool) throws -> [Token] {
        var tokens: [Token] = []
        var current = String.UnicodeScalarView()
        var start = 0
        var quoteStart: Int? = nil
        var wholeQuoted = false
        func flush(_ at: Int) {
            if !current.isEmpty { tokens.append(Token(text: String(current), position: start, quoted: wholeQuoted)) }
            current = .init()
            wholeQuoted = false
        }
        for (i, c) in scalars.enumerated() {
            if c == "\"" {
                if quoteStart == nil {
                    if current.isEmpty { start = i; wholeQuoted = true } else { wholeQuoted = false }
                    quoteStart = i
                } else {
                    quoteStart = nil
                }
                continue
            }
            if quoteStart == nil && isWhitespace(c) {
                flush(i)
                continue
            }
            if current.isEmpty && quoteStart == nil { start = i }
            current.append(c)
        }
        if let open = quoteStart, !lenient {
            throw QueryError("unbalanced quote: a phrase opened here is never closed", position: open,
                             part: String(String.UnicodeScalarView(scalars[open...].prefix(20))))
        }
        flush(scalars.count)
        return tokens
    }

    // Unicode property lookups cost a table search a scalar; queries are mostly ASCII, whose
    // answers are a comparison away.

    /// A control character other than tab, newline and carriage return.
    @inline(__always) static func isForbiddenControl(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 { return (c.value < 0x20 && c.value != 0x09 && c.value != 0x0A && c.value != 0x0D) || c.value == 0x7F }
        return !isCommonLetter(c.value) && c.properties.generalCategory == .control
    }

    @inline(__always) static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 { return c.value == 0x20 || (0x09...0x0D).contains(c.value) }
        return !isCommonLetter(c.value) && c.properties.isWhitespace
    }

    /// Accented Latin letters, kana, hangul syllables and common han (with the few kana
    /// marks among them): neither whitespace nor controls, no lookup needed. The server reads
    /// request lines of these from their bytes (`RequestParser.isPlain`).
    @inline(__always) public static func isCommonLetter(_ v: UInt32) -> Bool {
        (0xC0...0x24F).contains(v) || (0x3041...0x30FF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0x4E00...0x9FFF).contains(v)
    }

    /// A term from text without wildcards: folded; a phrase if it folds to several words.
    /// Nil when nothing searchable is left.
    static func wordTerm(_ text: String, raw: String, position: Int) -> Term? {
        let folded = Folding.fold(text)
        guard !folded.isEmpty else { return nil }
        return Term(text: folded, raw: raw, shape: Folding.hasSeveralWords(folded) ? .phrase : .word, language: nil, position: position)
    }
}
