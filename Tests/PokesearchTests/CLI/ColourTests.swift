import Catalog
import Foundation
import Index
import Store
import Testing

@Suite("Colour")
struct ColourTests {
    /// Runs pokesearch on a pseudo-terminal through util-linux's `script`.
    func onTerminal(_ environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = "\(Fixture.binary.path) pikachu --limit 2 --db \(Fixture.database)"
        process.arguments = ["-qec", command, "/dev/null"]
        var env = ["PATH": "/usr/bin:/bin", "TERM": "xterm", "POKESEARCH_NO_HISTORY": "1", "HOME": Fixture.temporaryDirectory("tty")]
            .merging(Fixture.sanitizerEnvironment) { new, _ in new }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed"))
    func colourOnATerminalOnlyAndNeverWithNoColor() throws {
        let coloured = try onTerminal([:])
        #expect(coloured.contains("Pikachu") && coloured.contains("\u{1B}["))
        let plain = try onTerminal(["NO_COLOR": "1"])
        #expect(plain.contains("Pikachu") && !plain.contains("\u{1B}["))
    }
}
