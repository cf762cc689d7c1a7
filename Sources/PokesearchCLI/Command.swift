import Catalog
import Corpus
import Foundation
import Query
import Store
#if canImport(Glibc)
import Glibc
#endif

/// The `pokesearch` command: parses the command line, runs one command, and exits with
/// 0 (found), 1 (nothing found), 2 (usage) or 3 (data or storage).
public enum PokesearchCommand {
    public static let version = "0.1.0"

    static let commands = ["search", "complete", "show", "random", "ingest", "serve", "fav", "synonym", "history", "sprite", "interactive", "help"]

    public static func main() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let environment = processEnvironment()
        let output = Output(environment: environment)
        var status: Int32
        do {
            try checkUTF8(environment: environment)
            status = try run(Array(CommandLine.arguments.dropFirst()), environment: environment, output: output)
        } catch let error as CLIError {
            output.flush()
            Output.error(error.message)
            exit(error.status)
        } catch let error as QueryError {
            output.flush()
            Output.error("bad query: \(error)")
            exit(2)
        } catch let error as StoreError {
            output.flush()
            Output.error(error.description)
            exit(3)
        } catch let error as SQLiteError {
            output.flush()
            Output.error("database error: \(error)")
            exit(3)
        } catch {
            output.flush()
            Output.error("\(error)")
            exit(3)
        }
        output.flush()
        if let failure = output.writeFailure {
            Output.error(failure)
            status = 3
        }
        exit(status)
    }

    /// Text that is not UTF-8 would be read with its bad bytes replaced (a query searched
    /// without them, a database path rewritten into another): refused, naming where it is.
    static func checkUTF8(environment: [String: String]) throws {
        for position in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[position], String(validatingCString: raw) == nil else { continue }
            throw CLIError.usage("argument \(position) ('\(showingBytes(raw))') is not valid UTF-8; pokesearch reads only UTF-8 text")
        }
        // The variables that name the database's path, in the order they are read.
        var entry = environ
        while let pointer = entry.pointee {
            entry += 1
            guard String(validatingCString: pointer) == nil else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)).prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
            if ["POKESEARCH_DB", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME", "POKESEARCH_SOCKET", "POKESEARCH_LANG"].contains(name) {
                throw CLIError.usage("$\(name) ('\(showingBytes(pointer))') is not valid UTF-8; set it to a UTF-8 path or unset it")
            }
        }
    }

    /// A C string with its bytes that are not printable ASCII shown as `\xNN`.
    static func showingBytes(_ text: UnsafePointer<CChar>) -> String {
        UnsafeRawBufferPointer(start: text, count: strlen(text)).map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true)
        }.joined()
    }

    /// The environment, read from `environ` (the first of a name's entries, as `getenv`
    /// reads it): ProcessInfo's first use was half a millisecond of a one-shot command.
    static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), environment[String(text[..<equals])] == nil {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return environment
    }

    /// The options each command takes besides --db, --color, --help and --version (a
    /// command not listed takes any).
    static let options: [String: Set<String>] = [
        "search": ["--limit", "--offset", "--kind", "--lang", "--sort", "--desc", "--json", "--explain", "--no-server", "--socket"],
        "complete": ["--limit", "--kind", "--lang", "--json", "--slugs", "--no-server", "--socket"],
        "show": ["--kind", "--lang", "--json", "--no-sprite"],
        "random": ["--kind", "--lang", "--json"],
        "ingest": ["--csv", "--api", "--quiet"],
        "serve": ["--socket", "--idle-timeout", "--request-timeout", "--max-connections"],
        "fav": ["--lang", "--json", "--limit", "--offset"],
        "history": ["--clear", "--json", "--limit", "--offset"],
        "sprite": ["--force", "--api", "--show"],
        "help": [],
    ]

    static func run(_ words: [String], environment: [String: String], output: Output) throws -> Int32 {
        var arguments = try Arguments.parse(words)
        output.choose(arguments.color)
        if arguments.version {
            output.line("pokesearch \(version)")
            return 0
        }
        var command = "search"
        if arguments.flags.contains("--interactive") {
            command = "interactive"
        } else if let first = arguments.positional.first, commands.contains(first) {
            command = first
            arguments.positional.removeFirst()
        }
        if arguments.help || command == "help" {
            let topic = command == "help" ? arguments.positional.first : (command == "search" && words.first != "search" ? nil : command)
            output.line(try Help.text(for: topic))
            return 0
        }
        if let accepted = options[command] { try arguments.check(command: command, takes: accepted) }
        let context = CommandContext(arguments: arguments, environment: environment, output: output)
        switch command {
        case "search": return try SearchCommand.run(context)
        case "complete": return try CompleteCommand.run(context)
        case "ingest": return try IngestCommand.run(context)
        case "show":
            let status = try ShowCommand.run(context)
            // The page first, then the history (which may wait for the database's writer).
            output.flush()
            context.recordHistory("show " + context.arguments.positional.joined(separator: " "))
            return status
        case "random": return try RandomCommand.run(context)
        case "fav": return try FavCommand.run(context)
        case "synonym": return try SynonymCommand.run(context)
        case "history": return try HistoryCommand.run(context)
        case "sprite": return try SpriteCommand.run(context)
        case "serve": return try ServeCommand.run(context)
        case "interactive": return try InteractiveCommand.run(context)
        default:
            throw CLIError.usage("`pokesearch \(command)` is not available in this build yet; see `pokesearch --help`")
        }
    }
}

/// What a command works with: its arguments, the environment, output, and (opened on first
/// use) the catalog.
final class CommandContext {
    let arguments: Arguments
    let environment: [String: String]
    let output: Output
    private var opened: Catalog?

    init(arguments: Arguments, environment: [String: String], output: Output, catalog: Catalog? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.output = output
        opened = catalog
    }

    /// The catalog if a command opened it (answered by a server, it did not).
    var openedCatalog: Catalog? { opened }

    var databasePath: String { Paths.database(override: arguments.database, environment: environment) }

    func catalog() throws -> Catalog {
        if let opened { return opened }
        let catalog = try Catalog.open(path: databasePath, beforeLoadingIndex: IndexMemory.prepare(forIndexBytes:)) {
            Output.error($0)
        }
        opened = catalog
        return catalog
    }

    /// Records a search (or a `show`) in the history unless POKESEARCH_NO_HISTORY is set.
    /// History is a convenience: failing to write it never fails the search.
    func recordHistory(_ query: String) {
        guard environment["POKESEARCH_NO_HISTORY"].map({ $0.isEmpty || $0 == "0" }) ?? true else { return }
        // Answered by the server, the catalog was never opened: the path alone will do.
        Catalog.recordHistory(query, databasePath: databasePath, opened: opened?.store)
    }

    /// Runs `body` holding the database's writer lock; a failed write (a full disk) becomes
    /// the one line that says what to do, not SQLite's.
    func writing<T>(_ catalog: Catalog, _ body: (Store) throws -> T) throws -> T {
        do {
            return try catalog.write(body)
        } catch let error as SQLiteError {
            throw StoreError.from(error, path: databasePath)
        }
    }

    func searchOptions() throws -> SearchOptions {
        var options = SearchOptions()
        options.limit = arguments.limit ?? 20
        options.offset = arguments.offset
        options.language = try arguments.languageIndex(environment: environment)
        options.kinds = Set(arguments.kinds)
        options.sort = arguments.sort
        options.descending = arguments.descending
        options.explain = arguments.explain
        return options
    }
}
