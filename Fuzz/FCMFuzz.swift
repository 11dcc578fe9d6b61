import PushCore
import PushJSON

/// Fuzz target: the FCM v1 message → push mapping (`FCMMessage.decode`, then `push` for an
/// Android and an iOS device, and the engine's own decoding of the same request).
///
/// Whatever the input, decoding answers with a message or a refusal; a refusal names at least
/// its message, and every violation's field is a path under `message` (or the root); a decoded
/// message maps to a push that keeps the text as its payload, goes `via: fcm` to the token it was
/// given, records its project and message name, and is on the channel its platform and type
/// say; the engine's decoder agrees with the mapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFCM(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let tape = try? JSONTape.parse(bytes) else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    // A request body (`{"message":…}`) as the gateway has it, else the input as the message.
    let root = tape.root["message"] ?? tape.root
    switch FCMMessage.decode(root) {
    case .failure(let invalid):
        require(!invalid.message.isEmpty, "a refusal without a message")
        for violation in invalid.violations {
            require(violation.field.isEmpty || violation.field.hasPrefix("message"), "a violation outside the message: \(violation.field)")
            require(!violation.description.isEmpty, "a violation without a description")
        }
    case .success(let message):
        for platform in DevicePlatform.allCases {
            let name = "projects/fuzz/messages/1"
            let mapped = message.push(
                app: "com.example.fuzz", platform: platform, token: "tok:fuzz", project: "fuzz", messageName: name, payload: text)
            let route = FCMRoute(platform: platform, project: "fuzz", messageName: name)
            let request = PushRequest.fcm(messageText: text, parsed: root, app: "com.example.fuzz", token: "tok:fuzz", route: route)
            let engine = try? PushDecoder().decode(request)
            switch mapped {
            case .failure(let invalid):
                require(platform == .ios, "an Android mapping refused a decoded message: \(invalid.message)")
                require(engine == nil, "the engine took what the mapping refused")
            case .success(let push):
                require(push.payload == text, "the push does not keep the message text")
                require(push.via == .fcm && push.token == "tok:fuzz", "the push lost its door or token")
                require(push.fcm?.project == "fuzz" && push.fcm?.messageName == name, "the push lost its project or name")
                switch platform {
                case .android:
                    require(push.channel == (message.isNotificationMessage ? .android : .transparent), "wrong Android channel")
                case .ios:
                    require(push.channel == .apns, "an iOS push not on APNs")
                }
                require(engine == push, "the engine's decoding differs from the mapping")
                let wire = JSON.object(["title": .string(orNull: push.title), "body": .string(orNull: push.body)])
                require((try? JSON.parse(wire.compactText)) == wire, "a mapped field does not survive the wire")
            }
        }
    }
    return 0
}
