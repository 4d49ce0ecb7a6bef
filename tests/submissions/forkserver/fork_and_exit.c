/* Leaves a child behind, named gjfs<N>, sleeping, then exits: the child must not outlive
 * the case. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    if (fork() == 0) {
        char name[16];
        snprintf(name, sizeof name, "gjfs%ld", n);
        prctl(PR_SET_NAME, name);
        setsid();
        sleep(60);
        return 0;
    }
    printf("%ld\n", n);
    return 0;
}
