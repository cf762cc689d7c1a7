import Catalog
import Foundation
import Query
import Testing

/// `text:` (the store's FTS5 index over folded prose) and the move filters, over the
/// bundled corpus, in process.
@Suite struct FullTextSearchTests {
    let catalog: Catalog

    init() throws { catalog = try Catalog.open(path: try PokedexHarness.template.get(), notice: { _ in }) }

    func search(_ query: String, limit: Int = 20, language: Int = 0) throws -> [String] {
        var options = SearchOptions()
        options.limit = limit
        options.language = language
        options.database = try catalog.databaseFilters()
        return try catalog.engine.search(query, options: options).results.map { "\($0.kind.rawValue):\($0.slug)" }
    }

    @Test func paralyzingElectricMoves() throws {
        let found = try search("text:paralyze kind:move type:electric", limit: 40)
        for move in ["thunderbolt", "thunder-wave", "nuzzle", "thunder-punch", "zap-cannon"] { #expect(found.contains("move:\(move)"), "\(move)") }
        #expect(found.allSatisfy { $0.hasPrefix("move:") })
        // Ranked by bm25: the move whose effect is paralysing and nothing else first.
        #expect(found.first == "move:thunder-wave")
    }

    @Test func aPhraseAndAWord() throws {
        let found = try search(#"text:"speed by two stages" text:raises"#)
        #expect(found.first == "move:agility")
        #expect(found.contains("move:rock-polish"))
        // The words in that order only.
        #expect(!(try search(#"text:"two stages by speed""#)).contains("move:agility"))
    }

    @Test func wordsMatchAsPrefixes() throws {
        #expect(try search("text:paralyz kind:move").contains("move:thunderbolt"))
    }

    @Test func frenchProseWithFrenchWords() throws {
        let found = try search("text:paralyser kind:move", limit: 50)
        #expect(found.contains("move:thunderbolt") && found.contains("move:body-slam"))
        // Folded: accents need not be typed.
        #expect(try search("text:degats text:paralyser").contains("move:thunderbolt"))
    }

    @Test func japaneseFlavourTextByItsCharacters() throws {
        // Levitate's Japanese flavour text: 「じめんタイプの わざを うけない」-like text has no spaces.
        let found = try search("text:浮", limit: 50)
        #expect(!found.isEmpty)
    }

    @Test func combinesWithNegationAndNames() throws {
        let found = try search("text:paralyze -type:electric kind:move", limit: 100)
        #expect(!found.contains("move:thunderbolt") && found.contains("move:body-slam"))
        #expect(try search("thunder text:paralyze").contains("move:thunderbolt"))
        #expect(try search("text:spiky-eared").contains("form:pichu-spiky-eared"))
    }

    @Test func moveFilters() throws {
        let paralysing = try search("ailment:paralysis type:electric", limit: 50)
        #expect(paralysing.contains("move:thunderbolt") && paralysing.contains("move:nuzzle"))
        #expect(!(try search("ailment:paralysis", limit: 100)).contains("move:ember"))
        let contact = try search("flag:contact priority>0", limit: 50)
        #expect(contact.contains("move:quick-attack") && !contact.contains("move:vacuum-wave") && !contact.contains("move:ember"))
        #expect(try search("target:user kind:move", limit: 200).contains("move:swords-dance"))
        #expect(try search("tm:24", limit: 50).contains("move:thunderbolt"))
        #expect(try search("priority<0", limit: 50).contains("move:trick-room"))
    }

    @Test func badFilterValuesAreErrorsThatNameThem() throws {
        #expect(throws: QueryError.self) { try search("ailment:parlysis") }
        #expect(throws: QueryError.self) { try search("flag:contcat") }
        #expect(throws: QueryError.self) { try search("tm:x") }
        do {
            _ = try search("ailment:parlysis")
        } catch let error as QueryError {
            #expect(error.message.contains("paralysis") && error.part == "ailment:parlysis")
        }
    }

    @Test func withoutTheDatabaseTextIsAnError() throws {
        #expect(throws: QueryError.self) { try catalog.engine.search("text:paralyze") }
    }

    @Test func theServerAnswersTextQueriesBeforeAndAfterReload() throws {
        let server = try RunningServer()
        let client = try TestClient(path: server.socketPath)
        func slugs(_ request: String) throws -> [String] {
            ((try client.requestJSON(request)["results"] as? [[String: Any]]) ?? []).compactMap { $0["slug"] as? String }
        }
        #expect(try slugs("SEARCH text:paralyze kind:move type:electric LIMIT(40)").contains("thunderbolt"))
        _ = try client.requestJSON("RELOAD")
        #expect(try slugs(#"SEARCH text:"speed by two stages" text:raises LIMIT(3)"#).first == "agility")
        #expect(try client.requestJSON("SEARCH ailment:parlysis")["ok"] as? Bool == false)
    }
}
