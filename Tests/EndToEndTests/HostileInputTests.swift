import Foundation
import Glibc
import PushCore
import Testing
import TestSupport
import PushJSON

/// Hostile bytes through the real socket to a real `pushdeck serve`: whatever a local
/// program sends, the server keeps answering `ping` at once on a fresh connection, and a request
/// it refuses changes nothing stored — the messages, every badge ledger, the mode, the app state.
@Suite struct HostileInputTests {
    // MARK: - Framing

    @Test func nulFloodsAreRefusedAndTheConnectionGoesOn() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        // A megabyte of NULs between objects, NULs inside an object, a NUL inside a string.
        try client.send([UInt8](repeating: 0, count: 1 << 20))
        try client.send(Array(#"{"op":"ping"}"#.utf8))
        var replies = try repliesUntilPing(client)
        try client.send([UInt8](#"{"op":"read","all":true"#.utf8) + [0, 0, 0] + Array("}".utf8))
        try client.send([UInt8](#"{"op":"badge","clear":true,"app":"a"#.utf8) + [0] + Array(#""}{"op":"ping"}"#.utf8))
        replies += try repliesUntilPing(client)
        #expect(replies.count >= 3)
        #expect(replies.allSatisfy { $0["ok"] == false }, "\(replies)")
        try deck.expectSurvived("NUL flood", replies: replies)
    }

    @Test func unbalancedBracesAreRefusedAndTheConnectionGoesOn() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        try client.send("}}}]]]}\n{\"op\":\"ping\"}")
        var replies = try repliesUntilPing(client)
        try client.send(#"{"op":"read","all":true]}{"op":"mode","set":"off"]]}{"a":[}]}"# + "\n{\"op\":\"ping\"}")
        replies += try repliesUntilPing(client)
        #expect(replies.count >= 4)
        #expect(replies.allSatisfy { $0["ok"] == false }, "\(replies)")
        // Ten thousand opening braces, then the client hangs up inside them.
        let opener = try RawClient(path: deck.server.socket)
        try opener.send(String(repeating: "{", count: 10_000))
        opener.finishSending()
        replies += try opener.readRepliesUntilClosed()
        #expect(replies.allSatisfy { $0["ok"] == false }, "\(replies)")
        try deck.expectSurvived("unbalanced braces", replies: replies)
    }

    @Test func tenThousandDeepNestingIsRefused() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        let depth = 10_000
        let arrays = #"{"op":"list","limit":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let objects = #"{"op":"push","payload":"# + String(repeating: #"{"a":"#, count: depth) + "1"
            + String(repeating: "}", count: depth) + "}"
        let bare = String(repeating: #"{"a":"#, count: depth) + "{}" + String(repeating: "}", count: depth)
        var replies: [JSONObject] = []
        for request in [arrays, objects, bare] {
            let reply = try client.request(request)
            #expect(reply["ok"] == false)
            #expect(reply["error"]?.stringValue?.contains("deep") == true, "\(reply)")
            replies.append(reply)
        }
        try deck.expectSurvived("deep nesting", replies: replies)
        // Deeper than the object limit allows: an error, then the connection closes.
        let deeper = try RawClient(path: deck.server.socket)
        try? deeper.send(#"{"a":"# + String(repeating: "[", count: 70_000))
        let closing = try deeper.readRepliesUntilClosed()
        #expect(closing.count == 1 && closing.first?["ok"] == false, "\(closing)")
        try deck.expectSurvived("nesting past the size limit", replies: closing)
    }

    // MARK: - Numbers, strings, bytes

    @Test func hugeNumbersInEveryNumericFieldAreRefused() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        let huge = [
            "1e999", "-1e999", "1e-999", "123456789012345678901234567890", "-123456789012345678901234567890",
            "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1.0", "1E2",
        ]
        let numericFields = [
            #"{"op":"badge","set":N}"#, #"{"op":"badge","app":"a","set":N}"#, #"{"op":"list","limit":N}"#,
            #"{"op":"list","before":N}"#, #"{"op":"read","id":N}"#, #"{"op":"read","ids":[N]}"#,
            #"{"op":"read","ids":[1,N]}"#, #"{"op":"delete","id":N}"#, #"{"op":"delete","ids":[N]}"#,
            #"{"op":"push","payload":{"aps":{"alert":"x","badge":N}}}"#, #"{"aps":{"alert":"x","badge":N}}"#,
        ]
        var replies: [JSONObject] = []
        for template in numericFields {
            for number in huge {
                let request = template.replacingOccurrences(of: "N", with: number)
                let reply = try client.request(request)
                #expect(reply["ok"] == false, "\(request) → \(reply)")
                replies.append(reply)
            }
        }
        try deck.expectSurvived("huge numbers", replies: replies)
    }

    @Test func loneSurrogatesAreRefused() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        let requests = [
            #"{"aps":{"alert":"\ud800"}}"#, #"{"aps":{"alert":"\udc00"}}"#, #"{"aps":{"alert":"a\ud800b"}}"#,
            #"{"aps":{"alert":"\ud800\u0041"}}"#, #"{"aps":{"alert":"\udbff\udbff"}}"#,
            #"{"op":"push","payload":{"aps":{"alert":"x"}},"app":"\ud800"}"#, #"{"op":"\ud800"}"#,
            #"{"op":"mode","set":"o\udfffn"}"#, #"{"\ud800":1}"#, #"{"op":"badge","app":"\udc00","clear":true}"#,
            #"{"taskId":"t","msgId":"m","payload":"\ud83d"}"#,
        ]
        var replies: [JSONObject] = []
        for request in requests {
            let reply = try client.request(request + "\n")
            #expect(reply["ok"] == false, "\(request) → \(reply)")
            #expect(reply["error"]?.stringValue?.contains("surrogate") == true, "\(reply)")
            replies.append(reply)
        }
        try deck.expectSurvived("lone surrogates", replies: replies)
    }

    @Test func invalidUTF8IsRefused() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        let badSequences: [[UInt8]] = [
            [0xFF], [0xFE], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0x80], [0xBF], [0xE6, 0x97], [0xF0, 0x9F, 0x98],
        ]
        var replies: [JSONObject] = []
        for bad in badSequences {
            for (before, after) in [
                (#"{"aps":{"alert":""#, #""}}"#), (#"{"op":"push","payload":{"aps":{"alert":"x"}},"app":""#, #""}"#),
                (#"{"op":""#, #""}"#), (#"{""#, #"":1}"#), (#"{"op":"badge","app":""#, #"","clear":true}"#),
            ] {
                let request = Array(before.utf8) + bad + Array(after.utf8) + [0x0A]
                try client.send(request)
                let reply = try client.readReply()
                #expect(reply["ok"] == false, "\(bad) → \(reply)")
                #expect(reply["error"]?.stringValue?.contains("UTF-8") == true, "\(reply)")
                replies.append(reply)
            }
        }
        // Between objects, the same bytes are junk: reported, skipped, and the stream goes on.
        try client.send(badSequences.flatMap { $0 } + Array(#"{"op":"ping"}"#.utf8))
        let junk = try repliesUntilPing(client)
        #expect(!junk.isEmpty && junk.allSatisfy { $0["ok"] == false }, "\(junk)")
        try deck.expectSurvived("invalid UTF-8", replies: replies + junk)
    }

    /// Seeded, so a failure names a reproducible case: pure random bytes, then a soup of the
    /// protocol's own tokens that gets past the framer more often.
    @Test func randomBytesNeverBreakTheServer() throws {
        let deck = try HostileDeck()
        var random = SeededRandom(seed: 0x5eed_1234)
        let tokens = [
            "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "\\ud800", "op", "\"op\":", "\"push\"", "\"read\"",
            "\"badge\"", "\"mode\"", "\"list\"", "\"payload\":", "\"aps\":", "\"alert\":", "\"badge\":", "\"ids\":",
            "\"set\":", "1e999", "-1", "0", "99999999999999999999", "true", "null", "\u{0}", "\u{7f}", "é", "長",
        ]
        for round in 0..<200 {
            var blob: [UInt8] = []
            let length = Int(random.next() % 2000) + 1
            if round < 100 {
                for _ in 0..<length { blob.append(UInt8(truncatingIfNeeded: random.next())) }
            } else {
                while blob.count < length {
                    if random.next() % 5 == 0 {
                        blob.append(UInt8(truncatingIfNeeded: random.next()))
                    } else {
                        blob += Array(tokens[Int(random.next() % UInt64(tokens.count))].utf8)
                    }
                }
            }
            let client = try RawClient(path: deck.server.socket)
            try client.send(blob)
            client.finishSending()
            let replies = try client.readRepliesUntilClosed()
            try deck.expectSurvived("random round \(round) (seed 0x5eed1234)", replies: replies)
        }
    }

    // MARK: - Fields

    /// Every field of every op, each given every kind of value it does not take: each is refused
    /// with the field's name in the message.
    @Test func wrongTypesInEveryFieldOfEveryOpAreRefused() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        let cases = WrongTypeCase.all
        #expect(cases.count > 300)
        for (index, wrong) in cases.enumerated() {
            let reply = try client.request(wrong.request.compactText)
            #expect(reply["ok"] == false, "\(wrong.request.compactText) → \(reply)")
            let message = reply["error"]?.stringValue ?? ""
            #expect(message.contains(wrong.field), "\(wrong.request.compactText) → \(message)")
            // The full check after each op's cases, and a ping after every case.
            let last = index == cases.count - 1 || cases[index + 1].op != wrong.op
            if last {
                try deck.expectSurvived("wrong types for op \(wrong.op)", replies: [reply])
            } else {
                try deck.expectPingAtOnce()
            }
        }
    }

    @Test func hugeIdListsAreRefused() throws {
        let deck = try HostileDeck()
        var replies: [JSONObject] = []
        // 100 000 ids are past the 64 KiB object limit: an error, and the connection closes.
        let hundredThousand = try RawClient(path: deck.server.socket)
        try? hundredThousand.send(#"{"op":"read","ids":["# + (1...100_000).map(String.init).joined(separator: ",") + "]}")
        let closed = try hundredThousand.readRepliesUntilClosed()
        #expect(closed.count == 1 && closed.first?["ok"] == false, "\(closed)")
        #expect(closed.first?["error"]?.stringValue?.contains("65536") == true, "\(closed)")
        replies += closed
        // Under the size limit but over the id limit, and lists naming ids that do not exist.
        let client = try RawClient(path: deck.server.socket)
        let lists = [
            #"{"op":"read","ids":["# + (1...10_001).map(String.init).joined(separator: ",") + "]}",
            #"{"op":"delete","ids":["# + (1...10_001).map(String.init).joined(separator: ",") + "]}",
            #"{"op":"read","ids":["# + (1...10_000).map(String.init).joined(separator: ",") + "]}",
            #"{"op":"delete","ids":["# + (1...10_000).map(String.init).joined(separator: ",") + "]}",
            #"{"op":"delete","ids":["# + String(repeating: "1,", count: 9_999) + "4]}",
            #"{"op":"read","ids":["# + (0..<5_000).map { _ in "9223372036854775807" }.joined(separator: ",") + "]}",
        ]
        for request in lists {
            let reply = try client.request(request)
            #expect(reply["ok"] == false, "\(reply)")
            replies.append(reply)
        }
        try deck.expectSurvived("huge id lists", replies: replies)
    }

    @Test func negativeAndOverflowingLimitsAreRefused() throws {
        let deck = try HostileDeck()
        let client = try RawClient(path: deck.server.socket)
        let values = [
            "-1", "0", "1001", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "4294967296", "1e3", "10.0", "\"10\"", "[10]", "true",
        ]
        // What each field does take, left out: a list page before any id, a badge up to 2^31 - 1.
        let fields = [
            ("list", "limit", Set<String>()), ("list", "before", ["1001", "4294967296", "9223372036854775807"]),
            ("badge", "set", ["0", "1001"]),
        ]
        var replies: [JSONObject] = []
        for (op, field, accepted) in fields {
            for value in values where !accepted.contains(value) {
                let reply = try client.request(#"{"op":"\#(op)","\#(field)":\#(value)}"#)
                #expect(reply["ok"] == false, "\(field) \(value) → \(reply)")
                #expect(reply["error"]?.stringValue?.contains(field) == true, "\(reply)")
                replies.append(reply)
            }
        }
        try deck.expectSurvived("limits", replies: replies)
    }

    // MARK: - Clients that misbehave

    @Test func aClientSendingHalfAnObjectAndStallingDelaysNobody() throws {
        let deck = try HostileDeck()
        let stalled = try RawClient(path: deck.server.socket)
        try stalled.send(#"{"op":"push","payload":{"aps":{"alert":"half an obj"#)
        try deck.expectSurvived("a stalled half object", replies: [])
        let other = try RawClient(path: deck.server.socket)
        let pushed = try other.request(#"{"aps":{"alert":"meanwhile"},"Simulator Target Bundle":"com.example.a"}"#)
        #expect(pushed["ok"] == true)
        try deck.acceptChanges()
        // The stalled client finishes later and is answered as anyone else.
        try stalled.send("ect\"}}}\n")
        #expect(try stalled.readReply()["ok"] == true)
    }

    @Test func aClientThatNeverReadsDelaysNobody() throws {
        let deck = try HostileDeck()
        let flooder = try RawClient(path: deck.server.socket, timeout: 30)
        let ping = Array(#"{"op":"ping"}"#.utf8)
        let flood = [UInt8]((0..<400_000).flatMap { _ in ping })
        // Blocks once the server stops reading this client; ends when the server goes away.
        let thread = Thread { try? flooder.send(flood) }
        thread.start()
        for round in 0..<20 {
            try deck.expectSurvived("a client that never reads, round \(round)", replies: [])
        }
        let sender = try RawClient(path: deck.server.socket)
        #expect(try sender.request(#"{"aps":{"alert":"still delivered"}}"#)["ok"] == true)
    }

    @Test func fiveHundredClientsVanishingMidObjectLeaveNoTrace() throws {
        let deck = try HostileDeck()
        let path = deck.server.socket
        let failures = Tally()
        DispatchQueue.concurrentPerform(iterations: 500) { index in
            do {
                let client = try RawClient(path: path)
                if index % 2 == 0 { client.resetOnClose() }
                let cut = 10 + index % 40
                let request = Array(#"{"op":"push","payload":{"aps":{"alert":"vanishing \#(index)"}},"app":"com.example.a"}"#.utf8)
                try client.send(Array(request.prefix(cut)))
                if index % 3 == 0 { client.finishSending() }
            } catch {
                failures.add("\(index): \(error)")
            }
        }
        #expect(failures.items.isEmpty, "\(failures.items.prefix(5))")
        try deck.expectSurvived("500 vanishing clients", replies: [])
    }
}
