/* gridjudge sandbox launcher: compiled on first use into the cache dir, exec'd by the
 * judge for every run (no fork of the big judge process: its rusage and page tables
 * never reach the measured program).
 *
 *   launcher --report FILE --box DIR [--cpu-us US] [--wall-us US] [--cpu-file F]
 *            [--mem-kb KB] [--stack BYTES] [--fsize BYTES] [--nofile N]
 *            [--tmpfs-size BYTES] [--keep NAME]... [--private-box]
 *            [--uid U --gid G] [--cg DIR]... [--procs F]
 *            [--ns] [--userns [--nproc N]] [--hide-all] [--hide DIR]... [--conceal DIR]...
 *            [--show PATH]...
 *            [--serve [--start-us US] [--charge-start]] [--args-file F] [--handover N]
 *            -- PROGRAM ARGS...
 *   launcher --take-stdio N -- PROGRAM ARGS...   (run by bwrap: see hand_over)
 *
 * launcher: joins the cgroups, unshares net/pid/mount/ipc/uts namespaces, builds the
 * program's view (view.c: system folders read-only, the others hidden; --hide DIR: a
 * private writable tmpfs over DIR, --conceal DIR: an empty read-only one, but for the
 * --show PATHs below it, bound read-only: shown.c, a compiler's view), forks INIT
 * (pid 1 of the new pid namespace) and waits for it. INIT mounts a fresh /proc, forks
 * PROG and waits for it (run.c's watch); PROG sets the rlimits (rlimits.h), enters the
 * scratch dir, drops to the unprivileged uid, installs the seccomp filter (seccomp.c) and
 * execs the program; the launcher and INIT then let go of their copies of its stdin and
 * stdout. When PROG has ended, INIT kills and reaps every other process of the
 * namespace and writes the report (run.c's format_report: one line, the CPU of all of
 * them, the largest peak RSS). stdin/stdout/stderr are inherited from the judge
 * (files), so nothing here buffers the program's output.
 *
 * The scratch dir (--hide-all spawned, or --private-box without --ns) is a private tmpfs
 * of --tmpfs-size bytes at /tmp/box (--private-box: at --box, in a mount namespace of the
 * run's) holding a copy of the files the judge staged in --box (box.c); after the run
 * INIT copies the files named by --keep back into --box for the judge. The private
 * writable folders (/tmp, --hide) are tmpfs mounts of that size too: what a run writes
 * stays in memory of its own, capped, and never in the host's.
 *
 * --mem-kb KB: the watchdog's memory limit where no memory cgroup holds the run: the
 * resident memory of every process of the run (with --ns its pid namespace's, without
 * every process below INIT) and what the run's tmpfs mounts hold, summed and sampled
 * (run.c). Without a cgroup's CPU file the CPU limit holds the same processes' CPU.
 *
 * The wall limit of a spawned run (--wall-us) is INIT's watchdog too, as a served case's
 * is serve.c's: one watchdog ends every run at each of its limits and says which in the
 * report (the judge's own deadline is only a backstop past it, for a launcher that hangs).
 *
 * The CPU limit is INIT's watchdog (--cpu-us, on the CPU of the run's processes summed
 * or on the run's cgroup with --cpu-file), not RLIMIT_CPU: any process-wide CPU timer,
 * RLIMIT_CPU included, makes the kernel answer the program's own
 * CLOCK_PROCESS_CPUTIME_ID (and clock()) from a cache refreshed only at scheduler ticks,
 * 4 ms apart here (measured: a program that burns 20 ms of its own clock burned 20-24 ms
 * under RLIMIT_CPU, 20.00 ms without).
 *
 * --userns (for a judge that is not root): with --ns, the namespaces are made inside a
 * new user namespace mapping the judge's uid and gid to themselves (an ordinary user may
 * map only its own ids), which gives the launcher and INIT the capabilities to build the
 * view; PROG keeps that non-zero uid, so execve clears every capability it had, and the
 * program runs as the judge's uid owning nothing it can reach but its scratch dir.
 * Alone (the bwrap backend, which makes its own namespaces below it), --userns makes
 * only the user namespace, so that --nproc counts this run's tasks alone.
 * --nproc N: RLIMIT_NPROC, which the kernel counts per user namespace (Linux 5.14 on):
 * the tasks of this run (the launcher and INIT included), where no pids cgroup holds a
 * fork bomb.
 *
 * --serve (with --ns): PROGRAM is a fork server (forkserver.c) talking to INIT on fd 3,
 * and INIT serves the cases the judge sends on the launcher's fd 3 (serve.c). The box
 * (/tmp/box) is read-only then; INIT binds a staged case's folder writable for it. With
 * --charge-start the CPU the server used before it was ready (the program's own pre-main
 * code: ELF constructors, .preinit_array) counts against every case's CPU limit and is
 * reported beside each case's CPU (start_cpu_us), and a server that passes --cpu-us
 * before it is ready is refused ("unsupported STATUS cpu").
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "box.h"
#include "fdpass.h"
#include "rlimits.h"
#include "run.h"
#include "seccomp.h"
#include "serve.h"
#include "shown.h"
#include "view.h"

#define MAX_LIST 32
#define EXEC_BUSY_TRIES 1000
#define EXEC_BUSY_PAUSE_NS 1000000L
#define SETTLE_MS 2000

static int report_fd = -1;

static void report_error(const char *what) {
    if (report_fd >= 0) dprintf(report_fd, "error %s: %s\n", what, strerror(errno));
    _exit(120);
}

static void write_file(const char *dir, const char *name, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) report_error(path);
    if (write(fd, text, strlen(text)) < 0) report_error(path);
    close(fd);
}

static int child_pipe = -1;

/* PROG could not start: tell INIT which step failed (never mistaken for the program). */
static void child_fail(int step) {
    int msg[2] = {step, errno};
    if (write(child_pipe, msg, sizeof msg) < 0) {}
    _exit(127);
}

static void set_limit(int resource, unsigned long long soft, unsigned long long hard) {
    struct rlimit rl = {(rlim_t)soft, (rlim_t)hard};
    if (setrlimit(resource, &rl) != 0) child_fail(1);
}

/* The user namespace's maps: the judge's own uid and gid, nothing else (setgroups must
 * be denied before an unprivileged process may write gid_map). */
static void map_ids(uid_t uid, gid_t gid) {
    char text[64];
    snprintf(text, sizeof text, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    write_file("/proc/self", "uid_map", text);
    write_file("/proc/self", "setgroups", "deny");
    snprintf(text, sizeof text, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    write_file("/proc/self", "gid_map", text);
}

static const char *steps[] = {"exec", "setrlimit", "chdir", "setgid", "setuid", "seccomp"};

/* Once PROG has its stdin and stdout, the launcher and INIT keep no copy of them: a
 * program that closes its stdout is at the end of that pipe for its reader (an
 * interactor), as it would be outside the sandbox. */
static void let_go_of_stdio(void) {
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd <= 1; fd++)
        if (null < 0 || dup2(null, fd) != fd) close(fd);
    if (null > 1) close(null);
}

/* --handover N (PROG is bwrap, which keeps a copy of every fd it passes on, in its
 * monitor outside and its init inside): PROG gets /dev/null for stdin and stdout, a
 * socket as fd N and this launcher's executable as fd N+1; INIT sends the run's stdin,
 * stdout and stderr over the socket, to the launcher that bwrap starts in its sandbox
 * (--take-stdio N), and keeps none. That launcher then installs the whole filter: here
 * it would refuse bwrap the user namespace it makes. */
static void hand_over(int sock, int self_fd, int n) {
    /* first above N+1: any of them (the pipe to INIT too) may hold N or N+1 now */
    if (child_pipe == n || child_pipe == n + 1)
        child_pipe = fcntl(child_pipe, F_DUPFD_CLOEXEC, n + 2);
    sock = fcntl(sock, F_DUPFD_CLOEXEC, n + 2);
    self_fd = fcntl(self_fd, F_DUPFD_CLOEXEC, n + 2);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (child_pipe < 0 || sock < 0 || self_fd < 0 || null < 0 || dup2(null, 0) != 0 ||
        dup2(null, 1) != 1 || dup2(sock, n) != n || dup2(self_fd, n + 1) != n + 1)
        child_fail(1);
}

/* Execs the program; returns only when that failed (errno says why). A judge that
 * copies a program in one thread while another thread spawns: the spawned child holds
 * the copy open for writing until its own exec, and exec'ing the copy fails with ETXTBSY
 * meanwhile (a fork server's box is the judge's folder). That writer is gone within
 * moments: try again, for up to about a second. */
static void exec_program(char **argv) {
    for (int tries = 0;; tries++) {
        execvp(argv[0], argv);
        if (errno != ETXTBSY || tries >= EXEC_BUSY_TRIES) return;
        struct timespec pause = {0, EXEC_BUSY_PAUSE_NS};
        nanosleep(&pause, NULL);
    }
}

/* --take-stdio N -- PROGRAM ARGS (inside bwrap's sandbox): the run's stdin, stdout and
 * stderr from the socket N, nothing else of what bwrap passed on, the filter, the
 * program. */
static int take_stdio(int sock, char **argv) {
    char text[16];
    int fds[3], with_fds = 0;
    if (receive_case(sock, text, sizeof text, fds, &with_fds) <= 0 || !with_fds) return 125;
    for (int k = 0; k < 3; k++)
        if (dup2(fds[k], k) != k) return 125;
    syscall(SYS_close_range, 3U, ~0U, 0U);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || install_filter(1) != 0) return 125;
    exec_program(argv);
    return 127;
}

/* Without a pid namespace: kill the run's other processes (listed by the pids cgroup,
 * when given) and reap whatever was reparented to us. */
static void reap_leftovers(const char *procs_file) {
    pid_t self = getpid(), parent = getppid();
    for (int round = 0; procs_file && round < 100; round++) {
        FILE *f = fopen(procs_file, "r");
        if (!f) break;
        int pid, others = 0;
        while (fscanf(f, "%d", &pid) == 1)
            if (pid != self && pid != parent) {
                kill(pid, SIGKILL);
                others++;
            }
        fclose(f);
        while (waitpid(-1, NULL, WNOHANG) > 0) {}
        if (!others) break;
        usleep(1000);
    }
    while (waitpid(-1, NULL, procs_file ? 0 : WNOHANG) > 0) {}
}

/* --userns without --ns (bwrap's): the pid namespace's init bwrap left behind dies with
 * it (--die-with-parent) and comes here, its subreaper; reaped (a while at most), its
 * CPU and the program's it reaped count in RUSAGE_CHILDREN. */
static void reap_settling(int ms) {
    for (int waited = 0; waited < ms; waited++) {
        while (waitpid(-1, NULL, WNOHANG) > 0) {}
        if (errno == ECHILD) return;
        usleep(1000);
    }
}

int main(int argc, char **argv) {
    if (argc > 4 && strcmp(argv[1], "--take-stdio") == 0 && strcmp(argv[3], "--") == 0)
        return take_stdio(atoi(argv[2]), argv + 4);
    const char *report = NULL, *box = NULL, *cpu_file = NULL, *procs_file = NULL;
    /* --args-file F: F opened here (by the judge's user) and handed to PROGRAM as fd 3,
     * for a PROGRAM that reads its arguments from an fd (bwrap --args 3): they then never
     * show in a command line the sandboxed program could read */
    const char *args_file = NULL;
    const char *cgroups[MAX_LIST], *hidden[MAX_LIST], *concealed[MAX_LIST], *shown[MAX_LIST];
    const char *keep[MAX_LIST];
    int n_cg = 0, n_hide = 0, n_conceal = 0, n_keep = 0, use_ns = 0, hide_all = 0, serving = 0;
    long long start_us = 10000000;
    int charge_start = 0, use_userns = 0, private_box_only = 0, n_show = 0, handover = -1;
    long uid = -1, gid = -1, nofile = 256;
    unsigned long long stack = 0, fsize = 0, cpu_us = 0, wall_us = 0, nproc = 0, mem_kb = 0;
    unsigned long long tmpfs_size = 0;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) { i++; break; }
        if (strcmp(a, "--ns") == 0) { use_ns = 1; continue; }
        if (strcmp(a, "--userns") == 0) { use_userns = 1; continue; }
        if (strcmp(a, "--hide-all") == 0) { hide_all = 1; continue; }
        if (strcmp(a, "--serve") == 0) { serving = 1; continue; }
        if (strcmp(a, "--charge-start") == 0) { charge_start = 1; continue; }
        if (strcmp(a, "--private-box") == 0) { private_box_only = 1; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "launcher: %s needs a value\n", a); return 122; }
        const char *v = argv[++i];
        if (strcmp(a, "--report") == 0) report = v;
        else if (strcmp(a, "--box") == 0) box = v;
        else if (strcmp(a, "--cpu-us") == 0) cpu_us = strtoull(v, NULL, 10);
        else if (strcmp(a, "--wall-us") == 0) wall_us = strtoull(v, NULL, 10);
        else if (strcmp(a, "--cpu-file") == 0) cpu_file = v;
        else if (strcmp(a, "--procs") == 0) procs_file = v;
        else if (strcmp(a, "--args-file") == 0) args_file = v;
        else if (strcmp(a, "--mem-kb") == 0) mem_kb = strtoull(v, NULL, 10);
        else if (strcmp(a, "--tmpfs-size") == 0) tmpfs_size = strtoull(v, NULL, 10);
        else if (strcmp(a, "--keep") == 0 && n_keep < MAX_LIST) keep[n_keep++] = v;
        else if (strcmp(a, "--stack") == 0) stack = strtoull(v, NULL, 10);
        else if (strcmp(a, "--fsize") == 0) fsize = strtoull(v, NULL, 10);
        else if (strcmp(a, "--nofile") == 0) nofile = strtol(v, NULL, 10);
        else if (strcmp(a, "--nproc") == 0) nproc = strtoull(v, NULL, 10);
        else if (strcmp(a, "--uid") == 0) uid = strtol(v, NULL, 10);
        else if (strcmp(a, "--gid") == 0) gid = strtol(v, NULL, 10);
        else if (strcmp(a, "--cg") == 0 && n_cg < MAX_LIST) cgroups[n_cg++] = v;
        else if (strcmp(a, "--hide") == 0 && n_hide < MAX_LIST) hidden[n_hide++] = v;
        else if (strcmp(a, "--conceal") == 0 && n_conceal < MAX_LIST) concealed[n_conceal++] = v;
        else if (strcmp(a, "--show") == 0 && n_show < MAX_LIST) shown[n_show++] = v;
        else if (strcmp(a, "--start-us") == 0) start_us = strtoll(v, NULL, 10);
        else if (strcmp(a, "--handover") == 0) handover = (int)strtol(v, NULL, 10);
        else { fprintf(stderr, "launcher: unknown option %s\n", a); return 122; }
    }
    if (!report || !box || i >= argc || (serving && !use_ns) || (serving && args_file) ||
        (nproc && !use_userns) || (handover >= 0 && (serving || handover < 4))) {
        fprintf(stderr, "launcher: bad arguments\n");
        return 122;
    }
    char **prog_argv = argv + i;

    /* nothing of the judge but stdin/stdout/stderr (and the serving socket) reaches INIT */
    syscall(SYS_close_range, serving ? 4U : 3U, ~0U, 0U);
    if (serving && fcntl(3, F_SETFD, FD_CLOEXEC) != 0) return 123;
    report_fd = open(report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (report_fd < 0) return 123;
    setsid(); /* fails harmlessly when already a session leader */
    char pid_text[32];
    snprintf(pid_text, sizeof pid_text, "%d\n", (int)getpid());
    for (int k = 0; k < n_cg; k++) write_file(cgroups[k], "cgroup.procs", pid_text);
    /* opened now: the view built below hides /sys/fs/cgroup from INIT as from PROG */
    int cpu_fd = cpu_file ? open(cpu_file, O_RDONLY | O_CLOEXEC) : -1;
    if (cpu_file && cpu_fd < 0) report_error("open the run's CPU file");
    int box_fd = open(box, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (box_fd < 0) report_error("open scratch dir");
    int args_fd = args_file ? open(args_file, O_RDONLY | O_CLOEXEC) : -1;
    int box_rw_fd = -1; /* serving: the box's writable mount (serve.c binds cases from it) */
    int host_box_fd = -1; /* spawned: the run folder's box, for the files the judge keeps */
    if (args_file && args_fd < 0) report_error("open the arguments file");

    if (use_userns && !use_ns) {
        uid_t judge_uid = getuid();
        gid_t judge_gid = getgid();
        if (unshare(CLONE_NEWUSER) != 0) report_error("unshare");
        map_ids(judge_uid, judge_gid);
    }
    if (private_box_only && !use_ns) {
        /* a mount namespace of the run's own, where --box itself is the private tmpfs
         * (bwrap binds it as the program's scratch dir) */
        const char *step = NULL;
        if (unshare(CLONE_NEWNS) != 0) report_error("unshare");
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) report_error("mount private");
        if (private_box(box_fd, box, tmpfs_size ? tmpfs_size : 64ULL << 20, &step) != 0)
            report_error(step);
        host_box_fd = box_fd;
        box_fd = open(box, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (box_fd < 0) report_error("open scratch dir");
    }
    if (use_ns) {
        uid_t judge_uid = getuid();
        gid_t judge_gid = getgid();
        int flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS;
        if (unshare(flags | (use_userns ? CLONE_NEWUSER : 0)) != 0) report_error("unshare");
        if (use_userns) map_ids(judge_uid, judge_gid);
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) report_error("mount private");
        /* the scratch dir again, now as a path of the new mount namespace */
        close(box_fd);
        box_fd = open(box, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (box_fd < 0) report_error("open scratch dir");
        const char *step = NULL;
        if (hide_all) {
            if (tmpfs_size) view_tmpfs_size(tmpfs_size);
            if (build_view(&step) != 0) report_error(step);
            /* the scratch dir appears as /tmp/box inside the private /tmp, so that
             * getcwd() and relative lookups work for the unprivileged program */
            if (mkdir("/tmp/box", 0755) != 0) report_error("mkdir /tmp/box");
            if (!serving) {
                /* spawned: a private tmpfs holding a copy of the staged files */
                if (private_box(box_fd, "/tmp/box", tmpfs_size ? tmpfs_size : 64ULL << 20,
                                &step) != 0)
                    report_error(step);
                host_box_fd = box_fd;
            } else {
                /* a fork server's box is read-only: the program's files stay as staged
                 * for every case (with --userns the program has the judge's uid, which
                 * owns them). A case with staged files gets a private tmpfs over its own
                 * folder of the box for that case alone (serve.c), holding a copy of
                 * what box_rw_fd, the box's writable mount only INIT holds, shows. */
                char src[64];
                snprintf(src, sizeof src, "/proc/self/fd/%d", box_fd);
                if (mount(src, "/tmp/box", NULL, MS_BIND | MS_NOSUID | MS_NODEV, NULL) != 0)
                    report_error("bind scratch dir");
                box_rw_fd = dup(box_fd);
                if (box_rw_fd < 0 || fcntl(box_rw_fd, F_SETFD, FD_CLOEXEC) != 0)
                    report_error("keep scratch dir");
                if (mount(NULL, "/tmp/box", NULL,
                          MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
                    report_error("read-only scratch dir");
                close(box_fd);
            }
            box_fd = open("/tmp/box", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (box_fd < 0) report_error("open /tmp/box");
        }
        for (int k = 0; k < n_hide; k++)
            if (hide(hidden[k], 1) != 0) report_error(hidden[k]);
        int shown_fds[MAX_LIST]; /* opened before any --conceal covers them */
        for (int k = 0; k < n_show; k++)
            shown_fds[k] = open(shown[k], O_PATH | O_NOFOLLOW | O_CLOEXEC);
        for (int k = 0; k < n_conceal; k++)
            if (conceal_showing(concealed[k], shown, shown_fds, n_show) != 0)
                report_error(concealed[k]);
        for (int k = 0; k < n_show; k++)
            if (shown_fds[k] >= 0) close(shown_fds[k]);
        if (hide_all && finish_view(&step) != 0) report_error(step);
    }

    pid_t init = fork();
    if (init < 0) report_error("fork");
    if (init > 0) { /* the launcher: wait for INIT, mirror its status */
        let_go_of_stdio();
        int status;
        while (waitpid(init, &status, 0) < 0 && errno == EINTR) {}
        return WIFEXITED(status) ? WEXITSTATUS(status) : 124;
    }

    /* INIT: without a pid namespace, what PROG leaves behind is reparented here (not to
     * the host's init, which may reap late: a zombie still counts in the pids cgroup) */
    if (!use_ns) prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (use_ns) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        /* with --userns INIT has the program's uid: not dumpable, its /proc entry is
         * neither listed to nor traceable by the program (it holds capabilities too) */
        if (use_userns) prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        if (mount_proc() != 0) report_error("mount /proc");
    }
    int pipefd[2], pair[2] = {-1, -1};
    if (pipe2(pipefd, O_CLOEXEC) != 0) report_error("pipe");
    if ((serving || handover >= 0) &&
        socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
        report_error("socketpair");
    int self_fd = handover >= 0 ? open("/proc/self/exe", O_RDONLY | O_CLOEXEC) : -1;
    if (handover >= 0 && self_fd < 0) report_error("open the launcher");
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL); /* before the fork: no SIGCHLD can be missed */
    pid_t prog = fork();
    if (prog < 0) report_error("fork");
    if (prog == 0) { /* PROG */
        close(pipefd[0]);
        child_pipe = pipefd[1];
        if (serving && dup2(pair[1], 3) != 3) child_fail(1);
        if (args_fd >= 0 && dup2(args_fd, 3) != 3) child_fail(1); /* dup2 clears CLOEXEC */
        if (fchdir(box_fd) != 0) child_fail(2);
        if (handover >= 0) hand_over(pair[1], self_fd, handover); /* box_fd is done with */
        if (set_rlimits(stack, fsize, (unsigned long long)nofile) != 0) child_fail(1);
        if (nproc) set_limit(RLIMIT_NPROC, nproc, nproc);
        if (gid >= 0 && (setgroups(0, NULL) != 0 || setgid((gid_t)gid) != 0)) child_fail(3);
        if (uid >= 0 && setuid((uid_t)uid) != 0) child_fail(4);
        /* --userns: the capabilities PROG still holds in the user namespace end at
         * execve (a non-zero uid); none can come back, not even through the bounding set */
        for (int cap = 0; use_userns && cap <= 63; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        if (install_filter(handover < 0) != 0) child_fail(5);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        exec_program(prog_argv);
        child_fail(0);
    }
    close(pipefd[1]);
    if (handover >= 0) {
        int stdio[3] = {0, 1, 2};
        if (send_case(pair[0], "stdio", stdio) != 0) report_error("hand over stdio");
        close(pair[0]);
        close(pair[1]);
        close(self_fd);
    }
    let_go_of_stdio();
    int failed[2] = {0, 0};
    int start_failed = read(pipefd[0], failed, sizeof failed) == (ssize_t)sizeof failed;
    if (serving) {
        close(pair[1]);
        if (start_failed) {
            dprintf(report_fd, "error cannot start %s (%s): %s\n", prog_argv[0], steps[failed[0]],
                    strerror(failed[1]));
            return 0;
        }
        struct serve_setup setup = {
            .cpu_fd = -1, .start_us = start_us, .n_writable = 0,
            .mqueue_fd = -1, .uid = uid, .gid = gid, .charge_start = charge_start,
            .start_cpu_budget_us = charge_start ? (long long)cpu_us : 0};
        setup.cpu_fd = cpu_fd;
        setup.mem_kb = (long long)mem_kb;
        setup.tmpfs_size = tmpfs_size ? tmpfs_size : 64ULL << 20;
        setup.box_fd = box_rw_fd;
        if (hide_all) setup.writable[setup.n_writable++] = "/tmp";
        for (int k = 0; k < n_hide; k++) setup.writable[setup.n_writable++] = hidden[k];
        return serve(3, pair[0], prog, &setup);
    }
    struct outcome out;
    struct rusage ru;
    memset(&out, 0, sizeof out);
    memset(&ru, 0, sizeof ru);
    /* what the run's private tmpfs mounts hold is its memory (no cgroup charges it) */
    int tmpfs_fds[MAX_LIST + 2], n_tmpfs = 0;
    for (int k = -1; hide_all && k < n_hide; k++) {
        int fd = open(k < 0 ? "/tmp" : hidden[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) tmpfs_fds[n_tmpfs++] = fd;
    }
    if (host_box_fd >= 0) tmpfs_fds[n_tmpfs++] = box_fd; /* the private scratch dir */
    /* every process of the run: the cgroup's (bwrap hides the program from its clock),
     * else the pid namespace's, or those below INIT */
    struct watch_spec limits = {
        .cpu_us = cpu_us ? (long long)cpu_us : -1, .wall_us = (long long)wall_us,
        .start = now_us(), .cpu_fd = cpu_fd,
        .mem_kb = (long long)mem_kb, .whole_ns = use_ns ? WATCH_NS : WATCH_TREE,
        .tmpfs_fds = tmpfs_fds, .n_tmpfs = n_tmpfs};
    long long start = limits.start;
    watch(prog, &limits, &out, &ru);
    out.wall_us = now_us() - start;
    /* everything PROG started is over before the report, and counted in it: INIT reaps
     * what was left (its adoptive parent), so RUSAGE_CHILDREN holds the CPU of all of
     * them and the largest peak */
    if (use_ns) {
        kill(-1, SIGKILL); /* pid 1 of the namespace: every other process in it */
        while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {}
    } else {
        reap_leftovers(procs_file);
        if (use_userns) reap_settling(SETTLE_MS);
    }
    /* the files the judge reads back, from the private scratch dir (nothing runs there now) */
    if (host_box_fd >= 0) keep_files(box_fd, host_box_fd, keep, n_keep, fsize ? fsize : ~0ULL);
    struct rusage all;
    if (getrusage(RUSAGE_CHILDREN, &all) != 0) all = ru;
    out.cpu_us = rusage_cpu_us(&all);
    out.maxrss_kb = all.ru_maxrss > out.mem_peak_kb ? all.ru_maxrss : (long)out.mem_peak_kb;
    char error[512], line[1024];
    if (start_failed)
        snprintf(error, sizeof error, "cannot start %s (%s): %s", prog_argv[0], steps[failed[0]],
                 strerror(failed[1]));
    format_report(line, sizeof line, &out, start_failed ? error : NULL);
    dprintf(report_fd, "%s\n", line);
    return 0;
}
