import BenchmarkSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Child processes: the tools the bench runs (cc, swiftc, swift build), the servers it
/// measures, and the one-shot CLI it times.
enum Processes {
    /// Runs a command to its end; its output is returned, a failure throws with it.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch {
            throw BenchmarkError.failed("cannot run \(arguments.joined(separator: " ")): \(error.localizedDescription)")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError.failed("\(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)): \(output.suffix(2000))")
        }
        return output
    }

    /// Starts a long-running command with its output going to `log`.
    static func start(_ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchmarkError.failed("cannot create \(log.path)") }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a server started with `start`: SIGTERM, then SIGKILL after two seconds.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Wall time of one run of `path arguments` (posix_spawn and wait4, the least overhead
    /// around it) and the page faults it took, with stdout and stderr discarded; throws
    /// when it fails.
    static func timedRun(_ path: String, _ arguments: [String], environment: [String: String],
                         expectStatus: Set<Int32> = [0]) throws -> (nanoseconds: Double, pageFaults: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var status: Int32 = 0
        var usage = rusage()
        let start = nowNanoseconds()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchmarkError.failed("cannot start \(path): \(String(cString: strerror(spawned)))") }
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = Double(nowNanoseconds() - start)
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        guard expectStatus.contains(exitStatus) else {
            throw BenchmarkError.failed("\(path) \(arguments.joined(separator: " ")) exited with status \(exitStatus)")
        }
        return (elapsed, usage.ru_minflt + usage.ru_majflt)
    }
}
