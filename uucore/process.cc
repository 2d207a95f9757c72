#include "uucore/process.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <termios.h>
#include <sys/wait.h>
#include <unistd.h>

#include <new>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"

namespace uucore {
namespace {

// Everything the vfork child needs, prepared by the parent: the child may only make system calls and write here.
struct ChildPlan {
  char* const* argv;
  const SpawnOptions* options;
  pid_t parent;             // The caller, for the parent-death check.
  volatile int exec_errno;  // Written by the child (shared memory under vfork) when exec fails.
};

// rt_sigprocmask itself, without glibc's filtering of its own signals 32 and 33 (the kernel's sigset is 8 bytes).
int RawSetMask(int how, const sigset_t* set, sigset_t* old) {
  return static_cast<int>(syscall(SYS_rt_sigprocmask, how, set, old, 8));
}

// Runs in the vfork child, on the parent's memory: no allocation, no locks, no return; only syscalls and _exit.
[[noreturn]] void ChildAfterVfork(ChildPlan* plan) {
  const SpawnOptions& options = *plan->options;
  if (options.new_process_group) {
    setpgid(0, 0);
    // Every signal is blocked here, TTOU included: a background group may take the terminal.
    if (options.terminal_foreground >= 0) tcsetpgrp(options.terminal_foreground, getpid());
  }
  if (options.parent_death_signal != 0) {
    prctl(PR_SET_PDEATHSIG, options.parent_death_signal);
    // Set first, then look: a parent that died before the prctl is seen here, one that dies after sends the signal.
    if (getppid() != plan->parent) _exit(kExitCanceled);
  }
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
  // The raw call: glibc's would drop its own signals 32 and 33 from the mask, and the child must get it exactly.
  if (options.mask != nullptr) RawSetMask(SIG_SETMASK, options.mask, nullptr);
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

// A ChildPlan in a MAP_SHARED page, for a child made without CLONE_VM: its write of exec_errno still reaches us.
class SharedPlan {
 public:
  explicit SharedPlan(const ChildPlan& plan) : plan_(Map(plan)) {}
  ~SharedPlan() { Unmap(plan_); }
  SharedPlan(const SharedPlan&) = delete;
  SharedPlan& operator=(const SharedPlan&) = delete;
  ChildPlan* get() const { return plan_; }  // nullptr if mmap failed (errno says why)

 private:
  // Out of line: inlined into Spawn(), their locals would live across vfork() (-Wclobbered).
  __attribute__((noinline)) static ChildPlan* Map(const ChildPlan& plan) {
    void* page = mmap(nullptr, sizeof(ChildPlan), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return page == MAP_FAILED ? nullptr : new (page) ChildPlan{plan.argv, plan.options, plan.parent, 0};
  }
  __attribute__((noinline)) static void Unmap(ChildPlan* plan) {
    if (plan != nullptr) munmap(plan, sizeof(ChildPlan));
  }

  ChildPlan* const plan_;
};

// vfork() into a cgroup: clone3(CLONE_VFORK|CLONE_INTO_CGROUP). Without CLONE_VM, so the child returns here like a
// fork child, on its own copy of our stack (with CLONE_VM it would need a stack of its own and code that never
// returns through a C frame, which AddressSanitizer cannot follow); CLONE_VFORK still holds us until it has exec'd
// or exited, so exec errors are exact, and `plan` lives in shared memory to carry exec_errno back. The child then
// runs ChildAfterVfork() on its copy of our memory: only system calls, as in the vfork child (glibc's cached thread
// id is stale there; nothing in ChildAfterVfork() uses it). Returns 0 in the child, the pid in the parent, or -1
// with errno set. Called with every signal blocked, as vfork() is.
pid_t CloneIntoCgroup(ChildPlan* plan, int cgroup_fd) {
  if (plan == nullptr) return -1;  // SharedPlan's mmap failed; errno is its.
#ifdef SYS_clone3
  CloneArgs args = {};
  args.flags = CLONE_VFORK | kCloneIntoCgroup;
  args.exit_signal = SIGCHLD;
  args.cgroup = static_cast<uint64_t>(cgroup_fd);
  return static_cast<pid_t>(syscall(SYS_clone3, &args, sizeof args));
#else
  (void)cgroup_fd;
  errno = ENOSYS;
  return -1;
#endif
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
  const char* reason = ErrnoText(err);
  return err == ENOENT ? absl::NotFoundError(reason) : absl::FailedPreconditionError(reason);
}

absl::StatusOr<pid_t> Spawn(char* const argv[], const SpawnOptions& options) {
  if (argv == nullptr || argv[0] == nullptr) return absl::InvalidArgumentError("no command to run");
  // Keep the caller's mask if none was asked for: read it now, before blocking everything.
  sigset_t all, caller_mask;
  sigfillset(&all);
  RawSetMask(SIG_BLOCK, &all, &caller_mask);  // Block all: no handler may run in the child on our memory.
  SpawnOptions child_options = options;
  if (child_options.mask == nullptr) child_options.mask = &caller_mask;
  const pid_t parent = options.parent_pid != 0 ? options.parent_pid : getpid();
  ChildPlan plan = {argv, &child_options, parent, 0};
  std::optional<SharedPlan> shared;  // Only to start the child in a cgroup (clone3 without CLONE_VM).
  if (options.cgroup_fd >= 0) shared.emplace(plan);
  ChildPlan* const child_plan = shared ? shared->get() : &plan;
  const pid_t pid = shared ? CloneIntoCgroup(child_plan, options.cgroup_fd) : vfork();
  if (pid == 0) ChildAfterVfork(child_plan);
  const int fork_errno = errno;
  RawSetMask(SIG_SETMASK, &caller_mask, nullptr);  // Give the caller its mask back on every path, exactly.
  if (pid < 0 && options.cgroup_fd >= 0) {
    // Nothing was started: the caller may try again without the cgroup (kUnavailable is this path's alone).
    return absl::UnavailableError(
        absl::StrCat("cannot start the command in the cgroup: clone3: ", ErrnoText(fork_errno)));
  }
  if (pid < 0) return absl::Status(absl::ErrnoToStatusCode(fork_errno),
                                   absl::StrCat(Format("fork system call failed"), ": ", ErrnoText(fork_errno)));
  if (child_plan->exec_errno != 0) {
    // The child has already _exit-ed (vfork resumed us); reap it so no zombie is left behind.
    int ignored;
    while (waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
    }
    return ExecError(child_plan->exec_errno);
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

int PidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  errno = ENOSYS;
  return -1;
#endif
}

int SignalVia(pid_t pid, int pidfd, int sig) {
#ifdef SYS_pidfd_send_signal
  if (pidfd >= 0) return static_cast<int>(syscall(SYS_pidfd_send_signal, pidfd, sig, nullptr, 0));
#endif
  return kill(pid, sig);
}

unsigned HoldClosedStandardDescriptors() {
  unsigned closed = 0;
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    closed |= 1u << fd;
    // The lowest free descriptor is `fd` itself (the lower ones are open or held already); moved there otherwise.
    const int held = open("/", O_PATH | O_CLOEXEC);
    if (held >= 0 && held != fd) {
      (void)dup3(held, fd, O_CLOEXEC);
      close(held);
    }
  }
  return closed;
}

absl::Status BecomeGroupLeader() {
  if (getpgid(0) == getpid()) return absl::OkStatus();  // Already leading our own group (PID 1, setsid, ...).
  if (setpgid(0, 0) != 0) return absl::ErrnoToStatus(errno, "setpgid");
  return absl::OkStatus();
}

}  // namespace uucore
