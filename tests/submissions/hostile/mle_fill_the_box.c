/* Writes up to 1.5 GB of 1 MB files (each under the output limit) into its scratch dir,
 * until a write fails, then touches 100 MB more and answers: what a run writes there is
 * memory it holds (the files and the 100 MB pass the limit together), capped, and must
 * not land in the host's shared memory. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char block[1 << 20];

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    memset(block, 'x', sizeof block);
    for (int k = 0; k < 1536; k++) {
        char name[32];
        snprintf(name, sizeof name, "fill%04d", k);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) break;
        ssize_t wrote = write(fd, block, sizeof block - 1);
        close(fd);
        if (wrote != (ssize_t)sizeof block - 1) break;
    }
    size_t more = (size_t)100 << 20;
    volatile char *p = malloc(more);
    for (size_t i = 0; p && i < more; i += 4096) p[i] = 1;
    printf("%ld\n", n);
    return 0;
}
