import Catalog
import Index
import Server

/// `pokesearch serve [--socket PATH]`: the line-protocol server (docs/PROTOCOL.md).
enum ServeCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard arguments.positional.isEmpty else {
            throw CLIError.usage("serve takes no words, only --socket PATH, --idle-timeout SECONDS, --request-timeout SECONDS and --max-connections N")
        }
        var configuration = ServerConfiguration(
            socketPath: SocketPath.resolve(override: arguments.values["--socket"], environment: context.environment),
            databasePath: context.databasePath)
        if let text = arguments.values["--idle-timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw CLIError.usage("--idle-timeout takes seconds from 0 to 86400 (exclusive of 0), not '\(text)'")
            }
            configuration.idleTimeout = seconds
        }
        if let text = arguments.values["--request-timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw CLIError.usage("--request-timeout takes seconds from 0 to 86400 (exclusive of 0), not '\(text)'")
            }
            configuration.requestTimeout = seconds
        }
        if let text = arguments.values["--max-connections"] {
            guard let count = Int(text), (1...100_000).contains(count) else {
                throw CLIError.usage("--max-connections takes a whole number from 1 to 100000, not '\(text)'")
            }
            configuration.maxConnections = count
        }
        let server: LineServer
        do {
            server = try LineServer(configuration: configuration, environment: context.environment) { Output.error($0) }
        } catch {
            throw CLIError.data(error.description)
        }
        let loaded: LoadedIndex
        do {
            loaded = try load(context)
        } catch {
            server.abandon()
            throw error
        }
        Output.error("serving \(loaded.entityCount) entities from \(context.databasePath) on \(server.socketPath)")
        server.serve(consume loaded)
        Output.error("stopped")
        return 0
    }

    /// The index to serve, from a catalog opened for this alone (not the context's, which
    /// lives as long as the command): once a RELOAD swaps in another index, nothing holds
    /// this one any more and its memory is freed.
    static func load(_ context: CommandContext) throws -> LoadedIndex {
        let start = monotonicSeconds()
        let catalog = try Catalog.open(path: context.databasePath, beforeLoadingIndex: IndexMemory.prepare(forIndexBytes:)) {
            Output.error($0)
        }
        return try LoadedIndex.load(catalog, loadMilliseconds: (monotonicSeconds() - start) * 1000)
    }
}
