/* The Clocks, deliberately wrong for `gridjudge stress` tests: finds the shortest move
   multiset by trying all 4^9 count vectors, but prints the moves in DESCENDING order.
   Right only when the answer uses at most one distinct move. */
#include <stdio.h>

static const char *MOVES[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

int main(void) {
    int need[9], v, i, best = 100, best_code = -1;
    for (i = 0; i < 9; i++) {
        if (scanf("%d", &v) != 1) return 1;
        need[i] = (12 - v) / 3 % 4;
    }
    for (int code = 0; code < (1 << 18); code++) {
        int turns[9] = {0}, total = 0, ok = 1;
        for (int m = 0; m < 9; m++) {
            int k = (code >> (2 * m)) & 3;
            total += k;
            for (const char *c = MOVES[m]; *c; c++) turns[*c - 'A'] += k;
        }
        for (i = 0; i < 9 && ok; i++) ok = turns[i] % 4 == need[i];
        if (ok && total < best) { best = total; best_code = code; }
    }
    int first = 1;
    for (int m = 8; m >= 0; m--)
        for (int k = 0; k < ((best_code >> (2 * m)) & 3); k++) {
            printf(first ? "%d" : " %d", m + 1);
            first = 0;
        }
    printf("\n");
    return 0;
}
