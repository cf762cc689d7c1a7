import Catalog
import Corpus
import Dispatch
import Folding
import Locking
import Query
import Testing

/// Every entity is found by each of its names in every language (by a reader of that
/// language), its slug as written and its slug run together: within the top 3, and first
/// where no other entity has that name (issue 40, item 7). Prints the figures per kind and per language, and the ambiguous names.
@Suite("Self-retrieval")
struct SelfRetrievalTests {
    struct Probe: Sendable {
        var query: String
        var doc: Int
        /// A language code, or `slug` / `slug-run-together`.
        var language: String
    }

    struct Tally {
        var total = 0, top3 = 0, unambiguous = 0, first = 0
        mutating func add(top3 found: Bool, unambiguous: Bool, first: Bool) {
            total += 1
            if found { top3 += 1 }
            if unambiguous { self.unambiguous += 1; if first { self.first += 1 } }
        }
        var firstRate: Double { unambiguous == 0 ? 1 : Double(first) / Double(unambiguous) }
        var line: String {
            "\(top3)/\(total) in the top 3, \(first)/\(unambiguous) unambiguous first (\(String(format: "%.2f", firstRate * 100))%)"
        }
    }

    /// The contract's goal: 99.5% of unambiguous names first, in every language (met).
    static let minimumFirstRate = 0.995
    /// Names of three entities or fewer that the query parser cannot find as written: none
    /// ("Data Card 01", a number written with a leading zero, "Type:0", a filter whose
    /// value names nothing, and "Legendary Clue?", a question mark ending a term, find theirs).
    static let maximumMissingFromTop3 = 0

    @Test(.tags(.exhaustive)) func everyNameFindsItsEntity() throws {
        let index = Fixture.engine.index
        let documents = Fixture.documents
        // Who has each folded name (as written or compact), over every name searched.
        var owners: [String: Set<Int>] = [:]
        for name in documents.names {
            owners[name.folded, default: []].insert(name.doc)
            owners[name.compact, default: []].insert(name.doc)
        }
        var probes: [Probe] = []
        var seen = Set<String>()
        for name in documents.names where Language.index(of: name.language) != nil {
            if seen.insert("\(name.doc) \(name.language) \(name.raw)").inserted { probes.append(Probe(query: name.raw, doc: name.doc, language: name.language)) }
        }
        for entity in documents.entities {
            probes.append(Probe(query: entity.slug, doc: entity.doc, language: "slug"))
            probes.append(Probe(query: entity.slug.replacingOccurrences(of: "-", with: ""), doc: entity.doc, language: "slug-run-together"))
        }

        struct Outcome { var probe: Probe; var top3: Bool; var first: Bool; var owners: Int; var got: [Int]; var unambiguous: Bool { owners == 1 } }
        let allProbes = probes, nameOwners = owners
        let outcomes = Locked<[Outcome]>([])
        let chunks = 8
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var options = SearchOptions()
            options.limit = 3
            var local: [Outcome] = []
            for probe in allProbes[(allProbes.count * chunk / chunks)..<(allProbes.count * (chunk + 1) / chunks)] {
                // A name is looked for by a reader of its language (the ranking's language rule
                // puts "Abo", Ekans in French, after Abomasnow for an English reader); slugs
                // in English.
                options.language = Language.index(of: probe.language) ?? SearchOptions().language
                let folded = Folding.fold(probe.query)
                let owners = (nameOwners[folded] ?? []).union(nameOwners[Folding.compact(folded)] ?? []).union([probe.doc]).count
                let got = ((try? Fixture.engine.search(probe.query, options: options))?.results.map(\.doc)) ?? []
                local.append(Outcome(probe: probe, top3: got.contains(probe.doc), first: got.first == probe.doc, owners: owners, got: got))
            }
            outcomes.withLock { $0 += local }
        }

        var byKind: [String: Tally] = [:], byLanguage: [String: Tally] = [:], all = Tally()
        var missing: [String] = [], notFirst: [String] = [], crowded = 0
        var ambiguous = Set<String>()
        for outcome in outcomes.withLock({ $0 }) {
            let kind = index.kind(outcome.probe.doc).rawValue
            byKind[kind, default: Tally()].add(top3: outcome.top3, unambiguous: outcome.unambiguous, first: outcome.first)
            byLanguage[outcome.probe.language, default: Tally()].add(top3: outcome.top3, unambiguous: outcome.unambiguous, first: outcome.first)
            all.add(top3: outcome.top3, unambiguous: outcome.unambiguous, first: outcome.first)
            if !outcome.unambiguous { ambiguous.insert(Folding.fold(outcome.probe.query)) }
            if outcome.unambiguous && !outcome.first {
                notFirst.append("\(outcome.probe.query) (\(outcome.probe.language)) → \(kind):\(index.slug(outcome.probe.doc)); got \(outcome.got.map { index.slug($0) })")
            }
            // A name more than three entities share cannot put each in the top 3.
            if !outcome.top3 && outcome.owners > 3 { crowded += 1 }
            if !outcome.top3 && outcome.owners <= 3 {
                missing.append("\(outcome.probe.query) (\(outcome.probe.language)) → \(kind):\(index.slug(outcome.probe.doc)); got \(outcome.got.map { index.slug($0) })")
            }
        }
        print("self-retrieval, all: \(all.line)")
        for (kind, tally) in byKind.sorted(by: { $0.key < $1.key }) { print("self-retrieval, kind \(kind): \(tally.line)") }
        for (language, tally) in byLanguage.sorted(by: { $0.key < $1.key }) { print("self-retrieval, \(language): \(tally.line)") }
        print("self-retrieval, \(ambiguous.count) ambiguous names (another entity has them too): \(ambiguous.sorted().joined(separator: "; "))")
        print("self-retrieval, \(notFirst.count) unambiguous names not first: \(notFirst.sorted().joined(separator: "; "))")
        print("self-retrieval, \(crowded) names more than three entities share not in the top 3")
        print("self-retrieval, \(missing.count) names of three entities or fewer not in the top 3: \(missing.sorted().joined(separator: "; "))")
        #expect(missing.count <= Self.maximumMissingFromTop3, "\(missing.count) names not in the top 3")
        for (language, tally) in byLanguage {
            #expect(tally.firstRate >= Self.minimumFirstRate, "\(language): \(tally.line)")
        }
    }
}
