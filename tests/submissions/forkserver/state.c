/* Changes global state in every case and reports any state an earlier case left:
 * a static variable, an environment variable, a signal handler, files in the scratch
 * dir, /tmp and /dev/shm. Prints N only when everything looked fresh. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int runs_before = 0;

static void on_usr1(int sig) { (void)sig; }

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    struct sigaction old;
    sigaction(SIGUSR1, NULL, &old);
    const char *stale = NULL;
    if (runs_before != 0) stale = "static variable";
    else if (getenv("GJ_STATE")) stale = "environment variable";
    else if (old.sa_handler != SIG_DFL) stale = "signal handler";
    else if (access("scratch_marker", F_OK) == 0) stale = "file in the scratch dir";
    else if (access("/tmp/gj_state_marker", F_OK) == 0) stale = "file in /tmp";
    else if (access("/dev/shm/gj_state_marker", F_OK) == 0) stale = "file in /dev/shm";
    runs_before++;
    setenv("GJ_STATE", "1", 1);
    signal(SIGUSR1, on_usr1);
    const char *files[] = {"scratch_marker", "/tmp/gj_state_marker", "/dev/shm/gj_state_marker"};
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(files[i], "w");
        if (f) fclose(f);
    }
    if (stale) printf("stale %s\n", stale);
    else printf("%ld\n", n);
    return 0;
}
