/* Checks that its scratch dir is as new (empty, mode 0700, no extended attribute, none
 * of the times or inode flags set below, no dir moved out of it), prints N if so, then
 * leaves something for the next case by N % 6: files, a read-only dir with a file in
 * it, a fifo, a symlink; the dir's times; an extended attribute; its mode; its inode
 * flags; the dir moved away and another made in its place. */
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAGIC 123456789

static const char *dirty(void) {
    DIR *d = opendir(".");
    if (!d) return "cannot list";
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) return e->d_name;
    closedir(d);
    struct stat st;
    if (stat(".", &st) != 0 || !S_ISDIR(st.st_mode) || (st.st_mode & 07777) != 0700)
        return "mode";
    if (st.st_atim.tv_sec == MAGIC || st.st_mtim.tv_sec == MAGIC) return "times";
    char value[8];
    if (getxattr(".", "user.gj", value, sizeof value) >= 0) return "xattr";
    int fd = open(".", O_RDONLY | O_DIRECTORY), flags = 0;
    if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_NODUMP_FL))
        return "flags";
    if (access("/tmp/moved", F_OK) == 0) return "moved";
    return NULL;
}

static void leave(long n) {
    char cwd[256];
    switch (n % 6) {
    case 0:
        if (mkdir("d", 0700) == 0 && mkdir("d/e", 0700) == 0) {
            close(open("d/e/f", O_WRONLY | O_CREAT, 0600));
            chmod("d/e", 0500);
            chmod("d", 0500);
        }
        close(open("f", O_WRONLY | O_CREAT, 0400));
        mkfifo("p", 0600);
        symlink("/tmp", "s");
        break;
    case 1: {
        struct timespec t[2] = {{MAGIC, 0}, {MAGIC, 0}};
        utimensat(AT_FDCWD, ".", t, 0);
        break;
    }
    case 2:
        setxattr(".", "user.gj", "1", 1, 0);
        break;
    case 3:
        chmod(".", 0755);
        break;
    case 4: {
        int fd = open(".", O_RDONLY | O_DIRECTORY), flags = 0;
        if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
            flags |= FS_NODUMP_FL;
            ioctl(fd, FS_IOC_SETFLAGS, &flags);
        }
        break;
    }
    case 5:
        if (getcwd(cwd, sizeof cwd) && rename(cwd, "/tmp/moved") == 0) mkdir(cwd, 0700);
        break;
    }
}

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    const char *what = dirty();
    if (what)
        printf("left by the case before: %s\n", what);
    else
        printf("%ld\n", n);
    fflush(stdout);
    leave(n);
    return 0;
}
