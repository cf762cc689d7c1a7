/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator whose sequence is fixed by
/// its definition. The helpers below are written out rather than taken from the standard
/// library (`Int.random(in:using:)`, `shuffled(using:)`), whose algorithms may change
/// between Swift releases and would silently change the generated workloads.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0), by Lemire's multiply-high reduction.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "empty range")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { below(denominator) < numerator }

    public mutating func pick<C: RandomAccessCollection>(_ collection: C) -> C.Element where C.Index == Int {
        collection[collection.startIndex + below(collection.count)]
    }

    /// Fisher–Yates.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) { array.swapAt(i, below(i + 1)) }
    }

    /// A generator for one named stream, so that adding a stream never shifts another's.
    public static func stream(_ name: String, seed: UInt64) -> SplitMix64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 // FNV-1a
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return SplitMix64(seed: seed ^ hash)
    }
}
