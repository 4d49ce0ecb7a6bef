// mine (HDU 4678), input validator written for `gridjudge export`: the plugin's validator
// needs numpy and scipy, which a judge's Python may lack. The rules of solvers/mine
// (io.py, tokens.py, check.py): only ASCII digits, '-' starting a number, and blanks
// (space, tab, CR, LF); numbers of at most 18 digits; T in 1..50; per case N, M in
// 1..1000, K in 0..N*M, K distinct mines inside the board; nothing after the last case;
// no number cell borders two different blank regions. Exit 42 valid, 43 invalid.
#include <cstdio>
#include <string>
#include <vector>

static int invalid(const std::string &why) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 43;
}

static bool blank(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }
static bool digit(int ch) { return ch >= '0' && ch <= '9'; }

// the numbers of the input, or an error message
static std::string tokens(const std::string &text, std::vector<long long> &out) {
    size_t i = 0, size = text.size();
    while (i < size) {
        int ch = (unsigned char)text[i];
        if (blank(ch)) { i++; continue; }
        bool negative = ch == '-';
        size_t start = i + (negative ? 1 : 0), j = start;
        while (j < size && digit((unsigned char)text[j])) j++;
        if (j < size && !blank((unsigned char)text[j])) {
            int bad = (unsigned char)text[j];
            if (bad >= 128) return "non-ASCII character";
            return bad == '-' ? "misplaced '-'" : "unexpected character";
        }
        if (j == start) return negative ? "misplaced '-'" : "unexpected character";
        if (j - start > 18) return "number too long";
        long long v = 0;
        for (size_t d = start; d < j; d++) v = v * 10 + (text[d] - '0');
        out.push_back(negative ? -v : v);
        i = j;
    }
    return "";
}

struct Case {
    long long n, m;
    std::vector<long long> xs, ys;
};

static std::string guarantee(const Case &c) {
    int n = (int)c.n, m = (int)c.m;
    std::vector<char> mine((size_t)n * m, 0);
    for (size_t i = 0; i < c.xs.size(); i++) {
        size_t s = (size_t)c.xs[i] * m + c.ys[i];
        if (mine[s]) return "a mine is listed twice";
        mine[s] = 1;
    }
    std::vector<int> count((size_t)n * m, 0);
    for (int r = 0; r < n; r++)
        for (int q = 0; q < m; q++)
            if (mine[(size_t)r * m + q])
                for (int dr = -1; dr <= 1; dr++)
                    for (int dq = -1; dq <= 1; dq++) {
                        int rr = r + dr, qq = q + dq;
                        if (rr >= 0 && rr < n && qq >= 0 && qq < m) count[(size_t)rr * m + qq]++;
                    }
    std::vector<int> label((size_t)n * m, 0), stack;
    int regions = 0;
    for (size_t s = 0; s < (size_t)n * m; s++) {
        if (count[s] || label[s]) continue;
        label[s] = ++regions;
        stack.assign(1, (int)s);
        while (!stack.empty()) {
            int cell = stack.back();
            stack.pop_back();
            int r = cell / m, q = cell % m;
            for (int dr = -1; dr <= 1; dr++)
                for (int dq = -1; dq <= 1; dq++) {
                    int rr = r + dr, qq = q + dq;
                    if (rr < 0 || rr >= n || qq < 0 || qq >= m) continue;
                    size_t nb = (size_t)rr * m + qq;
                    if (!count[nb] && !label[nb]) {
                        label[nb] = regions;
                        stack.push_back((int)nb);
                    }
                }
        }
    }
    for (int r = 0; r < n; r++)
        for (int q = 0; q < m; q++) {
            size_t s = (size_t)r * m + q;
            if (mine[s] || !count[s]) continue;
            int seen = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dq = -1; dq <= 1; dq++) {
                    int rr = r + dr, qq = q + dq;
                    if (rr < 0 || rr >= n || qq < 0 || qq >= m) continue;
                    int l = label[(size_t)rr * m + qq];
                    if (l && seen && l != seen)
                        return "number cell (" + std::to_string(r) + "," + std::to_string(q) +
                               ") borders two blank regions";
                    if (l) seen = l;
                }
        }
    return "";
}

int main() {
    std::string text;
    char buffer[1 << 16];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) text.append(buffer, got);
    std::vector<long long> tok;
    std::string error = tokens(text, tok);
    if (!error.empty()) return invalid(error);
    if (tok.empty()) return invalid("empty input: expected T");
    long long t = tok[0];
    if (t < 1 || t > 50) return invalid("T out of range 1..50");
    std::vector<Case> cases;
    size_t pos = 1;
    for (long long c = 1; c <= t; c++) {
        std::string where = "case " + std::to_string(c) + ": ";
        if (pos + 3 > tok.size()) return invalid(where + "missing `N M K`");
        Case cs{tok[pos], tok[pos + 1], {}, {}};
        long long k = tok[pos + 2];
        if (cs.n < 1 || cs.n > 1000 || cs.m < 1 || cs.m > 1000)
            return invalid(where + "N and M must be in 1..1000");
        if (k < 0 || k > cs.n * cs.m) return invalid(where + "K out of range 0..N*M");
        pos += 3;
        if ((long long)(tok.size() - pos) < 2 * k) return invalid(where + "too few mine lines");
        for (long long i = 0; i < k; i++, pos += 2) {
            cs.xs.push_back(tok[pos]);
            cs.ys.push_back(tok[pos + 1]);
        }
        cases.push_back(cs);
    }
    if (pos != tok.size()) return invalid("extra numbers after the last case");
    int status = 42;
    for (size_t c = 0; c < cases.size(); c++)
        for (size_t i = 0; i < cases[c].xs.size(); i++)
            if (cases[c].xs[i] < 0 || cases[c].xs[i] >= cases[c].n || cases[c].ys[i] < 0 ||
                cases[c].ys[i] >= cases[c].m) {
                status = invalid("case " + std::to_string(c + 1) + ": a mine is outside the board");
                break;
            }
    if (status != 42) return status;
    for (size_t c = 0; c < cases.size(); c++) {
        std::string why = guarantee(cases[c]);
        if (!why.empty()) status = invalid("case " + std::to_string(c + 1) + ": " + why);
    }
    return status;
}
