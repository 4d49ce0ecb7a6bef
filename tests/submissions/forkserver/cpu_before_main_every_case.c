/* 600 ms of CPU in .preinit_array (before the fork server is ready, so once per server),
 * then 600 ms more in main for each case. Spawned, every case costs 1.2 s: TLE under a
 * 1 s limit. Served, the pre-main work must not be shared out among the cases (paid by
 * the first, free for the rest): every case is TLE, as spawned. */
#include <stdio.h>
#include <time.h>

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void burn(void) {
    while (cpu_ms() < 600) {}
}

__attribute__((section(".preinit_array"), used)) static void (*early)(void) = burn;

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    double until = cpu_ms() + 600; /* a child's clock starts at its fork */
    while (cpu_ms() < until) {}
    printf("%ld\n", n);
    return 0;
}
