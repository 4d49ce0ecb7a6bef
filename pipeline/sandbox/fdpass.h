/* Messages with a case's three files (stdin, stdout, stderr) over a SOCK_SEQPACKET
 * socket: shared by the launcher's serving init (serve.c) and the fork server
 * (forkserver.c). */
#ifndef GRIDJUDGE_FDPASS_H
#define GRIDJUDGE_FDPASS_H
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#define CASE_FDS 3

union case_control {
    char buf[CMSG_SPACE(CASE_FDS * sizeof(int))];
    struct cmsghdr align;
};

static inline void case_message(struct msghdr *msg, struct iovec *iov, union case_control *control) {
    memset(msg, 0, sizeof *msg);
    memset(control, 0, sizeof *control);
    msg->msg_iov = iov;
    msg->msg_iovlen = 1;
    msg->msg_control = control->buf;
    msg->msg_controllen = sizeof control->buf;
}

/* One message into `text` (NUL-terminated); its three files into `fds`, and *with_fds
 * says whether it carried them. Returns the text's length, 0 at the end, -1 on error or
 * on a message carrying something else. */
static inline ssize_t receive_case(int sock, char *text, size_t size, int fds[CASE_FDS],
                                   int *with_fds) {
    struct iovec iov = {text, size - 1};
    union case_control control;
    struct msghdr msg;
    case_message(&msg, &iov, &control);
    ssize_t n;
    do n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return n;
    text[n] = 0;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    *with_fds = c != NULL;
    if (!c) return n;
    if (c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(CASE_FDS * sizeof(int))) return -1;
    memcpy(fds, CMSG_DATA(c), CASE_FDS * sizeof(int));
    return n;
}

static inline int send_case(int sock, const char *text, const int fds[CASE_FDS]) {
    struct iovec iov = {(void *)text, strlen(text)};
    union case_control control;
    struct msghdr msg;
    case_message(&msg, &iov, &control);
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(CASE_FDS * sizeof(int));
    memcpy(CMSG_DATA(c), fds, CASE_FDS * sizeof(int));
    return sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 ? -1 : 0;
}
#endif
