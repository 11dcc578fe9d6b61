import Foundation
import PushCore
import PushGateway
import PushJSON

/// Fuzz target: the JPush and Getui routes' request → push mapping.
///
/// The first byte picks the API (JPush push or validate; Getui single, batch or all, with a
/// valid token; Getui auth), the rest is the body. Whatever it is, the route answers with one of
/// the vendor's codes with that code's HTTP status, or with pushes the inbox's own
/// decoder takes, each marked as the vendor's and answered 200 once committed.
let vendorNow = Date(timeIntervalSince1970: 1_700_000_000)
let getuiRoutes = GetuiRoutes()
let getuiToken: String = {
    let sign = GetuiSessions.sha256Hex("k" + "1700000000000" + "s")
    let body = #"{"sign":"\#(sign)","timestamp":"1700000000000","appkey":"k"}"#
    let decision = getuiRoutes.decide(
        HTTPRequest(method: "POST", path: "/v2/app1/auth", headers: [], body: Array(body.utf8), version: .http1_1, isTLS: false),
        context: GatewayContext(inbox: Inbox(), now: vendorNow))
    guard case .respond(let response) = decision,
          let token = (try? JSON.parse(response.body))?.objectValue?["data"]?.objectValue?["token"]?.stringValue
    else { return "" }
    return token
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendors(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0] % 6
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var inbox = Inbox()
    inbox.devices["1a0018970a5c3d8e4d5"] = Device(token: "1a0018970a5c3d8e4d5", app: "appkey1", vendor: .jpush)
    inbox.devices["cid1"] = Device(token: "cid1", app: "app1", vendor: .getui)
    let context = GatewayContext(inbox: inbox, now: vendorNow)
    let policy: DevicePolicy = size % 3 == 0 ? .strict : .open
    if selector < 2 {
        let path = selector == 0 ? "/v3/push" : "/v3/push/validate"
        let request = HTTPRequest(
            method: "POST", path: path, headers: [HTTPHeader("authorization", "Basic YXBwa2V5MTpzZWNyZXQ=")], body: body,
            version: .http1_1, isTLS: false)
        switch JPushRoutes(devices: policy).decide(request, context: context) {
        case .respond(let response):
            let object = (try? JSON.parse(response.body))?.objectValue
            if let code = object?["error"]?.objectValue?["code"]?.intValue {
                let row = JPushError(rawValue: code)
                require(row != nil, "JPush code \(code) is not in JPush's table")
                require(row?.status == response.status, "JPush \(code) answered \(response.status)")
            } else {
                require(selector == 1 && response.status == 200 && object?["msg_id"] != nil, "a JPush answer that is neither an error nor a validation")
            }
        case .request(let request, let answer):
            check(request, via: .jpush)
            require(answer(Reply.ok).status == 200, "a committed JPush push not answered 200")
        case .requests:
            require(false, "JPush asked for several requests")
        case .expect:
            require(false, "JPush asked for the control API's long-poll")
        }
        return 0
    }
    let endpoint = ["push/single/cid", "push/single/batch/cid", "push/all", "auth"][Int(selector) - 2]
    let request = HTTPRequest(
        method: "POST", path: "/v2/app1/\(endpoint)", headers: [HTTPHeader("token", getuiToken)], body: body, version: .http1_1,
        isTLS: false)
    switch GetuiRoutes(devices: policy, sessions: getuiRoutes.sessions).decide(request, context: context) {
    case .respond(let response):
        let code = (try? JSON.parse(response.body))?.objectValue?["code"]?.intValue
        let row = code.flatMap(GetuiCode.init(rawValue:))
        require(row != nil, "a Getui answer without one of Getui's codes")
        // Each code with the HTTP status Getui's documents give it; an unknown path is a 404.
        require(response.status == row?.status || response.status == 404, "Getui \(code ?? -1) answered \(response.status)")
    case .request(let request, let answer):
        check(request, via: .getui)
        require((try? JSON.parse(answer(Reply.ok).body))?.objectValue?["code"] == .number(JSONNumber(0)), "a committed Getui push not code 0")
    case .requests(let requests, let answer):
        require(!requests.isEmpty, "an empty batch")
        for request in requests { check(request, via: .getui) }
        require((try? JSON.parse(answer(requests.map { _ in Reply.ok }).body))?.objectValue?["code"] == .number(JSONNumber(0)), "a committed batch not code 0")
    case .expect:
        require(false, "Getui asked for the control API's long-poll")
    }
    return 0
}

func check(_ request: Request, via: Via) {
    guard case .push(let push) = request else {
        require(false, "a vendor route asked for something other than a push")
        return
    }
    require(push.via == via, "a \(via) push not marked as one")
    do {
        _ = try PushDecoder().decode(push)
    } catch {
        require(false, "the route accepted a payload the inbox refuses: \(error)")
    }
}
