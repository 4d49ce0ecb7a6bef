/* On an odd N, kills every other process it may, its fork server included (by pid
 * number: /proc does not list the server to it): that case must be a runtime error and
 * the next case must get a new server. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    if (n % 2) {
        for (int pid = 2; pid < 4096; pid++) /* a pid namespace of its own: small pids */
            if (pid != getpid()) kill(pid, SIGKILL);
    }
    printf("%ld\n", n);
    return 0;
}
