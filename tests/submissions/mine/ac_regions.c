/* Mine: label the 8-connected blank regions; a region with b bordering numbers is a
 * pile of Grundy value 1 (b even) or 2 (b odd); a number touching no blank is 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int tc = 1; tc <= t; tc++) {
        int n, m, k;
        if (scanf("%d %d %d", &n, &m, &k) != 3) return 1;
        size_t cells = (size_t)n * m;
        char *mine = calloc(cells, 1);
        int *count = calloc(cells, sizeof(int)), *region = malloc(cells * sizeof(int));
        int *queue = malloc(cells * sizeof(int));
        for (int i = 0; i < k; i++) {
            int x, y;
            if (scanf("%d %d", &x, &y) != 2) return 1;
            mine[(size_t)x * m + y] = 1;
        }
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++) {
                if (!mine[(size_t)r * m + c]) continue;
                for (int dr = -1; dr <= 1; dr++)
                    for (int dc = -1; dc <= 1; dc++) {
                        int rr = r + dr, cc = c + dc;
                        if (rr >= 0 && rr < n && cc >= 0 && cc < m) count[(size_t)rr * m + cc]++;
                    }
            }
        for (size_t i = 0; i < cells; i++) region[i] = -1;
        int regions = 0;
        for (size_t s = 0; s < cells; s++) {
            if (mine[s] || count[s] || region[s] >= 0) continue;
            size_t head = 0, tail = 0;
            queue[tail++] = (int)s;
            region[s] = regions;
            while (head < tail) {
                int cur = queue[head++], r = cur / m, c = cur % m;
                for (int dr = -1; dr <= 1; dr++)
                    for (int dc = -1; dc <= 1; dc++) {
                        int rr = r + dr, cc = c + dc;
                        if (rr < 0 || rr >= n || cc < 0 || cc >= m) continue;
                        size_t j = (size_t)rr * m + cc;
                        if (mine[j] || count[j] || region[j] >= 0) continue;
                        region[j] = regions;
                        queue[tail++] = (int)j;
                    }
            }
            regions++;
        }
        int *border = calloc((size_t)regions + 1, sizeof(int));
        int value = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++) {
                size_t i = (size_t)r * m + c;
                if (mine[i] || !count[i]) continue;
                int owner = -1;
                for (int dr = -1; dr <= 1 && owner < 0; dr++)
                    for (int dc = -1; dc <= 1 && owner < 0; dc++) {
                        int rr = r + dr, cc = c + dc;
                        if (rr < 0 || rr >= n || cc < 0 || cc >= m) continue;
                        size_t j = (size_t)rr * m + cc;
                        if (!mine[j] && !count[j]) owner = region[j];
                    }
                if (owner >= 0) border[owner]++;
                else value ^= 1;
            }
        for (int g = 0; g < regions; g++) value ^= border[g] % 2 ? 2 : 1;
        printf("Case #%d: %s\n", tc, value ? "Xiemao" : "Fanglaoshi");
        free(mine), free(count), free(region), free(queue), free(border);
    }
    return 0;
}
