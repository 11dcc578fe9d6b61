import PushJSON

extension FCMFacts {
    /// The Android options as the wire's `fcm` object carries them (and the store keeps them):
    /// `platform`, `collapseKey`, `ttl` (seconds), `priority`, `tag`, `notificationCount`, each
    /// `null` when absent. The project and message name go beside it, as `project` and
    /// `messageName`.
    public var optionsJSON: JSON {
        .object(JSONObject([
            (key: "platform", value: .string(platform.rawValue)),
            (key: "collapseKey", value: .string(orNull: collapseKey)),
            (key: "ttl", value: ttlSeconds.map { .number(JSONNumber(text: Self.secondsText($0))) } ?? .null),
            (key: "priority", value: .string(orNull: priority?.rawValue)),
            (key: "tag", value: .string(orNull: tag)),
            (key: "notificationCount", value: notificationCount.map { .number(JSONNumber($0)) } ?? .null),
        ]))
    }

    /// `optionsJSON.compactText`, written member by member without building the object: what
    /// the store keeps for each FCM message it writes (building the object and writing it was
    /// ~8 k instructions of an FCM push, callgrind on the release server).
    public var optionsText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(112 + (collapseKey?.utf8.count ?? 0) + (tag?.utf8.count ?? 0))
        func member(_ name: StaticString, _ value: JSON) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            value.write(into: &bytes)
        }
        member(#"{"platform":"#, .string(platform.rawValue))
        member(#","collapseKey":"#, .string(orNull: collapseKey))
        member(#","ttl":"#, ttlSeconds.map { .number(JSONNumber(text: Self.secondsText($0))) } ?? .null)
        member(#","priority":"#, .string(orNull: priority?.rawValue))
        member(#","tag":"#, .string(orNull: tag))
        member(#","notificationCount":"#, notificationCount.map { .number(JSONNumber($0)) } ?? .null)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Seconds as JSON writes them: whole ones without a fraction.
    public static func secondsText(_ seconds: Double) -> String {
        seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }

    /// The facts back from `project`, `messageName` and the `optionsJSON` object; nil when
    /// `options` is not such an object.
    public init?(project: String, messageName: String, options: JSON) {
        guard case .object(let object) = options, let platformName = object["platform"]?.stringValue,
              let platform = DevicePlatform(rawValue: platformName)
        else { return nil }
        self.init(project: project, messageName: messageName, platform: platform)
        collapseKey = object["collapseKey"]?.stringValue
        ttlSeconds = object["ttl"]?.numberValue.map(\.double)
        priority = object["priority"]?.stringValue.flatMap(FCMPriority.init(rawValue:))
        tag = object["tag"]?.stringValue
        notificationCount = object["notificationCount"]?.intValue
    }
}
