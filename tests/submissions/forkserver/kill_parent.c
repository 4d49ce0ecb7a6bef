/* Kills its parent process (and tries its process group's leader): the case must go on
 * unharmed, as must the next one. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    kill(getppid(), SIGKILL);
    kill(getppid(), SIGTERM);
    printf("%ld\n", n);
    return 0;
}
