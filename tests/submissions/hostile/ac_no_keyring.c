/* Adds a key to its user keyring (which outlives the run: a channel to later runs, a
 * quota to exhaust) and looks for the one an earlier run added: both must be refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_SEARCH 10

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    char name[64];
    snprintf(name, sizeof name, "gj_key_%ld", n);
    long found = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", name, 0);
    if (found >= 0) {
        printf("found the key of an earlier run\n");
        return 0;
    }
    long added = syscall(SYS_add_key, "user", name, "x", 1, KEY_SPEC_USER_KEYRING);
    if (added >= 0) printf("added key %ld\n", added);
    else if (errno != EPERM) printf("add_key failed but not refused: %s\n", strerror(errno));
    else printf("%ld\n", n);
    return 0;
}
