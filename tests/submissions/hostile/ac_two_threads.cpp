// An honest C++ program splitting its work over std::threads with default stacks.
#include <iostream>
#include <thread>
#include <vector>

int main() {
    long n;
    if (!(std::cin >> n)) return 1;
    std::vector<long> part(2, 0);
    std::vector<std::thread> threads;
    for (int k = 0; k < 2; k++)
        threads.emplace_back([&part, k, n] { part[k] = k == 0 ? n / 2 : n - n / 2; });
    for (auto &t : threads) t.join();
    std::cout << part[0] + part[1] << "\n";
    return 0;
}
