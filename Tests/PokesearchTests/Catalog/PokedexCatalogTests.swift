import Catalog
import Corpus
import Foundation
import Testing

/// The Pokédex logic in Catalog (type chart, evolution chains) on the bundled corpus.
@Suite struct PokedexCatalogTests {
    static let corpus: Corpus? = try? Corpus(directory: PokedexHarness.checkout.appendingPathComponent("corpus"))

    @Test func dualTypesMultiply() throws {
        let chart = TypeChart(corpus: try #require(Self.corpus))
        #expect(chart.percent(attacking: "rock", defending: ["fire", "flying"]) == 400)
        #expect(chart.percent(attacking: "ground", defending: ["fire", "flying"]) == 0)
        #expect(chart.percent(attacking: "grass", defending: ["fire", "flying"]) == 25)
        #expect(chart.percent(attacking: "water", defending: ["fire", "flying"]) == 200)
        #expect(chart.percent(attacking: "normal", defending: ["fire", "flying"]) == 100)
        let groups = chart.defensive(["fire", "flying"]).groupedByFactor
        #expect(groups.map(\.label) == ["x4", "x2", "x1/2", "x1/4", "x0"])
        #expect(groups.first?.types == ["rock"])
        #expect(chart.types.count == 18)
    }

    @Test func branchingChainWithMethods() throws {
        let corpus = try #require(Self.corpus)
        let eevee = try #require(corpus.species.first { $0.slug == "eevee" })
        let chain = EvolutionChain(species: eevee, corpus: corpus)
        #expect(chain.stages.count == 2)
        #expect(chain.stages[1].count == 8)
        let names = CorpusNames(corpus.names)
        func method(_ species: String, language: Int = 0) -> String? {
            chain.steps.first { $0.species == species }?.method(names: names, language: language)
        }
        #expect(method("umbreon") == "at night, friendship 160")
        #expect(method("sylveon") == "knowing a Fairy move, friendship 160")
        #expect(method("jolteon") == "Thunder Stone")
        #expect(method("jolteon", language: 1) == "Pierre Foudre")
    }

    @Test func tradeAndRegionalForms() throws {
        let corpus = try #require(Self.corpus)
        let names = CorpusNames(corpus.names)
        let onix = try #require(corpus.species.first { $0.slug == "onix" })
        let steelix = try #require(EvolutionChain(species: onix, corpus: corpus).steps.first)
        #expect(steelix.method(names: names, language: 0) == "trade, holding Metal Coat")
        let pichu = try #require(corpus.species.first { $0.slug == "pichu" })
        let steps = EvolutionChain(species: pichu, corpus: corpus).steps
        #expect(steps.contains { $0.pokemon == "raichu-alola" && $0.method(names: names, language: 0) == "Thunder Stone, in Alola" })
        #expect(EvolutionChain(species: pichu, corpus: corpus).stages == [["pichu"], ["pikachu"], ["raichu"]])
    }
}
