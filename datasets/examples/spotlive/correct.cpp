// spotlive: plays the game move by move, keeping every board produced (as a bit string,
// with its four rotations) and answering after each move.
#include <cstdio>
#include <set>
#include <string>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    std::string board(n * n, '0');
    std::set<std::string> seen;
    for (int move = 1; move <= 2 * n; ++move) {
        int r, c;
        char sign;
        if (scanf("%d %d %c", &r, &c, &sign) != 3) return 0;
        board[(r - 1) * n + (c - 1)] = sign == '+' ? '1' : '0';
        if (seen.count(board)) {
            printf("Player %d wins on move %d\n", move % 2 ? 2 : 1, move);
            fflush(stdout);
            return 0;
        }
        std::string turned = board;
        for (int k = 0; k < 4; ++k) {
            seen.insert(turned);
            std::string next(n * n, '0');
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) next[j * n + (n - 1 - i)] = turned[i * n + j];
            turned = next;
        }
        puts(move == 2 * n ? "Draw" : "continue");
        fflush(stdout);
    }
    return 0;
}
