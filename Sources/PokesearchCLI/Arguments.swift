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

/// When output is coloured: `--color=auto|always|never`.
enum ColorChoice: String {
    case auto, always, never
}

/// One command-line option: its long name, its short form, whether it takes a value.
struct OptionSpec {
    enum Value { case none, required, optional }

    let name: String
    let short: Character?
    let value: Value

    /// Every option any command takes (`help` lists each of them; a test checks it).
    static let all: [OptionSpec] = [
        OptionSpec(name: "--limit", short: "n", value: .required),
        OptionSpec(name: "--offset", short: nil, value: .required),
        OptionSpec(name: "--kind", short: "k", value: .required),
        OptionSpec(name: "--lang", short: "l", value: .required),
        OptionSpec(name: "--sort", short: "s", value: .required),
        OptionSpec(name: "--desc", short: nil, value: .none),
        OptionSpec(name: "--json", short: "j", value: .none),
        OptionSpec(name: "--explain", short: nil, value: .none),
        OptionSpec(name: "--db", short: nil, value: .required),
        OptionSpec(name: "--color", short: nil, value: .optional),
        OptionSpec(name: "--no-server", short: nil, value: .none),
        OptionSpec(name: "--socket", short: nil, value: .required),
        OptionSpec(name: "--slugs", short: nil, value: .none),
        OptionSpec(name: "--no-sprite", short: nil, value: .none),
        OptionSpec(name: "--show", short: nil, value: .none),
        OptionSpec(name: "--clear", short: nil, value: .none),
        OptionSpec(name: "--force", short: nil, value: .none),
        OptionSpec(name: "--quiet", short: nil, value: .none),
        OptionSpec(name: "--csv", short: nil, value: .required),
        OptionSpec(name: "--api", short: nil, value: .optional),
        OptionSpec(name: "--idle-timeout", short: nil, value: .required),
        OptionSpec(name: "--request-timeout", short: nil, value: .required),
        OptionSpec(name: "--max-connections", short: nil, value: .required),
        OptionSpec(name: "--interactive", short: "i", value: .none),
        OptionSpec(name: "--help", short: "h", value: .none),
        OptionSpec(name: "--version", short: "V", value: .none),
    ]

    static let byName: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    static let byShort: [Character: OptionSpec] = Dictionary(uniqueKeysWithValues: all.compactMap { o in o.short.map { ($0, o) } })
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
    var color = ColorChoice.auto
    /// Flags only some commands take (`--clear`, `--force`, `--quiet`, `--no-server` …).
    var flags: Set<String> = []
    /// Values of options only some commands take (`--csv DIR`, `--socket PATH` …); an
    /// optional value left out (`ingest --api`) is "".
    var values: [String: String] = [:]
    /// Every option given, by its long name, in order: a command refuses those it does not take.
    var given: [String] = []

    static func parse(_ words: [String]) throws -> Arguments {
        var a = Arguments()
        var i = 0
        var onlyPositional = false
        while i < words.count {
            let word = words[i]
            i += 1
            if onlyPositional || !word.hasPrefix("-") || word == "-" || word.contains(where: \.isWhitespace) {
                // A word with a space in it is a quoted query ("pikachu -type:electric").
                a.positional.append(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            let spec: OptionSpec
            var inline: String? = nil
            if word.hasPrefix("--") {
                let name = word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
                if name.count < word.count { inline = String(word.dropFirst(name.count + 1)) }
                guard let known = OptionSpec.byName[name] else {
                    throw CLIError.usage("unknown option \(name); see `pokesearch --help`" + negationHint(word, a.positional))
                }
                spec = known
            } else {
                // `-n5`, `-n 5`, `-j`, `-jV`, `-jn 5`: short flags, the last maybe with a value.
                var letters = word.dropFirst()
                while letters.count > 1, let flag = OptionSpec.byShort[letters.first!], flag.value == .none {
                    try a.apply(flag, value: nil)
                    letters = letters.dropFirst()
                }
                guard let known = OptionSpec.byShort[letters.first!], known.value != .none || letters.count == 1 else {
                    throw CLIError.usage("\(word) is not an option" + negationHint(word, a.positional))
                }
                spec = known
                if letters.count > 1 { inline = String(letters.dropFirst()) }
            }
            var value: String? = nil
            switch spec.value {
            case .none:
                guard inline == nil else { throw CLIError.usage("\(spec.name) takes no value; see `pokesearch --help`") }
            case .required:
                if let inline {
                    value = inline
                } else {
                    guard i < words.count else { throw CLIError.usage("\(spec.name) needs a value; see `pokesearch --help`") }
                    value = words[i]
                    i += 1
                }
            case .optional:
                if let inline {
                    value = inline
                } else if i < words.count, !words[i].hasPrefix("-"), spec.name != "--color" || ColorChoice(rawValue: words[i]) != nil {
                    value = words[i]
                    i += 1
                } else {
                    value = ""
                }
            }
            try a.apply(spec, value: value)
        }
        return a
    }

    /// How to search for a word that starts with `-` (a negated term): the usage error's advice.
    static func negationHint(_ word: String, _ before: [String]) -> String {
        let query = (before + [word]).joined(separator: " ")
        return "; to negate a term, quote the query (`pokesearch \"\(query)\"`) or put it after `--` (`pokesearch -- \(query)`)"
    }

    private mutating func apply(_ spec: OptionSpec, value: String?) throws {
        if !given.contains(spec.name) { given.append(spec.name) }
        let text = value ?? ""
        func number(range: ClosedRange<Int>) throws -> Int {
            guard let n = Int(text), range.contains(n) else {
                throw CLIError.usage("\(spec.name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return n
        }
        switch spec.name {
        case "--db": database = text
        case "--lang": language = text
        case "--limit": limit = try number(range: 0...SearchOptions.maxLimit)
        case "--offset": offset = try number(range: 0...SearchOptions.maxOffset)
        case "--kind":
            guard let kind = Kind(rawValue: text.lowercased()) else {
                throw CLIError.usage("--kind takes pokemon, form, move, ability, item or type, not '\(text)'")
            }
            kinds.append(kind)
        case "--sort":
            guard let field = SortField(parsing: text) else {
                throw CLIError.usage("--sort takes one of \(SortField.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
            }
            sort = field
        case "--color":
            guard let choice = text.isEmpty ? .always : ColorChoice(rawValue: text.lowercased()) else {
                throw CLIError.usage("--color takes auto, always or never, not '\(text)'")
            }
            color = choice
        case "--desc": descending = true
        case "--json": json = true
        case "--explain": explain = true
        case "--help": help = true
        case "--version": version = true
        default:
            if let value { values[spec.name] = value } else { flags.insert(spec.name) }
        }
    }

    /// Refuses options `command` does not take (they would be ignored without a word), and
    /// `--desc` without `--sort`.
    func check(command: String, takes accepted: Set<String>) throws {
        let always: Set<String> = ["--db", "--color", "--help", "--version"]
        if let ignored = given.first(where: { !accepted.contains($0) && !always.contains($0) }) {
            let takes = accepted.subtracting(always).sorted()
            throw CLIError.usage("\(command) does not take \(ignored)"
                                 + (takes.isEmpty ? "" : "; it takes \(takes.joined(separator: ", "))") + "; see `pokesearch help \(command)`")
        }
        if descending && !given.contains("--sort") {
            throw CLIError.usage("--desc needs --sort FIELD (relevance has one order); e.g. `--sort attack --desc`")
        }
    }

    /// The display language: --lang, else $POKESEARCH_LANG, else en. A locale name
    /// (`fr_FR.UTF-8`, `pt_BR`) is read as its language.
    func languageIndex(environment: [String: String]) throws -> Int {
        let (code, source) = language.map { ($0, "--lang") }
            ?? environment["POKESEARCH_LANG"].flatMap { $0.isEmpty ? nil : ($0, "POKESEARCH_LANG") } ?? ("en", "")
        guard let index = Self.language(code) else {
            throw CLIError.usage("\(source) is '\(code)', not a language pokesearch knows; use one of \(Language.codes.joined(separator: ", "))")
        }
        return index
    }

    /// A language code, or a locale name's language: `fr_FR.UTF-8` → fr, `pt_BR` → pt-br,
    /// `zh_TW` → zh-hant, `es_MX` → es-419.
    static func language(_ text: String) -> Int? {
        if let index = Language.index(of: text) { return index }
        let locale = text.split(separator: ".", maxSplits: 1).first.map(String.init) ?? text
        let parts = locale.split(separator: "@").first.map { $0.lowercased().replacingOccurrences(of: "_", with: "-") } ?? ""
        let regional = ["zh-tw": "zh-hant", "zh-hk": "zh-hant", "zh-mo": "zh-hant", "zh-cn": "zh-hans", "zh-sg": "zh-hans"]
        if let code = regional[parts], let index = Language.index(of: code) { return index }
        if let index = Language.index(of: parts) { return index }
        let language = parts.split(separator: "-").first.map(String.init) ?? parts
        if language == "es", parts != "es-es", parts.contains("-") { return Language.index(of: "es-419") }
        return Language.index(of: language)
    }
}
