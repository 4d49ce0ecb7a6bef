#include "validate.h"

const char* answer_to(long guess, long secret) {
    if (guess == secret) return "correct";
    return guess < secret ? "higher" : "lower";
}
