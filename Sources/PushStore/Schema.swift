import Foundation
import PushCore
import PushJSON

/// The store's tables, as an ordered list of migrations.
///
/// A database's `user_version` says how many migrations it has had; opening runs the rest, in one
/// transaction. Migrations are only ever appended: never edit one that has shipped.
public enum Schema {
    /// Marks a database as pushdeck's (`PRAGMA application_id`, "PDK1"), so another program's
    /// SQLite file given by mistake is refused instead of written into.
    public static let applicationId: Int32 = 0x5044_4B31

    /// The version a fully migrated database has.
    public static var version: Int { migrations.count }

    /// Migration n+1 is `migrations[n]`.
    public static let migrations: [String] = [
        // 1: everything.
        """
        CREATE TABLE messages (
            id          INTEGER PRIMARY KEY,
            app         TEXT    NOT NULL,
            channel     TEXT    NOT NULL CHECK (channel IN ('apns', 'transparent')),
            title       TEXT,
            subtitle    TEXT,
            body        TEXT,
            url         TEXT,
            read        INTEGER NOT NULL DEFAULT 0,
            offline     INTEGER NOT NULL DEFAULT 0,
            launch      INTEGER NOT NULL DEFAULT 0,
            held        INTEGER NOT NULL DEFAULT 0,
            received_at INTEGER NOT NULL,  -- milliseconds since 1970-01-01 UTC
            task_id     TEXT,
            msg_id      TEXT,
            payload     TEXT    NOT NULL   -- the raw payload, byte for byte as received
        );
        -- Newest-first pages of every listed (held = 0) message walk the primary key backwards.
        -- Each index below costs every insert a little, so there are only those a question needs.

        -- (A partial index's own condition columns are repeated in it: SQLite 3.40 does not know
        -- they hold for every entry and would read each row to check them when counting.)

        -- The unread page over every app, newest first; "read all" walks it to find unread rows.
        CREATE INDEX messages_unread ON messages (id, held, read) WHERE held = 0 AND read = 0;
        -- One app's page, newest first, and how many listed messages there are.
        CREATE INDEX messages_by_app ON messages (app, held) WHERE held = 0;
        -- The held queue and the launch notification, read at start-up: a handful of rows that
        -- must not cost a scan of every message (nor anything per insert: no entry unless set).
        CREATE INDEX messages_held ON messages (id) WHERE held = 1;
        CREATE INDEX messages_launch ON messages (id) WHERE launch = 1;

        -- Unread delivered messages per app, kept by the store in the transaction that changes
        -- them, so start-up reads a few rows instead of counting a million (a trigger would do
        -- the same but doubles the cost of an insert).
        CREATE TABLE unread (
            app   TEXT    PRIMARY KEY,
            count INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE badges (
            app    TEXT    PRIMARY KEY,
            icon   INTEGER NOT NULL DEFAULT 0,
            server INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;

        -- mode, app_state, dropped, badge_sync, id_floor (see Store).
        CREATE TABLE settings (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        // 2: what the platform does with a push: replace by collapse id, group
        // by thread, silent pushes, interruption levels.
        """
        ALTER TABLE messages ADD COLUMN collapse_id  TEXT;     -- apns-collapse-id / JPush apns_collapse_id
        ALTER TABLE messages ADD COLUMN thread_id    TEXT;     -- aps.thread-id
        ALTER TABLE messages ADD COLUMN silent       INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN interruption TEXT;     -- aps.interruption-level as given
        ALTER TABLE messages ADD COLUMN expired      INTEGER NOT NULL DEFAULT 0;  -- held past its TTL
        -- The message a push with a collapse id replaces: the newest of its app with that id.
        CREATE INDEX messages_collapse ON messages (app, collapse_id) WHERE collapse_id IS NOT NULL;
        """,
        // 3: the provider gateway: where a message came from, the gateway's devices
        // and the vendors' keys.
        """
        ALTER TABLE messages ADD COLUMN via TEXT NOT NULL DEFAULT 'socket';
        ALTER TABLE messages ADD COLUMN token TEXT;
        -- The APNs request's apns-* headers as a JSON object; NULL when there were none.
        ALTER TABLE messages ADD COLUMN apns_headers TEXT;

        CREATE TABLE devices (
            token           TEXT    PRIMARY KEY,
            app             TEXT    NOT NULL,
            vendor          TEXT    NOT NULL CHECK (vendor IN ('apns', 'jpush', 'getui')),
            unregistered_at INTEGER            -- milliseconds since 1970-01-01 UTC, NULL while registered
        ) WITHOUT ROWID;

        -- APNs: id = key id, team, secret = the .p8 PEM; JPush: id = appKey, secret = master
        -- secret; Getui: id = appId, app_key, secret = master secret.
        CREATE TABLE provider_keys (
            id      TEXT PRIMARY KEY,
            vendor  TEXT NOT NULL CHECK (vendor IN ('apns', 'jpush', 'getui')),
            team    TEXT,
            app_key TEXT,
            secret  TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        // 4: threads: the list shows one row per (app, thread_id), found by
        // this index (is there a newer listed message of the thread? its size, its members).
        """
        ALTER TABLE messages ADD COLUMN relevance REAL;  -- aps.relevance-score
        CREATE INDEX messages_thread ON messages (app, thread_id, id) WHERE thread_id IS NOT NULL AND held = 0;
        """,
        // 5: a gateway device can be offline: its pushes are stored
        // (held) until `device online`. The socket's default device is the setting device_offline.
        """
        ALTER TABLE devices ADD COLUMN offline INTEGER NOT NULL DEFAULT 0;
        """,
        // 6: a JPush/Getui device's tags and alias, which the JPush audiences
        // tag/tag_and/tag_not/alias and Getui's push/single/alias find it by. Tags one per line
        // (a tag holds no control character), '' for none.
        """
        ALTER TABLE devices ADD COLUMN tags TEXT NOT NULL DEFAULT '';
        ALTER TABLE devices ADD COLUMN alias TEXT;
        """,
        // 7: the Getui request ids pushed within the last day (Getui refuses a repeat), written
        // with their push so a restart forgets none; rows older than a day are deleted as new
        // ones are written, found by the index on seen_at.
        """
        CREATE TABLE getui_request_ids (
            app        TEXT    NOT NULL,
            request_id TEXT    NOT NULL,
            seen_at    INTEGER NOT NULL,  -- milliseconds since 1970-01-01 UTC
            PRIMARY KEY (app, request_id)
        ) WITHOUT ROWID;
        CREATE INDEX getui_request_ids_by_time ON getui_request_ids (seen_at);
        """,
        pushFields,
        // 9: the channel `android` (FCM notification messages on Android): the CHECK of
        // migration 1 is widened by rebuilding the table (`rebuildChannelCheck`); the callback (or
        // system surface) a message reached, decided when it was delivered; an FCM message's
        // project, message name (projects/{p}/messages/{id}) and its Android options (platform,
        // collapse key, ttl, priority, tag, notification count, as the wire's `fcm` object).
        """
        \(rebuildChannelCheckMarker)
        ALTER TABLE messages ADD COLUMN callback TEXT;
        ALTER TABLE messages ADD COLUMN fcm_project TEXT;
        ALTER TABLE messages ADD COLUMN fcm_message_name TEXT;
        ALTER TABLE messages ADD COLUMN fcm_options TEXT;
        """,
        // 10: FCM devices and keys of vendor 'fcm' (SQLite cannot change a CHECK in place, so both
        // tables are made again and their rows copied); an FCM device's platform ('android' or
        // 'ios', NULL for the other vendors) and the topics it is subscribed to, one per line (a
        // topic name is [a-zA-Z0-9-_.~%]+), '' for none.
        """
        CREATE TABLE devices_fcm (
            token           TEXT    PRIMARY KEY,
            app             TEXT    NOT NULL,
            vendor          TEXT    NOT NULL CHECK (vendor IN ('apns', 'jpush', 'getui', 'fcm')),
            unregistered_at INTEGER,
            offline         INTEGER NOT NULL DEFAULT 0,
            tags            TEXT    NOT NULL DEFAULT '',
            alias           TEXT,
            platform        TEXT    CHECK (platform IN ('android', 'ios')),
            topics          TEXT    NOT NULL DEFAULT ''
        ) WITHOUT ROWID;
        INSERT INTO devices_fcm (token, app, vendor, unregistered_at, offline, tags, alias)
            SELECT token, app, vendor, unregistered_at, offline, tags, alias FROM devices;
        DROP TABLE devices;
        ALTER TABLE devices_fcm RENAME TO devices;

        -- FCM: id = the service account's client_email, team = its project id, app_key = the
        -- project's default app (NULL: the project id), secret = its private key's PEM.
        CREATE TABLE provider_keys_fcm (
            id      TEXT PRIMARY KEY,
            vendor  TEXT NOT NULL CHECK (vendor IN ('apns', 'jpush', 'getui', 'fcm')),
            team    TEXT,
            app_key TEXT,
            secret  TEXT NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO provider_keys_fcm SELECT id, vendor, team, app_key, secret FROM provider_keys;
        DROP TABLE provider_keys;
        ALTER TABLE provider_keys_fcm RENAME TO provider_keys;
        """,
        // 11: Live Activities: a device's token can be a Live Activity's push-to-start token or an
        // activity's push token; each activity is kept as its JSON object (its history of
        // pushes beside it, one row each, so a push writes its own row and not the whole history),
        // and the liveactivity pushes that reached no activity, newest last.
        """
        ALTER TABLE devices ADD COLUMN kind TEXT NOT NULL DEFAULT 'app';
        CREATE TABLE activities (
            id   TEXT PRIMARY KEY,
            app  TEXT NOT NULL,
            body TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE activity_history (
            activity_id TEXT    NOT NULL,
            seq         INTEGER NOT NULL,  -- the push's place among all that reached the activity
            app         TEXT    NOT NULL,
            body        TEXT    NOT NULL,
            PRIMARY KEY (activity_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE activity_unmatched (
            seq  INTEGER PRIMARY KEY,  -- the rowid: one more than the highest kept
            app  TEXT NOT NULL,
            body TEXT NOT NULL
        );
        """,
        // The team bus: pushes for other instances until their owner's receipt (the outbox),
        // and the ids of pushes by the bus taken here (a repeat is dropped).
        """
        CREATE TABLE bus_outbox (
            id          TEXT    PRIMARY KEY,  -- the push's UUID
            token       TEXT    NOT NULL,
            body        TEXT    NOT NULL,     -- the published push (RemotePush.wireJSON)
            accepted_at INTEGER NOT NULL,     -- ms since 1970
            expires_at  INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE bus_seen (
            sender  TEXT    NOT NULL,
            push_id TEXT    NOT NULL,
            seen_at INTEGER NOT NULL,
            PRIMARY KEY (sender, push_id)
        ) WITHOUT ROWID;
        CREATE INDEX bus_seen_by_time ON bus_seen (seen_at);
        """,
        // Broadcast channels (iOS 18): each app's channels, by the id APNs hands back, each kept
        // as its JSON object (its storage policy, when it was made).
        """
        CREATE TABLE broadcast_channels (
            id   TEXT PRIMARY KEY,
            app  TEXT NOT NULL,
            body TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        // An APNs key's environment ('sandbox' or 'production'; NULL: both).
        """
        ALTER TABLE provider_keys ADD COLUMN environment TEXT;
        """,
        // The channel CHECK written as comparisons (`rebuildChannelCheck`): SQLite checks
        // `channel IN (…)` of more than two constants against a temporary index it builds again
        // for every row written (two b-trees opened, a page zeroed and freed), which was a fifth
        // of a message's insert. The same rule as `=` … `OR` costs a few comparisons.
        """
        \(rebuildChannelCheckMarker)
        """,
    ]

    /// The decoded push's badge directive and time to live, kept on its message so a held one
    /// is never decoded again (as it expires, as it is delivered). NULL: none (+1 on delivery;
    /// the vendor's default time to live). The held rows of an older database are filled in once,
    /// as it is migrated (`Store.fillPushFields`).
    public static let pushFields = """
        ALTER TABLE messages ADD COLUMN badge_directive TEXT;  -- 'set N', 'add N' (+N/-N) or 'auto N'
        ALTER TABLE messages ADD COLUMN ttl REAL;  -- seconds
        """

    /// The schema version from which messages carry `pushFields`.
    public static var pushFieldsVersion: Int { (migrations.firstIndex(of: pushFields) ?? 0) + 1 }

    /// A migration starting with this line first rebuilds `messages` with the channel CHECK
    /// naming every `Channel` as `rebuildChannelCheck` writes it.
    static let rebuildChannelCheckMarker = "-- rebuild messages: widen the channel CHECK"

    /// The channel CHECK of `messages`: every `Channel`, compared one by one.
    static var channelCheck: String {
        "CHECK (" + Channel.allCases.map { "channel = '\($0.rawValue)'" }.joined(separator: " OR ") + ")"
    }

    /// Rebuilds `messages` as it stands with `channelCheck` in place of the channel CHECK it
    /// has (nothing when it has that one already): SQLite cannot alter a CHECK, so the table is
    /// made again from its own stored definition (every column any migration added, whatever
    /// their order), its rows copied, and its indexes made again from theirs ("Making other
    /// kinds of table schema changes", SQLite's ALTER TABLE page).
    static func rebuildChannelCheck(_ database: Database) throws(SQLiteError) {
        guard let table = try database.scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'messages'"),
              let stored = Self.storedChannelCheck(in: table), table[stored] != channelCheck
        else { return }
        let indexes = try database.scalar(
            "SELECT group_concat(sql, ';' || char(10)) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL")
        var rebuilt = table
        rebuilt.replaceSubrange(stored, with: channelCheck)
        rebuilt = rebuilt.replacingOccurrences(of: "CREATE TABLE messages", with: "CREATE TABLE messages_rebuilt")
        try database.execute(rebuilt)
        try database.execute(
            "INSERT INTO messages_rebuilt SELECT * FROM messages; DROP TABLE messages; ALTER TABLE messages_rebuilt RENAME TO messages;")
        if let indexes { try database.execute(indexes) }
    }

    /// Where the channel CHECK is in the table's definition: from `CHECK (channel` to its
    /// closing parenthesis.
    static func storedChannelCheck(in table: String) -> Range<String.Index>? {
        guard let start = table.range(of: "CHECK (channel ")?.lowerBound else { return nil }
        var depth = 0
        var index = start
        while index < table.endIndex {
            switch table[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return start..<table.index(after: index) }
            default: break
            }
            index = table.index(after: index)
        }
        return nil
    }

    /// The columns of `messages` in the order every query selects them.
    static let messageColumns =
        "id, app, channel, title, subtitle, body, url, read, offline, launch, held, received_at, task_id, msg_id, payload"
        + ", collapse_id, thread_id, silent, interruption, expired, via, token, apns_headers, relevance"
        + ", badge_directive, ttl"
        + ", callback, fcm_project, fcm_message_name, fcm_options"
}
