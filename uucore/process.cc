#include "uucore/process.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "uucore/cli.h"

namespace uucore {
namespace {

// Everything the vfork child needs, prepared by the parent: the child may only make system calls and write here.
struct ChildPlan {
  char* const* argv;
  const SpawnOptions* options;
  volatile int exec_errno;  // Written by the child (shared memory under vfork) when exec fails.
};

// Runs in the vfork child, on the parent's memory: no allocation, no locks, no return; only syscalls and _exit.
[[noreturn]] void ChildAfterVfork(ChildPlan* plan) {
  const SpawnOptions& options = *plan->options;
  if (options.new_process_group) setpgid(0, 0);
  struct sigaction action = {};
  sigemptyset(&action.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) {
    // Dispositions first, while every signal is still blocked: nothing can run a handler in between.
    if (options.reset_default != nullptr && sigismember(options.reset_default, sig) == 1) {
      action.sa_handler = SIG_DFL;
      sigaction(sig, &action, nullptr);
    }
    if (options.ignore != nullptr && sigismember(options.ignore, sig) == 1) {
      action.sa_handler = SIG_IGN;
      sigaction(sig, &action, nullptr);
    }
  }
  // The child's own mask last, right before exec: the caller's mask, not the one the parent uses to wait.
  if (options.mask != nullptr) sigprocmask(SIG_SETMASK, options.mask, nullptr);
  execvp(plan->argv[0], plan->argv);
  plan->exec_errno = errno;  // Seen by the parent as soon as we _exit: vfork shares our memory with it.
  _exit(kExitCannotInvoke);
}

// struct clone_args of <linux/sched.h> up to `cgroup` (CLONE_ARGS_SIZE_VER2, Linux 5.7), declared here because
// glibc 2.36 has no clone3() wrapper and <linux/sched.h> redefines <sched.h>'s CLONE_* macros.
struct CloneArgs {
  uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};
constexpr uint64_t kCloneIntoCgroup = 0x200000000ULL;  // CLONE_INTO_CGROUP

[[noreturn]] void ChildOnItsOwnStack(void* plan) { ChildAfterVfork(static_cast<ChildPlan*>(plan)); }

// clone3(args) whose child runs fn(arg) on the stack named in args and never comes back here; the parent gets the
// pid or -errno. In assembly because the child must not return through a C frame: with CLONE_VM it would return
// into the parent's frames from a different stack (glibc's vfork() avoids that by keeping its return address in a
// register; clone3 with a stack of its own avoids it by never returning).
long Clone3WithTrampoline(CloneArgs* args, void (*fn)(void*), void* arg) {
#if defined(__x86_64__) && defined(SYS_clone3)
  long ret;
  asm volatile(
      "syscall\n\t"
      "testq %%rax, %%rax\n\t"
      "jnz 1f\n\t"
      "xorl %%ebp, %%ebp\n\t"  // The child: the outermost frame of its new stack (16-byte aligned at the call).
      "movq %[arg], %%rdi\n\t"
      "callq *%[fn]\n\t"
      "ud2\n"
      "1:"
      : "=a"(ret)
      : "0"(static_cast<long>(SYS_clone3)), "D"(args), "S"(sizeof(CloneArgs)), [fn] "r"(fn), [arg] "r"(arg)
      : "rcx", "r11", "memory", "cc");
  return ret;
#else
  (void)args, (void)fn, (void)arg;
  return -ENOSYS;
#endif
}

// vfork() into a cgroup: clone3(CLONE_VM|CLONE_VFORK|CLONE_INTO_CGROUP) with the child on a stack of its own, which
// runs ChildAfterVfork(plan) exactly as the vfork child does (same memory, so exec_errno reaches us the same way).
// Returns the pid, or -1 with errno set. Called with every signal blocked, as vfork() is.
pid_t CloneIntoCgroup(ChildPlan* plan, int cgroup_fd) {
  size_t argc = 0;
  while (plan->argv[argc] != nullptr) ++argc;
  // execvp's own needs: a PATH buffer and, for a script without #!, a copy of argv; sigaction and the rest are small.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t size = ((argc + 3) * sizeof(char*) + PATH_MAX + 64 * 1024 + page - 1) / page * page;
  void* map = mmap(nullptr, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE,
                   -1, 0);
  if (map == MAP_FAILED) return -1;
  (void)mprotect(map, page, PROT_NONE);  // A guard page below the stack: an overflow faults instead of corrupting.
  CloneArgs args = {};
  args.flags = CLONE_VM | CLONE_VFORK | kCloneIntoCgroup;
  args.exit_signal = SIGCHLD;
  args.stack = reinterpret_cast<uintptr_t>(map) + page;
  args.stack_size = size;
  args.cgroup = static_cast<uint64_t>(cgroup_fd);
  // Returns once the child has exec'd or exited (CLONE_VFORK): its stack is ours to free.
  const long ret = Clone3WithTrampoline(&args, ChildOnItsOwnStack, plan);
  munmap(map, size + page);
  if (ret < 0) {
    errno = static_cast<int>(-ret);
    return -1;
  }
  return static_cast<pid_t>(ret);
}

absl::Status WaitError(int err) {
  if (err == ECHILD) return absl::NotFoundError("waitpid: no such child (already reaped?)");
  return absl::ErrnoToStatus(err, "waitpid");
}

}  // namespace

int ExecFailureStatus(int err) {
  // Exit like sh, env, nohup: 127 if not found, 126 if found but not runnable.
  return err == ENOENT ? kExitEnoent : kExitCannotInvoke;
}

int ExecFailureStatus(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kNotFound: return kExitEnoent;
    case absl::StatusCode::kFailedPrecondition: return kExitCannotInvoke;
    default: return kExitCanceled;  // Not the command's fault: the utility could not even try.
  }
}

absl::Status ExecError(int err) {
  const char* reason = strerror(err);
  return err == ENOENT ? absl::NotFoundError(reason) : absl::FailedPreconditionError(reason);
}

absl::StatusOr<pid_t> Spawn(char* const argv[], const SpawnOptions& options) {
  if (argv == nullptr || argv[0] == nullptr) return absl::InvalidArgumentError("no command to run");
  // Keep the caller's mask if none was asked for: read it now, before blocking everything.
  sigset_t all, caller_mask;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &caller_mask);  // Block all: no handler may run in the child on our memory.
  SpawnOptions child_options = options;
  if (child_options.mask == nullptr) child_options.mask = &caller_mask;
  ChildPlan plan = {argv, &child_options, 0};
  const pid_t pid = options.cgroup_fd >= 0 ? CloneIntoCgroup(&plan, options.cgroup_fd) : vfork();
  if (pid == 0) ChildAfterVfork(&plan);  // vfork() only: CloneIntoCgroup()'s child never returns here.
  const int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &caller_mask, nullptr);  // Give the caller its mask back on every path.
  if (pid < 0 && options.cgroup_fd >= 0) {
    // Nothing was started: the caller may try again without the cgroup (kUnavailable is this path's alone).
    return absl::UnavailableError(absl::StrCat("cannot start the command in the cgroup: clone3: ", strerror(fork_errno)));
  }
  if (pid < 0) return absl::Status(absl::ErrnoToStatusCode(fork_errno),
                                   absl::StrCat("fork system call failed: ", strerror(fork_errno)));
  if (plan.exec_errno != 0) {
    // The child has already _exit-ed (vfork resumed us); reap it so no zombie is left behind.
    int ignored;
    while (waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
    }
    return ExecError(plan.exec_errno);
  }
  return pid;
}

absl::Status ExecReplacing(char* const argv[]) {
  if (argv == nullptr || argv[0] == nullptr) return absl::InvalidArgumentError("no command to run");
  execvp(argv[0], argv);
  return ExecError(errno);
}

int ExitStatusOf(int wait_status) {
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);  // As a shell reports a killed command.
  return WEXITSTATUS(wait_status);
}

absl::StatusOr<int> Reap(pid_t pid) {
  int wait_status;
  for (;;) {
    if (waitpid(pid, &wait_status, 0) == pid) return wait_status;
    if (errno == EINTR) continue;  // A handled signal interrupted the wait; the child is still there.
    return WaitError(errno);
  }
}

absl::StatusOr<std::optional<int>> TryReap(pid_t pid) {
  int wait_status;
  for (;;) {
    const pid_t got = waitpid(pid, &wait_status, WNOHANG);
    if (got == pid) return std::optional<int>(wait_status);
    if (got == 0) return std::optional<int>();
    if (errno == EINTR) continue;  // Interrupted before looking; look again.
    return WaitError(errno);
  }
}

absl::Status SendSignal(pid_t pid, int sig) {
  if (kill(pid, sig) != 0) return absl::ErrnoToStatus(errno, "kill");
  return absl::OkStatus();
}

absl::Status BecomeGroupLeader() {
  if (getpgid(0) == getpid()) return absl::OkStatus();  // Already leading our own group (PID 1, setsid, ...).
  if (setpgid(0, 0) != 0) return absl::ErrnoToStatus(errno, "setpgid");
  return absl::OkStatus();
}

}  // namespace uucore
