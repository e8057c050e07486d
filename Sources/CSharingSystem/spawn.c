// Starting a process under a small init of our own, with only async-signal-safe calls between fork and execve.
// See csharing_spawn in include/CSharingSystem.h.
#define _GNU_SOURCE
#include "CSharingSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

// Newer than some distributions' headers.
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
#define SECURE_BITS_LOCKED_DOWN 0x3f  // NOROOT, NO_SETUID_FIXUP, KEEP_CAPS: each set and locked (securebits.h)
// fanotify's pre-content events (kernel 6.14), newer than some distributions' headers.
#ifndef FAN_PRE_ACCESS
#define FAN_PRE_ACCESS 0x00100000
#endif
#define GATE_INFO_TYPE_RANGE 6
#define GATE_DENY_ENOSPC (FAN_DENY | ((unsigned int)ENOSPC & 0xff) << 24)

/// The ruleset attributes as Landlock ABI 6 knows them; older kernels take a prefix of it.
struct ruleset_attributes {
    unsigned long long handled_access_fs;
    unsigned long long handled_access_net;
    unsigned long long scoped;
};

int csharing_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
}

/// Adds a rule granting `access` beneath each path; 0, or -1 with errno and the failing path's index in `*at`.
static int landlock_allow(int ruleset, const char *const *paths, unsigned long long access, int *at) {
    for (int index = 0; paths && paths[index]; index++) {
        *at = index;
        int beneath = open(paths[index], O_PATH | O_CLOEXEC);
        if (beneath < 0) return -1;
        struct landlock_path_beneath_attr rule = { .allowed_access = access, .parent_fd = beneath };
        long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        close(beneath);
        if (added != 0) return -1;
    }
    return 0;
}

/// Confines the calling process: read anywhere, write beneath `writable`, execute beneath `executable`; where
/// the kernel can (ABI 6), no signals to processes outside the domain and no abstract sockets outside it.
static int landlock_confine(const char *const *writable, const char *const *executable, int *step, int *at) {
    *step = CSHARING_SPAWN_STEP_SANDBOX;
    int abi = csharing_landlock_abi();
    if (abi < 1) { errno = EOPNOTSUPP; return -1; }
    const unsigned long long read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    unsigned long long write = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE
        | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK
        | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) write |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) write |= LANDLOCK_ACCESS_FS_TRUNCATE;
    const unsigned long long devices = abi >= 5 ? LANDLOCK_ACCESS_FS_IOCTL_DEV : 0;
    const unsigned long long execute = LANDLOCK_ACCESS_FS_EXECUTE;
    struct ruleset_attributes attributes = { .handled_access_fs = read | write | execute | devices };
    size_t size = sizeof attributes.handled_access_fs;
    if (abi >= 6) {
        attributes.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
        size = sizeof attributes;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) return -1;
    static const char *const everywhere[] = { "/", NULL };
    static const char *const null_devices[] = { "/dev/null", "/dev/zero", "/dev/urandom", NULL };
    int failed = landlock_allow(ruleset, everywhere, read, at) != 0
        || landlock_allow(ruleset, null_devices, LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | devices, at) != 0
        || (*step = CSHARING_SPAWN_STEP_WRITABLE, landlock_allow(ruleset, writable, write | read, at) != 0)
        || (*step = CSHARING_SPAWN_STEP_EXECUTABLE, landlock_allow(ruleset, executable, execute | read, at) != 0)
        || (*step = CSHARING_SPAWN_STEP_SANDBOX, syscall(SYS_landlock_restrict_self, ruleset, 0) != 0);
    int saved = errno;
    close(ruleset);
    errno = saved;
    return failed ? -1 : 0;
}

/// Gives up every capability, for good: locked securebits so that executing as root grants none, an empty
/// bounding set and ambient set, and empty sets now. A process that has none already (not root) is done at once.
static int drop_capabilities(void) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    int holds = data[0].effective || data[1].effective || data[0].permitted || data[1].permitted;
    if (holds) {
        if (prctl(PR_SET_SECUREBITS, SECURE_BITS_LOCKED_DOWN, 0, 0, 0) != 0) return -1;
        // Every capability the kernel knows: EINVAL past the last one.
        for (int capability = 0; capability < 64; capability++) {
            if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0) {
                if (errno == EINVAL) break;
                return -1;
            }
        }
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -1;
    memset(data, 0, sizeof data);
    return (int)syscall(SYS_capset, &header, data);
}

/// Moves `*fd` to a descriptor of at least 10 that nothing else holds, close-on-exec.
static int lift(int *fd) {
    if (*fd < 0) return 0;
    int lifted = fcntl(*fd, F_DUPFD_CLOEXEC, 10);
    if (lifted < 0) return -1;
    *fd = lifted;
    return 0;
}

/// Closes every descriptor from 3 up but those in `keep` (-1 entries are ignored).
static int close_all_except(const int *keep, int count) {
    int sorted[8];
    int n = 0;
    for (int i = 0; i < count; i++) {
        if (keep[i] < 3) continue;
        int j = n++;
        while (j > 0 && sorted[j - 1] > keep[i]) { sorted[j] = sorted[j - 1]; j--; }
        sorted[j] = keep[i];
    }
    unsigned int from = 3;
    for (int i = 0; i < n; i++) {
        if ((unsigned int)sorted[i] > from && syscall(SYS_close_range, from, (unsigned int)sorted[i] - 1, 0) != 0) return -1;
        from = (unsigned int)sorted[i] + 1;
    }
    return (int)syscall(SYS_close_range, from, ~0U, 0);
}

struct report { int kind; int value; };
enum { REPORT_STARTED = 1, REPORT_FAILED = 2, REPORT_EXITED = 3, REPORT_GATED = 4 };

static void report(int fd, int kind, int value) {
    struct report message = { kind, value };
    (void)!write(fd, &message, sizeof message);
}

/// A failure as one report's value: the error number, the step that failed, and the index of the path it
/// failed on (12, 4 and 15 bits).
static int encode_failure(int number, int step, int at) {
    return (number & 0xFFF) | (step & 0xF) << 12 | (at & 0x7FFF) << 16;
}

/// The extension, between its fork and execve.
static void become_extension(const struct csharing_spawn_spec *spec, int report_fd, int channel, int output, int null) {
    int failure = 0, step = CSHARING_SPAWN_STEP_SETUP, at = 0;
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) { failure = errno; goto failed; }
    // The standard descriptors, then the channel as 3; every other one closes now, the report pipe at exec.
    if (dup2(null, 0) < 0) { failure = errno; goto failed; }
    if (output >= 0 && (dup2(output, 1) < 0 || dup2(output, 2) < 0)) { failure = errno; goto failed; }
    if (dup2(channel, 3) < 0) { failure = errno; goto failed; }
    int keep[] = { 3, report_fd };
    if (close_all_except(keep, 2) != 0) { failure = errno; goto failed; }
    if (spec->data_limit > 0) {
        struct rlimit limit = { .rlim_cur = spec->data_limit, .rlim_max = spec->data_limit };
        if (setrlimit(RLIMIT_DATA, &limit) != 0) { failure = errno; goto failed; }
    }
    if (spec->file_size_limit > 0) {
        struct rlimit limit = { .rlim_cur = spec->file_size_limit, .rlim_max = spec->file_size_limit };
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) { failure = errno; goto failed; }
    }
    struct rlimit no_core = { 0, 0 };
    (void)setrlimit(RLIMIT_CORE, &no_core);
    // Darwin's default of 256 open files a process (Apple's Technical Q&A QA1005), and a hard limit of 1024: the
    // sockets and pipes the kernel buffers for it, which the footprint counts, are bounded however it passes them.
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) != 0) { failure = errno; goto failed; }
    if (files.rlim_max > 1024) files.rlim_max = 1024;
    files.rlim_cur = files.rlim_max < 256 ? files.rlim_max : 256;
    if (setrlimit(RLIMIT_NOFILE, &files) != 0) { failure = errno; goto failed; }
    if (spec->directory && chdir(spec->directory) != 0) { failure = errno; step = CSHARING_SPAWN_STEP_DIRECTORY; goto failed; }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) { failure = errno; goto failed; }
    if (spec->writable && landlock_confine(spec->writable, spec->executable, &step, &at) != 0) { failure = errno; goto failed; }
    step = CSHARING_SPAWN_STEP_SETUP;
    if (drop_capabilities() != 0) { failure = errno; goto failed; }
    report(report_fd, REPORT_STARTED, 0);
    execve(spec->path, spec->arguments, spec->environment);
    failure = errno;
    step = CSHARING_SPAWN_STEP_EXECUTE;
failed:
    report(report_fd, REPORT_FAILED, encode_failure(failure, step, at));
    _exit(127);
}

/// Appends `text` to `buffer` at `at` (within 100 bytes); the new length.
static int append(char *buffer, int at, const char *text) {
    while (*text && at < 100) buffer[at++] = *text++;
    return at;
}

/// Appends `value` in decimal.
static int append_number(char *buffer, int at, long value) {
    char digits[24];
    int n = 0;
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value > 0);
    while (n > 0 && at < 100) buffer[at++] = digits[--n];
    return at;
}

/// Reads the identifiers in /proc/PID/task/TID/children for every thread of `process` into `out` (at most
/// `capacity`); how many. Only system calls.
static int children_of(pid_t process, pid_t *out, int capacity) {
    char path[64];
    int length = append(path, 0, "/proc/");
    length = append_number(path, length, process);
    length = append(path, length, "/task");
    path[length] = 0;
    int count = 0;
    int directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return 0;
    char entries[1024];
    long got;
    while ((got = syscall(SYS_getdents64, directory, entries, sizeof entries)) > 0) {
        for (long offset = 0; offset < got;) {
            struct { unsigned long long ino; long long off; unsigned short reclen; unsigned char type; char name[]; } *entry = (void *)(entries + offset);
            offset += entry->reclen;
            if (entry->name[0] < '0' || entry->name[0] > '9') continue;
            char file[128];
            int at = append(file, 0, path);
            at = append(file, at, "/");
            at = append(file, at, entry->name);
            at = append(file, at, "/children");
            file[at] = 0;
            int list = open(file, O_RDONLY | O_CLOEXEC);
            if (list < 0) continue;
            char text[4096];
            ssize_t size = read(list, text, sizeof text);
            close(list);
            pid_t value = 0;
            int inNumber = 0;
            for (ssize_t i = 0; i < size; i++) {
                if (text[i] >= '0' && text[i] <= '9') { value = value * 10 + (text[i] - '0'); inNumber = 1; }
                else if (inNumber) { if (count < capacity) out[count++] = value; value = 0; inNumber = 0; }
            }
            if (inNumber && count < capacity) out[count++] = value;
        }
    }
    close(directory);
    return count;
}

/// Kills `process`'s descendants, deepest first found last, until none is left (a subreaper's teardown).
static void kill_descendants(pid_t process) {
    for (int round = 0; round < 1000; round++) {
        pid_t found[512];
        int count = children_of(process, found, 256);
        if (count == 0) {
            while (waitpid(-1, NULL, WNOHANG) > 0) {}
            if (children_of(process, found, 1) == 0) return;
            continue;
        }
        // Breadth first: each found process's own children join the list, then all are killed.
        for (int i = 0; i < count && count < 512; i++) count += children_of(found[i], found + count, 512 - count);
        for (int i = 0; i < count; i++) kill(found[i], SIGKILL);
        while (waitpid(-1, NULL, WNOHANG) > 0) {}
    }
}

/// Reads the decimal number at the start of `text`, moving `*text` past it.
static unsigned long long read_number(const char **text) {
    unsigned long long value = 0;
    while (**text >= '0' && **text <= '9') { value = value * 10 + (unsigned long long)(**text - '0'); (*text)++; }
    return value;
}

/// Wipes what this process shows of the program it was cloned from: the command line and environment that
/// /proc/PID/cmdline and /proc/PID/environ read from its memory (their bounds from /proc/self/stat, fields 48
/// to 51), overwritten in this process's own copy; and its name. It is made undumpable too, so that no process
/// without privileges reads the rest of its memory, its descriptors or its maps through /proc. Only system calls.
static void forget_host(void) {
    (void)prctl(PR_SET_NAME, "opensharing-init", 0, 0, 0);
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    int stat = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (stat < 0) return;
    char text[2048];
    ssize_t size = read(stat, text, sizeof text - 1);
    close(stat);
    if (size <= 0) return;
    text[size] = 0;
    // After the command's closing parenthesis (the last in the line): the third field, then 49 fields on.
    const char *at = text;
    for (const char *scan = text; *scan; scan++) if (*scan == ')') at = scan + 1;
    unsigned long long bounds[4] = { 0, 0, 0, 0 };
    for (int field = 3; field <= 51 && *at; field++) {
        while (*at == ' ') at++;
        if (field >= 48) bounds[field - 48] = read_number(&at);
        while (*at && *at != ' ') at++;
    }
    for (int range = 0; range < 2; range++) {
        unsigned long long start = bounds[range * 2], end = bounds[range * 2 + 1];
        if (start == 0 || end <= start || end - start > (64ULL << 20)) continue;
        for (volatile char *byte = (volatile char *)start; byte < (volatile char *)end; byte++) *byte = 0;
    }
}

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#define NAMESPACE_FLAGS (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWTIME)
/// A send at most this long waits for the host: a DNS query over UDP (at most 512 bytes, or EDNS's 1232).
#define SMALL_SEND 1232

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (field))
#define RETURN(value) BPF_STMT(BPF_RET | BPF_K, (value))
#define IF_CALL(nr, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, (skip))
#define ARGUMENT_LOW(i) offsetof(struct seccomp_data, args[i])
#define ARGUMENT_HIGH(i) (offsetof(struct seccomp_data, args[i]) + 4)

/// Confines the system calls of this process and its descendants, for good: no new namespaces (setns; unshare
/// and clone with a namespace flag; clone3, whose flags no filter can read, fails with ENOSYS so that the C
/// library falls back to clone), no system call of another architecture's table (x86_64's 32-bit and x32
/// tables included), no io_uring (whose operations no filter sees). With `watch` 1, each connect(2), each
/// small sendto(2) or sendmmsg(2) (where a DNS query goes) and each send with MSG_FASTOPEN waits for whoever
/// holds the returned listener (seccomp's user notifications, kernel 5.5 and later for letting a call go on);
/// where the kernel gives no listener, the refusals alone are installed and -1 is returned with errno. Only
/// system calls.
static int confine_calls(int watch) {
#if defined(NATIVE_AUDIT_ARCH) && defined(SECCOMP_FILTER_FLAG_NEW_LISTENER) && defined(SECCOMP_USER_NOTIF_FLAG_CONTINUE)
    const unsigned int held = watch ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ALLOW;
    struct sock_filter program[] = {
        LOAD(offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 1, 0),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        LOAD(offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        // The x32 table: the same architecture, numbers with bit 30 set.
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
#endif
        IF_CALL(SYS_connect, 1),
        RETURN(held),
        IF_CALL(SYS_sendmmsg, 1),
        RETURN(held),
        // sendto: held when it asks for MSG_FASTOPEN, or sends little (a datagram's query).
        IF_CALL(SYS_sendto, 8),
        LOAD(ARGUMENT_LOW(3)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MSG_FASTOPEN, 4, 0),
        LOAD(ARGUMENT_HIGH(2)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2),
        LOAD(ARGUMENT_LOW(2)),
        BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, SMALL_SEND, 1, 0),
        RETURN(held),
        RETURN(SECCOMP_RET_ALLOW),
        // sendmsg: held only when it asks for MSG_FASTOPEN.
        IF_CALL(SYS_sendmsg, 4),
        LOAD(ARGUMENT_LOW(2)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MSG_FASTOPEN, 0, 1),
        RETURN(held),
        RETURN(SECCOMP_RET_ALLOW),
        // unshare with a namespace flag; unsharing a process's own tables (CLONE_FILES, CLONE_FS) goes on.
        IF_CALL(SYS_unshare, 4),
        LOAD(ARGUMENT_LOW(0)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NAMESPACE_FLAGS, 0, 1),
        RETURN(SECCOMP_RET_ERRNO | EPERM),
        RETURN(SECCOMP_RET_ALLOW),
        IF_CALL(SYS_setns, 1),
        RETURN(SECCOMP_RET_ERRNO | EPERM),
        IF_CALL(SYS_clone3, 1),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        IF_CALL(SYS_clone, 4),
        LOAD(ARGUMENT_LOW(0)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NAMESPACE_FLAGS, 0, 1),
        RETURN(SECCOMP_RET_ERRNO | EPERM),
        RETURN(SECCOMP_RET_ALLOW),
        IF_CALL(SYS_io_uring_setup, 1),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        IF_CALL(SYS_io_uring_enter, 1),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        IF_CALL(SYS_io_uring_register, 1),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        RETURN(SECCOMP_RET_ALLOW),
    };
    struct sock_fprog filter = { .len = sizeof program / sizeof program[0], .filter = program };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    if (watch) {
        int listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &filter);
        if (listener >= 0) return listener;
        // No listener here: the refusals alone.
        int saved = errno;
        (void)confine_calls(0);
        errno = saved;
        return -1;
    }
    (void)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter);
    errno = ENOSYS;
    return -1;
#else
    (void)watch;
    errno = ENOSYS;
    return -1;
#endif
}

/// Sends `descriptor` over the socket `to` (SCM_RIGHTS); whether it went. Only system calls.
static int send_descriptor(int to, int descriptor) {
    char byte = 0;
    struct iovec data = { &byte, 1 };
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &data, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
    return sendmsg(to, &message, MSG_NOSIGNAL) == 1;
}

/// Receives a descriptor `send_descriptor` sent over `from`, without waiting; -1 when none is there.
static int receive_descriptor(int from) {
    char byte;
    struct iovec data = { &byte, 1 };
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &data, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space };
    ssize_t got;
    do { got = recvmsg(from, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC); } while (got < 0 && errno == EINTR);
    struct cmsghdr *header = got == 1 ? CMSG_FIRSTHDR(&message) : NULL;
    if (!header || header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS || header->cmsg_len != CMSG_LEN(sizeof(int))) return -1;
    int descriptor;
    memcpy(&descriptor, CMSG_DATA(header), sizeof(int));
    return descriptor;
}

/// The init: starts the extension, waits until the host has learnt which process it is (`hold_fd` at end of
/// file), reaps whatever ends, and when the extension ends says how to the host, ends every other process of
/// the tree, and exits.
static void become_init(const struct csharing_spawn_spec *spec, int namespaced, int report_fd, int status_fd,
                        int hold_fd, int channel, int output, int cgroup, int watch_fd) {
    int failure = 0;
    pid_t self = namespaced ? 0 : getpid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) { failure = errno; goto failed; }
    forget_host();
    if (!namespaced && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) { failure = errno; goto failed; }
    // A /proc of the namespace's own, in a mount namespace of its own, where the kernel allows one: the tree
    // sees its own processes by the numbers it knows them by (Swift's crash reporter stops threads by them).
    int private_mounts = 0;
    if (namespaced && unshare(CLONE_NEWNS) == 0) {
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0) {
            private_mounts = 1;
            (void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
        }
    }
    // The places the extension writes, each a mount of this namespace's own marked on the host's gate: every
    // access of a file's content through them waits for the host. Said to the host either way; the extension
    // never holds the gate (closed below, with every descriptor not kept).
    if (spec->disk_gate >= 0 && spec->gated) {
        int gated = private_mounts;
        for (int i = 0; gated && spec->gated[i]; i++) {
            gated = mount(spec->gated[i], spec->gated[i], NULL, MS_BIND, NULL) == 0
                && fanotify_mark(spec->disk_gate, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_PRE_ACCESS, AT_FDCWD, spec->gated[i]) == 0;
        }
        report(report_fd, REPORT_GATED, gated);
        // The log through the gated mount: the descriptor the host opened was opened outside it.
        if (gated && output >= 0 && spec->output_path) {
            int through = open(spec->output_path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
            if (through < 0 || dup2(through, output) < 0) { failure = errno; goto failed; }
            close(through);
        }
    }
    // The tree's system calls confined for good (no new namespace, no other architecture's table, no
    // io_uring), and every connection it opens, and every lookup it sends, seen by the host before it is
    // made: the listener goes to the host, and none of the tree holds it (the filter cannot be lifted; each
    // held call waits for the host's answer).
    int listener = confine_calls(watch_fd >= 0);
    if (watch_fd >= 0) {
        // Sent or not at all: a listener nobody holds would fail every held call with ENOSYS.
        if (listener >= 0 && !send_descriptor(watch_fd, listener)) { failure = errno; goto failed; }
        close(watch_fd);
    }
    if (listener >= 0) close(listener);
    // Into the cgroup before anything is allocated, so that the whole tree is in it ("0" names the writer).
    if (cgroup >= 0 && write(cgroup, "0", 1) != 1) { failure = errno; goto failed; }
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0) { failure = errno; goto failed; }
    int keep[] = { report_fd, status_fd, hold_fd, channel, output, null };
    if (close_all_except(keep, 6) != 0) { failure = errno; goto failed; }
    // vfork, not fork: this process may be a raw clone of a threaded one, whose allocator locks fork would
    // wait for, and a copy of the host's page tables (a second one: the init's was the first) costs the
    // launch more than anything else here. The child shares this process's memory until it executes, and so
    // makes only system calls, as become_extension does.
    pid_t extension = vfork();
    if (extension < 0) { failure = errno; goto failed; }
    if (extension == 0) become_extension(spec, report_fd, channel, output, null);
    close(report_fd);
    close(channel);
    if (output >= 0) close(output);
    close(null);
    // Unreaped, the extension stays the init's first child, and its number stays its own, however soon it
    // ends: the host reads both before it lets go.
    char byte;
    while (read(hold_fd, &byte, 1) < 0 && errno == EINTR) {}
    close(hold_fd);
    for (;;) {
        int status = 0;
        pid_t ended = waitpid(-1, &status, 0);
        if (ended < 0) {
            if (errno == EINTR) continue;
            _exit(0);
        }
        if (ended != extension) continue;
        report(status_fd, REPORT_EXITED, status);
        // In a PID namespace, -1 is every process of the namespace but this one; elsewhere the tree is found
        // through /proc, from this subreaper down.
        if (namespaced) kill(-1, SIGKILL); else kill_descendants(self);
        _exit(0);
    }
failed:
    report(report_fd, REPORT_FAILED, failure);
    _exit(127);
}

/// Closes each descriptor of `descriptors` that is open (not -1), keeping errno.
static void close_each(int *descriptors, int count) {
    int saved = errno;
    for (int i = 0; i < count; i++) if (descriptors[i] >= 0) close(descriptors[i]);
    errno = saved;
}

int csharing_spawn(const struct csharing_spawn_spec *spec, struct csharing_spawned *spawned) {
    spawned->connections = -1;
    // The report, status and hold pipes, and the socket pair the connection watch's listener comes over.
    int ends[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
    int *report_pipe = ends, *status_pipe = ends + 2, *hold_pipe = ends + 4, *watch_pair = ends + 6;
    if (pipe2(report_pipe, O_CLOEXEC) != 0 || pipe2(status_pipe, O_CLOEXEC) != 0 || pipe2(hold_pipe, O_CLOEXEC) != 0
        || (spec->watch_connections && socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, watch_pair) != 0)) {
        close_each(ends, 8);
        return -1;
    }
    pid_t parent = getpid();
    int namespaced = 0;
    pid_t init = -1;
    if (spec->pid_namespace) {
        init = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, NULL, NULL, 0);
        if (init >= 0) namespaced = 1;
    }
    if (init < 0) init = fork();
    if (init < 0) {
        close_each(ends, 8);
        return -1;
    }
    if (init == 0) {
        int report_fd = report_pipe[1], status_fd = status_pipe[1], hold_fd = hold_pipe[0], watch_fd = watch_pair[1];
        int channel = spec->channel, output = spec->output, cgroup = spec->cgroup_procs;
        // Above the descriptors the extension's set-up will use, so that no dup2 overwrites them.
        if (lift(&report_fd) != 0 || lift(&status_fd) != 0 || lift(&hold_fd) != 0 || lift(&channel) != 0 || lift(&output) != 0
            || lift(&cgroup) != 0 || lift(&watch_fd) != 0) {
            report(report_pipe[1], REPORT_FAILED, errno);
            _exit(127);
        }
        if (!namespaced && getppid() != parent) { report(report_fd, REPORT_FAILED, ESRCH); _exit(127); }
        become_init(spec, namespaced, report_fd, status_fd, hold_fd, channel, output, cgroup, watch_fd);
    }
    if (watch_pair[1] >= 0) close(watch_pair[1]);
    close(report_pipe[1]);
    close(status_pipe[1]);
    close(hold_pipe[0]);
    // The extension reports its identifier before execve; end of file then means it executed the program.
    struct report message;
    int started = 0;
    int failure = 0;
    for (;;) {
        ssize_t got;
        do { got = read(report_pipe[0], &message, sizeof message); } while (got < 0 && errno == EINTR);
        if (got != (ssize_t)sizeof message) break;
        if (message.kind == REPORT_STARTED) started = 1;
        if (message.kind == REPORT_GATED) spawned->gated = message.value;
        if (message.kind == REPORT_FAILED) {
            failure = message.value & 0xFFF ? message.value & 0xFFF : EIO;
            spawned->failed_step = message.value >> 12 & 0xF;
            spawned->failed_at = message.value >> 16 & 0x7FFF;
        }
    }
    close(report_pipe[0]);
    // Sent before the extension was started, so here by now, if the kernel gave one.
    spawned->connections = watch_pair[0] >= 0 ? receive_descriptor(watch_pair[0]) : -1;
    if (watch_pair[0] >= 0) close(watch_pair[0]);
    // The extension is the init's first child, as this process numbers it: the init, held, has not reaped it,
    // and a process it leaves behind is listed after it. Its process descriptor too, before the init lets go.
    pid_t extension = 0;
    children_of(init, &extension, 1);
    int program = extension > 0 ? csharing_pidfd_open(extension) : -1;
    close(hold_pipe[1]);
    if (failure || !started || extension <= 0) {
        if (program >= 0) close(program);
        if (spawned->connections >= 0) close(spawned->connections);
        kill(init, SIGKILL);
        while (waitpid(init, NULL, 0) < 0 && errno == EINTR) {}
        close(status_pipe[0]);
        errno = failure ? failure : ECHILD;
        return -1;
    }
    spawned->init = init;
    spawned->extension = extension;
    spawned->program = program;
    spawned->status = status_pipe[0];
    spawned->namespaced = namespaced;
    return 0;
}

int csharing_disk_gate_create(void) {
    // Each event names the thread that made the access (FAN_REPORT_TID): a thread with a descriptor table of its
    // own (unshare(CLONE_FILES)) shows its descriptors in /proc/TID/fd, not in its process's.
    return fanotify_init(FAN_CLASS_PRE_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_TID, O_RDONLY | O_LARGEFILE | O_CLOEXEC);
}

int csharing_disk_gate_read(int gate, struct csharing_gate_event *events, int capacity) {
    char buffer[4096] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
    int count = 0;
    ssize_t size = read(gate, buffer, sizeof buffer);
    if (size < 0) return errno == EAGAIN ? 0 : -1;
    for (struct fanotify_event_metadata *event = (void *)buffer; FAN_EVENT_OK(event, size); event = FAN_EVENT_NEXT(event, size)) {
        if (event->fd < 0) continue;
        // An event read is an access held until answered: one that does not fit is let go, never left waiting.
        if (event->vers != FANOTIFY_METADATA_VERSION || count == capacity) {
            struct fanotify_response response = { .fd = event->fd, .response = FAN_ALLOW };
            (void)!write(gate, &response, sizeof response);
            close(event->fd);
            continue;
        }
        struct csharing_gate_event held = { event->fd, event->pid, 0, 0 };
        for (char *info = (char *)event + event->metadata_len; info + sizeof(struct fanotify_event_info_header) <= (char *)event + event->event_len; ) {
            struct fanotify_event_info_header *header = (void *)info;
            if (header->len == 0) break;
            if (header->info_type == GATE_INFO_TYPE_RANGE && header->len >= sizeof *header + 4 + 16) {
                unsigned long long range[2];
                memcpy(range, info + sizeof *header + 4, sizeof range);
                held.offset = range[0];
                held.count = range[1];
            }
            info += header->len;
        }
        events[count++] = held;
    }
    return count;
}

int csharing_disk_gate_answer(int gate, int file, int allow) {
    struct fanotify_response response = { .fd = file, .response = allow ? FAN_ALLOW : GATE_DENY_ENOSPC };
    ssize_t written = write(gate, &response, sizeof response);
    int saved = errno;
    close(file);
    errno = saved;
    return written == (ssize_t)sizeof response ? 0 : -1;
}

/// The thread group (the process) thread `thread` belongs to, from /proc/THREAD/status; `thread` itself when
/// that cannot be read.
static pid_t thread_group_of(pid_t thread) {
    char path[64];
    int length = append(path, 0, "/proc/");
    length = append_number(path, length, thread);
    length = append(path, length, "/status");
    path[length] = 0;
    int file = open(path, O_RDONLY | O_CLOEXEC);
    if (file < 0) return thread;
    char text[4096];
    ssize_t size = read(file, text, sizeof text - 1);
    close(file);
    if (size <= 0) return thread;
    text[size] = 0;
    const char *line = strstr(text, "\nTgid:");
    if (!line) return thread;
    line += 6;
    while (*line == ' ' || *line == '\t') line++;
    pid_t group = (pid_t)read_number(&line);
    return group > 0 ? group : thread;
}

/// Reads `count` bytes at `address` of process `pid`'s memory into `into`: how many it read (0 on failure).
static int read_memory(pid_t pid, unsigned long long address, void *into, size_t count) {
    if (address == 0 || count == 0) return 0;
    struct iovec local = { into, count }, remote = { (void *)(uintptr_t)address, count };
    ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    return got > 0 ? (int)got : 0;
}

int csharing_connection_receive(int listener, struct csharing_connection *connection) {
#if defined(SECCOMP_IOCTL_NOTIF_RECV) && defined(SECCOMP_USER_NOTIF_FLAG_CONTINUE)
    struct seccomp_notif call;
    memset(&call, 0, sizeof call);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &call) != 0) return -1;
    memset(connection, 0, sizeof *connection);
    connection->id = call.id;
    connection->pid = (int)call.pid;
    connection->family = -1;
    connection->type = -1;
    const unsigned long long *argument = call.data.args;
    // The message header a sendmsg or sendmmsg names (a sendmmsg's first), from the caller's memory.
    struct msghdr header;
    memset(&header, 0, sizeof header);
    unsigned long long name = 0, name_length = 0, data = 0, data_length = 0;
    switch (call.data.nr) {
    case SYS_connect:
        connection->call = CSHARING_CALL_CONNECT;
        name = argument[1];
        name_length = argument[2];
        break;
    case SYS_sendto:
        connection->call = CSHARING_CALL_SENDTO;
        connection->fast_open = (argument[3] & MSG_FASTOPEN) != 0;
        name = argument[4];
        name_length = argument[5];
        data = argument[1];
        data_length = argument[2];
        break;
    case SYS_sendmsg:
    case SYS_sendmmsg:
        connection->call = call.data.nr == SYS_sendmsg ? CSHARING_CALL_SENDMSG : CSHARING_CALL_SENDMMSG;
        connection->fast_open = ((call.data.nr == SYS_sendmsg ? argument[2] : argument[3]) & MSG_FASTOPEN) != 0;
        if (read_memory((pid_t)call.pid, argument[1], &header, sizeof header) == (int)sizeof header) {
            name = (uintptr_t)header.msg_name;
            name_length = header.msg_namelen;
            struct iovec first;
            if (header.msg_iovlen > 0 && read_memory((pid_t)call.pid, (uintptr_t)header.msg_iov, &first, sizeof first) == (int)sizeof first) {
                data = (uintptr_t)first.iov_base;
                data_length = first.iov_len;
            }
        }
        break;
    default:
        connection->call = -1;
    }
    // The socket as the process holds it, for its domain, type and peer, which its memory could lie about. The
    // caller is a thread; its process (its thread group's leader) holds the descriptors.
    int process = csharing_pidfd_open(thread_group_of((pid_t)call.pid));
    int socket = process >= 0 ? (int)syscall(SYS_pidfd_getfd, process, (int)argument[0], 0) : -1;
    struct sockaddr_storage peer;
    socklen_t peer_length = 0;
    if (socket >= 0) {
        int value;
        socklen_t length = sizeof value;
        if (getsockopt(socket, SOL_SOCKET, SO_DOMAIN, &value, &length) == 0) connection->family = value;
        length = sizeof value;
        if (getsockopt(socket, SOL_SOCKET, SO_TYPE, &value, &length) == 0) connection->type = value;
        peer_length = sizeof peer;
        if (getpeername(socket, (struct sockaddr *)&peer, &peer_length) != 0) peer_length = 0;
        close(socket);
    }
    if (process >= 0) close(process);
    // Where it goes: the address the call names, else (a send on a connected socket) the socket's peer.
    if (name != 0 && name_length > 0) {
        size_t wanted = name_length < sizeof connection->address ? (size_t)name_length : sizeof connection->address;
        connection->address_length = read_memory((pid_t)call.pid, name, connection->address, wanted);
    } else if (connection->call != CSHARING_CALL_CONNECT && peer_length > 0) {
        size_t kept = peer_length < sizeof connection->address ? peer_length : sizeof connection->address;
        memcpy(connection->address, &peer, kept);
        connection->address_length = (int)kept;
    }
    // What a datagram carries (a DNS query names what it looks up).
    if (connection->type == SOCK_DGRAM && data != 0 && data_length > 0) {
        size_t wanted = data_length < sizeof connection->payload ? (size_t)data_length : sizeof connection->payload;
        connection->payload_length = read_memory((pid_t)call.pid, data, connection->payload, wanted);
    }
    // Read from the process that asked, not one that took its number since.
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &call.id) != 0) {
        connection->family = connection->type = -1;
        connection->address_length = connection->payload_length = 0;
    }
    return 0;
#else
    (void)listener; (void)connection;
    errno = ENOSYS;
    return -1;
#endif
}

int csharing_connection_continue(int listener, unsigned long long id) {
#if defined(SECCOMP_IOCTL_NOTIF_SEND) && defined(SECCOMP_USER_NOTIF_FLAG_CONTINUE)
    struct seccomp_notif_resp answer;
    memset(&answer, 0, sizeof answer);
    answer.id = id;
    answer.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &answer);
#else
    (void)listener; (void)id;
    errno = ENOSYS;
    return -1;
#endif
}

int csharing_connection_refuse(int listener, unsigned long long id, int error) {
#if defined(SECCOMP_IOCTL_NOTIF_SEND)
    struct seccomp_notif_resp answer;
    memset(&answer, 0, sizeof answer);
    answer.id = id;
    answer.error = -error;
    answer.val = -1;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &answer);
#else
    (void)listener; (void)id; (void)error;
    errno = ENOSYS;
    return -1;
#endif
}

#else

int csharing_disk_gate_create(void) { errno = ENOSYS; return -1; }
int csharing_disk_gate_read(int gate, struct csharing_gate_event *events, int capacity) { (void)gate; (void)events; (void)capacity; errno = ENOSYS; return -1; }
int csharing_disk_gate_answer(int gate, int file, int allow) { (void)gate; (void)file; (void)allow; errno = ENOSYS; return -1; }
int csharing_landlock_abi(void) { return 0; }
int csharing_connection_receive(int listener, struct csharing_connection *connection) { (void)listener; (void)connection; errno = ENOSYS; return -1; }
int csharing_connection_continue(int listener, unsigned long long id) { (void)listener; (void)id; errno = ENOSYS; return -1; }
int csharing_connection_refuse(int listener, unsigned long long id, int error) { (void)listener; (void)id; (void)error; errno = ENOSYS; return -1; }
int csharing_spawn(const struct csharing_spawn_spec *spec, struct csharing_spawned *spawned) {
    (void)spec; (void)spawned; errno = ENOSYS; return -1;
}

#endif
