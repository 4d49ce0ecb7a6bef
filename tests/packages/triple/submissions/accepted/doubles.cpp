#include <cstdio>
int main() {
    long long y;
    if (scanf("%lld", &y) == 1) printf("%lld\n", 2 * y);
}
