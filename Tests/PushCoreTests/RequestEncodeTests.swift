import PushCore
import Testing
import PushJSON

/// `Request.encode` is the inverse of `Request.decode`: every op, every field, round trips.
@Suite("Request encoding")
struct RequestEncodeTests {
    static let requests: [Request] = [
        .push(PushRequest(payloadText: #"{"aps":{"alert":"Hi"}}"#)),
        .push(PushRequest(
            payloadText: "{ \"aps\": {\"alert\" : \"订单\\u0020已发货\"} ,\n \"x\": [1,2,] }", app: "com.example.shop",
            channel: .transparent, offline: true)),
        .push(PushRequest(payloadText: "{}", channel: .apns)),
        .requests(RequestLogQuery()),
        .requests(RequestLogQuery(vendor: .fcm, since: 12)),
        .fault(.add(FaultSpec(vendor: .apns, token: "abcd", action: .status(410, reason: "Unregistered", retryAfter: 5, latencyMs: nil), bound: .count(1)))),
        .fault(.add(FaultSpec(action: .goaway(after: 3, shutdown: true), bound: .seconds(30)))),
        .fault(.list),
        .fault(.clear(id: 2)),
        .fault(.clear(id: nil)),
        .read(.ids([17])),
        .read(.ids([1, 2, Int64.max])),
        .read(.all(app: nil)),
        .read(.all(app: "com.example.chat")),
        .delete([3, 4]),
        .badge(app: nil, change: nil, sync: nil),
        .badge(app: "com.example.shop", change: .set(5), sync: false),
        .badge(app: nil, change: .clear, sync: true),
        .badge(app: nil, change: .set(0), sync: nil),
        .mode(nil), .mode(.on), .mode(.off),
        .app(nil), .app(.foreground), .app(.background), .app(.terminated),
        .list(ListQuery()),
        .list(ListQuery(limit: 1000, unread: true, before: 99, app: "com.example.news")),
        .subscribe([]),
        .subscribe([.badgeChanged, .feedback, .bannerShown]),
        .ping,
        .bus,
        .clock(advance: nil), .clock(advance: 0), .clock(advance: 0.25), .clock(advance: 3600),
        .gateway,
        .reset(app: nil, all: false),
        .reset(app: "com.example.shop", all: false),
        .reset(app: nil, all: true),
        .state(app: nil, message: nil), .state(app: "com.example.shop", message: 7),
        .activity(.list(app: nil)), .activity(.list(app: "com.example.food")),
        .channel(.create(app: "com.example.food", storagePolicy: 1)), .channel(.read(app: "com.example.food", id: "cHVzaGRlY2stY2hhbm5lbC0x")),
        .channel(.delete(app: "com.example.food", id: "cHVzaGRlY2stY2hhbm5lbC0x")), .channel(.list(app: nil)),
        .channel(.list(app: "com.example.food")),
        .key(.add(ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "pem", environment: .sandbox))),
        .gateway,
        .credentials(CredentialsQuery(vendor: .apns)), .credentials(CredentialsQuery(vendor: .apns, keyId: "ABC123DEFG", team: "TEAM123456")),
        .credentials(CredentialsQuery(vendor: .jpush)), .credentials(CredentialsQuery(vendor: .getui)),
        .device(.add(Device(token: String(repeating: "0f", count: 80), app: "com.example.shop", vendor: .getui))),
        .device(.list), .device(.remove(token: "abcd")), .device(.unregister(token: "abcd")),
        .device(.setOffline(token: "abcd", true)), .device(.setOffline(token: nil, false)),
        .key(.add(ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "-----BEGIN PRIVATE KEY-----\nx\n"))),
        .key(.add(ProviderKey(id: "appid", vendor: .getui, appKey: "k", secret: "s"))),
        .key(.list), .key(.remove(id: "ABC123DEFG")),
        // Collapse ids, push types and priorities, badge policies and SDK calls, mute, quiet hours.
        .push(PushRequest(payloadText: #"{"aps":{"content-available":1}}"#, app: "a", collapseId: "c-1", pushType: "background", priority: 5)),
        // A push for a device (on another instance, with the team bus).
        .push(PushRequest(payloadText: #"{"aps":{"alert":"x"}}"#, app: "a", token: "b0b0abab")),
        .badgePolicy(app: "com.example.shop", .platform), .badgePolicy(app: nil, .app), .badgePolicy(app: "a", nil),
        .sdkBadge(app: "a", Self.call(.jpush, "setBadge", 0)), .sdkBadge(app: nil, Self.call(.jpush, "resetBadge", nil)),
        .sdkBadge(app: "a", Self.call(.getui, "setLocalBadge", 3)),
        .mute(app: "a", seconds: nil), .mute(app: "a", seconds: 3600), .unmute(app: "a"),
        .quiet(nil), .quiet(.some(nil)), .quiet(.some(QuietHours(start: 1320, end: 420))),
    ]

    /// An SDK call known to exist (the test's own table).
    static func call(_ sdk: SDKBadgeCall.SDK, _ name: String, _ value: Int?) -> SDKBadgeCall {
        // swiftlint:disable:next force_try — a test table of calls that exist
        try! SDKBadgeCall(sdk: sdk, call: name, value: value)
    }

    @Test(arguments: requests)
    func roundTrips(_ request: Request) throws {
        let decoded = try Request.decode(frame: request.encode())
        #expect(decoded == request)
        #expect(request.wireLine.last == 0x0A)
    }

    @Test func everyOpIsCovered() {
        #expect(Set(Self.requests.map(\.op)) == Set(Request.ops))
    }

    @Test func aPushKeepsItsPayloadBytes() {
        let payload = "{\n  \"aps\" : { \"alert\" : \"Hi\", },\n}"
        let text = String(decoding: Request.push(PushRequest(payloadText: payload, app: "a\"b")).encode(), as: UTF8.self)
        #expect(text == #"{"op":"push","app":"a\"b","payload":"# + payload + "}")
    }

    @Test func resetDecodingRefusesUnknownFields() {
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"reset","apps":"x"}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"reset","all":1}"#.utf8)) }
    }
}
