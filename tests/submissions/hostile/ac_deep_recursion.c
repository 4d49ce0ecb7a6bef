/* ~120 MB of stack: accepted because the stack limit equals the memory limit. */
#include <stdio.h>

static long depth(long n) {
    volatile char frame[100];
    frame[0] = (char)n;
    if (n == 0) return frame[0];
    return depth(n - 1) + frame[0] - (char)n + 1;
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    long d = depth(1000000);
    printf("%ld\n", d == 1000000 ? n : -1);
    return 0;
}
