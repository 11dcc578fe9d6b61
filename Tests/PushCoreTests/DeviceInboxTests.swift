import Foundation
import PushCore
import Testing
import TestSupport
import PushJSON

/// Devices and keys in the inbox: the `device` and `key` ops, and a gateway push
/// registering its token in the push's own writes.
@Suite struct DeviceInboxTests {
    static let token = SampleCredentials.apnsDeviceToken
    static let at = Date(timeIntervalSince1970: 1_700_000_000)

    func gatewayPush(app: String = "com.example.shop", token: String = token) -> Push {
        Push(app: app, channel: .apns, body: "Hi", payload: #"{"aps":{"alert":"Hi"}}"#, via: .apns, token: token,
             headers: ["apns-topic": app])
    }

    @Test func aGatewayPushRegistersItsUnknownTokenInTheSameWrites() throws {
        var inbox = Inbox()
        let effects = reduce(into: &inbox, .push(gatewayPush(), at: Self.at), now: .zero)
        let device = Device(token: Self.token, app: "com.example.shop")
        #expect(inbox.devices[Self.token] == device)
        #expect(effects.first == .store(.device(device)))
        guard case .store(.insert(let message))? = effects.dropFirst().first else {
            Issue.record("no insert after the device: \(effects)")
            return
        }
        #expect(message.via == .apns && message.token == Self.token && message.apnsHeaders == ["apns-topic": "com.example.shop"])
        // A second push to the same token registers nothing more.
        let again = reduce(into: &inbox, .push(gatewayPush(), at: Self.at), now: .zero)
        #expect(!again.contains(.store(.device(device))))
    }

    @Test func aDroppedGatewayPushStillRegistersItsTokenApnsAcceptedIt() {
        var inbox = Inbox(settings: InboxSettings(mode: .off))
        let effects = reduce(into: &inbox, .push(gatewayPush(), at: Self.at), now: .zero)
        #expect(inbox.devices[Self.token] != nil)
        #expect(effects.contains(.store(.device(Device(token: Self.token, app: "com.example.shop")))))
    }

    /// A Getui push records its `request_id` in its own writes, delivered or dropped (Getui
    /// accepted it either way); `reset --all` forgets the ids.
    @Test func aGetuiPushRecordsItsRequestIdInItsWrites() {
        var inbox = Inbox(settings: InboxSettings(mode: .off))
        let push = Push(app: "appId1", channel: .transparent, body: "x", payload: "{}", via: .getui, token: "cid1",
                        headers: ["request_id": "request-0001"])
        let effects = reduce(into: &inbox, .push(push, at: Self.at), now: .zero)
        #expect(effects.contains(.store(.getuiRequestId(app: "appId1", requestId: "request-0001", at: Self.at))))
        #expect(inbox.getuiRequestIds.contains(app: "appId1", requestId: "request-0001", now: Self.at))
        var socket = push
        socket.via = .socket
        socket.headers = ["request_id": "request-0002"]
        #expect(!reduce(into: &inbox, .push(socket, at: Self.at), now: .zero).contains { if case .store(.getuiRequestId) = $0 { true } else { false } })
        _ = reduce(into: &inbox, .reset(app: nil, all: true), now: .zero)
        #expect(inbox.getuiRequestIds.count == 0)
    }

    @Test func aSocketPushRegistersNothing() {
        var inbox = Inbox()
        var push = gatewayPush()
        push.via = .socket
        _ = reduce(into: &inbox, .push(push, at: Self.at), now: .zero)
        #expect(inbox.devices.isEmpty)
    }

    @Test func addListUnregisterRemove() {
        var inbox = Inbox()
        let device = Device(token: Self.token, app: "com.example.shop")
        #expect(reduce(into: &inbox, .device(.add(device), at: Self.at), now: .zero)
                == [.store(.device(device)), .reply(.device(device))])
        var gone = device
        gone.unregisteredAt = Self.at
        #expect(reduce(into: &inbox, .device(.unregister(token: Self.token), at: Self.at), now: .zero).first == .store(.device(gone)))
        // Unregistering again keeps the first time.
        let later = Self.at.addingTimeInterval(60)
        #expect(reduce(into: &inbox, .device(.unregister(token: Self.token), at: later), now: .zero)
                == [.reply(.device(gone))])
        #expect(reduce(into: &inbox, .device(.list, at: Self.at), now: .zero) == [.reply(.devices([gone], defaultOffline: false))])
        #expect(reduce(into: &inbox, .device(.remove(token: Self.token), at: Self.at), now: .zero)
                == [.store(.removeDevice(token: Self.token)), .reply(.ok)])
        #expect(inbox.devices.isEmpty)
    }

    @Test func anUnknownTokenChangesNothingAndSaysSo() {
        var inbox = Inbox()
        for command in [DeviceCommand.remove(token: "abcd"), .unregister(token: "abcd")] {
            let effects = reduce(into: &inbox, .device(command, at: Self.at), now: .zero)
            #expect(effects.count == 1)
            guard case .reply(let reply)? = effects.first else { continue }
            #expect(!reply.isOK)
            #expect(reply.errorMessage?.contains("no device with token abcd") == true)
        }
    }

    @Test func resetAllForgetsDevicesAndKeys() {
        var inbox = Inbox()
        inbox.devices[Self.token] = Device(token: Self.token, app: "com.example.shop")
        inbox.providerKeys["K"] = ProviderKey(id: "K", vendor: .apns, team: "T", secret: "S")
        _ = reduce(into: &inbox, .reset(app: nil, all: false), now: .zero)
        #expect(inbox.devices.count == 1 && inbox.providerKeys.count == 1)
        let effects = reduce(into: &inbox, .reset(app: nil, all: true), now: .zero)
        #expect(inbox.devices.isEmpty && inbox.providerKeys.isEmpty)
        #expect(effects.first == .store(.reset(app: nil, all: true, idFloor: 0)))
    }

    @Test func keysAreAddedListedWithoutSecretsAndRemoved() {
        var inbox = Inbox()
        let key = ProviderKey(id: "ABC123DEFG", vendor: .apns, team: "TEAM123456", secret: "PEM")
        _ = reduce(into: &inbox, .key(.add(key)), now: .zero)
        let listed = reduce(into: &inbox, .key(.list), now: .zero)
        #expect(listed == [.reply(.keys([key]))])
        #expect(listed.reply == ["ok": true, "keys": [["id": "ABC123DEFG", "vendor": "apns", "team": "TEAM123456", "appKey": nil]]])
        #expect(reduce(into: &inbox, .key(.remove(id: "ABC123DEFG")), now: .zero)
                == [.store(.removeProviderKey(id: "ABC123DEFG")), .reply(.ok)])
        #expect(reduce(into: &inbox, .key(.remove(id: "ABC123DEFG")), now: .zero).count == 1)
    }
}

/// The `device` and `key` ops on the wire.
@Suite struct DeviceRequestTests {
    func decode(_ text: String) throws(WireError) -> Request { try Request.decode(frame: Array(text.utf8)) }

    @Test func deviceOpsDecodeAndEncodeBack() throws {
        let token = String(repeating: "0F", count: 80)
        let add = try decode(#"{"op":"device","action":"add","token":"\#(token)","app":"com.example.shop","vendor":"getui"}"#)
        #expect(add == .device(.add(Device(token: token.lowercased(), app: "com.example.shop", vendor: .getui))))
        let tagged = try decode(#"{"op":"device","action":"add","token":"rid-1","app":"appkey","vendor":"jpush","tags":["女","深圳","女"],"alias":"892"}"#)
        #expect(tagged == .device(.add(Device(token: "rid-1", app: "appkey", vendor: .jpush, tags: ["深圳", "女"], alias: "892"))))
        for command in [
            DeviceCommand.add(Device(token: "abcd", app: "a")), .add(Device(token: "rid", app: "k", vendor: .jpush, tags: ["t1", "t2"], alias: "a")),
            .list, .remove(token: "abcd"), .unregister(token: "abcd"),
        ] {
            #expect(try decode(JSON.object(command.wireObject).compactText) == .device(command))
        }
        for command in [KeyCommand.add(ProviderKey(id: "K", vendor: .apns, team: "T", secret: "S")), .list, .remove(id: "K")] {
            #expect(try decode(JSON.object(command.wireObject).compactText) == .key(command))
        }
    }

    @Test(arguments: [
        (#"{"op":"device"}"#, "\"action\" must be one of add, list, remove, unregister"),
        (#"{"op":"device","action":"add","token":"ab cd","app":"a"}"#, "hex digits, or a registration id"),
        (#"{"op":"device","action":"add","token":"zz!","app":"a"}"#, "hex digits, or a registration id"),
        (#"{"op":"device","action":"add","token":"abcd"}"#, "\"app\" is required"),
        (#"{"op":"device","action":"add","token":"abcd","app":"a","vendor":"hms"}"#, "\"vendor\" must be one of apns, jpush, getui, fcm"),
        (#"{"op":"device","action":"remove"}"#, "\"token\" is required"),
        (#"{"op":"device","action":"add","token":"abcd","app":"a","tags":"vip"}"#, "\"tags\" must be a list of tags"),
        (#"{"op":"device","action":"add","token":"abcd","app":"a","tags":["a\nb"]}"#, "\"tags\" must be a list of tags"),
        (#"{"op":"device","action":"add","token":"abcd","app":"a","tags":[""]}"#, "\"tags\" must be a list of tags"),
        (#"{"op":"device","action":"add","token":"abcd","app":"a","alias":"\#(String(repeating: "x", count: 41))"}"#, "\"alias\" must be 1 to 40 bytes"),
        (#"{"op":"device","action":"list","token":"abcd"}"#, "unknown field \"token\""),
        (#"{"op":"key","action":"add","id":"K","secret":"S"}"#, "\"team\" is required for an APNs key"),
        (#"{"op":"key","action":"add","team":"T","secret":"S"}"#, "\"id\" is required"),
        (#"{"op":"key","action":"remove"}"#, "\"id\" is required"),
    ])
    func badOpsAreRefusedWithWhatIsAccepted(text: String, expected: String) {
        do {
            _ = try decode(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }
}
