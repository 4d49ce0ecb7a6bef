#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(void) {
    /* named after its input (the test's port): the test looks for survivors by this
     * name, and another judge's battery on the same machine has another port */
    int port = 0;
    char name[16];
    if (scanf("%d", &port) != 1) return 1;
    snprintf(name, sizeof name, "gjfb%d", port);
    prctl(PR_SET_NAME, name);
    for (;;) fork();
}
