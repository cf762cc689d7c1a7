import BenchmarkSupport
import Corpus
import Folding
import Foundation
import Testing

/// The benchmark's workloads: deterministic, made from real entities, typos within the
/// contract's budget, and the committed query file up to date with the generator.
@Suite("Benchmark workloads")
struct BenchmarkWorkloadTests {
    static let generator = WorkloadGenerator(corpus: Fixture.corpus)
    static let queries = generator.queries(perWorkload: 40)

    /// (A generator made again from the corpus makes the same queries too: the committed
    /// file, made by another process, is what this one's generator makes.)
    @Test func theSameSeedGivesTheSameQueries() {
        #expect(Self.generator.queries(perWorkload: 40) == Self.queries)
        let otherSeed = WorkloadGenerator(corpus: Fixture.corpus, seed: 7).queries(perWorkload: 40)
        #expect(otherSeed != Self.queries)
        #expect(otherSeed.count == Self.queries.count)
    }

    @Test func theSplitMixSequenceIsFixed() {
        // SplitMix64's published first outputs for seed 0: the workloads depend on them.
        var random = SplitMix64(seed: 0)
        #expect([random.next(), random.next(), random.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test(arguments: Workload.allCases)
    func everyWorkloadIsFullAndMadeFromRealEntities(_ workload: Workload) {
        let ofWorkload = Self.queries.filter { $0.workload == workload }
        #expect(ofWorkload.count == 40)
        let entities = Set(Fixture.corpus.names.map { "\($0.kind):\($0.slug)" })
        for query in ofWorkload {
            #expect(entities.contains(query.expected), "\(query.text) → \(query.expected)")
            #expect(!query.text.contains("\t") && !query.text.contains("\n") && query.text == query.text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test(arguments: [Workload.typoInsert, .typoDelete, .typoSubstitute, .typoTranspose])
    func typosStayWithinTheEditBudget(_ workload: Workload) throws {
        var englishNames: [String: [String]] = [:]
        for name in Fixture.corpus.names where name.language == "en" {
            englishNames["\(name.kind):\(name.slug)", default: []].append(Folding.fold(name.text))
        }
        for query in Self.queries where query.workload == workload {
            let original = try #require(englishNames[query.expected]?.first)
            let distance = TypoSearchTests.editDistance(Array(original), Array(query.text))
            let budget = min(original.count, query.text.count) >= 8 ? 2 : 1
            #expect(query.text.count >= 4)
            #expect(distance >= 1 && distance <= budget, "\(original) → \(query.text): \(distance) edits")
        }
    }

    @Test func kanaQueriesComeInBothKanaScripts() {
        let kana = Self.queries.filter { $0.workload == .japaneseKana }.map(\.text)
        let hiragana = kana.filter { $0.unicodeScalars.contains { (0x3041...0x3096).contains($0.value) } }
        #expect(!hiragana.isEmpty && hiragana.count < kana.count)
    }

    @Test func theCommittedQueryFileIsWhatTheGeneratorMakes() throws {
        let path = Fixture.root.appendingPathComponent("Benchmarks/queries.tsv").path
        let committed = try QueryFile.decode(try String(contentsOfFile: path, encoding: .utf8), file: path)
        let fresh = Self.generator.queries(perWorkload: committed.count / Workload.allCases.count)
        #expect(committed == fresh, "Benchmarks/queries.tsv is stale: rewrite it with `swift run -c release pokesearch-bench --regenerate-queries`")
    }

    /// Release builds take the committed profile (scripts/pgo.sh) only when it is where
    /// Package.swift looks and in LLVM's indexed format; missing, they build without it and
    /// say nothing.
    @Test func theReleaseProfileIsWherePackageSwiftLooks() throws {
        let path = Fixture.root.appendingPathComponent("pgo/pokesearch.profdata").path
        let profile = try #require(FileManager.default.contents(atPath: path), "no pgo/pokesearch.profdata: run scripts/pgo.sh")
        #expect(Array(profile.prefix(8)) == [0xFF, 0x6C, 0x70, 0x72, 0x6F, 0x66, 0x69, 0x81], "not an indexed LLVM profile")
        let manifest = try String(contentsOf: Fixture.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("\"/pgo/pokesearch.profdata\""))
    }

    @Test func theQueryFileRoundTripsAndRejectsOtherText() throws {
        #expect(try QueryFile.decode(QueryFile.encode(Self.queries), file: "q.tsv") == Self.queries)
        #expect(throws: BenchmarkError.self) { try QueryFile.decode("query\texpected\nfoo\tpokemon:foo\n", file: "q.tsv") }
        #expect(throws: BenchmarkError.self) { try QueryFile.decode(QueryFile.header + "\nno-such-workload\tfoo\tpokemon:foo\n", file: "q.tsv") }
    }
}
