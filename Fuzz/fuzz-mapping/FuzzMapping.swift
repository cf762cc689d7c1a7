import Corpus
import Foundation
import FuzzSupport
@testable import Sync

// PokeAPI JSON → corpus tables: records separated by NUL bytes, each a selector byte
// (which resource) and a response body. The bodies are decoded as a sync decodes them;
// what decodes is mapped to corpus tables, which then must read as a corpus or fail
// with an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapping(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzBytes(data, size)
    var api = APIData()
    for record in input.records() where !record.isEmpty {
        let body = Array(record.dropFirst())
        switch record[0] % 10 {
        case 0: if let r = try? APIPokemon.decode(body, url: "fuzz") { api.pokemon.append(r) }
        case 1: if let r = try? APISpecies.decode(body, url: "fuzz") { api.species.append(r) }
        case 2: if let r = try? APIForm.decode(body, url: "fuzz") { api.forms.append(r) }
        case 3: if let r = try? APIMove.decode(body, url: "fuzz") { api.moves.append(r) }
        case 4: if let r = try? APIItem.decode(body, url: "fuzz") { api.items.append(r) }
        case 5: if let r = try? APIAbility.decode(body, url: "fuzz") { api.abilities.append(r) }
        case 6: if let r = try? APIType.decode(body, url: "fuzz") { api.types.append(r) }
        case 7: if let r = try? APIEvolutionChain.decode(body, url: "fuzz") { api.chains.append(r) }
        case 8: if let r = try? APIPage.decode(body, url: "fuzz") { api.vocabulary["color", default: []] += r.results }
        default: if let r = try? APIVocabulary.decode(body, url: "fuzz") { api.vocabularyDetails["item-category", default: []].append(r) }
        }
    }
    let tables = APIMapper.tables(api)
    _ = try? Corpus(tables: tables)
    return 0
}

@_cdecl("fuzz_mapping_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    return runLibFuzzer(argc, argv, fuzzMapping)
}
