import CTrie
import Glibc

extension IndexSnapshot {
    /// The byte offset of the first occurrence of `needle` in key `key` inside a word (past
    /// the key's start, not after a space), if any: where `forEachKeyContaining` with
    /// `laterWords` false finds it (a later word's start is that word's own key).
    public func offsetInsideWord(of needle: UnsafeBufferPointer<UInt8>, in key: Int) -> Int? {
        keys.bytes.withUnsafeBufferPointer { bytes in
            let haystack = UnsafeBufferPointer(rebasing: bytes[keys.range(key)])
            var from = 1
            while from + needle.count <= haystack.count,
                  let found = Self.firstOffset(of: needle, in: UnsafeBufferPointer(rebasing: haystack[from...])) {
                if haystack[from + found - 1] != 0x20 { return from + found }
                from += found + 1
            }
            return nil
        }
    }

    /// The byte offset of the first occurrence of `needle` in `haystack`, if any.
    @inline(__always)
    public static func firstOffset(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard needle.count > 0 else { return 0 }
        guard needle.count <= haystack.count else { return nil }
        let first = needle[0]
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first && memcmp(haystack.baseAddress! + i, needle.baseAddress!, needle.count) == 0 { return i }
            i += 1
        }
        return nil
    }

    // MARK: Substrings

    /// Calls `body` with every key containing `needle` (UTF-8) further in than its start,
    /// among those the suffix array holds (whole and compact names, and keys of fields alone,
    /// whose postings are fields, which callers reading names leave out), in no particular
    /// order, once each with the byte offset where it first occurs past the start (but see
    /// `laterWords`) and whether a space comes before it there (it starts a later word);
    /// except keys in `skipping` (a caller's prefix range, whose keys it handles itself).
    ///
    /// With `laterWords` false, occurrences after a space are left out. For a needle without
    /// spaces each of those starts a word of a whole name, and that word is a key of its own
    /// (`KeyRole.laterWord`, same document and language) starting with the needle: in the
    /// prefix range, where it matches in the same class (a later word's prefix). A common
    /// piece ("mega": a word of hundreds of form names) then reads only the names holding it
    /// inside a word. Every occurrence reported is then inside a word, all of a key's alike
    /// (a substring): a key holding the needle twice so (rare) is reported at each, rather
    /// than each key's first found through a table of them all (a fifth of searching
    /// "color:green che": the table cleared, filled and read for its 2,000 occurrences).
    ///
    /// With `wholeNamesOnly`, only keys that are some name as written: not those only of
    /// names' compact forms or of fields, where a Latin needle is inside no name
    /// (`Posting.holdsInside`) and no name's later word starts (a compact form has no spaces).
    public func forEachKeyContaining(_ needle: [UInt8], skipping: Range<Int> = 0..<0, laterWords: Bool = true,
                                     wholeNamesOnly: Bool = false, _ body: (_ key: Int, _ offset: Int, _ afterSpace: Bool) -> Void) {
        needle.withUnsafeBufferPointer {
            forEachKeyContaining($0, skipping: skipping, laterWords: laterWords, wholeNamesOnly: wholeNamesOnly, body)
        }
    }

    /// The same, for bytes in place.
    public func forEachKeyContaining(_ needle: UnsafeBufferPointer<UInt8>, skipping: Range<Int> = 0..<0, laterWords: Bool = true,
                                     wholeNamesOnly: Bool = false, _ body: (_ key: Int, _ offset: Int, _ afterSpace: Bool) -> Void) {
        let found = suffixes.suffixes(startingWith: needle)
        guard !found.isEmpty else { return }
        let afterSpaces = laterWords || needle.contains(0x20)
        @inline(__always) func report(_ key: Int, _ suffixLength: Int, _ afterSpace: Bool) {
            let length = keys.length(key)
            if suffixLength <= length { body(key, length - suffixLength, afterSpace) }
        }
        guard found.count > 1 && afterSpaces else {
            return suffixes.forEachOccurrence(in: found, needleLength: needle.count, keyCount: keys.count,
                                              afterSpaces: afterSpaces, wholeNamesOnly: wholeNamesOnly) { key, suffixLength, byteBefore in
                if !skipping.contains(key) { report(key, suffixLength, byteBefore == 0x20) }
            }
        }
        // A key holding the needle twice is rare: an open-addressing table over the keys (at
        // most half full, sized by the occurrences), each occurrence as key << 32 |
        // (2^31 - 1 - suffix length) << 1 | after a space, keeps each key's first occurrence
        // (the smallest) without sorting them all.
        let bits = Int.bitWidth - (found.count * 2 - 1).leadingZeroBitCount
        let mask = (1 << bits) - 1
        var slots = [UInt64](repeating: .max, count: 1 << bits)
        slots.withUnsafeMutableBufferPointer { slots in
            suffixes.forEachOccurrence(in: found, needleLength: needle.count, keyCount: keys.count,
                                       afterSpaces: afterSpaces, wholeNamesOnly: wholeNamesOnly) { key, suffixLength, byteBefore in
                guard !skipping.contains(key) else { return }
                let occurrence = UInt64(key) << 32 | UInt64(Int32.max - Int32(suffixLength)) << 1 | (byteBefore == 0x20 ? 1 : 0)
                var slot = Int(truncatingIfNeeded: UInt64(key) &* 0x9E37_79B9_7F4A_7C15 >> UInt64(64 - bits)) & mask
                while slots[slot] != .max && slots[slot] >> 32 != UInt64(key) { slot = (slot + 1) & mask }
                slots[slot] = min(slots[slot], occurrence)
            }
            for occurrence in slots where occurrence != .max {
                let low = UInt32(truncatingIfNeeded: occurrence)
                report(Int(occurrence >> 32), Int(Int32.max - Int32(low >> 1)), low & 1 != 0)
            }
        }
    }

    /// At least as many as the occurrences of `needle` in the keys the suffix array holds,
    /// and at most 64 more than those of its first eight bytes: what reading them costs,
    /// found in the array's samples alone.
    public func substringOccurrenceBound(_ needle: UnsafeBufferPointer<UInt8>) -> Int {
        suffixes.sampledBlocks(startingWith: needle).count
    }

    /// Keys the suffix array holds that contain `needle`, sorted, without duplicates: those
    /// starting with it (the prefix range's) and those holding it further in.
    public func keysContaining(_ needle: [UInt32]) -> [Int] {
        let bytes = Array(String(String.UnicodeScalarView(needle.compactMap(Unicode.Scalar.init))).utf8)
        let starting = keyRange(prefix: bytes)
        var keys = starting.filter { SuffixArray.holds(postings[postingRange(key: $0)]) }
        forEachKeyContaining(bytes, skipping: starting) { key, _, _ in keys.append(key) }
        return keys.sorted()
    }

    // MARK: Typos
}
