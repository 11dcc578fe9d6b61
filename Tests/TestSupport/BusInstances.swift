import Foundation

/// Waiting on what other processes do (a broker, another instance): `condition` is asked every
/// 20 ms until it holds or `seconds` pass. The processes run on the real clock; nothing here
/// sleeps for a fixed time to let something happen.
public func waitUntil(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

extension ServerProcess {
    /// `pushdeck bus --json`'s reply, or nil when it fails.
    public func busState() -> [String: Any]? {
        guard let result = try? run(["bus", "--json"]), result.status == 0,
              let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { return nil }
        return object
    }

    /// Waits until this instance's bus says `bus connected`.
    public func waitForBus(seconds: Double = 10) -> Bool {
        waitUntil(seconds: seconds) { busState()?["bus"] as? String == "bus connected" }
    }

    /// How many messages the inbox lists (`list --json`).
    public func messageCount() -> Int {
        guard let result = try? run(["list", "--json", "--limit", "1000"]), result.status == 0,
              let array = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        else { return -1 }
        return array.count
    }

    /// The listed messages as `list --json` prints them.
    public func messages() -> [[String: Any]] {
        guard let result = try? run(["list", "--json", "--limit", "1000"]), result.status == 0,
              let array = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        else { return [] }
        return array
    }
}
