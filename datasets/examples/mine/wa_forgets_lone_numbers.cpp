// mine, WRONG on purpose: the Sprague-Grundy sum of the blank regions is right, but the
// number cells that border no blank region (each a pile of value 1) are forgotten, so the
// answer flips whenever there is an odd number of them.
#include <cstdio>
#include <vector>

int main() {
    int cases;
    if (std::scanf("%d", &cases) != 1) return 1;
    for (int tc = 1; tc <= cases; tc++) {
        int n, m, k;
        if (std::scanf("%d %d %d", &n, &m, &k) != 3) return 1;
        std::vector<char> mine(static_cast<size_t>(n) * m, 0);
        for (int i = 0; i < k; i++) {
            int x, y;
            if (std::scanf("%d %d", &x, &y) != 2) return 1;
            mine[static_cast<size_t>(x) * m + y] = 1;
        }
        auto at = [m](int x, int y) { return static_cast<size_t>(x) * m + y; };
        std::vector<int> number(mine.size(), 0);
        for (int x = 0; x < n; x++)
            for (int y = 0; y < m; y++)
                for (int dx = -1; dx <= 1; dx++)
                    for (int dy = -1; dy <= 1; dy++) {
                        int a = x + dx, b = y + dy;
                        if ((dx || dy) && a >= 0 && a < n && b >= 0 && b < m && mine[at(a, b)])
                            number[at(x, y)]++;
                    }
        std::vector<int> region(mine.size(), -1), border_mark(mine.size(), -1);
        std::vector<size_t> stack;
        int regions = 0, grundy = 0;
        for (size_t start = 0; start < mine.size(); start++) {
            if (mine[start] || number[start] || region[start] >= 0) continue;
            int id = regions++, border = 0;
            region[start] = id;
            stack.assign(1, start);
            while (!stack.empty()) {
                size_t cell = stack.back();
                stack.pop_back();
                int x = static_cast<int>(cell / m), y = static_cast<int>(cell % m);
                for (int dx = -1; dx <= 1; dx++)
                    for (int dy = -1; dy <= 1; dy++) {
                        int a = x + dx, b = y + dy;
                        if (!(dx || dy) || a < 0 || a >= n || b < 0 || b >= m) continue;
                        size_t next = at(a, b);
                        if (mine[next]) continue;
                        if (number[next]) {
                            if (border_mark[next] != id) border_mark[next] = id, border++;
                        } else if (region[next] < 0) {
                            region[next] = id;
                            stack.push_back(next);
                        }
                    }
            }
            grundy ^= border % 2 ? 2 : 1;
        }
        // the bug: number cells with border_mark == -1 (no blank neighbour) are skipped
        std::printf("Case #%d: %s\n", tc, grundy ? "Xiemao" : "Fanglaoshi");
    }
    return 0;
}
