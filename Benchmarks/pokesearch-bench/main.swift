import BenchmarkSupport
import Foundation

// pokesearch-bench: see BENCHMARKS.md. Exit status: 0 done (and no regression), 1 a
// regression against --baseline, 2 a usage error (or an unreadable baseline or query
// file), 3 a failure to measure.

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("pokesearch-bench: \(message)\n".utf8))
    exit(status)
}

let options: Options
do { options = try Options.parse(Array(CommandLine.arguments.dropFirst())) } catch { fail("\(error)", status: 2) }
if options.help {
    print(Options.usage)
    exit(0)
}

do {
    if let entities = options.scaleWorker {
        FileHandle.standardOutput.write(try ScaleWorker.run(entities: entities, quick: false).encoded())
        exit(0)
    }
    if let (old, new) = options.compare {
        for line in RunComparison.lines(old: try BenchmarkReport.load(from: old), new: try BenchmarkReport.load(from: new)) { print(line) }
        exit(0)
    }
    if options.regenerateQueries {
        try Suite.regenerateQueries(into: options.queryFile, seed: options.seed)
        exit(0)
    }
    // Read the baseline first: a bad one should fail before minutes of measuring.
    let baseline = try options.baseline.map(BenchmarkReport.load(from:))
    if let baseline, baseline.quick != options.quick {
        // The references are timed on seeded samples whose size depends on --quick: ratios
        // compare only between runs of the same kind.
        fail("\(options.baseline!) comes from a \(baseline.quick ? "--quick" : "full") run; compare it with a run of the same kind", status: 2)
    }
    var suite = Suite(options: options)
    let report = try suite.run()
    ReportPrinter.print(report)
    if let out = options.out {
        try report.encoded().write(to: URL(fileURLWithPath: out))
        print("\nresults written to \(out)")
    }
    if let baseline, let path = options.baseline {
        let regressions = BaselineComparison.regressions(current: report, baseline: baseline, tolerance: options.tolerance)
        if regressions.isEmpty {
            print("\nno regression against \(path) (tolerance \(BaselineComparison.format(options.tolerance))x)")
        } else {
            print("\n\(regressions.count) regression\(regressions.count == 1 ? "" : "s") against \(path):")
            for regression in regressions { print("  REGRESSED \(regression.description)") }
            exit(1)
        }
    }
} catch let error as BenchmarkError {
    // A bad baseline or query file is the caller's to fix, like a bad option.
    switch error {
    case .badReport, .badQueryFile, .usage: fail("\(error)", status: 2)
    case .failed: fail("\(error)", status: 3)
    }
} catch {
    fail("\(error)", status: 3)
}
