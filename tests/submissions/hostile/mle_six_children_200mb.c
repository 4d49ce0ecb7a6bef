/* Six children each touch 200 MB and hold it until all six have: 1.2 GB at once under a
 * 256 MB limit, each child well under it. The run's memory is all of its processes'. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    int ready[2], go[2];
    if (pipe(ready) != 0 || pipe(go) != 0) return 1;
    for (int k = 0; k < 6; k++) {
        if (fork() == 0) {
            close(ready[0]);
            close(go[1]);
            size_t size = (size_t)200 << 20;
            volatile char *p = malloc(size);
            for (size_t i = 0; p && i < size; i += 4096) p[i] = 1;
            /* touched: say so, then hold it until the parent lets go */
            if (write(ready[1], "x", 1) != 1) _exit(1);
            close(ready[1]);
            char c;
            if (read(go[0], &c, 1) < 0) _exit(1);
            _exit(0);
        }
    }
    close(ready[1]);
    close(go[0]);
    char c;
    while (read(ready[0], &c, 1) > 0) {} /* until every child has touched, or died */
    close(go[1]);
    while (wait(NULL) > 0) {}
    printf("%ld\n", n);
    return 0;
}
