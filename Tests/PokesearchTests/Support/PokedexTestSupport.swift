import Foundation
import Testing

/// Runs the built `pokesearch` binary end to end, each test on its own copy of the tests'
/// shared database (`Fixture.database`).
struct PokedexHarness {
    static let checkout = Fixture.root
    static let binary = Fixture.binary.path

    /// The ingested database every harness copies.
    static let template: Result<String, any Error> = .success(Fixture.database)

    let directory: URL
    var database: String { directory.appendingPathComponent("pokesearch.sqlite").path }

    /// On a copy of the shared database, or of `source` (`Fixture.smallDatabase`).
    init(copying source: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pokedex-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try source ?? Self.template.get(), toPath: database)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        /// Each stdout line parsed as a JSON object.
        func jsonLines() throws -> [[String: Any]] {
            try lines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                return try #require(object as? [String: Any], "not a JSON object: \(line)")
            }
        }
    }

    /// `pokesearch --db <own database> ARGS...`, without colour.
    func run(_ arguments: [String], environment: [String: String] = [:]) -> Run {
        Self.execute(["--db", database] + arguments, environment: environment, directory: directory)
    }

    static func execute(_ arguments: [String], environment: [String: String], directory: URL) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["HOME"] = directory.path
        for key in ["POKESEARCH_DB", "POKESEARCH_LANG", "POKESEARCH_NO_HISTORY", "XDG_DATA_HOME"] { env[key] = nil }
        env.merge(environment) { _, new in new }
        process.environment = env
        // Files, not pipes: a full pipe would block the child before it exits.
        let id = UUID().uuidString
        let out = directory.appendingPathComponent("out-\(id)"), err = directory.appendingPathComponent("err-\(id)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        do {
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
        } catch {
            return Run(status: -1, stdout: "", stderr: "cannot run \(binary): \(error)")
        }
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
