/* See run.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/* Resident kilobytes of `fd`'s process (an open /proc/PID/statm), -1 when unreadable */
static long long resident_kb(int fd) {
    char buf[128];
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
    if (n <= 0) return -1;
    buf[n] = 0;
    long long pages = 0;
    if (sscanf(buf, "%*s %lld", &pages) != 1) return -1;
    return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

void watch(pid_t pid, long long cpu_us, long long wall_us, int cpu_fd, long long start,
           long long rss_kb, struct outcome *out, struct rusage *ru) {
    long long base = cpu_fd >= 0 ? cgroup_cpu_us(cpu_fd) : 0;
    int statm_fd = -1;
    if (rss_kb > 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
        statm_fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    int reaped = 0;
    for (;;) {
        if (wait4(pid, &out->status, WNOHANG, ru) == pid) {
            reaped = 1;
            break;
        }
        long long used = cpu_fd >= 0 ? cgroup_cpu_us(cpu_fd) : process_cpu_us(pid);
        if (used >= 0 && cpu_fd >= 0) used -= base;
        long long never = 1LL << 60;
        long long wall_left = wall_us > 0 ? wall_us - (now_us() - start) : never;
        long long cpu_left = cpu_us < 0 || used < 0 ? never : cpu_us - used;
        out->mem_killed = statm_fd >= 0 && resident_kb(statm_fd) > rss_kb;
        if (cpu_left <= 0 || wall_left <= 0 || out->mem_killed) {
            out->cpu_killed = !out->mem_killed && cpu_left <= 0;
            out->wall_killed = !out->mem_killed && !out->cpu_killed;
            kill(pid, SIGKILL);
            break;
        }
        if (statm_fd < 0 && cpu_left == never && wall_left == never) break; /* nothing to watch */
        /* CPU time <= wall time: sleep for the least time left (or until a child ends);
         * resident memory is sampled every RSS_POLL_US */
        long long left = (cpu_left < wall_left ? cpu_left : wall_left) + 2000;
        if (statm_fd >= 0 && left > RSS_POLL_US) left = RSS_POLL_US;
        struct timespec wait = {(time_t)(left / 1000000), (long)(left % 1000000) * 1000};
        sigtimedwait(&chld, NULL, &wait);
    }
    while (!reaped && wait4(pid, &out->status, 0, ru) < 0 && errno == EINTR) {}
    if (statm_fd >= 0) close(statm_fd);
}

void format_report(char *buf, size_t size, const struct outcome *o, const char *error) {
    int n = snprintf(buf, size,
                     "status %d cpu_us %lld maxrss_kb %ld cpu_killed %d wall_killed %d "
                     "mem_killed %d wall_us %lld lost %d start_cpu_us %lld",
                     o->status, o->cpu_us, o->maxrss_kb, o->cpu_killed, o->wall_killed,
                     o->mem_killed, o->wall_us, o->lost, o->start_cpu_us);
    if (error && n >= 0 && (size_t)n < size) snprintf(buf + n, size - (size_t)n, " error %s", error);
}
