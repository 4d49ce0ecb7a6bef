// Clocks: every count 0..3 of the nine moves (4^9); reads clocks.in, writes clocks.out.
#include <fstream>
#include <string>
#include <vector>

const bool WRONG = false;

int main() {
    const char *names[9] = {"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"};
    std::ifstream in("clocks.in");
    std::ofstream out("clocks.out");
    int clock[9];
    std::vector<int> by[9];
    for (int i = 0; i < 9; i++) {
        in >> clock[i];
        clock[i] = clock[i] / 3 % 4;
    }
    for (int m = 0; m < 9; m++)
        for (const char *p = names[m]; *p; p++) by[*p - 'A'].push_back(m);
    int best = 0, best_total = 100;
    for (int code = 0; code < 1 << 18; code++) {
        int count[9], total = 0;
        bool ok = true;
        for (int m = 0; m < 9; m++) total += count[m] = code >> (2 * m) & 3;
        for (int i = 0; i < 9 && ok; i++) {
            int s = clock[i];
            for (size_t j = 0; j < by[i].size(); j++) s += count[by[i][j]];
            ok = s % 4 == 0;
        }
        if (ok && total < best_total) best = code, best_total = total;
    }
    std::vector<int> moves;
    for (int m = 0; m < 9; m++)
        for (int k = 0; k < (best >> (2 * m) & 3); k++) moves.push_back(m + 1);
    for (size_t i = 0; i < moves.size(); i++)
        out << (i ? " " : "") << moves[WRONG ? moves.size() - 1 - i : i];
    out << "\n";
    return 0;
}
