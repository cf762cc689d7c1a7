import Corpus
import Foundation
import Testing

/// A move's effect prose says its effect chance wherever it is shown (`show`, `show --json`,
/// the server's GET): "Has a 10% chance to paralyze the target." for Thunderbolt.
@Suite struct EffectChanceTests {
    static let thunderbolt = "Has a 10% chance to paralyze the target."

    @Test func showSaysTheChance() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let run = harness.run(["show", "move:thunderbolt"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains { $0.trimmingCharacters(in: .whitespaces) == Self.thunderbolt }, "\(run.stdout)")
        #expect(!run.stdout.contains("Has a chance"))
        let french = harness.run(["show", "move:thunderbolt", "--lang", "fr"])
        #expect(french.stdout.contains("A 10\u{A0}% de chances de paralyser la cible."), "\(french.stdout)")
    }

    @Test func jsonAndGETSayTheChance() throws {
        let harness = try PokedexHarness()
        defer { harness.remove() }
        let object = try #require(try harness.run(["show", "move:thunderbolt", "--json"]).jsonLines().first)
        let prose = try #require(object["prose"] as? [String: String])
        #expect(prose["short"] == Self.thunderbolt)
        #expect(prose["effect"] == "Inflicts regular damage.  " + Self.thunderbolt)

        let server = try RunningServer(database: harness.database)
        let client = try TestClient(path: server.socketPath)
        let answer = try client.requestJSON("GET move:thunderbolt")
        #expect(((answer["entity"] as? [String: Any])?["prose"] as? [String: String])?["short"] == Self.thunderbolt, "\(answer)")
    }

    @Test func eachChanceOfAnEffectIsFilledIn() throws {
        // Fire Fang: a chance to burn and a separate one to make the target flinch.
        let corpus = try Corpus(tables: Fixture.corpusTables)
        let fang = try #require(corpus.moves.first { $0.slug == "fire-fang" })
        let prose = corpus.prose(ofMove: fang)
        #expect(prose.contains { $0.language == "en" && $0.text == "Has a 10% chance to burn the target and a 10% chance to make the target flinch." })
        #expect(prose.contains { $0.language == "en" && $0.text.hasSuffix("Has a 10% chance to burn the target and a separate 10% chance to make the target flinch.") })
        #expect(prose.contains { $0.language == "fr" && $0.text.contains("probabilité séparée de 10\u{A0}% de chances d'apeurer") })
    }

    @Test func aMissingChanceIsADash() throws {
        var corpus = try Corpus(tables: Fixture.corpusTables)
        corpus.prose = [Prose(kind: "move-effect", id: 7, slug: "7", language: "en", field: "short", text: "Has a $effect_chance% chance to paralyze.")]
        var move = try #require(corpus.moves.first { $0.slug == "thunderbolt" })
        move.effect = 7
        move.effectChance = nil
        #expect(corpus.prose(ofMove: move).map(\.text) == ["Has a —% chance to paralyze."])
        // Nor is "a chance" given a number the move does not have.
        corpus.prose[0].text = "Has a chance to paralyze the target."
        #expect(corpus.prose(ofMove: move).map(\.text) == ["Has a chance to paralyze the target."])
    }
}
