// The peer of the runtime's load round trip: 64 bytes there and back over an AF_UNIX SOCK_SEQPACKET socket
// pair between two processes, as fast as the kernel does it. Prints the median round trip in nanoseconds.
//   seqpacket_pingpong [COUNT]
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 100000;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair) != 0) { perror("socketpair"); return 1; }
    char message[64];
    memset(message, 7, sizeof message);
    pid_t child = fork();
    if (child == 0) {
        close(pair[0]);
        for (;;) {
            ssize_t got = recv(pair[1], message, sizeof message, 0);
            if (got <= 0) _exit(0);
            send(pair[1], message, (size_t)got, 0);
        }
    }
    close(pair[1]);
    long long *samples = malloc(sizeof *samples * (size_t)count);
    for (int i = 0; i < count; i++) {
        long long start = now();
        send(pair[0], message, sizeof message, 0);
        recv(pair[0], message, sizeof message, 0);
        samples[i] = now() - start;
    }
    close(pair[0]);
    waitpid(child, NULL, 0);
    qsort(samples, (size_t)count, sizeof *samples, compare);
    printf("%lld\n", samples[count / 2]);
    return 0;
}
