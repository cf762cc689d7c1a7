// A bare echo server over a Unix domain socket: the floor that pokesearch's socket round
// trip and pipelined throughput are compared with. pokesearch-bench compiles it with
// `cc -O2` at run time and pins it to the same core as `pokesearch serve`.
// It serves one connection at a time with blocking reads and writes: the least work a
// server can do per request.
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: echo SOCKET-PATH\n");
        return 2;
    }
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(argv[1]) >= sizeof address.sun_path) {
        fprintf(stderr, "echo: socket path too long: %s\n", argv[1]);
        return 2;
    }
    strcpy(address.sun_path, argv[1]);
    signal(SIGPIPE, SIG_IGN);
    unlink(argv[1]);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 16) < 0) {
        perror("echo");
        return 1;
    }
    static char buffer[1 << 16];
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) continue;
        ssize_t got;
        while ((got = read(client, buffer, sizeof buffer)) > 0) {
            ssize_t sent = 0;
            while (sent < got) {
                ssize_t n = write(client, buffer + sent, (size_t)(got - sent));
                if (n <= 0) break;
                sent += n;
            }
            if (sent < got) break;
        }
        close(client);
    }
}
