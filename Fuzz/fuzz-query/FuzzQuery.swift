import Corpus
import FuzzSupport
import Query

// Query parser + engine on the full bundled index. Input: a mode byte (search or
// complete), option bytes (limit, offset, language, kinds, sort), then the query text.
// Invalid UTF-8 is repaired, as the server and the CLI only ever pass valid text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzBytes(data, size)
    let mode = input.byte()
    var options = SearchOptions()
    options.limit = Int(input.byte()) * 5
    options.offset = Int(input.byte()) * Int(input.byte())
    options.language = Int(input.byte()) % Language.codes.count
    let kindBits = input.byte()
    options.kinds = Set(Kind.allCases.enumerated().filter { kindBits & (1 << $0.offset) != 0 }.map(\.element))
    let sort = input.byte()
    options.sort = SortField.allCases[Int(sort) % SortField.allCases.count]
    options.descending = sort & 0x80 != 0
    options.explain = mode & 2 != 0
    let text = String(decoding: input.rest(), as: UTF8.self)
    if mode & 1 == 0 {
        if let response = try? bundledEngine.search(text, options: options) {
            precondition(response.results.count <= max(options.limit, 0), "more results than the limit")
            precondition(response.total >= response.results.count, "total below the page")
        }
    } else {
        if let suggestions = try? bundledEngine.complete(text, limit: options.limit, language: options.language, kinds: options.kinds) {
            precondition(suggestions.count <= max(options.limit, 1), "more suggestions than the limit")
        }
    }
    return 0
}

@_cdecl("fuzz_query_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    _ = bundledEngine // built before the first input, so that its time is not an input's
    return runLibFuzzer(argc, argv, fuzzQuery)
}
