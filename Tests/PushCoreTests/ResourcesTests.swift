import Foundation
import PushCore
import TestSupport
import Testing

/// What one sample in `Resources/` must decode to.
struct Expected: Sendable {
    var app: String
    var channel: Channel
    var title: String? = nil
    var subtitle: String? = nil
    var body: String? = nil
    var url: String? = nil
    var badge: BadgeDirective? = nil
    var taskId: String? = nil
    var msgId: String? = nil
    var offline = false
}

@Suite("Resources samples")
struct ResourcesTests {
    static let expected: [String: Expected] = [
        "order-shipped.apns": Expected(app: "com.example.shop", channel: .apns, title: "Order shipped", body: "订单 1270339 已发货，点击查看物流"),
        "alert-string.apns": Expected(app: "com.example.news", channel: .apns, body: "早报：今日要闻已更新，点击阅读"),
        "alert-subtitle.apns": Expected(app: "com.example.chat", channel: .apns, title: "官方客服", subtitle: "121店", body: "您有一条新消息：您好，请问有什么可以帮您？"),
        "loc-key.apns": Expected(app: "com.example.shop", channel: .apns, title: "ORDER_SHIPPED_TITLE", body: "ORDER_SHIPPED_BODY(1270339, SF Express)"),
        "badge-set.apns": Expected(app: "com.example.shop", channel: .apns, title: "Cart reminder", body: "You have 5 items waiting in your cart", badge: .set(5)),
        "badge-clear.apns": Expected(app: "com.example.shop", channel: .apns, badge: .set(0)),
        "silent.apns": Expected(app: "com.example.news", channel: .apns),
        "mutable-content.apns": Expected(app: "com.example.news", channel: .apns, title: "Morning brief", body: "早报：三条新闻，一分钟读完"),
        "getui-over-apns.apns": Expected(app: "com.example.shop", channel: .apns, title: "订单通知", body: "您的订单 1270339 已发货", url: "https://m.example.com/trace/1270339"),
        "getui-over-apns-silent.apns": Expected(app: "com.example.shop", channel: .apns, title: "店铺客服", body: "店铺客服回复了您的咨询", url: "http://im.example.com/client?orgId=121&siteId=88"),
        "thread-id.apns": Expected(app: "com.example.chat", channel: .apns, title: "店铺客服", body: "亲，您咨询的商品已经补货了"),
        "interruption-level.apns": Expected(app: "com.example.chat", channel: .apns, title: "红包", body: "你收到一个红包，24 小时内有效"),
        "customer-service.apns": Expected(app: "com.example.chat", channel: .apns, title: "Customer service", body: "You have a new message from customer service", url: "http://im.example.com/client?orgId=121&siteId=88", badge: .set(1)),
        "news-english.apns": Expected(app: "com.example.news", channel: .apns, body: "Morning brief: three stories in one minute", badge: .set(3)),
        "stpushmodel.getui.json": Expected(app: "com.example.shop", channel: .transparent, title: "官方客服", body: "您有一条新消息：订单 1270339 已发货，点击查看物流", url: "3?_from=push", taskId: "RASS_1130_0941_5077", msgId: "6f5c1a4e0b1270339"),
        "plain-string.getui.json": Expected(app: "com.example.news", channel: .transparent, body: "早报：今日天气晴，全天气温 12 到 20 度", taskId: "OSS_1130_0700_early", msgId: "m-20261130-0700"),
        "autobadge-plus.getui.json": Expected(app: "com.example.shop", channel: .transparent, title: "店铺客服", body: "您关注的店铺上新了", url: "2", badge: .autoAdd(1), taskId: "OSS_1130_1001", msgId: "m-1001"),
        "autobadge-minus.getui.json": Expected(app: "com.example.shop", channel: .transparent, body: "A message was read on another device", badge: .autoAdd(-1), taskId: "OSS_1130_1002", msgId: "m-1002"),
        "autobadge-set.getui.json": Expected(app: "com.example.chat", channel: .transparent, title: "Customer service", body: "5 unread conversations", badge: .autoSet(5), taskId: "OSS_1130_1003", msgId: "m-1003"),
        "offline-red-packet.getui.json": Expected(app: "com.example.chat", channel: .transparent, title: "红包", body: "你有一个红包待领取", url: "https://m.example.com/redbag/88010", taskId: "OSS_1130_2020", msgId: "m-2020", offline: true),
        "custom-message.jpush.json": Expected(app: "com.example.news", channel: .transparent, title: "早报", body: "早报：三条新闻，一分钟读完", url: "https://news.example.com/brief/20261130"),
        "message-key.jpush.json": Expected(app: "com.example.shop", channel: .transparent, body: "Your order 1270339 has shipped"),
    ]

    static let suffixes = [".apns", ".getui.json", ".jpush.json"]

    @Test func everySampleHasAnExpectationAndTheSetIsComplete() throws {
        let names = try PackagePaths.files(in: PackagePaths.resources, endingWith: Self.suffixes).map(\.lastPathComponent)
        #expect(Set(names) == Set(Self.expected.keys))
        #expect(names.filter { $0.hasSuffix(".apns") }.count >= 12)
        #expect(names.contains { $0.hasSuffix(".getui.json") })
        #expect(names.contains { $0.hasSuffix(".jpush.json") })
    }

    @Test func theREADMEListsEverySample() throws {
        let readme = try String(contentsOf: PackagePaths.resources.appendingPathComponent("README.md"), encoding: .utf8)
        for name in Self.expected.keys {
            #expect(readme.contains("`\(name)`"), "README.md does not list \(name)")
        }
    }

    @Test("each sample decodes to what it shows", arguments: ResourcesTests.expected.keys.sorted())
    func sample(name: String) throws {
        let expected = try #require(Self.expected[name])
        let bytes = try PackagePaths.bytes(of: PackagePaths.resources.appendingPathComponent(name))
        let push = try PushDecoder().decode(payload: bytes)
        #expect(push.app == expected.app)
        #expect(push.channel == expected.channel)
        #expect(push.title == expected.title)
        #expect(push.subtitle == expected.subtitle)
        #expect(push.body == expected.body)
        #expect(push.url == expected.url)
        #expect(push.badge == expected.badge)
        #expect(push.taskId == expected.taskId)
        #expect(push.msgId == expected.msgId)
        #expect(push.offline == expected.offline)
        #expect(push.payload == String(decoding: bytes, as: UTF8.self))
        // The same file sent on the wire as it is decodes the same way.
        guard case .push(let request) = try Request.decode(frame: bytes) else {
            Issue.record("\(name) is not a push request")
            return
        }
        #expect(try PushDecoder().decode(request) == push)
    }
}
