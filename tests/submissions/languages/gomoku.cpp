// Gomoku patterns: every row, column and diagonal of length >= 5 scanned as a string.
#include <iostream>
#include <string>
#include <vector>

const bool WRONG = false;

static int count(const std::string &line, const std::string &pat) {
    int n = 0;
    for (size_t i = 0; i + pat.size() <= line.size(); i++) n += line.compare(i, pat.size(), pat) == 0;
    return n;
}

int main() {
    const char *numerals[11] = {"", "", "雙", "參", "肆", "伍", "陸", "柒", "捌", "玖", "拾"};
    std::vector<std::string> b(7), lines;
    for (int r = 0; r < 7; r++) std::cin >> b[r];
    for (int r = 0; r < 7; r++) {
        lines.push_back(b[r]);
        std::string col;
        for (int c = 0; c < 7; c++) col += b[c][r];
        lines.push_back(col);
    }
    for (int start = -6; start < 7 && !WRONG; start++) {
        std::string down, anti;
        for (int r = 0; r < 7; r++) {
            if (r - start >= 0 && r - start < 7) down += b[r][r - start];
            if (start + 6 - r >= 0 && start + 6 - r < 7) anti += b[r][start + 6 - r];
        }
        lines.push_back(down);
        lines.push_back(anti);
    }
    int dead = 0, live4 = 0, live3 = 0;
    for (size_t i = 0; i < lines.size(); i++) {
        const std::string &l = lines[i];
        if (l.size() < 5) continue;
        dead += l.compare(0, 5, "oooox") == 0;
        dead += l.compare(l.size() - 5, 5, "xoooo") == 0;
        live4 += count(l, "xoooox");
        live3 += count(l, "xooox") + count(l, "xoxoox") + count(l, "xooxox");
    }
    if (dead) std::cout << numerals[dead] << "死四";
    if (live4) std::cout << numerals[live4] << "活四";
    if (live3) std::cout << numerals[live3] << "活三";
    std::cout << "\n";
    return 0;
}
