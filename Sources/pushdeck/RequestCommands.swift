import Foundation
import PushClient
import PushCore
import PushJSON

/// `pushdeck requests`: the provider request log of the running pushdeck.
enum RequestCommands {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let vendorText = try arguments.option("--vendor")
        let sinceText = try arguments.option("--since")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        guard words.isEmpty else { throw UsageError("requests takes no words, not '\(words.joined(separator: " "))'", command: "requests") }
        var query = RequestLogQuery()
        if let vendorText {
            guard let vendor = Via(rawValue: vendorText), Via.providers.contains(vendor) else {
                throw UsageError("--vendor takes \(Via.providers.map(\.rawValue).joined(separator: ", ")), not '\(vendorText)'", command: "requests")
            }
            query.vendor = vendor
        }
        if let sinceText {
            guard let since = Int(sinceText), since >= 0 else {
                throw UsageError("--since takes a request seq, an integer ≥ 0, not '\(sinceText)'", command: "requests")
            }
            query.since = since
        }
        let client = try SocketClient(path: socket)
        let (reply, _) = try ClientCommands.ask(.requests(query), client)
        guard case .requests(let records) = reply else { throw ClientCommands.unexpected(reply, to: "requests") }
        if json {
            for record in records { writeLine(record.wireJSON.compactText) }
        } else {
            writeLine(table(records))
        }
        return 0
    }

    /// One row per request: time (UTC, to the millisecond), vendor, status, reason, the fault
    /// that answered it (`#ID`), latency in ms, method, path, token. What came of the request
    /// first, so the fault shows in a narrow terminal; the long path and token last. A request
    /// left unanswered (a fault's close or GOAWAY) has no status: `-`, "no answer".
    static func table(_ records: [ProviderRequestRecord]) -> String {
        guard !records.isEmpty else { return "no provider requests since the last reset" }
        let rows = records.map { record -> [String] in
            let time = RFC3339.string(from: record.receivedAt).dropFirst(11).prefix(12)
            let token = record.tokens.first.map { record.tokens.count > 1 ? "\($0) +\(record.tokens.count - 1)" : $0 } ?? "-"
            let unanswered = record.status == 0
            return [
                String(time), record.vendor.rawValue, unanswered ? "-" : String(record.status),
                record.reason ?? (unanswered ? "no answer" : "-"), record.fault.map { "#\($0)" } ?? "-",
                record.wireObject["latencyMs"]?.compactText ?? "", record.method, record.path, token,
            ]
        }
        return TextTable.render(header: ["TIME", "VENDOR", "STATUS", "REASON", "FAULT", "MS", "METHOD", "PATH", "TOKEN"], rows: rows)
    }
}
