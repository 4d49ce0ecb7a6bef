/* Gomoku patterns: every row, column and diagonal of length >= 5 as a string. */
#include <stdio.h>
#include <string.h>

static const char *numerals[] = {"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"};
static int dead, live4, live3;

static int occurrences(const char *line, const char *pat) {
    int n = (int)strlen(line), m = (int)strlen(pat), k = 0;
    for (int i = 0; i + m <= n; i++) k += strncmp(line + i, pat, (size_t)m) == 0;
    return k;
}

static void scan(const char *line) {
    int n = (int)strlen(line);
    if (n < 5) return;
    dead += strncmp(line, "oooox", 5) == 0;
    dead += strcmp(line + n - 5, "xoooo") == 0;
    live4 += occurrences(line, "xoooox");
    live3 += occurrences(line, "xooox") + occurrences(line, "xoxoox") + occurrences(line, "xooxox");
}

int main(void) {
    char b[7][16];
    for (int r = 0; r < 7; r++)
        if (scanf("%15s", b[r]) != 1) return 1;
    char line[8];
    for (int i = 0; i < 7; i++) {
        scan(b[i]);
        for (int r = 0; r < 7; r++) line[r] = b[r][i];
        line[7] = 0;
        scan(line);
    }
    for (int s = -6; s <= 6; s++) {
        int k = 0, j = 0;
        for (int r = 0; r < 7; r++) {
            int c = r - s;
            if (c >= 0 && c < 7) line[k++] = b[r][c];
        }
        line[k] = 0;
        scan(line);
        for (int r = 0; r < 7; r++) {
            int c = s + 6 - r;
            if (c >= 0 && c < 7) line[j++] = b[r][c];
        }
        line[j] = 0;
        scan(line);
    }
    if (dead) printf("%s死四", numerals[dead]);
    if (live4) printf("%s活四", numerals[live4]);
    if (live3) printf("%s活三", numerals[live3]);
    printf("\n");
    return 0;
}
