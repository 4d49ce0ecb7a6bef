/* Plain C++, no attribute: a function of the program named like one of libc's. Since
 * libstdc++ imports `syscall`, the linker exports the program's, and every library's
 * call to `syscall` in this process comes here first: in the fork server too, whose
 * clone() of a case is such a call, made while it holds that case's files. Here it
 * copies the case's input into the server's memory before passing the clone on, so each
 * later case is forked with the earlier inputs. Prints N unless it sees one. */
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static char earlier[64], latest[64];

static long raw_syscall(long n, long a, long b, long c, long d, long e, long f) {
    long ret;
    register long r10 asm("r10") = d;
    register long r8 asm("r8") = e;
    register long r9 asm("r9") = f;
    asm volatile("syscall"
                 : "=a"(ret)
                 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                 : "rcx", "r11", "memory");
    return ret;
}

static void keep_the_case_input(void) {
    for (int fd = 3; fd < 32; fd++) {
        char path[64], target[128];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0 || (target[n] = 0, !strstr(target, "memfd:in"))) continue;
        char buf[sizeof latest];
        n = pread(fd, buf, sizeof buf - 1, 0);
        if (n <= 0) return;
        buf[n] = 0;
        memcpy(earlier, latest, sizeof earlier);
        memcpy(latest, buf, sizeof latest);
        return;
    }
}

extern "C" long syscall(long n, ...) {
    va_list args;
    va_start(args, n);
    long a[6];
    for (long &x : a) x = va_arg(args, long);
    va_end(args);
    if (n == SYS_clone) keep_the_case_input();
    long ret = raw_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret < 0 && ret > -4096) {
        errno = (int)-ret;
        return -1;
    }
    return ret;
}

int main() {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    if (earlier[0]) printf("stale input %ld\n", strtol(earlier, nullptr, 10));
    else printf("%ld\n", n);
    return 0;
}
