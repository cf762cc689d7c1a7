import BenchmarkSupport
import Foundation

/// `pokesearch "fire dragon"` as a one-shot process, against the start-up of a trivial
/// Swift executable that links Foundation as pokesearch does (built with swiftc here, with
/// the Swift runtime linked in when this bench has it so).
struct OneShotFigures {
    var search: Samples
    var hello: Samples
    /// Page faults a run (minor and major), the same runs.
    var searchFaults: Samples
    var helloFaults: Samples
    /// Page faults of `pokesearch --version`: its start without the index.
    var versionFaults: Samples
}

enum OneShot {
    static func run(pokesearch: String, database: String, runs: Int, directory: URL) throws -> OneShotFigures {
        let source = directory.appendingPathComponent("hello.swift")
        let hello = directory.appendingPathComponent("hello")
        try "import Foundation\nprint(ProcessInfo.processInfo.arguments.count)\n".write(to: source, atomically: true, encoding: .utf8)
        try Processes.run(["swiftc", "-O"] + (Suite.staticSwiftRuntime ? ["-static-stdlib"] : []) + [source.path, "-o", hello.path],
                          in: directory)

        var environment = ProcessInfo.processInfo.environment
        environment["POKESEARCH_DB"] = database
        // No server: the CLI would ask one on the default socket; this measures it alone.
        environment["POKESEARCH_SOCKET"] = directory.appendingPathComponent("no-server.sock").path
        environment["NO_COLOR"] = "1"
        var searches: [(nanoseconds: Double, pageFaults: Int)] = [], hellos: [(nanoseconds: Double, pageFaults: Int)] = []
        var versions: [Int] = []
        for run in 0..<(runs + 3) {
            // Interleaved, so both see the same machine; three warm-up runs each.
            let search = try Processes.timedRun(pokesearch, ["fire dragon"], environment: environment)
            let start = try Processes.timedRun(hello.path, [], environment: environment)
            let version = try Processes.timedRun(pokesearch, ["--version"], environment: environment)
            if run >= 3 {
                searches.append(search)
                hellos.append(start)
                versions.append(version.pageFaults)
            }
        }
        return OneShotFigures(search: Samples(searches.map(\.nanoseconds)), hello: Samples(hellos.map(\.nanoseconds)),
                              searchFaults: Samples(searches.map { Double($0.pageFaults) }),
                              helloFaults: Samples(hellos.map { Double($0.pageFaults) }),
                              versionFaults: Samples(versions.map(Double.init)))
    }
}
