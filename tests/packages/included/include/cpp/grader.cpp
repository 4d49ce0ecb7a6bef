#include <iostream>
#include "grader.h"

int main() {
    long long n;
    std::cin >> n;
    std::cout << answer(n) << "\n";
}
