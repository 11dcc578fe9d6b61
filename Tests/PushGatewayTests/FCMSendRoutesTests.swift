import Foundation
import PushCore
@testable import PushGateway
import PushJSON
import Testing

func fcmRequest(_ path: String, method: String = "POST", bearer: String? = "ya29.anything", body: String) -> HTTPRequest {
    var headers = [HTTPHeader("content-type", "application/json")]
    if let bearer { headers.append(HTTPHeader("authorization", "Bearer \(bearer)")) }
    return HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8), version: .http2, isTLS: true)
}

/// A refusal's status, gRPC status, FCM errorCode and field violations' fields.
func fcmRefusal(_ decision: GatewayDecision) -> (status: Int, grpc: String?, code: String?, fields: [String]) {
    guard case .respond(let response) = decision else { return (0, nil, nil, []) }
    let error = (try? JSON.parse(response.body))?.objectValue?["error"]?.objectValue
    let details = error?["details"]?.arrayValue?.compactMap(\.objectValue) ?? []
    let code = details.first { $0["@type"] == "type.googleapis.com/google.firebase.fcm.v1.FcmError" }?["errorCode"]?.stringValue
    let fields = details.first { $0["@type"] == "type.googleapis.com/google.rpc.BadRequest" }?["fieldViolations"]?.arrayValue?
        .compactMap { $0.objectValue?["field"]?.stringValue } ?? []
    return (response.status, error?["status"]?.stringValue, code, fields)
}

@Suite struct FCMSendRoutesTests {
    static let token = "cK9x:APA91b-route"
    static let send = "/v1/projects/pushdeck-test/messages:send"
    let routes = FCMRoutes()

    func context(_ inbox: Inbox = Inbox()) -> GatewayContext { GatewayContext(inbox: inbox, now: fcmNow) }

    /// Bad input, each FCM's answer, and nothing handed to the inbox.
    @Test(arguments: [
        ("not json", 400, "INVALID_ARGUMENT"),
        (#"{"message":{"token":"cK9x:APA91b-route"},"extra":1}"#, 400, "INVALID_ARGUMENT"),
        (#"{"message":{"token":"cK9x:APA91b-route"},"validate_only":"yes"}"#, 400, "INVALID_ARGUMENT"),
        (#"{}"#, 400, "INVALID_ARGUMENT"),
        (#"{"message":{"token":"a","topic":"b"}}"#, 400, "INVALID_ARGUMENT"),
        (#"{"message":{"condition":"'a' in topics &&"}}"#, 400, "INVALID_ARGUMENT"),
        (#"{"message":{"token":"cK9x:APA91b-route","data":{"k":5}}}"#, 400, "INVALID_ARGUMENT"),
    ])
    func badBodiesAreRefused(body: String, status: Int, grpc: String) {
        let refusal = fcmRefusal(routes.decide(fcmRequest(Self.send, body: body), context: context()))
        #expect(refusal.status == status && refusal.grpc == grpc, "\(body): \(refusal)")
    }

    @Test func aBadConditionNamesTheField() {
        let refusal = fcmRefusal(routes.decide(fcmRequest(Self.send, body: #"{"message":{"condition":"'a' in topics &&"}}"#), context: context()))
        #expect(refusal.fields == ["message.condition"] && refusal.code == "INVALID_ARGUMENT")
    }

    @Test func badMethodsAndPathsAreNotFound() {
        for (method, path) in [("GET", Self.send), ("POST", "/v1/projects/p/messages:sendAll"), ("POST", "/v1/projects/p"),
                               ("PUT", "/v1/projects/p/registrations/t/topicSubscriptions")] {
            let refusal = fcmRefusal(routes.decide(fcmRequest(path, method: method, body: "{}"), context: context()))
            #expect(refusal.status == 404 && refusal.grpc == "NOT_FOUND", "\(method) \(path)")
        }
    }

    @Test func bearersAreCheckedOnceAKeyIsRegistered() throws {
        let body = #"{"message":{"token":"cK9x:APA91b-route","data":{"a":"b"}}}"#
        // No key: any well-formed bearer; none at all is 401.
        #expect(fcmRefusal(routes.decide(fcmRequest(Self.send, bearer: nil, body: body), context: context())).status == 401)
        guard case .requests = routes.decide(fcmRequest(Self.send, body: body), context: context()) else {
            Issue.record("the open gateway refused a well-formed bearer")
            return
        }
        let keyed = inboxWithFCMKey()
        // A forged bearer; one /token issued; that one past its hour; one for another project.
        #expect(fcmRefusal(routes.decide(fcmRequest(Self.send, bearer: "ya29.forged", body: body), context: context(keyed))).grpc == "UNAUTHENTICATED")
        let issued = routes.tokens.issue(project: "pushdeck-test", now: fcmNow)
        guard case .requests = routes.decide(fcmRequest(Self.send, bearer: issued, body: body), context: context(keyed)) else {
            Issue.record("an issued bearer was refused")
            return
        }
        let later = GatewayContext(inbox: keyed, now: fcmNow.addingTimeInterval(3600))
        #expect(fcmRefusal(routes.decide(fcmRequest(Self.send, bearer: issued, body: body), context: later)).status == 401)
        let wrong = fcmRefusal(routes.decide(fcmRequest("/v1/projects/another-project/messages:send", bearer: issued, body: body), context: context(keyed)))
        #expect(wrong.status == 403 && wrong.grpc == "PERMISSION_DENIED")
    }

    @Test func validateOnlyDeliversNothingAndAnUnknownTokenIsRegisteredAsAndroid() throws {
        let dry = routes.decide(fcmRequest(Self.send, body: #"{"message":{"token":"cK9x:APA91b-route","data":{"a":"b"}},"validate_only":true}"#), context: context())
        guard case .respond(let response) = dry else { Issue.record("validate_only handed the inbox a request"); return }
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"name":"projects/pushdeck-test/messages/fake_message_id"}"#)
        let real = routes.decide(fcmRequest(Self.send, body: #"{"message":{"token":"cK9x:APA91b-route","data":{"a":"b"}}}"#), context: context())
        guard case .requests(let requests, _) = real, requests.count == 2, case .device(.add(let device)) = requests[0], case .push(let push) = requests[1] else {
            Issue.record("\(real)")
            return
        }
        #expect(device == Device(token: Self.token, app: "pushdeck-test", vendor: .fcm, platform: .android))
        #expect(push.via == .fcm && push.token == Self.token && push.fcm?.project == "pushdeck-test")
        // Decoded once, by the route, and handed on as the inbox's own decoder would decode it.
        #expect(try #require(push.decoded) == (try PushDecoder().decode(push)))
    }

    @Test func strictModeAnswersUnregistered() {
        let strict = FCMRoutes(devices: .strict)
        let refusal = fcmRefusal(strict.decide(fcmRequest(Self.send, body: #"{"message":{"token":"cK9x:APA91b-route","data":{"a":"b"}}}"#), context: context()))
        #expect(refusal.status == 404 && refusal.code == "UNREGISTERED")
    }

    /// The Instance ID batch API: one result per token, in order; the device at FCM's topic
    /// limit gets TOO_MANY_TOPICS and the others are subscribed together.
    @Test func batchAddAnswersPerTokenAndTheTopicLimitHolds() throws {
        var inbox = Inbox()
        let full = "cK9x:APA91b-full"
        inbox.devices[full] = Device(token: full, app: "a", vendor: .fcm, topics: (0..<Device.maxTopics).map { "t\($0)" })
        inbox.devices[Self.token] = Device(token: Self.token, app: "a", vendor: .fcm)
        let body = #"{"to":"/topics/news","registration_tokens":["\#(Self.token)","\#(full)","bad token"]}"#
        let decision = FCMRoutes(devices: .strict).decide(fcmRequest("/iid/v1:batchAdd", body: body), context: context(inbox))
        guard case .requests(let requests, let answer) = decision else { Issue.record("\(decision)"); return }
        #expect(requests == [.device(.topics(tokens: [Self.token], topic: "news", subscribe: true))])
        let response = answer([.ok])
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"results":[{},{"error":"TOO_MANY_TOPICS"},{"error":"INVALID_ARGUMENT"}]}"#)
        // Alone, through the v1 API: 429, nothing handed on.
        let alone = FCMRoutes().decide(
            fcmRequest("/v1/projects/p/registrations/\(full)/topicSubscriptions?topic_name=news", body: "{}"), context: context(inbox))
        #expect(fcmRefusal(alone).status == 429)
    }
}

/// The send path's readings on bytes: the project of the path, the message id and name, the
/// answer written and read back, each agreeing with the general reading it stands in for.
@Suite struct FCMSendBytesTests {
    @Test(arguments: [
        ("/v1/projects/p/messages:send", "p"), ("/v1/projects/my-project-1/messages:send?alt=json", "my-project-1"),
        ("/v1/projects//messages:send", ""), ("/v1/projects/a/b/messages:send", nil), ("/v1/projects/p/messages:sendAll", nil),
        ("/v1/projects/p/messages:send/x", nil), ("/v1/projects/messages:send", nil), ("/v1/project/p/messages:send", nil),
        ("/v1/projects/p/registrations/t/topicSubscriptions", nil), ("/token", nil), ("/v1/projects/é/messages:send", nil),
        ("/v1/projects/p?x=/messages:send", nil),
    ] as [(String, String?)])
    func theProjectOfASendPathIsReadOnTheBytes(path: String, project: String?) {
        #expect(FCMRoutes.sendProject(path) == project)
        #expect(FCMRoutes.sendPathPrefix.description == FCMRoutes.projectsPrefix)
        // Where the bytes decide, the reading by Characters agrees.
        if let project {
            let rest = HTTPRequest.withoutQuery(path).dropFirst(FCMRoutes.projectsPrefix.count)
            let slash = rest.firstIndex(of: "/")
            #expect(slash.map { String(rest[..<$0]) } == project)
            #expect(slash.map { rest[rest.index(after: $0)...] == "messages:send" } == true)
        }
    }

    /// A non-ASCII project is still served, by the reading by Characters.
    @Test func aProjectBeyondASCIIIsStillSent() {
        let decision = FCMRoutes().decide(
            fcmRequest("/v1/projects/projé/messages:send", body: #"{"message":{"token":"cK9x:APA91b-route"},"validate_only":true}"#),
            context: GatewayContext(inbox: Inbox(), now: fcmNow))
        guard case .respond(let response) = decision else {
            Issue.record("not answered")
            return
        }
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"name":"projects/projé/messages/fake_message_id"}"#)
    }

    @Test func messageIdsAreFCMsShapeAndDistinct() {
        var seen = Set<String>()
        for _ in 0..<1000 {
            let id = FCMRoutes.messageId()
            let parts = id.split(separator: "%")
            #expect(parts.count == 2 && parts[0].hasPrefix("0:") && Int64(parts[0].dropFirst(2)) != nil, "\(id)")
            #expect(parts.last?.count == 16 && parts.last?.allSatisfy(\.isHexDigit) == true, "\(id)")
            seen.insert(String(parts[1]))
        }
        #expect(seen.count == 1000)
        #expect(FCMRoutes.messageId(now: Date(timeIntervalSince1970: 0)).hasPrefix("0:0%"))
        #expect(FCMRoutes.messageId(now: Date(timeIntervalSince1970: 1_764_547_200.25)).hasPrefix("0:1764547200250000%"))
    }

    @Test(arguments: ["projects/p/messages/0:1%ab", "projects/p/messages/fake_message_id", #"projects/a"b/messages/1"#,
                      #"projects/a\b/messages/1"#, "projects/é/messages/1", "projects/\u{7F}/messages/1", "projects/\n/messages/1", ""])
    func theAnswerIsWhatJSONsWriterWritesAndReadsBack(name: String) throws {
        let response = FCMRoutes.sent(name)
        #expect(response == FCMRoutes.json(.object(["name": .string(name)])))
        #expect(try JSON.parse(response.body) == .object(["name": .string(name)]))
        #expect(FCMRoutes().summarize(answer: response, path: FCMSendRoutesTests.send).ids == ["name": name])
    }

    @Test(arguments: [#"{"name":"a"} "#, #" {"name":"a"}"#, #"{"name":"a","x":1}"#, #"{"name":"a\"b"}"#, #"{"name":"\u0061"}"#, "{}", ""])
    func otherAnswersAreParsed(body: String) {
        let answer = FCMRoutes().summarize(answer: HTTPResponse(status: 200, body: Array(body.utf8)), path: FCMSendRoutesTests.send)
        let parsed = (try? JSON.parse(Array(body.utf8)))?.objectValue?["name"]?.stringValue
        #expect(answer.ids == (parsed.map { ["name": $0] } ?? [:]), "\(body)")
        #expect(FCMRoutes.sentName(Array(body.utf8)) == nil || body == #"{"name":"a"}"#)
    }
}
