/* On an odd N, kills every other process it can see, its fork server included: that
 * case must be a runtime error and the next case must get a new server. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    if (n % 2) {
        DIR *proc = opendir("/proc");
        struct dirent *e;
        while (proc && (e = readdir(proc)) != NULL) {
            int pid = atoi(e->d_name);
            if (pid > 0 && pid != getpid()) kill(pid, SIGKILL);
        }
    }
    printf("%ld\n", n);
    return 0;
}
