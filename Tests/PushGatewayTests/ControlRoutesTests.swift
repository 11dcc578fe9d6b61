import Foundation
import PushCore
import PushGateway
import PushJSON
import Testing

/// The control API's routes over hand-built requests: who may call it, which paths and methods
/// it serves, and the socket's `Request` each becomes.
@Suite struct ControlRoutesTests {
    static func request(
        _ method: String, _ path: String, loopback: Bool = true, authorization: String? = nil
    ) -> HTTPRequest {
        var request = HTTPRequest(
            method: method, path: path, headers: authorization.map { [HTTPHeader("authorization", $0)] } ?? [], body: [],
            version: .http2, isTLS: false)
        request.fromLoopback = loopback
        return request
    }

    static let context = GatewayContext(inbox: Inbox(), now: Date(timeIntervalSince1970: 1_700_000_000))

    /// The answer's status and its `error` text (nil when it is not a refusal answered at once).
    static func refusal(_ decision: GatewayDecision) -> (status: Int, error: String)? {
        guard case .respond(let response) = decision,
            let object = try? JSON.parse(response.body).objectValue, object["ok"] == .bool(false)
        else { return nil }
        return (response.status, object["error"]?.stringValue ?? "")
    }

    @Test func theProviderRoutesHandPushdeckPathsToTheControlAPI() {
        let routes = ProviderRoutes(devices: .open)
        #expect(routes.routes(for: "/pushdeck/v1/messages") is ControlRoutes)
        #expect(routes.routes(for: "/pushdeck/elsewhere") is ControlRoutes)
        #expect(routes.routes(for: "/3/device/abc") is APNsRoutes)
    }

    @Test func withoutATokenOnlyLoopbackPeersAreServed() throws {
        let routes = ControlRoutes()
        let refused = try #require(Self.refusal(routes.decide(Self.request("GET", "/pushdeck/v1/messages", loopback: false), context: Self.context)))
        #expect(refused.status == 403)
        #expect(refused.error.contains("--control-token"))
        guard case .request(.list, _) = routes.decide(Self.request("GET", "/pushdeck/v1/messages"), context: Self.context) else {
            Issue.record("a loopback peer is served")
            return
        }
    }

    @Test func withATokenEveryPeerMustSendIt() throws {
        let routes = ControlRoutes(token: "s3cret-token")
        for loopback in [true, false] {
            for header in [nil, "Bearer wrong", "Basic s3cret-token", "Bearer s3cret-token2", "Bearer s3cret-toke", "Bearer"] {
                let decision = routes.decide(Self.request("GET", "/pushdeck/v1/messages", loopback: loopback, authorization: header), context: Self.context)
                #expect(Self.refusal(decision)?.status == 401, "\(header ?? "no header") from loopback \(loopback)")
                if case .respond(let response) = decision {
                    #expect(response.headers.contains(HTTPHeader("www-authenticate", "Bearer")))
                }
            }
            for header in ["Bearer s3cret-token", "bearer s3cret-token"] {
                guard case .request(.list, _) = routes.decide(
                    Self.request("GET", "/pushdeck/v1/messages", loopback: loopback, authorization: header), context: Self.context)
                else {
                    Issue.record("\(header) from loopback \(loopback) is served")
                    continue
                }
            }
        }
    }

    @Test func unknownPathsAre404AndOtherMethods405WithAllow() throws {
        let routes = ControlRoutes()
        for path in ["/pushdeck/v1/nothing", "/pushdeck/v2/messages", "/pushdeck/", "/pushdeck/v1/messages/1"] {
            let refused = try #require(Self.refusal(routes.decide(Self.request("GET", path), context: Self.context)), "\(path)")
            #expect(refused.status == 404, "\(path)")
            #expect(refused.error.contains("GET /pushdeck/v1/messages"), "\(path): \(refused.error)")
        }
        let decision = routes.decide(Self.request("DELETE", "/pushdeck/v1/reset"), context: Self.context)
        #expect(Self.refusal(decision)?.status == 405)
        if case .respond(let response) = decision { #expect(response.headers.contains(HTTPHeader("allow", "POST"))) }
        #expect(Self.refusal(routes.decide(Self.request("POST", "/pushdeck/v1/messages"), context: Self.context))?.status == 405)
    }

    @Test func messagesTakeTheListsOptionsAsQueryParameters() throws {
        let routes = ControlRoutes()
        guard case .request(let request, let answer) = routes.decide(
            Self.request("GET", "/pushdeck/v1/messages?limit=2&unread=true&before=9&app=com.example%2Eshop"), context: Self.context)
        else {
            Issue.record("messages is a list request")
            return
        }
        #expect(request == .list(ListQuery(limit: 2, unread: true, before: 9, app: "com.example.shop")))
        let answered = answer(.messages([]))
        #expect(answered.status == 200)
        #expect(String(decoding: answered.body, as: UTF8.self) == #"{"ok":true,"messages":[]}"#)
        #expect(answered.headers.contains(HTTPHeader("content-type", "application/json")))
        // The socket's decoder says what it refuses, in the socket's words.
        for (query, words) in [
            ("limit=0", "from 1 to 1000"), ("limit=x", "whole number"), ("colour=red", "unknown field \"colour\""),
            ("unread=maybe", "true or false"), ("app=a&app=b", "given twice"), ("app=%zz", "percent-encoded"),
        ] {
            let refused = try #require(Self.refusal(routes.decide(Self.request("GET", "/pushdeck/v1/messages?\(query)"), context: Self.context)), "\(query)")
            #expect(refused.status == 400, "\(query)")
            #expect(refused.error.contains(words), "\(query): \(refused.error)")
        }
    }

    @Test func resetIsTheEnginesResetAndExpectIsTheSinksLongPoll() {
        let routes = ControlRoutes()
        guard case .request(.reset(app: nil, all: false), let answer) = routes.decide(Self.request("POST", "/pushdeck/v1/reset"), context: Self.context) else {
            Issue.record("reset is the reset request")
            return
        }
        #expect(answer(.error("store: disk full")).status == 400)
        guard case .request(.reset(app: "com.example.shop", all: true), _) = routes.decide(
            Self.request("POST", "/pushdeck/v1/reset?app=com.example.shop&all=true"), context: Self.context)
        else {
            Issue.record("reset takes app and all")
            return
        }
        guard case .expect(let query) = routes.decide(Self.request("GET", "/pushdeck/v1/expect?unread=3&title=a+b%21"), context: Self.context) else {
            Issue.record("expect is a long-poll")
            return
        }
        #expect(query == [QueryItem("unread", "3"), QueryItem("title", "a b!")])
    }
}
