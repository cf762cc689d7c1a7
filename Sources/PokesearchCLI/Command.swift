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
        let status: Int32
        do {
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
        exit(status)
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

    static func run(_ words: [String], environment: [String: String], output: Output) throws -> Int32 {
        var arguments = try Arguments.parse(words)
        if arguments.version {
            output.line("pokesearch \(version)")
            return 0
        }
        var command = "search"
        if let first = arguments.positional.first, commands.contains(first) || first == "-i" {
            command = first == "-i" ? "interactive" : first
            arguments.positional.removeFirst()
        }
        if arguments.help || command == "help" {
            let topic = command == "help" ? arguments.positional.first : (command == "search" && words.first != "search" ? nil : command)
            output.line(try Help.text(for: topic))
            return 0
        }
        let context = CommandContext(arguments: arguments, environment: environment, output: output)
        switch command {
        case "search": return try SearchCommand.run(context)
        case "complete": return try CompleteCommand.run(context)
        case "ingest": return try IngestCommand.run(context)
        case "show": return try ShowCommand.run(context)
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

    var databasePath: String { Paths.database(override: arguments.database, environment: environment) }

    func catalog() throws -> Catalog {
        if let opened { return opened }
        let catalog = try Catalog.open(path: databasePath, beforeLoadingIndex: IndexMemory.prepare(forIndexBytes:)) {
            Output.error($0)
        }
        opened = catalog
        return catalog
    }

    /// Records a search in the history unless POKESEARCH_NO_HISTORY is set. History is a
    /// convenience: failing to write it never fails the search.
    func recordHistory(_ query: String) {
        guard environment["POKESEARCH_NO_HISTORY"].map({ $0.isEmpty || $0 == "0" }) ?? true else { return }
        // Answered by the server, the catalog was never opened: the path alone will do.
        Catalog.recordHistory(query, databasePath: databasePath, opened: opened?.store)
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
