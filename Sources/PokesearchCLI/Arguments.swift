import Corpus
import Foundation
import Query

/// A command-line failure and its exit status: 1 nothing found, 2 usage, 3 data or storage.
public struct CLIError: Error, CustomStringConvertible {
    public let status: Int32
    public let message: String

    public static func usage(_ message: String) -> CLIError { CLIError(status: 2, message: message) }
    public static func data(_ message: String) -> CLIError { CLIError(status: 3, message: message) }
    public static func notFound(_ message: String) -> CLIError { CLIError(status: 1, message: message) }

    public var description: String { message }
}

/// Options common to the commands, and the words left after them.
struct Arguments {
    var positional: [String] = []
    var database: String?
    var language: String?
    var limit: Int?
    var offset = 0
    var kinds: [Kind] = []
    var sort: SortField = .relevance
    var descending = false
    var json = false
    var explain = false
    var help = false
    var version = false
    /// Flags only some commands take (`--clear`, `--force`, `--quiet`, `--csv DIR` …).
    var flags: Set<String> = []
    var values: [String: String] = [:]

    /// Flags with a value that some commands take.
    static let valueOptions: Set<String> = ["--csv", "--api", "--socket", "--kind-filter", "--out", "--idle-timeout", "--request-timeout", "--max-connections"]
    static let plainFlags: Set<String> = ["--clear", "--force", "--quiet", "--no-server", "--slugs"]
    /// Value options whose value may be left out (`ingest --api` means the default URL):
    /// their value is then "".
    static let optionalValueOptions: Set<String> = ["--api"]

    static func parse(_ words: [String]) throws -> Arguments {
        var a = Arguments()
        var i = 0
        var onlyPositional = false
        func value(_ option: String) throws -> String {
            i += 1
            guard i < words.count else { throw CLIError.usage("\(option) needs a value; see `pokesearch --help`") }
            return words[i]
        }
        func number(_ option: String, _ text: String, range: ClosedRange<Int>) throws -> Int {
            guard let n = Int(text), range.contains(n) else {
                throw CLIError.usage("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return n
        }
        while i < words.count {
            var word = words[i]
            var inline: String? = nil
            if !onlyPositional, word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                inline = String(word[word.index(after: eq)...])
                word = String(word[..<eq])
            }
            func optionValue() throws -> String { if let inline { return inline }; return try value(word) }
            if onlyPositional || !word.hasPrefix("-") || word == "-" || (word.hasPrefix("-") && !word.hasPrefix("--") && word.count > 1 && word != "-h") {
                // "-type:flying" and "-eevee" are negated query terms, not options.
                a.positional.append(words[i])
                i += 1
                continue
            }
            switch word {
            case "--": onlyPositional = true
            case "--db": a.database = try optionValue()
            case "--lang": a.language = try optionValue()
            case "--limit": a.limit = try number(word, try optionValue(), range: 0...SearchOptions.maxLimit)
            case "--offset": a.offset = try number(word, try optionValue(), range: 0...SearchOptions.maxOffset)
            case "--kind":
                let text = try optionValue()
                guard let kind = Kind(rawValue: text.lowercased()) else {
                    throw CLIError.usage("--kind takes pokemon, move, ability, item or type, not '\(text)'")
                }
                a.kinds.append(kind)
            case "--sort":
                let text = try optionValue()
                guard let field = SortField(parsing: text) else {
                    throw CLIError.usage("--sort takes one of \(SortField.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
                }
                a.sort = field
            case "--desc": a.descending = true
            case "--json": a.json = true
            case "--explain": a.explain = true
            case "--help", "-h": a.help = true
            case "--version": a.version = true
            default:
                if optionalValueOptions.contains(word), inline == nil, i + 1 >= words.count || words[i + 1].hasPrefix("-") {
                    a.values[word] = ""
                } else if valueOptions.contains(word) {
                    a.values[word] = try optionValue()
                } else if plainFlags.contains(word) {
                    a.flags.insert(word)
                } else {
                    throw CLIError.usage("unknown option \(word); see `pokesearch --help`")
                }
            }
            i += 1
        }
        return a
    }

    /// The display language: --lang, else $POKESEARCH_LANG, else en.
    func languageIndex(environment: [String: String]) throws -> Int {
        let code = language ?? environment["POKESEARCH_LANG"].flatMap { $0.isEmpty ? nil : $0 } ?? "en"
        guard let index = Language.index(of: code) else {
            throw CLIError.usage("unknown language '\(code)'; use one of \(Language.codes.joined(separator: ", "))")
        }
        return index
    }
}
