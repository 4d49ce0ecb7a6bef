/* The rlimits every sandboxed program gets (no RLIMIT_AS: the memory limit is a cgroup's
 * or the launcher's watchdog's, over all of a run's processes), set in one place: by the launcher for a
 * spawned program or a fork server (launcher.c) and by the fork server for each case
 * (forkserver.c, a library of its own, hence a header). 0 means "not set" for the
 * sizes; core dumps are always off. */
#ifndef GRIDJUDGE_RLIMITS_H
#define GRIDJUDGE_RLIMITS_H
#include <sys/resource.h>

static inline int set_one_limit(int resource, unsigned long long value) {
    struct rlimit rl = {(rlim_t)value, (rlim_t)value};
    return setrlimit(resource, &rl);
}

/* Returns 0, or -1 (errno set) when a limit could not be set. */
static inline int set_rlimits(unsigned long long stack, unsigned long long fsize,
                              unsigned long long nofile) {
    if (stack && set_one_limit(RLIMIT_STACK, stack) != 0) return -1;
    if (fsize && set_one_limit(RLIMIT_FSIZE, fsize) != 0) return -1;
    if (nofile && set_one_limit(RLIMIT_NOFILE, nofile) != 0) return -1;
    return set_one_limit(RLIMIT_CORE, 0);
}
#endif
