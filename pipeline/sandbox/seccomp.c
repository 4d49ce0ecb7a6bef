/* The sandbox's system-call filter (seccomp.h), installed by the launcher in PROG just
 * before it execs the program, and inherited by everything the program starts (a fork
 * server's cases included).
 *
 * A user namespace of its own would give the program every capability over namespaces
 * it makes inside it (mounts, network devices, more user namespaces): kernel surface a
 * submission has no use for, and the way most local privilege escalations begin. The
 * launcher's own namespaces are made before the filter; bwrap makes its own after the
 * launcher's PROG has exec'd it, so there the filter is installed by the launcher again
 * inside bwrap's sandbox (--take-stdio), just before the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "seccomp.h"

#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef CLONE_NEWUSER
#define CLONE_NEWUSER 0x10000000
#endif

#define MAX_CODE 64
#define DENY (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define NO_SUCH_CALL (SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA))

/* the low 32 bits of the first argument (the flags of clone and unshare) */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FLAGS_WORD offsetof(struct seccomp_data, args[0])
#else
#define FLAGS_WORD (offsetof(struct seccomp_data, args[0]) + 4)
#endif

struct program {
    struct sock_filter code[MAX_CODE];
    unsigned short n;
};

static void emit(struct program *p, struct sock_filter s) {
    if (p->n < MAX_CODE) p->code[p->n++] = s;
}

/* system call `nr` returns `action`; the others go on to the next test */
static void refuse(struct program *p, unsigned nr, unsigned action) {
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/* system call `nr` is refused when its flags ask for a new user namespace */
static void refuse_newuser(struct program *p, unsigned nr) {
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 4));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, FLAGS_WORD));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

/* The tests of one system-call table, ending in ALLOW; A holds the call's number. */
static void table(struct program *p, int refuse_userns, unsigned add_key, unsigned request_key,
                  unsigned keyctl, unsigned unshare, unsigned clone, unsigned clone3) {
    refuse(p, add_key, DENY);
    refuse(p, request_key, DENY);
    refuse(p, keyctl, DENY);
    if (refuse_userns) {
        refuse(p, clone3, NO_SUCH_CALL);
        refuse_newuser(p, unshare);
        refuse_newuser(p, clone);
    }
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

int install_filter(int refuse_userns) {
    struct program p = {.n = 0};
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                          offsetof(struct seccomp_data, arch)));
#if defined(__x86_64__)
    /* the 32-bit entry points have numbers of their own: their table first */
    struct program i386 = {.n = 0};
    emit(&i386, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, nr)));
    table(&i386, refuse_userns, 286, 287, 288, 310, 120, 435);
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, i386.n));
    for (unsigned short k = 0; k < i386.n; k++) emit(&p, i386.code[k]);
#endif
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                          offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    emit(&p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, ~0x40000000U)); /* x32 */
#endif
    table(&p, refuse_userns, __NR_add_key, __NR_request_key, __NR_keyctl, __NR_unshare,
          __NR_clone, __NR_clone3);
    if (p.n >= MAX_CODE) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog prog = {p.n, p.code};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}
