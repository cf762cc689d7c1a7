import Corpus
import Folding
import Index

extension MatchContext {
    /// Wildcard patterns without three letters in a row may scan a prefix range of keys;
    /// past this many keys the pattern is refused as too broad.
    static let maxWildcardScan = 20_000

    /// What a posting recorded by a wildcard pattern costs in wildcard steps.
    static let wildcardStepsPerPosting = 64

    func matchWildcard(_ pieces: [WildcardPiece], term: Term, restriction: Int?, into hits: HitMap) throws {
        let literals: [[UInt32]] = pieces.compactMap { if case .literal(let l) = $0 { return l } else { return nil } }
        let longest = literals.max { $0.count < $1.count } ?? []
        var candidates: [Int]
        if longest.count >= 3 || (longest.count == 2 && !longest.allSatisfy { $0 < 0x80 }) {
            candidates = index.keysContaining(longest)
            // Candidates are whole names; their words are matched from the same keys below.
        } else if case .literal(let prefix) = pieces[0] {
            let bytes = Array(String(String.UnicodeScalarView(prefix.compactMap(Unicode.Scalar.init))).utf8)
            let range = index.keyRange(prefix: bytes)
            guard range.count <= Self.maxWildcardScan else {
                throw QueryError("wildcard pattern '\(term.raw)' is too broad: give at least three letters in a row",
                                 position: term.position, part: term.raw)
            }
            candidates = Array(range)
        } else {
            throw QueryError("wildcard pattern '\(term.raw)' is too broad: give at least three letters in a row",
                             position: term.position, part: term.raw)
        }
        let pattern = Glob(pieces)
        var steps = budget.wildcardSteps
        defer { budget.wildcardSteps = steps }
        for key in candidates {
            guard steps >= 0 else { return }
            let range = index.keys.range(key)
            steps -= 1
            let (wholeMatches, wordClass): (Bool, MatchClass?) = index.keys.bytes.withUnsafeBufferPointer { bytes in
                let text = UnsafeBufferPointer(rebasing: bytes[range])
                if pattern.matches(text, steps: &steps) { return (true, nil) }
                guard pattern.mayMatchAWordOf(text) else { return (false, nil) }
                var start = 0, first = true
                while start <= text.count {
                    let end = text[start...].firstIndex(of: 0x20) ?? text.count
                    if pattern.matches(UnsafeBufferPointer(rebasing: text[start..<end]), steps: &steps) {
                        return (false, first ? .namePrefix : .laterWordPrefix)
                    }
                    start = end + 1
                    first = false
                }
                return (false, nil)
            }
            guard wholeMatches || wordClass != nil else { continue }
            // Each posting a pattern records is ranked and intersected with the other
            // terms' later: broad patterns together cost far more than their matching.
            let recorded = index.postingRange(key: key).count
            budget.postings -= recorded
            steps -= recorded * Self.wildcardStepsPerPosting
            for p in index.postingRange(key: key) {
                let posting = Posting(raw: index.postings[p])
                guard posting.role != .field, allowed(posting, restriction) else { continue }
                let matchClass: MatchClass
                if wholeMatches {
                    matchClass = posting.role == .laterWord ? .laterWordPrefix : posting.role == .firstWord ? .namePrefix : .exact
                } else {
                    matchClass = wordClass!
                }
                record(posting, matchClass, queryTransliterated: false, into: hits)
            }
        }
    }
}

/// A `*` and `?` pattern, made once for a query's term and matched against the UTF-8
/// bytes of each candidate key (and of its words) where they lie in the index: no key is
/// copied or decoded. `?` stands for one scalar, whatever its length in bytes.
struct Glob {
    /// The literals' bytes, `anyOne` for `?`, `anyRun` for `*` (never two in a row).
    private let pattern: [UInt16]
    /// Bytes a text must have at least: the literals', and one for each `?`.
    private let minimumBytes: Int
    /// Bytes it may have at most (nil with a `*`): the literals', and four for each `?`.
    private let maximumBytes: Int?
    private static let anyOne: UInt16 = 0x100
    private static let anyRun: UInt16 = 0x101

    init(_ pieces: [WildcardPiece]) {
        var pattern: [UInt16] = []
        for piece in pieces {
            switch piece {
            case .literal(let scalars):
                for scalar in scalars.compactMap(Unicode.Scalar.init) { pattern.append(contentsOf: UTF8.encode(scalar)!.map(UInt16.init)) }
            case .anyOne: pattern.append(Self.anyOne)
            case .anyRun: if pattern.last != Self.anyRun { pattern.append(Self.anyRun) }
            }
        }
        self.pattern = pattern
        let literalBytes = pattern.count { $0 < Self.anyOne }, anyOnes = pattern.count { $0 == Self.anyOne }
        minimumBytes = literalBytes + anyOnes
        maximumBytes = pattern.contains(Self.anyRun) ? nil : literalBytes + 4 * anyOnes
    }

    /// Whether a word of `text` could match: it has one at least as long as the pattern needs.
    func mayMatchAWordOf(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count > minimumBytes && text.contains(0x20)
    }

    /// Whether `text` matches, each step taken from `steps` (a text too short or too long is
    /// told without any; greedy with backtracking to the last `*`, at most text × pattern
    /// steps).
    func matches(_ text: UnsafeBufferPointer<UInt8>, steps: inout Int) -> Bool {
        guard text.count >= minimumBytes, maximumBytes.map({ text.count <= $0 }) ?? true else { return false }
        var p = 0, t = 0
        var star = -1, mark = 0
        while t < text.count {
            steps -= 1
            if steps < 0 { return false }
            let element = p < pattern.count ? pattern[p] : Self.anyRun &+ 1
            if element == Self.anyOne {
                p += 1; t += Self.scalarLength(text[t])
            } else if element < Self.anyOne && UInt8(element) == text[t] {
                p += 1; t += 1
            } else if element == Self.anyRun {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += Self.scalarLength(text[mark]); t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == Self.anyRun { p += 1 }
        return t == text.count && p == pattern.count
    }

    /// The bytes of the scalar a UTF-8 lead byte starts (1 for a stray continuation byte).
    @inline(__always) private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
