// The interactor: the secret is the input file's number. At most 10 guesses, each
// answered "lower", "higher" or "correct". Exit 42 on the right guess, 43 otherwise.
#include <cstdio>
#include <cstring>
#include <string>

static int reject(const char *feedback_dir, const char *why) {
    std::string path = std::string(feedback_dir) + "judgemessage.txt";
    if (FILE *f = fopen(path.c_str(), "w")) {
        fputs(why, f);
        fclose(f);
    }
    return 43;
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    FILE *in = fopen(argv[1], "r");
    int secret = 0;
    if (!in || fscanf(in, "%d", &secret) != 1) return 1;
    fclose(in);
    for (int guesses = 1; guesses <= 10; guesses++) {
        int guess;
        if (scanf("%d", &guess) != 1) return reject(argv[3], "no guess");
        if (guess == secret) {
            printf("correct\n");
            fflush(stdout);
            return 42;
        }
        printf(guess > secret ? "lower\n" : "higher\n");
        fflush(stdout);
    }
    return reject(argv[3], "10 guesses used");
}
