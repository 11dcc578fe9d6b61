import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// `Engine.decodeAhead` decodes a push before it is handled (the server does it while a turn
/// commits). Whatever it decodes, handling must come to the same replies and effects as
/// decoding in turn; what could depend on the inbox (a device's token, a Live Activity) it
/// leaves alone, and a payload the decoder refuses is still refused when handled.
@Suite struct DecodeAheadTests {
    static let decoder = PushDecoder()

    @Test func aPushWithoutATokenIsDecodedAhead() {
        var request = Request.push(PushRequest(payloadText: #"{"aps":{"alert":"hi"}}"#, app: "com.example.shop"))
        Engine.decodeAhead(&request, decoder: Self.decoder)
        guard case .push(let push) = request else { Issue.record("not a push: \(request)"); return }
        #expect(push.decoded?.app == "com.example.shop")
        #expect(push.decoded?.body == "hi")
    }

    @Test(arguments: [
        PushRequest(payloadText: #"{"aps":{"alert":"hi"}}"#, via: .apns, token: String(repeating: "ab", count: 32)),
        PushRequest(payloadText: #"{"aps":{"timestamp":1,"event":"update","content-state":{}}}"#, app: "com.example.shop", pushType: "liveactivity"),
        PushRequest(payloadText: #"{"aps":{"badge":"seven"}}"#),
    ])
    func whatDependsOnTheInboxOrIsRefusedIsLeftAlone(_ pushRequest: PushRequest) {
        var request = Request.push(pushRequest)
        Engine.decodeAhead(&request, decoder: Self.decoder)
        guard case .push(let push) = request else { Issue.record("not a push: \(request)"); return }
        #expect(push.decoded == nil)
    }

    @Test("handled decoded ahead or not: same replies, same effects", arguments: [UInt64(1), 2, 3])
    func decodingAheadChangesNothingHandled(seed: UInt64) {
        var plain = Inbox()
        var ahead = Inbox()
        let plainStore = MemoryStore()
        let aheadStore = MemoryStore()
        var random = SeededRandom(seed: seed)
        let start = Date(timeIntervalSince1970: 1_764_547_200)
        for step in 0..<300 {
            let now = Instant.zero + Double(step)
            let wallNow = start.addingTimeInterval(Double(step))
            let request = StoreConformanceTests.request(&random, step: step)
            var decodedAhead = request
            Engine.decodeAhead(&decodedAhead, decoder: Self.decoder)
            let handledPlain = Engine.handle(request, inbox: &plain, store: plainStore, now: now, wallNow: wallNow)
            for case .store(let change) in handledPlain.effects { plainStore.apply(change) }
            let handledAhead = Engine.handle(decodedAhead, inbox: &ahead, store: aheadStore, now: now, wallNow: wallNow)
            for case .store(let change) in handledAhead.effects { aheadStore.apply(change) }
            #expect(handledPlain.reply == handledAhead.reply, "step \(step): \(request)")
            #expect(handledPlain.effects == handledAhead.effects, "step \(step): \(request)")
        }
    }
}
