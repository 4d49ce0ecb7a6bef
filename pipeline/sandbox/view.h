/* What a sandboxed program sees (view.c): one place for the spawning
 * launcher and the fork server's init alike. */
#ifndef GRIDJUDGE_VIEW_H
#define GRIDJUDGE_VIEW_H

/* Host folders the program sees stay read-only, the others are hidden (empty, read
 * only) but /tmp (private, writable); a minimal /dev; /sys/fs/cgroup hidden. Returns 0,
 * or -1 with errno set and *what naming the step. */
int build_view(const char **what);

/* An empty tmpfs over `dir`: writable (a private /tmp) or not (a hidden folder). A
 * missing `dir` is not an error. */
int hide(const char *dir, int writable);

/* The size of every private writable tmpfs made after this (64 MB until then). */
void view_tmpfs_size(unsigned long long bytes);

/* Read-only, with every mount below it (after the view's other mounts are made). */
int finish_view(const char **what);

/* /proc for the namespace's processes: an unprivileged program sees only its own user's
 * processes (not init, whose command line names the judge's paths). */
int mount_proc(void);

#endif
