#define _GNU_SOURCE

#include "hf_child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

// posix_spawn_file_actions_addclosefrom_np arrived in glibc 2.34; macOS has POSIX_SPAWN_CLOEXEC_DEFAULT instead.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define HF_CLOSE_FROM 1
#endif

static int add_actions(posix_spawn_file_actions_t *actions, const int stdio[3], const char *directory) {
    for (int slot = 0; slot < 3; slot++) {
        if (stdio[slot] == slot) continue;
        int error = posix_spawn_file_actions_adddup2(actions, stdio[slot], slot);
        if (error != 0) return error;
    }
    if (directory != NULL) {
        int error = posix_spawn_file_actions_addchdir_np(actions, directory);
        if (error != 0) return error;
    }
#if defined(HF_CLOSE_FROM)
    return posix_spawn_file_actions_addclosefrom_np(actions, 3);
#else
    // Without it (glibc before 2.34) only close-on-exec descriptors stay out of the child, as every pipe of
    // hf_child_pipe is; macOS closes the rest through POSIX_SPAWN_CLOEXEC_DEFAULT.
    return 0;
#endif
}

static int set_attributes(posix_spawnattr_t *attributes) {
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    short flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#if defined(POSIX_SPAWN_CLOEXEC_DEFAULT)
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
    int error = posix_spawnattr_setflags(attributes, flags);
    if (error == 0) error = posix_spawnattr_setpgroup(attributes, 0);
    if (error == 0) error = posix_spawnattr_setsigmask(attributes, &none);
    if (error == 0) error = posix_spawnattr_setsigdefault(attributes, &all);
    return error;
}

int hf_child_spawn(
    pid_t *pid, const char *path, char *const argv[], char *const envp[], const int stdio[3], const char *directory) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int error = posix_spawn_file_actions_init(&actions);
    if (error != 0) return error;
    error = posix_spawnattr_init(&attributes);
    if (error != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    error = add_actions(&actions, stdio, directory);
    if (error == 0) error = set_attributes(&attributes);
    if (error == 0) error = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

int hf_child_pipe(int ends[2]) {
#if defined(__linux__)
    return pipe2(ends, O_CLOEXEC) == 0 ? 0 : errno;
#else
    if (pipe(ends) != 0) return errno;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int hf_child_wait_keeping_zombie(pid_t pid) {
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) != 0) {
        if (errno != EINTR) return errno;
    }
    return 0;
}
