// uucore/process.h -- starting commands, reporting why they could not start, reaping them, signalling them.
//
// For utilities that run a COMMAND: timeout (Spawn, then wait), env and nohup (ExecReplacing). The shell's
// conventions apply to all of them: 127 when the command was not found, 126 when it was found but could not be
// run, 128 + N for a command killed by signal N.
//
//   absl::StatusOr<pid_t> child = uucore::Spawn(argv, {.mask = &block.old_mask()});
//   if (!child.ok()) {  // Failed to run: "failed to run command 'x': No such file or directory", 127.
//     uucore::Error(absl::StrCat("failed to run command ", uucore::Quote(argv[0]), ": ", child.status().message()));
//     return uucore::ExecFailureStatus(child.status());
//   }
//
// Nothing here prints, exits, or changes the caller's signal dispositions; Spawn() blocks every signal for the
// instant of the clone and restores the caller's mask before returning.
#ifndef UUCORE_PROCESS_H_
#define UUCORE_PROCESS_H_

#include <signal.h>
#include <sys/types.h>

#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace uucore {

// ExecFailureStatus()
//
// The exit status for a command that could not be executed, as GNU's timeout, env and nohup (and sh) use it:
// 127 (kExitEnoent) for ENOENT, 126 (kExitCannotInvoke) for every other errno (EACCES, ENOEXEC, ENOTDIR, ELOOP,
// E2BIG, ... : measured against GNU 9.1, ENOTDIR is 126 too).
// The status overload takes the status Spawn() or ExecReplacing() returned: kNotFound -> 127,
// kFailedPrecondition -> 126, any other code (the utility's own failure, e.g. fork) -> 125 (kExitCanceled).
int ExecFailureStatus(int err);
int ExecFailureStatus(const absl::Status& status);

// ExecError()
//
// The status for a failed execve with errno `err`: code kNotFound for ENOENT, kFailedPrecondition for any other
// errno, and message strerror(err) exactly ("No such file or directory"), so the caller can add its own words.
absl::Status ExecError(int err);

// SpawnOptions
//
// What the child gets that differs from a plain fork+exec of the caller. Pointers are borrowed for the call only.
struct SpawnOptions {
  // The child's signal mask. nullptr keeps the caller's current mask, which is almost never right for a caller that
  // blocked signals to wait for them: pass ScopedSignalBlock::old_mask().
  const sigset_t* mask = nullptr;
  // Signals set to SIG_DFL in the child before exec (for dispositions the caller set to SIG_IGN).
  const sigset_t* reset_default = nullptr;
  // Signals set to SIG_IGN in the child before exec (to give back a SIG_IGN the caller replaced by a handler,
  // which execve would otherwise reset to SIG_DFL). Applied after reset_default.
  const sigset_t* ignore = nullptr;
  // Put the child in a new process group of its own (setpgid(0, 0)) before exec.
  bool new_process_group = false;
  // With new_process_group: make the child's group the foreground group of the terminal open on this descriptor
  // (tcsetpgrp) before exec, so that it can read from the terminal and gets its Ctrl-C and Ctrl-Z. -1: none.
  int terminal_foreground = -1;
  // If non-zero: the child gets this signal when the caller dies, even by SIGKILL (PR_SET_PDEATHSIG, kept across
  // exec), and if the caller is already gone by then the child exits 125 (kExitCanceled) without running argv:
  // it compares its parent with the caller's pid, so this holds when the caller is PID 1, a child of PID 1 or runs
  // under a subreaper. The caller must be single-threaded (the signal follows the death of the spawning thread).
  int parent_death_signal = 0;
  // The pid the child compares its parent with for parent_death_signal; 0 is the caller. Tests set another to see
  // the "already gone" exit without racing a real death.
  pid_t parent_pid = 0;
  // Start the child inside this cgroup v2 group: a descriptor of its directory (CgroupLeaf::dir_fd(), uucore/cgroup.h),
  // through clone3(CLONE_INTO_CGROUP) (Linux 5.7), so the child is in the group from its first instruction and
  // nothing it forks can start outside. Still vfork semantics for the caller (CLONE_VFORK: Spawn() returns once the
  // child has exec'd or failed, exec errors exact), but the child runs on a copy of the caller's memory (no
  // CLONE_VM: a fork's page-table copy, some 0.1 ms for a small caller). -1: a plain vfork. See Spawn() for what a
  // refusal returns.
  int cgroup_fd = -1;
};

// Spawn()
//
// Starts argv[0] with arguments argv (null-terminated), searching PATH as execvp does when argv[0] has no '/'
// (PATH unset: the confstr(_CS_PATH) default; a file found but not executable is remembered and reported as
// EACCES if nothing better is found later). Uses vfork semantics (clone with CLONE_VM|CLONE_VFORK): the call
// returns only after the child has exec'd or failed, so an exec failure is reported exactly and at once.
// The child shares the caller's descriptors (close-on-exec ones excepted) and environment.
//
// Returns the child's pid. The caller must reap it (Reap(), TryReap()).
// Errors:
//   - the command could not be executed: ExecError(errno) (kNotFound or kFailedPrecondition); the failed child has
//     already been reaped.
//   - the process could not be created: message "fork system call failed: REASON", code
//     absl::ErrnoToStatusCode(errno) (kUnavailable for EAGAIN, kResourceExhausted for ENOMEM; never kNotFound or
//     kFailedPrecondition), so ExecFailureStatus() gives 125.
//   - argv empty or argv[0] null: InvalidArgument.
//   - with cgroup_fd >= 0, any failure of clone3 (the group refused, or no process could be made): code
//     kUnavailable, message "cannot start the command in the cgroup: clone3: REASON", and no process was created.
//     ENOSYS: no clone3 (Linux < 5.3, or a seccomp filter such as Docker's default); EINVAL or E2BIG: no
//     CLONE_INTO_CGROUP (Linux < 5.7); EBADF: not a cgroup v2 directory; EBUSY: the group has controllers enabled
//     for children (cgroup v2's "no internal processes" rule); EOPNOTSUPP: a threaded or invalid group; ENODEV: the
//     group was removed; EACCES/EPERM: not delegated to us; EAGAIN/ENOMEM: pids.max or no memory. The caller may
//     Spawn() again without cgroup_fd.
// Signal safety: every signal stays blocked in the child until dispositions are set and the requested mask is
// installed right before execve. A signal arriving in that last instant runs the caller's handler in the child,
// which shares the caller's memory: list handled signals in reset_default (or keep them blocked in mask) unless
// the handler is harmless there (CatchSignal's does nothing).
[[nodiscard]] absl::StatusOr<pid_t> Spawn(char* const argv[], const SpawnOptions& options = {});

// ExecReplacing()
//
// execvp(argv[0], argv) with the same PATH search as Spawn(): replaces the calling process and returns only on
// failure, with ExecError(errno). For env and nohup, which run the command in their own process.
[[nodiscard]] absl::Status ExecReplacing(char* const argv[]);

// ExitStatusOf()
//
// A wait status as a shell reports it: the exit status, or 128 + N for a process killed by signal N.
int ExitStatusOf(int wait_status);

// Reap(), TryReap()
//
// waitpid(pid) for an exited or killed child (stops are not reported), retrying on EINTR. Reap() blocks;
// TryReap() returns std::nullopt at once if the child is still running. Both return the raw wait status (see
// ExitStatusOf(), WIFSIGNALED, WCOREDUMP).
// Error: NotFound when pid is not a child of the caller (ECHILD: already reaped, or reaped by the kernel because
// SIGCHLD was ignored; see CatchSignal() in signal_wait.h).
[[nodiscard]] absl::StatusOr<int> Reap(pid_t pid);
[[nodiscard]] absl::StatusOr<std::optional<int>> TryReap(pid_t pid);

// SendSignal()
//
// kill(pid, sig) with kill(2)'s addressing: pid > 0 a process, 0 the caller's process group (including the caller),
// -pgid a process group. sig 0 only checks.
// Error: NotFound (ESRCH) when no such process/group exists, PermissionDenied (EPERM), InvalidArgument (EINVAL).
absl::Status SendSignal(pid_t pid, int sig);

// StoppedProcesses
//
// What signalling a whole tree (CgroupLeaf::Signal(), SignalDescendants()) does to a process that is stopped.
// kContinue: SIGCONT after the signal, so that it acts on it, as timeout continues a process group it signals.
// kLeave: a process stopped before stays stopped (its signal waits), for a signal that asks nothing of it (WINCH,
// URG) or one that stops it (TSTP, TTIN, TTOU); only the call's own freeze is undone. With SignalDescendants()'s
// SIGSTOP freeze, a process that takes TSTP, TTIN or TTOU at its default action just stays stopped (also in an
// orphaned process group, where the kernel would discard the signal); one that catches it is continued, then sent it
// (a CONT discards a pending stop signal), and could fork between the two.
enum class StoppedProcesses { kContinue, kLeave };

// PidfdOpen()
//
// pidfd_open(pid, 0) (Linux 5.3): a close-on-exec descriptor that names the process `pid` for good, however soon its
// pid is reused (signal through it with pidfd_send_signal; it turns readable when the process has exited). The
// caller closes it. A raw call, errno and all, for loops that open one per process and tell the cases apart.
// Returns the descriptor, or -1 with errno: ESRCH when there is no such process, ENOSYS when the kernel (or the
// headers this was built with) has no pidfd_open; then the caller falls back to the pid.
int PidfdOpen(pid_t pid);

// SignalVia()
//
// pidfd_send_signal(pidfd, sig) when `pidfd` >= 0 (it reaches the process the pidfd names or nobody), else
// kill(pid, sig). A raw call like PidfdOpen(): 0, or -1 with errno (ESRCH: the process is gone).
int SignalVia(pid_t pid, int pidfd, int sig);

// HoldClosedStandardDescriptors()
//
// Occupies each of fds 0, 1 and 2 that is closed with a placeholder (open("/", O_PATH | O_CLOEXEC): every read and
// write through it fails with EBADF, as through a closed descriptor, and exec closes it), so that no descriptor the
// caller opens later lands there: a file or a cgroup opened as fd 1 would otherwise take the command's output (and
// a spawned command would inherit it), or the caller's own messages on fd 2. Returns which were closed, bit i for fd
// i, for a caller that must keep them closed for its command (fcntl no longer tells). A placeholder that cannot be
// opened (no "/" to open, out of descriptors) leaves that fd closed: it is still reported as closed.
unsigned HoldClosedStandardDescriptors();

// BecomeGroupLeader()
//
// Makes the caller the leader of a new process group (setpgid(0, 0)), so that its children inherit the group and
// one kill(0, sig) reaches them all. Succeeds without change when the caller already leads its own group (a session
// leader, e.g. PID 1 or a login shell's child under setsid, cannot change and is already one).
// Error: the errno of setpgid otherwise, as absl::ErrnoToStatus().
absl::Status BecomeGroupLeader();

}  // namespace uucore

#endif  // UUCORE_PROCESS_H_
