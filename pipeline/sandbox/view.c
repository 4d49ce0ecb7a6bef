/* The sandbox's filesystem view (view.h), built by the launcher
 * in its new mount namespace before INIT is forked, so a spawned program and a fork
 * server's cases see the same thing.
 *
 * Nothing writable outlives a run: the system folders are bound read-only onto
 * themselves with every mount below them (mount_setattr AT_RECURSIVE; /proc/self/
 * mountinfo where the kernel lacks it), so world-writable host folders (/var's session
 * folders) cannot be written; every other top-level folder is an empty read-only tmpfs
 * but /tmp, a private writable one. /dev is a small tmpfs with null, zero, full, random,
 * urandom (no fuse, no tun), and /sys/fs/cgroup is hidden (the system-call filter is
 * seccomp.c's).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "view.h"

static const char *shown[] = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr",
                              "etc", "sys", "var", "opt", NULL};

static int is_shown(const char *name) {
    for (int i = 0; shown[i]; i++)
        if (strcmp(name, shown[i]) == 0) return 1;
    return 0;
}

/* the private writable folders' size (view_tmpfs_size) */
static char writable_opts[64] = "size=64m,mode=1777";

void view_tmpfs_size(unsigned long long bytes) {
    snprintf(writable_opts, sizeof writable_opts, "size=%llu,mode=1777", bytes);
}

int hide(const char *dir, int writable) {
    const char *opts = writable ? writable_opts : "size=16k,mode=0755";
    unsigned long flags = MS_NOSUID | MS_NODEV | (writable ? 0 : MS_RDONLY);
    if (mount("tmpfs", dir, "tmpfs", flags, opts) != 0 && errno != ENOENT && errno != ENOTDIR)
        return -1;
    return 0;
}

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV 0x00000004
#endif

struct view_mount_attr { /* struct mount_attr (linux/mount.h clashes with sys/mount.h) */
    uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *text) {
    char *out = text;
    for (char *in = text; *in; in++, out++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] && in[3]) {
            *out = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else {
            *out = *in;
        }
    }
    *out = 0;
}

/* Without mount_setattr: every mount at or below `dir`, remounted read-only. */
static int remount_below(const char *dir) {
    FILE *info = fopen("/proc/self/mountinfo", "re");
    if (!info) return -1;
    char line[8192], point[4096];
    size_t len = strlen(dir);
    int failed = 0;
    while (fgets(line, sizeof line, info)) {
        if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1) continue;
        unescape(point);
        if (strncmp(point, dir, len) != 0 || (point[len] != 0 && point[len] != '/')) continue;
        unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV;
        if (mount(NULL, point, NULL, flags, NULL) != 0 && strcmp(point, dir) == 0) failed = 1;
    }
    fclose(info);
    return failed ? -1 : 0;
}

/* `dir` bound onto itself with everything below it, all read-only. */
static int read_only(const char *dir) {
    if (mount(dir, dir, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    struct view_mount_attr attr = {MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0,
                                   0, 0};
    if (syscall(SYS_mount_setattr, AT_FDCWD, dir, AT_RECURSIVE, &attr, sizeof attr) == 0)
        return 0;
    return remount_below(dir);
}

/* A /dev of its own: the harmless character devices, the usual links, a shm folder.
 * In a user namespace mknod is refused (and its tmpfs is nodev): the host's nodes are
 * bound instead, opened before the tmpfs covers them. */
static int build_dev(void) {
    static const struct { const char *name; unsigned major, minor; } nodes[] = {
        {"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}};
    enum { N_NODES = sizeof nodes / sizeof *nodes };
    static const char *links[][2] = {{"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"},
                                     {"stdout", "/proc/self/fd/1"},
                                     {"stderr", "/proc/self/fd/2"}};
    int host[N_NODES];
    char path[64];
    for (size_t i = 0; i < N_NODES; i++) {
        snprintf(path, sizeof path, "/dev/%s", nodes[i].name);
        host[i] = open(path, O_PATH | O_CLOEXEC);
    }
    int failed = mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755");
    for (size_t i = 0; i < N_NODES && !failed; i++) {
        snprintf(path, sizeof path, "/dev/%s", nodes[i].name);
        dev_t dev = makedev(nodes[i].major, nodes[i].minor);
        if (mknod(path, S_IFCHR | 0666, dev) == 0) {
            failed = chmod(path, 0666) != 0; /* not the judge's umask */
            continue;
        }
        int refused = errno == EPERM;
        struct stat st;
        char from[64];
        snprintf(from, sizeof from, "/proc/self/fd/%d", host[i]);
        int placeholder = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        failed = !refused || host[i] < 0 || fstat(host[i], &st) != 0 ||
                 !S_ISCHR(st.st_mode) || st.st_rdev != dev || placeholder < 0 ||
                 mount(from, path, NULL, MS_BIND, NULL) != 0;
        if (placeholder >= 0) close(placeholder);
    }
    for (size_t i = 0; i < N_NODES; i++)
        if (host[i] >= 0) close(host[i]);
    if (failed) return -1;
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        snprintf(path, sizeof path, "/dev/%s", links[i][0]);
        if (symlink(links[i][1], path) != 0) return -1;
    }
    if (mkdir("/dev/shm", 0755) != 0) return -1;
    return 0;
}

int build_view(const char **what) {
    DIR *root = opendir("/");
    if (!root) {
        *what = "opendir /";
        return -1;
    }
    struct dirent *e;
    char path[512];
    int failed = 0;
    while (!failed && (e = readdir(root)) != NULL) {
        const char *name = e->d_name;
        if (name[0] == '.' || e->d_type != DT_DIR || strcmp(name, "proc") == 0) continue;
        snprintf(path, sizeof path, "/%s", name);
        *what = path;
        if (strcmp(name, "dev") == 0) {
            *what = "/dev";
            failed = build_dev() != 0;
        } else if (is_shown(name)) {
            failed = read_only(path) != 0;
        } else {
            failed = hide(path, strcmp(name, "tmp") == 0) != 0;
        }
    }
    closedir(root);
    if (failed) return -1;
    *what = "/sys/fs/cgroup";
    return hide("/sys/fs/cgroup", 0);
}

int finish_view(const char **what) {
    *what = "read-only /dev";
    return mount(NULL, "/dev", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL);
}

int mount_proc(void) {
    unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (mount("proc", "/proc", "proc", flags, "hidepid=invisible") == 0) return 0;
    if (mount("proc", "/proc", "proc", flags, "hidepid=2") == 0) return 0;
    return -1;
}
