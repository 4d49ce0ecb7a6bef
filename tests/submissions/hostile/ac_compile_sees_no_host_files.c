/* Its compiler looks for host files by absolute path (a source that #includes one gets
 * it quoted in its compile error, or built into its binary): a compiler's view shows of
 * /etc, /var and /opt only what compilers read, so none of these is there and the
 * program compiles (else #error: a CE, which the battery reports as JE). */
#include <stdio.h>

#if __has_include("/etc/passwd") || __has_include("/etc/group") || __has_include("/etc/shadow")
#error "the compiler sees the host's user database"
#endif
#if __has_include("/etc/hostname") || __has_include("/etc/hosts")
#error "the compiler sees the host's name"
#endif
#if __has_include("/var/lib/dpkg/status") || __has_include("/var/log/dpkg.log")
#error "the compiler sees the host's /var"
#endif
#if __has_include("/root/.bashrc") || __has_include("/root/.profile")
#error "the compiler sees root's home"
#endif

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    printf("%ld\n", n);
    return 0;
}
