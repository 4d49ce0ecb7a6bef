/* Tries to take over every other process of its pid namespace (its fork server, init),
 * found by number (/proc lists neither to it): attach with ptrace, open its memory
 * through /proc for writing, write it with process_vm_writev. Prints N only when every
 * attempt failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    int broke_in = 0, seen = 0;
    for (int pid = 1; pid < 4096; pid++) { /* its own pid namespace: small pids */
        if (pid == getpid() || (kill(pid, 0) != 0 && errno != EPERM)) continue;
        seen++;
        if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) {
            broke_in = 1;
            waitpid(pid, NULL, __WALL);
            ptrace(PTRACE_DETACH, pid, NULL, NULL);
        }
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/mem", pid);
        int fd = open(path, O_RDWR);
        if (fd >= 0) {
            broke_in = 1;
            close(fd);
        }
        char byte = 0;
        struct iovec local = {&byte, 1}, remote = {(void *)0x400000, 1};
        if (process_vm_writev(pid, &local, 1, &remote, 1, 0) == 1) broke_in = 1;
    }
    if (broke_in) printf("broke into another process\n");
    else if (seen == 0) printf("saw no other process\n");
    else printf("%ld\n", n);
    return 0;
}
