import Index
import Locking

/// How a term matched a document, as explanations name it (the ranking reads `Position`).
public enum MatchClass: Int, Sendable, Comparable, CaseIterable {
    case exact = 0, namePrefix = 1, laterWordPrefix = 2, substring = 3, field = 4

    public static func < (a: MatchClass, b: MatchClass) -> Bool { a.rawValue < b.rawValue }

    public var label: String {
        switch self {
        case .exact: return "exact"
        case .namePrefix: return "prefix"
        case .laterWordPrefix: return "word-prefix"
        case .substring: return "infix"
        case .field: return "field"
        }
    }

    /// The class of a position (a name's start: a prefix; a later word: a word prefix).
    init(_ position: Position) {
        switch position {
        case .wholeName: self = .exact
        case .nameStart, .namePrefix: self = .namePrefix
        case .laterWholeWord, .laterWordPrefix: self = .laterWordPrefix
        case .substring: self = .substring
        case .field, .fieldAmongTerms: self = .field
        }
    }

    /// The position a hit of this class on a posting of `role` (a `KeyRole` raw value) has,
    /// and whether it is a whole word (a wildcard's hits: a whole key, or one of its words).
    func position(role: UInt32) -> (position: UInt32, whole: Bool) {
        switch self {
        case .exact: return (Position.of(role: role, exact: true), true)
        case .namePrefix: return (Position.namePrefix.rawValue, false)
        case .laterWordPrefix: return (Position.laterWordPrefix.rawValue, false)
        case .substring: return (Position.substring.rawValue, false)
        case .field: return (Position.field.rawValue, false)
        }
    }
}

extension IndexSnapshot {
    /// Where a name key containing a word at byte `offset` matches it: a later word of the
    /// name starting with it (after a space), else inside a word; nil at offset 0 (a prefix
    /// of the key, matched by the prefix range).
    @inline(__always) static func containment(offset: Int, afterSpace: Bool) -> Position? {
        offset == 0 ? nil : afterSpace ? .laterWordPrefix : .substring
    }
}

/// One term's best hit on one document, packed so that a smaller value is a better hit:
/// the ranking's bits of it (`HitRank`: typos, outside the display language, not a whole
/// word, position) | language (4) | role (3) | transliterated (1).
public struct Hit: Sendable, Equatable {
    public let raw: UInt32
    public static let none = Hit(raw: .max)

    init(raw: UInt32) { self.raw = raw }

    /// A hit's bits from the ranking's (`HitRank`) and a posting's low byte (language, role,
    /// transliterated). The loops over postings make hits this way, from each raw posting in
    /// place.
    @inline(__always) static func raw(rank: UInt32, postingByte: UInt32) -> UInt32 {
        rank << 8 | postingByte
    }

    /// The hit on a posting (`raw`) of a key equal to the term (`exact`) or longer.
    @inline(__always) static func raw(posting raw: UInt32, exact: Bool, display: UInt32, typos: UInt32 = 0) -> UInt32 {
        Self.raw(rank: HitRank.of(posting: raw, exact: exact, display: display, typos: typos), postingByte: raw & 0xFF)
    }

    /// The ranking's bits of the hit (`HitRank`).
    var rank: UInt32 { raw >> 8 }
    /// Edits from the term (a weak hit, inside a word of a name in another language, counts
    /// one typo more in the ranking: `isWeak`).
    public var typos: Int { Int(HitRank.edits(rank)) }
    public var isWeak: Bool { HitRank.isWeak(rank) }
    public var position: Position { Position(rawValue: HitRank.position(rank))! }
    public var matchClass: MatchClass { MatchClass(position) }
    public var isWholeWord: Bool { HitRank.isWhole(rank) }
    public var languageMiss: Bool { HitRank.miss(rank) != 0 }
    public var language: Int? { let l = Int((raw >> 4) & 15); return l == Int(Posting.noLanguage) ? nil : l }
    public var role: KeyRole { KeyRole(rawValue: (raw >> 1) & 7)! }
    public var isTransliterated: Bool { raw & 1 != 0 }
}

/// The best hit per document for one term: a dense array (documents are few) plus the
/// list of documents touched, so that building and reading are both O(hits). A value
/// holding raw pointers into memory the pool owns: copying one, keeping it in arrays and
/// passing it around costs no reference counting (a class did: a noticeable share of a
/// two-word completion's time went to counting references to its maps). One query owns a map at a
/// time (the pool hands it from one query to the next), hence the unchecked Sendable.
struct HitMap: @unchecked Sendable {
    let best: UnsafeMutablePointer<UInt32>
    private let touched: UnsafeMutablePointer<Int32>
    private let state: UnsafeMutablePointer<State>

    fileprivate struct State {
        var count = 0
        /// The map leased before this one by the same query (a lease's maps are a list
        /// through the maps themselves: no array to allocate per query).
        var leasedBefore: HitMap?
    }

    fileprivate init(docCount: Int) {
        let capacity = max(docCount, 1)
        best = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        best.initialize(repeating: .max, count: capacity)
        touched = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
    }

    /// Frees the map's memory; it may not be used afterwards.
    fileprivate func deallocate() {
        best.deallocate()
        touched.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var count: Int { state.pointee.count }

    fileprivate var leasedBefore: HitMap? {
        get { state.pointee.leasedBefore }
        nonmutating set { state.pointee.leasedBefore = newValue }
    }

    /// Empties the map for reuse, in O(documents hit).
    func clear() {
        for i in 0..<count { best[Int(touched[i])] = .max }
        state.pointee.count = 0
    }

    @inline(__always) func record(_ doc: Int, _ hit: Hit) {
        let current = best[doc]
        if current == .max {
            let count = state.pointee.count
            touched[count] = Int32(doc)
            state.pointee.count = count + 1
        }
        if hit.raw < current { best[doc] = hit.raw }
    }

    /// The hits, each packed as document << 32 | hit, in the order first hit: each document
    /// once, as `fill(distinct:)` takes them back (a type word's kept hits).
    var packed: [UInt64] {
        docs.map { UInt64(UInt32(bitPattern: $0)) << 32 | UInt64(best[Int($0)]) }
    }

    /// Fills an empty map with hits on distinct documents, packed as `packed` gives them (a
    /// type word's kept hits, thousands, copied in every search naming a type: with no
    /// document seen twice there is nothing to compare).
    func fill(distinct packed: [UInt64]) {
        precondition(isEmpty, "a hit map filled while it holds hits")
        for (i, entry) in packed.enumerated() {
            let doc = Int(truncatingIfNeeded: entry >> 32)
            touched[i] = Int32(truncatingIfNeeded: doc)
            best[doc] = UInt32(truncatingIfNeeded: entry)
        }
        state.pointee.count = packed.count
    }

    /// The documents hit, in the order first hit.
    var docs: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: touched, count: count) }

    @inline(__always) func contains(_ doc: Int) -> Bool { best[doc] != .max }

    @inline(__always) func hit(_ doc: Int) -> Hit? {
        let raw = best[doc]
        return raw == .max ? nil : Hit(raw: raw)
    }

    var isEmpty: Bool { count == 0 }
}

/// Hit maps kept for reuse: a map is a document-sized array (20 KB for the bundled corpus)
/// that a query would otherwise allocate and fill for each term, and only a few documents
/// are touched. A query leases maps and gives them all back when its results are read.
/// Leases are kept too, with their scratch arrays: each was an allocation per query.
final class HitMapPool: Sendable {
    private let docCount: Int
    private struct Idle {
        var maps: [HitMap] = []
        var leases: [QueryLease] = []
    }
    private let idle = Locked<Idle>(Idle())
    /// Maps (and leases) kept idle at most (a burst of concurrent queries frees the rest).
    static let capacity = 16

    init(docCount: Int) { self.docCount = docCount }

    deinit {
        idle.withLock { idle in
            for map in idle.maps { map.deallocate() }
        }
    }

    /// A lease for one query; `QueryLease.release` gives it back with its maps.
    func lease() -> QueryLease {
        idle.withLock { $0.leases.popLast() } ?? QueryLease(pool: self)
    }

    /// Maps waiting for a query (for tests).
    var idleCount: Int { idle.withLock { $0.maps.count } }

    /// Drops the idle leases (each holds the pool): what lets the pool go with its engine.
    func letIdleLeasesGo() {
        idle.withLock { $0.leases.removeAll() } // (an idle lease holds no map: nothing to give back)
    }

    /// A map to fill; give it back (cleared) with `giveBack` once read. A query's maps come
    /// through a lease; a scratch map in one function can be taken and given back directly.
    func take() -> HitMap {
        idle.withLock { $0.maps.popLast() } ?? HitMap(docCount: docCount)
    }

    /// Gives back a map and those leased before it (see `HitMap.leasedBefore`; a scratch
    /// map has none), cleared, under one lock; and the lease that took them, if any.
    func giveBack(_ last: HitMap?, lease: QueryLease? = nil) {
        var next: HitMap? = last
        while let map = next {
            map.clear()
            next = map.leasedBefore
        }
        idle.withLock { idle in
            var next: HitMap? = last
            while let map = next {
                next = map.leasedBefore
                map.leasedBefore = nil
                if idle.maps.count < Self.capacity { idle.maps.append(map) } else { map.deallocate() }
            }
            if let lease, idle.leases.count < Self.capacity { idle.leases.append(lease) }
        }
    }
}

/// What one query holds while it runs: the hit maps it took from the pool, its work budget
/// and scratch arrays the ranking reuses (one object for all, itself reused: each was an
/// allocation per query). One query at a time: a lease changes threads only through the
/// pool's lock.
final class QueryLease: @unchecked Sendable {
    var budget = WorkBudget()
    /// The ranking's term slots and candidate documents, empty while idle, with the
    /// capacity of earlier queries (see `SearchEngine.rank`).
    var slots: [TermSlot] = []
    var candidates: [Int32] = []
    private let pool: HitMapPool
    /// The last map taken; each holds the one taken before it.
    private var lastTaken: HitMap?

    fileprivate init(pool: HitMapPool) {
        self.pool = pool
    }

    /// A query that threw before its results were read still gives its maps back (the
    /// lease itself is then let go).
    deinit {
        if let lastTaken { pool.giveBack(lastTaken) }
    }

    func newMap() -> HitMap {
        let map = pool.take()
        map.leasedBefore = lastTaken
        lastTaken = map
        return map
    }

    /// Gives every map back, and the lease to its pool for another query; neither may be
    /// read afterwards.
    func release() {
        let last = lastTaken
        lastTaken = nil
        budget = WorkBudget()
        pool.giveBack(last, lease: self)
    }
}
