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
        let reply = try ClientCommands.expectOK(client.request(Request.requests(query)))
        let records = reply["requests"]?.arrayValue ?? []
        if json {
            for record in records { writeLine(record.compactText) }
        } else {
            writeLine(table(records.compactMap(\.objectValue)))
        }
        return 0
    }

    /// One row per request: time (UTC, to the millisecond), vendor, method, path, token, status,
    /// reason, latency in ms, fault.
    static func table(_ records: [JSONObject]) -> String {
        guard !records.isEmpty else { return "no provider requests since the last reset" }
        let rows = records.map { record -> [String] in
            let time = (record["time"]?.stringValue ?? "").dropFirst(11).prefix(12)
            let tokens = record["tokens"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let token = tokens.first.map { tokens.count > 1 ? "\($0) +\(tokens.count - 1)" : $0 } ?? "-"
            return [
                String(time), record["vendor"]?.stringValue ?? "", record["method"]?.stringValue ?? "",
                record["path"]?.stringValue ?? "", token, record["status"].map { $0.compactText } ?? "",
                record["reason"]?.stringValue ?? "-", record["latencyMs"].map { $0.compactText } ?? "",
                record["fault"].map { $0.compactText } ?? "-",
            ]
        }
        return TextTable.render(header: ["TIME", "VENDOR", "METHOD", "PATH", "TOKEN", "STATUS", "REASON", "MS", "FAULT"], rows: rows)
    }
}
