// validate input answer feedback_dir: plays one game with the submission on
// stdin/stdout; exit 42 when it finds the secret within MOST_GUESSES, else 43.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include <validate.h>  // found through the folder on the include path

int main(int argc, char** argv) {
    if (argc < 4) return 1;
    long secret = 0;
    std::ifstream(argv[1]) >> secret;
    std::string path = std::string(argv[3]) + "judgemessage.txt";
    FILE* log = std::fopen(path.c_str(), "w");
    for (int guesses = 1; guesses <= MOST_GUESSES; ++guesses) {
        long guess;
        if (!(std::cin >> guess)) {
            std::fprintf(log, "no guess after %d\n", guesses - 1);
            return 43;
        }
        const char* said = answer_to(guess, secret);
        std::cout << said << std::endl;
        if (std::strcmp(said, "correct") == 0) {
            std::fprintf(log, "found in %d guesses\n", guesses);
            return 42;
        }
    }
    std::fprintf(log, "more than %d guesses\n", MOST_GUESSES);
    return 43;
}
