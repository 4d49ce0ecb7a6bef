// The Spot Game (UVa 141), for bench/throughput.py: reads games until `0` and prints one
// verdict line per game. A move loses when the board it produces equals a board produced
// earlier in the game, or a 90/180/270 degree rotation of one (not mirror images; the empty
// start does not count). Boards are kept as strings of N*N cells in a hash set.
#include <cstdio>
#include <string>
#include <unordered_set>

static std::string rotate(const std::string& b, int n) {
    std::string r(b.size(), '0');
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) r[j * n + (n - 1 - i)] = b[i * n + j];
    return r;
}

int main() {
    int n;
    while (std::scanf("%d", &n) == 1 && n > 0) {
        std::string board(n * n, '0');
        std::unordered_set<std::string> seen;
        int lost_at = 0;
        for (int move = 1; move <= 2 * n; ++move) {
            int r, c;
            char op;
            if (std::scanf("%d %d %c", &r, &c, &op) != 3) return 1;
            if (lost_at) continue;
            board[(r - 1) * n + (c - 1)] = op == '+' ? '1' : '0';
            std::string rot = board;
            bool repeat = false;
            for (int k = 0; k < 4 && !repeat; ++k) {
                if (seen.count(rot)) repeat = true;
                rot = rotate(rot, n);
            }
            if (repeat) lost_at = move;
            else seen.insert(board);
        }
        if (lost_at) std::printf("Player %d wins on move %d\n", lost_at % 2 ? 2 : 1, lost_at);
        else std::printf("Draw\n");
    }
    return 0;
}
