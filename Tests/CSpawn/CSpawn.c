#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CSpawn.h"

int pushdeck_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int pushdeck_spawn_actions_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
