import Catalog
import Corpus
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
            while let frame = framer.next(buffer, position: &position) {
                let out = ByteBuffer()
                answer(frame, loaded: loaded, into: out)
                let bytes = out.bytes
                precondition(bytes.last == 10 && bytes.dropLast().allSatisfy { $0 != 10 }, "not exactly one response line")
            }
        }
    }
    return 0
}

/// What `LineServer.execute` does for each frame, minus the connection state (RELOAD and
/// QUIT only change that, so they are answered as the server answers them).
private func answer(_ frame: Frame, loaded: LoadedIndex, into out: ByteBuffer) {
    switch frame {
    case .tooLong: Response.error(ProtocolError(.lineTooLong, "too long"), into: out)
    case .badUTF8: Response.error(ProtocolError(.badUTF8, "bad UTF-8"), into: out)
    case .line(let text):
        do {
            switch try RequestParser.parse(text) {
            case .ping: PingExecutor.run(into: out)
            case .search(let query, let options):
                SearchExecutor.run(query: query, options: options, engine: loaded.engine, into: out)
            case .complete(let prefix, let limit, let language, let kinds):
                CompleteExecutor.run(prefix: prefix, limit: limit, language: language, kinds: kinds, engine: loaded.engine, into: out)
            case .get(let key): GetExecutor.run(key: key, loaded: loaded, into: out)
            case .stats:
                StatsExecutor.run(loaded: loaded, counters: ServerCounters(startedAt: 0), now: 1, databasePath: "fuzz", into: out)
            case .reload: ReloadExecutor.answer(.success(loaded), into: out)
            case .quit: QuitExecutor.run(into: out)
            }
        } catch {
            Response.error(error, into: out)
        }
    }
}

/// The bundled index as the server holds it, with its details for GET, built once.
let bundledLoadedIndex: LoadedIndex = {
    guard let corpus = try? Corpus(tables: bundledTables) else { fatalError("the bundled corpus does not read") }
    return LoadedIndex(engine: bundledEngine, corpus: corpus, loadMilliseconds: 0)
}()

@_cdecl("fuzz_protocol_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    _ = bundledLoadedIndex // built before the first input, so that its time is not an input's
    return runLibFuzzer(argc, argv, fuzzProtocol)
}
