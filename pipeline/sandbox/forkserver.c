/* gridjudge fork server: a shared object preloaded into a submission (LD_PRELOAD), or
 * loaded by the Python zygote, that takes control before the program's own code runs and
 * forks one child per case from that state.
 *
 * Everything here runs inside the sandbox as the unprivileged user, in a process the
 * submission can influence (an ELF's preinit code runs even earlier), so nothing it says
 * is trusted: it only asks for children. Each child is cloned with CLONE_PARENT, making
 * it a child of the sandbox's init (the trusted launcher), which waits for it, measures it
 * with wait4 and enforces its CPU and wall limits.
 *
 * Protocol on the socket named by GRIDJUDGE_FORK_SERVER_FD (SOCK_SEQPACKET, to init):
 *   server -> init  "ready", or "ready US" from the zygote: the CPU its interpreter's own
 *                   start-up took (before the zygote's imports), charged to every case
 *   init -> server  "DIR FSIZE STACK NOFILE" with stdin, stdout, stderr (SCM_RIGHTS)
 *   server -> init  "PID" of the new child (or "-ERRNO")
 *   init -> server  "ping" -> "pong" (after a case, only where its state in /proc
 *                   could not say whether the server is still there)
 * The child makes the three files its 0, 1, 2, enters DIR, sets its rlimits and returns
 * into the program (to main, or into the zygote's Python code).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fdpass.h"
#include "rlimits.h"

#define CONTROL_ENV "GRIDJUDGE_FORK_SERVER_FD"
#define BIND_NOW_ENV "GRIDJUDGE_FORK_SERVER_BIND_NOW"

/* the program's signal mask, which each case gets back (the server blocks them all) */
static sigset_t program_mask;

/* In the child: the case's files, folder and limits; then back into the program. */
static void become_case(int sock, int fds[3], const char *dir, unsigned long long fsize,
                        unsigned long long stack, long nofile) {
    for (int k = 0; k < 3; k++)
        if (dup2(fds[k], k) != k) _exit(127);
    for (int k = 0; k < 3; k++)
        if (fds[k] > 2) close(fds[k]);
    close(sock);
    /* a group of its own (a kill(0, ...) of the case reaches neither the server nor
     * INIT), not a session: setsid() made and tore down a scheduler autogroup per case */
    setpgid(0, 0);
    if (chdir(dir) != 0) _exit(127);
    if (set_rlimits(stack, fsize, (unsigned long long)nofile) != 0) _exit(127);
    /* as a spawned program would be; the server and init stay undumpable */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    signal(SIGPIPE, SIG_DFL);
    /* signals sent to the server stayed with it: a new process starts with none pending */
    sigprocmask(SIG_SETMASK, &program_mask, NULL);
}

/* Serves cases until init closes the socket. Returns 0 in each child; returns -1 at
 * once when this process was not started as a fork server. `start_cpu_us` >= 0: the
 * program's own start-up, told to init with "ready" (the zygote's interpreter, measured
 * before the zygote's imports, which are the judge's); < 0: init measures it. */
int gj_serve_started(long long start_cpu_us) {
    const char *fd_text = getenv(CONTROL_ENV);
    if (!fd_text) return -1;
    int sock = atoi(fd_text);
    unsetenv(CONTROL_ENV);
    unsetenv("LD_PRELOAD");
    /* the judge's, not the program's (forkserver.py): bound by now */
    if (getenv(BIND_NOW_ENV)) {
        unsetenv(BIND_NOW_ENV);
        unsetenv("LD_BIND_NOW");
    }
    /* neither the cases nor anything else may ptrace this process or read its memory */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* while it serves, no signal runs anything in it (a handler of the program's
     * start-up, a default action): only SIGKILL and SIGSTOP reach it, both visible to
     * init in its state (serve.c:server_state) */
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &program_mask);
    char ready[48] = "ready";
    if (start_cpu_us >= 0) snprintf(ready, sizeof ready, "ready %lld", start_cpu_us);
    ssize_t ready_n = (ssize_t)strlen(ready);
    if (send(sock, ready, (size_t)ready_n, MSG_NOSIGNAL) != ready_n) _exit(0);
    for (;;) {
        char text[512], dir[256], reply[32];
        int fds[3];
        int with_fds = 0;
        ssize_t got = receive_case(sock, text, sizeof text, fds, &with_fds);
        if (got == 4 && !with_fds && memcmp(text, "ping", 4) == 0) {
            if (send(sock, "pong", 4, MSG_NOSIGNAL) != 4) _exit(0);
            continue;
        }
        if (got <= 0 || !with_fds) _exit(0);
        unsigned long long fsize = 0, stack = 0;
        long nofile = 0;
        if (sscanf(text, "%255s %llu %llu %ld", dir, &fsize, &stack, &nofile) != 4) _exit(2);
        /* a raw clone: glibc's fork() has no CLONE_PARENT. The process has one thread,
         * so the child's copy of it is consistent. */
        long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, NULL, NULL, 0);
        if (pid == 0) {
            become_case(sock, fds, dir, fsize, stack, nofile);
            return 0;
        }
        for (int k = 0; k < 3; k++) close(fds[k]);
        int n = snprintf(reply, sizeof reply, "%ld", pid < 0 ? -(long)errno : pid);
        if (send(sock, reply, (size_t)n, MSG_NOSIGNAL) != n) _exit(0);
    }
}

int gj_serve(void) { return gj_serve_started(-1); }

/* Preloaded, the library serves from here, before main; loaded by the zygote (no
 * LD_PRELOAD), it waits for the zygote to call gj_serve_started itself. */
__attribute__((constructor)) static void start(void) {
    if (getenv(CONTROL_ENV) && getenv("LD_PRELOAD")) gj_serve();
}
