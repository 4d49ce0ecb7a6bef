/* Does its work in a grandchild nobody waits for (its parent exits at once): 400 ms of
 * CPU on the grandchild's own clock and 150 MB touched, then the answer through a pipe.
 * The run's CPU time and peak must count that work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void work(int out, long n) {
    size_t size = (size_t)150 << 20;
    volatile char *p = malloc(size);
    for (size_t i = 0; p && i < size; i += 4096) p[i] = 1;
    struct timespec t;
    do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < 400);
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", n);
    if (write(out, text, (size_t)len) != len) _exit(1);
    _exit(0);
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    int pipefd[2];
    if (pipe(pipefd) != 0) return 1;
    pid_t child = fork();
    if (child == 0) {
        if (fork() == 0) {
            close(pipefd[0]);
            work(pipefd[1], n);
        }
        _exit(0);
    }
    close(pipefd[1]);
    waitpid(child, NULL, 0);
    char text[32];
    ssize_t got = read(pipefd[0], text, sizeof text - 1);
    if (got <= 0) return 1;
    text[got] = 0;
    fputs(text, stdout);
    return 0;
}
