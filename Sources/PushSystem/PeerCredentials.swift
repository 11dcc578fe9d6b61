import CSystem
import Glibc

/// The uid of the process at the other end of a connected Unix socket (`SO_PEERCRED`, read
/// through CSystem: `struct ucred` needs _GNU_SOURCE, which Swift's Glibc module is built without).
public func peerCredentialsUID(of fd: Int32) -> uid_t? {
    var uid: uid_t = 0
    guard pushdeck_peer_uid(fd, &uid) == 0 else { return nil }
    return uid
}
