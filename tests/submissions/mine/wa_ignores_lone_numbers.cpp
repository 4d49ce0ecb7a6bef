// Mine, deliberately wrong: forgets the number cells that touch no blank region.
#include <cstdio>
#include <numeric>
#include <vector>
using namespace std;

static vector<int> parent;
static int find(int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int tc = 1; tc <= t; tc++) {
        int n, m, k;
        if (scanf("%d %d %d", &n, &m, &k) != 3) return 1;
        vector<char> mine((size_t)n * m, 0);
        vector<int> count((size_t)n * m, 0);
        for (int i = 0; i < k; i++) {
            int x, y;
            if (scanf("%d %d", &x, &y) != 2) return 1;
            mine[(size_t)x * m + y] = 1;
        }
        auto inside = [&](int r, int c) { return r >= 0 && r < n && c >= 0 && c < m; };
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++)
                if (mine[(size_t)r * m + c])
                    for (int dr = -1; dr <= 1; dr++)
                        for (int dc = -1; dc <= 1; dc++)
                            if (inside(r + dr, c + dc)) count[(size_t)(r + dr) * m + c + dc]++;
        auto blank = [&](size_t i) { return !mine[i] && count[i] == 0; };
        parent.assign((size_t)n * m, 0);
        iota(parent.begin(), parent.end(), 0);
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++) {
                size_t i = (size_t)r * m + c;
                if (!blank(i)) continue;
                const int dirs[4][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}};
                for (auto &d : dirs) {
                    int rr = r + d[0], cc = c + d[1];
                    if (inside(rr, cc) && blank((size_t)rr * m + cc))
                        parent[find((int)i)] = find(rr * m + cc);
                }
            }
        vector<int> border((size_t)n * m, 0);
        int value = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++) {
                size_t i = (size_t)r * m + c;
                if (mine[i] || count[i] == 0) continue;
                int owner = -1;
                for (int dr = -1; dr <= 1; dr++)
                    for (int dc = -1; dc <= 1; dc++)
                        if (inside(r + dr, c + dc) && blank((size_t)(r + dr) * m + c + dc))
                            owner = find((r + dr) * m + c + dc);
                if (owner >= 0) border[owner]++;
                // (an isolated number cell should count as a pile of value 1)
            }
        for (size_t i = 0; i < (size_t)n * m; i++)
            if (blank(i) && find((int)i) == (int)i) value ^= border[i] % 2 ? 2 : 1;
        printf("Case #%d: %s\n", tc, value ? "Xiemao" : "Fanglaoshi");
    }
}
