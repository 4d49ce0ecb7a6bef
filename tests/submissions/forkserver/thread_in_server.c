/* A thread started before main (.preinit_array: in the fork server, before it serves)
 * catches the judge's files of a case while the server holds them, keeps them, and
 * copies every later case's input into the server's memory, which each case's child
 * is forked from. Prints N unless it sees an earlier case's input there. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile char seen[64];

static void *helper(void *arg) {
    (void)arg;
    int in = -1;
    for (;;) {
        for (int fd = 4; in < 0 && fd < 16; fd++) {
            char path[64], target[128];
            if (fcntl(fd, F_GETFD) < 0) continue;
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            ssize_t n = readlink(path, target, sizeof target - 1);
            if (n > 0 && (target[n] = 0, strstr(target, "memfd:in"))) in = dup(fd);
        }
        char buf[sizeof seen];
        ssize_t n = in >= 0 ? pread(in, buf, sizeof buf - 1, 0) : 0;
        if (n > 0) {
            buf[n] = 0;
            for (ssize_t k = 0; k <= n; k++) seen[k] = buf[k];
        }
    }
    return NULL;
}

static void start(void) {
    pthread_t t;
    pthread_attr_t small; /* the default stack is RLIMIT_STACK: past RLIMIT_AS, if set */
    pthread_attr_init(&small);
    pthread_attr_setstacksize(&small, 1 << 16);
    pthread_create(&t, &small, helper, NULL);
}
__attribute__((section(".preinit_array"), used)) static void (*preinit)(void) = start;

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    long before = seen[0] ? strtol((const char *)seen, NULL, 10) : n;
    if (before != n) printf("stale input %ld\n", before);
    else printf("%ld\n", n);
    return 0;
}
