/* Leaves a POSIX message queue with a message in it, and reports one an earlier case
 * left (the queues belong to the IPC namespace, which the cases of a server share). */
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    mqd_t old = mq_open("/gridjudge-test", O_RDONLY);
    struct mq_attr attr = {0, 4, 64, 0};
    mqd_t queue = mq_open("/gridjudge-test", O_CREAT | O_RDWR, 0600, &attr);
    if (queue != (mqd_t)-1) mq_send(queue, "left", 4, 0);
    if (old != (mqd_t)-1) printf("stale message queue\n");
    else if (queue == (mqd_t)-1) printf("cannot make a message queue\n");
    else printf("%ld\n", n);
    return 0;
}
