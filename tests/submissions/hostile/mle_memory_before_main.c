/* Touches 512 MB (twice its limit) in .preinit_array, before main and before a
 * preloaded fork server is ready: the memory limit must bind from exec on. */
#include <stdio.h>
#include <stdlib.h>

static volatile char *hoard;

static void grab(void) {
    size_t size = (size_t)512 << 20;
    hoard = malloc(size);
    for (size_t i = 0; hoard && i < size; i += 4096) hoard[i] = 1;
}

__attribute__((section(".preinit_array"), used)) static void (*early)(void) = grab;

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    printf("%ld\n", n + hoard[0] - 1);
    return 0;
}
