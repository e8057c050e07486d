// Hashes a file with OpenSharing's BLAKE3 (Sources/CBLAKE3, built by compare-hash.sh at -O2, as SwiftPM builds C in
// release), reading it as the inbox does: 1 MiB at a time. Prints the digest and the kernel used.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cblake3.h"

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: b3file FILE [KERNEL]\n"); return 2; }
    if (argc > 2) osb3_use_kernel(argv[2]);
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 1; }
    static uint8_t buffer[1 << 20];
    osb3_hasher hasher;
    osb3_init(&hasher);
    ssize_t count;
    while ((count = read(fd, buffer, sizeof buffer)) > 0) osb3_update(&hasher, buffer, (size_t)count);
    uint8_t out[OSB3_OUT_LEN];
    osb3_finalize(&hasher, out);
    for (int i = 0; i < OSB3_OUT_LEN; i++) printf("%02x", out[i]);
    printf("  %s\n", osb3_implementation());
    return count < 0;
}
