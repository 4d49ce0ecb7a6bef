/* Burns 300 ms of CPU (its own clock) in .preinit_array, then answers: under the limit,
 * so AC, but those 300 ms must be counted: in the run's CPU time spawned, in every
 * case's limit and its start_cpu_ms served (what the server burned before "ready"). */
#include <stdio.h>
#include <time.h>

static void burn(void) {
    struct timespec t;
    do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < 300);
}

__attribute__((section(".preinit_array"), used)) static void (*early)(void) = burn;

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    printf("%ld\n", n);
    return 0;
}
