/// How much an acknowledged (committed) write survives. The store always runs in WAL mode, where
/// either choice keeps the database uncorrupted; they differ in what the last commits survive.
public enum Durability: Sendable, Equatable {
    /// `synchronous=NORMAL`: a commit is in the WAL file (the OS's page cache) before it returns,
    /// so it survives the process being killed (`kill -9`, a crash). The WAL is fsynced only at
    /// checkpoints, so an OS crash or power cut can lose the last commits.
    case processCrash
    /// `synchronous=FULL`: every commit also fsyncs the WAL, so it survives a power cut too.
    case powerLoss

    /// What `pushdeck` uses. The fsync per commit is affordable because the server commits once
    /// per loop turn, not once per push (see the store's throughput notes in the report/README).
    public static let standard: Durability = .powerLoss

    /// The value of `PRAGMA synchronous`.
    var synchronousPragma: String {
        switch self {
        case .processCrash: "NORMAL"
        case .powerLoss: "FULL"
        }
    }
}
