// The interactor's rules, kept apart from its main: the folder is one program, its
// sources compiled together with this header beside them.
#pragma once

const long LOWEST = 1, HIGHEST = 1000;
const int MOST_GUESSES = 10;

// "correct", "higher" or "lower": what the interactor answers to a guess
const char* answer_to(long guess, long secret);
