import Corpus
import Glibc
@testable import Index
import Testing

/// The suffix array answers "which keys contain this text, and where first": exactly what
/// reading every key would answer, and nothing unsafe from a damaged one.
@Suite("Suffix array")
struct SuffixArrayTests {
    /// Texts to look for: pieces (1–8 scalars, from the start, the middle and the end) of
    /// every 1,201st key, Latin and other scripts alike, and texts no key holds.
    static func needles(_ index: IndexSnapshot) -> [[UInt8]] { pieces(index) + absent }

    static let absent = ["zzqz", "ピカチュウピカチュウ", "pikachu pikachu", "x"].map { Array($0.utf8) }

    static func pieces(_ index: IndexSnapshot) -> [[UInt8]] {
        var seen = Set<[UInt8]>()
        var needles: [[UInt8]] = []
        for key in stride(from: 0, to: index.keys.count, by: 1_201) {
            let scalars = Array(index.keyString(key).unicodeScalars)
            for length in 1...min(8, scalars.count) {
                for start in Set([0, (scalars.count - length) / 2, scalars.count - length]) {
                    let needle = Array(String(String.UnicodeScalarView(scalars[start..<(start + length)])).utf8)
                    if seen.insert(needle).inserted { needles.append(needle) }
                }
            }
        }
        return needles
    }

    /// The C library's `memmem` (a GNU extension, which Swift's Glibc module leaves out), looked
    /// up by name: the scan of every key the suffix array is checked against.
    static let memmem = unsafeBitCast(dlsym(nil, "memmem")!,
                                      to: (@convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) -> UnsafeMutableRawPointer?).self)

    /// Against a scan of every key for each text: a sample of the pieces outside a full run.
    @Test(.tags(.exhaustive)) func keysContainingATextAreTheKeysAScanFinds() throws {
        let index = Fixture.engine.index
        // What the array holds: whole and compact names, and keys of fields alone.
        let indexed = (0..<index.keys.count).filter { key in
            let roles = index.postingRange(key: key).map { Posting(raw: index.postings[$0]).role }
            return roles.contains(.whole) || roles.contains(.compact) || roles.allSatisfy { $0 == .field }
        }
        let ranges = indexed.map { index.keys.range($0) }
        let pieces = Self.pieces(index)
        #expect(pieces.count > 300)
        for needle in Exhaustive.sample(pieces, oneIn: 8) + Self.absent {
            // Further in than the key's start, and anywhere (`keysContaining`, for wildcards).
            var found: [(key: Int, offset: Int)] = []
            var spacesMistold = 0
            index.forEachKeyContaining(needle) { key, offset, afterSpace in
                found.append((key, offset))
                // Told from the byte beside the suffix: the key's own before the occurrence.
                if afterSpace != (index.keys.bytes[index.keys.range(key).lowerBound + offset - 1] == 0x20) { spacesMistold += 1 }
            }
            #expect(spacesMistold == 0, "'\(String(decoding: needle, as: UTF8.self))'")
            found.sort { $0.key < $1.key }
            var expected: [(key: Int, offset: Int)] = []
            var anywhere: [Int] = []
            index.keys.bytes.withUnsafeBufferPointer { bytes in
                needle.withUnsafeBufferPointer { needle in
                    for i in indexed.indices {
                        let start = UnsafeRawPointer(bytes.baseAddress! + ranges[i].lowerBound), count = ranges[i].count
                        guard let first = Self.memmem(start, count, needle.baseAddress, needle.count) else { continue }
                        anywhere.append(indexed[i])
                        // The first occurrence further in than the key's start.
                        if first > start {
                            expected.append((indexed[i], UnsafeRawPointer(first) - start))
                        } else if count > 1, let later = Self.memmem(start + 1, count - 1, needle.baseAddress, needle.count) {
                            expected.append((indexed[i], UnsafeRawPointer(later) - start))
                        }
                    }
                }
            }
            let text = String(decoding: needle, as: UTF8.self)
            #expect(found.map(\.key) == expected.map(\.key) && found.map(\.offset) == expected.map(\.offset),
                    "'\(text)': \(found.count) found, \(expected.count) expected")
            #expect(index.keysContaining(text.unicodeScalars.map(\.value)) == anywhere, "'\(text)' anywhere")
        }
        // A prefix range left out is left out, and the keys holding it further in still come.
        let range = index.keyRange(prefix: Array("pika".utf8))
        var inRange = 0, outside = 0
        index.forEachKeyContaining(Array("pika".utf8), skipping: range) { key, _, _ in
            if range.contains(key) { inRange += 1 } else { outside += 1 }
        }
        #expect(!range.isEmpty && inRange == 0 && outside > 0)
    }

    /// Asked for whole names only, the search reports exactly the keys of whole names among
    /// those it reports otherwise (the mark each suffix carries says what its key's postings
    /// say), so a Latin text passes over names' compact forms and keys of fields alone. (A
    /// sample of the pieces outside a full run.)
    @Test(.tags(.exhaustive)) func wholeNamesOnlyLeavesOutKeysThatAreNoWholeName() {
        let index = Fixture.engine.index
        var left = 0
        for needle in Exhaustive.sample(Self.pieces(index), oneIn: 4) + Self.absent + ["tal", "mega", "che"].map({ Array($0.utf8) }) {
            for laterWords in [true, false] {
                var all: [Int] = [], wholeNames: [Int] = []
                index.forEachKeyContaining(needle, laterWords: laterWords) { key, _, _ in all.append(key) }
                index.forEachKeyContaining(needle, laterWords: laterWords, wholeNamesOnly: true) { key, _, _ in wholeNames.append(key) }
                let expected = all.filter { key in index.postingRange(key: key).contains { Posting(raw: index.postings[$0]).role == .whole } }
                #expect(wholeNames.sorted() == expected.sorted(), "'\(String(decoding: needle, as: UTF8.self))'")
                left += all.count - wholeNames.count
            }
        }
        #expect(left > 1_000)
    }

    /// The bound a query's planning reads from the samples alone holds every occurrence the
    /// full search finds, and overshoots by two blocks at most (a rare text is not priced as a
    /// common one): beyond the occurrences of its first eight bytes, what the samples hold.
    @Test func occurrenceBoundsHoldEveryOccurrenceAndLittleMore() {
        let index = Fixture.engine.index
        let needles = Self.needles(index) + ["che", "mega", "tal", "e", "a"].map { Array($0.utf8) }
        var common = 0
        for needle in needles {
            needle.withUnsafeBufferPointer { needle in
                let found = index.suffixes.suffixes(startingWith: needle)
                let blocks = index.suffixes.sampledBlocks(startingWith: needle)
                let text = String(decoding: needle, as: UTF8.self)
                #expect(found.isEmpty || (blocks.contains(found.lowerBound) && blocks.upperBound >= found.upperBound), "'\(text)'")
                let bound = index.substringOccurrenceBound(needle)
                let head = index.suffixes.suffixes(startingWith: UnsafeBufferPointer(rebasing: needle.prefix(8)))
                #expect(bound >= found.count && bound <= head.count + 2 * SuffixArray.sampleSpacing,
                        "'\(text)': bound \(bound), \(found.count) occurrences")
                if found.count > 10 * SuffixArray.sampleSpacing { common += 1 }
            }
        }
        // Texts held by thousands of keys are among them (the bound's block search gallops).
        #expect(common >= 5)
    }

    /// Occurrences after a space can be left out of a search for a word without spaces
    /// because each is the start of a word of a name, and that word is a key of its own with
    /// the same document, language and transliteration: in the word's prefix range. (A
    /// sample of the pieces outside a full run.)
    @Test(.tags(.exhaustive)) func wordsInsideNamesAreKeysOfTheirOwn() throws {
        let index = Fixture.engine.index
        let needles = (Exhaustive.sample(Self.pieces(index), oneIn: 4) + Self.absent).filter { !$0.contains(0x20) }
            + ["mega", "ter", "ora", "she", "min"].map { Array($0.utf8) }
        var covered = 0
        for needle in needles {
            let text = String(decoding: needle, as: UTF8.self)
            var all = Set<Int>(), withoutLaterWords = Set<Int>()
            var afterSpaceReported = 0
            index.forEachKeyContaining(needle) { key, _, _ in all.insert(key) }
            index.forEachKeyContaining(needle, laterWords: false) { key, _, afterSpace in
                withoutLaterWords.insert(key)
                if afterSpace { afterSpaceReported += 1 }
            }
            #expect(afterSpaceReported == 0 && withoutLaterWords.isSubset(of: all), "'\(text)'")
            // What the prefix range gives as a word of a name: document, language, transliteration.
            var words = Set<UInt32>()
            for key in index.keyRange(prefix: needle) {
                for p in index.postingRange(key: key) {
                    let posting = Posting(raw: index.postings[p])
                    if posting.role == .firstWord || posting.role == .laterWord { words.insert(posting.raw & ~0xE) }
                }
            }
            var uncovered: [String] = []
            for key in all {
                let bytes = Array(index.keys.bytes[index.keys.range(key)])
                let startsAWord = bytes.indices.dropFirst().contains { i in
                    bytes[i - 1] == 0x20 && bytes[i...].starts(with: needle)
                }
                guard startsAWord else { continue }
                for p in index.postingRange(key: key) {
                    let posting = Posting(raw: index.postings[p])
                    guard posting.role == .whole || posting.role == .compact else { continue }
                    if words.contains(posting.raw & ~0xE) { covered += 1 } else { uncovered.append(index.keyString(key)) }
                }
            }
            #expect(uncovered.isEmpty, "'\(text)' after a space in \(uncovered.prefix(3)) without a word key")
        }
        #expect(covered > 1_000)
    }

    /// A key holds a text inside a word exactly where the search without later words finds
    /// it: "ime" inside "mr mime", but "mime" only after a space, and a key it starts, not.
    /// (A word read on a candidate looks inside its names so, as matching in full does.)
    @Test func offsetInsideWordIsWhereTheSearchWithoutLaterWordsFindsIt() throws {
        let index = Fixture.engine.index
        let mrMime = try #require(index.prefixNode(Array("mr mime".utf8)).flatMap { index.keyEqualToPrefix(of: $0, length: 7) })
        func offset(_ text: String, _ key: Int) -> Int? {
            Array(text.utf8).withUnsafeBufferPointer { index.offsetInsideWord(of: $0, in: key) }
        }
        #expect(offset("ime", mrMime) == 4 && offset("mime", mrMime) == nil && offset("mr", mrMime) == nil)
        for needle in ["ime", "mega", "ter", "ora", "she", "chu", "spe"].map({ Array($0.utf8) }) {
            var found: [Int: Int] = [:], all = Set<Int>()
            index.forEachKeyContaining(needle) { key, _, _ in all.insert(key) }
            index.forEachKeyContaining(needle, laterWords: false) { key, offset, _ in found[key] = min(found[key] ?? .max, offset) }
            for key in all {
                let inside = needle.withUnsafeBufferPointer { index.offsetInsideWord(of: $0, in: key) }
                #expect(inside == found[key], "'\(String(decoding: needle, as: UTF8.self))' in '\(index.keyString(key))'")
            }
        }
    }

    @Test func suffixesAreSortedByTheirBytesThenKey() {
        let array = Fixture.engine.index.suffixes
        let text = array.text
        var unordered = 0
        text.withUnsafeBytes { text in
            // A suffix reads through its zero and the four bytes of its key index.
            func suffix(_ i: Int) -> UnsafeRawBufferPointer {
                let start = text.baseAddress! + SuffixArray.position(array.starts[i])
                return UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)) + 5)
            }
            for i in 1..<array.count {
                let a = suffix(i - 1), b = suffix(i)
                let c = memcmp(a.baseAddress!, b.baseAddress!, min(a.count, b.count))
                if c > 0 || (c == 0 && a.count >= b.count) { unordered += 1 }
            }
        }
        #expect(array.count > 100_000 && unordered == 0)
    }

    /// Suffixes past the text are refused when a snapshot is read; a text whose zeros or key
    /// indexes are wrong reports nothing it cannot name, and nothing reads past the text.
    @Test func damagedArraysAreRefusedOrReportNothingWrong() {
        // Whole, the same text answers: "bc" and "c", the suffixes of key 0 past its start.
        let whole = SuffixArray(text: Array("abc\0\0\0\0\0".utf8), starts: [1, 2])
        var occurrences: [[Int]] = []
        Array("c".utf8).withUnsafeBufferPointer { needle in
            whole.forEachOccurrence(of: needle, keyCount: 1) { occurrences.append([$0, $1]); _ = $2 }
        }
        #expect(whole.isConsistent && occurrences == [[0, 1]])
        #expect(!SuffixArray(text: Array("abc\0\0\0\0\0".utf8), starts: [9]).isConsistent)
        let cases: [(text: [UInt8], starts: [UInt32])] = [
            (Array("abc".utf8), [0, 1, 2]),                  // no zero
            (Array("abc\0\0\0".utf8), [0, 1, 2]),            // a key index cut short
            (Array("abc\0\u{7F}\0\0\0".utf8), [0, 1, 2]),    // a key index past the keys
            (Array("abc\0\0\0\0\0".utf8), [2, 0, 1]),        // out of order
        ]
        for (text, starts) in cases {
            let array = SuffixArray(text: text, starts: starts)
            #expect(array.isConsistent)
            for needle in ["a", "b", "c", "abc", "abcd", "zz"] {
                var reported: [(Int, Int)] = []
                Array(needle.utf8).withUnsafeBufferPointer { needle in
                    array.forEachOccurrence(of: needle, keyCount: 1) { reported.append(($0, $1)); _ = $2 }
                }
                #expect(reported.allSatisfy { $0.0 == 0 && $0.1 <= 3 }, "\(text) '\(needle)': \(reported)")
            }
        }
    }
}
