// Spot: a set of every produced board and its rotations, as strings.
#include <iostream>
#include <set>
#include <string>
using namespace std;

static string rotated(const string &b, int n) {
    string out(b.size(), '0');
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) out[c * n + (n - 1 - r)] = b[r * n + c];
    return out;
}

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
            if (seen.count(board)) {
                decided = i;
                continue;
            }
            string b = board;
            for (int t = 0; t < 4; t++, b = rotated(b, n)) seen.insert(b);
        }
        if (decided)
            cout << "Player " << (decided % 2 ? 2 : 1) << " wins on move " << decided << "\n";
        else
            cout << "Draw\n";
    }
}
