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

#if defined(__linux__)
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/landlock.h>
// Newer than some distributions' headers (Linux 6.2).
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

int csharing_packet_socketpair(int descriptors[2]) {
    return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, descriptors);
}

ssize_t csharing_send_packet(int socket, const void *bytes, size_t length, const int *descriptors, int count) {
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
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

ssize_t csharing_receive_packet(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors,
                                int *count, int *truncated) {
    struct iovec vector = { .iov_base = bytes, .iov_len = capacity };
    char control[CMSG_SPACE(sizeof(int) * 16)];
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    *count = 0;
    *truncated = 0;
    ssize_t received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
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

int csharing_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
}

/// Adds a rule granting `access` beneath each path; 0, or -1 with errno. Only async-signal-safe calls.
static int landlock_allow(int ruleset, const char *const *paths, unsigned long long access) {
    for (; paths && *paths; paths++) {
        int beneath = open(*paths, O_PATH | O_CLOEXEC);
        if (beneath < 0) return -1;
        struct landlock_path_beneath_attr rule = { .allowed_access = access, .parent_fd = beneath };
        long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        close(beneath);
        if (added != 0) return -1;
    }
    return 0;
}

/// Confines the calling process: read anywhere, write beneath `writable`, execute beneath `executable`.
static int landlock_confine(const char *const *writable, const char *const *executable) {
    int abi = csharing_landlock_abi();
    if (abi < 1) { errno = EOPNOTSUPP; return -1; }
    const unsigned long long read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    unsigned long long write = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE
        | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK
        | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) write |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) write |= LANDLOCK_ACCESS_FS_TRUNCATE;
    const unsigned long long execute = LANDLOCK_ACCESS_FS_EXECUTE;
    struct landlock_ruleset_attr attributes = { .handled_access_fs = read | write | execute };
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return -1;
    static const char *const everywhere[] = { "/", NULL };
    static const char *const devices[] = { "/dev/null", "/dev/zero", "/dev/urandom", NULL };
    int failed = landlock_allow(ruleset, everywhere, read) != 0
        || landlock_allow(ruleset, devices, LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE) != 0
        || landlock_allow(ruleset, writable, write | read) != 0
        || landlock_allow(ruleset, executable, execute | read) != 0
        || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || syscall(SYS_landlock_restrict_self, ruleset, 0) != 0;
    int saved = errno;
    close(ruleset);
    errno = saved;
    return failed ? -1 : 0;
}

pid_t csharing_spawn(const struct csharing_spawn_spec *spec) {
    // The child reports a failure to execute through this pipe, closed by a successful execve.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        int saved = errno;
        close(report[0]);
        close(report[1]);
        errno = saved;
        return -1;
    }
    if (child == 0) {
        // Only async-signal-safe calls from here to execve. The report pipe and the channel first move above
        // the descriptors being set up, so that no dup2 below can overwrite them.
        int failure = 0;
        int keep = report[1];
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) { failure = errno ? errno : ESRCH; goto failed; }
        // Into the cgroup before anything is allocated: "0" names the writing process.
        if (spec->cgroup_procs >= 0 && write(spec->cgroup_procs, "0", 1) != 1) { failure = errno; goto failed; }
        keep = fcntl(report[1], F_DUPFD_CLOEXEC, 10);
        if (keep < 0) { keep = report[1]; failure = errno; goto failed; }
        int channel = fcntl(spec->channel, F_DUPFD_CLOEXEC, 10);
        if (channel < 0) { failure = errno; goto failed; }
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null < 0 || dup2(null, 0) < 0) { failure = errno; goto failed; }
        if (spec->output >= 0 && dup2(spec->output, 1) < 0) { failure = errno; goto failed; }
        if (spec->error >= 0 && dup2(spec->error, 2) < 0) { failure = errno; goto failed; }
        if (dup2(channel, 3) < 0) { failure = errno; goto failed; }
        // Every other descriptor closes now; the report pipe at exec.
        if (syscall(SYS_close_range, 4, (unsigned)keep - 1, 0) != 0 || syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0) != 0) {
            failure = errno;
            goto failed;
        }
        if (spec->data_limit > 0) {
            struct rlimit limit = { .rlim_cur = spec->data_limit, .rlim_max = spec->data_limit };
            if (setrlimit(RLIMIT_DATA, &limit) != 0) { failure = errno; goto failed; }
        }
        if (spec->directory && chdir(spec->directory) != 0) { failure = errno; goto failed; }
        if (spec->writable && landlock_confine(spec->writable, spec->executable) != 0) { failure = errno; goto failed; }
        execve(spec->path, spec->arguments, spec->environment);
        failure = errno;
    failed:
        (void)!write(keep, &failure, sizeof failure);
        _exit(127);
    }
    close(report[1]);
    int failure = 0;
    ssize_t got;
    do { got = read(report[0], &failure, sizeof failure); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof failure) {
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        errno = failure;
        return -1;
    }
    return child;
}

#else

int csharing_packet_socketpair(int descriptors[2]) { (void)descriptors; errno = ENOSYS; return -1; }
ssize_t csharing_send_packet(int socket, const void *bytes, size_t length, const int *descriptors, int count) {
    (void)socket; (void)bytes; (void)length; (void)descriptors; (void)count; errno = ENOSYS; return -1;
}
ssize_t csharing_receive_packet(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors,
                                int *count, int *truncated) {
    (void)socket; (void)bytes; (void)capacity; (void)descriptors; (void)capacity_descriptors;
    *count = 0; *truncated = 0; errno = ENOSYS; return -1;
}
int csharing_peer_credentials(int socket, pid_t *pid, uid_t *uid) { (void)socket; (void)pid; (void)uid; errno = ENOSYS; return -1; }
int csharing_memfd_create(const char *name) { (void)name; errno = ENOSYS; return -1; }
int csharing_memfd_seal(int descriptor) { (void)descriptor; errno = ENOSYS; return -1; }
int csharing_memfd_is_sealed(int descriptor) { (void)descriptor; errno = ENOSYS; return -1; }
int csharing_pipe(int descriptors[2]) { (void)descriptors; errno = ENOSYS; return -1; }
ssize_t csharing_write_without_sigpipe(int descriptor, const void *bytes, size_t length) {
    (void)descriptor; (void)bytes; (void)length; errno = ENOSYS; return -1;
}
int csharing_pidfd_open(pid_t pid) { (void)pid; errno = ENOSYS; return -1; }
int csharing_pidfd_send_signal(int pidfd, int signal) { (void)pidfd; (void)signal; errno = ENOSYS; return -1; }
int csharing_pidfd_reap(int pidfd, int *status) { (void)pidfd; (void)status; errno = ENOSYS; return -1; }
pid_t csharing_spawn(const struct csharing_spawn_spec *spec) { (void)spec; errno = ENOSYS; return -1; }
int csharing_landlock_abi(void) { return 0; }

#endif
