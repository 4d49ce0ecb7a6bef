/* check input answer feedback_dir < output: the output must be the sum of the input's
   two numbers; exit 42 when it is, else 43 with a judge message. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    long a, b, got;
    char path[4096];
    FILE *in, *log;
    if (argc < 4) return 1;
    in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%ld %ld", &a, &b) != 2) return 1;
    snprintf(path, sizeof path, "%sjudgemessage.txt", argv[3]);
    log = fopen(path, "w");
    if (scanf("%ld", &got) != 1) {
        fprintf(log, "no number\n");
        return 43;
    }
    if (got != a + b) {
        fprintf(log, "built checker: wanted %ld, got %ld\n", a + b, got);
        return 43;
    }
    return 42;
}
