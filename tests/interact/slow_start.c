/* Sleeps 3 s before main (in .preinit_array: before a preloaded fork server takes over),
 * then doubles every number it reads: a start that takes wall time, not CPU. Forked from
 * its server, each case starts after it; spawned, the sleep is the run's own. */
#include <stdio.h>
#include <unistd.h>

static void slow(void) { sleep(3); }

__attribute__((section(".preinit_array"), used)) static void (*early)(void) = slow;

int main(void) {
    long long x;
    while (scanf("%lld", &x) == 1) {
        printf("%lld\n", 2 * x);
        fflush(stdout);
    }
    return 0;
}
