/* Asks for a user namespace of its own, as `unshare -Urm` does, in each way there is:
 * unshare, clone and clone3 with CLONE_NEWUSER. Inside one it would hold every
 * capability over what it makes there: kernel surface no submission needs. unshare and
 * clone must be refused (EPERM), clone3 must not exist (ENOSYS: libc falls back to
 * clone); a thread must still start (glibc makes it with clone3, or clone after ENOSYS). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

struct clone3_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

/* `got`: what the call returned (for clone and clone3 in the parent: the child's pid) */
static int refused(const char *how, long got, int want) {
    if (got >= 0) {
        if (got > 0) waitpid((pid_t)got, NULL, 0);
        printf("%s made a user namespace\n", how);
        return 0;
    }
    if (errno != want) {
        printf("%s failed but was not refused: %s\n", how, strerror(errno));
        return 0;
    }
    return 1;
}

static void *nothing(void *arg) { return arg; }

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    fflush(stdout);
    int ok = refused("unshare", syscall(SYS_unshare, CLONE_NEWUSER), EPERM);
    long child = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (child == 0) _exit(0); /* made: the child goes at once */
    ok &= refused("clone", child, EPERM);
    struct clone3_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_NEWUSER;
    args.exit_signal = SIGCHLD;
    child = syscall(SYS_clone3, &args, sizeof args);
    if (child == 0) _exit(0);
    ok &= refused("clone3", child, ENOSYS);
    /* a small stack of its own: the default, RLIMIT_STACK, is as large as the memory
     * limit */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 16);
    pthread_t thread;
    if (pthread_create(&thread, &attr, nothing, NULL) != 0 || pthread_join(thread, NULL) != 0) {
        printf("no thread\n");
        ok = 0;
    }
    if (ok) printf("%ld\n", n);
    return 0;
}
