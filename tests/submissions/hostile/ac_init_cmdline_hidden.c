/* Reads the command line of pid 1 (the sandbox's init, started with the judge's paths):
 * it must not be readable, or must not name the judge's run folders. */
#include <stdio.h>
#include <string.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    char text[8192];
    FILE *f = fopen("/proc/1/cmdline", "r");
    size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
    for (size_t i = 0; i < got; i++)
        if (!text[i]) text[i] = ' ';
    text[got] = 0;
    if (strstr(text, "gridjudge")) printf("init shows %s\n", text);
    else printf("%ld\n", n);
    return 0;
}
