import Corpus
import Folding
import Index

extension MatchContext {
    /// The type a folded word names: its slug, or its name in any language ("feu", "feuer").
    func typeNamed(_ value: String) -> UInt8? {
        if let i = index.foldedTypeSlugs.firstIndex(of: value) { return UInt8(i) }
        for doc in docsNamed(value, kind: .type) {
            if let i = index.typeSlugs.firstIndex(of: index.slug(doc)) { return UInt8(i) }
        }
        return nil
    }

    func resolve(_ filter: Filter, position: Int, part: String) throws -> ResolvedFilter {
        switch filter {
        case .kind(let kind): return .kind(UInt8(kind.rank))
        case .type(let value):
            if let t = typeNamed(value) { return .type(t) }
            throw QueryError("unknown type '\(value)' (types: \(index.typeSlugs.joined(separator: " ")))", position: position, part: part)
        case .ability(let value):
            var ids = AbilityMask()
            for id in index.abilityIDsByFoldedSlug[value] ?? [] { ids.insert(UInt16(id)) }
            for doc in docsNamed(value, kind: .ability) { ids.insert(UInt16(index.docID[doc])) }
            guard !ids.isEmpty else {
                throw QueryError("unknown ability '\(value)'", position: position, part: part)
            }
            return .ability(ids)
        case .color(let value):
            guard let i = index.colorSlugs.firstIndex(of: value) else {
                throw QueryError("unknown colour '\(value)' (colours: \(index.colorSlugs.joined(separator: " ")))", position: position, part: part)
            }
            return .color(UInt8(i))
        case .habitat(let value):
            guard let i = index.foldedHabitatSlugs.firstIndex(of: value) else {
                throw QueryError("unknown habitat '\(value)' (habitats: \(index.habitatSlugs.joined(separator: " ")))", position: position, part: part)
            }
            return .habitat(UInt8(i))
        case .flag(let flag):
            switch flag {
            case "legendary": return .flag(.legendary)
            case "mythical": return .flag(.mythical)
            case "baby": return .flag(.baby)
            case "default": return .flag(.isDefault)
            case "mega": return .flag(.mega)
            default: return .favourite
            }
        case .number(let column, let comparison, _): return .number(column, comparison)
        case .id(let comparison): return .id(comparison)
        case .database: preconditionFailure("the engine resolves database filters through SearchOptions.database")
        }
    }

    /// Documents of a kind with a whole name equal to `folded` in any language.
    func docsNamed(_ folded: String, kind: Kind) -> [Int] {
        guard let key = index.keyIndex(Array(folded.utf8)) else { return [] }
        return index.postingRange(key: key).compactMap { p in
            let posting = Posting(raw: index.postings[p])
            guard posting.isWholeName, index.kind(posting.doc) == kind else { return nil }
            return posting.doc
        }
    }

    /// Keeps the documents of `docs` for which `filter` holds (or, `negated`, does not):
    /// one tight loop per filter over its own column, rather than a dispatch per document.
    func apply(_ filter: ResolvedFilter, negated: Bool, to docs: inout [Int32], favourites: Set<Int>) {
        // Compacted in place, the test inlined (through `removeAll(where:)` each document
        // cost a closure call, and a filter over every document dominated a query such as
        // "atk>=70 gen:9").
        @inline(__always) func keep(_ test: (Int) -> Bool) {
            let kept = docs.withUnsafeMutableBufferPointer { docs -> Int in
                var kept = 0
                for i in docs.indices {
                    let doc = docs[i]
                    docs[kept] = doc
                    if test(Int(doc)) != negated { kept += 1 }
                }
                return kept
            }
            docs.removeLast(docs.count - kept)
        }
        switch filter {
        case .type(let t):
            index.docTypes.withUnsafeBufferPointer { types in keep { types[$0 * 2] == t || types[$0 * 2 + 1] == t } }
        case .ability(let ids):
            index.abilityStart.withUnsafeBufferPointer { start in
                index.abilityRefs.withUnsafeBufferPointer { refs in
                    keep { doc in (Int(start[doc])..<Int(start[doc + 1])).contains { ids.contains(refs[$0] & 0x7FFF) } }
                }
            }
        case .color(let c): index.docColor.withUnsafeBufferPointer { colors in keep { colors[$0] == c } }
        case .habitat(let h): index.docHabitat.withUnsafeBufferPointer { habitats in keep { habitats[$0] == h } }
        case .flag(let flag): index.docFlags.withUnsafeBufferPointer { flags in keep { flags[$0] & flag.rawValue != 0 } }
        case .favourite: keep { favourites.contains($0) }
        case .number(let column, let comparison):
            // (A missing number, `Int32.min`, is below every bound but the lowest: left out.)
            let (low, high) = comparison.bounds
            let lowest = max(low, Int(NumericColumn.missing) + 1)
            index.numbers[column.rawValue].withUnsafeBufferPointer { values in
                keep { Int(values[$0]) >= lowest && Int(values[$0]) <= high }
            }
        case .id(let comparison):
            let (low, high) = comparison.bounds
            index.docID.withUnsafeBufferPointer { ids in keep { Int(ids[$0]) >= low && Int(ids[$0]) <= high } }
        case .kind(let k): index.docKind.withUnsafeBufferPointer { kinds in keep { kinds[$0] == k } }
        case .docs(let found): keep { found.contains(Int32($0)) }
        }
    }
}

/// A filter with its value resolved against the index (type slug → type number, …).
/// Payloads are plain values, so testing a document copies nothing.
enum ResolvedFilter {
    case type(UInt8)
    /// Ability ids, as a bitmask over ids (abilities number a few hundred).
    case ability(AbilityMask)
    case color(UInt8)
    case habitat(UInt8)
    case flag(DocFlags)
    case favourite
    case number(NumericColumn, Comparison)
    case id(Comparison)
    case kind(UInt8)
    /// The documents the database found (`DatabaseFilter`).
    case docs(Set<Int32>)
}

/// A set of ability ids below 512, by value.
struct AbilityMask {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    mutating func insert(_ id: UInt16) {
        guard id < 512 else { return }
        withUnsafeMutableBytes(of: &words) { $0.bindMemory(to: UInt64.self)[Int(id >> 6)] |= 1 << UInt64(id & 63) }
    }

    func contains(_ id: UInt16) -> Bool {
        guard id < 512 else { return false }
        return withUnsafeBytes(of: words) { $0.bindMemory(to: UInt64.self)[Int(id >> 6)] & (1 << UInt64(id & 63)) != 0 }
    }

    var isEmpty: Bool { withUnsafeBytes(of: words) { $0.bindMemory(to: UInt64.self).allSatisfy { $0 == 0 } } }
}
