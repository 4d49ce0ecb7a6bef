/* Spot: keep every board produced so far (all four rotations) and compare. */
#include <stdio.h>
#include <string.h>

#define MAXN 50
static unsigned char seen[4 * 2 * MAXN + 4][MAXN * MAXN];

static void rotate(const unsigned char *in, unsigned char *out, int n) {
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) out[c * n + (n - 1 - r)] = in[r * n + c];
}

int main(void) {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) {
        static unsigned char board[MAXN * MAXN];
        memset(board, 0, sizeof board);
        int stored = 0, result = 0;
        for (int i = 1; i <= 2 * n; i++) {
            int r, c;
            char sign;
            if (scanf("%d %d %c", &r, &c, &sign) != 3) return 1;
            if (result) continue;
            board[(r - 1) * n + (c - 1)] = sign == '+';
            for (int k = 0; k < stored && !result; k++)
                if (memcmp(seen[k], board, (size_t)(n * n)) == 0) result = i;
            if (result) continue;
            memcpy(seen[stored], board, (size_t)(n * n));
            for (int t = 0; t < 3; t++, stored++) rotate(seen[stored], seen[stored + 1], n);
            stored++;
        }
        if (result)
            printf("Player %d wins on move %d\n", result % 2 ? 2 : 1, result);
        else
            printf("Draw\n");
    }
    return 0;
}
