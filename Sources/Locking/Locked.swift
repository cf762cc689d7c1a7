#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State guarded by a pthread mutex, with the `withLock` of `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux it locks with futex system calls, which ThreadSanitizer does
/// not intercept, so TSan sees no ordering between two `withLock` calls and reports every
/// access inside them as a race. TSan intercepts `pthread_mutex_lock`/`unlock`, so accesses
/// under this lock are ordered for it and a real race (an access outside the lock) still
/// shows. A class, so it can be captured by escaping closures and threads; the mutex lives
/// at a fixed address (a pthread mutex must never move).
public final class Locked<State: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Reached only inside `withLock`, so the lock, not Swift's dynamic exclusivity check
    /// (which doubled the cost of an uncontended `withLock`), keeps accesses apart.
    @usableFromInline @exclusivity(unchecked) var state: State

    public init(_ initial: consuming sending State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        state = initial
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the state while holding the lock. Not reentrant: calling `withLock`
    /// on the same instance from inside `body` deadlocks.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending State) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
