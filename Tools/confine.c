// confine: runs a command with what a CI container usually lacks taken away, so that the tests can show the
// runtime's fallbacks give the verdicts its full sandbox gives. Taken away, for the command and everything it
// starts: CAP_SYS_ADMIN (so no pre-content fanotify group: no disk gate), new namespaces of any kind and
// joining one (unshare, setns, clone with a namespace flag), mounting, and clone3 (as Docker's default
// seccomp profile answers it: ENOSYS, so that callers fall back to clone).
//
// Usage: confine COMMAND [ARGUMENT...]
// Built by the Makefile: cc -O2 -o .build/confine Tools/confine.c
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NAMESPACES (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

// Load the call's number; a call refused outright answers `error`.
#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define REFUSE(call, error) \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (call), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (error))

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: confine COMMAND [ARGUMENT...]\n");
        return 2;
    }
    // Out of the bounding set, CAP_SYS_ADMIN is gone from every program executed from here, root's included.
    if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) != 0) {
        perror("confine: dropping CAP_SYS_ADMIN");
        return 2;
    }
    struct sock_filter filter[] = {
        LOAD(arch),
        // Another architecture's calls are not this filter's concern.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        LOAD(nr),
        REFUSE(__NR_unshare, EPERM),
        REFUSE(__NR_setns, EPERM),
        REFUSE(__NR_mount, EPERM),
        REFUSE(__NR_umount2, EPERM),
        REFUSE(__NR_pivot_root, EPERM),
        REFUSE(__NR_fanotify_init, EPERM),
        REFUSE(__NR_clone3, ENOSYS),
        // clone itself goes on, but not with a namespace flag in its first argument.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3),
        LOAD(args[0]),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NAMESPACES, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        perror("confine: installing the filter");
        return 2;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "confine: cannot run %s: ", argv[1]);
    perror(NULL);
    return 127;
}
