import Foundation
import Glibc
import PushCore

/// Where the team bus's broker is and who this instance is on it: `--mqtt mqtt://HOST:PORT`
/// (or `mqtts://HOST[:PORT]` with `--mqtt-ca`), `--mqtt-user` with the password from
/// `$PUSHDECK_MQTT_PASSWORD` (never a flag: a flag is in `ps` for every user), `--mqtt-id`.
public struct BusConfiguration: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var tls: Bool
    /// The CA file that signed the broker's certificate (`--mqtt-ca`); without one, the system's.
    public var caFile: String?
    public var user: String?
    public var password: String?
    /// The instance id: the MQTT client id, and the `instances/{id}` topics' level.
    public var id: String
    /// Seconds between MQTT keep-alive pings.
    public var keepalive: Int32 = 30
    /// How long the broker keeps this instance's session (and queues its QoS 1 pushes) while it
    /// is away (MQTT 5 Session Expiry Interval, seconds): a week.
    public var sessionExpiry: UInt32 = 7 * 86_400
    /// `--watch-all`: a watch-only instance (a demo screen) that takes every instance's events
    /// and no device topics; each push another instance took is shown here tagged with its id.
    public var watchAll = false

    /// The default ports: 1883 for MQTT, 8883 for MQTT over TLS (IANA's registrations).
    public static let defaultPort = 1883
    public static let defaultTLSPort = 8883

    public init(host: String, port: Int, tls: Bool = false, caFile: String? = nil, user: String? = nil,
                password: String? = nil, id: String) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.user = user
        self.password = password
        self.id = id
    }

    /// Reads `mqtt://HOST:PORT` or `mqtts://HOST[:PORT]` (`[::1]` for an IPv6 address); the
    /// error says what is accepted.
    public init(url: String, caFile: String?, user: String?, password: String?, id: String) throws(WireError) {
        let accepted = "mqtt://HOST:PORT or mqtts://HOST[:PORT]"
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst("mqtt://".count)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst("mqtts://".count)
        } else {
            throw WireError("--mqtt takes \(accepted); got '\(url)'")
        }
        var hostPart = rest
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw WireError("--mqtt takes \(accepted); got '\(url)'") }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw WireError("--mqtt takes \(accepted); got '\(url)'") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains("/"), !hostPart.contains("@") else {
            throw WireError("--mqtt takes \(accepted); got '\(url)'")
        }
        var port = tls ? Self.defaultTLSPort : Self.defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw WireError("--mqtt's port must be a number from 1 to 65535; got '\(portText)'")
            }
            port = number
        } else if !tls {
            throw WireError("--mqtt takes \(accepted): the port is missing in '\(url)'")
        }
        if caFile != nil && !tls { throw WireError("--mqtt-ca goes with an mqtts:// broker") }
        guard BusIdentity.isValid(id) else {
            throw WireError(
                "--mqtt-id takes letters, digits, '.', '-', '_' and '@' only (at most \(BusIdentity.maxLength)); got '\(id.prefix(200))'")
        }
        self.init(host: String(hostPart), port: port, tls: tls, caFile: caFile, user: user, password: password, id: id)
    }

    /// `user@host` of this process, with anything an id may not hold made `-` (the default `--mqtt-id`).
    public static func defaultId(environment: [String: String]) -> String {
        let user = environment["USER"] ?? environment["LOGNAME"] ?? "pushdeck"
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        let id = "\(user)@\(host)".unicodeScalars.map { scalar in
            BusIdentity.isValid(String(scalar)) ? String(scalar) : "-"
        }.joined()
        return String(id.prefix(BusIdentity.maxLength))
    }

    /// `HOST:PORT` as logs name the broker (`[HOST]:PORT` for IPv6).
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    public var url: String { "\(tls ? "mqtts" : "mqtt")://\(address)" }
}
