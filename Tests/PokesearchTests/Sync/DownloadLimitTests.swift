import Foundation
import Sync
import Testing

/// Downloads are capped as they arrive, decoded size included: a gzip bomb (a small body
/// that inflates to tens of MB) from the project's test HTTP server is refused with one
/// line naming the URL, and nothing is written.
@Suite struct DownloadLimitTests {
    /// `bytes` of zeros after `prefix`, gzip-compressed (a few tens of KB for 64 MB).
    static func gzipBomb(prefix: [UInt8] = [], bytes: Int) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "{ printf '\(prefix.map { String(format: "\\\\%03o", $0) }.joined())'; head -c \(bytes) /dev/zero; } | gzip -9"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    static func gzipped(_ body: [UInt8]) -> TestHTTPServer.Response {
        TestHTTPServer.Response(status: 200, body: body, contentType: "image/png", headers: [("Content-Encoding", "gzip")], cacheable: false)
    }

    @Test func aGzipBombSpriteIsRefusedAndNothingWritten() throws {
        let sandbox = try SyncTests.Sandbox()
        try sandbox.makePreviousDatabase()
        let bomb = try Self.gzipBomb(prefix: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes: 64 << 20)
        #expect(bomb.count < ResponseLimit.sprite / 16, "a bomb: small sent, large decoded")
        sandbox.server.route("/sprites/25.png") { _ in Self.gzipped(bomb) }
        let run = try sandbox.run(["sprite", "pikachu", "--api", sandbox.api])
        #expect(run.status == 3 && run.stderr.split(separator: "\n").count == 1, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("/sprites/25.png: the response is larger than 4 MB"), "\(run.stderr)")
        let sprites = sandbox.directory.appendingPathComponent("cache/pokesearch/sprites").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: sprites)) ?? []).isEmpty)
    }

    /// A sync's response is capped too: the previous database stays as it was.
    @Test func anOversizedAPIResponseStopsTheSync() throws {
        let sandbox = try SyncTests.Sandbox()
        try sandbox.makePreviousDatabase()
        let before = try sandbox.databaseBytes()
        let bomb = try Self.gzipBomb(bytes: ResponseLimit.apiResource + (1 << 20))
        sandbox.server.route("/api/v2/pokemon/25/") { _ in Self.gzipped(bomb) }
        let run = try sandbox.run(["ingest", "--api", sandbox.api, "--quiet"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("/pokemon/25/: the response is larger than 16 MB"), "\(run.stderr)")
        #expect(try sandbox.databaseBytes() == before)
    }
}
