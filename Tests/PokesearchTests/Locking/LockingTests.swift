import Foundation
import Locking
import Testing

@Suite("Locking")
struct LockingTests {
    /// Threads updating shared state through `withLock` lose no update. Under
    /// `--sanitize=thread` this is also the check that TSan sees the lock: with
    /// `Synchronization.Mutex` the same test gets a "Swift access race" report.
    @Test func concurrentUpdatesAreSerialised() {
        let counts = Locked<[Int: Int]>([:])
        let threads = 4, rounds = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                counts.withLock { $0[round % 8, default: 0] += 1 }
                _ = counts.withLock { $0[thread] }
            }
        }
        #expect(counts.withLock { $0.values.reduce(0, +) } == threads * rounds)
    }

    @Test func withLockReturnsAndRethrows() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(value.withLock { $0 += 1; return $0 * 10 } == 20)
        #expect(throws: Refused.self) { try value.withLock { (_: inout Int) throws(Refused) in throw Refused() } }
        #expect(value.withLock { $0 } == 2)
    }
}
