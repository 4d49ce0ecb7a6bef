/* Looks for a host folder it may write into (the test adds a world-writable one under
 * /var, as a session folder is) and checks for the marks an earlier run left in every
 * place that is writable to it: a folder it may write outside the private ones, or a
 * mark seen, and it says so instead of printing N.
 *
 * The walk looks at folders only, told by the listing's entry type: a stat of every
 * file (nftw) cost 18.8 s of CPU in the cgroup v2 VM, where each one is a 9p request
 * to the host, for the same folders visited. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* private to the run wherever it is writable (the sandbox's own tmpfs mounts) */
static const char *private_dirs[] = {"/tmp", "/var/tmp", "/dev", "/var/lock", "/run/lock",
                                     NULL};
static char found[4096];
static char mark[64];

static int is_private(const char *path) {
    for (int i = 0; private_dirs[i]; i++) {
        size_t n = strlen(private_dirs[i]);
        if (strncmp(path, private_dirs[i], n) == 0 && (path[n] == 0 || path[n] == '/')) return 1;
    }
    return 0;
}

/* The folder `name` of the open folder `parent` (its path in `path`, `len` long, in a
 * buffer of 4096) and every folder below it, not following links: the first one
 * writable goes into `found`; an unreadable folder is still looked at itself. Relative
 * to the open parent, so that no call walks the path again. */
static void look(int parent, const char *name, char *path, size_t len) {
    if (found[0] || is_private(path)) return;
    if (faccessat(parent, name, W_OK, 0) == 0) {
        snprintf(found, sizeof found, "%s", path);
        return;
    }
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    if (!dir) {
        if (fd >= 0) close(fd);
        return;
    }
    for (struct dirent *e; !found[0] && (e = readdir(dir));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(e->d_name);
        if (len + 1 + n + 1 > 4096) continue;
        struct stat st;
        int folder = e->d_type == DT_DIR ||
                     (e->d_type == DT_UNKNOWN && fstatat(dirfd(dir), e->d_name, &st,
                                                         AT_SYMLINK_NOFOLLOW) == 0 &&
                      S_ISDIR(st.st_mode));
        if (!folder) continue;
        path[len] = '/';
        memcpy(path + len + 1, e->d_name, n + 1);
        look(dirfd(dir), e->d_name, path, len + 1 + n);
        path[len] = 0;
    }
    closedir(dir);
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    snprintf(mark, sizeof mark, "gj_state_%ld", n);
    const char *roots[] = {"/var", "/opt", "/etc", "/dev", "/run", "/srv", "/home", "/root",
                           "/mnt", "/media", NULL};
    static char walked[4096];
    for (int i = 0; roots[i] && !found[0]; i++) {
        snprintf(walked, sizeof walked, "%s", roots[i]);
        look(AT_FDCWD, roots[i], walked, strlen(walked));
    }
    /* a mark from an earlier run in a private place (or in /: bwrap's root is a private
     * tmpfs)? else leave one */
    const char *places[] = {"/tmp", "/var/tmp", "/dev", "/dev/shm", "/var/lock", "/run/lock",
                            "", NULL};
    char path[4200];
    for (int i = 0; places[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", places[i], mark);
        if (access(path, F_OK) == 0) {
            printf("saw the mark of an earlier run in %s/\n", places[i]);
            return 0;
        }
        close(open(path, O_WRONLY | O_CREAT, 0644));
    }
    if (found[0]) printf("may write into host folder %s\n", found);
    else printf("%ld\n", n);
    return 0;
}
