// doubles every number it reads, answering each at once
#include <cstdio>
int main() {
    long long x;
    while (scanf("%lld", &x) == 1) {
        printf("%lld\n", 2 * x);
        fflush(stdout);
    }
}
