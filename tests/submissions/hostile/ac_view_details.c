/* What the view must not show: device nodes beyond the harmless ones (/dev/fuse,
 * /dev/net/tun), the judge's cgroups, a judge-made corpus under /opt in a folder the
 * judge hides (the test creates /opt/gj_corpus_N/answer.ans, mode 0644, and hides the
 * folder). Prints N only when none of it is there. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    const char *devices[] = {"/dev/fuse", "/dev/net/tun", "/dev/kmsg", "/dev/mem", NULL};
    for (int i = 0; devices[i]; i++)
        if (access(devices[i], F_OK) == 0) {
            printf("%s is there\n", devices[i]);
            return 0;
        }
    DIR *cg = opendir("/sys/fs/cgroup");
    struct dirent *e;
    while (cg && (e = readdir(cg)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            printf("/sys/fs/cgroup shows %s\n", e->d_name);
            return 0;
        }
    char corpus[128], text[64] = "";
    snprintf(corpus, sizeof corpus, "/opt/gj_corpus_%ld/answer.ans", n);
    FILE *f = fopen(corpus, "r");
    if (f && fgets(text, sizeof text, f)) {
        printf("read the corpus: %s", text);
        return 0;
    }
    printf("%ld\n", n);
    return 0;
}
