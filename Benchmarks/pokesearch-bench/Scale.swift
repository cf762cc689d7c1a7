import BenchmarkSupport
import Catalog
import Corpus
import Folding
import Foundation
import Index
import Query

/// A synthetic corpus of N entities shaped like the real one: the real types, abilities and
/// vocabularies, and N minus those Pokémon whose names in each language are pieces of real
/// Pokémon names in that language recombined (start + optional middle + end), with the
/// languages, types and abilities of a random real Pokémon and random stats.
enum SyntheticCorpus {
    /// Pieces of real names per language: starts, middles, ends.
    struct Pieces {
        var starts: [String] = []
        var middles: [String] = []
        var ends: [String] = []
    }

    static func tables(from real: CorpusTables, corpus: Corpus, entities: Int, seed: UInt64) throws -> CorpusTables {
        var random = SplitMix64.stream("scale-\(entities)", seed: seed)
        var pieces: [String: Pieces] = [:]
        for name in corpus.names where name.kind == "pokemon" {
            let characters = Array(name.text)
            // Latin names cut into 2–4 letter pieces; kana, hangul and han into 1–2.
            let range = Folding.hasNonLatinLetters(name.text) ? 1...2 : 2...4
            var cuts: [String] = []
            var at = 0
            while at < characters.count {
                let length = min(characters.count - at, random.int(in: range))
                cuts.append(String(characters[at..<(at + length)]))
                at += length
            }
            guard cuts.count >= 2 else { continue }
            pieces[name.language, default: Pieces()].starts.append(cuts[0])
            pieces[name.language, default: Pieces()].ends.append(cuts[cuts.count - 1])
            pieces[name.language, default: Pieces()].middles += cuts.dropFirst().dropLast()
        }

        var tables = real
        let templates = corpus.pokemon.filter { $0.isDefault && $0.formOf == nil }
        let names = try real.table("names")
        var namesByPokemon: [String: [String]] = [:] // slug → languages
        for row in names.rows where row[0] == "pokemon" { namesByPokemon[row[2], default: []].append(row[3]) }
        let typeSlugs = corpus.types.filter { $0.id < 1000 }.map(\.slug)
        let colors = Array((corpus.vocabulary["color"] ?? [:]).values).sorted()
        let habitats = Array((corpus.vocabulary["habitat"] ?? [:]).values).sorted()
        let count = max(1, entities - corpus.abilities.count - corpus.types.count)

        var pokemonRows: [[String]] = [], speciesRows: [[String]] = [], nameRows = names.rows.filter { !["pokemon", "move", "item"].contains($0[0]) }
        pokemonRows.reserveCapacity(count)
        speciesRows.reserveCapacity(count)
        for id in 1...count {
            let template = random.pick(templates)
            let slug = "synthetic-\(id)"
            var types = template.types
            if random.chance(1, in: 3) { types = [random.pick(typeSlugs)] + (random.chance(1, in: 2) ? [random.pick(typeSlugs)] : []) }
            if types.count == 2 && types[0] == types[1] { types.removeLast() }
            let stats = (0..<6).map { _ in String(random.int(in: 10...200)) }
            pokemonRows.append(row(tables, "pokemon", [
                "id": "\(id)", "slug": slug, "species": "\(id)", "form_of": "", "is_default": "1", "form": "",
                "is_mega": "0", "is_battle_only": "0", "height": "\(random.int(in: 1...200))", "weight": "\(random.int(in: 1...9999))",
                "types": types.joined(separator: ","), "abilities": template.abilities.joined(separator: ","),
                "hidden_ability": template.hiddenAbility ?? "", "hp": stats[0], "attack": stats[1], "defense": stats[2],
                "special_attack": stats[3], "special_defense": stats[4], "speed": stats[5],
            ]))
            speciesRows.append(row(tables, "species", [
                "id": "\(id)", "slug": slug, "generation": "\(random.int(in: 1...9))", "evolves_from": "", "evolution_chain": "\(id)",
                "color": random.pick(colors), "habitat": random.chance(1, in: 2) ? random.pick(habitats) : "", "shape": "",
                "is_baby": random.chance(1, in: 50) ? "1" : "0", "is_legendary": random.chance(1, in: 30) ? "1" : "0",
                "is_mythical": random.chance(1, in: 60) ? "1" : "0", "capture_rate": "45", "gender_rate": "4",
            ]))
            for language in namesByPokemon[template.slug] ?? ["en"] {
                guard let p = pieces[language], !p.starts.isEmpty, !p.ends.isEmpty else { continue }
                var text = random.pick(p.starts)
                if !p.middles.isEmpty && random.chance(1, in: 2) { text += random.pick(p.middles) }
                text += random.pick(p.ends)
                nameRows.append(["pokemon", "\(id)", slug, language, text])
            }
        }
        tables.tables["pokemon"]?.rows = pokemonRows
        tables.tables["species"]?.rows = speciesRows
        tables.tables["names"]?.rows = nameRows
        for stem in ["evolutions", "moves", "items"] { tables.tables[stem]?.rows = [] }
        return tables
    }

    /// A row of `stem` from values by column name.
    static func row(_ tables: CorpusTables, _ stem: String, _ values: [String: String]) -> [String] {
        (tables.tables[stem]?.columns ?? []).map { values[$0] ?? "" }
    }
}

/// One synthetic size measured in its own process (`--scale-worker N`), so that its memory
/// figures are its own: the figures go to stdout as a results file.
enum ScaleWorker {
    static func run(entities: Int, quick: Bool) throws -> BenchmarkReport {
        guard let directory = Paths.bundledCorpus() else { throw BenchmarkError.failed("cannot find the bundled corpus (corpus/)") }
        let real = try TSV.readCorpus(from: directory)
        let corpus = try Corpus(tables: real)
        var figures: [Figure] = []
        let prefix = "scale.\(entities)"

        let generateStart = nowNanoseconds()
        let synthetic = try Corpus(tables: try SyntheticCorpus.tables(from: real, corpus: corpus, entities: entities, seed: WorkloadGenerator.defaultSeed))
        figures.append(Figure("\(prefix).generate", Double(nowNanoseconds() - generateStart) / 1e6, unit: "ms"))

        let foldStart = nowNanoseconds()
        let documents = Documents(corpus: synthetic)
        figures.append(Figure("\(prefix).fold", Double(nowNanoseconds() - foldStart) / 1e6, unit: "ms"))
        figures.append(Figure("\(prefix).entities", Double(documents.entities.count), unit: "entities"))
        figures.append(Figure("\(prefix).names", Double(documents.names.count), unit: "names"))

        let before = residentBytes() ?? 0
        let buildStart = nowNanoseconds()
        let index = IndexBuilder.build(documents.indexInput(synthetic))
        figures.append(Figure("\(prefix).build", Double(nowNanoseconds() - buildStart) / 1e6, unit: "ms"))
        figures.append(Figure("\(prefix).index.bytes", Double(index.byteSize), unit: "bytes"))
        figures.append(Figure("\(prefix).rss.growth", (residentBytes() ?? 0) - before, unit: "bytes"))
        figures.append(Figure("\(prefix).rss.peak", residentBytes(field: "VmHWM") ?? .nan, unit: "bytes"))

        // Queries from a sample of the synthetic Pokémon (the generator folds every name it
        // is given, which for a million entities would take longer than the rest).
        var sample = synthetic
        let sampleSlugs = Set(synthetic.pokemon.prefix(3000).map(\.slug))
        sample.names = synthetic.names.filter { $0.kind != "pokemon" || sampleSlugs.contains($0.slug) }
        sample.pokemon = synthetic.pokemon.filter { sampleSlugs.contains($0.slug) }
        let queries = WorkloadGenerator(corpus: sample).queries(perWorkload: quick ? 20 : 60)
        let engine = SearchEngine(index: index)
        let rounds = quick ? 2 : 5
        let search = LatencyRun(queries: queries, rounds: rounds, seed: WorkloadGenerator.defaultSeed) { _ = try engine.search($0) }
        let complete = LatencyRun(queries: queries.filter(\.workload.isCompleted), rounds: rounds, seed: WorkloadGenerator.defaultSeed) {
            _ = try engine.complete($0)
        }
        figures.append(Figure("\(prefix).search.median", search.mixed.median / 1000, unit: "µs"))
        figures.append(Figure("\(prefix).search.p99", search.mixed.p99 / 1000, unit: "µs"))
        figures.append(Figure("\(prefix).complete.median", complete.mixed.median / 1000, unit: "µs"))
        figures.append(Figure("\(prefix).complete.p99", complete.mixed.p99 / 1000, unit: "µs"))
        figures.append(Figure("\(prefix).recall.top20", Recall(queries: queries, engine: engine).mixedTop20, unit: "%"))
        return BenchmarkReport(quick: quick, machine: machineDescription(), date: "", figures: figures)
    }
}
