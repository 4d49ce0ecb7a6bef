// a grader of the submission's own: the package's grader.cpp replaces it
#include <iostream>

int main() { std::cout << 0 << "\n"; }
