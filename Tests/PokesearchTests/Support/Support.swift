import Catalog
import Corpus
import Foundation
import Query
import Store
import Locking
import Testing

/// Paths and shared fixtures for the tests.
enum Fixture {
    /// The checkout: Tests/PokesearchTests/Support/Support.swift → ../../../
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let corpusDirectory = root.appendingPathComponent("corpus")
    /// PokeAPI's CSV tables beside the checkout, when this machine has them.
    static let sharedCSV = root.deletingLastPathComponent().appendingPathComponent("shared/pokeapi-csv")
    static var hasSharedCSV: Bool {
        FileManager.default.fileExists(atPath: sharedCSV.appendingPathComponent("pokemon.csv").path)
            && FileManager.default.fileExists(atPath: showdownAliases.path)
    }
    /// Pokémon Showdown's nicknames beside the checkout (the converter's synonyms).
    static let showdownAliases = root.deletingLastPathComponent().appendingPathComponent("shared/showdown/aliases.ts")
    /// The `pokesearch` of the build running these tests (beside the test bundle: the debug
    /// build, or a sanitizer build under its own --build-path), else the debug build.
    static let binary: URL = {
        if let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("pokesearch"),
           FileManager.default.isExecutableFile(atPath: beside.path) {
            return beside
        }
        return root.appendingPathComponent(".build/debug/pokesearch")
    }()

    /// This run's sanitizer settings (scripts/sanitizers.sh): a child started with a clean
    /// environment gets them too, so its reports go where the run's go, with the same
    /// suppressions, instead of into its stderr and exit status.
    static let sanitizerEnvironment = ProcessInfo.processInfo.environment.filter {
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"].contains($0.key)
    }

    static let corpusTables: CorpusTables = try! TSV.readCorpus(from: corpusDirectory)
    static let corpus: Corpus = try! Corpus(tables: corpusTables)
    /// The bundled corpus's search documents, made once for the tests that read them.
    static let documents = Documents(corpus: corpus)

    /// One ingested database for the whole test run (ingest is the slow part of a debug
    /// build), as a user's first command makes it from the bundled corpus: a search with
    /// no database yet, in a directory not made yet (`firstCommand`); tests that write make
    /// their own.
    static var database: String { firstCommand.path }

    /// The run of the built binary that made the shared database, and where: what
    /// IngestCommandTests.firstCommandIngestsTheBundledCorpusByItself checks, so that the
    /// run ingests the whole corpus once.
    static let firstCommand: (path: String, run: Run) = {
        let path = temporaryDirectory("shared-db") + "/data/pokesearch.sqlite"
        let run = try! pokesearch(["pikachu", "--db", path])
        precondition(run.status == 0 && FileManager.default.fileExists(atPath: path),
                     "the first command made no database at \(path): \(run.status) \(run.stderr)")
        return (path, run)
    }()

    /// A small corpus (the sync tests' subset: the first ten evolution chains, Pikachu's
    /// among them, thirty moves and items) as a corpus directory, for `POKESEARCH_CORPUS`:
    /// an ingest of it takes a tenth of the bundled corpus's, for the tests of what an
    /// ingest does at the database path (a journal, a link, a damaged file) rather than
    /// of what it makes of the corpus.
    static let smallCorpus: String = {
        let directory = temporaryDirectory("small-corpus")
        try! TSV.writeCorpus(PokeAPIFixture.shared.subset, to: URL(fileURLWithPath: directory))
        return directory
    }()

    /// The environment of a `pokesearch` run that ingests `smallCorpus`.
    static var smallCorpusEnvironment: [String: String] { ["POKESEARCH_CORPUS": smallCorpus] }

    /// A database of the small corpus, for the tests of a database rebuilt from its own
    /// tables when opened (older documents, an older schema): what it holds does not matter
    /// there, and a rebuild of the bundled corpus's is most of an ingest.
    static let smallDatabase: String = {
        let path = temporaryDirectory("small-db") + "/pokesearch.sqlite"
        _ = try! Ingest.run(tables: PokeAPIFixture.shared.subset, source: "small corpus", databasePath: path)
        return path
    }()

    static let engine: SearchEngine = {
        let store = try! Store(path: database, readOnly: true)
        return SearchEngine(index: try! Catalog.loadIndex(store))
    }()

    /// This test process's scratch directory under /tmp (short: socket paths in it must fit
    /// `sun_path`), removed with everything in it when the process exits, so runs leave
    /// nothing behind.
    static let scratch: String = {
        let path = makeDirectory("/tmp/pokesearch-tests-XXXXXX")
        atexit { try? FileManager.default.removeItem(atPath: Fixture.scratch) }
        return path
    }()

    /// A new directory of its own for one use, in the scratch directory.
    static func temporaryDirectory(_ label: String) -> String { makeDirectory(scratch + "/\(label)-XXXXXX") }

    private static func makeDirectory(_ template: String) -> String {
        var bytes = Array(template.utf8CString)
        return bytes.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// A fresh copy of the shared database (or of `source`), for a test that writes.
    static func copyOfDatabase(_ label: String, from source: String = database) -> String {
        let path = temporaryDirectory(label) + "/pokesearch.sqlite"
        try! FileManager.default.copyItem(atPath: source, toPath: path)
        return path
    }
}

/// What a run of the built binary did.
struct Run {
    var status: Int32
    /// Killed by a signal (a crash) rather than exiting.
    var signalled = false
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs the built `pokesearch` with a clean environment (plus `environment`), through
/// `launcher` when given (a command that runs its last argument with the rest after it, e.g.
/// a shell setting limits or `setpriv` dropping privileges).
func pokesearch(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, launcher: [String] = []) throws -> Run {
    let process = Process()
    if let program = launcher.first {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = launcher.dropFirst() + [Fixture.binary.path] + arguments
    } else {
        process.executableURL = Fixture.binary
        process.arguments = arguments
    }
    var env = ["PATH": "/usr/bin:/bin", "HOME": Fixture.temporaryDirectory("home"), "POKESEARCH_NO_HISTORY": "1",
               "POKESEARCH_SOCKET": "/nonexistent/pokesearch-test.sock"].merging(Fixture.sanitizerEnvironment) { new, _ in new }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    // Output goes to files: nothing to drain while waiting, whatever its size.
    let directory = Fixture.temporaryDirectory("run")
    let outURL = URL(fileURLWithPath: directory + "/stdout"), errURL = URL(fileURLWithPath: directory + "/stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return Run(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal, stdout: try String(contentsOf: outURL, encoding: .utf8),
               stderr: try String(contentsOf: errURL, encoding: .utf8))
}

/// Runs `pokesearch` once for each of `commands`, all at the same time (a thread each): for
/// commands that each wait out a timeout, so that the waits overlap. Their runs in order.
func pokesearchAtOnce(_ commands: [[String]]) throws -> [Run] {
    let runs = Locked([Int: Result<Run, any Error>]())
    let finished = DispatchGroup()
    for (i, arguments) in commands.enumerated() {
        finished.enter()
        Thread {
            let run = Result { try pokesearch(arguments) }
            runs.withLock { $0[i] = run }
            finished.leave()
        }.start()
    }
    finished.wait()
    return try runs.withLock { runs in try commands.indices.map { try runs[$0]!.get() } }
}

/// Runs `body` on a thread of its own and awaits it, for a test that mostly waits (out a
/// timeout, for a lock held elsewhere): the test runner runs tests on as many threads as
/// there are cores, and one blocked waiting would leave its core idle all the while; awaited,
/// the thread goes on with other tests. `body` expects nothing itself (an issue recorded off
/// the test's task is not the test's): it returns what the test then expects of, and the
/// test touches nothing it captured until it returns. What is timed is timed in `body`: the
/// test may wait a while for a runner's thread again once it returns.
func offTheTestThreads<T>(_ body: @escaping () throws -> T) async throws -> T {
    nonisolated(unsafe) let body = body
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
        Thread {
            nonisolated(unsafe) let result = Result { try body() }
            continuation.resume(returning: result)
        }.start()
    }
    return try result.get()
}

/// Runs `process` to its end and returns its status and output. Both pipes are drained at
/// once: a child that fills stderr (64 KiB, e.g. a sanitizer's reports) while stdout is
/// being read would otherwise block forever.
func runDrainingOutput(_ process: Process) throws -> (status: Int32, stdout: String, stderr: String) {
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stderrData = Locked(Data())
    let stderrRead = DispatchSemaphore(value: 0)
    Thread {
        let data = err.fileHandleForReading.readDataToEndOfFile()
        stderrData.withLock { $0 = data }
        stderrRead.signal()
    }.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    stderrRead.wait()
    let stderr = stderrData.withLock { $0 }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
