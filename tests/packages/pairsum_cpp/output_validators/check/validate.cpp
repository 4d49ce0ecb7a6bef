// Kattis protocol: validate input answer feedback_dir < team_output; 42 AC, 43 WA.
#include <fstream>
#include <iostream>
#include <string>

static int reject(const std::string& dir, const std::string& why) {
    std::ofstream(dir + "/judgemessage.txt") << why << "\n";
    return 43;
}

int main(int argc, char** argv) {
    if (argc < 4) return 1;
    long long n = 0, a = 0, b = 0;
    std::ifstream(argv[1]) >> n;
    std::string dir = argv[3];
    if (!(std::cin >> a >> b)) return reject(dir, "expected two integers");
    std::string extra;
    if (std::cin >> extra) return reject(dir, "extra output: " + extra);
    if (a < 0 || b < 0) return reject(dir, "negative number");
    if (a + b != n) return reject(dir, "sum is " + std::to_string(a + b) + ", not " + std::to_string(n));
    return 42;
}
