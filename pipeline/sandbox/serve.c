/* The launcher's fork-server mode (--serve): INIT's side. See forkserver.c for the
 * server inside the sandbox and forkserver.py for the judge.
 *
 * judge -> INIT  "DIR CPU_US WALL_US FSIZE STACK NOFILE [NAME/NAME...]" with
 *                stdin/stdout/stderr fds; DIR "-" asks INIT for a fresh empty scratch dir
 *                in the private /tmp; the NAMEs are copied back from a staged DIR
 * INIT -> judge  "ready", then per case one report line of key value pairs
 *
 * INIT asks the server for a child, checks that the pid it names is INIT's own child
 * (cloned with CLONE_PARENT), then waits for it exactly as for a spawned program: wait4
 * gives the CPU time and peak RSS, the watchdog kills at the CPU or wall limit. Then it
 * kills every other process of the namespace but the server, reads the server's state
 * (server_state: no message to it), empties the private writable directories and
 * removes System V and POSIX IPC objects, so the next case starts from the server's
 * state alone, and reports.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "box.h"
#include "fdpass.h"
#include "run.h"
#include "serve.h"

static void tell(int judge, const char *text) {
    if (send(judge, text, strlen(text), MSG_NOSIGNAL) < 0) _exit(0);
}

/* Waits up to `ms` for a message from the server; 0 when it did not answer. */
static ssize_t answer(int server, char *buf, size_t size, int ms) {
    struct pollfd p = {server, POLLIN, 0};
    int got;
    do got = poll(&p, 1, ms);
    while (got < 0 && errno == EINTR);
    if (got <= 0) return 0;
    ssize_t n = recv(server, buf, size - 1, 0);
    if (n <= 0) return 0;
    buf[n] = 0;
    return n;
}

/* What the processes a case left behind used (reaped by INIT, their adoptive parent). */
struct others {
    long long cpu_us;
    long maxrss_kb;
};

/* Reaps whatever has ended, adding what it used to `used`; notes when that was the
 * server. */
static void reap(pid_t server, int *server_lost, struct others *used) {
    pid_t pid;
    struct rusage ru;
    while ((pid = wait4(-1, NULL, WNOHANG, &ru)) > 0) {
        if (pid == server) {
            *server_lost = 1;
            continue;
        }
        used->cpu_us += rusage_cpu_us(&ru);
        if (ru.ru_maxrss > used->maxrss_kb) used->maxrss_kb = ru.ru_maxrss;
    }
}

/* Reads the /proc file `path` (in one read: the files read here are short) into `text`,
 * 0-terminated; returns its length, or 0 when it is gone or empty. */
static ssize_t read_proc(const char *path, char *text, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, text, size - 1);
    close(fd);
    if (n <= 0) return 0;
    text[n] = 0;
    return n;
}

/* Whether the server is still there for the next case, read from /proc without waking
 * it: 1 when it is asleep (in its wait for the next request: it blocks every signal
 * while it serves, so nothing else can run in it) with one thread, no SIGKILL pending
 * and not exiting; 0 when it is stopped, dead, exiting or has SIGKILL pending; -1 when
 * its state cannot tell (running: still on its way back to the wait, or dying). Called
 * when no process of the case is left to signal it. */
#define PF_EXITING_FLAG 0x4
/* The fields of /proc/PID/stat after the command name: state (3, into *state), then 4
 * to 31 into `field`: flags (9) ... num_threads (20) ... signal (31, the pending signals
 * of the thread). 0 when the process is gone, -1 when its line cannot be read. */
static int server_stat(pid_t server_pid, char *state, unsigned long long field[32]) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)server_pid);
    if (read_proc(path, text, sizeof text) <= 0) return 0;
    const char *at = strrchr(text, ')'); /* the command name may hold anything */
    if (!at || at[1] != ' ') return -1;
    *state = at[2];
    const char *p = at + 3;
    for (int k = 4; k <= 31 && *p; k++) {
        char *end;
        field[k] = strtoull(p, &end, 10);
        if (end == p) return -1;
        p = end;
    }
    return 1;
}

static int server_state(pid_t server_pid) {
    char state = 0;
    unsigned long long field[32] = {0};
    int read = server_stat(server_pid, &state, field);
    if (read <= 0) return read;
    if (state == 'T' || state == 't' || state == 'Z' || state == 'X' || state == 'x') return 0;
    if ((field[9] & PF_EXITING_FLAG) || (field[31] & (1ULL << (SIGKILL - 1)))) return 0;
    return state == 'S' && field[20] == 1 ? 1 : -1;
}

/* INIT's one child besides the server (alive or not yet reaped), or 0 when it has none
 * or several. */
static pid_t other_child(pid_t server_pid) {
    char path[64], text[256];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    if (read_proc(path, text, sizeof text) <= 0) return 0;
    pid_t found = 0;
    for (char *p = text, *end;; p = end) {
        long pid = strtol(p, &end, 10);
        if (end == p) break;
        if (pid == server_pid) continue;
        if (found) return 0;
        found = (pid_t)pid;
    }
    return found;
}

/* The server's answer naming the case's child, waited for at most `us` in slices; 0 when
 * there is none, as soon as the server is dead or stopped without answering (the child
 * may run first and do that: stop_server.c; a server gone closes the socket, and its
 * state says so too). First INIT sleeps until one of its children changes state (the
 * case's child ends, most often, or the server dies or stops) or NAME_FIRST_US has
 * passed, and only then reads the answer, there by then: a wait on the socket itself
 * woke INIT for the answer while the child ran, a switch more per case (two on one
 * core). Short, so that a longer case's watch (its CPU counted from there where a
 * cgroup counts it) starts at most that late. */
#define NAME_POLL_MS 10
#define NAME_FIRST_US 1000
static ssize_t named(int server, pid_t server_pid, char *buf, size_t size, long long us) {
    long long deadline = now_us() + us;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    long long first = us < NAME_FIRST_US ? us : NAME_FIRST_US;
    struct timespec slice = {(time_t)(first / 1000000), (long)(first % 1000000) * 1000};
    sigtimedwait(&chld, NULL, &slice);
    for (;;) {
        ssize_t n = recv(server, buf, size - 1, MSG_DONTWAIT);
        if (n > 0) {
            buf[n] = 0;
            return n;
        }
        if (n == 0) return 0; /* the server is gone */
        long long left_ms = (deadline - now_us()) / 1000;
        n = answer(server, buf, size, (int)(left_ms < 0 ? 0 : left_ms < NAME_POLL_MS ? left_ms : NAME_POLL_MS));
        if (n > 0) return n;
        if (left_ms <= 0 || server_state(server_pid) == 0) return 0;
    }
}

/* Kills every process of the namespace but INIT and the server, until none is left,
 * each one reaped and what it used counted: one that frees much memory may take long to
 * die on a loaded machine, and the report waits for it (a bound on rounds gave up
 * under load: the case was reported without a grandchild's CPU, which lived on into
 * the next case). Returns 0, or -1 when some are still there after OTHERS_GONE_MS. */
#define OTHERS_GONE_MS 10000
static int kill_others(pid_t server, int *server_lost, struct others *used) {
    long long deadline = now_us() + OTHERS_GONE_MS * 1000LL;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    for (;;) {
        DIR *proc = proc_pids();
        if (!proc) return -1;
        int others = 0;
        struct dirent *e;
        while ((e = readdir(proc)) != NULL) {
            char *end;
            long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 1 || pid == server) continue;
            kill((pid_t)pid, SIGKILL);
            others++;
        }
        reap(server, server_lost, used);
        if (!others) return 0;
        if (now_us() > deadline) return -1;
        /* until one of INIT's children ends (SIGCHLD is blocked in INIT) or 1 ms has
         * passed: the others become its children as their parents die */
        struct timespec wait = {0, 1000000};
        sigtimedwait(&chld, NULL, &wait);
    }
}

/* What stays in the private /tmp between cases: the scratch dir the launcher bound
 * there, and the mount point of the IPC namespace's POSIX message queues. */
#define MQUEUE_DIR ".gridjudge-mqueue"
static const char *kept_in_tmp[] = {"box", MQUEUE_DIR, NULL};
/* and the fresh scratch dir while it is kept for the next case (fresh_dir_kept) */
static const char *kept_in_tmp_and_case[] = {"box", MQUEUE_DIR, "case", NULL};

static int kept(const char *name, const char **keep) {
    for (int i = 0; keep && keep[i]; i++)
        if (!strcmp(name, keep[i])) return 1;
    return 0;
}

/* One level of empty_dir's walk: where it came from, to go back. */
struct level {
    char name[256];      /* the directory's name in its parent */
    long resume;         /* the parent's listing position after that name */
    dev_t dev;           /* the parent's identity, checked on the way up */
    ino_t ino;
};

/* Empties directory `dir` (and closes it) but for the names in `keep`: one loop, one
 * open directory at a time (down by openat, up by openat ".."), so that neither depth
 * nor the fd limit stops it. Returns the number of entries it could not remove. */
static long empty_dir(int dir, const char **keep) {
    struct level *path = NULL;
    size_t depth = 0, room = 0;
    long resume = 0, stuck = 0;
    int fd = dir;
    while (fd >= 0) {
        int listing = dup(fd);
        DIR *d = listing >= 0 ? fdopendir(listing) : NULL;
        if (!d) {
            if (listing >= 0) close(listing);
            stuck++;
            break;
        }
        if (resume) seekdir(d, resume);
        int sub = -1;
        struct dirent *e;
        while (sub < 0 && (e = readdir(d)) != NULL) {
            const char *name = e->d_name;
            if (!strcmp(name, ".") || !strcmp(name, "..") || (!depth && kept(name, keep)))
                continue;
            if (unlinkat(fd, name, 0) == 0 || unlinkat(fd, name, AT_REMOVEDIR) == 0) continue;
            struct stat st;
            if (fstat(fd, &st) != 0 || strlen(name) >= sizeof path->name) { stuck++; continue; }
            sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) { stuck++; continue; }
            if (depth == room) {
                room = room ? 2 * room : 64;
                struct level *grown = realloc(path, room * sizeof *path);
                if (!grown) { close(sub); sub = -1; stuck++; break; }
                path = grown;
            }
            strcpy(path[depth].name, name);
            path[depth].resume = telldir(d);
            path[depth].dev = st.st_dev;
            path[depth].ino = st.st_ino;
            depth++;
        }
        closedir(d);
        resume = 0;
        if (sub >= 0) {
            close(fd);
            fd = sub;
            continue;
        }
        if (!depth) break;
        int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = up;
        struct stat st;
        depth--;
        if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != path[depth].dev ||
            st.st_ino != path[depth].ino) { /* moved while we were below: stop */
            stuck++;
            break;
        }
        if (unlinkat(fd, path[depth].name, AT_REMOVEDIR) != 0) stuck++;
        resume = path[depth].resume;
    }
    if (fd >= 0) close(fd);
    free(path);
    return stuck;
}

/* Removes every System V object listed in /proc/sysvipc/WHAT (its id is the second
 * column): they outlive the processes that made them in the server's IPC namespace. */
static void remove_listed(const char *what, int (*remove)(int)) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/sysvipc/%s", what);
    FILE *f = fopen(path, "re");
    if (!f) return;
    if (fgets(line, sizeof line, f)) { /* the header */
        long key, id;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%ld %ld", &key, &id) == 2) remove((int)id);
    }
    fclose(f);
}

static int remove_shm(int id) { return shmctl(id, IPC_RMID, NULL); }
static int remove_msg(int id) { return msgctl(id, IPC_RMID, NULL); }
static int remove_sem(int id) { return semctl(id, 0, IPC_RMID); }

/* System V shared memory, message queues and semaphores a case made: gone before the
 * next case (three cheap counts first; the lists are read only when one is not 0). */
static void remove_ipc(void) {
    struct shm_info shm;
    struct msginfo msg;
    struct seminfo sem;
    if (shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&shm) >= 0 && shm.used_ids > 0)
        remove_listed("shm", remove_shm);
    if (msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&msg) >= 0 && msg.msgpool > 0)
        remove_listed("msg", remove_msg);
    if (semctl(0, 0, SEM_INFO, &sem) >= 0 && sem.semusz > 0) remove_listed("sem", remove_sem);
}

/* POSIX message queues live in the IPC namespace, not in a directory the cases can
 * empty: init mounts the namespace's queues (mode 0700, its own) and empties them after
 * each case. Returns the mount's fd, or -1 where there is none. */
static int mount_mqueues(void) {
    const char *at = "/tmp/" MQUEUE_DIR;
    if (mkdir(at, 0700) != 0 && errno != EEXIST) return -1;
    if (mount("mqueue", at, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
        rmdir(at);
        return -1;
    }
    return open(at, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* `empty_size`: the queues' folder's size when it holds none (the mqueue filesystem
 * adds to a folder's size for each queue): a look at it spares the listing */
static void remove_mqueues(int mqueues, long long empty_size) {
    struct stat st;
    if (mqueues < 0 || (fstat(mqueues, &st) == 0 && st.st_size == empty_size)) return;
    empty_dir(openat(mqueues, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), NULL);
}

/* tmpfs gives a directory a size of 20 per entry, "." and ".." included */
#define TMPFS_EMPTY_DIR_SIZE 40

/* `case_kept`: the fresh scratch dir stays in /tmp (it is empty: fresh_dir_kept) */
static void wipe(const struct serve_setup *s, int case_kept) {
    for (int k = 0; k < s->n_writable; k++) {
        int is_tmp = strcmp(s->writable[k], "/tmp") == 0;
        struct stat st;
        int held = s->writable_fd[k];
        if (held < 0 || fstat(held, &st) != 0) continue;
        long long kept = is_tmp ? 40 + (case_kept ? 20 : 0) : 0;
        if (st.st_size == TMPFS_EMPTY_DIR_SIZE + kept) continue; /* nothing new */
        /* a listing position may shift on a filesystem without stable ones: again */
        for (int pass = 0; pass < 3; pass++) {
            int dir = openat(held, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            const char **keep = case_kept ? kept_in_tmp_and_case : kept_in_tmp;
            if (dir < 0 || empty_dir(dir, is_tmp ? keep : NULL) == 0) break;
        }
    }
}

#define FRESH_DIR "/tmp/case"
#define BOX_DIR "/tmp/box/"

/* The fresh scratch dir as made: kept from one case to the next while no case changed
 * anything of it (fd -1: none kept, the next case gets one made anew) */
static struct {
    int fd;
    struct stat made;
    long flags;   /* inode_flags */
    long xattrs;  /* xattr_list_size (ACLs are extended attributes too) */
} fresh = {.fd = -1};

/* The inode flags of `fd` (chattr), or -errno where the filesystem has none */
static long inode_flags(int fd) {
    int flags = 0;
    return ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 ? (long)(unsigned)flags : -(long)errno;
}

/* The size of `fd`'s list of extended attributes, or -errno where it has none */
static long xattr_list_size(int fd) {
    ssize_t n = flistxattr(fd, NULL, 0);
    return n >= 0 ? (long)n : -(long)errno;
}

/* Whether FRESH_DIR is still the dir made, empty, with every attribute a case could set
 * as it was made (its mode, owner, times, inode flags, extended attributes; a new or
 * renamed dir in its place has another inode number: tmpfs does not reuse them). If
 * not, it is dropped (removed here when empty, else by wipe). Called after each case,
 * whether it was the one using it or not. */
static int fresh_dir_kept(void) {
    if (fresh.fd < 0) return 0;
    struct stat now;
    const struct stat *was = &fresh.made;
    int same = fstatat(AT_FDCWD, FRESH_DIR, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
               now.st_dev == was->st_dev && now.st_ino == was->st_ino &&
               now.st_mode == was->st_mode && now.st_uid == was->st_uid &&
               now.st_gid == was->st_gid && now.st_nlink == was->st_nlink &&
               now.st_size == was->st_size &&
               !memcmp(&now.st_atim, &was->st_atim, sizeof now.st_atim) &&
               !memcmp(&now.st_mtim, &was->st_mtim, sizeof now.st_mtim) &&
               !memcmp(&now.st_ctim, &was->st_ctim, sizeof now.st_ctim) &&
               inode_flags(fresh.fd) == fresh.flags && xattr_list_size(fresh.fd) == fresh.xattrs;
    if (same) return 1;
    close(fresh.fd);
    fresh.fd = -1;
    rmdir(FRESH_DIR);
    return 0;
}

/* FRESH_DIR made (0700, the cases' own), and what it is like noted for fresh_dir_kept */
static int make_fresh_dir(const struct serve_setup *s) {
    if (mkdir(FRESH_DIR, 0700) != 0) return -1;
    if (s->uid >= 0 && chown(FRESH_DIR, (uid_t)s->uid, (gid_t)s->gid) != 0) return -1;
    int fd = open(FRESH_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, &fresh.made) != 0) {
        close(fd);
        return -1;
    }
    fresh.flags = inode_flags(fd);
    fresh.xattrs = xattr_list_size(fd);
    fresh.fd = fd;
    return 0;
}

/* The case's scratch dir: FRESH_DIR, made anew unless the last one is still as made
 * (fresh_dir_kept), or the one the judge staged, a folder of the read-only box: a
 * private tmpfs mounted over it for this case, holding a copy of what the judge staged
 * there (*staged: the judge's folder, open, for the files copied back after the case;
 * then the tmpfs is unmounted). The judge's folder is reached through the box's writable
 * mount, which only INIT holds: the server and the cases never get a path to it. */
static const char *scratch_dir(const char *asked, const struct serve_setup *s, int *staged) {
    *staged = -1;
    if (strcmp(asked, "-") != 0) {
        const char *name = asked + strlen(BOX_DIR), *step;
        if (strncmp(asked, BOX_DIR, strlen(BOX_DIR)) != 0 || !*name || strchr(name, '/') ||
            !strcmp(name, ".") || !strcmp(name, "..") || s->box_fd < 0)
            return NULL;
        int dir = openat(s->box_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dir < 0) return NULL;
        if (private_box(dir, asked, s->tmpfs_size, &step) != 0) {
            umount2(asked, MNT_DETACH);
            close(dir);
            return NULL;
        }
        *staged = dir;
        return asked;
    }
    if (fresh.fd < 0 && make_fresh_dir(s) != 0) return NULL;
    return FRESH_DIR;
}

/* One case; returns 0 when the server is still there for the next one. */
static int one_case(int judge, int server, pid_t server_pid, struct serve_setup *s,
                    const char *request, int fds[3]) {
    char dir[256], forward[512], reply[32], report[256];
    long long cpu_us, wall_us, fsize, stack, nofile;
    int parsed = 0;
    if (sscanf(request, "%255s %lld %lld %lld %lld %lld%n", dir, &cpu_us, &wall_us, &fsize, &stack,
               &nofile, &parsed) != 6) {
        tell(judge, "error bad request");
        return -1;
    }
    /* the files the judge reads back from a staged scratch dir */
    char names[256];
    const char *keep[32];
    int n_keep = 0;
    snprintf(names, sizeof names, "%s", request[parsed] == ' ' ? request + parsed + 1 : "");
    for (char *at = names, *next; *at && n_keep < 32; at = next) {
        next = strchr(at, '/');
        if (next) *next++ = 0;
        else next = at + strlen(at);
        if (*at) keep[n_keep++] = at;
    }
    int staged;
    const char *where = scratch_dir(dir, s, &staged);
    if (!where) {
        for (int k = 0; k < 3; k++) close(fds[k]);
        tell(judge, "error cannot make the case's scratch dir");
        return -1;
    }
    snprintf(forward, sizeof forward, "%s %lld %lld %lld", where, fsize, stack, nofile);
    long long start = now_us();
    /* the server's CPU from receiving the case to naming its child is the case's */
    long long server_before = process_cpu_us(server_pid);
    int sent = send_case(server, forward, fds);
    for (int k = 0; k < 3; k++) close(fds[k]);
    pid_t pid = 0;
    int lost = 0;
    if (sent == 0 && named(server, server_pid, reply, sizeof reply, wall_us > 0 ? wall_us : 1000000)) {
        pid = (pid_t)strtol(reply, NULL, 10);
    } else if (sent == 0 && server_state(server_pid) == 0 && (pid = other_child(server_pid)) > 0) {
        /* the server cloned the case's child and was dead or stopped before it named it:
         * the child, run first, did that (kill_server.c on a loaded machine). The case is
         * judged as when the server answered first, and the server is lost. */
        lost = 1;
    } else {
        tell(judge, "lost 1 error the fork server did not answer");
        return -1;
    }
    long long server_after = process_cpu_us(server_pid);
    long long charged = 0;
    if (server_before >= 0 && server_after > server_before) charged = server_after - server_before;
    siginfo_t info;
    if (pid <= 1 || pid == server_pid ||
        waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
        tell(judge, "lost 1 error the fork server named no child of the sandbox");
        return -1;
    }
    struct outcome out;
    struct rusage ru;
    memset(&out, 0, sizeof out);
    memset(&ru, 0, sizeof ru);
    /* the budget: a spawned run pays its start-up in every run, so every case pays the
     * server's (no pre-main work is shared out free among cases) */
    /* the private folders, and a staged case's own tmpfs, hold the case's memory too */
    int tmpfs_fds[SERVE_MAX_WRITABLE + 1], n_tmpfs = s->n_writable;
    memcpy(tmpfs_fds, s->writable_fd, sizeof(int) * (size_t)n_tmpfs);
    int case_fd = staged >= 0 ? open(where, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (case_fd >= 0) tmpfs_fds[n_tmpfs++] = case_fd;
    struct watch_spec limits = {
        .cpu_us = cpu_us - s->start_cpu_us - charged, .wall_us = wall_us,
        .start = start, .cpu_fd = s->cpu_fd, .mem_kb = s->mem_kb, .whole_ns = WATCH_NS,
        .spared = server_pid, .tmpfs_fds = tmpfs_fds, .n_tmpfs = n_tmpfs};
    watch(pid, &limits, &out, &ru);
    out.wall_us = now_us() - start;
    /* every case: what it left is counted (a pids count equal to the idle one proved
     * nothing under load: a grandchild went unmeasured) */
    struct others left = {0, 0};
    /* the watchdog's last sample (without a memory cgroup) listed the namespace after
     * the child was reaped: where it found no process, not even one ended and not yet
     * reaped, none is left to kill (the server, back in its wait for the next request,
     * starts none), and a second listing is spared; the server is still reaped if it
     * died */
    if (out.others_seen == 0)
        reap(server_pid, &lost, &left);
    else if (kill_others(server_pid, &lost, &left) != 0) {
        tell(judge, "lost 1 error processes of the case outlived it");
        return -1;
    }
    if (!lost) {
        /* a server killed by the case may not have exited yet: its state says so, and
         * where it cannot (still running, or in another state), only an answer proves it
         * is there (a stopped one gets the wall limit to answer) */
        int state = server_state(server_pid);
        char pong[8];
        if (state < 0)
            lost = send(server, "ping", 4, MSG_NOSIGNAL) != 4 ||
                   !answer(server, pong, sizeof pong, (int)(wall_us > 0 ? wall_us / 1000 : 1000)) ||
                   strcmp(pong, "pong") != 0;
        else
            lost = !state;
    }
    /* the staged folder: what the case left there copied back for the judge (no process
     * of the case is left to change it), then its tmpfs gone */
    if (staged >= 0) {
        if (case_fd >= 0) keep_files(case_fd, staged, keep, n_keep, (unsigned long long)fsize);
        close(staged);
        if (case_fd >= 0) close(case_fd);
        if (umount2(where, MNT_DETACH) != 0) {
            tell(judge, "error cannot unmount the case's scratch dir");
            return -1;
        }
    }
    /* what the case left in the private folders and the IPC namespace (no process of
     * the case is left to add to it). The fresh scratch dir, mostly left as made, stays
     * for the next case, and then the look at /tmp's size (wipe) spares its listing. */
    wipe(s, fresh_dir_kept());
    remove_ipc();
    remove_mqueues(s->mqueue_fd, s->mqueue_empty_size);
    /* the case's own CPU; the start-up, one measurement made once per server, goes
     * beside it: added to each case's time, its noise would be a constant offset
     * between two servers' timings (issue 22) */
    out.cpu_us = rusage_cpu_us(&ru) + charged + left.cpu_us;
    out.start_cpu_us = s->start_cpu_us;
    out.maxrss_kb = ru.ru_maxrss > left.maxrss_kb ? ru.ru_maxrss : left.maxrss_kb;
    if (out.mem_peak_kb > out.maxrss_kb) out.maxrss_kb = (long)out.mem_peak_kb;
    out.lost = lost;
    format_report(report, sizeof report, &out, NULL);
    /* the report last: INIT sleeps at once in its wait for the next request, so the
     * judge it woke takes its core (work after the report, overlapped with the judge,
     * was faster on an idle machine and much slower on a loaded one) */
    tell(judge, report);
    return lost ? -1 : 0;
}

/* Whether `text` is "ready", or "ready US" (the zygote's own start-up, kept in *told;
 * else *told is -1). */
static int ready_text(const char *text, long long *told) {
    *told = -1;
    if (strcmp(text, "ready") == 0) return 1;
    char end = 0;
    long long us = -1;
    if (sscanf(text, "ready %lld%c", &us, &end) != 1 || us < 0) return 0;
    *told = us;
    return 1;
}

/* Waits for the server's "ready", judged on the server's own clock, not the wall's (a
 * loaded or emulated machine stretches the wall, not the work). Gives up when
 * the server's CPU passes its start budget (with a CPU limit charged, every case would
 * be over it: -1), or when it has used no CPU for start_us (stuck: 0). Returns 1 when
 * ready, the start-up the server told in *told (-1: none). */
#define START_POLL_MS 100
static int wait_ready(int server, pid_t server_pid, const struct serve_setup *s, long long *told) {
    char buf[64];
    long long budget_us = s->start_cpu_budget_us > 0 ? s->start_cpu_budget_us : s->start_us;
    long long last_used = -1, moved_at = now_us();
    for (;;) {
        long long used = process_cpu_us(server_pid);
        long long now = now_us();
        if (used > last_used) {
            last_used = used;
            moved_at = now;
        }
        long long cpu_left_us = budget_us - (used < 0 ? 0 : used);
        if (cpu_left_us <= 0) return s->start_cpu_budget_us > 0 ? -1 : 0;
        long long still_us = moved_at + s->start_us - now;
        if (still_us <= 0) return 0;
        /* poll's ms, rounded up; CPU time <= wall time */
        long long slice = START_POLL_MS, cpu_left_ms = (cpu_left_us + 999) / 1000;
        if (cpu_left_ms + 2 < slice) slice = cpu_left_ms + 2;
        if ((still_us + 999) / 1000 < slice) slice = (still_us + 999) / 1000;
        struct pollfd p = {server, POLLIN, 0};
        int got = poll(&p, 1, (int)slice);
        if (got < 0 && errno != EINTR) return 0;
        if (got > 0) return answer(server, buf, sizeof buf, 0) && ready_text(buf, told);
    }
}

int serve(int judge, int server, pid_t server_pid, struct serve_setup *s) {
    char buf[64];
    long long told = -1;
    int ready = wait_ready(server, server_pid, s, &told);
    if (ready != 1) {
        kill(server_pid, SIGKILL);
        int status = 0;
        waitpid(server_pid, &status, 0);
        snprintf(buf, sizeof buf, "unsupported %d%s", status, ready < 0 ? " cpu" : "");
        tell(judge, buf);
        return 0;
    }
    /* a server with a thread besides the one serving (started by the program before
     * main) is refused: that thread would see each case's files as the server receives
     * them and write what it learnt into the memory the next cases are forked from, and
     * its CPU would be no case's (thread_in_server.c); one whose count cannot be read
     * is refused too */
    char state = 0;
    unsigned long long field[32] = {0};
    if (server_stat(server_pid, &state, field) <= 0 || field[20] != 1) {
        kill(server_pid, SIGKILL);
        waitpid(server_pid, NULL, 0);
        tell(judge, "unsupported 0 threads");
        return 0;
    }
    /* what the server burned before "ready" is the program's: in every case's budget;
     * a zygote tells the part that was its interpreter's own start-up (what a spawned
     * run pays too), never more than its clock says */
    if (s->charge_start || told >= 0) {
        /* its own clock (exec, loader, constructors: as a spawned program's is) */
        long long before_ready = process_cpu_us(server_pid);
        if (before_ready < 0) before_ready = cgroup_cpu_us(s->cpu_fd);
        s->start_cpu_us = s->charge_start || told > before_ready ? before_ready : told;
        if (s->start_cpu_us < 0) s->start_cpu_us = 0;
    }
    s->mqueue_fd = mount_mqueues();
    struct stat mq;
    s->mqueue_empty_size = s->mqueue_fd >= 0 && fstat(s->mqueue_fd, &mq) == 0 ? mq.st_size : -1;
    for (int k = 0; k < s->n_writable; k++)
        s->writable_fd[k] = open(s->writable[k], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    tell(judge, "ready");
    for (;;) {
        char request[512];
        int fds[3];
        int with_fds = 0;
        ssize_t n = receive_case(judge, request, sizeof request, fds, &with_fds);
        if (n <= 0 || !with_fds) break;
        if (one_case(judge, server, server_pid, s, request, fds) != 0) break;
    }
    kill(server_pid, SIGKILL);
    return 0; /* leaving pid 1 kills what is left in the namespace */
}
