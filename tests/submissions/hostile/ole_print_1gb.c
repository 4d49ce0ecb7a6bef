#include <stdio.h>
#include <string.h>

int main(void) {
    static char line[1 << 16];
    memset(line, 'x', sizeof line);
    for (int i = 0; i < (1 << 14); i++) fwrite(line, 1, sizeof line, stdout); /* 1 GiB */
    return 0;
}
