import Foundation
import PushCore
import TestSupport
import PushJSON

/// An inbox driven through the reducer with a manual clock, as the loop would drive it.
struct Scenario {
    var inbox: Inbox
    let clock = ManualClock()

    init(_ inbox: Inbox = Inbox()) { self.inbox = inbox }

    /// Runs one event at the clock's instant.
    @discardableResult
    mutating func send(_ event: Event) -> [Effect] {
        reduce(into: &inbox, event, now: clock.now)
    }

    /// A push arriving now, at the clock's wall time.
    @discardableResult
    mutating func push(_ push: Push) -> [Effect] { send(.push(push, at: clock.wallNow)) }

    mutating func setState(_ state: AppState) { send(.setAppState(state)) }

    /// The message a push became, as the store received it.
    static func inserted(_ effects: [Effect]) -> Message? {
        effects.writes.compactMap { if case .insert(let message) = $0 { message } else { nil } }.first
    }
}

// MARK: - Pushes like those of the Getui and JPush sample apps

extension Push {
    static func apns(
        app: String = "com.example.shop", title: String? = "官方客服", body: String = "訂單 1270339 已發貨",
        badge: BadgeDirective? = nil
    ) -> Push {
        Push(app: app, channel: .apns, title: title, body: body, badge: badge,
             payload: #"{"aps":{"alert":{"title":"官方客服","body":"訂單 1270339 已發貨"}}}"#)
    }

    static func passThrough(
        app: String = "com.example.news", body: String = "早報：今日要聞", taskId: String = "TASK-1",
        msgId: String = "MSG-1", offline: Bool = false, badge: BadgeDirective? = nil
    ) -> Push {
        Push(app: app, channel: .transparent, body: body, taskId: taskId, msgId: msgId, offline: offline,
             badge: badge, payload: #"{"taskId":"\#(taskId)","msgId":"\#(msgId)","payload":"\#(body)"}"#)
    }
}

// MARK: - Reading effects

extension Array where Element == Effect {
    var writes: [StoreChange] { compactMap { if case .store(let change) = $0 { change } else { nil } } }
    var published: [BusEvent] { compactMap { if case .publish(let event) = $0 { event } else { nil } } }
    var topics: [Topic] { published.map(\.topic) }
    /// The reply, typed.
    var typedReply: Reply? { compactMap { if case .reply(let reply) = $0 { reply } else { nil } }.last }
    /// The reply as the wire layer writes it.
    var reply: JSONObject? { typedReply?.wireObject }
    func events(_ topic: Topic) -> [BusEvent] { published.filter { $0.topic == topic } }
}

extension JSON {
    static func int(_ value: Int) -> JSON { .number(JSONNumber(value)) }
    static func id(_ value: Int64) -> JSON { .number(JSONNumber(value)) }
}

/// The `badge.changed` event the reducer publishes for one app.
func badgeChanged(_ app: String, _ icon: Int, _ server: Int) -> Effect {
    .publish(BusEvent(.badgeChanged, ["app": .string(app), "badge": .int(icon), "serverBadge": .int(server)]))
}

/// The `feedback` event for one message.
func feedback(_ action: Int, _ message: Message) -> Effect {
    .publish(BusEvent(.feedback, [
        "action": .int(action), "id": .id(message.id), "app": .string(message.app),
        "taskId": .string(orNull: message.taskId), "msgId": .string(orNull: message.msgId),
    ]))
}
