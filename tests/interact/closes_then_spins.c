/* Reads the first number, closes its stdout without answering, then spins: the
 * interactor must see the end of its input at once (nothing of the judge may keep a
 * write end of that pipe open) and reject, a WA, not a TLE at the CPU limit. */
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;

int main(void) {
    long long x;
    if (scanf("%lld", &x) != 1) return 1;
    close(1);
    for (;;) sink++;
}
