/* One program's wait, watchdog and report (run.c): the same for a spawned program
 * (launcher.c) and a fork server's case (serve.c); the one killer of every limit
 * (docs/decisions.md#d3). */
#ifndef GRIDJUDGE_RUN_H
#define GRIDJUDGE_RUN_H
#include <dirent.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

struct outcome {
    int status, cpu_killed, wall_killed, mem_killed, lost;
    long long cpu_us, wall_us;
    long long start_cpu_us; /* a fork server's start-up, charged to the case's budget */
    long maxrss_kb;
    long long mem_peak_kb;  /* the largest sample of the run's memory (watch_spec.mem_kb) */
    int others_seen;        /* the processes its last sample, taken after the program ended,
                             * listed (but INIT and watch_spec.spared); -1: none taken */
};

long long now_us(void);
/* CPU microseconds: a cgroup's cpuacct.usage (v1) or cpu.stat (v2), a process's own
 * clock, a rusage; -1 when
 * it cannot be read */
long long cgroup_cpu_us(int fd);
long long process_cpu_us(pid_t pid);
long long rusage_cpu_us(const struct rusage *ru);

/* /proc, open for the whole run and positioned at its first entry naming a process
 * (NULL when it cannot be opened): readdir from there lists the namespace's processes. */
DIR *proc_pids(void);

/* What the watchdog holds a run to. Without a memory cgroup (mem_kb > 0 and whole_ns),
 * the run's memory is a sample, every MEM_POLL_US, of the resident memory of every
 * process of the pid namespace (but INIT and `spared`, a fork server: its pages are its
 * case's too), with what the run's tmpfs mounts (`tmpfs_fds`) and its System V shared
 * memory hold; its CPU (without cpu_fd) the CPU of all of them and of their children
 * that ended. whole_ns WATCH_TREE: every process below INIT instead (no pid namespace of
 * the run's; INIT is a subreaper). Without whole_ns (0) only the program's CPU is watched. */
#define WATCH_NS 1
#define WATCH_TREE 2
#define MEM_POLL_US 10000
struct watch_spec {
    long long cpu_us;   /* since the call: the cgroup's with cpu_fd >= 0; < 0: no limit */
    long long wall_us;  /* since `start`; <= 0: no limit */
    long long start;
    int cpu_fd;
    long long mem_kb;   /* <= 0: no limit */
    int whole_ns;
    pid_t spared;
    const int *tmpfs_fds;
    int n_tmpfs;
};

/* Waits for child `pid` (SIGCHLD blocked) and kills it at a limit of `w`. Fills status,
 * the kill flags, mem_peak_kb (its last sample taken after the program ended: files it
 * left on a tmpfs count), *ru. */
void watch(pid_t pid, const struct watch_spec *w, struct outcome *out, struct rusage *ru);

/* The one report line, spawned or served: key value pairs, `error TEXT` last when there
 * is an error (then the rest may be missing). */
void format_report(char *buf, size_t size, const struct outcome *o, const char *error);
#endif
