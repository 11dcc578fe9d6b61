import Foundation
@testable import PushCore
import PushJSON
import Testing

/// Faults: what `fault add` takes and refuses (each refusal naming the option), and which
/// requests an armed fault answers, how often and for how long.
@Suite struct FaultTests {
    static let midnight = Date(timeIntervalSince1970: 1_764_547_200)
    static let armed = ArmedFault(
        id: 1, spec: FaultSpec(vendor: .apns, token: "abcd", path: "/3/device/*", action: .status(429, reason: "TooManyRequests", retryAfter: 30, latencyMs: 5), bound: .count(2)),
        armedAt: midnight, remaining: 2)
    /// The reasons and paths the gateway checks against (a stand-in with the gateway's shape).
    static let vocabulary = FaultVocabulary(vendors: [
        .apns: .init(reasons: [("BadDeviceToken", 400), ("Unregistered", 410), ("TooManyRequests", 429), ("InternalServerError", 500)], prefixes: nil),
        .jpush: .init(reasons: [("1000", 500), ("2002", 429)], prefixes: ["/v3/"]),
        .getui: .init(reasons: [("20001", 400)], prefixes: ["/v2/"]),
        .fcm: .init(reasons: [("UNAVAILABLE", 503)], prefixes: ["/token", "/v1/projects/", "/iid/"]),
    ])

    static func spec(_ text: String) throws(WireError) -> FaultSpec {
        let object = (try? JSON.parse(text))?.objectValue ?? [:]
        return try FaultSpec(fields: object, vocabulary: vocabulary)
    }

    @Test func fieldsReadBackAsWritten() throws {
        for text in [
            #"{"vendor":"apns","status":410,"reason":"Unregistered","retryAfter":3,"count":1}"#,
            #"{"latencyMs":250,"for":"5m"}"#,
            #"{"vendor":"fcm","goaway":true,"shutdown":true,"after":2,"count":1}"#,
            #"{"close":true,"rate":0.5,"path":"/v3/*"}"#,
        ] {
            let spec = try Self.spec(text)
            #expect(try FaultSpec(fields: spec.wireObject, vocabulary: Self.vocabulary) == spec, "\(text)")
        }
        #expect(try Self.spec(#"{"latencyMs":250,"for":"5m"}"#).bound == .seconds(300))
        #expect(try ArmedFault(wire: Self.armed.wireObject) == Self.armed)
    }

    @Test("bad faults are refused naming the option, nothing armed", arguments: [
        (#"{"status":99}"#, "--status takes an HTTP status from 100 to 599; got 99"),
        (#"{"status":600}"#, "--status takes an HTTP status from 100 to 599; got 600"),
        (#"{"status":500,"rate":1.5}"#, "--rate takes a probability from 0 to 1; got 1.5"),
        (#"{"status":500,"rate":-0.1}"#, "--rate takes a probability from 0 to 1; got -0.1"),
        (#"{"goaway":true,"status":500}"#, "--goaway cannot go with --status: a GOAWAY answers no request"),
        (#"{"status":500,"count":0}"#, "--count takes a number ≥ 1; got 0 (a fault that never fires: leave it out)"),
        (#"{"vendor":"hms","status":500}"#, "--vendor takes apns, jpush, getui, fcm; not 'hms'"),
        (#"{"status":500,"after":2}"#, "--after goes with --goaway (it counts a connection's streams)"),
        (#"{"vendor":"jpush","path":"/3/*","status":500}"#, "--vendor jpush --path '/3/*' can never match: jpush's requests take /v3/…"),
        (#"{"vendor":"apns","path":"/v3/push","status":500}"#, "--vendor apns --path '/v3/push' can never match: apns's requests take every path but /v3/, /v2/, /token, /v1/projects/, /iid/"),
        (#"{"path":"3/device/*","status":500}"#, "--path '3/device/*' can never match: every request's path starts with '/'"),
        (#"{"vendor":"apns","status":500,"reason":"Sleepy"}"#, "--reason Sleepy is not one of apns's: BadDeviceToken, Unregistered, TooManyRequests, InternalServerError"),
        (#"{"status":500,"reason":"InternalServerError"}"#, "--reason needs --vendor: each vendor has its own reasons"),
        (#"{"status":500,"count":2,"for":"30s"}"#, "give one of --count, --for and --rate, not more"),
        (#"{"status":500,"for":"soon"}"#, #"--for takes a duration like 30s, 5m or 1h (or seconds); got "soon""#),
        (#"{"close":true,"latencyMs":5}"#, "--close cannot go with --latency: a closed connection answers nothing"),
        (#"{"vendor":"apns"}"#, "a fault needs what it does: --status N, --latency MS, --goaway or --close"),
        (#"{"retryAfter":5}"#, "--retry-after goes with --status"),
        (#"{"shutdown":true,"close":true}"#, "--shutdown goes with --goaway"),
        (#"{"status":500,"colour":"red"}"#, "a fault takes vendor, token, app, path, status, reason, retryAfter, latencyMs, goaway, shutdown, after, close, count, for, rate; not \"colour\""),
    ])
    func badFaultsAreRefused(text: String, expected: String) {
        #expect(throws: WireError(expected)) { try Self.spec(text) }
    }

    @Test func theEngineArmsListsAndClearsAndARefusedFaultArmsNothing() {
        var inbox = Inbox()
        inbox.faults.vocabulary = Self.vocabulary
        let store = EmptyReading()
        func handle(_ request: Request) -> Reply {
            Engine.handle(request, inbox: &inbox, store: store, now: .zero, wallNow: Self.midnight).reply
        }
        let spec = FaultSpec(vendor: .apns, action: .status(500, reason: nil, retryAfter: nil, latencyMs: nil))
        #expect(handle(.fault(.add(spec))) == .fault(ArmedFault(id: 1, spec: spec, armedAt: Self.midnight)))
        // Decoded without the gateway's reasons, checked by the engine against them.
        let unknown = FaultSpec(vendor: .apns, action: .status(500, reason: "Sleepy", retryAfter: nil, latencyMs: nil))
        #expect(handle(.fault(.add(unknown))).errorMessage?.hasPrefix("--reason Sleepy is not one of apns's") == true)
        #expect(handle(.fault(.list)) == .faults([ArmedFault(id: 1, spec: spec, armedAt: Self.midnight)]))
        #expect(handle(.fault(.clear(id: 7))) == .error("no armed fault has id 7 ('pushdeck fault list' lists them)"))
        _ = handle(.fault(.add(spec)))
        #expect(handle(.fault(.clear(id: 1))) == .faultsCleared(1))
        #expect(handle(.fault(.list)).isOK)
        _ = handle(.reset(app: nil, all: false))
        #expect(inbox.faults.isEmpty)
        #expect(handle(.fault(.add(spec))) == .fault(ArmedFault(id: 1, spec: spec, armedAt: Self.midnight)))
    }

    @Test func theSocketOpDecodesAndEncodesBack() throws {
        for text in [
            #"{"op":"fault","action":"add","vendor":"getui","status":400,"count":1}"#, #"{"op":"fault","action":"list"}"#,
            #"{"op":"fault","action":"clear","id":3}"#, #"{"op":"fault","action":"clear"}"#,
        ] {
            let request = try Request.decode(frame: Array(text.utf8))
            #expect(try Request.decode(frame: request.encode()) == request)
        }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"fault","action":"add","status":700}"#.utf8)) }
        #expect(throws: WireError.self) { try Request.decode(frame: Array(#"{"op":"fault","action":"list","id":3}"#.utf8)) }
    }

    @Test func aFaultAnswersItsMatchesCountTimesOrForItsTime() {
        var book = FaultBook()
        let none: () -> (tokens: [String], app: String?) = { (["abcd"], "com.example.shop") }
        _ = book.add(FaultSpec(vendor: .apns, token: "abcd", action: .status(410, reason: nil, retryAfter: nil, latencyMs: nil), bound: .count(2)), now: Self.midnight)
        _ = book.add(FaultSpec(vendor: .jpush, path: "/v3/push", action: .close, bound: .seconds(30)), now: Self.midnight)
        #expect(book.fire(vendor: .apns, path: "/3/device/ffff", streamIndex: 1, now: Self.midnight) { (["ffff"], nil) } == nil)
        #expect(book.fire(vendor: .apns, path: "/3/device/abcd", streamIndex: 1, now: Self.midnight, summary: none)?.id == 1)
        #expect(book.fire(vendor: .apns, path: "/3/device/abcd", streamIndex: 1, now: Self.midnight, summary: none)?.id == 1)
        #expect(book.fire(vendor: .apns, path: "/3/device/abcd", streamIndex: 1, now: Self.midnight, summary: none) == nil)
        #expect(book.fire(vendor: .jpush, path: "/v3/push?x", streamIndex: 1, now: Self.midnight, summary: none) == nil)
        #expect(book.fire(vendor: .jpush, path: "/v3/push", streamIndex: 1, now: Self.midnight.addingTimeInterval(29), summary: none)?.id == 2)
        #expect(book.fire(vendor: .jpush, path: "/v3/push", streamIndex: 1, now: Self.midnight.addingTimeInterval(30), summary: none) == nil)
        #expect(book.list(now: Self.midnight.addingTimeInterval(30)).isEmpty)
    }

    @Test func aGoawayWaitsForItsStreamsAndARateIsACoinPerRequest() {
        var book = FaultBook()
        let summary: () -> (tokens: [String], app: String?) = { ([], nil) }
        _ = book.add(FaultSpec(action: .goaway(after: 2, shutdown: true)), now: Self.midnight)
        #expect(book.fire(vendor: .fcm, path: "/x", streamIndex: 2, now: Self.midnight, summary: summary) == nil)
        #expect(book.fire(vendor: .fcm, path: "/x", streamIndex: 3, now: Self.midnight, summary: summary)?.action == .goaway(after: 2, shutdown: true))
        _ = book.clear(id: nil)
        _ = book.add(FaultSpec(action: .status(503, reason: nil, retryAfter: nil, latencyMs: nil), bound: .rate(0.25)), now: Self.midnight)
        var copy = book
        let fired = (0..<4000).filter { _ in book.fire(vendor: .apns, path: "/3/device/a", streamIndex: 1, now: Self.midnight, summary: summary) != nil }
        #expect((800...1200).contains(fired.count), "\(fired.count) of 4000")
        // Seeded: the same seed fires on the same requests.
        let again = (0..<4000).filter { _ in copy.fire(vendor: .apns, path: "/3/device/a", streamIndex: 1, now: Self.midnight, summary: summary) != nil }
        #expect(again == fired)
    }

    @Test func anAuthEndpointIsFaultedOnlyByAFaultWhosePathNamesIt() {
        var book = FaultBook()
        book.vocabulary = FaultVocabulary(vendors: [
            .fcm: .init(reasons: [], prefixes: ["/token", "/v1/projects/"], authPaths: ["/token"]),
            .getui: .init(reasons: [], prefixes: ["/v2/"], authPaths: ["/v2/*/auth"]),
        ])
        let summary: () -> (tokens: [String], app: String?) = { ([], nil) }
        let unavailable = FaultAction.status(503, reason: nil, retryAfter: nil, latencyMs: nil)
        _ = book.add(FaultSpec(vendor: .fcm, action: unavailable), now: Self.midnight)
        _ = book.add(FaultSpec(action: .close), now: Self.midnight)
        // Neither the FCM fault nor the vendor-less one answers the OAuth exchange or Getui's auth.
        #expect(book.fire(vendor: .fcm, path: "/token", streamIndex: 1, now: Self.midnight, summary: summary) == nil)
        #expect(book.fire(vendor: .fcm, path: "/token?x=1", streamIndex: 1, now: Self.midnight, summary: summary) == nil)
        #expect(book.fire(vendor: .getui, path: "/v2/abc/auth", streamIndex: 1, now: Self.midnight, summary: summary) == nil)
        #expect(book.fire(vendor: .fcm, path: "/v1/projects/p/messages:send", streamIndex: 1, now: Self.midnight, summary: summary)?.id == 1)
        #expect(book.fire(vendor: .getui, path: "/v2/abc/push/single/cid", streamIndex: 1, now: Self.midnight, summary: summary)?.id == 2)
        // A path that names the endpoint does.
        _ = book.clear(id: nil)
        _ = book.add(FaultSpec(vendor: .fcm, path: "/token", action: unavailable), now: Self.midnight)
        _ = book.add(FaultSpec(vendor: .getui, path: "/v2/*/auth", action: .close), now: Self.midnight)
        #expect(book.fire(vendor: .fcm, path: "/token", streamIndex: 1, now: Self.midnight, summary: summary)?.id == 3)
        #expect(book.fire(vendor: .getui, path: "/v2/abc/auth", streamIndex: 1, now: Self.midnight, summary: summary)?.id == 4)
        #expect(book.fire(vendor: .fcm, path: "/v1/projects/p/messages:send", streamIndex: 1, now: Self.midnight, summary: summary) == nil)
    }

    @Test func tenThousandFaultsForOtherTokensAndAppsOfTheSameVendorCostARequestNothing() {
        var book = FaultBook()
        for index in 0..<10_000 {
            let spec = index % 2 == 0
                ? FaultSpec(vendor: .apns, token: "t\(index)", action: .close)
                : FaultSpec(vendor: .apns, app: "com.example.other\(index)", action: .close)
            _ = book.add(spec, now: Self.midnight)
        }
        // A request of another token and app is checked against none of them, and answered by none.
        #expect(book.candidates(vendor: .apns) { (["abcd"], "com.example.shop") }.isEmpty)
        #expect(book.fire(vendor: .apns, path: "/3/device/abcd", streamIndex: 1, now: Self.midnight) { (["abcd"], "com.example.shop") } == nil)
        #expect(book.candidates(vendor: .apns) { (["t42"], "com.example.other41") } == [41, 42])
        // Its own token's and its own app's faults still answer it.
        #expect(book.fire(vendor: .apns, path: "/3/device/t42", streamIndex: 1, now: Self.midnight) { (["t42"], nil) }?.id == 43)
        #expect(book.fire(vendor: .apns, path: "/3/device/x", streamIndex: 1, now: Self.midnight) { (["x"], "com.example.other41") }?.id == 42)
    }

    @Test func theFirstArmedOfAnAppsATokensAndAVendorsFaultsAnswers() {
        var book = FaultBook()
        let unavailable = FaultAction.status(503, reason: nil, retryAfter: nil, latencyMs: nil)
        _ = book.add(FaultSpec(vendor: .fcm, app: "shop", action: .close, bound: .count(1)), now: Self.midnight)
        _ = book.add(FaultSpec(vendor: .fcm, token: "abcd", action: unavailable, bound: .count(1)), now: Self.midnight)
        _ = book.add(FaultSpec(vendor: .fcm, action: .latency(5), bound: .count(1)), now: Self.midnight)
        let summary: () -> (tokens: [String], app: String?) = { (["abcd"], "shop") }
        let path = "/v1/projects/shop/messages:send"
        #expect(book.fire(vendor: .fcm, path: path, streamIndex: 1, now: Self.midnight, summary: summary)?.id == 1)
        #expect(book.fire(vendor: .fcm, path: path, streamIndex: 1, now: Self.midnight, summary: summary)?.id == 2)
        #expect(book.fire(vendor: .fcm, path: path, streamIndex: 1, now: Self.midnight, summary: summary)?.id == 3)
        #expect(book.fire(vendor: .fcm, path: path, streamIndex: 1, now: Self.midnight, summary: summary) == nil)
        // An app fault names the app exactly: another app's request is not its.
        _ = book.add(FaultSpec(vendor: .fcm, app: "shop", action: .close), now: Self.midnight)
        #expect(book.fire(vendor: .fcm, path: path, streamIndex: 1, now: Self.midnight) { (["abcd"], "shop2") } == nil)
    }

    @Test func tenThousandFaultsOfOtherVendorsCostARequestNothing() {
        var book = FaultBook()
        for index in 0..<10_000 {
            _ = book.add(FaultSpec(vendor: .jpush, token: "t\(index)", path: "/v3/push*", action: .close), now: Self.midnight)
        }
        // An APNs request is checked against none of them and never has its token read.
        var read = false
        #expect(book.candidates(vendor: .apns) { read = true; return (["t1"], nil) }.isEmpty)
        #expect(book.fire(vendor: .apns, path: "/3/device/abcd", streamIndex: 1, now: Self.midnight) { read = true; return (["abcd"], nil) } == nil)
        #expect(!read)
        #expect(book.candidates(vendor: .jpush) { (["t7"], nil) } == [7])
    }
}
