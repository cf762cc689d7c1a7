import Catalog
import CLibFuzzer
import Corpus
import Foundation
import Index
import Query

/// The bytes libFuzzer hands a target, read front to back: option bytes first, then text.
/// Reading past the end gives zeros, so every input means something.
public struct FuzzBytes {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// What is left, as raw bytes.
    public mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[min(position, bytes.count)...])
    }

    /// What is left, split at NUL bytes: one record per part.
    public mutating func records() -> [[UInt8]] {
        rest().split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    }
}

/// The bundled corpus, read once per fuzzing process.
public let bundledTables: CorpusTables = {
    guard let directory = Paths.bundledCorpus(), let tables = try? TSV.readCorpus(from: directory) else {
        fatalError("fuzz targets need the bundled corpus: set POKESEARCH_CORPUS to the repository's corpus/")
    }
    return tables
}()

/// The search engine over the full bundled corpus, built the way ingest builds it.
public let bundledEngine: SearchEngine = {
    guard let corpus = try? Corpus(tables: bundledTables) else { fatalError("the bundled corpus does not read") }
    return SearchEngine(index: buildIndex(corpus))
}()

/// The index of a corpus, from the same documents ingest stores.
public func buildIndex(_ corpus: Corpus) -> IndexSnapshot {
    IndexBuilder.build(Documents(corpus: corpus).indexInput(corpus))
}

/// Runs libFuzzer on `target` with the process's arguments: what each fuzz target's
/// `<module>_main` does.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                         _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, target)
}
