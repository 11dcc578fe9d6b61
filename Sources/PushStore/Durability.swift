/// How much an acknowledged (committed) write survives. The store always runs in WAL mode, where
/// either choice keeps the database uncorrupted; they differ in what the last commits survive.
public enum Durability: Sendable, Equatable {
    /// `synchronous=NORMAL`: a commit is in the WAL file (the OS's page cache) before it returns,
    /// so it survives the process being killed (`kill -9`, a crash). The WAL is fsynced only at
    /// checkpoints, so an OS crash or power cut can lose the last commits.
    case processCrash
    /// `synchronous=FULL`: every commit also fsyncs the WAL, so it survives a power cut too.
    case powerLoss

    /// What `pushdeck` uses: an acknowledged push must survive `kill -9`, which
    /// WAL with NORMAL gives. FULL's fsync per commit measured here (2 cores, shared) at 100 rows
    /// per commit cost about half the wall-clock throughput, and the server's commits are per
    /// loop turn, often smaller than that.
    public static let standard: Durability = .processCrash

    /// The value of `PRAGMA synchronous`.
    var synchronousPragma: String {
        switch self {
        case .processCrash: "NORMAL"
        case .powerLoss: "FULL"
        }
    }
}
