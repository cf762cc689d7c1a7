import Catalog
import Foundation
@testable import Store
import Testing

/// The prose index's rowids hold each row's document and size (`ProseRowID`), and a `text:`
/// search scores rows from them as FTS5's bm25() does: the same documents, the same doubles.
@Suite struct ProseQueryTests {
    static let matches = [
        #""paralyze" *"#, #""speed by two stages" *"#, #""raises" *"#, #""critical hit" *"#, #""poison" *"#, #""heals" *"#,
        #""berry" *"#, #""never misses" *"#, #""evolve" *"#, #""paralyser" *"#, #""degats" *"#, #""浮" *"#, #""the" *"#,
        #""a" *"#, #""no such word at all" *"#,
    ]

    /// Each document FTS5 finds, with its best bm25() score.
    static func fts5(_ store: Store, _ match: String) throws -> [Int: Double] {
        var best: [Int: Double] = [:]
        for row in try store.database.rows("SELECT doc, bm25(prose_fts) FROM prose_fts WHERE prose_fts MATCH ?", .text(match)) {
            guard let doc = row[0].intValue, case .real(let score) = row[1] else { continue }
            best[doc] = min(best[doc] ?? .infinity, score)
        }
        return best
    }

    @Test func scoresAreFTS5sBm25() throws {
        let store = try Store(path: try PokedexHarness.template.get(), readOnly: true)
        let query = try store.proseQuery()
        #expect(query.totals != nil)
        var found = 0
        for match in Self.matches {
            let expected = try Self.fts5(store, match)
            #expect(try query.matches(match) == expected, "\(match)")
            found += expected.count
        }
        #expect(found > 1000)
    }

    @Test func rowidsHoldTheDocumentAndSize() throws {
        let store = try Store(path: try PokedexHarness.template.get(), readOnly: true)
        let rows = try store.database.rows("SELECT rowid, doc FROM prose_fts")
        #expect(rows.count > 5000)
        #expect(rows.allSatisfy { row in row[0].intValue.map { ProseRowID(raw: Int64($0)).doc } == row[1].intValue })
        // FTS5's row sizes are the rowids' (its table of them has the same rowids), and the
        // totals written with the index add them up.
        var tokens = 0
        for row in try store.database.rows("SELECT id, sz FROM prose_fts_docsize") {
            guard let rowid = row[0].intValue, case .blob(let size) = row[1] else { continue }
            #expect(FTS5Varint.decode(size) == ProseRowID(raw: Int64(rowid)).tokens, "\(rowid)")
            tokens += ProseRowID(raw: Int64(rowid)).tokens
        }
        #expect(store.meta(Bm25.Totals.metaKey) == "\(rows.count) \(tokens)")
    }

    @Test func anIndexWrittenBeforeIsSearchedThroughFTS5sBm25() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prose-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: try PokedexHarness.template.get(), toPath: path)
        let store = try Store(path: path)
        // Rows with rowids 1, 2, 3 … as written before, and no meta key saying otherwise.
        try store.database.execute("""
            CREATE TEMP TABLE rows AS SELECT text, doc, lang FROM prose_fts ORDER BY rowid;
            DELETE FROM prose_fts;
            INSERT INTO prose_fts (text, doc, lang) SELECT text, doc, lang FROM temp.rows;
            DELETE FROM meta WHERE key IN ('\(ProseRowID.metaKey)', '\(Bm25.Totals.metaKey)');
            """)
        let query = try store.proseQuery()
        #expect(query.totals == nil)
        for match in [#""paralyze" *"#, #""speed by two stages" *"#] {
            let found = try query.matches(match), expected = try Self.fts5(store, match)
            #expect(!found.isEmpty && found == expected, "\(match)")
        }
    }

    @Test func partsThatDoNotFitAreRefused() {
        #expect(ProseRowID(doc: 3, tokens: 1 << 24, ordinal: 0) == nil)
        #expect(ProseRowID(doc: 3, tokens: 10, ordinal: 256) == nil)
        let rowid = ProseRowID(doc: 4_000, tokens: 16_777_215, ordinal: 255)
        #expect(rowid?.doc == 4_000 && rowid?.tokens == 16_777_215)
    }
}

/// SQLite's varint, the first of a blob (FTS5's docsize rows hold one per column; the prose
/// index's first column is its only indexed one).
enum FTS5Varint {
    static func decode(_ bytes: [UInt8]) -> Int {
        var value = 0
        for (n, byte) in bytes.enumerated() {
            if n == 8 { return value << 8 | Int(byte) }
            value = value << 7 | Int(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        return value
    }
}
