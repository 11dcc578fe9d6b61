/// Every statement `Store.apply` runs, compiled once when the store opens.
///
/// Holding them here (not looking them up by SQL text) keeps a write to binding and stepping:
/// no string is built or hashed per change.
struct WriteStatements {
    let begin: Statement
    let commit: Statement
    let rollback: Statement
    let insert: Statement
    let replace: Statement
    let expire: Statement
    let markRead: Statement
    let markAllRead: Statement
    let markAllReadOfApp: Statement
    let delete: Statement
    let raiseIdFloor: Statement
    let release: Statement
    let saveUnread: Statement
    let dropUnread: Statement
    let clearLaunch: Statement
    let setLaunch: Statement
    let badge: Statement
    let setting: Statement
    let device: Statement
    let removeDevice: Statement
    let providerKey: Statement
    let removeProviderKey: Statement
    let getuiRequestId: Statement
    let pruneGetuiRequestIds: Statement
    let outboxAdd: Statement
    let outboxRemove: Statement
    let busSeen: Statement
    let pruneBusSeen: Statement
    let activity: Statement
    let activityHistory: Statement
    let pruneActivityHistory: Statement

    init(_ database: Database) throws(SQLiteError) {
        // IMMEDIATE: take the write lock at the start, so a busy database is found (and waited
        // for) before any change is applied, not at the first write halfway through.
        begin = try database.prepare("BEGIN IMMEDIATE")
        commit = try database.prepare("COMMIT")
        rollback = try database.prepare("ROLLBACK")
        insert = try database.prepare(
            """
            INSERT INTO messages (\(Schema.messageColumns))
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,
                    ?25, ?26, ?27, ?28, ?29, ?30)
            """)
        expire = try database.prepare("UPDATE messages SET held = 0, read = 1, expired = 1 WHERE id = ?1 AND held = 1")
        // A push with a collapse id takes the place of the message it replaces.
        replace = try database.prepare(
            """
            UPDATE messages SET channel = ?2, title = ?3, subtitle = ?4, body = ?5, url = ?6, read = ?7,
                offline = ?8, received_at = ?9, task_id = ?10, msg_id = ?11, payload = ?12, collapse_id = ?13,
                thread_id = ?14, silent = ?15, interruption = ?16, via = ?17, token = ?18, apns_headers = ?19, relevance = ?20,
                badge_directive = ?21, ttl = ?22,
                callback = ?23, fcm_project = ?24, fcm_message_name = ?25, fcm_options = ?26
            WHERE id = ?1
            """)
        // A held message is not delivered yet, so it cannot be read. (The unread counts are the
        // reducer's: `StoreChange.unread`.)
        markRead = try database.prepare("UPDATE messages SET read = 1 WHERE id = ?1 AND read = 0 AND held = 0")
        // Walking the unread index visits only unread rows, however many read ones there are.
        markAllRead = try database.prepare(
            "UPDATE messages INDEXED BY messages_unread SET read = 1 WHERE held = 0 AND read = 0")
        markAllReadOfApp = try database.prepare(
            "UPDATE messages INDEXED BY messages_unread SET read = 1 WHERE held = 0 AND read = 0 AND app = ?1")
        delete = try database.prepare("DELETE FROM messages WHERE id = ?1")
        raiseIdFloor = try database.prepare(
            """
            INSERT INTO settings (key, value) VALUES ('\(SettingKey.idFloor)', ?1)
            ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
            """)
        release = try database.prepare("UPDATE messages SET held = 0, offline = 1 WHERE id = ?1 AND held = 1")
        saveUnread = try database.prepare(
            "INSERT INTO unread (app, count) VALUES (?1, ?2) ON CONFLICT (app) DO UPDATE SET count = excluded.count")
        dropUnread = try database.prepare("DELETE FROM unread WHERE app = ?1")
        clearLaunch = try database.prepare("UPDATE messages SET launch = 0 WHERE launch = 1 AND id <> ?1")
        setLaunch = try database.prepare("UPDATE messages SET launch = 1 WHERE id = ?1")
        badge = try database.prepare(
            """
            INSERT INTO badges (app, icon, server) VALUES (?1, ?2, ?3)
            ON CONFLICT (app) DO UPDATE SET icon = excluded.icon, server = excluded.server
            """)
        setting = try database.prepare(
            "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        device = try database.prepare(
            """
            INSERT INTO devices (token, app, vendor, unregistered_at, offline, tags, alias, topics, platform, kind)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            ON CONFLICT (token) DO UPDATE SET app = excluded.app, vendor = excluded.vendor,
                unregistered_at = excluded.unregistered_at, offline = excluded.offline, tags = excluded.tags, alias = excluded.alias,
                topics = excluded.topics, platform = excluded.platform, kind = excluded.kind
            """)
        removeDevice = try database.prepare("DELETE FROM devices WHERE token = ?1")
        providerKey = try database.prepare(
            """
            INSERT INTO provider_keys (id, vendor, team, app_key, secret, environment) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (id) DO UPDATE SET vendor = excluded.vendor, team = excluded.team,
                app_key = excluded.app_key, secret = excluded.secret, environment = excluded.environment
            """)
        removeProviderKey = try database.prepare("DELETE FROM provider_keys WHERE id = ?1")
        getuiRequestId = try database.prepare(
            """
            INSERT INTO getui_request_ids (app, request_id, seen_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (app, request_id) DO UPDATE SET seen_at = excluded.seen_at
            """)
        pruneGetuiRequestIds = try database.prepare("DELETE FROM getui_request_ids WHERE seen_at <= ?1")
        outboxAdd = try database.prepare(
            "INSERT OR REPLACE INTO bus_outbox (id, token, body, accepted_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        outboxRemove = try database.prepare("DELETE FROM bus_outbox WHERE id = ?1")
        busSeen = try database.prepare(
            """
            INSERT INTO bus_seen (sender, push_id, seen_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (sender, push_id) DO UPDATE SET seen_at = excluded.seen_at
            """)
        pruneBusSeen = try database.prepare("DELETE FROM bus_seen WHERE seen_at <= ?1")
        // A Live Activity push writes its activity and the one row of its history it adds.
        activity = try database.prepare(
            "INSERT INTO activities (id, app, body) VALUES (?1, ?2, ?3) ON CONFLICT (id) DO UPDATE SET app = excluded.app, body = excluded.body")
        activityHistory = try database.prepare(
            "INSERT OR REPLACE INTO activity_history (activity_id, seq, app, body) VALUES (?1, ?2, ?3, ?4)")
        pruneActivityHistory = try database.prepare("DELETE FROM activity_history WHERE activity_id = ?1 AND seq <= ?2")
    }
}
