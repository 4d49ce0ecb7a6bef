/* Echoes its whole stdin to stdout and stderr, then spoils all three files for whoever
 * uses them next: more bytes into its stdin (open for writing too), every offset moved
 * far on, stdin grown. The next case must see its own input alone and report its own
 * output alone. */
#include <unistd.h>

static char buf[1 << 20];

int main(void) {
    size_t have = 0;
    ssize_t n;
    while (have < sizeof buf && (n = read(0, buf + have, sizeof buf - have)) > 0) have += n;
    if (write(1, buf, have) != (ssize_t)have || write(2, buf, have) != (ssize_t)have) return 2;
    if (write(0, "LEAK\n", 5) != 5) {} /* where stdin cannot be written: the rest still */
    for (int fd = 0; fd < 3; fd++) lseek(fd, 1 << 16, SEEK_CUR);
    if (ftruncate(0, 1 << 18) != 0) {}
    return 0;
}
