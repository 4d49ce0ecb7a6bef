/* An honest program using 200 MB of its 256 MB: it must get AC wherever it runs, after
 * any other submission (a slot still charged with another run's files would make it
 * MLE). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    size_t size = (size_t)200 << 20;
    volatile char *p = malloc(size);
    if (!p) return 1;
    for (size_t i = 0; i < size; i += 4096) p[i] = 1; /* touch every page */
    printf("%ld\n", n + p[size - 4096] - 1);
    return 0;
}
