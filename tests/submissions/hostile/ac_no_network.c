/* Connects to the test's listener on 127.0.0.1:N; prints N only when that fails. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    int port;
    if (scanf("%d", &port) != 1) return 2;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
        puts("connected");
    } else {
        perror("connect");
        printf("%d\n", port);
    }
    return 0;
}
