import Corpus
import Folding
import Index

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
    static let kindPrefixes: [String: Kind] = ["pokemon": .pokemon, "form": .form, "move": .move, "item": .item]

    /// Parses a query. `lenient` (for completion while typing) closes an open quote
    /// instead of failing.
    public static func parse(_ query: String, lenient: Bool = false) throws -> ParsedQuery {
        var parsed = try parseWords(query) ?? parseGeneral(query, lenient: lenient)
        dropNumberSigns(&parsed)
        return parsed
    }

    /// Words that only say a number follows, as the games and Pokédex sites print a dex
    /// number ("No. 25", "Nº 25", German "Nr. 25"), folded; and "N° 25", whose degree sign
    /// folding drops, as typed. Before a number, the number alone is meant (no name has
    /// such a word before a number).
    static let numberSigns: Set<String> = ["no", "nr"]
    static let numberSignsAsTyped: Set<String> = ["N°", "n°"]

    /// A number sign run together with the number, as one word ("No.25", "Nr.150", "N°133",
    /// "Nº25"), read from its UTF-8: the number, where its digits start (in scalars) and as
    /// written. Nil for anything else, as soon as its first byte is no "n" (the word-at-a-time
    /// paths ask for each word with punctuation, in place: no string or array is made).
    static func numberAfterSign(_ bytes: some Collection<UInt8>) -> (number: Int, digitsAt: Int, written: String)? {
        guard let first = bytes.first, lowercasedASCII(first) == UInt8(ascii: "n") else { return nil }
        let count = bytes.count
        guard count > 3, count < 24 else { return nil }
        let second = bytes.index(after: bytes.startIndex), third = bytes.index(after: second)
        let digitsAt: Int
        switch (lowercasedASCII(bytes[second]), bytes[third]) {
        case (UInt8(ascii: "o"), UInt8(ascii: ".")), (UInt8(ascii: "r"), UInt8(ascii: ".")): digitsAt = 3
        case (0xC2, 0xB0), (0xC2, 0xBA): digitsAt = 2 // "°", "º": two bytes, one scalar
        default: return nil
        }
        let digits = bytes[bytes.index(after: third)...]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let written = String(decoding: digits, as: UTF8.self)
        return Int(written).map { ($0, digitsAt, Self.written(written, $0)) }
    }

    /// Drops each number sign (`numberSigns`, `numberSignsAsTyped`) right before a number.
    static func dropNumberSigns(_ parsed: inout ParsedQuery) {
        var i = 0
        while i + 1 < parsed.clauses.count {
            if case .term(let term) = parsed.clauses[i].clause, !parsed.clauses[i].negated, term.shape == .word,
               case .id = parsed.clauses[i + 1].clause, !parsed.clauses[i + 1].negated,
               numberSigns.contains(term.text) || numberSignsAsTyped.contains(term.raw) {
                parsed.clauses.remove(at: i)
            } else {
                i += 1
            }
        }
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
                    result.clauses.append(QueryClause(.id(number, position: startScalar, written: Self.written(raw, number))))
                } else if lettersAndDigits {
                    // ASCII letters and digits fold by lowering the capitals (without any, the
                    // word is its own folding: one string, not two).
                    let folded = !capitals ? raw : String(unsafeUninitializedCapacity: end - start) { buffer in
                        for i in start..<end { buffer[i - start] = lowercasedASCII(bytes[i]) }
                        return end - start
                    }
                    result.clauses.append(QueryClause(.term(Term(text: folded, raw: raw, shape: .word, language: nil, position: startScalar))))
                } else if let id = numberAfterSign(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    result.clauses.append(QueryClause(.id(id.number, position: startScalar + id.digitsAt, written: id.written)))
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

    static func clause(_ text: String, quoted: Bool, position: Int, query: inout ParsedQuery) throws -> Clause? {
        if quoted { return try term(text, raw: text, position: position) }
        // The syntax characters are ASCII: found among the bytes, not the characters (grapheme
        // breaking cost a filter query much of its time).
        let bytes = text.utf8
        // Bare number: id lookup.
        if let id = idNumber(text) { return .id(id.number, position: position + id.digitsAt, written: id.written) }
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
                // A kind followed by a number is that kind's id ("pokemon:1", "move:85", "pokemon:#25").
                if let id = idNumber(value) {
                    return .id(id.number, position: position + name.count + 1 + id.digitsAt, written: id.written)
                }
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
                    throw QueryError("unknown kind '\(value)' (known: pokemon, form, move, ability, item, type)", position: position, part: text)
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

    /// A text that is a number, an id: its digits alone ("25", "0025"), or after `#` as
    /// Pokédexes print one ("#25", the same as "25"). With where its digits start in the text
    /// and the digits as written (`written`).
    static func idNumber(_ text: String) -> (number: Int, digitsAt: Int, written: String)? {
        let bytes = text.utf8
        if let number = Int(text), bytes.allSatisfy({ $0 < 0x80 }) { return (number, 0, written(text, number)) }
        if let signed = numberAfterSign(bytes) { return signed }
        guard bytes.count > 1, bytes.first == UInt8(ascii: "#"),
              bytes.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let digits = String(text.dropFirst())
        return Int(digits).map { ($0, 1, written(digits, $0)) }
    }

    /// A number's digits as typed where they differ from the number's own ("01"), else empty
    /// (`Clause.id`).
    static func written(_ text: String, _ number: Int) -> String { text == String(number) ? "" : text }

    static func term(_ text: String, raw: String, position: Int) throws -> Clause? {
        try termValue(text, raw: raw, position: position).map(Clause.term)
    }

    /// A term from raw text: folded; a wildcard if it has `*` or `?` inside; a phrase if it
    /// folds to several words. Nil when nothing searchable is left (a lone "-" or "!").
    static func termValue(_ text: String, raw: String, position: Int) throws -> Term? {
        let isWildcard = { (byte: UInt8) in byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") }
        // A question mark ending a term that has no other wildcard ends a question, as in
        // names ("Legendary Clue?"): punctuation. (As a wildcard it would only narrow the
        // word's prefix to one scalar more.)
        if text.utf8.count > 1, text.utf8.last == UInt8(ascii: "?"), !text.utf8.dropLast().contains(where: isWildcard) {
            return wordTerm(String(text.dropLast()), raw: raw, position: position)
        }
        if text.utf8.contains(where: isWildcard) {
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

}
