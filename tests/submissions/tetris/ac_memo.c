/* Tetris (2x2 squares): memoised win/lose over bitmasks of free cells, with an
 * open-addressing hash table. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE (1u << 22)
static uint64_t keys[TABLE];
static unsigned char vals[TABLE]; /* 0 empty, 1 lose, 2 win */
static uint64_t squares[64];
static int nsq;

static size_t slot_of(uint64_t key) {
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 42) & (TABLE - 1);
    while (vals[h] && keys[h] != key) h = (h + 1) & (TABLE - 1);
    return h;
}

static int wins(uint64_t free_cells) {
    size_t h = slot_of(free_cells);
    if (vals[h]) return vals[h] == 2;
    int win = 0;
    for (int i = 0; i < nsq && !win; i++)
        if ((free_cells & squares[i]) == squares[i] && !wins(free_cells & ~squares[i])) win = 1;
    h = slot_of(free_cells); /* the table may have changed meanwhile */
    keys[h] = free_cells;
    vals[h] = (unsigned char)(win ? 2 : 1);
    return win;
}

int main(void) {
    int n, m;
    char row[64];
    while (scanf("%d %d", &n, &m) == 2) {
        uint64_t free_cells = 0;
        for (int r = 0; r < n; r++) {
            if (scanf("%63s", row) != 1) return 1;
            for (int c = 0; c < m; c++)
                if (row[c] == '0') free_cells |= 1ull << (r * m + c);
        }
        memset(vals, 0, sizeof vals);
        nsq = 0;
        for (int r = 0; r + 1 < n; r++)
            for (int c = 0; c + 1 < m; c++) {
                uint64_t sq = (1ull << (r * m + c)) | (1ull << (r * m + c + 1)) |
                              (1ull << ((r + 1) * m + c)) | (1ull << ((r + 1) * m + c + 1));
                if ((free_cells & sq) == sq) squares[nsq++] = sq;
            }
        puts(wins(free_cells) ? "Yes" : "No");
    }
    return 0;
}
