/* An honest program starting one thread with the default attributes (its stack sized
 * from the stack limit): it must start wherever the memory limit leaves room. */
#include <pthread.h>
#include <stdio.h>

static long n, doubled;

static void *work(void *arg) {
    (void)arg;
    doubled = 2 * n;
    return NULL;
}

int main(void) {
    if (scanf("%ld", &n) != 1) return 1;
    pthread_t thread;
    int failed = pthread_create(&thread, NULL, work, NULL);
    if (failed) {
        fprintf(stderr, "pthread_create: error %d\n", failed);
        return 1;
    }
    pthread_join(thread, NULL);
    printf("%ld\n", doubled - n);
    return 0;
}
