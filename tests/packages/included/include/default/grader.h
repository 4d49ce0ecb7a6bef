/* The function a submission writes; the grader reads the input and prints its value. */
long long answer(long long n);
