import Catalog
import Foundation
import Store
import Testing

/// Readers that open the database read-only (the server's RELOAD, a sync's previous
/// database) after an interrupted write: SQLite lets nobody read past the hot journal, and
/// only a connection that may write the file rolls it back (`Store.openForReading`).
@Suite struct HotJournalReaderTests {
    @Test func openingForReadingRollsTheJournalBack() throws {
        let path = try StorageFaultTests.interruptedWrite("hot-reader")
        let store = try Store.openForReading(path: path)
        #expect(try store.favourites().map(\.slug) == ["mew"])
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(try store.database.rows("PRAGMA integrity_check").first?.first?.textValue == "ok")
    }

    /// A server whose database is left with a hot journal while it runs (a `fav add` killed
    /// mid-write) reloads it, the interrupted write rolled back.
    @Test func reloadAfterAnInterruptedWrite() throws {
        let crashed = try StorageFaultTests.interruptedWrite("hot-reload-state")
        let served = Fixture.copyOfDatabase("hot-reload")
        let server = try RunningServer(database: served)
        let client = try TestClient(path: server.socketPath)
        // The crash's files, written over the served database in place (the same file).
        try Data(contentsOf: URL(fileURLWithPath: crashed)).write(to: URL(fileURLWithPath: served))
        try FileManager.default.copyItem(atPath: crashed + "-journal", toPath: served + "-journal")
        let reloaded = try client.requestJSON("RELOAD")
        #expect(reloaded["ok"] as? Bool == true, "\(reloaded)")
        #expect(!FileManager.default.fileExists(atPath: served + "-journal"))
        #expect(try client.request("SEARCH pikachu LIMIT(1)").contains(#""slug":"pikachu""#))
        #expect(try Store(path: served, readOnly: true).favourites().map(\.slug) == ["mew"])
    }
}
