import Catalog
import Corpus
import Foundation
import Sync
#if canImport(Glibc)
import Glibc
#endif

/// `pokesearch ingest [--csv DIR|URL | --api [URL]]`: (re)builds the database, keeping
/// favourites, history and the HTTP cache.
enum IngestCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard arguments.positional.isEmpty else {
            throw CLIError.usage("ingest takes no words, only --csv DIR|URL or --api [URL]; got '\(arguments.positional.joined(separator: " "))'")
        }
        let quiet = arguments.flags.contains("--quiet")
        let style = ProgressMeter.style(quiet: quiet)
        let settings = HTTPSettings(environment: context.environment)
        var tables: CorpusTables
        let source: String
        var sync: APISync? = nil
        if arguments.values["--csv"] != nil, arguments.values["--api"] != nil {
            throw CLIError.usage("ingest takes --csv or --api, not both")
        }
        if let location = arguments.values["--csv"] {
            if isURL(location) {
                let directory = try CSVDownload.download(base: location, settings: settings,
                                                         progress: ProgressMeter(style: style, label: "CSV tables"))
                defer { try? FileManager.default.removeItem(at: directory) }
                tables = try Converter.convert(csvDirectory: directory)
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw CLIError.usage("--csv needs a directory of PokeAPI CSV files (data/v2/csv) or an http(s) URL; '\(location)' is neither")
                }
                tables = try Converter.convert(csvDirectory: URL(fileURLWithPath: location))
            }
            source = "PokeAPI CSV at \(location)"
        } else if let api = arguments.values["--api"] {
            let base = api.isEmpty ? APISync.defaultBase : api
            guard isURL(base) else { throw CLIError.usage("--api takes an http:// or https:// URL, not '\(base)'") }
            let crawler = try APISync(base: base, databasePath: context.databasePath, settings: settings,
                                      progress: ProgressMeter(style: style, label: "requests"))
            tables = try crawler.crawl()
            sync = crawler
            source = "PokeAPI at \(crawler.base)"
        } else {
            guard let corpus = Paths.bundledCorpus(environment: context.environment) else {
                throw CLIError.data(CatalogError.noBundledCorpus.description)
            }
            tables = try TSV.readCorpus(from: corpus)
            source = "bundled corpus"
        }
        let showSteps = style == .bar
        let report = try Ingest.run(tables: tables, source: source, databasePath: context.databasePath, progress: { step in
            if showSteps { FileHandle.standardError.write(Data("\r\u{1B}[Kpokesearch: \(step)…".utf8)) }
        }, carry: sync.map { crawler in { try crawler.carryCache(into: $0) } })
        sync?.finish()
        if showSteps { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let counts = Kind.allCases.map { counted(report.counts[$0] ?? 0, $0) }.joined(separator: ", ")
        if !quiet {
            context.output.line("ingested \(source) into \(report.path): \(counts); \(report.names) names in \(Int(report.milliseconds)) ms")
            if let sync {
                let c = sync.counts
                context.output.line("requests: \(c.downloaded) downloaded (\(c.bytes) bytes), \(c.notModified) not modified, \(c.resumed) reused from an interrupted sync, \(sync.retries) retries")
            }
        }
        return 0
    }

    /// "1 move", "937 moves", "1 ability", "373 abilities", "1,025 Pokémon".
    static func counted(_ count: Int, _ kind: Kind) -> String {
        let word: String
        switch kind {
        case .pokemon: word = "Pokémon"
        case .ability: word = count == 1 ? "ability" : "abilities"
        case .form, .move, .item, .type: word = kind.rawValue + (count == 1 ? "" : "s")
        }
        return "\(count) \(word)"
    }

    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}
