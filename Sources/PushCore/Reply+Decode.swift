import Foundation
import PushJSON

// MARK: - Replies off the wire: the one place a client reads a reply line

extension Reply {
    /// The reply a wire object says, the inverse of `wireObject`: `Reply(wire: r.wireObject) == r`
    /// for every reply, but for what the wire does not carry: a provider key's secret comes back
    /// empty, and a further message (`also`) that replaced an earlier one comes back delivered.
    ///
    /// Each kind is told by the fields only it writes (`delivered` a push, `vendor` credentials,
    /// `address` the gateway, `held` the state, `policy`, then `serverBadge` the ledgers, …);
    /// a line that is none of them is a `WireError` naming what it has.
    public init(wire object: JSONObject) throws(WireError) {
        guard let ok = object["ok"]?.boolValue else { throw WireError("a reply needs \"ok\": true or false") }
        guard ok else {
            guard let message = object["error"]?.stringValue else { throw WireError("an error reply needs \"error\": a string") }
            self = object["unavailable"]?.boolValue == true ? .unavailable(message) : .error(message)
            return
        }
        let fields = WireFields(object)
        if case .array(let records)? = object["requests"] {
            var read: [ProviderRequestRecord] = []
            for record in records {
                guard let fields = record.objectValue else { throw WireError("a requests reply holds request records, objects") }
                read.append(try ProviderRequestRecord(wire: fields))
            }
            self = .requests(read)
        } else if case .object(let fault)? = object["fault"] {
            self = .fault(try ArmedFault(wire: fault))
        } else if case .array(let faults)? = object["faults"] {
            var read: [ArmedFault] = []
            for fault in faults {
                guard let fields = fault.objectValue else { throw WireError("a faults reply holds armed faults, objects") }
                read.append(try ArmedFault(wire: fields))
            }
            self = .faults(read)
        } else if object["cleared"] != nil {
            self = .faultsCleared(try fields.int("cleared"))
        } else if let clock = object["clock"] {
            switch clock.stringValue {
            case "system"?: self = .clock(elapsed: nil)
            case "manual"?:
                guard let elapsed = object["elapsed"]?.numberValue?.double, elapsed.isFinite else {
                    throw WireError("a manual clock reply needs \"elapsed\": a number of seconds")
                }
                self = .clock(elapsed: elapsed)
            default: throw WireError("a clock reply's \"clock\" must be system or manual")
            }
        } else if object["forwarded"] != nil {
            self = .forwarded(id: try fields.string("forwarded"), topic: try fields.string("topic"))
        } else if object["bus"] != nil, object["instances"] != nil {
            self = .bus(object)
        } else if object["delivered"] != nil {
            self = .push(try PushReply(wire: object))
        } else if object["accepted"] != nil {
            self = .activityPush(ActivityPushReply(
                activity: try fields.optionalString("activity"), accepted: try fields.bool("accepted"),
                why: try fields.optionalString("discarded"), pushToken: try fields.optionalString("pushToken")))
        } else if let activities = object["activities"] {
            guard let list = activities.arrayValue, let unmatched = object["unmatched"]?.arrayValue else {
                throw WireError("an activities reply needs \"activities\" and \"unmatched\": arrays")
            }
            guard let at = RFC3339.date(from: try fields.string("at")) else { throw WireError("an activities reply's \"at\" must be an RFC 3339 time") }
            self = .activities(
                try list.map { item throws(WireError) in
                    guard let activity = Activity(stored: item) else { throw WireError("each of \"activities\" must be an activity object") }
                    return activity
                },
                unmatched: try unmatched.map { item throws(WireError) in
                    guard let update = ActivityUpdate(stored: item) else { throw WireError("each of \"unmatched\" must be an activity update") }
                    return update
                }, at: at)
        } else if object["broadcast"] != nil {
            self = .broadcast(BroadcastReply(
                channel: try fields.string("broadcast"), reached: try fields.int("reached"), stored: try fields.int("stored")))
        } else if let channels = object["channels"] {
            guard let list = channels.arrayValue else { throw WireError("\"channels\" must be an array") }
            self = .channels(try list.map { item throws(WireError) in
                guard let channel = BroadcastChannel(stored: item) else {
                    throw WireError("each of \"channels\" must be {id, app, messageStoragePolicy, createdAt}")
                }
                return channel
            })
        } else if let vendor = object["vendor"] {
            let address = try fields.string("address")
            let registered = try fields.bool("registered")
            switch vendor.stringValue.flatMap(Vendor.init(rawValue:)) {
            case .apns?:
                self = .credentials(
                    .apns(keyId: try fields.string("keyId"), team: try fields.string("team"), token: try fields.string("token"),
                          registered: registered), address: address)
            case .jpush?:
                self = .credentials(
                    .jpush(appKey: try fields.string("appKey"), masterSecret: try fields.string("masterSecret"), registered: registered),
                    address: address)
            case .getui?:
                self = .credentials(
                    .getui(appId: try fields.string("appId"), appKey: try fields.string("appKey"),
                           masterSecret: try fields.string("masterSecret"), registered: registered), address: address)
            case .fcm?:
                self = .credentials(.fcm(serviceAccount: try fields.string("serviceAccount"), registered: registered), address: address)
            case nil:
                throw WireError("a credentials reply's \"vendor\" must be one of \(Vendor.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        } else if object["address"] != nil {
            self = .gateway(address: try fields.string("address"), ca: try fields.optionalString("ca"))
        } else if object["held"] != nil {
            guard let report = InboxReport(wire: object) else { throw WireError("a state reply needs badge, serverBadge, unread, held and dropped") }
            self = .state(report)
        } else if object["policy"] != nil {
            guard let policy = BadgePolicy(rawValue: try fields.string("policy")) else {
                throw WireError("a policy reply's \"policy\" must be one of \(BadgePolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .policy(try fields.ledgers(), policy)
        } else if object["serverBadge"] != nil {
            self = .ledgers(try fields.ledgers())
        } else if object["badge"] != nil {
            self = .badge(try fields.int("badge"))
        } else if object["mode"] != nil {
            guard let mode = PushMode(rawValue: try fields.string("mode")) else { throw WireError("unknown push mode in a mode reply") }
            self = .mode(mode)
        } else if object["muted"] != nil {
            let app = try fields.string("app")
            if try fields.bool("muted") {
                guard let until = try fields.optionalString("until") else {
                    self = .muted(app: app, until: nil)
                    return
                }
                guard let date = RFC3339.date(from: until) else { throw WireError("a mute's \"until\" must be an RFC 3339 time") }
                self = .muted(app: app, until: date)
            } else {
                self = .unmuted(app: app)
            }
        } else if object["quiet"] != nil {
            let text = try fields.string("quiet")
            if text == "off" {
                self = .quiet(nil)
            } else {
                guard let quiet = QuietHours(text) else { throw WireError("a quiet reply's \"quiet\" must be HH:MM-HH:MM or off") }
                self = .quiet(quiet)
            }
        } else if let devices = object["devices"] {
            guard let list = devices.arrayValue else { throw WireError("\"devices\" must be an array") }
            self = .devices(try list.map { item throws(WireError) in try Device(wire: item) },
                            defaultOffline: try fields.string("defaultDevice") == "offline")
        } else if let device = object["device"] {
            self = .device(try Device(wire: device))
        } else if object["token"] != nil {
            self = .deviceState(token: try fields.optionalString("token"), offline: try fields.string("state") == "offline")
        } else if object["state"] != nil {
            guard let state = AppState(rawValue: try fields.string("state")) else { throw WireError("unknown app state in a state reply") }
            self = .appState(state)
        } else if let keys = object["keys"] {
            guard let list = keys.arrayValue else { throw WireError("\"keys\" must be an array") }
            self = .keys(try list.map { item throws(WireError) in try ProviderKey(wire: item) })
        } else if let key = object["key"] {
            self = .key(try ProviderKey(wire: key))
        } else if let messages = object["messages"] {
            guard let list = messages.arrayValue else { throw WireError("\"messages\" must be an array") }
            self = .messages(try list.map { item throws(WireError) in
                guard let message = item.objectValue else { throw WireError("each of \"messages\" must be an object") }
                return try Message(wire: message)
            })
        } else if object["version"] != nil {
            self = .version(try fields.string("version"))
        } else if object.members.count == 1 {
            self = .ok
        } else {
            throw WireError("not a reply pushdeck writes: \(object.members.map(\.key).joined(separator: ", "))")
        }
    }
}

extension PushReply {
    /// A push reply off the wire (`PushReply.wireObject`'s inverse).
    init(wire object: JSONObject) throws(WireError) {
        let fields = WireFields(object)
        self.init(try PushFate(wire: fields), badge: try fields.int("badge"), also: try (object["also"]?.arrayValue ?? []).map { item throws(WireError) in
            guard let further = item.objectValue else { throw WireError("each of \"also\" must be an object") }
            let furtherFields = WireFields(further)
            guard let channel = Channel(rawValue: try furtherFields.string("channel")) else { throw WireError("unknown channel in \"also\"") }
            return FurtherPush(channel: channel, fate: try PushFate(wire: furtherFields))
        })
    }
}

extension PushFate {
    /// The fate `delivered`, `replaced`, `held`, `stored` and `reason` say (see `undeliveredMembers`).
    fileprivate init(wire fields: WireFields) throws(WireError) {
        let id = fields.object["id"]?.numberValue.flatMap { Int64($0.text) }
        func identified(_ fate: (Int64) -> PushFate) throws(WireError) -> PushFate {
            guard let id else { throw WireError("a push kept as a message needs its \"id\"") }
            return fate(id)
        }
        if try fields.bool("delivered") {
            self = try identified(fields.object["replaced"]?.boolValue == true ? PushFate.replaced : PushFate.delivered)
        } else if fields.object["held"]?.boolValue == true {
            self = try identified(PushFate.held)
        } else if let stored = fields.object["stored"]?.boolValue {
            self = stored ? try identified(PushFate.storedOffline) : .dropped(.expiresOffline)
        } else if let drop = PushDrop(rawValue: try fields.string("reason")) {
            self = .dropped(drop)
        } else {
            throw WireError("unknown \"reason\" of an undelivered push")
        }
    }
}

extension Device {
    /// A device off the wire (`wireJSON`'s inverse).
    public init(wire json: JSON) throws(WireError) {
        guard let object = json.objectValue else { throw WireError("a device must be an object") }
        let fields = WireFields(object)
        guard let vendor = Vendor(rawValue: try fields.string("vendor")) else { throw WireError("unknown vendor of a device") }
        let unregisteredAt = try fields.optionalString("unregisteredAt")
        let date = try unregisteredAt.map { text throws(WireError) in
            guard let date = RFC3339.date(from: text) else { throw WireError("a device's \"unregisteredAt\" must be an RFC 3339 time") }
            return date
        }
        self.init(
            token: try fields.string("token"), app: try fields.string("app"), vendor: vendor, unregisteredAt: date,
            offline: try fields.string("state") == "offline", tags: (object["tags"]?.arrayValue ?? []).compactMap(\.stringValue),
            alias: try fields.optionalString("alias"))
    }
}

extension ProviderKey {
    /// A key off the wire (`wireJSON`'s inverse): the wire never carries the secret, so it is empty.
    public init(wire json: JSON) throws(WireError) {
        guard let object = json.objectValue else { throw WireError("a key must be an object") }
        let fields = WireFields(object)
        guard let vendor = Vendor(rawValue: try fields.string("vendor")) else { throw WireError("unknown vendor of a key") }
        self.init(id: try fields.string("id"), vendor: vendor, team: try fields.optionalString("team"),
                  appKey: try fields.optionalString("appKey"), secret: "",
                  environment: try fields.optionalString("environment").flatMap(APNsEnvironment.init(rawValue:)))
    }
}

/// A reply's fields read by type, each failure naming the field.
private struct WireFields {
    let object: JSONObject
    init(_ object: JSONObject) { self.object = object }

    func string(_ key: String) throws(WireError) -> String {
        guard let value = object[key]?.stringValue else { throw WireError("reply field \"\(key)\" must be a string") }
        return value
    }

    func optionalString(_ key: String) throws(WireError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case .some: throw WireError("reply field \"\(key)\" must be a string or null")
        }
    }

    func int(_ key: String) throws(WireError) -> Int {
        guard let value = object[key]?.intValue else { throw WireError("reply field \"\(key)\" must be an integer") }
        return value
    }

    func bool(_ key: String) throws(WireError) -> Bool {
        guard let value = object[key]?.boolValue else { throw WireError("reply field \"\(key)\" must be true or false") }
        return value
    }

    func ledgers() throws(WireError) -> Ledgers {
        Ledgers(badge: try int("badge"), serverBadge: try int("serverBadge"), unread: try int("unread"))
    }
}
