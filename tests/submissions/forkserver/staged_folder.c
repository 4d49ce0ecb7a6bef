/* A served program with staged files (as an output validator is): it must be able to
 * write its feedback into its own folder, and nothing else of the server's box: not
 * beside its folder, not the server's files, not a folder for a later case; and it must
 * see no other case's folder. Prints N when all of that holds, else the hole. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int hole(const char *what) {
    printf("hole: %s\n", what);
    return 0;
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    char here[4096], staged[64] = "";
    if (!getcwd(here, sizeof here)) return 2;
    FILE *in = fopen("input", "r");
    if (!in || !fgets(staged, sizeof staged, in)) return hole("no staged input");
    fclose(in);
    /* its own folder: writable (the feedback), and fresh (nothing of an earlier case) */
    if (access("leftover", F_OK) == 0) return hole("an earlier case's file in my folder");
    FILE *feedback = fopen("judgemessage.txt", "w");
    if (!feedback) return hole("cannot write my feedback");
    fprintf(feedback, "case %ld saw %s", n, staged);
    fclose(feedback);
    FILE *left = fopen("leftover", "w");
    if (left) fclose(left);
    /* the box around it: read-only */
    if (open("/tmp/box/planted", O_WRONLY | O_CREAT, 0644) >= 0) return hole("wrote into the box");
    if (open("../planted", O_WRONLY | O_CREAT, 0644) >= 0) return hole("wrote beside my folder");
    if (mkdir("/tmp/box/c999999", 0777) == 0) return hole("made a folder for a later case");
    int lib = open("/tmp/box/.gridjudge-fork.so", O_WRONLY | O_APPEND);
    if (lib >= 0) return hole("opened the server's library for writing");
    if (chmod("/tmp/box/.gridjudge-fork.so", 0777) == 0) return hole("chmod the server's library");
    if (rename("/tmp/box/.gridjudge-fork.so", "/tmp/box/moved") == 0)
        return hole("renamed the server's library");
    if (link("/tmp/box/.gridjudge-fork.so", "mine.so") == 0) return hole("linked the library in");
    /* no other case's folder in sight */
    const char *mine = strrchr(here, '/') + 1;
    DIR *box = opendir("/tmp/box");
    if (!box) return hole("cannot list the box");
    struct dirent *e;
    while ((e = readdir(box)) != NULL)
        if (e->d_type == DT_DIR && e->d_name[0] != '.' && strcmp(e->d_name, mine) != 0) {
            closedir(box);
            return hole("another case's folder");
        }
    closedir(box);
    printf("%ld\n", n);
    return 0;
}
