/* Looks for a host folder it may write into (the test adds a world-writable one under
 * /var, as a session folder is) and checks for the marks an earlier run left in every
 * place that is writable to it: a folder it may write outside the private ones, or a
 * mark seen, and it says so instead of printing N. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
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

static int look(const char *path, const struct stat *st, int type, struct FTW *at) {
    (void)st, (void)at;
    if ((type != FTW_D && type != FTW_DNR) || is_private(path) || found[0]) return 0;
    if (access(path, W_OK) == 0) snprintf(found, sizeof found, "%s", path);
    return 0;
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    snprintf(mark, sizeof mark, "gj_state_%ld", n);
    const char *roots[] = {"/var", "/opt", "/etc", "/dev", "/run", "/srv", "/home", "/root",
                           "/mnt", "/media", NULL};
    for (int i = 0; roots[i] && !found[0]; i++) nftw(roots[i], look, 16, FTW_PHYS);
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
