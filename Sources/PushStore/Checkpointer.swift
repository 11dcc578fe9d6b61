import CSQLite
import Foundation
import Synchronization

/// Copies the WAL back into the database file on a thread and a connection of its own, so a
/// commit never waits for a checkpoint's fsyncs.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1000 pages: that
/// commit's acknowledgement, and every one queued behind it, waited 15–30 ms here for two fsyncs
/// (the paced benchmark's ack p99 was 12.9 ms). Here the writer's connection has no automatic
/// checkpoint; its WAL hook (`attach(to:)`) wakes this thread instead, which runs PASSIVE
/// checkpoints: they copy what is committed and sync, and never take the writer's lock.
///
/// One sync stays with the writer: once a checkpoint has copied every frame, the next commit
/// starts the WAL over and SQLite syncs the new WAL header in that commit (a must for power-loss
/// safety). That is why the thread waits for `wakeBytes` of pages (16 MiB) rather than SQLite's 1000:
/// the restarts, each a small fsync on a quiet disk (the thread has just synced), are rare enough
/// (about one a second at a paced 1000 pushes/s) for the ack p99 to stay under 1 ms.
///
/// A PASSIVE checkpoint cannot start the WAL over while commits keep arriving faster than it
/// copies (a bulk load): once the WAL passes `writerBytes` of pages the writer copies what is left
/// itself, a few milliseconds, after which the next commit starts the WAL over.
final class Checkpointer: Sendable {
    /// WAL bytes after which a commit wakes the thread.
    static let wakeBytes = 16 << 20
    /// WAL bytes after which the writer checkpoints the rest itself, so the WAL starts over.
    static let writerBytes = 4 * wakeBytes
    /// The two in pages of the database's size (SQLite's WAL hook counts pages).
    let wakeLimit: Int32
    let writerLimit: Int32

    private struct State {
        var requested = false
        var stopping = false
        var completed = 0
        var failure: SQLiteError?
        /// A failure not yet handed out by `takeNewFailure()`.
        var unreported: SQLiteError?
    }

    private let path: String
    private let synchronousPragma: String
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the thread for the database at `path`, whose pages are `pageSize` bytes;
    /// `synchronousPragma` is the writer's, since a checkpoint syncs (or not) by the setting of
    /// the connection that runs it.
    init(path: String, synchronousPragma: String, pageSize: Int) {
        self.path = path
        self.synchronousPragma = synchronousPragma
        wakeLimit = Int32(Self.wakeBytes / max(512, pageSize))
        writerLimit = Int32(Self.writerBytes / max(512, pageSize))
        Thread { [self] in
            // Its name in `top -H`, `perf` and /proc/…/comm (Linux keeps 15 bytes of it).
            Thread.current.name = "pushdeck wal"
            run()
        }.start()
    }

    /// Checkpoints finished so far, for tests.
    var completed: Int { state.withLock { $0.completed } }

    /// The last checkpoint's failure, if it failed; the next one may still succeed.
    var failure: SQLiteError? { state.withLock { $0.failure } }

    /// A failure since the last call, once, for the log (nil when there was none).
    func takeNewFailure() -> SQLiteError? {
        state.withLock { state in
            defer { state.unreported = nil }
            return state.unreported
        }
    }

    /// Replaces the automatic checkpoint of the writer's `connection` with this thread. The hook
    /// holds this object unretained: `detach(from:)` before the checkpointer goes away.
    func attach(to connection: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(connection, { context, connection, _, pages in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue()
            if pages >= checkpointer.writerLimit {
                // BUSY while the thread is at it: fine, the next commit tries again.
                _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if pages >= checkpointer.wakeLimit {
                checkpointer.request()
            }
            return SQLITE_OK
        }, context)
    }

    /// Gives the writer's `connection` back its own hook-less behaviour, before this goes away.
    func detach(from connection: OpaquePointer) {
        sqlite3_wal_hook(connection, nil, nil)
    }

    /// Asks for a checkpoint; one already asked for and not yet started covers this one too.
    func request() {
        let wakeUp = state.withLock { state in
            defer { state.requested = true }
            return !state.requested
        }
        if wakeUp { wake.signal() }
    }

    /// Ends the thread after its current checkpoint and waits for it; the thread's connection is
    /// closed when this returns. Call once.
    func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
        stopped.wait()
    }

    private func run() {
        // Below the loop's priority: on a busy machine the writer and its clients come first.
        // (On Linux the nice value is per thread, and 0 means the calling thread.)
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        let database = openConnection()
        while true {
            wake.wait()
            let stopping = state.withLock { state in
                state.requested = false
                return state.stopping
            }
            if stopping { break }
            guard let database else { continue }
            let result: SQLiteError?
            do {
                try catchUp(database)
                result = nil
            } catch where error.code == SQLITE_BUSY {
                // The writer is checkpointing itself (past `writerLimit`): nothing wrong.
                result = nil
            } catch {
                result = error
            }
            state.withLock { state in
                state.completed += 1
                // A failure that repeats is told once, until a checkpoint works again.
                if let result, result != state.failure { state.unreported = result }
                state.failure = result
            }
        }
        database?.close()
        stopped.signal()
    }

    /// Checkpoints until every frame is in the database file, at most `maxPasses` times. Under a
    /// steady stream of commits one pass never finishes the job (what was committed while it
    /// copied is left), and the WAL starts over only once every frame is copied: it grew past
    /// 100 MB under a gateway load, each restart cutting it to `walSizeLimit` and each regrowth
    /// costing the writer the file system's zeroing of new blocks. What one pass leaves is what
    /// arrived while it ran, so each next pass is shorter; a few catch up with the writer.
    private func catchUp(_ database: Database) throws(SQLiteError) {
        for _ in 0..<Self.maxPasses {
            let (frames, copied) = try database.checkpoint(.passive)
            if copied >= frames || state.withLock({ $0.stopping }) { return }
        }
    }

    /// Passes of one `catchUp`.
    static let maxPasses = 8

    /// The thread's own connection. Without it the thread idles; the writer's own checkpoint at
    /// `writerLimit` still keeps the WAL bounded. Never created: the thread starts late on a busy
    /// machine (nice 10), and a file removed meanwhile must stay removed — an empty database made
    /// at the path would pass for the one the writer opened.
    private func openConnection() -> Database? {
        do throws(SQLiteError) {
            let database = try Database(path: path, create: false)
            try database.scalar("PRAGMA synchronous = \(synchronousPragma)")
            return database
        } catch {
            state.withLock { state in
                state.failure = error
                state.unreported = error
            }
            return nil
        }
    }
}
