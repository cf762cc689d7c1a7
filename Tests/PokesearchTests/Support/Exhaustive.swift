import Foundation
import Testing

extension Tag {
    /// Checks a shortcut, a reader or a search against a brute force or another
    /// implementation over the whole corpus (every name, key, prefix or entity), or a fault
    /// at many places or instants: a fixed sample of its cases in the everyday run, every
    /// case in CI (`Exhaustive`). A whole-corpus end-to-end check runs in CI only, when the
    /// everyday run checks its parts apart (`.enabled(if: Exhaustive.isFull, ...)`).
    @Tag static var exhaustive: Self
}

/// How many of an exhaustive test's cases this run checks. `scripts/test.sh` checks a
/// sample, the same one each run (a failure reproduces); `scripts/test.sh --full` (CI) sets
/// POKESEARCH_EXHAUSTIVE=1 and checks every case.
enum Exhaustive {
    static let variable = "POKESEARCH_EXHAUSTIVE"
    static let isFull = ProcessInfo.processInfo.environment[variable] == "1"

    /// Every case in a full run; otherwise every `stride`th, starting at the first.
    static func sample<C: Collection>(_ cases: C, oneIn stride: Int) -> [C.Element] {
        isFull ? Array(cases) : cases.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
    }

    /// A count an exhaustive test expects of all its cases, scaled to the share this run
    /// checks: "the shortcut answered more than 5,000" becomes more than 5,000 / `stride`.
    static func share(_ count: Int, oneIn stride: Int) -> Int { isFull ? count : count / stride }
}
