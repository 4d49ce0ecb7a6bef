#include "grader.h"

long long answer(long long n) { return 2 * n; }
