import CTrie
import Glibc

/// Every suffix of the keys that substring search reads (whole names, their compact forms,
/// and keys of fields alone), one at each scalar but the first, sorted byte-wise: the keys
/// containing a text further in than their start are then the suffixes starting with it,
/// one range found by binary search, each telling where the text occurs, so that no
/// candidate needs reading to verify it. (Keys starting with a text are the trie's key
/// range: every caller has it already, and leaving those suffixes out saves a tenth.)
///
/// The keys are copied into one text, each followed by a zero byte (which no folded key
/// holds) and its key index (four bytes, big-endian). A suffix is a position in that text
/// and reads up to the zero: a comparison needs no key table, and equal suffixes sort by
/// the key index after the zero.
public struct SuffixArray: Sendable {
    public let text: [UInt8]
    /// Where each suffix starts in `text` (`position`), in sorted order, its top bit set
    /// where its key is no whole name (`notWholeName`).
    public let starts: [UInt32]

    /// The bit of a start whose key is no whole name as written: only names' compact forms,
    /// or fields. A Latin text inside such a key is inside no name (`Posting.holdsInside`),
    /// so substring search for one passes over it without reading the text there (most
    /// occurrences of a Latin piece are in compact forms, which repeat their names').
    static let notWholeName: UInt32 = 1 << 31

    /// Where a suffix starts in `text`, from its entry in `starts`.
    @inline(__always) static func position(_ start: UInt32) -> Int { Int(start & ~notWholeName) }

    /// The first eight bytes (big-endian) of every `sampleSpacing`th suffix: a small array
    /// that a lookup searches first, so that only two blocks of the large one are read.
    let sampleHeads: [UInt64]
    static let sampleSpacing = 32

    public init(text: [UInt8], starts: [UInt32]) {
        let sampleHeads = text.withUnsafeBufferPointer { text in
            stride(from: 0, to: starts.count, by: Self.sampleSpacing).map { Self.head(text, from: Self.position(starts[$0])) }
        }
        self.init(text: text, starts: starts, sampleHeads: sampleHeads)
    }

    /// With the sample heads as stored: computing them reads 30,000 scattered places of the
    /// text, a millisecond of a one-shot command's start.
    init(text: [UInt8], starts: [UInt32], sampleHeads: [UInt64]) {
        self.text = text
        self.starts = starts
        self.sampleHeads = sampleHeads
    }

    /// The eight bytes of `bytes` from `start`, zeros past its end, as one big-endian
    /// integer: what the first comparisons of suffixes (and of a needle with them) read.
    @inline(__always) static func head(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64 {
        head(bytes, from: start, upTo: bytes.count)
    }

    /// The same for the bytes from `start` up to `end` (a key among others, which sort
    /// byte-wise by these integers first: zeros past a key's end put it before any key it
    /// starts).
    @inline(__always) static func head(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, upTo end: Int) -> UInt64 {
        if start >= 0 && start + 8 <= end {
            return UInt64(bigEndian: UnsafeRawPointer(bytes.baseAddress! + start).loadUnaligned(as: UInt64.self))
        }
        var head: UInt64 = 0
        for j in start..<(start + 8) { head = head << 8 | UInt64(j < end ? bytes[j] : 0) }
        return head
    }

    public var count: Int { starts.count }
    public var byteSize: Int { text.count + starts.count * 4 + sampleHeads.count * 8 }

    /// Whether a key with these postings is one the array holds: a whole or compact name, or
    /// a key of fields alone (with the words of names, substrings of whole names, every key
    /// is then reached from a key held here, which the two-edit typo search needs,
    /// `TypoSearch.runExactTail`).
    static func holds(_ postings: some Sequence<UInt32>) -> Bool {
        var isWholeName = false, fieldsOnly = true
        for raw in postings {
            if Posting.isWholeName(raw) { isWholeName = true }
            if Posting(raw: raw).role != .field { fieldsOnly = false }
        }
        return isWholeName || fieldsOnly
    }

    /// The suffixes of the keys of `pool` it holds (see `holds`), sorted: by their first four
    /// bytes (a radix sort, a byte a pass, skipping bytes all share), then each run sharing
    /// those (a few suffixes, mostly) by the first eight bytes as one big-endian integer and
    /// the rest.
    static func build(_ pool: StringPool, postingStart: [UInt32], postings: [UInt32]) -> SuffixArray {
        typealias Suffix = (head: UInt64, start: UInt32, length: UInt32)
        var text: [UInt8] = []
        text.reserveCapacity(pool.bytes.count + pool.count * 5 + 8)
        // (A start with its key's `notWholeName` bit: positions fit in the other 31.)
        var spans: [(start: UInt32, length: UInt32)] = []
        spans.reserveCapacity(pool.bytes.count)
        precondition(pool.bytes.count + pool.count * 5 < Int(notWholeName), "keys too large for a suffix array")
        pool.bytes.withUnsafeBufferPointer { bytes in
            for key in 0..<pool.count {
                let keyPostings = postings[Int(postingStart[key])..<Int(postingStart[key + 1])]
                guard holds(keyPostings) else { continue }
                let flag = keyPostings.contains { Posting(raw: $0).role == .whole } ? 0 : notWholeName
                let range = pool.range(key)
                let first = text.count
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                let end = text.count
                text.append(0)
                withUnsafeBytes(of: UInt32(key).bigEndian) { text.append(contentsOf: $0) }
                // Through the zero and the key index: the bytes that order it.
                for start in range.dropFirst() where bytes[start] & 0xC0 != 0x80 {
                    let at = first + start - range.lowerBound
                    spans.append((UInt32(at) | flag, UInt32(end + 5 - at)))
                }
            }
        }
        var suffixes = [Suffix](repeating: (0, 0, 0), count: spans.count)
        var other = suffixes
        text.withUnsafeBufferPointer { text in
            suffixes.withUnsafeMutableBufferPointer { suffixes in
                other.withUnsafeMutableBufferPointer { other in
                    // How many heads have each value of each of their first four bytes (pass p
                    // sorts by the byte at bit 32 + 8p: the lowest of them first).
                    let counts = UnsafeMutablePointer<Int>.allocate(capacity: 4 * 256)
                    let next = UnsafeMutablePointer<Int>.allocate(capacity: 256)
                    defer { counts.deallocate(); next.deallocate() }
                    counts.initialize(repeating: 0, count: 4 * 256)
                    for (i, span) in spans.enumerated() {
                        let head = Self.head(text, from: Self.position(span.start))
                        suffixes[i] = (head, span.start, span.length)
                        for pass in 0..<4 { counts[pass << 8 | Int(truncatingIfNeeded: head >> UInt64(32 + 8 * pass)) & 0xFF] += 1 }
                    }
                    var (from, to) = (suffixes, other)
                    for pass in 0..<4 {
                        let shift = UInt64(32 + 8 * pass)
                        let passCounts = counts + pass << 8
                        if (0..<256).contains(where: { passCounts[$0] == from.count }) { continue }
                        next[0] = 0
                        for digit in 1..<256 { next[digit] = next[digit - 1] + passCounts[digit - 1] }
                        for suffix in from {
                            let digit = Int(truncatingIfNeeded: suffix.head >> shift) & 0xFF
                            to[next[digit]] = suffix
                            next[digit] += 1
                        }
                        swap(&from, &to)
                    }
                    if from.baseAddress != suffixes.baseAddress { _ = suffixes.update(fromContentsOf: from) }
                    // Past equal heads, both suffixes are longer than eight bytes (each ends in
                    // its zero and a key index of its own), and differ at the latest at the
                    // shorter one's zero.
                    var i = 0
                    while i < suffixes.count {
                        var j = i + 1
                        while j < suffixes.count && suffixes[j].head >> 32 == suffixes[i].head >> 32 { j += 1 }
                        if j - i > 1 {
                            var run = UnsafeMutableBufferPointer(rebasing: suffixes[i..<j])
                            run.sort { a, b in
                                if a.head != b.head { return a.head < b.head }
                                let count = Int(min(a.length, b.length)) - 8
                                guard count > 0 else { return a.start < b.start } // (not reached: see above)
                                return memcmp(text.baseAddress! + Self.position(a.start) + 8, text.baseAddress! + Self.position(b.start) + 8,
                                              count) < 0
                            }
                        }
                        i = j
                    }
                }
            }
        }
        return SuffixArray(text: text, starts: suffixes.map(\.start))
    }

    /// Calls `body` with the key, the length from there to the key's end and the byte before
    /// of every suffix starting with `needle` (each occurrence of it in an indexed key), in
    /// suffix order. The byte before is the key's own where the occurrence is further in than
    /// its start (the text holds the keys as they are), read beside the suffix rather than from
    /// the key. Keys are below `keyCount`, which a damaged snapshot could otherwise break.
    func forEachOccurrence(of needle: UnsafeBufferPointer<UInt8>, keyCount: Int,
                           _ body: (_ key: Int, _ suffixLength: Int, _ byteBefore: UInt8) -> Void) {
        forEachOccurrence(in: suffixes(startingWith: needle), needleLength: needle.count, keyCount: keyCount, body)
    }

    /// The blocks of suffixes that hold those starting with `needle`, found in the sample
    /// heads alone (a small array): between the last sample whose head is below the
    /// needle's and the first whose head is above. Empty for a needle no suffix can start with.
    func sampledBlocks(startingWith needle: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        guard needle.count > 0, !starts.isEmpty, memchr(needle.baseAddress!, 0, needle.count) == nil else { return 0..<0 }
        // The needle's first eight bytes as samples are read, and which of them it has.
        let needleHead = Self.head(needle, from: 0)
        let headMask: UInt64 = needle.count >= 8 ? .max : ~(UInt64.max >> UInt64(needle.count * 8))
        return sampleHeads.withUnsafeBufferPointer { samples in
            var low = 0, high = samples.count
            while low < high {
                let mid = (low + high) >> 1
                if samples[mid] & headMask < needleHead { low = mid + 1 } else { high = mid }
            }
            // The samples with the needle's head follow: few for most needles, so found by
            // galloping from there rather than by a second search of them all.
            var known = low, probe = low, step = 1
            while probe < samples.count && samples[probe] & headMask <= needleHead {
                known = probe + 1
                probe += step
                step <<= 1
            }
            var above = known
            high = min(probe, samples.count)
            while above < high {
                let mid = (above + high) >> 1
                if samples[mid] & headMask <= needleHead { above = mid + 1 } else { high = mid }
            }
            return max(0, low - 1) * Self.sampleSpacing..<min(above * Self.sampleSpacing, starts.count)
        }
    }

    /// The suffixes starting with `needle`: positions in sorted order, as many as it has
    /// occurrences (a caller can size its tables before reading them).
    func suffixes(startingWith needle: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let blocks = sampledBlocks(startingWith: needle)
        guard !blocks.isEmpty else { return 0..<0 }
        return text.withUnsafeBufferPointer { text in
            starts.withUnsafeBufferPointer { starts in
                let base = text.baseAddress!
                // Below zero, zero or above as suffix i sorts before the needle, starts
                // with it, or sorts after it. A suffix shorter than the needle differs
                // from it at its zero at the latest.
                @inline(__always) func order(_ i: Int) -> Int32 {
                    let start = min(Self.position(starts[i]), text.count)
                    let available = text.count - start
                    let c = memcmp(base + start, needle.baseAddress!, min(available, needle.count))
                    return c != 0 ? c : available < needle.count ? -1 : 0
                }
                var first = blocks.lowerBound
                var bound = blocks.upperBound
                // A search of one or two blocks reads some six suffixes, each a miss of
                // its own in turn when the caches are cold (the starts are read first):
                // all of theirs are asked for at once, so they wait for memory together.
                if bound - first <= 2 * Self.sampleSpacing {
                    for i in first..<bound { pokesearch_prefetch(base + min(Self.position(starts[i]), text.count - 1)) }
                }
                while first < bound {
                    let mid = (first + bound) >> 1
                    if order(mid) < 0 { first = mid + 1 } else { bound = mid }
                }
                // The suffixes starting with it follow: gallop to the first that does not.
                guard first < starts.count, order(first) == 0 else { return 0..<0 }
                var known = first, probe = first + 1, step = 1
                while probe < starts.count && order(probe) == 0 {
                    known = probe
                    probe += step
                    step <<= 1
                }
                var last = known + 1
                bound = min(probe, starts.count)
                while last < bound {
                    let mid = (last + bound) >> 1
                    if order(mid) == 0 { last = mid + 1 } else { bound = mid }
                }
                return first..<last
            }
        }
    }

    /// `forEachOccurrence(of:)` over suffixes found by `suffixes(startingWith:)` for a needle of
    /// `needleLength` bytes; without those after a space when `afterSpaces` is false (told
    /// from the byte before, so a left-out occurrence costs no search for its key's end), nor
    /// those in keys that are no whole name when `wholeNamesOnly` (told from its start).
    func forEachOccurrence(in found: Range<Int>, needleLength: Int, keyCount: Int, afterSpaces: Bool = true, wholeNamesOnly: Bool = false,
                           _ body: (_ key: Int, _ suffixLength: Int, _ byteBefore: UInt8) -> Void) {
        text.withUnsafeBufferPointer { text in
            starts.withUnsafeBufferPointer { starts in
                let base = text.baseAddress!
                for i in found {
                    // The occurrences are scattered over the text: each one's bytes asked for
                    // eight ahead of reading them, their misses overlap (with cold caches,
                    // "meg"'s hundreds of occurrences were as many misses one after another).
                    if i + 8 < found.upperBound { pokesearch_prefetch(base + min(Self.position(starts[i + 8]), text.count - 1)) }
                    if wholeNamesOnly && starts[i] & Self.notWholeName != 0 { continue }
                    // The key index follows the suffix's zero, past the needle (which has none).
                    let start = Self.position(starts[i])
                    if !afterSpaces && start > 0 && start <= text.count && text[start - 1] == 0x20 { continue }
                    guard start + needleLength <= text.count,
                          let zero = memchr(base + start + needleLength, 0, text.count - start - needleLength) else { continue }
                    let end = base.distance(to: zero.assumingMemoryBound(to: UInt8.self))
                    guard end + 5 <= text.count else { continue }
                    var key = 0
                    for j in 1...4 { key = key << 8 | Int(text[end + j]) }
                    if key < keyCount { body(key, end - start, start > 0 ? text[start - 1] : 0) }
                }
            }
        }
    }

    /// Every start inside the text, a sample head for every `sampleSpacing`th suffix. (A
    /// damaged head can only send a lookup to the wrong block: wrong answers, read in bounds.)
    var isConsistent: Bool {
        IndexSnapshot.allBelow(starts, mask: ~Self.notWholeName, shift: 0, text.count)
            && sampleHeads.count == (starts.count + Self.sampleSpacing - 1) / Self.sampleSpacing
    }
}
