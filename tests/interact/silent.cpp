// reads and never answers: the interactor waits for it, it waits for the interactor
#include <cstdio>
int main() {
    long long x;
    while (scanf("%lld", &x) == 1) {}
}
