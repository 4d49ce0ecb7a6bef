// doubles every number it reads; once its input ends (the interactor is over), writes
// 1 MiB more before it exits 0: that output goes nowhere, and must not hold it up
#include <stdio.h>
#include <string.h>
int main(void) {
    long long x;
    while (scanf("%lld", &x) == 1) {
        printf("%lld\n", 2 * x);
        fflush(stdout);
    }
    static char line[1024];
    memset(line, 'z', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < 1024; i++) fwrite(line, 1, sizeof line, stdout);
    return 0;
}
