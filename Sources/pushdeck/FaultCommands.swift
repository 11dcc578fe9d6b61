import Foundation
import PushClient
import PushCore
import PushJSON

/// `pushdeck fault add|list|clear`: the running gateway's faults, through the socket op `fault`.
enum FaultCommands {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let socket = try ClientCommands.socketPath(&arguments)
        let json = arguments.flag("--json")
        // The options, as the wire's fields (the socket checks them; errors name the option).
        var fields = JSONObject()
        for (option, key) in [("--vendor", "vendor"), ("--token", "token"), ("--app", "app"), ("--path", "path"), ("--reason", "reason"), ("--for", "for")] {
            if let value = try arguments.option(option) { fields[key] = .string(value) }
        }
        for (option, key) in [("--status", "status"), ("--retry-after", "retryAfter"), ("--latency", "latencyMs"), ("--after", "after"), ("--count", "count")] {
            guard let value = try arguments.option(option) else { continue }
            guard let number = Int(value) else { throw UsageError("\(option) takes a whole number, not '\(value)'", command: "fault") }
            fields[key] = .number(JSONNumber(number))
        }
        if let rate = try arguments.option("--rate") {
            guard let value = Double(rate) else { throw UsageError("--rate takes a probability from 0 to 1, not '\(rate)'", command: "fault") }
            fields["rate"] = .number(JSONNumber(text: rate.hasPrefix(".") ? "0" + rate : String(value)))
        }
        for (option, key) in [("--goaway", "goaway"), ("--shutdown", "shutdown"), ("--close", "close")] where arguments.flag(option) {
            fields[key] = true
        }
        let words = try arguments.positionals()
        let request: Request
        switch words {
        case ["add"]:
            do {
                request = .fault(.add(try FaultSpec(fields: fields)))
            } catch {
                throw UsageError(error.message, command: "fault")
            }
        case _ where words.first == "list" || words.first == "clear":
            guard words.count == 1 || (words.count == 2 && words[0] == "clear") else {
                throw UsageError("fault \(words[0]) takes \(words[0] == "clear" ? "one fault id at most" : "no words")", command: "fault")
            }
            if let option = fields.members.first?.key {
                throw UsageError("fault \(words[0]) takes no fault options (got \(option))", command: "fault")
            }
            if words == ["list"] {
                request = .fault(.list)
            } else if words.count == 2 {
                guard let id = Int(words[1]), id >= 1 else { throw UsageError("fault clear takes a fault id (fault list shows them), not '\(words[1])'", command: "fault") }
                request = .fault(.clear(id: id))
            } else {
                request = .fault(.clear(id: nil))
            }
        default:
            throw UsageError(words.isEmpty ? "give an action: add, list or clear" : "fault takes add, list or clear [ID], not '\(words.joined(separator: " "))'", command: "fault")
        }
        let client = try SocketClient(path: socket)
        let (reply, line) = try ClientCommands.ask(request, client)
        switch reply {
        case .fault(let fault):
            writeLine(json ? (line["fault"] ?? .object(fault.wireObject)).compactText : "fault \(fault.id) armed: \(describe(fault.wireObject))")
        case .faults(let faults):
            if json {
                writeLine((line["faults"] ?? .array(faults.map { .object($0.wireObject) })).compactText)
            } else if faults.isEmpty {
                writeLine("no faults armed ('pushdeck fault add' arms one)")
            } else {
                let rows = faults.map { [String($0.id), describe($0.wireObject), String($0.fired)] }
                writeLine(TextTable.render(header: ["ID", "FAULT", "FIRED"], rows: rows))
            }
        case .faultsCleared(let cleared):
            writeLine(json ? JSON.object(line).compactText : "cleared \(cleared) fault\(cleared == 1 ? "" : "s")")
        case let other:
            throw ClientCommands.unexpected(other, to: "fault")
        }
        return 0
    }

    /// A fault's fields as one line, `key value` each (an armed fault's bookkeeping left out).
    static func describe(_ fault: JSONObject) -> String {
        fault.members.filter { !["id", "armedAt", "fired"].contains($0.key) }.map { member in
            member.value == .bool(true) ? member.key : "\(member.key) \(member.value.stringValue ?? member.value.compactText)"
        }.joined(separator: " ")
    }
}
