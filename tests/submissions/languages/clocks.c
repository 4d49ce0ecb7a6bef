/* Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out. */
#include <stdio.h>

static const int WRONG = 0;
static const char *MOVES[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

int main(void) {
    FILE *in = fopen("clocks.in", "r"), *out = fopen("clocks.out", "w");
    int clock[9], by[9][9], nby[9] = {0}, best = 0, best_total = 100;
    for (int i = 0; i < 9; i++) {
        if (fscanf(in, "%d", &clock[i]) != 1) return 1;
        clock[i] = clock[i] / 3 % 4;
    }
    for (int m = 0; m < 9; m++)
        for (const char *p = MOVES[m]; *p; p++) by[*p - 'A'][nby[*p - 'A']++] = m;
    for (int code = 0; code < 1 << 18; code++) {
        int count[9], total = 0, ok = 1;
        for (int m = 0; m < 9; m++) total += count[m] = code >> (2 * m) & 3;
        for (int i = 0; i < 9 && ok; i++) {
            int s = clock[i];
            for (int j = 0; j < nby[i]; j++) s += count[by[i][j]];
            ok = s % 4 == 0;
        }
        if (ok && total < best_total) best = code, best_total = total;
    }
    int moves[27], n = 0;
    for (int m = 0; m < 9; m++)
        for (int k = 0; k < (best >> (2 * m) & 3); k++) moves[n++] = m + 1;
    for (int i = 0; i < n; i++) fprintf(out, i ? " %d" : "%d", moves[WRONG ? n - 1 - i : i]);
    fprintf(out, "\n");
    return 0;
}
