import Foundation
import Glibc
import PushBus
import PushCore
import PushJSON
import Testing
import TestSupport

/// Several receipts, or several events, in one MQTT message, one a line — only to readers whose
/// state says they take them so, and the single form still taken from and sent to every other.
/// What each instance published is read from the broker's log (`log_type all`: a line for each
/// PUBLISH it received, with its topic).
@Suite struct BusBatchTests {
    static let token = String(repeating: "ef", count: 32)

    /// A sender of this version lists `receipts` among its state's `batches` and gets a turn's
    /// receipts in one message; a sender of a version before batches (its state lists none) gets
    /// one message a receipt, the single form, exactly as before.
    @Test func anOwnerSendsATurnsReceiptsInOneMessageOnlyToASenderThatTakesThem() throws {
        let broker = try MosquittoBroker()
        try Self.retainState(of: "newer", #"{"online":true,"session":"n","batches":["receipts","events"]}"#, broker)
        try Self.retainState(of: "older", #"{"online":true,"session":"o"}"#, broker)
        let sink = AnsweringSink(tokens: [Self.token])
        let owner = try Bus(BusConfiguration(host: "127.0.0.1", port: broker.port, id: "owner"), outbox: [], log: { _ in })
        owner.attach(sink)
        defer { owner.close() }
        BusSocketTests.drive(owner) {
            broker.log.contains("owner 1 \(RemotePush.topic(token: Self.token))") && owner.instances["owner"] != nil
                && owner.instances["newer"] != nil && owner.instances["older"] != nil
        }
        try #require(owner.instances["older"] != nil, "the owner did not see the senders' states: \(broker.log)")

        let count = 5
        let lines = (0..<count).map { _ in Self.push(from: "newer") } + (0..<count).map { _ in Self.push(from: "older") }
        try Self.waitOnTheSocket(of: owner, for: lines, broker: broker)
        try #require(sink.submitted == 2 * count)
        BusSocketTests.drive(owner) { Self.published(by: "owner", to: "older", broker) == count }

        let toNewer = Self.published(by: "owner", to: "newer", broker)
        #expect(toNewer == 1, "\(toNewer) messages for \(count) receipts to a sender that takes several in one")
        #expect(Self.published(by: "owner", to: "older", broker) == count)
        #expect(broker.log.contains("'\(BusReceipt.topic(sender: "older"))', ... (\(sink.receiptBytes) bytes)"),
                "a receipt to an older sender is the single form")
    }

    /// The single form (what every owner sent before batches, and sends to an older sender) and
    /// several receipts in one message, one a line, each take its push out of the outbox.
    @Test func aSenderTakesOneReceiptAMessageAndSeveralInOne() throws {
        let broker = try MosquittoBroker()
        let now = Date()
        let pending = (0..<4).map { _ in
            RemotePush(
                id: RandomUUID.timeOrdered(millisecondsSince1970: Int64(now.timeIntervalSince1970 * 1000)), token: Self.token,
                payloadText: #"{"aps":{"alert":"waiting"}}"#, app: "com.example.app", channel: nil, collapseId: nil,
                pushType: "alert", priority: nil, via: .apns, headers: [:], acceptedAt: now, expiresAt: now.addingTimeInterval(3600))
        }
        let sink = AnsweringSink(tokens: [])
        let sender = try Bus(BusConfiguration(host: "127.0.0.1", port: broker.port, id: "sender"), outbox: pending, log: { _ in })
        sender.attach(sink)
        defer { sender.close() }
        BusSocketTests.drive(sender) { sender.instances["sender"] != nil && broker.log.contains("sender 1 \(BusReceipt.topic(sender: "sender"))") }
        let state = try #require(sender.instances["sender"], "the sender did not connect: \(broker.log)")
        #expect(state["batches"] == .array([.string("receipts"), .string("events")]))

        func receipt(_ push: RemotePush) -> String { BusReceipt(push: push.id, fate: .stored, reason: nil).wireJSON.compactText }
        let topic = BusReceipt.topic(sender: "sender")
        try Self.publish(receipt(pending[0]), to: topic, broker)
        try Self.publish([receipt(pending[1]), receipt(pending[2]), receipt(pending[3])].joined(separator: "\n"), to: topic, broker)
        BusSocketTests.drive(sender) { sink.removed.count == pending.count }
        #expect(Set(sink.removed) == Set(pending.map(\.id)))
        #expect(sender.report()["outbox"] == .number(JSONNumber(0)))
    }

    /// A turn's events leave in one message, one a line, while every instance online on the bus
    /// takes them so; with an instance online whose state lists no `batches` (a version that
    /// reads one event a message) they leave one a message.
    @Test func aTurnsEventsLeaveInOneMessageWhileEveryInstanceTakesThem() throws {
        let broker = try MosquittoBroker()
        let sink = AnsweringSink(tokens: [])
        let bus = try Bus(BusConfiguration(host: "127.0.0.1", port: broker.port, id: "teller"), outbox: [], log: { _ in })
        bus.attach(sink)
        defer { bus.close() }
        BusSocketTests.drive(bus) { bus.instances["teller"] != nil }
        try #require(bus.instances["teller"] != nil, "the bus did not connect: \(broker.log)")
        let events = Bus.eventsTopic("teller")
        func announceThree() {
            for index in 0..<3 { bus.announce(Array(#"{"topic":"badge.changed","app":"a","badge":\#(index),"serverBadge":0}"#.utf8)) }
            bus.turnEnded()
        }
        announceThree()
        BusSocketTests.drive(bus) { Self.published(by: "teller", topic: events, broker) >= 1 }
        #expect(Self.published(by: "teller", topic: events, broker) == 1)

        try Self.retainState(of: "older", #"{"online":true,"session":"o"}"#, broker)
        BusSocketTests.drive(bus) { bus.instances["older"] != nil }
        announceThree()
        BusSocketTests.drive(bus) { Self.published(by: "teller", topic: events, broker) >= 4 }
        #expect(Self.published(by: "teller", topic: events, broker) == 4)
    }

    /// A watch-all screen takes each line of an events message as an event of its own.
    @Test func aWatchAllScreenTakesSeveralEventsInOneMessage() throws {
        let broker = try MosquittoBroker()
        var configuration = BusConfiguration(host: "127.0.0.1", port: broker.port, id: "wall")
        configuration.watchAll = true
        let sink = AnsweringSink(tokens: [])
        let wall = try Bus(configuration, outbox: [], log: { _ in })
        wall.attach(sink)
        defer { wall.close() }
        BusSocketTests.drive(wall) { wall.instances["wall"] != nil && broker.log.contains("wall 0 pushdeck/v1/instances/+/events") }
        try #require(wall.instances["wall"] != nil, "the wall did not connect: \(broker.log)")
        let titles = ["first", "second"]
        let lines = titles.indices.map { index -> String in
            let title: String = titles[index]
            let message = Message(
                id: Int64(index + 1), app: "com.example.app", channel: .apns, title: title, receivedAt: Date(),
                payload: #"{"aps":{"alert":"\#(title)"}}"#, via: .apns)
            return BusEvent(.remoteReceived, message: message).json.compactText
        }
        try Self.publish(lines.joined(separator: "\n"), to: Bus.eventsTopic("other"), broker, qos: 0)
        BusSocketTests.drive(wall) { sink.submitted == 2 }
        #expect(sink.submitted == 2)
        #expect(wall.refusedPushes == 0)
    }

    // MARK: - Helpers

    static func push(from sender: String) -> String {
        let now = Date()
        return RemotePush(
            id: RandomUUID.timeOrdered(millisecondsSince1970: Int64(now.timeIntervalSince1970 * 1000)), token: token,
            payloadText: #"{"aps":{"alert":"batched"}}"#, app: "com.example.app", channel: nil, collapseId: nil, pushType: "alert",
            priority: nil, via: .apns, headers: [:], acceptedAt: now, expiresAt: now.addingTimeInterval(3600)
        ).wireJSON(sender: sender).compactText
    }

    static func retainState(of id: String, _ state: String, _ broker: MosquittoBroker) throws {
        let result = try runProgram(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-r", "-t", Bus.stateTopic(id), "-m", state])
        try #require(result.status == 0, "mosquitto_pub: \(result.stderr)")
    }

    static func publish(_ message: String, to topic: String, _ broker: MosquittoBroker, qos: Int = 1) throws {
        let result = try runProgram(["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "\(qos)", "-t", topic, "-m", message])
        try #require(result.status == 0, "mosquitto_pub: \(result.stderr)")
    }

    /// Messages the broker received from client `id` on `topic`.
    static func published(by id: String, topic: String, _ broker: MosquittoBroker) -> Int {
        broker.log.split(separator: "\n").filter { $0.contains("Received PUBLISH from \(id) ") && $0.contains("'\(topic)'") }.count
    }

    static func published(by id: String, to sender: String, _ broker: MosquittoBroker) -> Int {
        published(by: id, topic: BusReceipt.topic(sender: sender), broker)
    }

    /// Publishes `lines` to the token's topic and waits until all of them are on the owner's
    /// socket, then lets one turn take them (as `BusSocketTests.oneTurnTakesEveryPushAlreadyOnTheSocket`).
    static func waitOnTheSocket(of owner: Bus, for lines: [String], broker: MosquittoBroker) throws {
        var entry = try publishAndWaitOnTheSocket(of: owner, lines, token: token, broker: broker).entry
        entry.revents = Int16(POLLIN)
        owner.ready(entry)
        owner.turnEnded()
    }
}

/// A server as the bus sees it that answers each push at once (as its commit would), and keeps
/// the outbox rows the bus removes.
final class AnsweringSink: BusSink {
    let tokens: [String]
    private(set) var submitted = 0
    private(set) var removed: [String] = []
    /// The size of one receipt as the owner sends it alone (every receipt here is alike).
    let receiptBytes = BusReceipt(push: RandomUUID.text(), reply: AnsweringSink.answer).wireJSON.compactText.utf8.count
    static let answer = Reply.error("kept by the test")
    init(tokens: [String]) { self.tokens = tokens }
    func submit(_ request: Request, completion: @escaping (Reply) -> Void) {
        submitted += 1
        completion(Self.answer)
    }
    func record(_ change: StoreChange) {
        if case .outboxRemove(let id) = change { removed.append(id) }
    }
    var revision: Int { 0 }
    var deviceTokens: [String] { tokens }
    func stateFields() -> [(key: String, value: JSON)] { [] }
}
