/* Writes without end and reads nothing: the exchange's output limit must cut it. */
#include <string.h>
#include <unistd.h>

int main(void) {
    char line[4096];
    memset(line, '7', sizeof line);
    line[sizeof line - 1] = '\n';
    for (;;)
        if (write(1, line, sizeof line) < 0) return 1;
}
