#ifndef HF_CHILD_PROCESS_H
#define HF_CHILD_PROCESS_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (both NULL-terminated) in a process group of its own, its signal mask
/// empty and every signal's action the default. The child's standard input, output and error are `stdio[0…2]`
/// (a descriptor equal to its slot is inherited as it is), its working folder `directory` (NULL: this process's),
/// and it holds no other descriptor of this process: every one from 3 up is closed in the child. Returns 0 and
/// the child's identifier in `pid`, or an `errno` value.
int hf_child_spawn(
    pid_t *pid, const char *path, char *const argv[], char *const envp[], const int stdio[3], const char *directory);

/// A pipe whose two ends are closed on `exec`: no child started by any thread inherits them by accident.
/// Returns 0, or an `errno` value.
int hf_child_pipe(int ends[2]);

/// Waits until the child `pid` has ended without reaping it: until the caller reaps it with `waitpid`, its
/// identifier cannot be given to another process, so a signal sent meanwhile reaches no stranger.
/// Returns 0, or an `errno` value.
int hf_child_wait_keeping_zombie(pid_t pid);

#endif
