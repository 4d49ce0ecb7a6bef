// Gomoku patterns: collect every line of length >= 5, count pattern occurrences.
#include <iostream>
#include <string>
#include <vector>
using namespace std;

static int occurrences(const string &line, const string &pat) {
    int k = 0;
    for (size_t i = 0; i + pat.size() <= line.size(); i++) k += line.compare(i, pat.size(), pat) == 0;
    return k;
}

int main() {
    vector<string> b(7);
    for (auto &row : b) cin >> row;
    vector<string> lines(b.begin(), b.end());
    for (int c = 0; c < 7; c++) {
        string col;
        for (int r = 0; r < 7; r++) col += b[r][c];
        lines.push_back(col);
    }
    for (int s = -6; s <= 6; s++) {
        string down, anti;
        for (int r = 0; r < 7; r++) {
            if (r - s >= 0 && r - s < 7) down += b[r][r - s];
            if (s + 6 - r >= 0 && s + 6 - r < 7) anti += b[r][s + 6 - r];
        }
        lines.push_back(down);
        lines.push_back(anti);
    }
    int dead = 0, live4 = 0, live3 = 0;
    for (const string &l : lines) {
        if (l.size() < 5) continue;
        dead += l.compare(0, 5, "oooox") == 0;
        dead += l.compare(l.size() - 5, 5, "xoooo") == 0;
        live4 += occurrences(l, "xoooox");
        live3 += occurrences(l, "xooox") + occurrences(l, "xoxoox") + occurrences(l, "xooxox");
    }
    const char *numerals[] = {"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"};
    string out;
    if (dead) out += string(numerals[dead]) + "死四";
    if (live4) out += string(numerals[live4]) + "活四";
    if (live3) out += string(numerals[live3]) + "活三";
    cout << out << "\n";
}
