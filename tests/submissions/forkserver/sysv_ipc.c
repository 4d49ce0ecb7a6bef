/* Leaves System V shared memory (with a mark in it), a message queue and a semaphore set
 * under fixed keys, and reports any of them an earlier case left. */
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#define KEY 0x474a

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    const char *stale = NULL;
    if (shmget(KEY, 0, 0) >= 0) stale = "shared memory";
    else if (msgget(KEY, 0) >= 0) stale = "message queue";
    else if (semget(KEY, 0, 0) >= 0) stale = "semaphores";
    int id = shmget(KEY, 4096, IPC_CREAT | 0600);
    if (id >= 0) {
        char *mem = shmat(id, NULL, 0);
        if (mem != (void *)-1) strcpy(mem, "left by an earlier case");
    }
    msgget(KEY, IPC_CREAT | 0600);
    semget(KEY, 1, IPC_CREAT | 0600);
    if (stale) printf("stale %s\n", stale);
    else printf("%ld\n", n);
    return 0;
}
