/* Signals every other process it may (by pid number: /proc does not list the server to
 * it) with SIGTERM, SIGUSR1, SIGINT and SIGALRM: the server holds every signal blocked
 * while it serves, so none of them runs anything in it or ends it; the next cases come
 * from the same server, with no signal of this case pending in them. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    for (int pid = 2; pid < 4096; pid++)
        if (pid != getpid()) {
            kill(pid, SIGTERM);
            kill(pid, SIGUSR1);
            kill(pid, SIGINT);
            kill(pid, SIGALRM);
        }
    sigset_t pending;
    sigpending(&pending);
    for (int sig = 1; sig < 32; sig++)
        if (sigismember(&pending, sig)) printf("pending %d\n", sig);
    printf("%ld\n", n);
    return 0;
}
