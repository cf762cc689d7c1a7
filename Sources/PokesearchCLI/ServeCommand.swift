import Catalog
import Index
import Server

/// `pokesearch serve [--socket PATH]`: the line-protocol server (docs/PROTOCOL.md).
enum ServeCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard arguments.positional.isEmpty else {
            throw CLIError.usage("serve takes no words, only --socket PATH, --idle-timeout SECONDS and --max-connections N")
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
        let start = monotonicSeconds()
        let catalog: Catalog
        do {
            catalog = try context.catalog()
        } catch {
            server.abandon()
            throw error
        }
        let milliseconds = (monotonicSeconds() - start) * 1000
        Output.error("serving \(catalog.index.docCount) entities from \(context.databasePath) on \(server.socketPath)")
        server.serve(engine: catalog.engine, loadMilliseconds: milliseconds)
        Output.error("stopped")
        return 0
    }
}
