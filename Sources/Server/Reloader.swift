import CLinux
import Foundation
import Index

/// Rebuilds the index on a thread of its own and swaps it into the holder (RELOAD, SIGHUP).
/// A reload asked for while one runs starts after it, so that it sees the database as it is
/// then; any number asked for meanwhile share that one.
final class Reloader: @unchecked Sendable {
    private let holder: IndexHolder
    private let databasePath: String
    private let activity: ServerActivity
    private let log: @Sendable (String) -> Void

    /// Guards everything below (hence `@unchecked Sendable`); waiters sleep on it.
    private let condition = NSCondition()
    /// Rebuilds started and finished since the server started: a caller waits for the one
    /// numbered at its request.
    private var started = 0
    private var finished = 0
    private var running = false
    /// A reload was asked for while one ran: it starts when that one ends.
    private var queued = false
    /// The outcome of the last rebuild to finish.
    private var outcome: Result<LoadedIndex, ReloadFailure>?

    init(holder: IndexHolder, databasePath: String, activity: ServerActivity, log: @escaping @Sendable (String) -> Void) {
        self.holder = holder
        self.databasePath = databasePath
        self.activity = activity
        self.log = log
    }

    /// Asks for a reload without waiting for it (SIGHUP).
    func request() { _ = begin() }

    /// Reloads and waits until the new index is in (or the rebuild failed): the caller's
    /// next request runs on it.
    func reloadAndWait() -> Result<LoadedIndex, ReloadFailure> {
        let awaited = begin()
        condition.lock()
        defer { condition.unlock() }
        while finished < awaited { condition.wait() }
        // A later rebuild may have finished too before this thread woke: its index is the
        // one in, newer still than the one asked for.
        return outcome!
    }

    /// Starts a rebuild or queues one; returns the number of the rebuild that answers.
    private func begin() -> Int {
        condition.lock()
        defer { condition.unlock() }
        if running {
            queued = true
            return started + 1
        }
        running = true
        started += 1
        startRebuild()
        return started
    }

    /// Called with the lock held.
    private func startRebuild() {
        Thread.detachNewThread { [self] in
            let result: Result<LoadedIndex, ReloadFailure>
            weak var previous: LoadedIndex?
            do {
                let loaded = try LoadedIndex.reload(databasePath: databasePath)
                previous = holder.replace(with: loaded)
                activity.reloads.add(1, ordering: .relaxed)
                log("reloaded the index: \(loaded.counts.reduce(0) { $0 + $1.count }) entities in \(Int(loaded.loadMilliseconds)) ms")
                result = .success(loaded)
            } catch {
                log("reload failed, still serving the previous index: \(error)")
                result = .failure(ReloadFailure(message: "\(error)"))
            }
            condition.lock()
            finished += 1
            outcome = result
            if queued {
                queued = false
                started += 1
                startRebuild()
            } else {
                running = false
            }
            condition.broadcast()
            condition.unlock()
            handBackFreedPages(once: { previous == nil })
        }
    }

    /// Hands the pages of the rebuild's scratch space and of the previous index back to the
    /// system (or every reload leaves RSS higher), once the requests still answering from
    /// that index (a GET waiting for the database, say) have let it go, in whichever thread's
    /// malloc arena; after at most a few seconds in any case.
    private func handBackFreedPages(once released: () -> Bool) {
        let deadline = monotonicSeconds() + 5
        while !released() && monotonicSeconds() < deadline { usleep(10_000) }
        malloc_trim(0)
    }
}
