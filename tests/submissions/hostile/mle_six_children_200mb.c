/* Six children each touch 200 MB and hold it a while: 1.2 GB at once under a 256 MB
 * limit, each child well under it. The run's memory is all of its processes'. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    for (int k = 0; k < 6; k++) {
        if (fork() == 0) {
            size_t size = (size_t)200 << 20;
            volatile char *p = malloc(size);
            for (size_t i = 0; p && i < size; i += 4096) p[i] = 1;
            sleep(2);
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {}
    printf("%ld\n", n);
    return 0;
}
