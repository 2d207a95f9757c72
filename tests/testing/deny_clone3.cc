// deny_clone3 [--eperm] COMMAND [ARG]... -- runs COMMAND with clone3(2) refused, as under a container's seccomp
// profile that does not allow it: ENOSYS, what profiles that know clone3 is new answer so that glibc falls back
// (Docker 20.10.x and later, podman); with --eperm, EPERM, what Docker's profile before that answered.
//
// It installs a seccomp filter (no privileges needed once no_new_privs is set) that answers clone3 with that error
// and allows every other call, then execs COMMAND. glibc falls back to clone for its own fork and posix_spawn on
// ENOSYS; a caller that needs clone3 itself (timeout --tree's CLONE_INTO_CGROUP) sees the refusal either way.
//
// Exit status: COMMAND's (it replaces this process); 125 if the filter cannot be installed (the message says why),
// 126/127 if COMMAND cannot be run.
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "deny_clone3: add this architecture's AUDIT_ARCH_*"
#endif

#ifndef __NR_clone3
#define __NR_clone3 435  // The same number on every architecture (the unified syscall table).
#endif

int main(int argc, char** argv) {
  const bool eperm = argc > 1 && strcmp(argv[1], "--eperm") == 0;
  const int refusal = eperm ? EPERM : ENOSYS;
  char** command = argv + (eperm ? 2 : 1);
  if (*command == nullptr) {
    fprintf(stderr, "usage: deny_clone3 [--eperm] COMMAND [ARG]...\n");
    return 125;
  }
  sock_filter filter[] = {
      // Another ABI's numbers mean other calls: leave them alone.
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (static_cast<unsigned>(refusal) & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  // An unprivileged process may install a filter only once it can never gain privileges (setuid exec).
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    fprintf(stderr, "deny_clone3: prctl(PR_SET_NO_NEW_PRIVS): %s\n", strerror(errno));
    return 125;
  }
  // Only clone3 answers otherwise; every call of every other ABI and number is allowed.
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) {
    fprintf(stderr, "deny_clone3: prctl(PR_SET_SECCOMP): %s\n", strerror(errno));
    return 125;
  }
  // The filter is inherited across exec (and by every child): COMMAND runs under it.
  execvp(command[0], command);
  const int error = errno;
  fprintf(stderr, "deny_clone3: %s: %s\n", command[0], strerror(error));
  return error == ENOENT ? 127 : 126;
}
