/* A spawned run's scratch dir as a private tmpfs (box.c): the judge stages the program's
 * files in its run folder and reads back what it names; the program writes only into
 * memory of its own, capped and counted as its memory, never into the host's. */
#ifndef GRIDJUDGE_BOX_H
#define GRIDJUDGE_BOX_H

/* A tmpfs of `bytes` at `at`, with the mode and owner of the folder `host` and a copy of
 * each regular file at its top. Returns 0, or -1 with errno set and *what naming the
 * step. */
int private_box(int host, const char *at, unsigned long long bytes, const char **what);

/* The regular files `names` at the top of `from` (KEEP_EVERY: each one there, up to
 * KEEP_EVERY_MAX, but those left as they were copied in) copied into `to`, each cut at
 * `cap` bytes, in place of what `to` held under that name. A link, a folder or a fifo is
 * not copied. */
#define KEEP_EVERY "*"
#define KEEP_EVERY_MAX 64
void keep_files(int from, int to, const char *const *names, int n, unsigned long long cap);

#endif
