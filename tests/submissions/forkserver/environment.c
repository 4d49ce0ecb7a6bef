/* Sees what the judge gave the server to start it (LD_PRELOAD, LD_BIND_NOW, its control
 * variables), if it is still in the program's environment; a spawned run of the same
 * program sees none of it. Prints N when its environment holds none of it, and writes
 * that environment to stderr, for the test to compare with a spawned run's. */
#include <stdio.h>
#include <string.h>

extern char **environ;

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    const char *seen = NULL;
    for (char **e = environ; *e; e++) {
        if (!strncmp(*e, "LD_", 3) || !strncmp(*e, "GRIDJUDGE_", 10)) seen = *e;
        fprintf(stderr, "%s\n", *e);
    }
    if (seen) printf("judge variable %s\n", seen);
    else printf("%ld\n", n);
    return 0;
}
