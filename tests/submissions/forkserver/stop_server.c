/* On an odd N, stops every other process it may, its fork server included (by pid
 * number): that case must be a runtime error and the next case must get a new server
 * (init sees the stopped server at once, without waiting for it to answer). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    if (n % 2) {
        for (int pid = 2; pid < 4096; pid++)
            if (pid != getpid()) kill(pid, SIGSTOP);
    }
    printf("%ld\n", n);
    return 0;
}
