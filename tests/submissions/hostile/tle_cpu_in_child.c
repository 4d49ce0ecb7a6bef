/* A child burns CPU while its parent sleeps in wait: the run's CPU is all of its
 * processes', and the limit ends it, not the wall clock. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    if (fork() == 0)
        for (volatile unsigned long i = 0;; i++) {}
    wait(NULL);
    printf("%ld\n", n);
    return 0;
}
