/* The launcher's fork-server mode (serve.c). */
#ifndef GRIDJUDGE_SERVE_H
#define GRIDJUDGE_SERVE_H
#include <sys/types.h>

#define SERVE_MAX_WRITABLE 33

struct serve_setup {
    int cpu_fd;     /* the run cgroup's cpuacct.usage or cpu.stat, or -1 */
    long long start_us; /* how long the server may use no CPU before it says it is ready */
    const char *writable[SERVE_MAX_WRITABLE]; /* emptied after every case */
    int writable_fd[SERVE_MAX_WRITABLE];
    int n_writable;
    int mqueue_fd;  /* the namespace's POSIX message queues, mounted by init, or -1 */
    long long mqueue_empty_size; /* the size of their folder while it holds none */
    int box_fd;     /* the scratch dir's writable mount (the cases see it read-only), or -1 */
    long uid, gid;  /* the cases' user, or -1 */
    int charge_start;        /* charge the server's CPU before "ready" to every case */
    long long start_cpu_us;  /* that CPU, measured at "ready" */
    long long start_cpu_budget_us; /* with charge_start: more before "ready" is refused */
    long long mem_kb;        /* the watchdog's memory limit (run.h), or 0 (a cgroup holds it) */
    unsigned long long tmpfs_size; /* a staged case's private scratch dir's size */
};

int serve(int judge, int server, pid_t server_pid, struct serve_setup *s);
#endif
