// Spot, deliberately wrong: only identical repeats count, rotations are ignored.
#include <iostream>
#include <set>
#include <string>
using namespace std;

int main() {
    int n;
    while (cin >> n && n != 0) {
        string board(n * n, '0');
        set<string> seen;
        int decided = 0;
        for (int i = 1; i <= 2 * n; i++) {
            int r, c;
            char sign;
            cin >> r >> c >> sign;
            if (decided) continue;
            board[(r - 1) * n + (c - 1)] = sign == '+' ? '1' : '0';
            if (!seen.insert(board).second) decided = i;
        }
        if (decided)
            cout << "Player " << (decided % 2 ? 2 : 1) << " wins on move " << decided << "\n";
        else
            cout << "Draw\n";
    }
}
