// Clocks, deliberately wrong: prints 0 when every clock already shows 12.
#include <iostream>
#include <string>
using namespace std;

static const string moves[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};

int main() {
    int clk[9];
    for (int &c : clk) {
        cin >> c;
        c = c / 3 % 4;
    }
    for (int code = 0; code < (1 << 18); code++) {
        int turns[9] = {0};
        for (int m = 0; m < 9; m++)
            for (char ch : moves[m]) turns[ch - 'A'] += (code >> (2 * m)) & 3;
        bool ok = true;
        for (int i = 0; i < 9; i++) ok = ok && (clk[i] + turns[i]) % 4 == 0;
        if (!ok) continue;
        string out;
        for (int m = 0; m < 9; m++)
            for (int k = 0; k < ((code >> (2 * m)) & 3); k++) out += (out.empty() ? "" : " ") + to_string(m + 1);
        cout << (out.empty() ? "0" : out) << "\n";
        return 0;
    }
}
