// Tetris (2x2 squares): the first player wins iff some placement leads to a losing
// position; positions are bitmasks of the still-free cells, memoised.
#include <cstdint>
#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>
using namespace std;

static vector<uint64_t> squares;
static unordered_map<uint64_t, bool> memo;

static bool wins(uint64_t free_cells) {
    auto it = memo.find(free_cells);
    if (it != memo.end()) return it->second;
    bool win = false;
    for (uint64_t sq : squares)
        if ((free_cells & sq) == sq && !wins(free_cells & ~sq)) {
            win = true;
            break;
        }
    memo[free_cells] = win;
    return win;
}

int main() {
    int n, m;
    while (cin >> n >> m) {
        vector<string> rows(n);
        for (auto &row : rows) cin >> row;
        uint64_t free_cells = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++)
                if (rows[r][c] == '0') free_cells |= 1ULL << (r * m + c);
        squares.clear();
        memo.clear();
        for (int r = 0; r + 1 < n; r++)
            for (int c = 0; c + 1 < m; c++) {
                uint64_t sq = (1ULL << (r * m + c)) | (1ULL << (r * m + c + 1)) |
                              (1ULL << ((r + 1) * m + c)) | (1ULL << ((r + 1) * m + c + 1));
                if ((free_cells & sq) == sq) squares.push_back(sq);
            }
        cout << (wins(free_cells) ? "Yes" : "No") << "\n";
    }
}
