// spot, WRONG on purpose: like the seed program it treats the empty starting board as
// already produced, so a game that returns to the empty board loses one move too early.
// Otherwise it follows the rules: a board equal to an earlier one up to rotation loses.
#include <iostream>
#include <set>
#include <string>
#include <vector>

using Board = std::vector<std::string>;

static Board rotate(const Board &b) {
    int n = static_cast<int>(b.size());
    Board r(n, std::string(n, '.'));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) r[j][n - 1 - i] = b[i][j];
    return r;
}

static std::string key(const Board &b) {
    std::string s;
    for (const auto &row : b) s += row;
    return s;
}

int main() {
    std::ios::sync_with_stdio(false);
    int n;
    while (std::cin >> n && n != 0) {
        Board board(n, std::string(n, '.'));
        std::set<std::string> seen = {key(board)};  // the bug: the empty board counts
        int decided = 0;
        for (int move = 1; move <= 2 * n; move++) {
            int r, c;
            char op;
            std::cin >> r >> c >> op;
            if (decided) continue;
            board[r - 1][c - 1] = op == '+' ? 'o' : '.';
            Board rot = board;
            bool repeat = false;
            for (int k = 0; k < 4 && !repeat; k++, rot = rotate(rot))
                repeat = seen.count(key(rot)) > 0;
            if (repeat)
                decided = move;
            else
                seen.insert(key(board));
        }
        if (decided)
            std::cout << "Player " << (decided % 2 ? 2 : 1) << " wins on move " << decided << "\n";
        else
            std::cout << "Draw\n";
    }
    return 0;
}
