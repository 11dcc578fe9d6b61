import PushCore
import PushJSON

/// A Push API v3 `audience`, as JPush's "audience：推送目标" table defines it
/// (github.com/jpush/jpush-docs `zh/jpush/server/push/rest_api_v3_push.md`): `"all"`, or an object
/// of `tag` (OR, at most 20), `tag_and` (AND, at most 20), `tag_not` (NOT of their OR, at most 20),
/// `alias` (OR, at most 1000), `registration_id` (OR, at most 1000), `segment` and `abtest` (one
/// id each); the kinds present are ANDed; an empty array means the kind is absent; a tag or an
/// alias is at most 40 bytes.
struct JPushAudience: Equatable {
    var tags: [String] = []
    var tagsAnd: [String] = []
    var tagsNot: [String] = []
    var aliases: [String] = []
    var registrationIds: [String] = []
    var segments: [String] = []
    var abtests: [String] = []
    /// `"all"`: every device (the socket's default device, here).
    var isAll = false

    static let kinds: [(name: String, most: Int, maxBytes: Int)] = [
        ("tag", 20, 40), ("tag_and", 20, 40), ("tag_not", 20, 40), ("alias", 1000, 40), ("registration_id", 1000, 128),
        ("segment", 1, 128), ("abtest", 1, 128),
    ]

    /// Parses `audience`; 1003 (JPush: "Audience 参数中 tag，alias，registration_id 有空值") when
    /// it is not one.
    init(_ value: JSONView) throws(JPushRefusal) {
        if value.kind == .string, value.string == "all" {
            isAll = true
            return
        }
        guard value.kind == .object else { throw .invalid("audience", "It must be \"all\" or an object.") }
        var lists: [String: [String]] = [:]
        var named = 0
        for kind in Self.kinds {
            guard let list = value[kind.name] else { continue }
            named += 1
            guard list.kind == .array else { throw .invalid(kind.name, "It must be an array of strings.") }
            let items = list.elements
            let texts = items.compactMap(\.string)
            guard texts.count == items.count, texts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= kind.maxBytes }) else {
                throw .invalid(kind.name, "Each must be a string of 1 to \(kind.maxBytes) bytes.")
            }
            guard texts.count <= kind.most else { throw .invalid(kind.name, "It takes at most \(kind.most).") }
            lists[kind.name] = texts
        }
        // A member that is none of JPush's kinds (the members counted against the kinds found).
        var members = 0
        value.forEachMember { _, _ in members += 1 }
        if members > named {
            throw .invalid("audience", "It takes only tag, tag_and, tag_not, alias, registration_id, segment and abtest.")
        }
        tags = lists["tag"] ?? []
        tagsAnd = lists["tag_and"] ?? []
        tagsNot = lists["tag_not"] ?? []
        aliases = lists["alias"] ?? []
        registrationIds = lists["registration_id"] ?? []
        segments = lists["segment"] ?? []
        abtests = lists["abtest"] ?? []
        guard !(tags.isEmpty && tagsAnd.isEmpty && tagsNot.isEmpty && aliases.isEmpty && registrationIds.isEmpty
            && segments.isEmpty && abtests.isEmpty)
        else { throw .invalid("audience", "It names no tag, tag_and, tag_not, alias, registration_id, segment or abtest.") }
    }

    /// Whether `device` (of the push's appKey) is in the audience.
    func contains(_ device: Device) -> Bool {
        if !tags.isEmpty && !tags.contains(where: device.tags.contains) { return false }
        if !tagsAnd.allSatisfy(device.tags.contains) { return false }
        if tagsNot.contains(where: device.tags.contains) { return false }
        if !aliases.isEmpty && !(device.alias.map(aliases.contains) ?? false) { return false }
        if !registrationIds.isEmpty && !registrationIds.contains(device.token) { return false }
        return segments.isEmpty && abtests.isEmpty
    }

    /// The registration ids the push reaches, in the order the request names them (then by
    /// token): the appKey's registered JPush devices in the audience, and — with `--devices
    /// open` — named registration ids nobody knows yet (a new device: no tag, no alias). Empty is
    /// JPush's 1011, with why.
    func resolve(appKey: String, inbox: InboxView, devices policy: DevicePolicy) -> Result<[String], JPushRefusal> {
        if isAll { return .success([]) }
        var reached: [String] = []
        for id in registrationIds {
            if let device = inbox.devices[id] {
                if device.vendor == .jpush, device.app == appKey, device.unregisteredAt == nil, contains(device) { reached.append(id) }
            } else if policy == .open, contains(Device(token: id, app: appKey, vendor: .jpush)) {
                reached.append(id)
            }
        }
        if registrationIds.isEmpty {
            reached = inbox.devices.values
                .filter { $0.vendor == .jpush && $0.app == appKey && $0.unregisteredAt == nil && contains($0) }
                .map(\.token).sorted()
        }
        guard reached.isEmpty else { return .success(reached) }
        return .failure(JPushRefusal(.noTarget, why(appKey: appKey, inbox: inbox, devices: policy)))
    }

    /// Why nothing was reached, in pushdeck's words.
    func why(appKey: String, inbox: InboxView, devices policy: DevicePolicy) -> String {
        if !segments.isEmpty || !abtests.isEmpty { return "pushdeck has no segments or A/B tests" }
        if registrationIds.count == 1, let id = registrationIds.first {
            guard let device = inbox.devices[id] else {
                return "registration id \(id) is unknown ('pushdeck device add \(id) --app \(appKey) --vendor jpush', or --devices open)"
            }
            if device.vendor != .jpush || device.app != appKey { return "registration id \(id) is not a device of appKey \(appKey)" }
            if device.unregisteredAt != nil { return "registration id \(id) was unregistered" }
        }
        return "no JPush device of appKey \(appKey) is in this audience (pushdeck device add ID --app \(appKey) --vendor jpush --tag T --alias A)"
    }
}
