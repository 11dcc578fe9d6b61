import Foundation
import PushCore
import PushJSON
import PushScenario
import Testing
import TestSupport

/// Instant and live play are one engine in two hosts, so a scenario must give the same
/// observations both ways. Each generated scenario (pushes of both channels and of JPush's
/// push API with collapse ids, pushes via the APNs, JPush, Getui and FCM gateways and their refusals, reads and deletes by id and "last", push mode, app states, badge
/// sets, clears, sync, policies and SDK calls, mutes, resets) is played step by step instantly, and
/// every expect step is written with everything instant play observed there — ledgers, unread,
/// held, dropped, banner, the last push's fate, feedback, callback. The same file must then pass
/// played live into a real `pushdeck serve --gateway`, and played instantly by the binary, with
/// the same JSON report both ways.
@Suite struct PlayDifferentialTests {
    @Test("a generated scenario observes the same instantly and live", arguments: [UInt64(11), 12, 13])
    func generatedScenariosAgree(seed: UInt64) throws {
        // A banner long enough that real time between live steps cannot end one instant play
        // still shows (instant play's clock does not move: no step has a time).
        let server = try GatewayServer(extraArguments: ["--banner-seconds", "600"], memory: true).server
        let text = try Self.scenario(seed: seed, steps: 320)
        let file = server.folder.file("generated.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let instant = try runPushdeck(["play", "--json", "--banner-seconds", "600", file])
        #expect(instant.status == 0, "instant: \(instant.stdout)\(instant.stderr)")
        // PUSHDECK_KEEP_GENERATED=/tmp/gen keeps each generated file (/tmp/gen-SEED.json) to replay by hand.
        if let keep = ProcessInfo.processInfo.environment["PUSHDECK_KEEP_GENERATED"] { try? Data(text.utf8).write(to: URL(fileURLWithPath: keep + "-\(seed).json")) }
        let live = try server.run(["play", "--live", "--instant", "--allow-reset", "--json", file])
        #expect(live.status == 0, "live: \(live.stdout)\(live.stderr)\n\(text)")
        #expect(live.stdout == instant.stdout, "live: \(live.stdout)\ninstant: \(instant.stdout)")
    }

    /// The scenario's text: random steps, and every eighth an expect of what instant play saw.
    static func scenario(seed: UInt64, steps count: Int) throws -> String {
        var random = SeededRandom(seed: seed)
        var player = InstantPlayer(bannerSeconds: 600)
        var lines: [String] = []
        var pushes = 0
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        for index in 0..<count {
            let app = pick(["com.example.shop", "com.example.news"])
            let line: String
            if index % 8 == 7 {
                let scope: String? = pick([nil, app])
                var observed = player.observe(app: scope)
                observed.feedback = observed.feedback ?? []
                line = Self.expect(observed, app: scope)
            } else {
                line = Self.action(&random, app: app, number: pushes + 1)
                if line.contains(#""push""#) { pushes += 1 }
            }
            let step = try ScenarioLoader.parse(Array(#"{"name":"one","steps":[\#(line),{"expect":{"badge":0}}]}"#.utf8), file: "g.json").steps[0]
            _ = player.run(step)
            lines.append(line)
        }
        return #"{"name":"generated \#(seed)","steps":[\#n"# + lines.joined(separator: ",\n") + "\n]}"
    }

    /// One step that is not an expect.
    static func action(_ random: inout SeededRandom, app: String, number: Int) -> String {
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        let pushes = [
            #"{"aps":{"alert":{"title":"Order \#(number)","body":"订单 \#(number)"}}}"#,
            #"{"aps":{"alert":"Badge \#(number)","badge":\#(random.next() % 6)}}"#,
            #"{"aps":{"content-available":1}}"#,
            #"{"taskId":"T\#(number)","msgId":"M\#(number)","payload":"早報 \#(number)"}"#,
            #"{"taskId":"T\#(number)","msgId":"M\#(number)","payload":"+1","autoBadge":"+1"}"#,
            #"{"platform":"all","audience":"all","notification":{"alert":"JPush \#(number)","ios":{"badge":"+1"}},"options":{"apns_collapse_id":"c\#(random.next() % 2)"}}"#,
        ]
        let token = "8c97f1d0c3e4b2a1908f7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b3a2\(random.next() % 2)"
        let gateways = [
            #"{"app":"\#(app)","push":{"via":"apns","token":"\#(token)","payload":{"aps":{"alert":{"title":"Gateway \#(number)"},"badge":\#(random.next() % 4)}},"headers":{"apns-collapse-id":"g\#(random.next() % 2)"}}}"#,
            #"{"app":"\#(app)","push":{"via":"apns","token":"not-hex","payload":{"aps":{"alert":"refused"}}}}"#,
            #"{"app":"\#(app)","push":{"via":"jpush","payload":{"platform":["ios"],"audience":"all","notification":{"ios":{"alert":"JPush gateway \#(number)","badge":"+1"}},"message":{"msg_content":"m\#(number)"}}}}"#,
            #"{"app":"\#(app)","push":{"via":"jpush","payload":{"platform":["android"],"audience":"all","notification":{"android":{"alert":"not for iOS"}}}}}"#,
            #"{"app":"shop-project","push":{"via":"fcm","token":"cK9x:APA91b-g\#(random.next() % 2)","payload":{"notification":{"title":"FCM \#(number)","body":"tray"}}}}"#,
            #"{"app":"shop-project","push":{"via":"fcm","token":"cK9x:APA91b-g0","payload":{"data":{"n":"\#(number)"}}}}"#,
            #"{"app":"shop-project","push":{"via":"fcm","payload":{"data":{"no":"target"}}}}"#,
            #"{"app":"\#(app)","push":{"via":"getui","token":"9c1f5e4d3b2a1908f7e6d5c4b3a2918\#(random.next() % 2)","payload":{"push_message":{"notification":{"title":"Getui \#(number)","body":"通知","click_type":"none"}}}}}"#,
            #"{"app":"\#(app)","push":{"via":"getui","token":"9c1f5e4d3b2a1908f7e6d5c4b3a29180","payload":{"push_message":{"transmission":"t\#(number)"}}}}"#,
        ]
        switch random.next() % 24 {
        case 0...8: return #"{"app":"\#(app)","push":{"payload":\#(pick(pushes))}}"#
        case 19...20: return pick(gateways)
        case 9: return #"{"state":"\#(pick(["foreground", "foreground", "background", "terminated"]))"}"#
        case 10: return #"{"mode":"\#(pick(["on", "on", "off"]))"}"#
        case 11: return #"{"app":"\#(app)","read":"last"}"#
        case 12: return #"{"read":\#(random.next() % UInt64(number + 1) + 1)}"#
        case 13: return #"{"app":"\#(app)","read":"all"}"#
        case 14: return #"{"app":"\#(app)","delete":"last"}"#
        case 15: return #"{"app":"\#(app)","badge":\#(pick([#"{"set":3}"#, #"{"clear":true}"#, #"{"sync":false}"#, #"{"sync":true}"#]))}"#
        case 16: return #"{"app":"\#(app)","badge":{"policy":"\#(pick(["app", "platform"]))"}}"#
        case 17: return #"{"app":"\#(app)","badge":{"sdk":"\#(pick(["jpush", "getui"]))","call":"setBadge","value":\#(random.next() % 3)}}"#
        case 18: return #"{"state":"foreground"}"#
        case 21: return #"{"app":"\#(app)","mute":\#(pick(["true", "3600", "false"]))}"#
        case 22: return #"{"app":"\#(app)","mute":false}"#
        default: return random.next() % 4 == 0 ? #"{"app":"\#(app)","reset":true}"# : #"{"mode":"on"}"#
        }
    }

    /// An expect step holding every observed value.
    static func expect(_ seen: Observed, app: String?) -> String {
        var fields: JSONObject = [:]
        if let badge = seen.badge { fields["badge"] = .number(JSONNumber(badge)) }
        if let server = seen.serverBadge { fields["serverBadge"] = .number(JSONNumber(server)) }
        if let unread = seen.unread { fields["unread"] = .number(JSONNumber(unread)) }
        if let held = seen.held { fields["held"] = .number(JSONNumber(held)) }
        if let dropped = seen.dropped { fields["dropped"] = .number(JSONNumber(dropped)) }
        if let banner = seen.banner { fields["banner"] = .string(orNull: banner) }
        if let delivered = seen.delivered ?? nil { fields["delivered"] = .bool(delivered) }
        if let reason = seen.reason { fields["reason"] = .string(orNull: reason) }
        fields["feedback"] = .array((seen.feedback ?? []).map { .number(JSONNumber($0)) })
        if let callback = seen.callback ?? nil { fields["callback"] = .string(callback) }
        var step: JSONObject = ["expect": .object(fields)]
        if let app { step["app"] = .string(app) }
        return JSON.object(step).compactText
    }
}
