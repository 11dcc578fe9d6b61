import Foundation
import PushCore
import PushJSON
import PushStore
import Testing

/// `BusEvent(wire:)`, the wire layer's reader of events: every event the engine publishes reads
/// back off its wire line as the event written, with a typed body; a line that is no event is a
/// clear error.
@Suite struct BusEventWireTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_547_200)
    static let startToken = String(repeating: "5a", count: 32)

    /// The events of a session that publishes every topic: requests handed to the engine over an
    /// in-memory store, as a host hands them.
    static func publishedEvents() -> [BusEvent] {
        var inbox = Inbox()
        inbox.devices[startToken] = Device(token: startToken, app: "com.example.food", kind: .pushToStart)
        let store = MemoryStore()
        var events: [BusEvent] = []
        var clock = Instant.zero
        func handle(_ request: Request) {
            clock = clock + 1
            let handled = Engine.handle(request, inbox: &inbox, store: store, now: clock, wallNow: t0.addingTimeInterval(Double(clock.nanoseconds) / 1e9), announce: true)
            for effect in handled.effects {
                switch effect {
                case .store(let change): store.apply(change)
                case .publish(let event): events.append(event)
                case .reply, .forward: break
                }
            }
        }
        handle(.push(PushRequest(payloadText: #"{"aps":{"alert":{"title":"Order","body":"shipped"},"badge":1}}"#, app: "com.example.shop")))
        handle(.push(PushRequest(payloadText: #"{"payload":"{\"t\":1}","taskId":"T1","msgId":"M1"}"#, app: "com.example.shop", channel: .transparent)))
        handle(.read(.ids([1])))
        handle(.read(.all(app: "com.example.shop")))
        handle(.delete([2]))
        handle(.badge(app: "com.example.shop", change: .set(3), sync: true))
        handle(.badge(app: nil, change: .clear, sync: nil))
        handle(.mode(.off))
        handle(.push(PushRequest(payloadText: #"{"aps":{"alert":"lost"}}"#, app: "com.example.shop")))
        handle(.mode(.on))
        handle(.app(.terminated))
        handle(.push(PushRequest(payloadText: #"{"payload":"held"}"#, app: "com.example.shop", channel: .transparent)))
        handle(.reset(app: "com.example.shop", all: false))
        let start: JSON = [
            "timestamp": .number(JSONNumber(1_764_547_201)), "event": "start", "attributes-type": "DeliveryAttributes",
            "attributes": ["order": "A-17"], "content-state": ["status": "preparing"], "input-push-token": 1,
        ]
        handle(.push(PushRequest(
            payloadText: JSON.object(["aps": start]).compactText, app: "com.example.food", channel: .apns, pushType: "liveactivity",
            via: .apns, token: startToken, headers: ["apns-push-type": "liveactivity"])))
        // A provider request the gateway answered, as its request log keeps it.
        let answered = ProviderRequestRecord(
            receivedAt: t0, answeredAt: t0.addingTimeInterval(0.004), vendor: .apns, method: "POST", path: "/3/device/\(startToken)",
            tokens: [startToken], app: "com.example.food", status: 410, reason: "Unregistered", ids: ["apns-id": "7f2c1e4a-0000-4000-8000-000000000001"],
            notificationKey: "apns-id 7f2c1e4a-0000-4000-8000-000000000001")
        for case .publish(let event) in Engine.logProviderRequest(answered, inbox: &inbox) { events.append(event) }
        return events
    }

    @Test func everyPublishedEventReadsBackAsTheEventWrittenWithATypedBody() throws {
        let events = Self.publishedEvents()
        #expect(Set(events.map(\.topic)) == Set(Topic.allCases), "the session publishes every topic")
        for event in events {
            let line = try #require(try JSON.parse(Array(event.json.compactText.utf8), maxDepth: JSONParser.replyMaxDepth).objectValue)
            let read = try BusEvent(wire: line)
            #expect(read == event, "\(event.topic.rawValue)")
            #expect(read.body != nil && read.body == Self.asTheWireCarriesIt(event.body), "\(event.topic.rawValue): \(event.json.compactText)")
        }
    }

    /// A message's wire object leaves out what only the store keeps (its badge directive and
    /// time to live): a delivered message reads back as its wire object says.
    static func asTheWireCarriesIt(_ body: EventBody?) -> EventBody? {
        guard case .received(let message)? = body, let object = message.wireJSON.objectValue else { return body }
        return (try? Message(wire: object)).map(EventBody.received)
    }

    @Test func theTypedBodiesSayWhatTheEventsSay() throws {
        let events = Self.publishedEvents()
        let bodies = events.compactMap(\.body)
        #expect(bodies.count == events.count)
        #expect(bodies.contains { if case .received(let message) = $0 { message.id == 1 && message.title == "Order" } else { false } })
        #expect(bodies.contains(.read(ids: [1])))
        #expect(bodies.contains(.readAll(app: "com.example.shop")))
        #expect(bodies.contains(.deleted(ids: [2])))
        #expect(bodies.contains(.badgeRequest(app: "com.example.shop", change: .set(3), sync: true)))
        #expect(bodies.contains(.badgeRequest(app: nil, change: .clear, sync: nil)))
        #expect(bodies.contains(.mode(.off)) && bodies.contains(.appState(.terminated)))
        #expect(bodies.contains(.dropped(DropNotice(app: "com.example.shop", dropped: 1))))
        #expect(bodies.contains(.feedback(FeedbackNotice(action: 90001, id: 2, app: "com.example.shop", taskId: "T1", msgId: "M1"))))
        #expect(bodies.contains(.banner(BannerNotice(id: 1, app: "com.example.shop", title: "Order", body: "shipped", count: 1))))
        #expect(bodies.contains(.reset(app: "com.example.shop", all: false)))
        #expect(bodies.contains { if case .undelivered(let push) = $0 { push.held && push.id != nil && push.payload == ["payload": "held"] } else { false } })
        #expect(bodies.contains { if case .activity(let activity, accepted: true, discarded: nil) = $0 { activity.id == "activity-1" } else { false } })
    }

    @Test func droppedHeldMessagesGiveTheirReasonAndIds() throws {
        let event = try BusEvent(wire: ["topic": "message.dropped", "reason": "expired", "ids": [3, 4]])
        #expect(event.body == .dropped(DropNotice(reason: "expired", ids: [3, 4])))
    }

    @Test("a line that is no event is an error naming what is wrong", arguments: [
        (#"{"ok":true}"#, "needs \"topic\""),
        (#"{"topic":"message.sent"}"#, "unknown event topic \"message.sent\""),
        (#"{"topic":"mode.changed","mode":"sideways"}"#, "mode.changed event's \"mode\" must be a push mode"),
        (#"{"topic":"message.read","ids":["1"]}"#, "message.read event's \"ids\" must be an array of message ids"),
        (#"{"topic":"remote.received"}"#, "remote.received event's \"message\" must be an object"),
        (#"{"topic":"badge.changed","app":"a","badge":1}"#, "badge.changed event's \"serverBadge\" must be an integer"),
    ])
    func refusals(line: String, expected: String) throws {
        let object = try #require(try JSON.parse(Array(line.utf8)).objectValue)
        #expect {
            try BusEvent(wire: object)
        } throws: { error in
            (error as? WireError)?.message.contains(expected) == true
        }
    }
}
