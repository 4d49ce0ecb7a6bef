/* See run.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

long long cgroup_cpu_us(int fd) {
    char buf[64];
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
    if (n <= 0) return -1;
    buf[n] = 0;
    /* cgroup v2's cpu.stat opens with `usage_usec N`; v1's cpuacct.usage is nanoseconds */
    static const char v2_key[] = "usage_usec ";
    if (strncmp(buf, v2_key, sizeof v2_key - 1) == 0)
        return strtoll(buf + sizeof v2_key - 1, NULL, 10);
    return strtoll(buf, NULL, 10) / 1000;
}

long long process_cpu_us(pid_t pid) {
    clockid_t clock;
    struct timespec t;
    if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &t) != 0) return -1;
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

long long rusage_cpu_us(const struct rusage *ru) {
    return (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec +
           (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec;
}

void watch(pid_t pid, long long cpu_us, long long wall_us, int cpu_fd, long long start,
           struct outcome *out, struct rusage *ru) {
    long long base = cpu_fd >= 0 ? cgroup_cpu_us(cpu_fd) : 0;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    for (;;) {
        if (wait4(pid, &out->status, WNOHANG, ru) == pid) return;
        long long used = cpu_fd >= 0 ? cgroup_cpu_us(cpu_fd) : process_cpu_us(pid);
        if (used >= 0 && cpu_fd >= 0) used -= base;
        long long never = 1LL << 60;
        long long wall_left = wall_us > 0 ? wall_us - (now_us() - start) : never;
        long long cpu_left = cpu_us < 0 || used < 0 ? never : cpu_us - used;
        if (cpu_left <= 0 || wall_left <= 0) {
            out->cpu_killed = cpu_left <= 0;
            out->wall_killed = !out->cpu_killed;
            kill(pid, SIGKILL);
            break;
        }
        if (cpu_left == never && wall_left == never) break; /* nothing to watch: wait */
        /* CPU time <= wall time: sleep for the least time left (or until a child ends) */
        long long left = (cpu_left < wall_left ? cpu_left : wall_left) + 2000;
        struct timespec wait = {(time_t)(left / 1000000), (long)(left % 1000000) * 1000};
        sigtimedwait(&chld, NULL, &wait);
    }
    while (wait4(pid, &out->status, 0, ru) < 0 && errno == EINTR) {}
}

void format_report(char *buf, size_t size, const struct outcome *o, const char *error) {
    int n = snprintf(buf, size,
                     "status %d cpu_us %lld maxrss_kb %ld cpu_killed %d wall_killed %d "
                     "wall_us %lld lost %d start_cpu_us %lld",
                     o->status, o->cpu_us, o->maxrss_kb, o->cpu_killed, o->wall_killed,
                     o->wall_us, o->lost, o->start_cpu_us);
    if (error && n >= 0 && (size_t)n < size) snprintf(buf + n, size - (size_t)n, " error %s", error);
}
