import Foundation
import PushCore
import PushStore

/// Carries out a turn's store writes, on the loop's thread for a small turn and on a thread of
/// its own for a large one, so the loop decodes and reduces the rest of a large turn while the
/// rows before it are inserted.
///
/// A pipelined push spent about two fifths of its time in SQLite (the very insert a batched
/// `Store` load runs) and the rest in the loop (framing, JSON, decoding, the reducer, the
/// reply). One thread did both, so the ingest could never pass two fifths of what SQLite alone
/// stores; here the two halves run on the two cores.
///
/// The rule that keeps this invisible: the store is used by one thread at a time. The loop
/// hands writes over in batches and reads only when the thread has nothing left to do
/// (`settle`), so a lookup sees every write of the turn before it, as before. Each commit has
/// its outcome, taken in the order the commits were handed off (`waitForCommit`): nothing of a
/// turn goes out before its commit is on disk. A small turn (a single request, a one-at-a-time
/// round trip) never involves the thread: its writes and commit run on the loop's thread, with
/// no hand-off to wait for.
///
/// After a failed write the rest of the turn's writes are skipped and its commit fails with
/// that error, as when the loop wrote them itself. After a failed commit every write and commit
/// handed off behind it fails with it too (they were reduced on top of the turn that failed),
/// until the loop has rolled back and reloaded (`clearFailure`).
final class StoreWriter: @unchecked Sendable {
    /// One write of the turn.
    enum Write: Sendable {
        case change(StoreChange)
        /// A push for another instance and its message as the bus publishes it (`Store.addToOutbox`).
        case outbox(RemotePush, body: String)
    }

    /// What the thread is handed: a batch of writes, or the commit of the writes before it.
    private enum Job {
        case writes([Write])
        case commit
    }

    /// Writes a batch gathers before it is handed off: a turn with fewer stays on the loop's
    /// thread (a hand-off can cost two thread wake-ups, more than a few rows).
    static let handOffSize = 32

    /// The store. The thread uses it only between a hand-off and the moment it is idle again;
    /// the loop only while the thread is idle. `condition`'s lock orders the two.
    private let store: Store

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Job] = []
    /// Batches the thread has applied, handed back so that the loop frees them (`freeApplied`).
    private var applied: [[Write]] = []
    /// The outcomes of the commits the thread has finished and nobody has taken yet, oldest first.
    private var outcomes: [(any Error)?] = []
    private var working = false
    private var stopping = false
    private var started = false
    /// Batches handed to the thread so far (what a test checks a large turn used).
    private(set) var handOffs = 0

    // The transaction's state: touched by whichever thread holds the store (see `store`).
    private var inTransaction = false
    private var failure: (any Error)?
    /// The failed commit's error, while writes and commits behind it fail with it.
    private var failedCommit: (any Error)?

    init(store: Store) {
        self.store = store
    }

    // MARK: - On the loop's thread, with the thread idle

    /// Applies `writes` here and now, into the turn's transaction (begun by its first write).
    func apply(_ writes: [Write]) {
        for index in writes.indices {
            guard failure == nil, failedCommit == nil else { return }
            perform(writes[index])
        }
    }

    /// Commits the turn's transaction here and now; returns its error, if it failed.
    func commit() -> (any Error)? {
        finishTransaction()
    }

    /// Ends the failure a failed commit left, once the loop has rolled back what followed it.
    func clearFailure() {
        failedCommit = nil
    }

    // MARK: - Handing over to the thread

    /// Hands `writes` to the thread, with the turn's commit after them when `commit` is true
    /// (`waitForCommit` gives its outcome); they are applied in the order handed.
    func handOff(_ writes: [Write], commit: Bool = false) {
        condition.lock()
        startIfNeeded()
        if !writes.isEmpty { queue.append(.writes(writes)) }
        handOffs += 1
        if commit { queue.append(.commit) }
        condition.signal()
        freeApplied()
        condition.unlock()
    }

    /// Waits for the oldest commit handed off whose outcome nobody has taken; returns its error,
    /// if it failed.
    func waitForCommit() -> (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        while outcomes.isEmpty { condition.wait() }
        freeApplied()
        return outcomes.removeFirst()
    }

    /// Waits until the thread has applied everything handed to it: the store is the loop's again.
    func settle() {
        condition.lock()
        waitUntilIdle()
        condition.unlock()
    }

    /// Ends the thread, once it has done what it was handed.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        waitUntilIdle()
        condition.unlock()
    }

    /// With `condition` locked, on the loop's thread: frees the batches the thread applied.
    /// The loop allocated those writes (their messages, their strings); freed on the thread,
    /// malloc took the loop's arena lock from there, and the two threads contended for it.
    private func freeApplied() {
        if !applied.isEmpty { applied.removeAll(keepingCapacity: true) }
    }

    /// With `condition` locked, on the loop's thread.
    private func waitUntilIdle() {
        while working || !queue.isEmpty { condition.wait() }
        freeApplied()
    }

    /// With `condition` locked: the thread starts at the first hand-off, so a server that never
    /// has a large turn (a test's, a UI's) never has one.
    private func startIfNeeded() {
        guard !started else { return }
        started = true
        Thread { [self] in
            // Its name in `top -H`, `perf` and /proc/…/comm, set from the thread itself (Linux
            // keeps 15 bytes of it).
            Thread.current.name = "pushdeck writer"
            run()
        }.start()
    }

    private func run() {
        condition.lock()
        while true {
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty { break }
            let jobs = queue
            queue.removeAll(keepingCapacity: true)
            working = true
            condition.unlock()
            var batches: [[Write]] = []
            for job in jobs {
                switch job {
                case .writes(let writes):
                    apply(writes)
                    batches.append(writes)
                case .commit:
                    // Its outcome goes out at once: the loop may be waiting to send the turn's replies.
                    let outcome = finishTransaction()
                    condition.lock()
                    outcomes.append(outcome)
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            applied += batches
            working = false
            condition.broadcast()
        }
        condition.unlock()
    }

    // MARK: - The transaction (whichever thread holds the store)

    private func perform(_ write: borrowing Write) {
        do {
            if !inTransaction {
                try store.begin()
                inTransaction = true
            }
            switch write {
            case .change(let change): try store.apply(change)
            case .outbox(let remote, let body): try store.addToOutbox(remote, body: body)
            }
        } catch {
            failure = error
        }
    }

    private func finishTransaction() -> (any Error)? {
        defer {
            inTransaction = false
            failure = nil
        }
        if let failedCommit { return failedCommit }
        guard inTransaction || failure != nil else { return nil }
        do {
            if let failure { throw failure }
            try store.commit()
            return nil
        } catch {
            failedCommit = error
            return error
        }
    }
}
