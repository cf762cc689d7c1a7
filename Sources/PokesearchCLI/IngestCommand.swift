import Catalog
import Corpus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `pokesearch ingest [--csv DIR]`: (re)builds the database, keeping favourites and history.
enum IngestCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard arguments.positional.isEmpty else {
            throw CLIError.usage("ingest takes no words, only --csv DIR or --api URL; got '\(arguments.positional.joined(separator: " "))'")
        }
        let tables: CorpusTables
        let source: String
        if let directory = arguments.values["--csv"] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIError.usage("--csv needs a directory of PokeAPI CSV files (data/v2/csv); '\(directory)' is not one")
            }
            tables = try Converter.convert(csvDirectory: URL(fileURLWithPath: directory))
            source = "PokeAPI CSV at \(directory)"
        } else if arguments.values["--api"] != nil {
            throw CLIError.usage("ingest --api is not available in this build yet")
        } else {
            guard let corpus = Paths.bundledCorpus(environment: context.environment) else {
                throw CLIError.data(CatalogError.noBundledCorpus.description)
            }
            tables = try TSV.readCorpus(from: corpus)
            source = "bundled corpus"
        }
        let quiet = arguments.flags.contains("--quiet")
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        let report = try Ingest.run(tables: tables, source: source, databasePath: context.databasePath) { step in
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[Kpokesearch: \(step)…".utf8)) }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let counts = Kind.allCases.map { "\(report.counts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        if !quiet {
            context.output.line("ingested \(source) into \(report.path): \(counts); \(report.names) names in \(Int(report.milliseconds)) ms")
        }
        return 0
    }
}
