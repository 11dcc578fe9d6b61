import CSystem
import Glibc

/// Why a lock file could not be taken.
public enum LockFileError: Error, Sendable, Equatable {
    /// Another process holds the lock; its pid as it wrote it in the file, when readable.
    case held(path: String, pid: Int32?)
    /// The file could not be opened or locked.
    case system(SystemError)
}

/// An exclusive `flock(2)` on a file, held for the life of a process, with the holder's pid in it.
///
/// The kernel lets go when the descriptor closes, however the process ends (even SIGKILL), so a
/// crash never leaves a stale lock. The file itself stays: removing it would let a third process
/// lock a fresh file while the second still holds the old one.
public final class LockFile {
    public let path: String
    private var fd: Int32

    /// Takes the lock at once or throws `.held` with the holder's pid; never waits.
    public init(path: String) throws(LockFileError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system(SystemError("open", errno: errno, context: path)) }
        while pushdeck_flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            let holder = Self.pid(in: fd)
            Glibc.close(fd)
            throw code == EWOULDBLOCK ? .held(path: path, pid: holder) : .system(SystemError("flock", errno: code, context: path))
        }
        // Ours now: say who holds it, for the message the next one prints.
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        self.path = path
        self.fd = fd
    }

    /// Lets go of the lock (the file stays). Safe to call twice.
    public func release() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { release() }

    /// The pid written in the file, if there is one yet (the holder writes it just after locking).
    private static func pid(in fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return Int32(text.split(separator: "\n").first.map(String.init) ?? "")
    }
}
