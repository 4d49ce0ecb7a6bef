/* One program's wait, watchdog and report (run.c): the same for a spawned program
 * (launcher.c) and a fork server's case (serve.c). */
#ifndef GRIDJUDGE_RUN_H
#define GRIDJUDGE_RUN_H
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

struct outcome {
    int status, cpu_killed, wall_killed, mem_killed, lost;
    long long cpu_us, wall_us;
    long long start_cpu_us; /* a fork server's start-up, charged to the case's budget */
    long maxrss_kb;
};

long long now_us(void);
/* CPU microseconds: a cgroup's cpuacct.usage (v1) or cpu.stat (v2), a process's own
 * clock, a rusage; -1 when
 * it cannot be read */
long long cgroup_cpu_us(int fd);
long long process_cpu_us(pid_t pid);
long long rusage_cpu_us(const struct rusage *ru);

/* Waits for child `pid` (SIGCHLD blocked) and kills it once it has used `cpu_us` of CPU
 * (the cgroup's since the call when cpu_fd >= 0, else its own clock; < 0: no limit),
 * `wall_us` since `start` (<= 0: no limit) or, sampled every RSS_POLL_US, more than
 * `rss_kb` resident (<= 0: no limit; for a memory limit no cgroup holds and RLIMIT_AS
 * cannot, as it is raised for a runtime's reserve). Fills status, the kill flags, *ru. */
#define RSS_POLL_US 10000
void watch(pid_t pid, long long cpu_us, long long wall_us, int cpu_fd, long long start,
           long long rss_kb, struct outcome *out, struct rusage *ru);

/* The one report line, spawned or served: key value pairs, `error TEXT` last when there
 * is an error (then the rest may be missing). */
void format_report(char *buf, size_t size, const struct outcome *o, const char *error);
#endif
