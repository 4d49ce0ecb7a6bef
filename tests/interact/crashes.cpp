// An interactor that crashes (abort) on the secret 1000, and plays fair otherwise.
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    FILE *in = fopen(argv[1], "r");
    int secret = 0;
    if (!in || fscanf(in, "%d", &secret) != 1) return 1;
    if (secret == 1000) abort();
    for (int i = 0; i < 10; i++) {
        int guess;
        if (scanf("%d", &guess) != 1) return 43;
        if (guess == secret) {
            printf("correct\n");
            fflush(stdout);
            return 42;
        }
        printf(guess > secret ? "lower\n" : "higher\n");
        fflush(stdout);
    }
    return 43;
}
