/* A hidden host folder showing some of its paths (shown.c): a compiler's view. */
#ifndef GRIDJUDGE_SHOWN_H
#define GRIDJUDGE_SHOWN_H

/* An empty read-only tmpfs over `dir`, as view.h's hide(dir, 0), holding those of the
 * `n` paths of `shown` that lie below `dir`, read-only: each bound from `fds[k]` (opened
 * with O_PATH | O_NOFOLLOW before anything covered it; -1: the path is not there), a
 * symbolic link copied as one. A missing `dir` is not an error. Returns 0, or -1 with
 * errno set. */
int conceal_showing(const char *dir, const char *const *shown, const int *fds, int n);

#endif
