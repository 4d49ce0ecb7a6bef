/* Answers the first number wrong, then spins without reading or writing: the interactor
 * rejects at once, and the submission must be ended then, not run on to its CPU limit. */
#include <stdio.h>

static volatile unsigned long sink;

int main(void) {
    long long x;
    if (scanf("%lld", &x) != 1) return 1;
    printf("%lld\n", 2 * x + 1);
    fflush(stdout);
    for (;;) sink++;
}
