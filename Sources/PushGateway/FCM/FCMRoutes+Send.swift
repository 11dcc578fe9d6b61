import Foundation
import PushCore
import PushJSON

extension FCMRoutes {
    /// `POST /v1/projects/{project}/messages:send` (FCM's v1 reference, "projects.messages.send"):
    /// body `{"message":{…},"validate_only":bool}`; 200 `{"name":"projects/{project}/messages/{id}"}`.
    /// The message is decoded and refused as FCM does (`FCMMessage.decode`), its target resolved
    /// to devices (a token; a topic's or a condition's subscribers), and each device gets the push
    /// the message is on its platform, all in one request list: a refusal changes nothing.
    /// `validate_only` checks the same and delivers nothing (`…/messages/fake_message_id`).
    func send(_ request: HTTPRequest, project: String, context: GatewayContext) -> GatewayDecision {
        guard let tape = try? JSONTape.parse(request.body), tape.root.kind == .object else {
            // Google's JSON front end on a body that is not a JSON object.
            let text = "Invalid JSON payload received. Unexpected token."
            return .respond(FCMAPIError(status: 400, grpcStatus: "INVALID_ARGUMENT", message: text, violations: [(field: "", description: text)]).response)
        }
        // The body's members in one pass, their names compared on the bytes: the first unknown
        // one is refused; of a repeated name the last counts, `validate_only` before `validateOnly`.
        var unknown: String?
        var snakeFlag: JSONView?
        var camelFlag: JSONView?
        var messageMember: JSONView?
        tape.root.forEachMember { name, value in
            if name == "message" {
                messageMember = value
            } else if name == "validate_only" {
                snakeFlag = value
            } else if name == "validateOnly" {
                camelFlag = value
            } else if unknown == nil {
                unknown = name.text
            }
        }
        if let unknown {
            let text = "Invalid JSON payload received. Unknown name \(JSON.string(unknown).compactText): Cannot find field."
            return .respond(FCMAPIError(status: 400, grpcStatus: "INVALID_ARGUMENT", message: text, violations: [(field: "", description: text)]).response)
        }
        var validateOnly = false
        if let value = snakeFlag ?? camelFlag, !value.isNull {
            guard let flag = value.bool else {
                let text = "Invalid value at 'validate_only' (TYPE_BOOL), \(value.json.compactText.prefix(60))"
                return .respond(FCMAPIError(status: 400, grpcStatus: "INVALID_ARGUMENT", message: text, violations: [(field: "validate_only", description: text)]).response)
            }
            validateOnly = flag
        }
        guard let messageView = messageMember, messageView.kind == .object else {
            return .respond(FCMAPIError(.invalidArgument, FCMMessage.noRecipientMessage, violations: [(field: "message", description: FCMMessage.noRecipientMessage)]).response)
        }
        let message: FCMMessage
        switch FCMMessage.decode(messageView) {
        case .failure(let invalid): return .respond(Self.refusal(invalid).response)
        case .success(let decoded): message = decoded
        }
        let messageText = messageView.sourceText

        // The devices the message goes to, each with its registration when it is new.
        var targets: [(device: Device, register: Bool)] = []
        switch message.target {
        case .token(let token):
            switch known(token, project: project, context: context) {
            case .none:
                if let device = context.inbox.devices[token], device.vendor != .fcm {
                    return .respond(FCMAPIError(.invalidArgument, "The registration token is not a valid FCM registration token",
                                                violations: [(field: "message.token", description: "The registration token is not a valid FCM registration token")]).response)
                }
                return .respond(FCMAPIError(.unregistered).response)
            case .register(let device):
                targets.append((device, true))
            case .device(let device):
                if device.unregisteredAt != nil { return .respond(FCMAPIError(.unregistered).response) }
                if let owner = Self.project(of: device, context: context), owner != project {
                    return .respond(FCMAPIError(.senderIdMismatch).response)
                }
                targets.append((device, false))
            }
        case .topic(let topic):
            targets = Self.subscribers(context) { $0.topics.contains(topic) }
        case .condition(let text):
            let condition: FCMCondition
            do {
                condition = try FCMCondition(parsing: text)
            } catch {
                return .respond(FCMAPIError(.invalidArgument, violations: [(field: "message.condition", description: FCMCondition.invalidDescription)]).response)
            }
            targets = Self.subscribers(context) { condition.matches(Set($0.topics)) }
        }
        // An iOS token is an APNs push FCM makes with the project's APNs key: none registered,
        // FCM answers THIRD_PARTY_AUTH_ERROR ("APNs certificate or web push auth key was invalid or missing").
        if case .token = message.target, targets.contains(where: { $0.device.platform == .ios }), context.inbox.apnsKeys.isEmpty {
            return .respond(FCMAPIError(.thirdPartyAuthError).response)
        }

        let name = Self.messageName(project: project, id: validateOnly ? "fake_message_id" : Self.messageId())
        var requests: [Request] = []
        for (device, register) in targets {
            let platform = device.platform ?? .android
            // Mapped here (an iOS message's `apns` block under the APNs rules), so a refusal
            // answers before anything changes, and the push is handed on decoded.
            var decoded: Push
            switch message.push(
                app: device.app, platform: platform, token: device.token, project: project, messageName: name, payload: messageText)
            {
            case .failure(let invalid): return .respond(Self.refusal(invalid).response)
            case .success(let push): decoded = push
            }
            decoded.token = device.token
            if register { requests.append(.device(.add(device))) }
            var push = PushRequest.fcm(
                messageText: messageText, app: device.app, token: device.token,
                route: FCMRoute(platform: platform, project: project, messageName: name, target: message.target.key))
            push.decoded = decoded
            requests.append(.push(push))
        }
        let ok = Self.sent(name)
        if validateOnly || requests.isEmpty { return .respond(ok) }
        return .requests(requests) { replies in
            // The store failed, or the inbox refused what the route let through: FCM's INTERNAL.
            replies.allSatisfy(\.isOK) ? ok : FCMAPIError(.internal).response
        }
    }

    /// FCM's 400 for a message it refuses: INVALID_ARGUMENT, the decoder's message and violations.
    static func refusal(_ invalid: FCMInvalid) -> FCMAPIError {
        FCMAPIError(.invalidArgument, invalid.message, violations: invalid.violations.map { (field: $0.field, description: $0.description) })
    }

    /// The registered project a device's app is the default app of, if any.
    static func project(of device: Device, context: GatewayContext) -> String? {
        context.inbox.providerKeys.values.first { $0.vendor == .fcm && ($0.appKey ?? $0.team) == device.app }?.team
    }

    /// The FCM devices `matches` takes (a topic's or a condition's), in token order.
    static func subscribers(_ context: GatewayContext, _ matches: (Device) -> Bool) -> [(device: Device, register: Bool)] {
        context.inbox.devices.values
            .filter { $0.vendor == .fcm && $0.unregisteredAt == nil && !$0.topics.isEmpty && matches($0) }
            .sorted { $0.token < $1.token }
            .map { ($0, false) }
    }

    /// `projects/{project}/messages/{id}`.
    static func messageName(project: String, id: String) -> String {
        var name = "projects/"
        name.reserveCapacity(name.utf8.count + project.utf8.count + 10 + id.utf8.count)
        name += project
        name += "/messages/"
        name += id
        return name
    }

    /// A message id as FCM writes them (`0:1500415314455276%31bd1c9631bd1c96`): a time in
    /// microseconds and 16 hex digits, random ones (from `RandomBytes`' pool), written without
    /// formatting: 8 bytes from OpenSSL's generator and an interpolation were a tenth of an FCM
    /// send's own work (callgrind on the release server).
    static func messageId(now: Date = Date()) -> String {
        let micros = UInt64(clamping: Int64(now.timeIntervalSince1970 * 1_000_000))
        var random = RandomBytes()
        let bits = random.next()
        var width = 1
        var power: UInt64 = 10
        while width < 20, micros >= power {
            width += 1
            power &*= 10
        }
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 3 + width + 16) { buffer in
            buffer[0] = UInt8(ascii: "0")
            buffer[1] = UInt8(ascii: ":")
            var rest = micros
            for index in stride(from: 1 + width, through: 2, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer[2 + width] = UInt8(ascii: "%")
            for nibble in 0..<16 {
                buffer[3 + width + nibble] = hex.utf8Start[Int((bits >> UInt64(60 - 4 * nibble)) & 0xF)]
            }
            return 3 + width + 16
        }
    }

    /// The 200 answer of a send: `{"name":"…"}`. A name of printable ASCII but `"` and `\` is
    /// written as it is, as JSON's writer writes it; any other goes through the writer.
    static func sent(_ name: String) -> HTTPResponse {
        var name = name
        let body = name.withUTF8 { utf8 -> [UInt8]? in
            guard isPlainJSONText(utf8) else { return nil }
            var body: [UInt8] = []
            body.reserveCapacity(utf8.count + sentHead.utf8CodeUnitCount + sentTail.utf8CodeUnitCount)
            body.append(contentsOf: UnsafeBufferPointer(start: sentHead.utf8Start, count: sentHead.utf8CodeUnitCount))
            body.append(contentsOf: utf8)
            body.append(contentsOf: UnsafeBufferPointer(start: sentTail.utf8Start, count: sentTail.utf8CodeUnitCount))
            return body
        }
        guard let body else { return json(.object(["name": .string(name)])) }
        return HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json; charset=UTF-8")], body: body)
    }

    private static let sentHead: StaticString = #"{"name":""#
    private static let sentTail: StaticString = #""}"#

    /// The name in a send's 200 answer as `sent` writes it (`{"name":"…"}`, printable ASCII but
    /// `"` and `\`), read off the bytes; nil for any other body, which is then parsed as JSON.
    static func sentName(_ body: [UInt8]) -> String? {
        body.withUnsafeBufferPointer { bytes -> String? in
            let head = UnsafeBufferPointer(start: sentHead.utf8Start, count: sentHead.utf8CodeUnitCount)
            let tail = UnsafeBufferPointer(start: sentTail.utf8Start, count: sentTail.utf8CodeUnitCount)
            guard bytes.count >= head.count + tail.count,
                  UnsafeBufferPointer(rebasing: bytes[..<head.count]).elementsEqual(head),
                  UnsafeBufferPointer(rebasing: bytes[(bytes.count - tail.count)...]).elementsEqual(tail)
            else { return nil }
            let name = UnsafeBufferPointer(rebasing: bytes[head.count..<(bytes.count - tail.count)])
            guard isPlainJSONText(name) else { return nil }
            return String(decoding: name, as: UTF8.self)
        }
    }

    /// Whether every byte is printable ASCII but `"` and `\`: text JSON's writer copies as it is
    /// into a string literal, and its parser reads back as it is.
    static func isPlainJSONText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        return true
    }
}
