// answers the first number doubled, then exits
#include <cstdio>
int main() {
    long long x;
    if (scanf("%lld", &x) == 1) printf("%lld\n", 2 * x);
}
