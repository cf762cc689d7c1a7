// swift-tools-version:6.0
// pokesearch: search engine for PokeAPI data. Pipeline stages, one target each:
// Corpus (readers, converter) → Folding (ICU) → Store (SQLite) → Index (trie, n-grams)
// → Query (parse, match, rank) → Catalog (ingest, loading) → front ends (PokesearchCLI, Server).
import Foundation
import PackageDescription

let queryPathSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "pokesearch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pokesearch", targets: ["pokesearch"]),
        .executable(name: "pokesearch-corpus", targets: ["pokesearch-corpus"]),
        .executable(name: "pokesearch-bench", targets: ["pokesearch-bench"]),
        .executable(name: "pokesearch-stress", targets: ["pokesearch-stress"]),
    ],
    targets: [
        // C wrappers. ICU's headers clash with Foundation's bundled ICU, so CICU exposes
        // no ICU type in its public header and includes ICU only in its .c file.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The trie's child search, in C for its SSE2 compare of sixteen children at once (see trie.h).
        .systemLibrary(name: "CTrie", path: "Sources/CTrie"),

        // A pthread lock ThreadSanitizer can see (Synchronization.Mutex's futex it cannot).
        .target(name: "Locking"),
        .target(name: "Corpus"),
        .target(name: "Folding", dependencies: ["CICU", "Locking"]),
        .target(name: "Store", dependencies: ["CSQLite", "Corpus", "Folding"]),
        // The query path in release builds: without the runtime's exclusivity checks (a query
        // made ~25 checked accesses, local functions over captured state: 3% of its
        // instructions, measured with callgrind over the bench's queries), and with the
        // index's small accessors inlined into the query module (cross-module optimisation:
        // 1–4%). Debug builds, which the tests and sanitizers run, keep the checks.
        .target(name: "Index", dependencies: ["CTrie", "Corpus", "Folding"], swiftSettings: queryPathSettings),
        .target(name: "Query", dependencies: ["Corpus", "Folding", "Index", "Locking"], swiftSettings: queryPathSettings),
        .target(name: "Catalog", dependencies: ["Corpus", "Folding", "Store", "Index", "Query", "Locking"]),
        .target(name: "Sync", dependencies: ["CCurl", "Corpus", "Store", "Locking"]),
        .target(name: "Server", dependencies: ["Catalog", "Query", "CLinux", "Locking"]),
        // Terminal layout shared by the CLI's tables, `show` and the interactive mode: display
        // width of text (wide kana, hangul, han), truncation and wrapping, the terminal's size.
        .target(name: "Terminal", dependencies: ["CLinux"]),
        // PNG sprites decoded (zlib inflates, the chunks and filters are read here) and drawn
        // in the terminal: half blocks, the kitty graphics protocol or sixel.
        .target(name: "Sprite", dependencies: ["CZlib"]),
        .target(name: "PokesearchCLI", dependencies: ["Catalog", "Query", "Server", "Sync", "CLinux", "Terminal", "Sprite"]),
        .executableTarget(name: "pokesearch", dependencies: ["PokesearchCLI"]),
        .executableTarget(name: "pokesearch-corpus", dependencies: ["Corpus"]),
        // The benchmark suite: workloads and the report/baseline logic in a library the
        // tests reach, the measuring executable beside it.
        .target(name: "BenchmarkSupport", dependencies: ["Corpus", "Folding", "Store"], path: "Benchmarks/BenchmarkSupport"),
        .executableTarget(name: "pokesearch-bench", dependencies: ["BenchmarkSupport", "Catalog", "Query", "Index", "Store", "Corpus", "Folding", "Server"],
                          path: "Benchmarks/pokesearch-bench"),
        .executableTarget(name: "pokesearch-stress", dependencies: ["Catalog", "Query", "Index", "Server", "Locking"], path: "Benchmarks/pokesearch-stress"),

        .testTarget(name: "PokesearchTests", dependencies: ["Corpus", "Folding", "Store", "Index", "Query", "Catalog", "Server", "PokesearchCLI", "Sync", "BenchmarkSupport", "Locking", "Terminal", "Sprite"],
                    exclude: ["Query/Judged"]),
    ],
    swiftLanguageModes: [.v6]
)

// Profile-guided optimisation of release builds: LLVM lays out each function's code by how
// often its blocks ran under a training run (scripts/pgo.sh: the benchmark's kinds of query,
// generated with another seed than the benchmark's, through the engine, the server and the
// CLI), keeping the hot paths together and the cold ones out of the way. Much of a query's cost is
// instruction-cache misses (its code is evicted between requests), and this cuts them by
// about a third (docs/PERFORMANCE.md). Code changed since the profile was made is compiled as
// without one, so a stale profile costs speed, never correctness. Debug builds (the tests,
// the sanitizers) take no profile; POKESEARCH_PGO=off leaves it out of a release build too
// (scripts/pgo.sh builds its instrumented binaries so).
// The profile is LLVM's indexed format as Swift 6.3's LLVM writes it: an older toolchain's LLVM
// cannot read it (the build would fail), so older toolchains build without it.
#if compiler(>=6.3)
let profile = Context.packageDirectory + "/pgo/pokesearch.profdata"
if ProcessInfo.processInfo.environment["POKESEARCH_PGO"] != "off" && FileManager.default.fileExists(atPath: profile) {
    for target in package.targets where target.type == .regular || target.type == .executable {
        // (The frontend's LLVM-level profile: the driver's -profile-use also feeds Swift's own
        // optimiser, which crashes on this code with Swift 6.3: swiftlang/swift#84432.)
        target.swiftSettings = (target.swiftSettings ?? [])
            + [.unsafeFlags(["-Xfrontend", "-ir-profile-use=\(profile)"], .when(configuration: .release))]
    }
}
#endif

// libFuzzer targets (Fuzz/, run by scripts/fuzz.sh): only with POKESEARCH_FUZZ set, because they
// link only with `-sanitize=fuzzer` (libFuzzer supplies their main).
if ProcessInfo.processInfo.environment["POKESEARCH_FUZZ"] != nil {
    package.targets.append(.systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CLibFuzzer", "Corpus", "Catalog", "Index", "Query"], path: "Fuzz/FuzzSupport"))
    for (name, dependencies) in [("fuzz-query", ["Corpus", "Query"]), ("fuzz-protocol", ["Corpus", "Server"]),
                                 ("fuzz-corpus", ["Corpus", "Query"]), ("fuzz-mapping", ["Corpus", "Sync"])] {
        package.targets.append(.executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies.map { .target(name: $0) },
                                                 path: "Fuzz/\(name)", swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}

