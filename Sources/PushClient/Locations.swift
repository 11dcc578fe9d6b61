import Glibc

/// Where pushdeck puts its socket and database when not told: a contract, scripts rely on these.
public enum Locations {
    /// `--socket`, else `$PUSHDECK_SOCKET`, else `$XDG_RUNTIME_DIR/pushdeck/pushdeck.sock`,
    /// else `/tmp/pushdeck-$UID/pushdeck.sock`.
    public static func socketPath(flag: String?, environment: [String: String], uid: uid_t = getuid()) -> String {
        if let flag { return flag }
        if let path = environment["PUSHDECK_SOCKET"], !path.isEmpty { return path }
        return defaultSocketFolder(environment: environment, uid: uid) + "/pushdeck.sock"
    }

    /// The folder pushdeck itself creates for the default socket (mode 0700).
    public static func defaultSocketFolder(environment: [String: String], uid: uid_t = getuid()) -> String {
        // The XDG spec: a relative path in an XDG variable is invalid and must be ignored.
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/pushdeck" }
        return "/tmp/pushdeck-\(uid)"
    }

    /// `--db`, else `$PUSHDECK_DB`, else `$XDG_DATA_HOME/pushdeck/inbox.sqlite`, else
    /// `~/.local/share/pushdeck/inbox.sqlite`.
    public static func databasePath(flag: String?, environment: [String: String]) -> String {
        if let flag { return flag }
        if let path = environment["PUSHDECK_DB"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/pushdeck/inbox.sqlite" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/.local/share/pushdeck/inbox.sqlite"
    }
}
