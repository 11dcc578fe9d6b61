import Foundation
import PushCore
import PushGateway
import PushJSON

/// Fuzz target: the APNs route's request → push mapping.
///
/// The input is read as a request: a first line `METHOD PATH`, then `name: value` header lines
/// until an empty line, then the body. Whatever it is, the route answers with one of Apple's
/// statuses and a `{"reason":…}` body carrying an `apns-id`, or with a push that the inbox's own
/// decoder takes (an accepted request must never come back as a 500), under a device rule.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNs(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let blank = bytes.indices.first { index in
        index + 1 < bytes.count && bytes[index] == 0x0A && bytes[index + 1] == 0x0A
    }
    let head = String(decoding: bytes[..<(blank ?? bytes.count)], as: UTF8.self)
    let body = blank.map { Array(bytes[($0 + 2)...]) } ?? []
    var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let requestLine = lines.isEmpty ? "" : lines.removeFirst()
    let parts = requestLine.split(separator: " ", maxSplits: 1).map(String.init)
    var headers: [HTTPHeader] = []
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.append(HTTPHeader(line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    let request = HTTPRequest(
        method: parts.first ?? "", path: parts.count > 1 ? parts[1] : "/", headers: headers, body: body,
        version: size % 2 == 0 ? .http2 : .http1_1, isTLS: false)

    var inbox = Inbox()
    let known = String(repeating: "ab", count: 32)
    inbox.devices[known] = Device(token: known, app: "com.example.shop", unregisteredAt: size % 3 == 0 ? Date(timeIntervalSince1970: 1) : nil)
    let policy: DevicePolicy = size % 5 == 0 ? .strict : .open
    let decision = APNsRoutes(devices: policy).decide(request, context: GatewayContext(inbox: inbox, now: Date(timeIntervalSince1970: 1_700_000_000)))
    switch decision {
    case .respond(let response) where (200..<300).contains(response.status):
        // Channel management's answers (201 made, 200 read or listed, 204 deleted) carry the
        // request's apns-request-id, not a reason.
        require(request.path.hasPrefix("/1/apps/"), "a \(response.status) to \(request.path), which is no channel management")
    case .respond(let response):
        let statuses = Set(APNsReason.statusTable.values)
        require(statuses.contains(response.status), "status \(response.status) is not one of Apple's")
        let reason = (try? JSON.parse(response.body))?.objectValue?["reason"]?.stringValue
        require(reason != nil, "a refusal without a reason: \(String(decoding: response.body, as: UTF8.self))")
        // Channel management and broadcasts answer with apns-request-id; device pushes with an apns-id.
        let broadcastAPI = request.path.hasPrefix("/1/apps/") || request.path.hasPrefix("/4/broadcasts/apps/")
        let id = broadcastAPI ? "apns-request-id" : "apns-id"
        require(response.headers.contains { $0.name == id && !$0.value.isEmpty }, "a refusal without an \(id)")
        if let reason, let row = APNsReason(rawValue: reason) {
            require(row.status == response.status, "\(reason) answered \(response.status), Apple says \(row.status)")
        }
    case .request(.channel, _):
        require(request.path.hasPrefix("/1/apps/"), "a channel request from \(request.path)")
    case .request(let pushRequest, let answer):
        guard case .push(let push) = pushRequest else {
            require(false, "the APNs route asked for something other than a push or a channel request")
            return 0
        }
        // A broadcast goes to a channel's activities, not to a token.
        require(push.via == .apns && (push.token != nil || push.broadcastChannel != nil) && push.channel == .apns, "an APNs push not marked as one")
        if policy == .strict { require(push.token == known, "strict took an unknown token") }
        do {
            _ = try PushDecoder().decode(push)
        } catch {
            require(false, "the route accepted a payload the inbox refuses: \(error)")
        }
        let ok = answer(Reply.ok)
        require(ok.status == 200 && ok.body.isEmpty, "a committed push not answered 200 with an empty body")
    case .requests:
        require(false, "the APNs route asked for several requests")
    case .expect:
        require(false, "the APNs route asked for the control API's long-poll")
    }
    return 0
}
