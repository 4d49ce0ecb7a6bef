// Bisection: at most 10 guesses for 1..1000.
#include <cstdio>
#include <cstring>

int main() {
    int low = 1, high = 1000;
    char reply[16];
    while (low <= high) {
        int mid = (low + high) / 2;
        printf("%d\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1 || strcmp(reply, "correct") == 0) return 0;
        if (strcmp(reply, "lower") == 0) high = mid - 1;
        else low = mid + 1;
    }
    return 0;
}
