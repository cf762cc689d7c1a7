import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock in nanoseconds (clock_gettime through the vDSO: ~20 ns a read).
@inline(__always) func nowNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds `body` takes.
@inline(__always) func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = nowNanoseconds()
    try body()
    return Double(nowNanoseconds() - start)
}

/// A distribution of timings (or any values), for its order statistics.
struct Samples {
    private(set) var sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var count: Int { sorted.count }
    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var p999: Double { percentile(99.9) }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }

    /// Nearest-rank percentile.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}

/// Resident memory of a process (`self` or a pid) from /proc/PID/status (or another of its
/// files in the same `Name: N kB` form, such as smaps_rollup), in bytes.
func residentBytes(of process: String = "self", field: String = "VmRSS", file: String = "status") -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(process)/\(file)", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) }
        return kilobytes.map { $0 * 1024 }
    }
    return nil
}

/// Whether this machine hands out transparent huge pages (`madvise` or `always`): where it
/// does not, the index cannot land in them and their figures have no goal.
let transparentHugePagesAvailable: Bool = {
    guard let setting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8) else { return false }
    return !setting.contains("[never]")
}()

/// The load average over the last minute, to say how busy the machine was.
func loadAverage() -> Double {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) > 0 ? loads[0] : .nan
}

/// Pins every thread of this process (and the threads it starts later) to `cpus` (a
/// taskset list such as "0"), returning the list it had. Glibc's Swift module has no
/// sched_setaffinity (it needs _GNU_SOURCE), so taskset does it.
@discardableResult
func pinProcess(to cpus: String) throws -> String {
    let pid = "\(getpid())"
    let current = try Processes.run(["taskset", "-c", "-p", pid])
    try Processes.run(["taskset", "-a", "-c", "-p", cpus, pid])
    return current.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? cpus
}
