/* A hidden host folder showing only some of its paths (shown.h). A compiler needs a few
 * files under /etc and /var (the loader's cache, /etc/alternatives' links, a JVM's
 * configuration, GHC's package database), and a source that #includes a host file by
 * its absolute path must find nothing else there: its compile error would quote it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shown.h"
#include "view.h"

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define READ_ONLY_ATTRS 0x7 /* MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV */

struct shown_mount_attr { /* struct mount_attr (linux/mount.h clashes with sys/mount.h) */
    uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* `path`'s folders below the tmpfs at `top`, made as needed */
static int make_parents(const char *path, size_t top) {
    char dir[4096];
    if (strlen(path) >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(dir, path);
    for (char *slash = strchr(dir + top + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
        *slash = '/';
    }
    return 0;
}

/* The new bind mount at `path`, read-only. mount_setattr only adds flags, so flags the
 * host's mount holds (and a user namespace may not clear) stay; a remount where the
 * kernel lacks it. */
static int seal(const char *path) {
    struct shown_mount_attr attr = {READ_ONLY_ATTRS, 0, 0, 0};
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, 0, &attr, sizeof attr) == 0) return 0;
    return mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
}

/* The host's `path` (open as `fd`) at the same place in the tmpfs at `top`. */
static int show(const char *path, int fd, size_t top) {
    struct stat st;
    if (fstatat(fd, "", &st, AT_EMPTY_PATH) != 0 || make_parents(path, top) != 0) return -1;
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t len = readlinkat(fd, "", target, sizeof target - 1);
        if (len < 0) return -1;
        target[len] = 0;
        return symlink(target, path) != 0 && errno != EEXIST ? -1 : 0;
    }
    if (S_ISDIR(st.st_mode)) {
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
    } else {
        int made = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (made < 0) return -1;
        close(made);
    }
    char from[64];
    snprintf(from, sizeof from, "/proc/self/fd/%d", fd);
    if (mount(from, path, NULL, MS_BIND, NULL) != 0) return -1;
    return seal(path);
}

static int below(const char *path, const char *dir, size_t len) {
    return strncmp(path, dir, len) == 0 && path[len] == '/';
}

int conceal_showing(const char *dir, const char *const *shown, const int *fds, int n) {
    size_t len = strlen(dir);
    int any = 0;
    for (int k = 0; k < n; k++) any = any || (fds[k] >= 0 && below(shown[k], dir, len));
    if (!any) return hide(dir, 0);
    unsigned long flags = MS_NOSUID | MS_NODEV;
    if (mount("tmpfs", dir, "tmpfs", flags, "size=64k,mode=0755") != 0)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
    for (int k = 0; k < n; k++)
        if (fds[k] >= 0 && below(shown[k], dir, len) && show(shown[k], fds[k], len) != 0)
            return -1;
    return mount(NULL, dir, NULL, MS_REMOUNT | MS_RDONLY | flags, "size=64k,mode=0755");
}
