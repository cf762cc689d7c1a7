import Foundation
import Corpus
import Query

/// One request: what the server parses from a line, and what a client (the CLI) encodes
/// into one with `line`. The grammar lives here alone.
public enum Request: Equatable, Sendable {
    case ping
    case search(query: String, options: SearchRequestOptions)
    case complete(prefix: String, limit: Int, language: Int, kinds: Set<Kind>)
    case get(String)
    case stats
    case reload
    case quit
}

/// The options SEARCH takes after its query.
public struct SearchRequestOptions: Equatable, Sendable {
    public var limit: Int
    public var offset: Int
    public var language: Int
    public var kinds: Set<Kind>
    public var sort: SortField
    public var descending: Bool

    public init(limit: Int = 20, offset: Int = 0, language: Int = 0, kinds: Set<Kind> = [], sort: SortField = .relevance,
                descending: Bool = false) {
        self.limit = limit
        self.offset = offset
        self.language = language
        self.kinds = kinds
        self.sort = sort
        self.descending = descending
    }

    var engineOptions: SearchOptions {
        var options = SearchOptions()
        options.limit = limit
        options.offset = offset
        options.language = language
        options.kinds = kinds
        options.sort = sort
        options.descending = descending
        return options
    }
}

/// Turns a request line into a `Request`: a case-insensitive verb, its argument, and
/// options written `NAME(value)` at the end of the line.
enum RequestParser {
    /// The request a line the framer cut asks for, or the error it is answered with. A plain
    /// line (ASCII, or with letters of the common scripts: nearly every request) is read
    /// straight from its bytes; any other line is checked as UTF-8 and read as text, with
    /// Unicode's whitespace and characters.
    static func parse(frame: RawFrame) -> Result<Request, ProtocolError> {
        switch frame {
        case .tooLong:
            return .failure(ProtocolError(.lineTooLong, "request line longer than \(LineFramer.maxLineBytes) bytes; skipped to its end"))
        case .line(let bytes):
            if isPlain(bytes) { return Result { () throws(ProtocolError) in try parse(plain: bytes) } }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(ProtocolError(.badUTF8, "request line is not valid UTF-8"))
            }
            return Result { () throws(ProtocolError) in try parse(text) }
        }
    }

    static func parse(_ line: String) throws(ProtocolError) -> Request {
        let trimmedStart = line.drop(while: \.isWhitespace)
        guard !trimmedStart.allSatisfy(\.isWhitespace) else { throw emptyRequest }
        let verbEnd = trimmedStart.firstIndex(where: \.isWhitespace) ?? trimmedStart.endIndex
        return try request(verb: trimmedStart[..<verbEnd].uppercased(), trimmedStart[verbEnd...].drop(while: \.isWhitespace))
    }

    /// `parse` for a plain line (see `isPlain`: its whitespace is tab, line feed, vertical
    /// tab, form feed, carriage return and space), without decoding the line as text.
    static func parse(plain line: UnsafeRawBufferPointer) throws(ProtocolError) -> Request {
        let words = ASCIIText(line)
        let start = words.firstNonSpace(from: 0)
        guard start < line.count else { throw emptyRequest }
        let verbEnd = words.firstSpace(from: start)
        // An ASCII verb upper-cased by its bytes (String.uppercased() reads Unicode's case
        // tables, and a verb is read per request).
        let verbBytes = UnsafeRawBufferPointer(rebasing: line[start..<verbEnd])
        let verb = verbBytes.allSatisfy({ $0 < 0x80 })
            ? String(unsafeUninitializedCapacity: verbBytes.count) { upper in
                for (i, byte) in verbBytes.enumerated() { upper[i] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
                return verbBytes.count
            }
            : String(decoding: verbBytes, as: UTF8.self).uppercased()
        return try request(verb: verb, ASCIIText(UnsafeRawBufferPointer(rebasing: line[words.firstNonSpace(from: verbEnd)...])))
    }

    static let emptyRequest = ProtocolError(.emptyRequest, "empty request; send a verb: PING, SEARCH, COMPLETE, GET, STATS, RELOAD or QUIT")

    /// Whether a line reads the same from its bytes as from its characters: ASCII, and
    /// well-formed UTF-8 of accented Latin letters, kana, hangul syllables and common han
    /// (kana, hangul and han names are most of the rest). Those are letters: no whitespace
    /// among them, and none joins an ASCII character into one character (as a combining
    /// mark after a space or a parenthesis would; the kana voicing marks U+3099 and U+309A
    /// are such marks, and left out).
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            // Eight ASCII bytes at a time (no high bit set).
            if index + 8 <= bytes.count && bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length = lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xC0 && lead < 0xE0 ? 2 : 0
            guard length > 0, index + length <= bytes.count else { return false }
            var scalar = UInt32(lead & (length == 2 ? 0x1F : 0x0F))
            for k in 1..<length {
                let continuation = bytes[index + k]
                guard continuation & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            // (An overlong or surrogate form decodes outside these ranges.)
            guard QueryParser.isCommonLetter(scalar) && scalar != 0x3099 && scalar != 0x309A else { return false }
            index += length
        }
        return true
    }

    /// The request `verb` (upper-cased) makes with `argument`, the text after it.
    private static func request(verb: String, _ argument: some RequestArgument) throws(ProtocolError) -> Request {
        switch verb {
        case "PING": try noArgument(verb, argument); return .ping
        case "STATS": try noArgument(verb, argument); return .stats
        case "RELOAD": try noArgument(verb, argument); return .reload
        case "QUIT": try noArgument(verb, argument); return .quit
        case "GET":
            let key = argument.withoutTrailingWhitespace
            guard !key.isEmpty else { throw ProtocolError(.badRequest, "GET needs a slug, an id or kind:slug, e.g. GET pikachu") }
            // As SEARCH refuses them: a control character is in no slug, and dropping one
            // would answer for another key than the one asked.
            if let control = key.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw ProtocolError(.badRequest, "GET key contains a control character (U+\(String(control.value, radix: 16, uppercase: true)))")
            }
            return .get(key)
        case "SEARCH":
            let (query, options) = argument.splitOptions()
            var search = SearchRequestOptions()
            for (name, value) in options {
                switch name {
                case "LIMIT": search.limit = try number(name, value, max: SearchOptions.maxLimit)
                case "OFFSET": search.offset = try number(name, value, max: SearchOptions.maxOffset)
                case "LANG": search.language = try language(value)
                case "KIND": search.kinds.formUnion(try kinds(value))
                case "SORT": (search.sort, search.descending) = try sort(value)
                default: throw ProtocolError(.badOption, "SEARCH takes LIMIT(n), OFFSET(n), LANG(xx), KIND(k) and SORT(field), not \(name)(\(value))")
                }
            }
            guard !query.allSatisfy(\.isWhitespace) else {
                throw ProtocolError(.badQuery, "SEARCH needs a query, e.g. SEARCH fire dragon LIMIT(5)")
            }
            return .search(query: query, options: search)
        case "COMPLETE":
            let (prefix, options) = argument.splitOptions()
            var limit = 8, languageIndex = 0
            var kindSet: Set<Kind> = []
            for (name, value) in options {
                switch name {
                case "LIMIT": limit = try number(name, value, max: SearchOptions.maxLimit)
                case "LANG": languageIndex = try language(value)
                case "KIND": kindSet.formUnion(try kinds(value))
                default: throw ProtocolError(.badOption, "COMPLETE takes LIMIT(n), LANG(xx) and KIND(k), not \(name)(\(value))")
                }
            }
            return .complete(prefix: prefix, limit: limit, language: languageIndex, kinds: kindSet)
        default:
            let shown = verb.count > 32 ? String(verb.prefix(32)) + "…" : verb
            throw ProtocolError(.unknownVerb, "unknown verb '\(shown)'; verbs: PING, SEARCH, COMPLETE, GET, STATS, RELOAD, QUIT")
        }
    }

    private static func noArgument(_ verb: String, _ argument: some RequestArgument) throws(ProtocolError) {
        guard argument.isBlank else {
            throw ProtocolError(.badRequest, "\(verb) takes nothing after it")
        }
    }

    /// Splits `NAME(value)` options off the end of an argument. The text before them keeps
    /// its own spacing, except that with options present the spaces before them are
    /// separators (so `COMPLETE pika LIMIT(3)` completes "pika").
    static func splitOptions(_ argument: Substring) -> (text: Substring, options: [(String, String)]) {
        var text = argument
        var options: [(String, String)] = []
        while true {
            let body = text.trimmingTrailingWhitespace()
            guard body.last == ")", let open = body.lastIndex(of: "(") else { break }
            let nameStart = body[..<open].lastIndex(where: \.isWhitespace).map(body.index(after:)) ?? body.startIndex
            let name = body[nameStart..<open]
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && $0.isLetter }),
                  optionNames.contains(name.uppercased()) || isUnknownOptionName(name.utf8) else { break }
            let value = body[body.index(after: open)..<body.index(before: body.endIndex)]
            options.insert((name.uppercased(), String(value)), at: 0)
            text = body[..<nameStart]
        }
        return (options.isEmpty ? text : text.trimmingTrailingWhitespace(), options)
    }

    static let optionNames: Set<String> = ["LIMIT", "OFFSET", "LANG", "KIND", "SORT"]

    /// A name written as options are (`FOO(1)`: two or more upper-case ASCII letters) that no
    /// verb takes: an option all the same, refused as `bad_option` rather than searched. A
    /// lower-case word before parentheses (`porygon(z)`) is query text.
    static func isUnknownOptionName(_ name: some Collection<UInt8>) -> Bool {
        name.count >= 2 && name.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    private static func number(_ name: String, _ value: String, max: Int) throws(ProtocolError) -> Int {
        guard let n = Int(value), (0...max).contains(n) else {
            throw ProtocolError(.badOption, "\(name) takes a whole number from 0 to \(max), not '\(value)'")
        }
        return n
    }

    private static func language(_ value: String) throws(ProtocolError) -> Int {
        guard let index = Language.index(of: value) else {
            throw ProtocolError(.badOption, "LANG takes one of \(Language.codes.joined(separator: ", ")), not '\(value)'")
        }
        return index
    }

    /// `KIND(move)` or `KIND(pokemon,item)`.
    private static func kinds(_ value: String) throws(ProtocolError) -> Set<Kind> {
        var kinds: Set<Kind> = []
        for part in value.split(separator: ",") {
            guard let kind = Kind(rawValue: part.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw ProtocolError(.badOption, "KIND takes pokemon, form, move, ability, item or type, not '\(part)'")
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { throw ProtocolError(.badOption, "KIND needs a kind: pokemon, form, move, ability, item or type") }
        return kinds
    }

    /// `SORT(hp)`, `SORT(hp:desc)` or `SORT(-hp)` (descending).
    private static func sort(_ value: String) throws(ProtocolError) -> (SortField, Bool) {
        var text = Substring(value.trimmingCharacters(in: .whitespaces))
        var descending = false
        if text.hasPrefix("-") { descending = true; text = text.dropFirst() }
        if let colon = text.firstIndex(of: ":") {
            switch text[text.index(after: colon)...].lowercased() {
            case "desc": descending = true
            case "asc": descending = false
            default: throw ProtocolError(.badOption, "SORT takes field, field:asc or field:desc, not '\(value)'")
            }
            text = text[..<colon]
        }
        guard let field = SortField(parsing: String(text)) else {
            throw ProtocolError(.badOption, "SORT takes one of \(SortField.allCases.map(\.rawValue).joined(separator: ", ")), not '\(value)'")
        }
        return (field, descending)
    }
}

extension Substring {
    /// Without the white space (Unicode's, as the query parser reads it) at its end, in
    /// place: no Foundation `CharacterSet`, whose bridging to NSString costs a one-shot
    /// command half a millisecond.
    public func trimmingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return self[startIndex..<end]
    }
}

/// The text after a request's verb, as the verbs read it: from a `Substring` (any line) or
/// from ASCII bytes (`ASCIIText`), with the same results.
protocol RequestArgument {
    /// Nothing but whitespace.
    var isBlank: Bool { get }
    /// Without its trailing whitespace (GET's key).
    var withoutTrailingWhitespace: String { get }
    /// The text before the options, and the options (names upper-cased); see
    /// `RequestParser.splitOptions`.
    func splitOptions() -> (text: String, options: [(String, String)])
}

extension Substring: RequestArgument {
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
    var withoutTrailingWhitespace: String { String(trimmingTrailingWhitespace()) }
    func splitOptions() -> (text: String, options: [(String, String)]) {
        let (text, options) = RequestParser.splitOptions(self)
        return (String(text), options)
    }
}

/// The bytes of a plain request line (see `RequestParser.isPlain`), read the way `Substring`
/// reads them: whitespace is tab, line feed, vertical tab, form feed, carriage return and
/// space (the ASCII characters whose `isWhitespace` is true; a plain line has no other).
struct ASCIIText: RequestArgument {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    func firstNonSpace(from start: Int) -> Int {
        var index = start
        while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
        return index
    }

    func firstSpace(from start: Int) -> Int {
        var index = start
        while index < bytes.count && !Self.isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// The end of `bytes[..<end]` without its trailing whitespace.
    func trimmedEnd(_ end: Int) -> Int {
        var index = end
        while index > 0 && Self.isSpace(bytes[index - 1]) { index -= 1 }
        return index
    }

    func text(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }

    var isBlank: Bool { firstNonSpace(from: 0) == bytes.count }
    var withoutTrailingWhitespace: String { text(0..<trimmedEnd(bytes.count)) }

    /// `RequestParser.splitOptions` on bytes: options are taken off the end while the text
    /// (trailing whitespace aside) ends in `NAME(value)` with a known NAME of ASCII letters.
    func splitOptions() -> (text: String, options: [(String, String)]) {
        var end = bytes.count
        var options: [(String, String)] = []
        while true {
            let bodyEnd = trimmedEnd(end)
            guard bodyEnd > 0, bytes[bodyEnd - 1] == UInt8(ascii: ")"),
                  let open = (0..<bodyEnd).last(where: { bytes[$0] == UInt8(ascii: "(") }) else { break }
            var nameStart = open
            while nameStart > 0 && !Self.isSpace(bytes[nameStart - 1]) { nameStart -= 1 }
            let name = bytes[nameStart..<open]
            guard !name.isEmpty, name.allSatisfy({ (0x61...0x7A).contains($0 | 0x20) }) else { break } // ASCII letters
            let upper = text(nameStart..<open).uppercased()
            guard RequestParser.optionNames.contains(upper) || RequestParser.isUnknownOptionName(name) else { break }
            options.insert((upper, text((open + 1)..<(bodyEnd - 1))), at: 0)
            end = nameStart
        }
        return (text(0..<(options.isEmpty ? end : trimmedEnd(end))), options)
    }
}

extension Request {
    /// The request line (without its line feed) the parser reads back as this request; nil
    /// when the text cannot travel in one: a line break or NUL in it, an end the parser would
    /// read as options (`pikachu limit(2)`), or (COMPLETE) white space at its end, which the
    /// parser reads as a separator. The client then answers by itself.
    public var line: String? {
        func sendable(_ text: String) -> Bool {
            !text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" })
                && RequestParser.splitOptions(Substring(text)).options.isEmpty
        }
        func kindsOption(_ kinds: Set<Kind>) -> String {
            kinds.isEmpty ? "" : " KIND(\(kinds.map(\.rawValue).sorted().joined(separator: ",")))"
        }
        switch self {
        case .ping: return "PING"
        case .stats: return "STATS"
        case .reload: return "RELOAD"
        case .quit: return "QUIT"
        case .get(let key): return sendable(key) ? "GET \(key)" : nil
        case .search(let query, let o):
            guard sendable(query) else { return nil }
            return "SEARCH \(query) LIMIT(\(o.limit)) OFFSET(\(o.offset)) LANG(\(Language.codes[o.language]))"
                + " SORT(\(o.sort.rawValue)\(o.descending ? ":desc" : ""))" + kindsOption(o.kinds)
        case .complete(let prefix, let limit, let language, let kinds):
            guard sendable(prefix), !(prefix.last?.isWhitespace ?? false) else { return nil }
            return "COMPLETE \(prefix) LIMIT(\(limit)) LANG(\(Language.codes[language]))" + kindsOption(kinds)
        }
    }
}
