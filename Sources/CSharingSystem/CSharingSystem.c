#define _GNU_SOURCE
#include "CSharingSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/magic.h>
#include <linux/sockios.h>
#include <signal.h>
#include <spawn.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#endif

ssize_t csharing_copy_file_range(int from, long long *offset, int to, size_t length) {
#if defined(__linux__)
    loff_t at = (loff_t)*offset;
    ssize_t moved = copy_file_range(from, &at, to, NULL, length, 0);
    *offset = (long long)at;
    return moved;
#else
    (void)from; (void)offset; (void)to; (void)length;
    errno = ENOSYS;
    return -1;
#endif
}

void csharing_start_writeback(int descriptor, off_t offset, off_t length) {
#if defined(__linux__)
    // A failure here is a failure of the write, which the fsync that follows reports.
    (void)sync_file_range(descriptor, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor; (void)offset; (void)length;
#endif
}

void csharing_reserve_blocks(int descriptor, off_t length) {
#if defined(__linux__)
    // Without it ext4 allocates as writeback reaches each range (delayed allocation), bookkeeping per page.
    // Not in memory (tmpfs, ramfs): there reserving is allocating and zeroing every page the copy then
    // overwrites, a quarter slower for 1 GiB (Benchmarks/RESULTS.md).
    struct statfs system;
    if (fstatfs(descriptor, &system) == 0 && (system.f_type == TMPFS_MAGIC || system.f_type == RAMFS_MAGIC)) return;
    (void)fallocate(descriptor, FALLOC_FL_KEEP_SIZE, 0, length);
#else
    (void)descriptor; (void)length;
#endif
}

ssize_t csharing_sendfile(int to, int from, long long *offset, size_t length) {
#if defined(__linux__)
    off_t at = (off_t)*offset;
    ssize_t moved = sendfile(to, from, &at, length);
    *offset = (long long)at;
    return moved;
#else
    (void)to; (void)from; (void)offset; (void)length;
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

#if defined(__linux__)
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

int csharing_packet_socketpair(int descriptors[2]) {
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, descriptors) != 0) return -1;
    if (csharing_stamp_arrivals(descriptors[0]) != 0 || csharing_stamp_arrivals(descriptors[1]) != 0) {
        int saved = errno;
        close(descriptors[0]);
        close(descriptors[1]);
        errno = saved;
        return -1;
    }
    return 0;
}

int csharing_stamp_arrivals(int socket) {
    int on = 1;
    return setsockopt(socket, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

ssize_t csharing_send_packet(int socket, const void *bytes, size_t length, const int *descriptors, int count, int nonblocking) {
    struct iovec vector = { .iov_base = (void *)bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1 };
    char control[CMSG_SPACE(sizeof(int) * 16)];
    if (count > 16) { errno = EINVAL; return -1; }
    if (count > 0) {
        memset(control, 0, sizeof control);
        message.msg_control = control;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * (size_t)count);
    }
    return sendmsg(socket, &message, MSG_NOSIGNAL | (nonblocking ? MSG_DONTWAIT : 0));
}

ssize_t csharing_receive_packet(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors,
                                int *count, int *truncated, int *ended, long long *sent_at) {
    struct iovec vector = { .iov_base = bytes, .iov_len = capacity };
    char control[CMSG_SPACE(sizeof(int) * 16) + CMSG_SPACE(sizeof(struct timespec))];
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    *count = 0;
    *truncated = 0;
    *ended = 0;
    *sent_at = 0;
    ssize_t received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (received < 0 && errno == ECONNRESET) {
        // A peer that closed its end with packets of ours unread leaves this end an error, reported once, before
        // the packets it sent before it closed: read on, to them and then to the end of file.
        message.msg_controllen = sizeof control;
        message.msg_flags = 0;
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    }
    if (received < 0) return -1;
    if (received == 0 && message.msg_controllen == 0) {
        // No bytes: the peer's end of file, or a packet of no bytes. What is queued next tells them apart.
        char next;
        ssize_t peeked = recv(socket, &next, 1, MSG_PEEK | MSG_DONTWAIT);
        if (peeked == 0) {
            struct pollfd entry = { .fd = socket, .events = POLLRDHUP };
            *ended = poll(&entry, 1, 0) == 1 && (entry.revents & (POLLRDHUP | POLLHUP)) != 0;
        }
    }
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMPNS && header->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
            struct timespec stamp;
            memcpy(&stamp, CMSG_DATA(header), sizeof stamp);
            *sent_at = (long long)stamp.tv_sec * 1000000000LL + stamp.tv_nsec;
            continue;
        }
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int carried = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *data = (int *)CMSG_DATA(header);
        for (int index = 0; index < carried; index++) {
            if (*count < capacity_descriptors) {
                descriptors[(*count)++] = data[index];
            } else {
                close(data[index]);
                *truncated = 1;
            }
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) *truncated = 1;
    return received;
}

long long csharing_filesystem_type(int descriptor) {
    struct statfs information;
    if (fstatfs(descriptor, &information) != 0) return -1;
    return (long long)(unsigned long)information.f_type;
}

int csharing_peer_credentials(int socket, pid_t *pid, uid_t *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    return 0;
}

int csharing_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

static const int every_seal = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL;

int csharing_memfd_seal(int descriptor) {
    return fcntl(descriptor, F_ADD_SEALS, every_seal);
}

int csharing_memfd_is_sealed(int descriptor) {
    int seals = fcntl(descriptor, F_GET_SEALS);
    if (seals < 0) return -1;
    return (seals & every_seal) == every_seal ? 1 : 0;
}

int csharing_pipe(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}

int csharing_accept(int socket) {
    return accept4(socket, NULL, NULL, SOCK_CLOEXEC);
}

ssize_t csharing_write_without_sigpipe(int descriptor, const void *bytes, size_t length) {
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    // A SIGPIPE already pending for this thread is not ours to take.
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    ssize_t written = write(descriptor, bytes, length);
    int saved = errno;
    // The reader may go away in the middle of a write, which then returns what it wrote and raises SIGPIPE
    // too; the next write fails with EPIPE and raises another.
    sigpending(&pending);
    if (!was_pending && sigismember(&pending, SIGPIPE)) {
        const struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &now) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return written;
}

int csharing_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

pid_t csharing_thread_id(void) {
    return (pid_t)syscall(SYS_gettid);
}

int csharing_is_held_call(long number) {
    return number == SYS_connect || number == SYS_sendto || number == SYS_sendmsg || number == SYS_sendmmsg;
}

int csharing_pidfd_send_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

int csharing_pidfd_reap(int pidfd, int *status) {
    siginfo_t information;
    memset(&information, 0, sizeof information);
    if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &information, WEXITED | WNOHANG) != 0) return -1;
    if (information.si_pid == 0) return 0;
    switch (information.si_code) {
    case CLD_EXITED: *status = (information.si_status & 0xff) << 8; break;
    case CLD_KILLED: *status = information.si_status & 0x7f; break;
    case CLD_DUMPED: *status = (information.si_status & 0x7f) | 0x80; break;
    default: *status = 0; break;
    }
    return 1;
}

int csharing_spawn_child(const char *path, char *const *arguments, char *const *environment, int input, int output, int error, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int failure = posix_spawn_file_actions_init(&actions);
    if (failure) { errno = failure; return -1; }
    failure = posix_spawnattr_init(&attributes);
    if (failure) { posix_spawn_file_actions_destroy(&actions); errno = failure; return -1; }
    // Every signal as a new program expects it: none blocked, each at its default (this process may ignore
    // SIGPIPE, which a child would otherwise inherit).
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    failure = posix_spawnattr_setsigmask(&attributes, &none);
    if (!failure) failure = posix_spawnattr_setsigdefault(&attributes, &all);
    if (!failure) failure = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (!failure) failure = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (!failure) failure = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (!failure) failure = posix_spawn_file_actions_adddup2(&actions, error, 2);
    if (!failure) failure = posix_spawn(pid, path, &actions, &attributes, arguments, environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failure) { errno = failure; return -1; }
    return 0;
}

#else

int csharing_spawn_child(const char *path, char *const *arguments, char *const *environment, int input, int output, int error, pid_t *pid) {
    (void)path; (void)arguments; (void)environment; (void)input; (void)output; (void)error; (void)pid; errno = ENOSYS; return -1;
}
int csharing_packet_socketpair(int descriptors[2]) { (void)descriptors; errno = ENOSYS; return -1; }
int csharing_stamp_arrivals(int socket) { (void)socket; errno = ENOSYS; return -1; }
ssize_t csharing_send_packet(int socket, const void *bytes, size_t length, const int *descriptors, int count, int nonblocking) {
    (void)socket; (void)bytes; (void)length; (void)descriptors; (void)count; errno = ENOSYS; return -1;
}
ssize_t csharing_receive_packet(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors,
                                int *count, int *truncated, int *ended, long long *sent_at) {
    (void)socket; (void)bytes; (void)capacity; (void)descriptors; (void)capacity_descriptors;
    *count = 0; *truncated = 0; *ended = 0; *sent_at = 0; errno = ENOSYS; return -1;
}
long long csharing_filesystem_type(int descriptor) { (void)descriptor; errno = ENOSYS; return -1; }
int csharing_peer_credentials(int socket, pid_t *pid, uid_t *uid) { (void)socket; (void)pid; (void)uid; errno = ENOSYS; return -1; }
int csharing_memfd_create(const char *name) { (void)name; errno = ENOSYS; return -1; }
int csharing_memfd_seal(int descriptor) { (void)descriptor; errno = ENOSYS; return -1; }
int csharing_memfd_is_sealed(int descriptor) { (void)descriptor; errno = ENOSYS; return -1; }
int csharing_pipe(int descriptors[2]) { (void)descriptors; errno = ENOSYS; return -1; }
int csharing_accept(int socket) { (void)socket; errno = ENOSYS; return -1; }
ssize_t csharing_write_without_sigpipe(int descriptor, const void *bytes, size_t length) {
    (void)descriptor; (void)bytes; (void)length; errno = ENOSYS; return -1;
}
int csharing_pidfd_open(pid_t pid) { (void)pid; errno = ENOSYS; return -1; }
pid_t csharing_thread_id(void) { return -1; }
int csharing_is_held_call(long number) { (void)number; return 0; }
int csharing_pidfd_send_signal(int pidfd, int signal) { (void)pidfd; (void)signal; errno = ENOSYS; return -1; }
int csharing_pidfd_reap(int pidfd, int *status) { (void)pidfd; (void)status; errno = ENOSYS; return -1; }

#endif

long long csharing_queued_bytes(int pidfd, int descriptor) {
#if defined(__linux__) && defined(SYS_pidfd_getfd)
    int held = (int)syscall(SYS_pidfd_getfd, pidfd, descriptor, 0);
    if (held < 0) return -1;
    long long total = 0;
    int domain = 0, type = 0;
    socklen_t size = sizeof domain;
    if (getsockopt(held, SOL_SOCKET, SO_DOMAIN, &domain, &size) == 0) {
        size = sizeof type;
        (void)getsockopt(held, SOL_SOCKET, SO_TYPE, &type, &size);
        int queued = 0;
        // A local socket's sends are charged to it until read (the kernel's own accounting, in the memory they
        // take); a network stream's bytes wait both ways, in its send queue and its receive queue.
        if (ioctl(held, SIOCOUTQ, &queued) == 0 && queued > 0) total += queued;
        if (domain != AF_UNIX && ioctl(held, SIOCINQ, &queued) == 0 && queued > 0) total += queued;
    } else {
        int queued = 0;
        if (ioctl(held, FIONREAD, &queued) == 0 && queued > 0) total += queued;
    }
    close(held);
    return total;
#else
    (void)pidfd; (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}

int csharing_watch_create(void) {
#if defined(__linux__)
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int csharing_watch_add(int watch, const char *directory) {
#if defined(__linux__)
    return inotify_add_watch(watch, directory, IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR | IN_DONT_FOLLOW);
#else
    (void)watch; (void)directory;
    errno = ENOSYS;
    return -1;
#endif
}

int csharing_watch_is_directory(unsigned int mask) {
#if defined(__linux__)
    return (mask & IN_ISDIR) != 0 && (mask & (IN_CREATE | IN_MOVED_TO)) != 0;
#else
    (void)mask;
    return 0;
#endif
}

int csharing_open_name(const char *path) {
#if defined(O_PATH)
    return open(path, O_PATH | O_CLOEXEC);
#else
    return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
#endif
}

int csharing_descriptor_access(int descriptor) {
    int flags = fcntl(descriptor, F_GETFL);
    if (flags < 0) return -1;
#if defined(O_PATH)
    if (flags & O_PATH) return 2;
#endif
    return (flags & O_ACCMODE) == O_WRONLY ? 1 : 0;
}

void csharing_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}
