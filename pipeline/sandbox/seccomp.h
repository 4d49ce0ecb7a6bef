/* The system-call filter of every sandboxed program (seccomp.c). */
#ifndef GRIDJUDGE_SECCOMP_H
#define GRIDJUDGE_SECCOMP_H

/* keyctl, add_key and request_key fail with EPERM (a kernel keyring outlives the run);
 * with `refuse_userns`, so do unshare and clone asking for a new user namespace, and
 * clone3 fails with ENOSYS (its flags are in memory a filter cannot read; libc then
 * falls back to clone). Needs no_new_privs. Returns 0 or -1. */
int install_filter(int refuse_userns);

#endif
