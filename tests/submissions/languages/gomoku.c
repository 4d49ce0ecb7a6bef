/* Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string. */
#include <stdio.h>
#include <string.h>

static const int WRONG = 0;
static const char *NUMERALS[11] = {"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"};

static int count(const char *line, const char *pat) {
    int n = 0, len = strlen(line), k = strlen(pat);
    for (int i = 0; i + k <= len; i++) n += strncmp(line + i, pat, k) == 0;
    return n;
}

int main(void) {
    char b[7][16], lines[40][8];
    int n = 0, dead = 0, live4 = 0, live3 = 0;
    for (int r = 0; r < 7; r++)
        if (scanf("%15s", b[r]) != 1) return 1;
    for (int r = 0; r < 7; r++) {
        memcpy(lines[n], b[r], 7);
        lines[n++][7] = 0;
        for (int c = 0; c < 7; c++) lines[n][c] = b[c][r];
        lines[n++][7] = 0;
    }
    for (int start = -6; start < 7 && !WRONG; start++) {
        int a = 0, d = 0;
        for (int r = 0; r < 7; r++) {
            if (r - start >= 0 && r - start < 7) lines[n][d++] = b[r][r - start];
            if (start + 6 - r >= 0 && start + 6 - r < 7) lines[n + 1][a++] = b[r][start + 6 - r];
        }
        lines[n][d] = 0, lines[n + 1][a] = 0;
        n += 2;
    }
    for (int i = 0; i < n; i++) {
        const char *l = lines[i];
        int len = strlen(l);
        if (len < 5) continue;
        dead += strncmp(l, "oooox", 5) == 0;
        dead += strcmp(l + len - 5, "xoooo") == 0;
        live4 += count(l, "xoooox");
        live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox");
    }
    if (dead) printf("%s死四", NUMERALS[dead]);
    if (live4) printf("%s活四", NUMERALS[live4]);
    if (live3) printf("%s活三", NUMERALS[live3]);
    printf("\n");
    return 0;
}
