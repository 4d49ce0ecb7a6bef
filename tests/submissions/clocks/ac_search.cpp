// Clocks: depth-first over the counts of each move, stdin/stdout.
#include <iostream>
#include <string>
using namespace std;

static const string moves[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};
static int clk[9], cnt[9], best[9], bestTotal = 100;

static void search(int m, int total) {
    if (m == 9) {
        for (int i = 0; i < 9; i++)
            if (clk[i] % 4) return;
        if (total < bestTotal) {
            bestTotal = total;
            for (int i = 0; i < 9; i++) best[i] = cnt[i];
        }
        return;
    }
    for (int k = 0; k < 4; k++) {
        cnt[m] = k;
        search(m + 1, total + k);
        for (char ch : moves[m]) clk[ch - 'A']++;
    }
    for (char ch : moves[m]) clk[ch - 'A'] -= 4;
}

int main() {
    for (int i = 0; i < 9; i++) {
        cin >> clk[i];
        clk[i] = clk[i] / 3 % 4;
    }
    search(0, 0);
    string out;
    for (int m = 0; m < 9; m++)
        for (int k = 0; k < best[m]; k++) out += (out.empty() ? "" : " ") + to_string(m + 1);
    cout << out << "\n";
}
