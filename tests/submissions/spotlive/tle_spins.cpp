// Reads N and spins: a CPU-time TLE while the judge waits for an answer.
#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    volatile unsigned long x = 0;
    for (;;) x = x * 6364136223846793005UL + 1;
}
