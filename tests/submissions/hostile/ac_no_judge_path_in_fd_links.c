/* Reads where its open files lead (/proc/self/fd/N): its stdin, stdout and stderr must
 * be unnamed (a memfd, a pipe), never a file of the judge's whose path names the run
 * folder. Prints N only when no link names a path. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    DIR *fds = opendir("/proc/self/fd");
    if (!fds) return 2;
    struct dirent *e;
    char path[64], target[4096];
    while ((e = readdir(fds)) != NULL) {
        if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(fds)) continue;
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        if (len < 0) continue;
        target[len] = 0;
        if (target[0] == '/' && strncmp(target, "/memfd:", 7) != 0 && strcmp(target, "/dev/null"))
            printf("fd %s names %s\n", e->d_name, target);
    }
    closedir(fds);
    printf("%ld\n", n);
    return 0;
}
