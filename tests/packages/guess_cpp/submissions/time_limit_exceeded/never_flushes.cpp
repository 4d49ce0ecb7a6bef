// Writes its guess without flushing, then waits for the reply: the interactor never
// sees the guess, and both wait until the wall-clock limit ends it.
#include <cstdio>

int main() {
    printf("500\n");
    char reply[16];
    if (scanf("%15s", reply) != 1) return 0;
    return 0;
}
