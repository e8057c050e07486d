// System calls the Swift Glibc module does not expose (they need _GNU_SOURCE), behind one small C layer.
#ifndef CSHARING_SYSTEM_H
#define CSHARING_SYSTEM_H

#include <sys/types.h>

/// copy_file_range(2) of at most `length` bytes from `*offset` of `from` (advanced by what moved; the
/// descriptor's own offset untouched) to the current offset of `to`. -1 with errno ENOSYS where the system has
/// no such call.
ssize_t csharing_copy_file_range(int from, long long *offset, int to, size_t length);

/// sendfile(2) from `*offset` of `from` (advanced by what moved; its own offset untouched). -1 with errno
/// ENOSYS where unavailable for files.
ssize_t csharing_sendfile(int to, int from, long long *offset, size_t length);

/// Starts writing a range of a file's dirty pages to its device without waiting for it (sync_file_range(2)
/// with SYNC_FILE_RANGE_WRITE on Linux); nothing elsewhere. Not a flush: what it started, fsync finishes.
void csharing_start_writeback(int descriptor, off_t offset, off_t length);

/// Reserves a new file's blocks for `length` bytes without changing its size (fallocate(2) with
/// FALLOC_FL_KEEP_SIZE on Linux), on a file system on a device; nothing elsewhere. A hint: where it fails (a
/// file system without it, no space), the writes that follow fail or succeed on their own.
void csharing_reserve_blocks(int descriptor, off_t length);

/// Renames without replacing: fails with EEXIST when `to` exists (renameat2 RENAME_NOREPLACE on Linux,
/// renameatx_np RENAME_EXCL on Darwin).
int csharing_rename_noreplace(int from_directory, const char *from, int to_directory, const char *to);

/// Names the calling thread (at most 15 bytes are kept on Linux).
void csharing_set_thread_name(const char *name);

/// The calling thread's name, into `name` of `size` bytes.
void csharing_thread_name(char *name, size_t size);

// Processes and the packets between them (Linux; elsewhere each fails with ENOSYS).

/// A connected pair of AF_UNIX SOCK_SEQPACKET sockets, both close-on-exec.
int csharing_packet_socketpair(int descriptors[2]);

/// Sends one packet: `length` bytes and `count` descriptors (SCM_RIGHTS). MSG_NOSIGNAL: a closed peer is
/// EPIPE, not SIGPIPE; `nonblocking`: a full peer is EAGAIN, not a wait. Returns the bytes sent or -1.
ssize_t csharing_send_packet(int socket, const void *bytes, size_t length, const int *descriptors, int count, int nonblocking);

/// Receives one packet into `bytes` (at most `capacity`) and at most `capacity_descriptors` descriptors, made
/// close-on-exec (MSG_CMSG_CLOEXEC). Sets `*count` to the descriptors received and `*truncated` to 1 when the
/// packet or its descriptors did not fit (what did arrive is still returned, to be closed). Returns the bytes
/// received, or -1; when it returns 0 with no descriptors, `*ended` says whether that was the peer's end of file
/// (1) or a packet of no bytes (0). `*sent_at` is the real-time clock's reading, in nanoseconds since 1970, that the
/// kernel stamped the packet with as the peer queued it (a socket made to stamp arrivals), or 0 when it has none.
ssize_t csharing_receive_packet(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors,
                                int *count, int *truncated, int *ended, long long *sent_at);

/// Makes the kernel stamp each packet queued for `socket` with the time it was queued (SO_TIMESTAMPNS).
int csharing_stamp_arrivals(int socket);

/// The type of the file system a descriptor's file is on (statfs's f_type), or -1 with errno.
long long csharing_filesystem_type(int descriptor);

/// The process identifier and user of the peer of a connected AF_UNIX socket (SO_PEERCRED).
int csharing_peer_credentials(int socket, pid_t *pid, uid_t *uid);

/// An anonymous memory file (memfd), close-on-exec, that can be sealed.
int csharing_memfd_create(const char *name);

/// Seals a memory file against every change: shrinking, growing, writing and further seals.
int csharing_memfd_seal(int descriptor);

/// Whether a memory file is sealed against every change (1), not (0), or not a sealable file (-1).
int csharing_memfd_is_sealed(int descriptor);

/// A pipe, both ends close-on-exec: descriptors[0] reads, descriptors[1] writes.
int csharing_pipe(int descriptors[2]);

/// accept(2) of a connection whose descriptor is close-on-exec from the start (accept4).
int csharing_accept(int socket);

/// write(2) that fails with EPIPE, instead of raising SIGPIPE, when the reading end is gone: SIGPIPE is
/// blocked in the calling thread around the write, and one the write raised is taken back.
ssize_t csharing_write_without_sigpipe(int descriptor, const void *bytes, size_t length);

/// A descriptor for process `pid` (pidfd_open), close-on-exec.
int csharing_pidfd_open(pid_t pid);

/// The calling thread's identifier (gettid).
pid_t csharing_thread_id(void);

/// Whether system call `number` is one a watched tree's thread waits in for the host's answer (connect,
/// sendto, sendmsg, sendmmsg: `csharing_connection_receive`).
int csharing_is_held_call(long number);

/// Sends `signal` through a process descriptor (pidfd_send_signal).
int csharing_pidfd_send_signal(int pidfd, int signal);

/// Reaps the exited process of a process descriptor without blocking: 1 with its status (as waitpid's), 0 if
/// it has not exited, -1 on error.
int csharing_pidfd_reap(int pidfd, int *status);

/// Starts `path` as an ordinary child (posix_spawn): its arguments and environment (NULL-terminated), `input`,
/// `output` and `error` as its standard descriptors, no signal blocked and every one at its default; the rest
/// of this process's descriptors are close-on-exec, as the layer opens every one. Sets `*pid`; 0, or -1 with errno.
int csharing_spawn_child(const char *path, char *const *arguments, char *const *environment, int input, int output, int error, pid_t *pid);

/// How an extension is started: the program, its arguments and environment (NULL-terminated), its working
/// directory, the descriptor it gets as 3, where its standard output and error go (-1: inherited), the
/// data-segment limit (RLIMIT_DATA) and file-size limit (RLIMIT_FSIZE) in bytes (0: none), and a cgroup's
/// `cgroup.procs` open for writing (-1: none), which the tree joins before the program runs.
struct csharing_spawn_spec {
    const char *path;
    char *const *arguments;
    char *const *environment;
    const char *directory;
    int channel;
    int output;
    unsigned long long data_limit;
    unsigned long long file_size_limit;
    int cgroup_procs;
    /// When not NULL (NULL-terminated lists), the extension confines itself with Landlock before executing: it
    /// may read anywhere, write (create, remove) only beneath `writable`, execute only beneath `executable`, and
    /// where the kernel has Landlock ABI 6, signal and reach abstract sockets only within its own domain.
    const char *const *writable;
    const char *const *executable;
    /// 1: the init gets a PID namespace of its own when the kernel allows it (else it is a subreaper).
    int pid_namespace;
    /// A disk gate (`csharing_disk_gate_create`), or -1: in its mount namespace the init binds each of `gated`
    /// (NULL-terminated) onto itself and marks the mount on the gate, so that each access of a file's content
    /// beneath them waits for this process's answer; then it closes the gate, which the extension never holds.
    int disk_gate;
    const char *const *gated;
    /// The file `output` is open on, beneath one of `gated`: once the gate holds, the init opens it again by this
    /// path, through the gated mount, so that what the extension prints is held to the budget as its files are
    /// (`output` itself was opened outside the mount namespace, where nothing waits). NULL: `output` as it is.
    const char *output_path;
    /// 1: every connect(2) of the tree, and each send that may carry a DNS query or open a connection, waits
    /// until the host has answered it (`csharing_connection_receive`), where the kernel has seccomp's user
    /// notifications; `csharing_spawned.connections` is the listener. Either way the tree is refused new
    /// namespaces, system calls of another architecture's table, and io_uring.
    int watch_connections;
};

/// What `csharing_spawn` started.
struct csharing_spawned {
    /// The init, this process's child: the tree's root.
    pid_t init;
    /// The extension, the init's child, as this process's namespace numbers it.
    pid_t extension;
    /// The extension's process descriptor (pidfd; -1 where the kernel has none), opened before the init could
    /// reap it: it never names another process.
    int program;
    /// Readable once the extension has ended: 8 bytes, {3, its wait status}. End of file without them: the init
    /// ended first (it was killed).
    int status;
    /// Whether the tree has a PID namespace of its own (else the init is a subreaper in this one).
    int namespaced;
    /// Whether every path of `gated` was bound and marked on the gate (else nothing waits on it).
    int gated;
    /// The listener each connect(2) of the tree waits on when `watch_connections` was asked and the kernel gave
    /// one, this process's to read and close; else -1. Whoever holds it must answer every call it holds.
    int connections;
    /// When starting failed: the step that failed (`CSHARING_SPAWN_STEP_…`), and for a list of paths, the
    /// index of the one it failed on.
    int failed_step;
    int failed_at;
};

/// The steps of starting an extension that can fail.
enum {
    /// Limits, descriptors, capabilities: the system refused.
    CSHARING_SPAWN_STEP_SETUP = 0,
    /// Entering its working directory.
    CSHARING_SPAWN_STEP_DIRECTORY = 1,
    /// Opening a path it may write beneath (`writable[failed_at]`), for the sandbox.
    CSHARING_SPAWN_STEP_WRITABLE = 2,
    /// Opening a path it may execute beneath (`executable[failed_at]`), for the sandbox.
    CSHARING_SPAWN_STEP_EXECUTABLE = 3,
    /// Making or entering the sandbox itself.
    CSHARING_SPAWN_STEP_SANDBOX = 4,
    /// Executing the program.
    CSHARING_SPAWN_STEP_EXECUTE = 5,
};

/// The bytes the kernel holds queued for descriptor `descriptor` of the process `pidfd` names, fetched with
/// pidfd_getfd: a local socket's sends not yet read (its send memory), a network socket's send and receive
/// queues, a pipe's unread bytes. -1 with errno when the descriptor cannot be fetched.
long long csharing_queued_bytes(int pidfd, int descriptor);

/// A watch of directories for writes (inotify), non-blocking and close-on-exec; -1 with errno.
int csharing_watch_create(void);

/// Adds `directory` (not following a link) to `watch`: files created, written, closed after writing or moved
/// into it. The watch descriptor, or -1 with errno.
int csharing_watch_add(int watch, const char *directory);

/// Whether an event's mask says a directory was created or moved in (to be watched too).
int csharing_watch_is_directory(unsigned int mask);

/// Opens `path` only to name its file (O_PATH, close-on-exec), which does not open a FIFO or device; where
/// the system has no O_PATH, for reading, non-blocking.
int csharing_open_name(const char *path);

/// What a descriptor grants: 0 reading, 1 writing only, 2 nothing but naming its file (O_PATH); -1 with errno
/// for a descriptor that is not open.
int csharing_descriptor_access(int descriptor);

/// Makes standard output line-buffered, so that each line a program prints is written as it is printed.
void csharing_line_buffer_stdout(void);

/// A disk gate: a fanotify group of the pre-content class (kernel 6.14 and later), non-blocking and
/// close-on-exec, whose events are accesses of a file's content that wait for an answer. -1 with errno where the
/// kernel has none or refuses it.
int csharing_disk_gate_create(void);

/// One access the gate holds: the file (a descriptor of it, this process's to close) and the range of bytes.
struct csharing_gate_event {
    int file;
    int pid;
    unsigned long long offset;
    unsigned long long count;
};

/// Reads the held accesses waiting on `gate` (one read's worth) into `events`: their number, 0 when none waits,
/// or -1 with errno. Any beyond `capacity` are let go at once, never left waiting.
int csharing_disk_gate_read(int gate, struct csharing_gate_event *events, int capacity);

/// Answers a held access: it goes on (`allow` 1) or fails with ENOSPC, as a full disk fails it (0); then
/// closes the event's file. 0, or -1 with errno.
int csharing_disk_gate_answer(int gate, int file, int allow);

/// The system calls of a watched tree that wait for the host (`csharing_connection_receive`).
enum {
    /// connect(2).
    CSHARING_CALL_CONNECT = 0,
    /// sendto(2): a small one (a datagram's, a DNS query's), or one with MSG_FASTOPEN.
    CSHARING_CALL_SENDTO = 1,
    /// sendmsg(2) with MSG_FASTOPEN.
    CSHARING_CALL_SENDMSG = 2,
    /// sendmmsg(2): the first message (a DNS lookup sends its two queries so).
    CSHARING_CALL_SENDMMSG = 3,
};

/// One call a process of a watched tree made that opens or uses a connection, as the host saw it before
/// answering it: a connect, a small send (where a DNS query goes), a send that opens a connection itself.
struct csharing_connection {
    /// The call's identifier, for `csharing_connection_continue` and `csharing_connection_refuse`.
    unsigned long long id;
    /// The caller, as this process's namespace numbers it.
    int pid;
    /// Which call (`CSHARING_CALL_…`).
    int call;
    /// The socket's domain (AF_INET, AF_UNIX …) and type (SOCK_STREAM …), from the socket itself; -1 unknown.
    int family;
    int type;
    /// The call asked for MSG_FASTOPEN: a stream send that connects first.
    int fast_open;
    /// Where it goes (a sockaddr, at most 28 bytes): the address the call names, read from the caller's memory,
    /// else the socket's peer; 0 bytes when neither could be read.
    int address_length;
    unsigned char address[28];
    /// A datagram send's first bytes (its first message's), at most 512, from the caller's memory; 0 otherwise.
    int payload_length;
    unsigned char payload[512];
};

/// Waits for the next call held on `listener` and describes it into `connection`; the call waits on until it is
/// answered. 0, or -1 with errno (ENOENT once no process of the tree is left to call).
int csharing_connection_receive(int listener, struct csharing_connection *connection);

/// Lets the held call `id` go on as the program made it. 0, or -1 with errno (ENOENT: its caller is gone).
int csharing_connection_continue(int listener, unsigned long long id);

/// Fails the held call `id` with `error` (an errno) without making it. 0, or -1 with errno.
int csharing_connection_refuse(int listener, unsigned long long id, int error);

/// The kernel's Landlock ABI version, or 0 where the kernel has no Landlock (or it is disabled).
int csharing_landlock_abi(void);

/// Starts an extension under a small init of our own, which this process starts as a child that dies with a
/// signal when the calling thread does (PR_SET_PDEATHSIG, SIGKILL). The init has a PID namespace of its own
/// where allowed (else it is a subreaper), joins the cgroup, starts the extension, reaps every process of the
/// tree, and when the extension ends, reports its wait status on `status`, kills every other process of the
/// tree and exits. The extension reads from /dev/null, has `channel` as descriptor 3 and no other descriptor
/// beyond the standard three, has no capabilities and no way to gain any (locked securebits, empty bounding
/// set, no_new_privs), and runs under the limits and Landlock. Returns 0, or -1 with errno (the extension's
/// errno when it could not execute the program).
int csharing_spawn(const struct csharing_spawn_spec *spec, struct csharing_spawned *spawned);

#endif
