import Foundation
import Testing

/// The everyday run checks a fixed sample of an exhaustive test's cases, a full run all of
/// them, and `scripts/test.sh --full` asks for a full run.
@Suite struct ExhaustiveSamplingTests {
    @Test func aSampleIsEveryNthCaseFromTheFirstAndAFullRunTakesAll() {
        let cases = Array(0..<10)
        if Exhaustive.isFull {
            #expect(Exhaustive.sample(cases, oneIn: 3) == cases)
            #expect(Exhaustive.share(1_000, oneIn: 8) == 1_000)
        } else {
            #expect(Exhaustive.sample(cases, oneIn: 3) == [0, 3, 6, 9])
            #expect(Exhaustive.sample(cases, oneIn: 3) == Exhaustive.sample(cases, oneIn: 3))
            #expect(Exhaustive.share(1_000, oneIn: 8) == 125)
        }
        #expect(Exhaustive.sample(cases, oneIn: 1) == cases)
        #expect(Exhaustive.sample([Int](), oneIn: 3).isEmpty)
    }

    @Test func theFullRunIsWhatTheScriptsFullOptionAndCIAskFor() throws {
        let script = try String(contentsOf: Fixture.root.appendingPathComponent("scripts/test.sh"), encoding: .utf8)
        #expect(script.contains("export \(Exhaustive.variable)=1"))
        let ci = try String(contentsOf: Fixture.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("./scripts/test.sh --full"))
    }
}
