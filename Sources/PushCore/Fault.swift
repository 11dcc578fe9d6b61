import Foundation
import Glibc
import PushJSON

/// A fault to arm: which provider requests it answers (by vendor, token, app, path glob), what
/// it does to them, and how long it lasts. The CLI's `fault add`, the socket op `fault`, the
/// scenario step `{"fault":{…}}` all take the same fields (`wireObject` names them).
public struct FaultSpec: Sendable, Equatable {
    public var vendor: Via?
    public var token: String?
    public var app: String?
    /// An `fnmatch(3)` glob over the whole path, query included.
    public var path: String?
    public var action: FaultAction
    public var bound: FaultBound

    public init(vendor: Via? = nil, token: String? = nil, app: String? = nil, path: String? = nil, action: FaultAction, bound: FaultBound = .none) {
        self.vendor = vendor
        self.token = token
        self.app = app
        self.path = path
        self.action = action
        self.bound = bound
    }
}

/// What a fault does to a request it matches.
public enum FaultAction: Sendable, Equatable {
    /// Answer `status` in the vendor's shape with `reason` (its own for the status when nil),
    /// `retry-after` when given, after `latencyMs` when given. Nothing reaches the inbox.
    case status(Int, reason: String?, retryAfter: Int?, latencyMs: Int?)
    /// Handle the request as usual, `latencyMs` later (on the loop's timers).
    case latency(Int)
    /// HTTP/2 GOAWAY once a connection has had `after` streams (HTTP/1.1: close after `after`
    /// requests); `shutdown` adds APNs' debug data `{"reason":"Shutdown"}`.
    case goaway(after: Int, shutdown: Bool)
    /// Drop the connection at once, no answer.
    case close

    /// Counted per connection (goaway, close) rather than per request.
    public var perConnection: Bool {
        switch self {
        case .goaway, .close: true
        case .status, .latency: false
        }
    }
}

/// How long a fault lasts: until cleared, `count` times (requests; connections for goaway and
/// close), for `seconds` on the server's clock, or each matching request with probability `rate`.
public enum FaultBound: Sendable, Equatable {
    case none
    case count(Int)
    case seconds(Double)
    case rate(Double)
}

/// What a vendor's routes answer a fault with: the reasons it has (with their statuses), and
/// the path prefixes its requests take (to refuse a fault that can never match). The host sets
/// it from the gateway's own tables; without it reasons and paths are not checked.
public struct FaultVocabulary: Sendable, Equatable {
    public struct Vendor: Sendable, Equatable {
        /// The vendor's reasons in its table's order, each with the status it answers with.
        public var reasons: [(reason: String, status: Int)]
        /// The paths it claims start with one of these; nil: every path the others do not claim.
        public var prefixes: [String]?
        /// Its auth endpoints (`fnmatch(3)` globs over the path without its query): a fault
        /// answers them only when its `path` names them, so a fault of the vendor's sends does
        /// not also fail the backend's token request.
        public var authPaths: [String]
        public init(reasons: [(reason: String, status: Int)], prefixes: [String]?, authPaths: [String] = []) {
            self.reasons = reasons
            self.prefixes = prefixes
            self.authPaths = authPaths
        }
        /// True when `path` (its query left out) is one of the vendor's auth endpoints.
        public func isAuth(_ path: String) -> Bool {
            guard !authPaths.isEmpty else { return false }
            let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            return authPaths.contains { fnmatch($0, bare, 0) == 0 }
        }
        public static func == (left: Vendor, right: Vendor) -> Bool {
            left.prefixes == right.prefixes && left.authPaths == right.authPaths && left.reasons.map(\.reason) == right.reasons.map(\.reason)
                && left.reasons.map(\.status) == right.reasons.map(\.status)
        }
    }
    public var vendors: [Via: Vendor]
    public init(vendors: [Via: Vendor] = [:]) { self.vendors = vendors }
}

// MARK: - Reading and checking

extension FaultSpec {
    /// The fields, as the contract names them.
    public static let fields = [
        "vendor", "token", "app", "path", "status", "reason", "retryAfter", "latencyMs", "goaway", "shutdown", "after", "close",
        "count", "for", "rate",
    ]

    /// A fault from its JSON fields, checked: every refusal names the option (`--status`, …)
    /// and what it takes. `vocabulary` checks reasons and paths against each vendor's.
    public init(fields object: JSONObject, vocabulary: FaultVocabulary = FaultVocabulary()) throws(WireError) {
        for member in object.members where !Self.fields.contains(member.key) {
            throw WireError("a fault takes \(Self.fields.joined(separator: ", ")); not \"\(member.key)\"")
        }
        func text(_ key: String) throws(WireError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let value)? where !value.isEmpty && value.utf8.count <= 4096: return value
            case .some: throw WireError("--\(Self.option(key)) takes a non-empty string")
            }
        }
        func integer(_ key: String, _ range: ClosedRange<Int>, _ what: String) throws(WireError) -> Int? {
            switch object[key] {
            case nil, .null?: return nil
            case .number(let number)? where number.int.map(range.contains) == true: return number.int
            case .some(let value): throw WireError("--\(Self.option(key)) takes \(what); got \(value.compactText)")
            }
        }
        func flag(_ key: String) throws(WireError) -> Bool {
            switch object[key] {
            case nil, .null?: return false
            case .bool(let value)?: return value
            case .some: throw WireError("\"\(key)\" must be true or false")
            }
        }
        let vendor: Via?
        if let name = try text("vendor") {
            guard let known = Via(rawValue: name), Via.providers.contains(known) else {
                throw WireError("--vendor takes \(Via.providers.map(\.rawValue).joined(separator: ", ")); not '\(name)'")
            }
            vendor = known
        } else {
            vendor = nil
        }
        let status = try integer("status", 0...Int.max, "an HTTP status from 100 to 599")
        if let status, !(100...599).contains(status) {
            throw WireError("--status takes an HTTP status from 100 to 599; got \(status)")
        }
        let reason = try text("reason")
        let retryAfter = try integer("retryAfter", 0...86_400, "seconds from 0 to 86400")
        let latency = try integer("latencyMs", 0...600_000, "milliseconds from 0 to 600000")
        let goaway = try flag("goaway")
        let shutdown = try flag("shutdown")
        let close = try flag("close")
        let after = try integer("after", 0...1_000_000, "a number of streams ≥ 0")

        let action: FaultAction
        if goaway {
            for (key, given) in [("status", status != nil), ("close", close), ("reason", reason != nil), ("retryAfter", retryAfter != nil), ("latencyMs", latency != nil)] where given {
                throw WireError("--goaway cannot go with --\(Self.option(key)): a GOAWAY answers no request")
            }
            action = .goaway(after: after ?? 0, shutdown: shutdown)
        } else if close {
            for (key, given) in [("status", status != nil), ("reason", reason != nil), ("retryAfter", retryAfter != nil), ("latencyMs", latency != nil)] where given {
                throw WireError("--close cannot go with --\(Self.option(key)): a closed connection answers nothing")
            }
            action = .close
        } else if let status {
            action = .status(status, reason: reason, retryAfter: retryAfter, latencyMs: latency)
        } else if let latency {
            for (key, given) in [("reason", reason != nil), ("retryAfter", retryAfter != nil)] where given {
                throw WireError("--\(Self.option(key)) goes with --status")
            }
            action = .latency(latency)
        } else {
            if reason != nil || retryAfter != nil { throw WireError("--\(reason != nil ? "reason" : "retry-after") goes with --status") }
            throw WireError("a fault needs what it does: --status N, --latency MS, --goaway or --close")
        }
        if !goaway {
            if shutdown { throw WireError("--shutdown goes with --goaway") }
            if after != nil { throw WireError("--after goes with --goaway (it counts a connection's streams)") }
        }

        var bounds: [FaultBound] = []
        if let count = try integer("count", 0...Int(Int32.max), "a number ≥ 1") {
            guard count >= 1 else { throw WireError("--count takes a number ≥ 1; got 0 (a fault that never fires: leave it out)") }
            bounds.append(.count(count))
        }
        if let duration = object["for"], duration != .null {
            guard let seconds = Self.seconds(duration) else {
                throw WireError("--for takes a duration like 30s, 5m or 1h (or seconds); got \(duration.compactText)")
            }
            bounds.append(.seconds(seconds))
        }
        if let rate = object["rate"], rate != .null {
            guard let value = rate.numberValue?.double, value.isFinite, (0...1).contains(value) else {
                throw WireError("--rate takes a probability from 0 to 1; got \(rate.compactText)")
            }
            bounds.append(.rate(value))
        }
        guard bounds.count <= 1 else { throw WireError("give one of --count, --for and --rate, not more") }

        self.init(
            vendor: vendor, token: try text("token"), app: try text("app"), path: try text("path"), action: action,
            bound: bounds.first ?? .none)
        try check(against: vocabulary)
    }

    /// The CLI option of a field (`retryAfter` is `--retry-after`).
    static func option(_ key: String) -> String {
        switch key {
        case "retryAfter": "retry-after"
        case "latencyMs": "latency"
        default: key
        }
    }

    /// `30s`, `5m`, `1h`, `250ms`, or a number of seconds; more than 0, at most a year.
    public static func seconds(_ value: JSON) -> Double? {
        let seconds: Double?
        switch value {
        case .number(let number): seconds = number.double
        case .string(let text):
            let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
            guard let unit = units.first(where: { text.hasSuffix($0.0) && Double(text.dropLast($0.0.count)) != nil }) else {
                seconds = Double(text)
                break
            }
            seconds = Double(text.dropLast(unit.0.count)).map { $0 * unit.1 }
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds > 0, seconds <= 366 * 86_400 else { return nil }
        return seconds
    }

    /// Refuses what the vendor cannot answer (a reason it does not have) and what can never
    /// match (a path no request of the vendor takes).
    func check(against vocabulary: FaultVocabulary) throws(WireError) {
        if case .status(_, let reason?, _, _) = action {
            guard let vendor else { throw WireError("--reason needs --vendor: each vendor has its own reasons") }
            if let table = vocabulary.vendors[vendor], !table.reasons.contains(where: { $0.reason == reason }) {
                throw WireError("--reason \(reason) is not one of \(vendor.rawValue)'s: \(table.reasons.map(\.reason).joined(separator: ", "))")
            }
        }
        if let path {
            guard path.hasPrefix("/") || path.hasPrefix("*") || path.hasPrefix("?") || path.hasPrefix("[") else {
                throw WireError("--path '\(path)' can never match: every request's path starts with '/'")
            }
            if let vendor, let table = vocabulary.vendors[vendor] {
                let literal = String(path.prefix { !"*?[\\".contains($0) })
                let claimed: (String) -> Bool = { prefix in prefix.hasPrefix(literal) || literal.hasPrefix(prefix) }
                // In the vendors' order, so the message is the same every time.
                let others = Via.providers.filter { $0 != vendor }.compactMap { vocabulary.vendors[$0]?.prefixes }.flatMap { $0 }
                let possible = table.prefixes.map { $0.contains(where: claimed) }
                    ?? !others.contains { literal.hasPrefix($0) }
                guard possible else {
                    let paths = table.prefixes.map { $0.map { "\($0)…" }.joined(separator: ", ") } ?? "every path but \(others.joined(separator: ", "))"
                    throw WireError("--vendor \(vendor.rawValue) --path '\(path)' can never match: \(vendor.rawValue)'s requests take \(paths)")
                }
            }
        }
    }

    /// The fault's fields as the wire shows them (the contract's names, nothing left at its default).
    public var wireObject: JSONObject {
        var members: [(key: String, value: JSON)] = []
        if let vendor { members.append(("vendor", .string(vendor.rawValue))) }
        if let token { members.append(("token", .string(token))) }
        if let app { members.append(("app", .string(app))) }
        if let path { members.append(("path", .string(path))) }
        switch action {
        case .status(let status, let reason, let retryAfter, let latency):
            members.append(("status", .number(JSONNumber(status))))
            if let reason { members.append(("reason", .string(reason))) }
            if let retryAfter { members.append(("retryAfter", .number(JSONNumber(retryAfter)))) }
            if let latency { members.append(("latencyMs", .number(JSONNumber(latency)))) }
        case .latency(let latency): members.append(("latencyMs", .number(JSONNumber(latency))))
        case .goaway(let after, let shutdown):
            members.append(("goaway", true))
            if shutdown { members.append(("shutdown", true)) }
            members.append(("after", .number(JSONNumber(after))))
        case .close: members.append(("close", true))
        }
        switch bound {
        case .none: break
        case .count(let count): members.append(("count", .number(JSONNumber(count))))
        case .seconds(let seconds): members.append(("for", .number(JSONNumber(text: Self.number(seconds)))))
        case .rate(let rate): members.append(("rate", .number(JSONNumber(text: Self.number(rate)))))
        }
        return JSONObject(members)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// True when the request (vendor, path, and its summary's tokens and app) is one this fault answers.
    func matches(vendor requestVendor: Via, path requestPath: String, tokens: () -> (tokens: [String], app: String?)) -> Bool {
        if let vendor, vendor != requestVendor { return false }
        if let path, fnmatch(path, requestPath, 0) != 0 { return false }
        if token != nil || app != nil {
            let summary = tokens()
            if let token, !summary.tokens.contains(token) { return false }
            if let app, summary.app != app { return false }
        }
        return true
    }
}

// MARK: - Armed faults

/// A fault as armed: its id (from 1), when it was armed, how many more times it may fire (for
/// `count`), until when (for `for`), and how many times it has fired.
public struct ArmedFault: Sendable, Equatable {
    public var id: Int
    public var spec: FaultSpec
    public var armedAt: Date
    public var remaining: Int?
    public var until: Date?
    public var fired: Int = 0

    public var wireObject: JSONObject {
        var object = JSONObject([(key: "id", value: .number(JSONNumber(id)))] + spec.wireObject.members)
        object["armedAt"] = .string(RFC3339.string(from: armedAt))
        if let remaining { object["remaining"] = .number(JSONNumber(remaining)) }
        if let until { object["until"] = .string(RFC3339.string(from: until)) }
        object["fired"] = .number(JSONNumber(fired))
        return object
    }

    /// Reads an armed fault back as `wireObject` writes it.
    public init(wire object: JSONObject) throws(WireError) {
        guard let id = object["id"]?.intValue else { throw WireError("an armed fault needs \"id\": an integer") }
        var fields = object
        for key in ["id", "armedAt", "remaining", "until", "fired"] { fields[key] = nil }
        let spec = try FaultSpec(fields: fields)
        guard let armedAt = object["armedAt"]?.stringValue.flatMap(RFC3339.date(from:)) else {
            throw WireError("an armed fault needs \"armedAt\": an RFC 3339 time")
        }
        self.init(id: id, spec: spec, armedAt: armedAt, remaining: object["remaining"]?.intValue,
                  until: object["until"]?.stringValue.flatMap(RFC3339.date(from:)), fired: object["fired"]?.intValue ?? 0)
    }

    public init(id: Int, spec: FaultSpec, armedAt: Date, remaining: Int? = nil, until: Date? = nil, fired: Int = 0) {
        self.id = id
        self.spec = spec
        self.armedAt = armedAt
        self.remaining = remaining
        self.until = until
        self.fired = fired
    }
}

/// The `fault` op: add, list or clear (one id, or all).
public enum FaultCommand: Sendable, Equatable {
    case add(FaultSpec)
    case list
    case clear(id: Int?)
}

/// A fault that fired on a request: which, and what it does.
public struct FiredFault: Sendable, Equatable {
    public var id: Int
    public var action: FaultAction
    public init(id: Int, action: FaultAction) {
        self.id = id
        self.action = action
    }
}

/// The armed faults: engine state beside the inbox (memory only; a reset clears them).
/// Faults are kept by vendor, and those that name a token or an app by that exact token or app,
/// so a request is checked only against its candidates — its vendor's (and the vendor-less)
/// faults that name neither, and those that name its own token or app — the cheap fields before
/// the path glob: faults for other tokens and apps cost a request two hash lookups.
public struct FaultBook: Sendable, Equatable {
    public private(set) var faults: [ArmedFault] = []
    public private(set) var nextId = 1
    /// The gateway's reasons and paths (set by the host), for `add`'s checks.
    public var vocabulary = FaultVocabulary()
    /// The state of the `rate` coin (SplitMix64): seeded, so a test can replay it.
    public var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// Per vendor, the positions in `faults` of its faults and the vendor-less ones that name
    /// neither a token nor an app; those that name a token, by token; those that name an app
    /// but no token, by app (a request is checked only against its own).
    private var byVendor: [Via: [Int]] = [:]
    private var byToken: [Via: [String: [Int]]] = [:]
    private var byApp: [Via: [String: [Int]]] = [:]

    public init() {}

    public var isEmpty: Bool { faults.isEmpty }

    /// Arms `spec` at `now`: its id.
    public mutating func add(_ spec: FaultSpec, now: Date) -> ArmedFault {
        var armed = ArmedFault(id: nextId, spec: spec, armedAt: now)
        nextId += 1
        switch spec.bound {
        case .count(let count): armed.remaining = count
        case .seconds(let seconds): armed.until = now.addingTimeInterval(seconds)
        case .none, .rate: break
        }
        faults.append(armed)
        index(faults.count - 1)
        return armed
    }

    /// The faults still armed at `now`.
    public func list(now: Date) -> [ArmedFault] { faults.filter { $0.until.map { now < $0 } ?? true } }

    /// Clears fault `id` (false when none has it), or all of them; ids keep counting up.
    public mutating func clear(id: Int?) -> Int {
        let before = faults.count
        if let id { faults.removeAll { $0.id == id } } else { faults = [] }
        reindex()
        return before - faults.count
    }

    /// Everything to nothing, ids from 1 (a reset).
    public mutating func reset() {
        let vocabulary = self.vocabulary
        self = FaultBook()
        self.vocabulary = vocabulary
    }

    /// The first armed fault (in arming order) that answers this request, fired: its count
    /// spent, its coin tossed. The request is the `streamIndex`th of its connection (from 1):
    /// a goaway fault answers only the one after its `after` streams. A request to one of the
    /// vendor's auth endpoints (`FaultVocabulary.Vendor.authPaths`) is answered only by a fault
    /// whose `path` matches it: a fault without one means the vendor's sends.
    public mutating func fire(
        vendor: Via, path: String, streamIndex: Int, now: Date, summary: () -> (tokens: [String], app: String?)
    ) -> FiredFault? {
        var cached: (tokens: [String], app: String?)?
        func lazy() -> (tokens: [String], app: String?) {
            if let cached { return cached }
            let made = summary()
            cached = made
            return made
        }
        let positions = candidates(vendor: vendor, target: lazy)
        guard !positions.isEmpty else { return nil }
        let auth = vocabulary.vendors[vendor]?.isAuth(path) ?? false
        var expired = false
        for position in positions {
            let fault = faults[position]
            if auth && fault.spec.path == nil { continue }
            if case .goaway(let after, _) = fault.spec.action, streamIndex != after + 1 { continue }
            if let until = fault.until, now >= until {
                expired = true
                continue
            }
            guard fault.spec.matches(vendor: vendor, path: path, tokens: lazy) else { continue }
            if case .rate(let rate) = fault.spec.bound, nextUnit() >= rate { continue }
            faults[position].fired += 1
            let fired = FiredFault(id: fault.id, action: fault.spec.action)
            if let remaining = fault.remaining {
                faults[position].remaining = remaining - 1
                if remaining <= 1 {
                    faults.remove(at: position)
                    reindex()
                }
            }
            if expired { dropExpired(now: now) }
            return fired
        }
        if expired { dropExpired(now: now) }
        return nil
    }

    /// The positions, in arming order (the first armed answers), of the faults a request of
    /// `vendor` is checked against: the vendor's faults that name neither token nor app, and
    /// those naming one of its tokens or its app. `target` is read only when some fault of the
    /// vendor names a token or an app.
    func candidates(vendor: Via, target: () -> (tokens: [String], app: String?)) -> [Int] {
        let positions = byVendor[vendor] ?? []
        let tokened = byToken[vendor] ?? [:], apps = byApp[vendor] ?? [:]
        guard !tokened.isEmpty || !apps.isEmpty else { return positions }
        let (tokens, app) = target()
        var named = tokened.isEmpty ? [] : tokens.flatMap { tokened[$0] ?? [] }
        if let app, let forApp = apps[app] { named += forApp }
        return named.isEmpty ? positions : (positions + named).sorted()
    }

    private mutating func dropExpired(now: Date) {
        faults.removeAll { $0.until.map { now >= $0 } ?? false }
        reindex()
    }

    private mutating func reindex() {
        byVendor = [:]
        byToken = [:]
        byApp = [:]
        for position in faults.indices { index(position) }
    }

    private mutating func index(_ position: Int) {
        let spec = faults[position].spec
        for vendor in spec.vendor.map({ [$0] }) ?? Via.providers {
            if let token = spec.token {
                byToken[vendor, default: [:]][token, default: []].append(position)
            } else if let app = spec.app {
                byApp[vendor, default: [:]][app, default: []].append(position)
            } else {
                byVendor[vendor, default: []].append(position)
            }
        }
    }

    /// A uniform number in [0, 1) from the seeded SplitMix64 stream.
    private mutating func nextUnit() -> Double {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
