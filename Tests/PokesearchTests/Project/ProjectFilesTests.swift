import Foundation
import Testing

/// Checks on the project's own files: the documents name files that exist, and the profile
/// check's notion of a change of code.
@Suite("Project files")
struct ProjectFilesTests {
    /// Runs `scripts/<script> <arguments>` in `checkout`, returning its status and stdout.
    static func script(_ script: String, _ arguments: [String], in checkout: String) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [checkout + "/scripts/" + script] + arguments
        let run = try runDrainingOutput(process)
        return (run.status, run.stdout)
    }

    /// The documents a reader opens first, and every one under docs/.
    static let documents: [String] = ["README.md", "BENCHMARKS.md", "DEVELOPERS.md"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: Fixture.root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }

    /// Every path into the checkout a document names (`Sources/Index/Trie/Lookup.swift`,
    /// `scripts/pgo.sh`, `docs/PROTOCOL.md`, a link `(DEVELOPERS.md)`) exists, so that a
    /// renamed or deleted file shows up as a stale document. A path stops at the first
    /// character that cannot be in one (`Benchmarks/runs/<date>.json` names Benchmarks/runs);
    /// a last part in capitals is a placeholder (`Fuzz/corpus/TARGET`), and a bare document
    /// name (`STORAGE.md`) may be beside the document, at the top or under docs/.
    @Test(arguments: documents)
    func everyPathADocumentNamesExists(_ document: String) throws {
        let text = try String(contentsOf: Fixture.root.appendingPathComponent(document), encoding: .utf8)
        let folders = "Sources|Tests|Benchmarks|scripts|docs|corpus|completions|contrib|pgo|Fuzz|\\.ci"
        let pathPattern = try NSRegularExpression(pattern: "(?<![A-Za-z0-9_./-])(?:(?:\(folders))/[A-Za-z0-9_./-]*[A-Za-z0-9_]|[A-Z][A-Z]+\\.md|Package\\.swift)")
        let whole = NSRange(text.startIndex..., in: text)
        let named = Set(pathPattern.matches(in: text, range: whole).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
        #expect(!named.isEmpty, "\(document) names no file")
        for path in named.sorted() {
            let last = path.split(separator: "/").last ?? ""
            if path.contains("/") && last.allSatisfy({ $0.isUppercase || $0 == "_" }) { continue }
            let candidates = path.contains("/") ? [path] : [path, "docs/" + path, (document as NSString).deletingLastPathComponent + "/" + path]
            #expect(candidates.contains { FileManager.default.fileExists(atPath: Fixture.root.appendingPathComponent($0).path) },
                    "\(document) names \(path), which does not exist")
        }
    }

    /// `scripts/bench-paired.sh` refuses, with its usage status and before building anything,
    /// what it cannot time: no side, a round count that is no positive number, a side that
    /// is neither a binary nor a commit.
    @Test func thePairedBenchRefusesWhatItCannotTime() throws {
        let root = Fixture.root.path
        for arguments in [[], ["--rounds", "0", "HEAD"], ["--rounds", "x", "HEAD"], ["HEAD", "HEAD", "HEAD"],
                          ["no-such-commit-or-binary"]] {
            #expect(try Self.script("bench-paired.sh", arguments, in: root).status == 2, "\(arguments)")
        }
    }

    /// `scripts/pgo.sh --check` counts changes of code only: comments, blank lines and
    /// spacing leave the profile current; a changed token, string literal (a `//` in one is
    /// text) or build setting makes it stale.
    @Test func theProfileCheckIgnoresCommentsAndFormattingOnly() throws {
        let checkout = Fixture.temporaryDirectory("pgo-check")
        let files = FileManager.default
        for item in ["Sources", "Package.swift", "scripts"] {
            try files.copyItem(atPath: Fixture.root.appendingPathComponent(item).path, toPath: checkout + "/" + item)
        }
        try files.createDirectory(atPath: checkout + "/pgo", withIntermediateDirectories: true)
        let swiftFile = checkout + "/Sources/Locking/PGOProbe.swift", header = checkout + "/Sources/CTrie/trie.h"
        let manifest = checkout + "/Package.swift"
        let originalHeader = try String(contentsOfFile: header, encoding: .utf8)
        let originalManifest = try String(contentsOfFile: manifest, encoding: .utf8)
        func write(swift: String, header headerTail: String, manifest manifestTail: String = "") throws {
            try swift.write(toFile: swiftFile, atomically: true, encoding: .utf8)
            try (originalHeader + headerTail).write(toFile: header, atomically: true, encoding: .utf8)
            try (originalManifest + manifestTail).write(toFile: manifest, atomically: true, encoding: .utf8)
        }
        let base = "let pgoProbe = \"http://example\" // a note\nlet pgoText = \"\"\"\n    a // b\n    \"\"\"\nlet pgoLimit = 2 * 3\n"
        let baseHeader = "static const char pgo_quote = '\"'; static const char *pgo_url = \"http://x\"; // a note\n"
        try write(swift: base, header: baseHeader)
        let hash = try Self.script("pgo.sh", ["--hash"], in: checkout)
        #expect(hash.status == 0 && hash.stdout.count == 65, "\(hash)")
        try hash.stdout.write(toFile: checkout + "/pgo/sources.sha256", atomically: true, encoding: .utf8)
        #expect(try Self.script("pgo.sh", ["--check"], in: checkout).status == 0)

        func edited(_ text: String, _ old: String, _ new: String) -> String {
            #expect(text.contains(old))
            return text.replacingOccurrences(of: old, with: new)
        }
        let unchanged: [(swift: String, header: String, manifest: String)] = [
            (edited(base, "// a note", "// another note"), edited(baseHeader, "// a note", "// another"), ""),
            ("\n\n  " + edited(edited(base, " = 2 * 3", " =  2 *\t3 /* a block /* nested */ still the block */"), "\nlet", "\n\n  let"), baseHeader, ""),
            (base, edited(baseHeader, "// a note", "/* a\n   note */"), "// a note on the settings\n"),
        ]
        for (swift, header, manifest) in unchanged {
            try write(swift: swift, header: header, manifest: manifest)
            #expect(try Self.script("pgo.sh", ["--check"], in: checkout).status == 0, "counted as a change of code:\n\(swift)\(header)\(manifest)")
        }
        let changed: [(swift: String, header: String, manifest: String)] = [
            (edited(base, "//example", "//example/x"), baseHeader, ""),
            (edited(base, "//example", "// example"), baseHeader, ""),
            (edited(base, "2 * 3", "2 * 4"), baseHeader, ""),
            (edited(base, "a // b", "a // c"), baseHeader, ""),
            (base, edited(baseHeader, "//x", "//y"), ""),
            (base, baseHeader, "package.targets.removeLast()\n"),
        ]
        for (swift, header, manifest) in changed {
            try write(swift: swift, header: header, manifest: manifest)
            #expect(try Self.script("pgo.sh", ["--check"], in: checkout).status == 1, "not counted as a change of code:\n\(swift)\(header)\(manifest)")
        }
    }
}
