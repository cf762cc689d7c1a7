import Corpus
import Folding
import Index

/// A query error: what is wrong, where (a character offset into the query), and the part.
public struct QueryError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String
    public let position: Int
    public let part: String

    public init(_ message: String, position: Int, part: String) {
        self.message = message
        self.position = position
        self.part = part
    }

    public var description: String { "\(message) (at character \(position + 1): '\(part)')" }
}

/// Numeric comparison operators of filters such as `hp>100` and `id:1..151`.
public enum Comparison: Sendable, Equatable {
    case equal(Int), less(Int), lessOrEqual(Int), greater(Int), greaterOrEqual(Int), range(Int, Int)

    /// The values it holds for, as one range (empty, low above high, for none): what a
    /// filter's loop over documents compares each value with, two comparisons and no switch.
    public var bounds: (low: Int, high: Int) {
        switch self {
        case .equal(let n): return (n, n)
        case .less(let n): return n == .min ? (1, 0) : (.min, n - 1)
        case .lessOrEqual(let n): return (.min, n)
        case .greater(let n): return n == .max ? (1, 0) : (n + 1, .max)
        case .greaterOrEqual(let n): return (n, .max)
        case .range(let a, let b): return (a, b)
        }
    }
}

/// One searched term, folded.
public struct Term: Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        /// A word: prefix of a name word, substring of a name, compact name, field prefix.
        case word
        /// Several words (quoted, or a token such as "porygon-z" that folds to several).
        case phrase
        /// A pattern with `*` and `?` (each literal piece folded).
        case wildcard([WildcardPiece])
        /// A word already typed out in a completion: it must equal a word of a name.
        case wholeWord
    }
    public var text: String           // folded
    public var raw: String
    public var shape: Shape
    public var language: Int?         // @fr:term
    public var position: Int
}

public enum WildcardPiece: Sendable, Equatable {
    case literal([UInt32])
    case anyOne
    case anyRun
}

public enum Filter: Sendable, Equatable {
    case kind(Kind)
    case type(String)
    case ability(String)              // folded value; resolved against ability names
    case color(String)
    case habitat(String)
    case flag(String)                 // legendary, mythical, baby, default, mega, fav
    case number(NumericColumn, Comparison, label: String)
    case id(Comparison)
    /// Answered by the database (`DatabaseFilters`): full text of the prose, move metadata.
    case database(DatabaseFilter)
}

public enum Clause: Sendable, Equatable {
    case term(Term)
    case id(Int, position: Int)
    case filter(Filter, position: Int, part: String)
    /// `name:value` with an unknown filter name: searched as a phrase ("Typ:Null" is a
    /// German name), an error if that finds nothing.
    case unknownFilter(Term, name: String)
}

extension Clause {
    /// A word term becomes a whole word (a completion's words before the one being typed).
    /// The clause is moved out and back rather than copied: copying a term's clause went
    /// through the enum's outlined copy, retaining its strings, once per earlier word.
    mutating func markWholeWord() {
        var taken = Clause.id(0, position: 0)
        swap(&taken, &self)
        switch consume taken {
        case .term(var term) where term.shape == .word:
            term.shape = .wholeWord
            self = .term(term)
        case let other:
            self = other
        }
    }
}

/// A clause as the query gives it: itself or negated (`-fire`). A struct, not a tuple:
/// arrays of tuples with such payloads are copied and destroyed through the runtime's
/// generic tuple witnesses, a noticeable share of a one-word completion's instructions.
public struct QueryClause: Sendable, Equatable {
    public var clause: Clause
    public var negated: Bool

    public init(_ clause: Clause, negated: Bool = false) {
        self.clause = clause
        self.negated = negated
    }
}

public struct ParsedQuery: Sendable, Equatable {
    public var clauses: [QueryClause]
    public var language: Int?         // lang:fr / @fr:
    public var isEmpty: Bool { clauses.isEmpty }

    /// The term of clause `index`: a term, an unknown filter's text, or an id as a term.
    func term(_ index: Int) -> Term {
        switch clauses[index].clause {
        case .term(let term), .unknownFilter(let term, _): return term
        case .id(let id, let position): return Term(text: String(id), raw: String(id), shape: .word, language: nil, position: position)
        case .filter: preconditionFailure("clause \(index) is a filter, not a term")
        }
    }

    /// Whether clause `index` is a bare number (an id).
    func isID(_ index: Int) -> Bool {
        if case .id = clauses[index].clause { return true }
        return false
    }

    /// Whether two term clauses share a folded text (a term repeated, maybe in another
    /// shape): compared in place, without copying the terms.
    var mayRepeatTerms: Bool {
        for i in clauses.indices {
            guard case .term(let term) = clauses[i].clause else { continue }
            for j in clauses.indices.prefix(i) {
                if case .term(let other) = clauses[j].clause, other.text == term.text { return true }
            }
        }
        return false
    }
}

/// Turns query text into clauses. Whitespace separates terms; double quotes make a phrase
/// (also after a filter name: `ability:"lightning rod"`); `-` negates; `name:value` and
/// `name<op>number` are filters; `@xx:` restricts a term to names in language xx.
public enum QueryParser {
    /// Bounds on what one query may ask for, so no query can make the engine work without end.
    public static let maxLength = 4096
    public static let maxClauses = 32

    public static let numericFilters: [String: NumericColumn] = [
        "hp": .hp, "atk": .attack, "attack": .attack, "def": .defense, "defense": .defense,
        "spa": .specialAttack, "special-attack": .specialAttack, "spd": .specialDefense,
        "special-defense": .specialDefense, "spe": .speed, "speed": .speed, "bst": .total, "total": .total,
        "height": .height, "weight": .weight, "power": .power, "accuracy": .accuracy, "acc": .accuracy, "pp": .pp,
        "cost": .cost, "gen": .generation, "generation": .generation, "dex": .speciesID,
    ]
    static let textFilters: Set<String> = ["kind", "type", "ability", "color", "colour", "habitat", "is", "lang", "id"]
    static let flags: Set<String> = ["legendary", "mythical", "baby", "default", "mega", "fav", "favourite", "favorite"]
    /// Kinds that also work as a bare prefix (`move:pound`); `type:` and `ability:` are filters.
    static let kindPrefixes: [String: Kind] = ["pokemon": .pokemon, "move": .move, "item": .item]

    struct Token {
        var text: String
        var position: Int
        var quoted: Bool          // the whole token was one quoted phrase
    }

    /// Parses a query. `lenient` (for completion while typing) closes an open quote
    /// instead of failing.
    public static func parse(_ query: String, lenient: Bool = false) throws -> ParsedQuery {
        if let simple = parseWords(query) { return simple }
        return try parseGeneral(query, lenient: lenient)
    }

    /// Any query, scalar by scalar.
    static func parseGeneral(_ query: String, lenient: Bool) throws -> ParsedQuery {
        let scalars = Array(query.unicodeScalars)
        guard scalars.count <= maxLength else {
            throw QueryError("query is longer than \(maxLength) characters", position: maxLength, part: String(query.prefix(20)) + "…")
        }
        if let bad = scalars.firstIndex(where: isForbiddenControl) {
            throw QueryError("query contains a control character (U+\(String(scalars[bad].value, radix: 16, uppercase: true)))",
                             position: bad, part: "")
        }
        let tokens = try tokenize(scalars, lenient: lenient)
        var result = ParsedQuery(clauses: [], language: nil)
        for token in tokens {
            var text = token.text
            var negated = false
            var position = token.position
            if !token.quoted && text.utf8.first == UInt8(ascii: "-") && text.utf8.count > 1 {
                negated = true
                text.unicodeScalars.removeFirst()
                position += 1
            }
            if let clause = try clause(text, quoted: token.quoted, position: position, query: &result) {
                result.clauses.append(QueryClause(clause, negated: negated))
            }
            if result.clauses.count > maxClauses {
                throw QueryError("query has more than \(maxClauses) terms", position: position, part: token.text)
            }
        }
        return result
    }

    /// The common query, words between blanks with no query syntax ("pikachu", "fire dragon",
    /// "25", "Mr. Mime", "Pokémon", "ゲノセクト (アクアカセット)"), parsed straight from its
    /// bytes: the same clauses the general path gives, in a fraction of the time. Nil for
    /// anything else (quotes, filters, negation, wildcards, `@`, signs, scripts other than
    /// Latin, kana, hangul and common han, too long), which the general path parses.
    static func parseWords(_ query: String) -> ParsedQuery? {
        var query = query
        return query.withUTF8 { bytes -> ParsedQuery? in
            guard bytes.count <= maxLength else { return nil }
            var result = ParsedQuery(clauses: [], language: nil)
            result.clauses.reserveCapacity(4) // (most queries: a word or a few)
            var start = -1            // byte offset of the word being read
            var startScalar = 0       // its scalar offset (what positions count)
            var scalarIndex = 0
            var digitsOnly = true
            var lettersAndDigits = true
            var capitals = false
            func flush(_ end: Int) -> Bool {
                defer { start = -1; digitsOnly = true; lettersAndDigits = true; capitals = false }
                guard start >= 0 else { return true }
                let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if digitsOnly, let number = Int(raw) {
                    result.clauses.append(QueryClause(.id(number, position: startScalar)))
                } else if lettersAndDigits {
                    // ASCII letters and digits fold by lowering the capitals (without any, the
                    // word is its own folding: one string, not two).
                    let folded = !capitals ? raw : String(unsafeUninitializedCapacity: end - start) { buffer in
                        for i in start..<end { buffer[i - start] = lowercasedASCII(bytes[i]) }
                        return end - start
                    }
                    result.clauses.append(QueryClause(.term(Term(text: folded, raw: raw, shape: .word, language: nil, position: startScalar))))
                } else if let term = wordTerm(raw, raw: raw, position: startScalar) { // (no `*` or `?` here)
                    result.clauses.append(QueryClause(.term(term)))
                }
                return result.clauses.count <= maxClauses
            }
            var i = 0
            while i < bytes.count {
                var length = 1
                switch plainByte(bytes, i, inWord: start >= 0) {
                case .digit:
                    break
                case .capital:
                    digitsOnly = false
                    capitals = true
                case .small:
                    digitsOnly = false
                case .space:
                    guard flush(i) else { return nil }
                    i += 1
                    scalarIndex += 1
                    continue
                case .punctuation:
                    digitsOnly = false
                    lettersAndDigits = false
                case .letter(let scalarLength):
                    length = scalarLength
                    digitsOnly = false
                    lettersAndDigits = false
                case .notPlain:
                    return nil
                }
                if start < 0 { start = i; startScalar = scalarIndex }
                i += length
                scalarIndex += 1
            }
            guard flush(bytes.count) else { return nil }
            return result
        }
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

    static func clause(_ text: String, quoted: Bool, position: Int, query: inout ParsedQuery) throws -> Clause? {
        if quoted { return try term(text, raw: text, position: position) }
        // The syntax characters are ASCII: found among the bytes, not the characters (grapheme
        // breaking cost a filter query much of its time).
        let bytes = text.utf8
        // Bare number: id lookup.
        if let number = Int(text), bytes.allSatisfy({ $0 < 0x80 }) { return .id(number, position: position) }
        // @xx:term
        if bytes.first == UInt8(ascii: "@"), let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let code = String(text[bytes.index(after: text.startIndex)..<colon])
            guard let language = Language.index(of: code) else {
                throw QueryError("unknown language '\(code)' (known: \(Language.codes.joined(separator: ", ")))", position: position, part: text)
            }
            let rest = String(text[bytes.index(after: colon)...])
            if rest.isEmpty { query.language = language; return nil }
            guard var t = try termValue(rest, raw: rest, position: position + code.count + 2) else { return nil }
            t.language = language
            return .term(t)
        }
        // name<op>value with a comparison operator.
        if let opIndex = bytes.firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "=") }),
           opIndex != text.startIndex {
            let name = text[..<opIndex].lowercased()
            if let column = numericFilters[name] {
                return .filter(.number(column, try comparison(String(text[opIndex...]), part: text, position: position), label: name),
                               position: position, part: text)
            }
            if name == "id" {
                return .filter(.id(try comparison(String(text[opIndex...]), part: text, position: position)), position: position, part: text)
            }
            if name == "priority" {
                return .filter(.database(.priority(try comparison(String(text[opIndex...]), part: text, position: position))),
                               position: position, part: text)
            }
        }
        // name:value
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon != text.startIndex {
            let name = text[..<colon].lowercased()
            let value = String(text[bytes.index(after: colon)...])
            if value.isEmpty {
                // "Type:" as in "Type: Null": not a filter, a word.
                return try term(String(text[..<colon]), raw: text, position: position)
            }
            if let kind = kindPrefixes[name] {
                query.clauses.append(QueryClause(.filter(.kind(kind), position: position, part: text)))
                // A kind followed by a number is that kind's id ("pokemon:1", "move:85").
                if let number = Int(value), value.utf8.allSatisfy({ $0 < 0x80 }) { return .id(number, position: position + name.count + 1) }
                return try term(value, raw: value, position: position + name.count + 1)
            }
            if let column = numericFilters[name] {
                return .filter(.number(column, try comparison(":" + value, part: text, position: position), label: name),
                               position: position, part: text)
            }
            if let filter = try DatabaseFilter(name: String(name), value: value, part: text, position: position) {
                return .filter(.database(filter), position: position, part: text)
            }
            switch name {
            case "id":
                return .filter(.id(try comparison(":" + value, part: text, position: position)), position: position, part: text)
            case "kind":
                guard let kind = Kind(rawValue: value.lowercased()) else {
                    throw QueryError("unknown kind '\(value)' (known: pokemon, move, ability, item, type)", position: position, part: text)
                }
                return .filter(.kind(kind), position: position, part: text)
            case "type": return .filter(.type(Folding.fold(value)), position: position, part: text)
            case "ability": return .filter(.ability(Folding.fold(value)), position: position, part: text)
            case "color", "colour": return .filter(.color(Folding.fold(value)), position: position, part: text)
            case "habitat": return .filter(.habitat(Folding.fold(value)), position: position, part: text)
            case "is":
                let flag = value.lowercased()
                guard flags.contains(flag) else {
                    throw QueryError("unknown flag 'is:\(value)' (known: legendary, mythical, baby, default, mega, fav)", position: position, part: text)
                }
                return .filter(.flag(flag.hasPrefix("fav") ? "fav" : flag), position: position, part: text)
            case "lang":
                guard let language = Language.index(of: value) else {
                    throw QueryError("unknown language '\(value)' (known: \(Language.codes.joined(separator: ", ")))", position: position, part: text)
                }
                query.language = language
                return nil
            default:
                guard let phrase = try termValue(text, raw: text, position: position) else { return nil }
                return .unknownFilter(phrase, name: String(name))
            }
        }
        return try term(text, raw: text, position: position)
    }

    static func comparison(_ text: String, part: String, position: Int) throws -> Comparison {
        var rest = Substring(text)
        func number(_ s: Substring) throws -> Int {
            guard let n = Int(s), !s.isEmpty, s.allSatisfy({ $0.isASCII }) else {
                throw QueryError("'\(s)' is not a whole number", position: position, part: part)
            }
            return n
        }
        if rest.hasPrefix(">=") { rest.removeFirst(2); return .greaterOrEqual(try number(rest)) }
        if rest.hasPrefix("<=") { rest.removeFirst(2); return .lessOrEqual(try number(rest)) }
        if rest.hasPrefix(">") { rest.removeFirst(); return .greater(try number(rest)) }
        if rest.hasPrefix("<") { rest.removeFirst(); return .less(try number(rest)) }
        rest.removeFirst() // ':' or '='
        if let dot = rest.firstIndex(of: "."), rest[rest.index(after: dot)...].first == "." {
            let low = rest[..<dot]
            let high = rest[rest.index(dot, offsetBy: 2)...]
            let a = low.isEmpty ? Int.min : try number(low)
            let b = high.isEmpty ? Int.max : try number(high)
            guard a <= b else { throw QueryError("empty range \(a)..\(b)", position: position, part: part) }
            return .range(a, b)
        }
        return .equal(try number(rest))
    }

    /// A term from raw text: folded; a wildcard if it has `*` or `?`; a phrase if it folds to
    /// several words. Nil when nothing searchable is left (a lone "-" or "!").
    static func term(_ text: String, raw: String, position: Int) throws -> Clause? {
        try termValue(text, raw: raw, position: position).map(Clause.term)
    }

    static func termValue(_ text: String, raw: String, position: Int) throws -> Term? {
        if text.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }) {
            var pieces: [WildcardPiece] = []
            var literal = ""
            func flushLiteral() {
                let folded = Folding.compact(Folding.fold(literal))
                if !folded.isEmpty { pieces.append(.literal(folded.unicodeScalars.map(\.value))) }
                literal = ""
            }
            for c in text {
                if c == "*" || c == "?" {
                    flushLiteral()
                    if c == "?" { pieces.append(.anyOne) } else if pieces.last != .anyRun { pieces.append(.anyRun) }
                } else {
                    literal.append(c)
                }
            }
            flushLiteral()
            // A term of wildcards alone says nothing ("Unown ?" is a name): like punctuation,
            // it is dropped.
            guard pieces.contains(where: { if case .literal = $0 { return true } else { return false } }) else { return nil }
            return Term(text: Folding.fold(text), raw: raw, shape: .wildcard(pieces), language: nil, position: position)
        }
        return wordTerm(text, raw: raw, position: position)
    }

    /// A term from text without wildcards: folded; a phrase if it folds to several words.
    /// Nil when nothing searchable is left.
    static func wordTerm(_ text: String, raw: String, position: Int) -> Term? {
        let folded = Folding.fold(text)
        guard !folded.isEmpty else { return nil }
        return Term(text: folded, raw: raw, shape: Folding.hasSeveralWords(folded) ? .phrase : .word, language: nil, position: position)
    }
}
