// clocks, accepted: tries every count 0..3 of each of the nine moves (4^9 combinations);
// the solution with all clocks at 12 is unique, printed in ascending move order.
#include <cstdio>

static const char *MOVES[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH",
                               "CFI", "DEGH", "GHI", "EFHI"};

int main() {
    int dial[9];
    for (int i = 0; i < 9; i++) {
        if (std::scanf("%d", &dial[i]) != 1) return 1;
        dial[i] = (dial[i] / 3) % 4;  // 12 -> 0, 3 -> 1, 6 -> 2, 9 -> 3
    }
    int effect[9][9] = {};
    for (int m = 0; m < 9; m++)
        for (const char *c = MOVES[m]; *c; c++) effect[m][*c - 'A'] = 1;
    int count[9];
    for (int code = 0; code < (1 << 18); code++) {
        int state[9];
        for (int i = 0; i < 9; i++) state[i] = dial[i];
        for (int m = 0; m < 9; m++) {
            count[m] = (code >> (2 * m)) & 3;
            for (int i = 0; i < 9; i++) state[i] += count[m] * effect[m][i];
        }
        bool done = true;
        for (int i = 0; i < 9 && done; i++) done = state[i] % 4 == 0;
        if (!done) continue;
        bool first = true;
        for (int m = 0; m < 9; m++)
            for (int k = 0; k < count[m]; k++) {
                std::printf(first ? "%d" : " %d", m + 1);
                first = false;
            }
        std::printf("\n");
        return 0;
    }
    return 1;
}
