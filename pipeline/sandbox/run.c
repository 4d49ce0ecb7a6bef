/* See run.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/vfs.h>
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

/* The process CPU clock of `pid` as clock_getcpuclockid names it (the kernel's
 * MAKE_PROCESS_CPUCLOCK of CPUCLOCK_SCHED), without its check by clock_getres, a system
 * call more on every read: clock_gettime fails alike for a process that is gone. */
long long process_cpu_us(pid_t pid) {
    clockid_t clock = (clockid_t)((~(unsigned)pid << 3) | 2U);
    struct timespec t;
    if (clock_gettime(clock, &t) != 0) return -1;
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

long long rusage_cpu_us(const struct rusage *ru) {
    return (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec +
           (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec;
}

/* /proc listed from its first entry naming a process ("self", then the pids): the ~50
 * entries of /proc's own files before it were most of a sweep's cost. Where no such
 * entry is found, every listing starts from the top. */
DIR *proc_pids(void) {
    static DIR *proc;
    static long pids_at;
    if (!proc) {
        proc = opendir("/proc");
        for (struct dirent *e; proc;) {
            long at = telldir(proc);
            if ((e = readdir(proc)) == NULL) break;
            if (!strcmp(e->d_name, "self") || (e->d_name[0] >= '0' && e->d_name[0] <= '9')) {
                pids_at = at;
                break;
            }
        }
    }
    if (proc) seekdir(proc, pids_at);
    return proc;
}

/* A process's CPU clock ticks (its own and those of its children it reaped: utime,
 * stime, cutime, cstime) and resident pages, from /proc/PID/stat; 0, or -1 when gone. */
static int process_stat(long pid, long long *ticks, long long *pages) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    const char *at = strrchr(text, ')'); /* the command name may hold anything */
    if (!at || at[1] != ' ' || !at[2]) return -1;
    const char *p = at + 3;
    long long field[25] = {0};
    for (int k = 4; k <= 24; k++) {
        char *end;
        field[k] = strtoll(p, &end, 10);
        if (end == p) return -1;
        p = end;
    }
    *ticks += field[14] + field[15] + field[16] + field[17];
    *pages += field[24];
    return 0;
}

/* What the run's tmpfs mounts and its IPC namespace's System V shared memory hold. */
static long long shared_kb(const struct watch_spec *w) {
    long long kb = 0;
    for (int k = 0; k < w->n_tmpfs; k++) {
        struct statfs fs;
        if (w->tmpfs_fds[k] >= 0 && fstatfs(w->tmpfs_fds[k], &fs) == 0)
            kb += (long long)(fs.f_blocks - fs.f_bfree) * (long long)fs.f_bsize / 1024;
    }
    struct shm_info shm;
    if (shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&shm) >= 0)
        kb += (long long)shm.shm_tot * (sysconf(_SC_PAGESIZE) / 1024);
    return kb;
}

/* The pids in the file `path` (a /proc/PID/task/TID/children list) appended to
 * `queue` (`*n` of `room` taken). */
static void queue_children(const char *path, long *queue, int *n, int room) {
    char text[4096];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0) return;
    text[got] = 0;
    for (char *p = text, *end; *n < room; p = end) {
        long pid = strtol(p, &end, 10);
        if (end == p) break;
        queue[(*n)++] = pid;
    }
}

/* The CPU ticks and resident pages of every process below this one (INIT, a subreaper
 * where there is no pid namespace of the run's: what it started stays below it), found
 * through each thread's list of children. */
#define TREE_MAX 4096
static int sample_tree(long long *ticks, long long *pages) {
    static long queue[TREE_MAX];
    int n = 0;
    queue[n++] = getpid();
    for (int at = 0; at < n; at++) {
        char path[96];
        if (at > 0) process_stat(queue[at], ticks, pages);
        snprintf(path, sizeof path, "/proc/%ld/task", queue[at]);
        DIR *tasks = opendir(path);
        for (struct dirent *e; tasks && (e = readdir(tasks)) != NULL;) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            snprintf(path, sizeof path, "/proc/%ld/task/%.20s/children", queue[at], e->d_name);
            queue_children(path, queue, &n, TREE_MAX);
        }
        if (tasks) closedir(tasks);
    }
    return n - 1;
}

/* One sample of the run (watch_spec.whole_ns): its CPU and its memory, -1 each where
 * /proc cannot be listed. Shared pages count in every process mapping them: never less
 * than the run holds. Returns how many processes it listed (-1: /proc could not be). */
static int sample_run(const struct watch_spec *w, long long *cpu_us, long long *mem_kb) {
    long long ticks = 0, pages = 0;
    int listed = 0;
    *cpu_us = *mem_kb = -1;
    if (w->whole_ns == WATCH_TREE) {
        listed = sample_tree(&ticks, &pages);
    } else {
        DIR *proc = proc_pids();
        if (!proc) return -1;
        for (struct dirent *e; (e = readdir(proc)) != NULL;) {
            char *end;
            long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 1 || pid == w->spared) continue;
            process_stat(pid, &ticks, &pages);
            listed++;
        }
    }
    long hz = sysconf(_SC_CLK_TCK);
    *cpu_us = ticks * 1000000 / (hz > 0 ? hz : 100);
    *mem_kb = pages * (sysconf(_SC_PAGESIZE) / 1024) + shared_kb(w);
    return listed;
}

void watch(pid_t pid, const struct watch_spec *w, struct outcome *out, struct rusage *ru) {
    long long base = w->cpu_fd >= 0 ? cgroup_cpu_us(w->cpu_fd) : 0;
    /* the run's processes summed: its memory (no cgroup holds it), its CPU (no cgroup
     * counts it), both sampled every MEM_POLL_US */
    int summed_mem = w->whole_ns && w->mem_kb > 0;
    int summed_cpu = w->whole_ns && w->cpu_fd < 0 && w->cpu_us >= 0;
    static long cpus; /* read once: glibc reads a file of /sys for it */
    if (cpus < 1) cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    int reaped = 0;
    /* the first sample one period after the run's start: a short run (most fork-server
     * cases) takes none */
    long long next_sample = w->start + MEM_POLL_US, sampled_cpu = 0;
    out->mem_peak_kb = 0;
    out->others_seen = -1;
    for (;;) {
        if (wait4(pid, &out->status, WNOHANG, ru) == pid) {
            reaped = 1;
            break;
        }
        long long now = now_us(), mem = -1;
        if ((summed_mem || summed_cpu) && now >= next_sample) {
            long long cpu;
            sample_run(w, &cpu, &mem);
            sampled_cpu = cpu >= 0 ? cpu : process_cpu_us(pid);
        }
        if (now >= next_sample) next_sample = now + MEM_POLL_US;
        if (mem > out->mem_peak_kb) out->mem_peak_kb = mem;
        long long used = w->cpu_fd >= 0 ? cgroup_cpu_us(w->cpu_fd) - base
                         : summed_cpu   ? sampled_cpu
                                        : process_cpu_us(pid);
        long long never = 1LL << 60;
        long long wall_left = w->wall_us > 0 ? w->wall_us - (now - w->start) : never;
        long long cpu_left = w->cpu_us < 0 || used < 0 ? never : w->cpu_us - used;
        out->mem_killed = w->mem_kb > 0 && mem > w->mem_kb;
        if (cpu_left <= 0 || wall_left <= 0 || out->mem_killed) {
            out->cpu_killed = !out->mem_killed && cpu_left <= 0;
            out->wall_killed = !out->mem_killed && !out->cpu_killed;
            kill(pid, SIGKILL);
            break;
        }
        int polled = summed_mem || summed_cpu;
        if (!polled && cpu_left == never && wall_left == never) break; /* nothing to watch */
        /* the CPU of several processes grows up to `cpus` times as fast as the wall: sleep
         * for the least time left (or until a child ends), at most until the next sample */
        long long cpu_wall = cpu_left;
        if (cpu_left != never && (w->cpu_fd >= 0 || summed_cpu)) cpu_wall = cpu_left / cpus;
        long long left = (cpu_wall < wall_left ? cpu_wall : wall_left) + 2000;
        if (polled && left > next_sample - now) left = next_sample - now;
        struct timespec wait = {(time_t)(left / 1000000), (long)(left % 1000000) * 1000};
        sigtimedwait(&chld, NULL, &wait);
    }
    while (!reaped && wait4(pid, &out->status, 0, ru) < 0 && errno == EINTR) {}
    if (summed_mem) { /* what the run left behind: processes, files on its tmpfs mounts */
        long long cpu, mem;
        out->others_seen = sample_run(w, &cpu, &mem);
        if (mem > out->mem_peak_kb) out->mem_peak_kb = mem;
    }
}

void format_report(char *buf, size_t size, const struct outcome *o, const char *error) {
    int n = snprintf(buf, size,
                     "status %d cpu_us %lld maxrss_kb %ld cpu_killed %d wall_killed %d "
                     "mem_killed %d wall_us %lld lost %d start_cpu_us %lld",
                     o->status, o->cpu_us, o->maxrss_kb, o->cpu_killed, o->wall_killed,
                     o->mem_killed, o->wall_us, o->lost, o->start_cpu_us);
    if (error && n >= 0 && (size_t)n < size) snprintf(buf + n, size - (size_t)n, " error %s", error);
}
