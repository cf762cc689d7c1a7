import Catalog
import Corpus
import Foundation
import FuzzSupport
@testable import Server

// The server's line handling without sockets: the bytes arrive in two reads (split where
// the first byte says), the framer cuts lines, the parser reads them and the executors
// answer from the full bundled index. Every frame must give exactly one response line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzBytes(data, size)
    let split = Int(input.byte())
    let bytes = input.rest()
    let cut = bytes.isEmpty ? 0 : split % (bytes.count + 1)
    let loaded = bundledLoadedIndex
    var framer = LineFramer()
    for piece in [bytes[..<cut], bytes[cut...]] {
        Array(piece).withUnsafeBytes { buffer in
            var position = 0
            while let request = framer.next(buffer, position: &position, parseBothWays) {
                let out = ByteBuffer()
                answer(request, loaded: loaded, into: out)
                let bytes = out.bytes
                precondition(bytes.last == 10 && bytes.dropLast().allSatisfy { $0 != 10 }, "not exactly one response line")
            }
        }
    }
    return 0
}

/// The server's reading of a frame, checked against reading its line as text (an ASCII
/// line is read from its bytes, any other as text: the two must agree).
private func parseBothWays(_ frame: RawFrame) -> Result<Request, ProtocolError> {
    let parsed = RequestParser.parse(frame: frame)
    if case .line(let line) = frame, let text = String(validating: line, as: UTF8.self) {
        precondition(parsed == Result { () throws(ProtocolError) in try RequestParser.parse(text) }, "ASCII and text readings differ")
    }
    return parsed
}

/// What `LineServer.execute` does for each frame, minus the connection state (RELOAD and
/// QUIT only change that, so they are answered as the server answers them).
private func answer(_ request: Result<Request, ProtocolError>, loaded: LoadedIndex, into out: ByteBuffer) {
    switch request {
    case .failure(let error): Response.error(error, into: out)
    case .success(.ping): PingExecutor.run(into: out)
    case .success(.search(let query, let options)):
        SearchExecutor.run(query: query, options: options, loaded: loaded, into: out)
    case .success(.complete(let prefix, let limit, let language, let kinds)):
        CompleteExecutor.run(prefix: prefix, limit: limit, language: language, kinds: kinds, engine: loaded.engine, into: out)
    case .success(.get(let key)): GetExecutor.run(key: key, loaded: loaded, into: out)
    case .success(.stats):
        StatsExecutor.run(loaded: loaded, counters: ServerCounters(startedAt: 0), now: 1, databasePath: "fuzz", into: out)
    case .success(.reload): ReloadExecutor.answer(.success(loaded), into: out)
    case .success(.quit): QuitExecutor.run(into: out)
    }
}

/// The bundled index as the server holds it, built once: the bundled corpus ingested into
/// a temporary database (unlinked once open), whose connection GET reads details through.
let bundledLoadedIndex: LoadedIndex = {
    let path = NSTemporaryDirectory() + "pokesearch-fuzz-protocol-\(getpid()).sqlite"
    defer {
        unlink(path)
        unlink(path + ".lock")
    }
    do {
        _ = try Ingest.run(tables: bundledTables, source: "fuzz", databasePath: path)
        return try LoadedIndex.load(try Catalog.open(path: path) { _ in }, loadMilliseconds: 0)
    } catch {
        fatalError("cannot build the fuzzing database: \(error)")
    }
}()

@_cdecl("fuzz_protocol_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    _ = bundledLoadedIndex // built before the first input, so that its time is not an input's
    return runLibFuzzer(argc, argv, fuzzProtocol)
}
