// tetris, right answers but SLOW on purpose: plain game-tree backtracking with no
// memoisation that also counts every winning move instead of stopping at the first one,
// exponential on boards with many free cells, and each board searched twice: its slow
// 40-zero boards take over 1.5x the 1 s limit (a time_limit_exceeded submission of a
// package must exceed the limit by the format's margin), its other boards stay under it.
#include <iostream>
#include <string>
#include <vector>

static int rows, cols;
static std::vector<std::string> grid;

static bool fits(int r, int c) {
    return grid[r][c] == '0' && grid[r][c + 1] == '0' && grid[r + 1][c] == '0' &&
           grid[r + 1][c + 1] == '0';
}

static void put(int r, int c, char v) {
    grid[r][c] = grid[r][c + 1] = grid[r + 1][c] = grid[r + 1][c + 1] = v;
}

// true when the player to move wins
static bool wins() {
    int winning = 0;
    for (int r = 0; r + 1 < rows; r++)
        for (int c = 0; c + 1 < cols; c++) {
            if (!fits(r, c)) continue;
            put(r, c, '1');
            bool opponent = wins();
            put(r, c, '0');
            if (!opponent) winning++;
        }
    return winning > 0;
}

int main() {
    while (std::cin >> rows >> cols) {
        grid.assign(rows, "");
        for (auto &row : grid) std::cin >> row;
        bool first = wins();
        std::cout << (wins() && first ? "Yes" : "No") << "\n";
    }
    return 0;
}
