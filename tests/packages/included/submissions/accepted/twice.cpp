#include "grader.h"

long long answer(long long n) { return n + n; }
