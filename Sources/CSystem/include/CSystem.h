#ifndef PUSHDECK_CSYSTEM_H
#define PUSHDECK_CSYSTEM_H

#include <sys/types.h>

/// Calls that Swift cannot reach through Glibc: `struct ucred` needs _GNU_SOURCE (set in
/// CSystem.c, not here, so the Glibc module Swift imports is not built twice), and the
/// function `flock` is hidden behind the struct of the same name.

/// The uid of the process at the other end of a Unix socket (SO_PEERCRED); 0 on success, -1
/// with errno set on failure.
int pushdeck_peer_uid(int fd, uid_t *uid);

/// flock(2).
int pushdeck_flock(int fd, int operation);

/// 1 when the signal's disposition is SIG_IGN (inherited, e.g. from nohup), 0 when not, -1 on error.
int pushdeck_signal_is_ignored(int signal_number);

#endif
