/* Clocks: try every count 0..3 of the nine moves (4^9); reads clocks.in, writes
 * clocks.out as the classic task does. */
#include <stdio.h>

static const char *moves[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

int main(void) {
    FILE *in = fopen("clocks.in", "r"), *out = fopen("clocks.out", "w");
    if (!in || !out) return 1;
    int clock[9], best = -1, best_total = 100;
    for (int i = 0; i < 9; i++) {
        if (fscanf(in, "%d", &clock[i]) != 1) return 1;
        clock[i] = (clock[i] / 3) % 4;
    }
    for (int code = 0; code < (1 << 18); code++) {
        int turns[9] = {0}, total = 0;
        for (int m = 0; m < 9; m++) {
            int k = (code >> (2 * m)) & 3;
            total += k;
            for (const char *p = moves[m]; *p; p++) turns[*p - 'A'] += k;
        }
        int ok = total < best_total;
        for (int i = 0; i < 9 && ok; i++) ok = (clock[i] + turns[i]) % 4 == 0;
        if (ok) best = code, best_total = total;
    }
    int first = 1;
    for (int m = 0; m < 9; m++)
        for (int k = 0; k < ((best >> (2 * m)) & 3); k++) {
            fprintf(out, first ? "%d" : " %d", m + 1);
            first = 0;
        }
    fprintf(out, "\n");
    return 0;
}
