#include <stdio.h>
#include "grader.h"

int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", answer(n));
    return 0;
}
