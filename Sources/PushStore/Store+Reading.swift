import CSQLite
import Foundation
import PushCore
import PushJSON

extension Store {
    /// What shape of page query a statement answers; each shape is compiled once.
    struct PageShape: Hashable {
        /// Newer than the bound id (oldest first in SQL), else older than it (newest first).
        var newer: Bool
        var unread: Bool
        var app: Bool
    }

    /// How many ids one lookup statement takes; longer lists are looked up in chunks of this.
    static let idChunk = 64
    private static let idPlaceholders = (1...idChunk).map { "?\($0)" }.joined(separator: ", ")

    // MARK: - Start-up

    /// The inbox as stored: badges, unread counts of delivered messages, settings, the next id,
    /// the held queue (oldest first) and the launch notification. No banner.
    ///
    /// Every query here reads an index or a handful of rows (the unread counts are kept, not
    /// counted), so start-up does not grow with the number of messages.
    public func loadInbox(bannerSeconds: Double = Banner.defaultSeconds) throws(SQLiteError) -> Inbox {
        var badges: [String: Badge] = [:]
        for (app, badge) in try database.prepare("SELECT app, icon, server FROM badges").rows({ row in
            (row.string(at: 0) ?? "", Badge(icon: row.int(at: 1), server: row.int(at: 2)))
        }) {
            badges[app] = badge
        }
        // Within a transaction: the ledgers set so far, not yet written (see `pendingBadges`).
        for (app, badge) in pendingBadges { badges[app] = badge }
        var unread = try Self.storedUnread(database)
        for (app, count) in pendingUnread { unread[app] = count }

        var values: [String: String] = [:]
        for (key, value) in try database.prepare("SELECT key, value FROM settings").rows({ row in
            (row.string(at: 0) ?? "", row.string(at: 1) ?? "")
        }) {
            values[key] = value
        }

        let highestId = try int64(database.prepare("SELECT max(id) FROM messages")) ?? 0
        let idFloor = values[SettingKey.idFloor].flatMap { Int64($0) } ?? 0
        let held = try database.prepare("SELECT \(Schema.messageColumns) FROM messages WHERE held = 1 ORDER BY id")
            .rows(Self.message(from:))
        let launchId = try int64(database.prepare("SELECT max(id) FROM messages WHERE launch = 1"))

        var inbox = Inbox(
            badges: badges, unread: unread.filter { $0.value > 0 }, settings: try Self.settings(from: values),
            nextId: max(highestId, idFloor) + 1, held: held, launchId: launchId, bannerSeconds: bannerSeconds)
        for device in try database.prepare("SELECT token, app, vendor, unregistered_at, offline, tags, alias, topics, platform, kind FROM devices")
            .rows(Self.device(from:))
        {
            inbox.devices[device.token] = device
        }
        for key in try database.prepare("SELECT id, vendor, team, app_key, secret, environment FROM provider_keys")
            .rows(Self.providerKey(from:))
        {
            inbox.providerKeys[key.id] = key
        }
        for body in try database.prepare("SELECT body FROM activities").rows({ row in row.string(at: 0) ?? "" }) {
            guard let activity = (try? JSON.parse(body)).flatMap(Activity.init(stored:)) else {
                throw SQLiteError(code: SQLITE_MISMATCH, message: "a stored Live Activity is not one: \(body.prefix(80))")
            }
            inbox.activities.put(activity)
        }
        for (id, body) in try database.prepare("SELECT activity_id, body FROM activity_history ORDER BY activity_id, seq")
            .rows({ row in (row.string(at: 0) ?? "", row.string(at: 1) ?? "") })
        {
            guard let update = (try? JSON.parse(body)).flatMap(ActivityUpdate.init(stored:)) else {
                throw SQLiteError(code: SQLITE_MISMATCH, message: "a stored Live Activity update is not one: \(body.prefix(80))")
            }
            _ = inbox.activities.byId[id]?.history.append(update, keeping: Activity.historyLimit)
        }
        for body in try database.prepare(
            "SELECT body FROM activity_unmatched ORDER BY seq DESC LIMIT \(ActivityBook.unmatchedLimit)"
        ).rows({ row in row.string(at: 0) ?? "" }).reversed() {
            if let update = (try? JSON.parse(body)).flatMap(ActivityUpdate.init(stored:)) { inbox.activities.note(unmatched: update) }
        }
        for body in try database.prepare("SELECT body FROM broadcast_channels").rows({ row in row.string(at: 0) ?? "" }) {
            guard let channel = (try? JSON.parse(body)).flatMap(BroadcastChannel.init(stored:)) else {
                throw SQLiteError(code: SQLITE_MISMATCH, message: "a stored broadcast channel is not one: \(body.prefix(80))")
            }
            inbox.channels.put(channel)
        }
        // The newest ids (rows older than a day go as pushes are written), recorded oldest first.
        let requestIds = try database.prepare(
            "SELECT app, request_id, seen_at FROM getui_request_ids ORDER BY seen_at DESC LIMIT \(GetuiRequestIds.capacity)"
        ).rows { row in (row.string(at: 0) ?? "", row.string(at: 1) ?? "", Date(millisecondsSince1970: row.int64(at: 2))) }
        for (app, requestId, at) in requestIds.reversed() {
            inbox.getuiRequestIds.record(app: app, requestId: requestId, at: at)
        }
        let busIds = try database.prepare(
            "SELECT sender, push_id, seen_at FROM bus_seen ORDER BY seen_at DESC LIMIT \(GetuiRequestIds.capacity)"
        ).rows { row in (row.string(at: 0) ?? "", row.string(at: 1) ?? "", Date(millisecondsSince1970: row.int64(at: 2))) }
        for (sender, id, at) in busIds.reversed() {
            inbox.busPushIds.record(app: sender, requestId: id, at: at)
        }
        return inbox
    }

    static func device(from row: Statement) throws(SQLiteError) -> Device {
        let token = row.string(at: 0) ?? ""
        guard let vendor = Vendor(rawValue: row.string(at: 2) ?? "") else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "device \(token) has an unknown vendor")
        }
        return Device(
            token: token, app: row.string(at: 1) ?? "", vendor: vendor,
            unregisteredAt: row.isNull(at: 3) ? nil : Date(millisecondsSince1970: row.int64(at: 3)),
            offline: row.bool(at: 4),
            tags: (row.string(at: 5) ?? "").split(separator: "\n").map(String.init), alias: row.string(at: 6),
            topics: (row.string(at: 7) ?? "").split(separator: "\n").map(String.init),
            platform: row.string(at: 8).flatMap(DevicePlatform.init(rawValue:)),
            kind: DeviceKind(rawValue: row.string(at: 9) ?? "") ?? .app)
    }

    static func providerKey(from row: Statement) throws(SQLiteError) -> ProviderKey {
        let id = row.string(at: 0) ?? ""
        guard let vendor = Vendor(rawValue: row.string(at: 1) ?? "") else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "key \(id) has an unknown vendor")
        }
        return ProviderKey(
            id: id, vendor: vendor, team: row.string(at: 2), appKey: row.string(at: 3), secret: row.string(at: 4) ?? "",
            environment: row.string(at: 5).flatMap(APNsEnvironment.init(rawValue:)))
    }

    // MARK: - Lookups

    /// The message with `id`, or nil. Held messages count as absent unless `includeHeld`.
    public func message(id: Int64, includeHeld: Bool = false) throws(SQLiteError) -> Message? {
        try messages(ids: [id], includeHeld: includeHeld).first
    }

    /// The messages with these ids, in the order asked, each once; ids not stored are left out.
    /// Held messages count as absent unless `includeHeld` (they are not delivered yet, so a
    /// read or delete by id must not reach them).
    public func messages(ids: [Int64], includeHeld: Bool = false) throws(SQLiteError) -> [Message] {
        guard !ids.isEmpty else { return [] }
        let statement = try database.prepare(
            "SELECT \(Schema.messageColumns) FROM messages WHERE id IN (\(Self.idPlaceholders))"
                + (includeHeld ? "" : " AND held = 0"))
        var found: [Int64: Message] = [:]
        var start = ids.startIndex
        while start < ids.endIndex {
            let chunk = ids[start..<min(start + Self.idChunk, ids.endIndex)]
            for (offset, id) in chunk.enumerated() { try statement.bind(id, at: Int32(offset + 1)) }
            // NULL never equals an id: the unused slots match nothing.
            for slot in chunk.count..<Self.idChunk { try statement.bindNull(at: Int32(slot + 1)) }
            for message in try statement.rows(Self.message(from:)) { found[message.id] = message }
            start = chunk.endIndex
        }
        var seen = Set<Int64>()
        return ids.compactMap { id in seen.insert(id).inserted ? found[id] : nil }
    }

    // MARK: - Pages

    /// A page of listed (not held) messages, newest first: at most `limit`, older than `before`
    /// when given, only unread ones and only one app's when asked. One indexed SQL query.
    public func page(_ query: ListQuery) throws(SQLiteError) -> [Message] {
        try page(
            PageShape(newer: false, unread: query.unread, app: query.app != nil),
            bound: query.before ?? Int64.max, app: query.app, limit: query.limit)
    }

    /// The `limit` listed messages just newer than `id`, newest first — the page above a
    /// window, for scrolling up through a long inbox.
    public func page(after id: Int64, limit: Int, unread: Bool = false, app: String? = nil) throws(SQLiteError)
        -> [Message]
    {
        try page(PageShape(newer: true, unread: unread, app: app != nil), bound: id, app: app, limit: limit)
            .reversed()
    }

    /// How many listed messages there are (unread only, one app only, when asked).
    public func count(unreadOnly: Bool = false, app: String? = nil) throws(SQLiteError) -> Int {
        // Unread rows are counted here, as listed; the inbox's unread ledger is the reducer's
        // (kept in the `unread` table, read by `loadInbox`).
        let statement = try database.prepare(Self.countSQL(unreadOnly: unreadOnly, app: app != nil, newer: false))
        if let app { try statement.bind(app, at: 2) }
        return Int(try int64(statement) ?? 0)
    }

    /// How many listed messages are newer than `id`: its row (from 0) in the newest-first list,
    /// for "row k of N". Costs a walk over those newer rows, so it is cheap near the top.
    public func countNewer(than id: Int64, unreadOnly: Bool = false, app: String? = nil) throws(SQLiteError)
        -> Int
    {
        let statement = try database.prepare(Self.countSQL(unreadOnly: unreadOnly, app: app != nil, newer: true))
        try statement.bind(id, at: 1)
        if let app { try statement.bind(app, at: 2) }
        return Int(try int64(statement) ?? 0)
    }

    // MARK: - Private

    private func page(_ shape: PageShape, bound: Int64, app: String?, limit: Int) throws(SQLiteError)
        -> [Message]
    {
        // SQLite reads a negative LIMIT as "no limit": never let a bad limit load every row.
        guard limit > 0 else { return [] }
        let statement = try pageStatement(shape)
        try statement.bind(bound, at: 1)
        if let app { try statement.bind(app, at: 2) }
        try statement.bind(limit, at: 3)
        return try statement.rows(Self.message(from:))
    }

    private func pageStatement(_ shape: PageShape) throws(SQLiteError) -> Statement {
        if let statement = pageStatements[shape] { return statement }
        let statement = try database.prepare(Self.pageSQL(shape))
        pageStatements[shape] = statement
        return statement
    }

    /// The page query of `shape`: ?1 the id bound, ?2 the app, ?3 the limit.
    static func pageSQL(_ shape: PageShape) -> String {
        var sql = "SELECT \(Schema.messageColumns) FROM messages WHERE held = 0"
        if shape.unread { sql += " AND read = 0" }
        if shape.app { sql += " AND app = ?2" }
        sql += shape.newer ? " AND id > ?1 ORDER BY id ASC LIMIT ?3" : " AND id < ?1 ORDER BY id DESC LIMIT ?3"
        return sql
    }

    /// The count query: ?1 the id bound (when `newer`), ?2 the app.
    static func countSQL(unreadOnly: Bool, app: Bool, newer: Bool) -> String {
        // Without a narrower condition SQLite would count by reading every row of the table; the
        // per-app index holds exactly the listed messages in far fewer pages.
        var sql = unreadOnly || app || newer
            ? "SELECT count(*) FROM messages WHERE held = 0"
            : "SELECT count(*) FROM messages INDEXED BY messages_by_app WHERE held = 0"
        if unreadOnly { sql += " AND read = 0" }
        if app { sql += " AND app = ?2" }
        if newer { sql += " AND id > ?1" }
        return sql
    }

    /// The first column of the statement's first row, nil when there is no row or it is NULL.
    func int64(_ statement: Statement) throws(SQLiteError) -> Int64? {
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    // MARK: - Rows to values

    /// A `messages` row selected as `Schema.messageColumns`.
    static func message(from row: Statement) throws(SQLiteError) -> Message {
        let id = row.int64(at: 0)
        let channel = try channel(row.string(at: 2), of: id)
        var message = Message(
            id: id, app: row.string(at: 1) ?? "", channel: channel, title: row.string(at: 3),
            subtitle: row.string(at: 4), body: row.string(at: 5), url: row.string(at: 6), read: row.bool(at: 7),
            offline: row.bool(at: 8), launch: row.bool(at: 9), held: row.bool(at: 10),
            receivedAt: Date(millisecondsSince1970: row.int64(at: 11)), taskId: row.string(at: 12),
            msgId: row.string(at: 13), payload: row.string(at: 14) ?? "",
            collapseId: row.string(at: 15), threadId: row.string(at: 16), silent: row.bool(at: 17),
            interruption: row.string(at: 18), expired: row.bool(at: 19), via: Via(rawValue: row.string(at: 20) ?? "") ?? .socket,
            token: row.string(at: 21), apnsHeaders: headers(from: row.string(at: 22)))
        message.relevance = row.isNull(at: 23) ? nil : row.double(at: 23)
        message.badgeDirective = row.string(at: 24).flatMap(BadgeDirective.init(storedText:))
        message.timeToLive = row.isNull(at: 25) ? nil : row.double(at: 25)
        message.callback = row.string(at: 26)
        if let options = row.string(at: 29), let json = try? JSON.parse(options) {
            message.fcm = FCMFacts(project: row.string(at: 27) ?? "", messageName: row.string(at: 28) ?? "", options: json)
        }
        return message
    }

    /// Message `id`'s `channel` column, which must name a channel.
    private static func channel(_ name: String?, of id: Int64) throws(SQLiteError) -> Channel {
        guard let name, let channel = Channel(rawValue: name) else {
            throw SQLiteError(
                code: SQLITE_MISMATCH,
                message: "message \(id) has channel '\(name ?? "")', not one of \(Channel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return channel
    }

    /// The `apns_headers` column back into a dictionary (NULL or unreadable: none).
    private static func headers(from text: String?) -> [String: String] {
        guard let text, case .object(let object)? = try? JSON.parse(text) else { return [:] }
        var headers: [String: String] = [:]
        for (name, value) in object.members { if case .string(let string) = value { headers[name] = string } }
        return headers
    }

    /// The newest delivered message of `app` with this collapse id: the one a push with the same
    /// id replaces (its id, channel and whether it was read).
    public func replaceable(app: String, collapseId: String) throws(SQLiteError) -> ReplacedMessage? {
        let statement = try database.prepare(
            "SELECT id, channel, read FROM messages WHERE app = ?1 AND collapse_id = ?2 AND held = 0 ORDER BY id DESC LIMIT 1")
        try statement.bind(app, at: 1)
        try statement.bind(collapseId, at: 2)
        return try statement.rows { (row: Statement) throws(SQLiteError) -> ReplacedMessage in
            let id = row.int64(at: 0)
            return ReplacedMessage(id: id, app: app, channel: try Self.channel(row.string(at: 1), of: id), collapseId: collapseId, read: row.bool(at: 2))
        }.first
    }

    /// The settings from the `settings` rows; a missing key keeps its default, a value this
    /// version cannot read is an error rather than a silent reset.
    static func settings(from values: [String: String]) throws(SQLiteError) -> InboxSettings {
        var settings = InboxSettings()
        func invalid(_ key: String, _ value: String, _ accepted: String) -> SQLiteError {
            SQLiteError(code: SQLITE_MISMATCH, message: "setting \(key) is '\(value)'; expected \(accepted)")
        }
        if let value = values[SettingKey.mode] {
            guard let mode = PushMode(rawValue: value) else { throw invalid(SettingKey.mode, value, "on or off") }
            settings.mode = mode
        }
        if let value = values[SettingKey.appState] {
            guard let state = AppState(rawValue: value) else {
                throw invalid(SettingKey.appState, value, "foreground, background or terminated")
            }
            settings.appState = state
        }
        if let value = values[SettingKey.dropped] {
            guard let dropped = Int(value), dropped >= 0 else {
                throw invalid(SettingKey.dropped, value, "a whole number ≥ 0")
            }
            settings.dropped = dropped
        }
        if let value = values[SettingKey.badgeSync] {
            guard let sync = Bool(value) else { throw invalid(SettingKey.badgeSync, value, "true or false") }
            settings.badgeSync = sync
        }
        if let value = values[SettingKey.badgePolicies] {
            guard case .object(let object)? = try? JSON.parse(Array(value.utf8)) else {
                throw invalid(SettingKey.badgePolicies, value, "a JSON object of app → app or platform")
            }
            for (app, policy) in object.members {
                guard case .string(let name) = policy, let chosen = BadgePolicy(rawValue: name) else {
                    throw invalid(SettingKey.badgePolicies, value, "a JSON object of app → app or platform")
                }
                settings.badgePolicies[app] = chosen
            }
        }
        if let value = values[SettingKey.muted] {
            guard case .object(let object)? = try? JSON.parse(Array(value.utf8)) else {
                throw invalid(SettingKey.muted, value, "a JSON object of app → milliseconds or null")
            }
            for (app, end) in object.members {
                switch end {
                case .null: settings.muted[app] = .some(nil)
                case .number(let number):
                    guard let milliseconds = Int64(number.text) else { throw invalid(SettingKey.muted, value, "whole milliseconds") }
                    settings.muted[app] = .some(Date(millisecondsSince1970: milliseconds))
                default: throw invalid(SettingKey.muted, value, "a JSON object of app → milliseconds or null")
                }
            }
        }
        if let value = values[SettingKey.quiet], value != "off" {
            guard let quiet = QuietHours(value) else { throw invalid(SettingKey.quiet, value, "HH:MM-HH:MM or off") }
            settings.quiet = quiet
        }
        if let value = values[SettingKey.deviceOffline] {
            guard let offline = Bool(value) else { throw invalid(SettingKey.deviceOffline, value, "true or false") }
            settings.deviceOffline = offline
        }
        return settings
    }
}

extension Store {
    /// The outbox: pushes for other instances of the team bus still waiting for their owner's
    /// receipt, oldest first (a row that no longer reads as a push is skipped).
    public func outbox() throws(SQLiteError) -> [RemotePush] {
        try database.prepare("SELECT token, body FROM bus_outbox ORDER BY accepted_at").rows { row in
            (row.string(at: 0) ?? "", row.string(at: 1) ?? "")
        }.compactMap { token, body in try? RemotePush.decode(wire: Array(body.utf8), topicToken: token, maxBytes: Int.max).push }
    }
}
