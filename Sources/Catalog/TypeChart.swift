import Corpus

/// The type chart: how much damage each attacking type does to each defending type, and
/// what that makes of a Pokémon's one or two types.
public struct TypeChart: Sendable {
    /// Attacking type → defending type → percent (0, 50, 100, 200); pairs not listed are 100.
    public let efficacy: [String: [String: Int]]
    /// The types that take part in the chart, in id order.
    public let types: [String]

    public init(corpus: Corpus) {
        efficacy = corpus.typeEfficacy
        types = corpus.types.sorted { $0.id < $1.id }.map(\.slug).filter { corpus.typeEfficacy[$0] != nil }
    }

    /// Damage in percent of `attacking` against a Pokémon of `defending` types: the
    /// factors multiply (200 × 200 → 400, 50 × 50 → 25).
    public func percent(attacking: String, defending: [String]) -> Int {
        defending.reduce(100) { total, type in total * (efficacy[attacking]?[type] ?? 100) / 100 }
    }

    /// Every attacking type's damage against `defending`, in chart order.
    public func defensive(_ defending: [String]) -> [TypeMatchup] {
        types.map { TypeMatchup(type: $0, percent: percent(attacking: $0, defending: defending)) }
    }

    /// `attacking`'s damage against each single type, in chart order.
    public func offensive(_ attacking: String) -> [TypeMatchup] {
        types.map { TypeMatchup(type: $0, percent: percent(attacking: attacking, defending: [$0])) }
    }
}

/// One type and a damage factor in percent (the other type is implied by the question).
public struct TypeMatchup: Sendable, Equatable {
    public var type: String
    public var percent: Int

    /// "x4", "x2", "x1", "x1/2", "x1/4", "x0".
    public var label: String {
        switch percent {
        case 0: return "x0"
        case let p where p >= 100 && p % 100 == 0: return "x\(p / 100)"
        case let p: return "x1/\(100 / p)"
        }
    }
}

extension Array where Element == TypeMatchup {
    /// The matchups other than x1, grouped by factor, strongest first.
    public var groupedByFactor: [(label: String, types: [String])] {
        let factors = Set(map(\.percent)).subtracting([100]).sorted(by: >)
        return factors.map { factor in
            let group = filter { $0.percent == factor }
            return (group[0].label, group.map(\.type))
        }
    }
}
