import CSQLite
import Glibc
import PushCore
import PushJSON

/// The inbox kept in SQLite: messages with their raw payloads, read/held/launch state, per-app
/// badges and the settings, all of which survive a restart.
///
/// Writes are grouped by the caller: `begin()`, many `apply(_:)`, `commit()` once per loop turn,
/// and replies go out only after the commit returns. Reads are paged in SQL and never load every
/// row.
///
/// Not Sendable, on purpose: the connection and its statements are C pointers, and one owner —
/// the server's event loop — makes every call. Hand the store to that owner; do not share it.
public final class Store {
    /// The database file, or `:memory:`.
    public let path: String
    public let durability: Durability
    let database: Database
    /// The statements `apply` runs, compiled once at open so a write binds and steps, nothing more.
    private let writes: WriteStatements
    /// Statements of the page queries, by their shape (see `Store+Reading.swift`).
    var pageStatements: [PageShape: Statement] = [:]
    /// Each app's unread count as last set in this transaction (`StoreChange.unread`), written
    /// just before `COMMIT`. The store keeps the count the reducer gives; it never recounts rows.
    /// (Unchecked, as the one below: one owner, accesses never overlap, touched on every push.)
    @exclusivity(unchecked) private(set) var pendingUnread: [String: Int] = [:]
    /// Each app's ledgers as last set in this transaction, written just before `COMMIT`: a
    /// push moves its app's badge, and one row per app per commit beats one per push.
    @exclusivity(unchecked) private(set) var pendingBadges: [String: Badge] = [:]
    /// Checkpoints on a thread of its own; nil for `:memory:` (no WAL) and once closed.
    private var checkpointer: Checkpointer?
    /// Counts the changes that take messages off the list or put older ones on it (delete,
    /// release, a rollback): a view that keeps ids of listed messages starts over when it moves.
    /// Inserts do not count: they only add ids above every id before them.
    public private(set) var listingChanges = 0
    /// Checkpoints the thread has finished, and the last one's failure (for tests).
    var backgroundCheckpoints: (completed: Int, failure: SQLiteError?) {
        (checkpointer?.completed ?? 0, checkpointer?.failure)
    }
    /// The WAL pages after which a commit wakes the checkpoint thread (for tests).
    var checkpointWakePages: Int32? { checkpointer?.wakeLimit }

    /// A failure of the checkpoint thread since the last call, once, for the log: while it lasts
    /// the WAL grows until the writer checkpoints it itself, so nothing is lost, but it is news.
    public func takeCheckpointFailure() -> SQLiteError? {
        checkpointer?.takeNewFailure()
    }
    /// The device and inode the path named when the store was opened (nil for `:memory:`):
    /// a commit into a file that was since deleted or replaced would be acknowledged and lost.
    private var fileIdentity: (device: UInt64, inode: UInt64)?

    /// The page size of a new database: 8 KiB. A gateway's 2.3 KB push is a row that takes a
    /// 4 KiB page to itself (two do not fit), and each row then cost a page split and a page of
    /// WAL to write and copy back; three fit in 8 KiB. Measured on the release server (2 cores):
    /// 2.3 KB socket ingest 48–53 k/s → 76–79 k/s, the APNs gateway +20–40 %; a one-at-a-time
    /// round trip, whose commit writes a few whole pages, ~7 % slower. An existing database keeps
    /// the page size it was made with (SQLite changes it only by rebuilding the file).
    public static let pageSize = 8192

    /// The size the WAL file is cut back to when it starts over: 72 MiB, above the ~64 MiB of
    /// `Checkpointer.writerBytes` frames (and their 24-byte headers), the most a cycle
    /// reaches under a sustained load, when the thread's checkpoints fall behind the writer. A
    /// cut below that made every such cycle grow the file again, and writing past a file's end
    /// costs the writer the file system's allocation and zeroing of each new block (7 % of the
    /// writer's time under a gateway load); only a burst that got past the writer's own
    /// checkpoint leaves a larger file, and that is cut.
    public static let walSizeLimit = 72 << 20

    /// Opens the store at `path`, creating the file when missing and migrating it to the latest
    /// schema. The folder must exist (the caller makes it, with the permissions it wants).
    public convenience init(path: String, durability: Durability = .standard) throws(StoreError) {
        try self.init(opening: path, durability: durability)
    }

    /// A store that keeps nothing on disk (`--memory`): a real SQLite in-memory database, so it
    /// behaves exactly like the file one.
    public static func inMemory() throws(StoreError) -> Store {
        try Store(opening: ":memory:", durability: .processCrash)
    }

    private init(opening path: String, durability: Durability) throws(StoreError) {
        let database: Database
        do throws(SQLiteError) {
            database = try Database(path: path)
        } catch {
            throw .cannotOpen(path: path, error)
        }
        do throws(StoreError) {
            try Self.configure(database, durability: durability)
            self.writes = try Self.attempt(database) { () throws(SQLiteError) in try WriteStatements(database) }
        } catch {
            database.close()
            throw error
        }
        self.path = path
        self.durability = durability
        self.database = database
        if path != ":memory:" {
            var info = stat()
            if stat(path, &info) == 0 { fileIdentity = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        }
        if path != ":memory:", let connection = database.handle {
            let pageSize = (try? database.scalar("PRAGMA page_size")).flatMap { Int($0) } ?? Self.pageSize
            let checkpointer = Checkpointer(path: path, synchronousPragma: durability.synchronousPragma, pageSize: pageSize)
            checkpointer.attach(to: connection)
            self.checkpointer = checkpointer
        }
    }

    deinit { close() }

    /// Finalizes the statements and closes the database. Safe to call more than once; any later
    /// call on the store throws `SQLITE_MISUSE`.
    public func close() {
        // The thread's connection goes first: the last one to close checkpoints and removes the WAL.
        if let checkpointer, let connection = database.handle {
            checkpointer.detach(from: connection)
            checkpointer.stop()
        }
        checkpointer = nil
        pageStatements = [:]
        database.close()
    }

    /// Copies the WAL into the database file and truncates it, waiting for it. The store also
    /// checkpoints on its own, off the writer's thread, every 16 MiB of WAL (see `Checkpointer`).
    public func checkpoint() throws(SQLiteError) {
        try database.checkpoint()
    }

    // MARK: - Transactions

    /// Starts a write transaction, taking the write lock now rather than at the first write.
    public func begin() throws(SQLiteError) { try writes.begin.run() }

    /// Makes everything applied since `begin()` durable (see `Durability`).
    public func commit() throws(SQLiteError) {
        try checkFileIsStillThere()
        try saveUnread()
        try saveBadges()
        try writes.commit.run()
    }

    /// Writes `remote` into the outbox with `body`, its published message (`RemotePush.wireJSON`,
    /// whatever sender it names: the sender is the bus's when it publishes it again), so a
    /// server that publishes it encodes it once for both.
    public func addToOutbox(_ remote: RemotePush, body: String) throws(SQLiteError) {
        try writes.outboxAdd.bind(remote.id, at: 1)
        try writes.outboxAdd.bind(remote.token, at: 2)
        try writes.outboxAdd.bind(body, at: 3)
        try writes.outboxAdd.bind(remote.acceptedAt.millisecondsSince1970, at: 4)
        try writes.outboxAdd.bind(remote.expiresAt.millisecondsSince1970, at: 5)
        try writes.outboxAdd.run()
    }

    /// Throws when the path no longer names the file this store opened (removed, renamed, or
    /// replaced by another file): SQLite would go on writing into the old inode, acknowledged
    /// changes that nobody can read again. A `stat` per commit (a few µs, once per loop turn).
    private func checkFileIsStillThere() throws(SQLiteError) {
        guard let fileIdentity else { return }
        var info = stat()
        let found = stat(path, &info) == 0
        guard !found || UInt64(info.st_dev) != fileIdentity.device || UInt64(info.st_ino) != fileIdentity.inode else { return }
        let what = found ? "replaced by another file" : "deleted or moved"
        throw SQLiteError(
            code: pd_sqlite_readonly_dbmoved(),
            message: "the database file \(path) was \(what) while pushdeck had it open; nothing more is saved "
                + "until pushdeck is restarted (it then opens the file at that path)")
    }

    /// Undoes everything applied since `begin()`. Outside a transaction (SQLite ends one on its
    /// own after some errors) only the store's own bookkeeping is put back.
    public func rollback() throws(SQLiteError) {
        defer {
            listingChanges += 1
            pendingUnread.removeAll()
            pendingBadges.removeAll()
        }
        if database.isInTransaction { try writes.rollback.run() }
    }

    /// True between `begin()` and `commit()`/`rollback()`.
    public var isInTransaction: Bool { database.isInTransaction }

    /// Applies `changes` in one transaction: all or nothing.
    public func write(_ changes: some Sequence<StoreChange>) throws(SQLiteError) {
        try begin()
        do throws(SQLiteError) {
            for change in changes { try apply(change) }
            try commit()
        } catch {
            try? rollback()
            throw error
        }
    }

    // MARK: - Writing

    /// Carries out one change. Call it between `begin()` and `commit()`; outside a transaction
    /// it makes one of its own (correct, but a commit per change is slow).
    public func apply(_ change: StoreChange) throws(SQLiteError) {
        guard database.isInTransaction else {
            try write(CollectionOfOne(change))
            return
        }
        switch change {
        case .insert(let message):
            try insert(message)
        case .expire(let ids):
            for id in ids {
                try writes.expire.bind(id, at: 1)
                try writes.expire.run()
            }
            listingChanges += 1
        case .replace(let message):
            try replace(message)
            listingChanges += 1
        case .markRead(let ids):
            try run(writes.markRead, for: ids)
        case .markAllRead(let app):
            if let app {
                try writes.markAllReadOfApp.bind(app, at: 1)
                try writes.markAllReadOfApp.run()
            } else {
                try writes.markAllRead.run()
            }
        case .delete(let ids):
            listingChanges += 1
            try run(writes.delete, for: ids)
            // Remember the highest id ever deleted, so a deleted newest id is never handed out again.
            if let highest = ids.max() {
                try writes.raiseIdFloor.bind(highest, at: 1)
                try writes.raiseIdFloor.run()
            }
        case .release(let ids):
            listingChanges += 1
            try run(writes.release, for: ids)
        case .setLaunch(let id):
            try writes.clearLaunch.bind(id, at: 1)
            try writes.clearLaunch.run()
            try writes.setLaunch.bind(id, at: 1)
            try writes.setLaunch.run()
        case .badge(let app, let badge):
            pendingBadges[app] = badge
        case .unread(let app, let count):
            pendingUnread[app] = count
        case .reset(let app, let all, let idFloor):
            try reset(app: app, all: all, idFloor: idFloor)
        case .settings(let settings):
            try setting(SettingKey.mode, settings.mode.rawValue)
            try setting(SettingKey.appState, settings.appState.rawValue)
            try setting(SettingKey.dropped, String(settings.dropped))
            try setting(SettingKey.badgeSync, settings.badgeSync ? "true" : "false")
            let policies = JSONObject(settings.badgePolicies.sorted { $0.key < $1.key }.map { (key: $0.key, value: .string($0.value.rawValue)) })
            try setting(SettingKey.badgePolicies, JSON.object(policies).compactText)
            let muted = JSONObject(settings.muted.sorted { $0.key < $1.key }.map { entry in
                (key: entry.key, value: entry.value.map { JSON.number(JSONNumber($0.millisecondsSince1970)) } ?? .null)
            })
            try setting(SettingKey.muted, JSON.object(muted).compactText)
            try setting(SettingKey.quiet, settings.quiet?.description ?? "off")
            try setting(SettingKey.deviceOffline, settings.deviceOffline ? "true" : "false")
        case .device(let device):
            try writes.device.bind(device.token, at: 1)
            try writes.device.bind(device.app, at: 2)
            try writes.device.bind(device.vendor.rawValue, at: 3)
            if let unregisteredAt = device.unregisteredAt {
                try writes.device.bind(unregisteredAt.millisecondsSince1970, at: 4)
            } else {
                try writes.device.bindNull(at: 4)
            }
            try writes.device.bind(device.offline, at: 5)
            try writes.device.bind(device.tags.joined(separator: "\n"), at: 6)
            if let alias = device.alias { try writes.device.bind(alias, at: 7) } else { try writes.device.bindNull(at: 7) }
            try writes.device.bind(device.topics.joined(separator: "\n"), at: 8)
            if let platform = device.platform { try writes.device.bind(platform.rawValue, at: 9) } else { try writes.device.bindNull(at: 9) }
            try writes.device.bind(device.kind.rawValue, at: 10)
            try writes.device.run()
        case .removeDevice(let token):
            try writes.removeDevice.bind(token, at: 1)
            try writes.removeDevice.run()
        case .providerKey(let key):
            try writes.providerKey.bind(key.id, at: 1)
            try writes.providerKey.bind(key.vendor.rawValue, at: 2)
            try writes.providerKey.bind(key.team, at: 3)
            try writes.providerKey.bind(key.appKey, at: 4)
            try writes.providerKey.bind(key.secret, at: 5)
            try writes.providerKey.bind(key.environment?.rawValue, at: 6)
            try writes.providerKey.run()
        case .removeProviderKey(let id):
            try writes.removeProviderKey.bind(id, at: 1)
            try writes.removeProviderKey.run()
        case .getuiRequestId(let app, let requestId, let at):
            try writes.getuiRequestId.bind(app, at: 1)
            try writes.getuiRequestId.bind(requestId, at: 2)
            try writes.getuiRequestId.bind(at.millisecondsSince1970, at: 3)
            try writes.getuiRequestId.run()
            // The ones a day older go (an index range: the few that aged out since the last push).
            try writes.pruneGetuiRequestIds.bind(at.millisecondsSince1970 - Int64(GetuiRequestIds.window * 1000), at: 1)
            try writes.pruneGetuiRequestIds.run()
        case .outboxAdd(let remote):
            try addToOutbox(remote, body: remote.wireJSON(sender: RemotePush.storedSender).compactText)
        case .outboxRemove(let id):
            try writes.outboxRemove.bind(id, at: 1)
            try writes.outboxRemove.run()
        case .busPushSeen(let sender, let id, let at):
            try writes.busSeen.bind(sender, at: 1)
            try writes.busSeen.bind(id, at: 2)
            try writes.busSeen.bind(at.millisecondsSince1970, at: 3)
            try writes.busSeen.run()
            try writes.pruneBusSeen.bind(at.millisecondsSince1970 - Int64(GetuiRequestIds.window * 1000), at: 1)
            try writes.pruneBusSeen.run()
        case .activity(let write):
            try activityWrite(write)
        case .activityUnmatched(let update):
            try activityUnmatchedWrite(update)
        case .broadcastChannel(let channel):
            // Rare (a backend makes a channel per event), so compiled when used.
            let statement = try database.prepare("INSERT OR REPLACE INTO broadcast_channels (id, app, body) VALUES (?1, ?2, ?3)")
            try statement.bind(channel.id, at: 1)
            try statement.bind(channel.app, at: 2)
            try statement.bind(channel.wireJSON.compactText, at: 3)
            try statement.run()
        case .removeBroadcastChannel(let id):
            let statement = try database.prepare("DELETE FROM broadcast_channels WHERE id = ?1")
            try statement.bind(id, at: 1)
            try statement.run()
        }
    }

    /// `reset`: the app's (every app's) messages go, held ones included; the reducer writes the
    /// zeroed unread counts, ledgers and settings in the same transaction. Rare, so its
    /// statements are compiled when used.
    private func reset(app: String?, all: Bool, idFloor: Int64) throws(SQLiteError) {
        listingChanges += 1
        if let app {
            let delete = try database.prepare("DELETE FROM messages WHERE app = ?1")
            try delete.bind(app, at: 1)
            try delete.run()
        } else {
            try database.prepare("DELETE FROM messages").run()
        }
        // Ids keep counting up: a test's "since ID" must not meet a reused id.
        try writes.raiseIdFloor.bind(idFloor, at: 1)
        try writes.raiseIdFloor.run()
        if all {
            try database.prepare("DELETE FROM devices").run()
            try database.prepare("DELETE FROM provider_keys").run()
            try database.prepare("DELETE FROM getui_request_ids").run()
        }
        for table in ["activities", "activity_history", "activity_unmatched", "broadcast_channels"] {
            if let app {
                let delete = try database.prepare("DELETE FROM \(table) WHERE app = ?1")
                try delete.bind(app, at: 1)
                try delete.run()
            } else {
                try database.prepare("DELETE FROM \(table)").run()
            }
        }
    }

    /// A Live Activity: its stored JSON object without the history, and the push its history
    /// gained, if any, as its own row, numbered among all its pushes. Writing the whole history
    /// each push made an update to an activity with 100 behind it cost 9 times an alert (h2load,
    /// debug build). Rows past the newest `historyLimit` go. The statements are compiled at open
    /// and the JSON is written straight into the statement's staged bytes: no text is built,
    /// hashed or copied per push.
    private func activityWrite(_ write: ActivityWrite) throws(SQLiteError) {
        let activity = write.activity
        let statement = writes.activity
        statement.stage(activity.id, at: 1)
        statement.stage(activity.app, at: 2)
        statement.stage(json: activity.wireJSON(at: nil, history: false), at: 3)
        try statement.runStaged()
        guard let newest = write.added else { return }
        let seq = write.seq
        let row = writes.activityHistory
        try row.bind(seq, at: 2)
        row.stage(activity.id, at: 1)
        row.stage(activity.app, at: 3)
        row.stage(json: newest.wireJSON, at: 4)
        try row.runStaged()
        // Until the history is full there is nothing older to let go.
        guard seq > Int64(Activity.historyLimit) else { return }
        let prune = writes.pruneActivityHistory
        try prune.bind(activity.id, at: 1)
        try prune.bind(seq - Int64(Activity.historyLimit), at: 2)
        try prune.run()
    }

    /// A `liveactivity` push that reached no activity; only the newest `unmatchedLimit` are kept.
    private func activityUnmatchedWrite(_ update: ActivityUpdate) throws(SQLiteError) {
        let insert = try database.prepare("INSERT INTO activity_unmatched (app, body) VALUES (?1, ?2)")
        try insert.bind(update.app, at: 1)
        try insert.bind(update.wireJSON.compactText, at: 2)
        try insert.run()
        try database.prepare(
            "DELETE FROM activity_unmatched WHERE seq <= (SELECT max(seq) FROM activity_unmatched) - \(ActivityBook.unmatchedLimit)"
        ).run()
    }

    private func insert(_ message: Message) throws(SQLiteError) {
        let statement = writes.insert
        try statement.bind(message.id, at: 1)
        try statement.bind(message.read, at: 8)
        try statement.bind(message.offline, at: 9)
        try statement.bind(message.launch, at: 10)
        try statement.bind(message.held, at: 11)
        try statement.bind(message.receivedAt.millisecondsSince1970, at: 12)
        statement.stage(message.app, at: 2)
        statement.stage(message.channel.rawValue, at: 3)
        statement.stage(message.title, at: 4)
        statement.stage(message.subtitle, at: 5)
        statement.stage(message.body, at: 6)
        statement.stage(message.url, at: 7)
        statement.stage(message.taskId, at: 13)
        statement.stage(message.msgId, at: 14)
        statement.stage(message.payload, at: 15)
        statement.stage(message.collapseId, at: 16)
        statement.stage(message.threadId, at: 17)
        try statement.bind(message.silent, at: 18)
        statement.stage(message.interruption, at: 19)
        try statement.bind(message.expired, at: 20)
        statement.stage(message.via.rawValue, at: 21)
        statement.stage(message.token, at: 22)
        statement.stage(message.apnsHeaders.isEmpty ? nil : Message.headerText(message.apnsHeaders), at: 23)
        try statement.bind(message.relevance, at: 24)
        statement.stage(message.badgeDirective?.storedText, at: 25)
        try statement.bind(message.timeToLive, at: 26)
        statement.stage(message.callback, at: 27)
        statement.stage(message.fcm?.project, at: 28)
        statement.stage(message.fcm?.messageName, at: 29)
        statement.stage(message.fcm?.optionsText, at: 30)
        try statement.runStaged()
    }

    /// Writes `message` over the stored one with its id (a collapse-id replacement).
    private func replace(_ message: Message) throws(SQLiteError) {
        let statement = writes.replace
        try statement.bind(message.id, at: 1)
        try statement.bind(message.read, at: 7)
        try statement.bind(message.offline, at: 8)
        try statement.bind(message.receivedAt.millisecondsSince1970, at: 9)
        try statement.bind(message.silent, at: 15)
        statement.stage(message.channel.rawValue, at: 2)
        statement.stage(message.title, at: 3)
        statement.stage(message.subtitle, at: 4)
        statement.stage(message.body, at: 5)
        statement.stage(message.url, at: 6)
        statement.stage(message.taskId, at: 10)
        statement.stage(message.msgId, at: 11)
        statement.stage(message.payload, at: 12)
        statement.stage(message.collapseId, at: 13)
        statement.stage(message.threadId, at: 14)
        statement.stage(message.interruption, at: 16)
        statement.stage(message.via.rawValue, at: 17)
        statement.stage(message.token, at: 18)
        statement.stage(message.apnsHeaders.isEmpty ? nil : Message.headerText(message.apnsHeaders), at: 19)
        try statement.bind(message.relevance, at: 20)
        statement.stage(message.badgeDirective?.storedText, at: 21)
        try statement.bind(message.timeToLive, at: 22)
        statement.stage(message.callback, at: 23)
        statement.stage(message.fcm?.project, at: 24)
        statement.stage(message.fcm?.messageName, at: 25)
        statement.stage(message.fcm?.optionsText, at: 26)
        try statement.runStaged()
    }

    /// Runs `statement` once per id.
    private func run(_ statement: Statement, for ids: [Int64]) throws(SQLiteError) {
        for id in ids {
            try statement.bind(id, at: 1)
            try statement.run()
        }
    }

    // MARK: - Counts

    /// Writes the unread counts set in this transaction, one row per app (none for 0).
    private func saveUnread() throws(SQLiteError) {
        for (app, count) in pendingUnread {
            if count > 0 {
                try writes.saveUnread.bind(app, at: 1)
                try writes.saveUnread.bind(count, at: 2)
                try writes.saveUnread.run()
            } else {
                try writes.dropUnread.bind(app, at: 1)
                try writes.dropUnread.run()
            }
        }
        pendingUnread.removeAll(keepingCapacity: true)
    }

    /// Writes the ledgers set in this transaction, one row per app.
    private func saveBadges() throws(SQLiteError) {
        for (app, badge) in pendingBadges {
            let statement = writes.badge
            try statement.bind(app, at: 1)
            try statement.bind(badge.icon, at: 2)
            try statement.bind(badge.server, at: 3)
            try statement.run()
        }
        pendingBadges.removeAll(keepingCapacity: true)
    }

    /// The committed unread counts.
    static func storedUnread(_ database: Database) throws(SQLiteError) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (app, count) in try database.prepare("SELECT app, count FROM unread").rows({ row in
            (row.string(at: 0) ?? "", row.int(at: 1))
        }) {
            counts[app] = count
        }
        return counts
    }

    private func setting(_ key: String, _ value: String) throws(SQLiteError) {
        try writes.setting.bind(key, at: 1)
        try writes.setting.bind(value, at: 2)
        try writes.setting.run()
    }

    // MARK: - Opening

    /// Checks the file is ours (or new), switches on WAL and the durability, and migrates.
    private static func configure(_ database: Database, durability: Durability) throws(StoreError) {
        let path = database.path
        // A second process (or a person with the sqlite3 shell) may hold the lock for a moment.
        try attempt(database) { () throws(SQLiteError) in try database.scalar("PRAGMA busy_timeout = 2000") }

        // Read before writing anything: another program's database must be left as it was.
        // (For a file that is not SQLite at all, this first read fails with SQLITE_NOTADB.)
        let (applicationId, version, objects) = try attempt(database) { () throws(SQLiteError) in
            (
                Int32(try database.scalar("PRAGMA application_id") ?? "") ?? 0,
                Int(try database.scalar("PRAGMA user_version") ?? "") ?? 0,
                Int(try database.scalar("SELECT count(*) FROM sqlite_schema") ?? "") ?? 0
            )
        }
        let fresh = applicationId == 0 && version == 0 && objects == 0
        guard fresh || applicationId == Schema.applicationId else { throw .foreignDatabase(path: path) }
        guard version <= Schema.version else {
            throw .newerSchema(path: path, found: version, supported: Schema.version)
        }
        guard !database.isReadOnly else { throw .readOnly(path: path) }

        // Before anything is written: the first write fixes a database's page size.
        if fresh { try attempt(database) { () throws(SQLiteError) in try database.scalar("PRAGMA page_size = \(pageSize)") } }
        let mode = try attempt(database) { () throws(SQLiteError) in
            try database.scalar("PRAGMA journal_mode = WAL")?.lowercased() ?? ""
        }
        // An in-memory database has no file to log beside; it answers "memory", which is fine.
        guard mode == "wal" || (mode == "memory" && path == ":memory:") else {
            throw .journalMode(path: path, got: mode)
        }
        try attempt(database) { () throws(SQLiteError) in
            try database.scalar("PRAGMA synchronous = \(durability.synchronousPragma)")
            // Once a checkpoint lets the WAL start over, cut the file back to this size: a burst
            // must not leave a large file behind for good.
            try database.scalar("PRAGMA journal_size_limit = \(Self.walSizeLimit)")
            try database.scalar("PRAGMA foreign_keys = ON")
        }
        try migrate(database)
    }

    /// Runs the migrations the database has not had yet, in one transaction.
    private static func migrate(_ database: Database) throws(StoreError) {
        try attempt(database) { () throws(SQLiteError) in try database.execute("BEGIN IMMEDIATE") }
        do throws(StoreError) {
            // Read again under the write lock: another process may have migrated meanwhile.
            let version = try attempt(database) { () throws(SQLiteError) in
                Int(try database.scalar("PRAGMA user_version") ?? "") ?? 0
            }
            guard version <= Schema.version else {
                throw .newerSchema(path: database.path, found: version, supported: Schema.version)
            }
            try attempt(database) { () throws(SQLiteError) in
                for migration in Schema.migrations.dropFirst(version) {
                    if migration.hasPrefix(Schema.rebuildChannelCheckMarker) { try Schema.rebuildChannelCheck(database) }
                    try database.execute(migration)
                }
                if version > 0 && version < Schema.pushFieldsVersion { try fillPushFields(database) }
                if version < Schema.version {
                    try database.execute(
                        "PRAGMA user_version = \(Schema.version); PRAGMA application_id = \(Schema.applicationId)")
                }
                try database.execute("COMMIT")
            }
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The held messages of a database from before `Schema.pushFields`: their badge directive and
    /// time to live, decoded from their payloads this once (as the inbox decoded a held one's
    /// payload when it needed them, before they were kept). A payload the decoder no longer takes
    /// keeps neither (+1, the vendor's default), as before.
    private static func fillPushFields(_ database: Database) throws(SQLiteError) {
        let held = try database.prepare("SELECT id, app, channel, payload FROM messages WHERE held = 1")
        let update = try database.prepare("UPDATE messages SET badge_directive = ?2, ttl = ?3 WHERE id = ?1")
        // No size limit: the payload was taken once already.
        let decoder = PushDecoder(maxPayloadBytes: Int.max)
        var rows: [(id: Int64, push: Push)] = []
        while try held.step() {
            let request = PushRequest(
                payloadText: held.string(at: 3) ?? "", app: held.string(at: 1), channel: Channel(rawValue: held.string(at: 2) ?? ""))
            if let push = try? decoder.decode(request) { rows.append((held.int64(at: 0), push)) }
        }
        held.reset()
        for row in rows {
            try update.bind(row.id, at: 1)
            try update.bind(row.push.badge?.storedText, at: 2)
            try update.bind(row.push.timeToLive, at: 3)
            try update.run()
        }
    }

    /// Runs SQLite work of the opening, turning its failures into a `StoreError` naming the file.
    @discardableResult
    private static func attempt<Result>(
        _ database: Database, _ body: () throws(SQLiteError) -> Result
    ) throws(StoreError) -> Result {
        do throws(SQLiteError) {
            return try body()
        } catch {
            let path = database.path
            throw error.code == SQLITE_NOTADB ? .notADatabase(path: path) : .sqlite(path: path, error)
        }
    }
}

extension Store: InboxStore {}
