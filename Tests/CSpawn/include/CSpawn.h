#ifndef PUSHDECK_CSPAWN_H
#define PUSHDECK_CSPAWN_H

#include <spawn.h>

/// What the tests' process runner needs and Swift cannot reach through Glibc (both need
/// _GNU_SOURCE, set in CSpawn.c, not here, so the Glibc module Swift imports is not built twice).

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, with no window in which another
/// thread's child could inherit them. 0 on success, -1 with errno set.
int pushdeck_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `lowest` up.
int pushdeck_spawn_actions_closefrom(posix_spawn_file_actions_t *actions, int lowest);

#endif
