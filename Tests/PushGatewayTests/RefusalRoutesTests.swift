import Foundation
import PushCore
@testable import PushGateway
import PushJSON
import Testing

/// `ProviderRoutes.refuse`: a refusal of the transport goes to the vendor whose path it names,
/// and each vendor answers every kind in its own shape — including those the end-to-end tests
/// cannot provoke through a running server (no server behind the gateway).
@Suite struct RefusalRoutesTests {
    static let routes = ProviderRoutes(devices: .open)

    static func refusal(_ kind: HTTPRefusal.Kind, path: String, headers: [HTTPHeader] = []) -> HTTPRefusal {
        HTTPRefusal(kind, request: HTTPRequest(method: "POST", path: path, headers: headers, body: [], version: .http2, isTLS: false))
    }

    /// Status and the vendor's code, or nil when the body is not that vendor's shape.
    static func answer(_ response: HTTPResponse) -> (status: Int, apns: String?, jpush: Int?, getui: Int?) {
        let object = (try? JSON.parse(response.body))?.objectValue
        func int(_ value: JSON?) -> Int? { value?.intValue }
        var jpush: Int?
        if case .object(let error)? = object?["error"] { jpush = int(error["code"]) }
        return (response.status, object?["reason"]?.stringValue, jpush, object?["msg"] == nil ? nil : int(object?["code"]))
    }

    @Test(arguments: [
        ("/3/device/00ff", nil), ("/v3/push?x=1", .jpush), ("/v2/app/push/single/cid", .getui), ("/token", .fcm),
        ("/token?a=b", .fcm), ("/tokens", nil), ("/v1/projects/p/messages:send", .fcm), ("/iid/v1:batchAdd", .fcm),
        ("/pushdeck/v1/messages", .control), ("/3/device/é?/v3/", nil), ("", nil),
        // FCM's prefixes are read on the bytes, with Characters' answer: a prefix whose last
        // `/` a combining mark joins is not there, one a non-ASCII letter follows is.
        ("/v1/projects/\u{301}p/messages:send", nil), ("/iid/\u{301}v1:batchAdd", nil), ("/token\u{301}", nil),
        ("/v1/projects/é/messages:send", .fcm), ("/v1/projects", nil), ("/iid", nil),
    ] as [(String, ProviderRoutes.Claimant?)])
    func everyPathGoesToTheVendorThatClaimsIt(path: String, claimant: ProviderRoutes.Claimant?) {
        #expect(ProviderRoutes.claimant(of: path) == claimant)
    }

    @Test func theQueryStartsAtTheFirstQuestionMark() {
        #expect(HTTPRequest.withoutQuery("/token?a=b?c") == "/token")
        #expect(HTTPRequest.withoutQuery("/token") == "/token")
        #expect(HTTPRequest.withoutQuery("?a") == "")
        #expect(HTTPRequest.withoutQuery("") == "")
        #expect(HTTPRequest.withoutQuery("/3/device/é\u{301}?x") == "/3/device/é\u{301}")
    }

    @Test func everyKindIsAnsweredInEachVendorsShape() {
        let kinds: [HTTPRefusal.Kind] = [
            .bodyTooLarge(limit: 65536), .headersTooLarge(limit: 16384), .badMethod, .malformed("HPE_INVALID_VERSION"),
            .timeout(milliseconds: 30_000), .unavailable,
        ]
        let apns = kinds.map { Self.answer(Self.routes.refuse(Self.refusal($0, path: "/3/device/00ff"))) }
        #expect(apns.map(\.status) == [413, 431, 405, 400, 400, 503])
        #expect(apns.map(\.apns) == ["PayloadTooLarge", "HeadersTooLarge", "MethodNotAllowed", "MalformedRequest", "IdleTimeout", "ServiceUnavailable"])
        let jpush = kinds.map { Self.answer(Self.routes.refuse(Self.refusal($0, path: "/v3/push?x=1"))) }
        #expect(jpush.map(\.status) == [400, 400, 405, 400, 400, 503])
        #expect(jpush.map(\.jpush) == [1005, 1003, 1001, 1003, 1003, 1030])
        let getui = kinds.map { Self.answer(Self.routes.refuse(Self.refusal($0, path: "/v2/app/push/single/cid"))) }
        #expect(getui.map(\.status) == [400, 400, 405, 400, 400, 403])
        #expect(getui.map(\.getui) == [20001, 20001, 405, 20001, 20001, 30019])
    }

    /// No path (garbage), or one nobody serves: APNs answers. Its `apns-id` is the request's when
    /// the headers came that far, else a new one.
    @Test func whatNoVendorClaimsIsAPNsAndEchoesItsApnsId() throws {
        let id = "0f7e3a4c-1111-4222-8333-944445555666"
        let echoed = Self.routes.refuse(Self.refusal(.bodyTooLarge(limit: 1), path: "", headers: [HTTPHeader("apns-id", id)]))
        #expect(Self.answer(echoed).apns == "PayloadTooLarge")
        #expect(echoed.headers.first { $0.name == "apns-id" }?.value == id)
        let fresh = Self.routes.refuse(Self.refusal(.malformed("HPE_INVALID_METHOD"), path: "/somewhere"))
        #expect(Self.answer(fresh).apns == "MalformedRequest")
        #expect(UUID(uuidString: try #require(fresh.headers.first { $0.name == "apns-id" }?.value)) != nil)
    }
}
