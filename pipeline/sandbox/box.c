/* See box.h. Only the launcher runs this, before the program starts and after every
 * process of the run is gone: the program never holds a path to the run folder. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "box.h"

/* Up to `cap` bytes of `in` appended to `out`; 0, or -1 on an error. */
static int copy_bytes(int in, int out, unsigned long long cap) {
    while (cap > 0) {
        size_t chunk = cap > (1U << 30) ? (1U << 30) : (size_t)cap;
        ssize_t n = sendfile(out, in, NULL, chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) return 0;
        cap -= (unsigned long long)n;
    }
    return 0;
}

/* `name` at the top of `from`, if a regular file, copied to `to` as a new file of the
 * same mode (with its owner and times when `same_owner`), cut at `cap` bytes. 0, 1 when
 * there is no such regular file, -1 on an error. */
static int copy_file(int from, int to, const char *name, unsigned long long cap, int same_owner,
                     mode_t mode) {
    int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0) return 1;
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(in);
        return 1;
    }
    if (unlinkat(to, name, 0) != 0 && errno != ENOENT) {
        close(in);
        return -1;
    }
    if (!mode) mode = st.st_mode & 07777;
    int out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int failed = out < 0 || copy_bytes(in, out, cap) != 0 ||
                 (same_owner && fchown(out, st.st_uid, st.st_gid) != 0) || fchmod(out, mode) != 0;
    if (!failed && same_owner) {
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        futimens(out, times);
    }
    if (out >= 0) close(out);
    close(in);
    return failed ? -1 : 0;
}

int private_box(int host, const char *at, unsigned long long bytes, const char **what) {
    struct stat st;
    char opts[64];
    snprintf(opts, sizeof opts, "size=%llu,mode=0700", bytes);
    *what = "mount the scratch dir";
    if (fstat(host, &st) != 0 || mount("tmpfs", at, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
        return -1;
    int box = open(at, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (box < 0 || fchown(box, st.st_uid, st.st_gid) != 0 || fchmod(box, st.st_mode & 07777) != 0)
        return -1;
    *what = "copy the program's files";
    int listing = dup(host);
    DIR *dir = listing >= 0 ? fdopendir(listing) : NULL;
    int failed = !dir;
    if (dir) rewinddir(dir);
    for (struct dirent *e; !failed && dir && (e = readdir(dir)) != NULL;)
        if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")))
            failed = copy_file(host, box, e->d_name, ~0ULL, 1, 0) < 0;
    if (dir) closedir(dir);
    else if (listing >= 0) close(listing);
    close(box);
    return failed ? -1 : 0;
}

/* Whether `name` is a regular file in both folders with the same size and modification
 * time: a staged file the run left as it was copied in (private_box keeps the time). */
static int unchanged(int from, int to, const char *name) {
    struct stat a, b;
    return fstatat(from, name, &a, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(a.st_mode) &&
           fstatat(to, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(b.st_mode) &&
           a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
           a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

void keep_files(int from, int to, const char *const *names, int n, unsigned long long cap) {
    for (int k = 0; k < n; k++) {
        if (strcmp(names[k], KEEP_EVERY) != 0) {
            if (!strchr(names[k], '/')) copy_file(from, to, names[k], cap, 0, 0600);
            continue;
        }
        int listing = openat(from, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *dir = listing >= 0 ? fdopendir(listing) : NULL;
        int copied = 0;
        for (struct dirent *e; dir && copied < KEEP_EVERY_MAX && (e = readdir(dir)) != NULL;)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                !unchanged(from, to, e->d_name))
                copied += copy_file(from, to, e->d_name, cap, 0, 0600) == 0;
        if (dir) closedir(dir);
        else if (listing >= 0) close(listing);
    }
}
