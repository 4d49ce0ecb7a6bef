/* Builds a directory chain 5000 levels deep (deeper than Python's recursion limit and
 * the fd limit), odd names and an unreadable directory, in its scratch dir and in /tmp,
 * and leaves them: the judge must remove them all, and a later run (or fork-server
 * case) must see none of it. Prints N unless it finds a tree a previous run left. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEPTH 5000
#define MARK "gj_deep_tree"

static void chain(const char *where) {
    int fd = open(where, O_RDONLY | O_DIRECTORY);
    if (fd < 0 || mkdirat(fd, MARK, 0755) != 0) return;
    int top = openat(fd, MARK, O_RDONLY | O_DIRECTORY);
    close(fd);
    fd = top;
    for (int level = 0; fd >= 0 && level < DEPTH; level++) {
        if (level % 500 == 0) {
            const char *odd[] = {"-rf", "..x", "a\nb", " ", "\x01\xff"};
            for (int k = 0; k < 5; k++) close(openat(fd, odd[k], O_WRONLY | O_CREAT, 0644));
            mkdirat(fd, "locked", 0755);
            int locked = openat(fd, "locked", O_RDONLY | O_DIRECTORY);
            close(openat(locked, "inside", O_WRONLY | O_CREAT, 0644));
            fchmod(locked, 0);
            close(locked);
        }
        if (mkdirat(fd, "d", 0755) != 0) break;
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = sub;
    }
    if (fd >= 0) close(fd);
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    if (access("/tmp/" MARK, F_OK) == 0 || access(MARK, F_OK) == 0) {
        puts("a previous run left its tree");
        return 0;
    }
    chain(".");
    chain("/tmp");
    printf("%ld\n", n);
    return 0;
}
