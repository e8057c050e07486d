#define _GNU_SOURCE
#include "CSharingSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/sendfile.h>
#endif

ssize_t csharing_copy_file_range(int from, int to, size_t length) {
#if defined(__linux__)
    return copy_file_range(from, NULL, to, NULL, length, 0);
#else
    (void)from; (void)to; (void)length;
    errno = ENOSYS;
    return -1;
#endif
}

ssize_t csharing_sendfile(int to, int from, size_t length) {
#if defined(__linux__)
    return sendfile(to, from, NULL, length);
#else
    (void)to; (void)from; (void)length;
    errno = ENOSYS;
    return -1;
#endif
}

int csharing_rename_noreplace(int from_directory, const char *from, int to_directory, const char *to) {
#if defined(__linux__)
    return renameat2(from_directory, from, to_directory, to, RENAME_NOREPLACE);
#elif defined(__APPLE__)
    return renameatx_np(from_directory, from, to_directory, to, RENAME_EXCL);
#else
    errno = ENOSYS;
    return -1;
#endif
}

void csharing_set_thread_name(const char *name) {
#if defined(__APPLE__)
    pthread_setname_np(name);
#else
    pthread_setname_np(pthread_self(), name);
#endif
}

void csharing_thread_name(char *name, size_t size) {
    pthread_getname_np(pthread_self(), name, size);
}
