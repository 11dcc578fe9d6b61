import Glibc

/// The listening Unix socket: created private (folder 0700, socket 0600), never replacing anything
/// that is not a stale socket, removed again on shutdown.
public final class Listener {
    public let path: String
    public let fd: Int32
    /// The socket file's identity, so `close` removes our socket and not a later server's.
    private let inode: (dev: UInt, ino: UInt)
    /// `<socket>.lock`, held for the listener's life: check-unlink-bind of the socket path is
    /// done by one server at a time, so two started at once cannot both bind (one of them on a
    /// file the other then unlinks).
    private let lock: LockFile
    private var closed = false

    /// Prepares the folder and binds. `strictFolder` refuses an existing folder that others can
    /// reach (used for the default folders pushdeck owns; an explicit `--socket` folder is the
    /// user's choice and is only created when missing).
    public init(path: String, strictFolder: Bool) throws(SocketPathError) {
        let address = try SocketAddress(path: path)
        try Self.prepareFolder(of: path, strict: strictFolder)
        let lock: LockFile
        do {
            lock = try LockFile(path: path + ".lock")
        } catch {
            switch error {
            case .held(_, let pid):
                throw SocketPathError(Self.alreadyRunning(at: path, pid: pid))
            case .system(let failure):
                throw SocketPathError("cannot lock the socket \(path): \(failure)")
            }
        }
        try Self.clearStaleSocket(at: path)

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketPathError(SystemError("socket", errno: errno).description) }
        do {
            try configureDescriptor(fd)
            // The socket is created with the umask's mode; make it 0600 from the start so no
            // other user can connect in the instant between bind and chmod.
            let previous = umask(0o177)
            defer { umask(previous) }
            _ = try address.withSockAddr { address, length throws(SystemError) in
                try syscall("bind", context: path) { bind(fd, address, length) }
            }
            try syscall("chmod", context: path) { chmod(path, 0o600) }
            try syscall("listen") { listen(fd, 512) }
        } catch {
            Glibc.close(fd)
            throw SocketPathError("cannot listen on \(path): \(error)")
        }
        var info = stat()
        lstat(path, &info)
        self.path = path
        self.fd = fd
        self.inode = (UInt(info.st_dev), UInt(info.st_ino))
        self.lock = lock
    }

    /// Accepts one pending connection, or nil when none is waiting.
    public func accept() throws(SystemError) -> Int32? {
        guard let client = try nonBlockingSyscall("accept", { Glibc.accept(fd, nil, nil) }) else { return nil }
        do {
            try configureDescriptor(client)
        } catch {
            Glibc.close(client)
            throw error
        }
        return client
    }

    /// Closes the socket and removes its file if it is still ours. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
        var info = stat()
        if lstat(path, &info) == 0, UInt(info.st_dev) == inode.dev, UInt(info.st_ino) == inode.ino {
            unlink(path)
        }
        lock.release()
    }

    deinit { close() }

    // MARK: - Before binding

    /// Makes the folder when missing, then checks what is there, whoever made it: between our
    /// `lstat` and our `mkdir` another local user may have made it (EEXIST), and a folder they
    /// own lets them swap the socket. A default folder (`strict`) must be a real directory, not
    /// a symbolic link, owned by us and closed to group and others; a folder the user named
    /// with `--socket` is theirs, and may be reached through a symbolic link.
    private static func prepareFolder(of path: String, strict: Bool) throws(SocketPathError) {
        let folder = parentFolder(of: path)
        var info = stat()
        if lstat(folder, &info) != 0 {
            guard errno == ENOENT else {
                throw SocketPathError("cannot use socket folder \(folder): \(SystemError("stat", errno: errno))")
            }
            try makeFolders(folder)
            guard lstat(folder, &info) == 0 else {
                throw SocketPathError("cannot use socket folder \(folder): \(SystemError("stat", errno: errno))")
            }
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard !strict else {
                throw SocketPathError(
                    "socket folder \(folder) is a symbolic link; pushdeck only uses a folder of its own there. "
                        + "Remove it (pushdeck makes the folder) or choose a socket with --socket")
            }
            guard stat(folder, &info) == 0 else {
                throw SocketPathError("cannot use socket folder \(folder): \(SystemError("stat", errno: errno))")
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SocketPathError("socket folder \(folder) is not a directory; pushdeck leaves it alone")
        }
        guard strict else { return }
        guard info.st_uid == getuid() else {
            throw SocketPathError("socket folder \(folder) belongs to uid \(info.st_uid), not to you; refusing to use it")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw SocketPathError(
                "socket folder \(folder) has mode \(String(mode, radix: 8)); it must be private to you (700). "
                    + "Run: chmod 700 \(folder)")
        }
    }

    /// `mkdir -p` with mode 0700 for every folder it creates.
    private static func makeFolders(_ folder: String) throws(SocketPathError) {
        let parent = parentFolder(of: folder)
        if parent != folder, access(parent, F_OK) != 0 { try makeFolders(parent) }
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw SocketPathError("cannot create socket folder \(folder): \(SystemError("mkdir", errno: errno))")
        }
    }

    /// Removes a socket file no server answers on; refuses a live server or anything else.
    private static func clearStaleSocket(at path: String) throws(SocketPathError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            let kind = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a regular file"
            throw SocketPathError(
                "\(path) exists and is \(kind), not a socket; pushdeck will not replace it. "
                    + "Remove it or choose another path with --socket")
        }
        if Self.isLive(path) {
            throw SocketPathError(alreadyRunning(at: path, pid: nil))
        }
        unlink(path)
    }

    /// A second server needs both a socket and a database of its own: `--socket` alone would
    /// only find the database locked.
    private static func alreadyRunning(at path: String, pid: Int32?) -> String {
        let who = pid.map { "a pushdeck server (pid \($0))" } ?? "a pushdeck server"
        return "\(who) is already running at \(path); stop it first "
            + "(a second server needs its own --socket and its own --db)"
    }

    /// True when something accepts connections at `path`.
    static func isLive(_ path: String) -> Bool {
        guard let address = try? SocketAddress(path: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        let connected = try? address.withSockAddr { address, length throws(SystemError) in
            try syscall("connect") { connect(fd, address, length) }
        }
        return connected != nil
    }

    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }
}
