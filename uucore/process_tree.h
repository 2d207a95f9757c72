// uucore/process_tree.h -- a process's whole tree of descendants: subreaping, enumerating, signalling, reaping.
//
// For timeout --kill-tree and timeout as PID 1. A subreaper (PR_SET_CHILD_SUBREAPER) inherits every orphan of its
// subtree, so "all my descendants have exited" is simply "waitpid(-1) says ECHILD", and every descendant, even one
// that called setsid() or double-forked, is still found by following parent links down from the subreaper.
//
//   (void)uucore::BecomeSubreaper();                         // Before spawning: orphans come back to us.
//   ... spawn, wait, time out ...
//   (void)uucore::SignalDescendants(getpid(), SIGTERM);      // Freeze, signal and continue the whole tree.
//   absl::StatusOr<uucore::Reaped> r = uucore::ReapChildren(command);  // On SIGCHLD: reap them all.
//
// Nothing here prints, exits, or changes signal dispositions or masks.
#ifndef UUCORE_PROCESS_TREE_H_
#define UUCORE_PROCESS_TREE_H_

#include <sys/types.h>

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "uucore/process.h"

namespace uucore {

// BecomeSubreaper()
//
// prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants are reparented to the caller instead of to init, so the
// caller can find, signal and reap them. Not inherited by children. PID 1 is a reaper already (succeeds too).
// Error: the errno of prctl as absl::ErrnoToStatus() (EINVAL on kernels before 3.4).
absl::Status BecomeSubreaper();

// How ListDescendants() finds children.
enum class Enumeration {
  kAuto,           // kChildrenFiles where the kernel has them (CONFIG_PROC_CHILDREN), else kProcScan.
  kChildrenFiles,  // /proc/PID/task/TID/children of each process, recursively.
  kProcScan,       // One pass over /proc/*/stat, following PPid links down from the root.
};

// HasChildrenFiles()
//
// Whether /proc/self/task/TID/children exists (CONFIG_PROC_CHILDREN).
bool HasChildrenFiles();

// ListDescendants()
//
// The live (not zombie) descendants of `root`, excluding root, parents before children. A snapshot that may be
// stale the moment it returns: a descendant may fork or exit meanwhile. SignalDescendants() makes it exact.
// Error: NotFound if kChildrenFiles is asked for where the kernel has none; the errno of opendir("/proc").
[[nodiscard]] absl::StatusOr<std::vector<pid_t>> ListDescendants(pid_t root, Enumeration how = Enumeration::kAuto);

// SignalDescendants()
//
// Sends `sig` to every descendant of `root` (the caller or one of its descendants), including those that appear
// while this runs, and returns how many processes were signalled. The way it stays exact:
//   - Freeze first: each descendant found is sent SIGSTOP, and the tree is listed again until a pass finds nobody
//     new. A stopped process cannot fork; but a fork under way when the SIGSTOP comes is not restarted (only a
//     fatal or group-wide signal does that) and can add its child afterwards, until the process actually stops: so
//     a process's children count as known only once read after /proc showed each of its threads stopped ('T'), or
//     the process asleep in a vfork whose child is listed (it waits for the child, which the freeze keeps from
//     exec'ing; see process_tree_internal below). Bounded: 5 s, then as if it had stopped. Then every frozen
//     process gets `sig` and then SIGCONT, so a handler for `sig` runs once the process is continued. With
//     `stopped` kLeave, SIGCONT goes only to those this call stopped: one stopped before stays stopped; TSTP, TTIN
//     and TTOU are done by the freeze itself for a process that takes them at their default action (process.h).
//   - With SIGKILL no freeze is needed (a killed process forks no more): each pass kills what it finds. SIGSTOP is
//     the freeze itself, and then every process is sent SIGCONT (as timeout continues the group it signals).
//   - kChildrenFiles (kAuto where the kernel has them): each pass walks down from root and signals a process before
//     reading its children, so the list read is final unless the process was already exiting (handing its children
//     up to a reaper). Done when a pass finds nobody new and every signalled process is where it was found and was
//     seen not exiting after that read, or had exited entirely before the pass began. Between passes it waits
//     (poll on pidfds, 5 s at most in all) for processes on their way out rather than walk again, so a KILLed tree
//     takes two or three passes. kProcScan: passes repeat until one finds nobody new and lists the same tree as
//     the pass before.
//   - PID reuse: each process is addressed through a pidfd (pidfd_open, pidfd_send_signal), taken before checking
//     that its parent is still in the tree. A pid reused by a stranger between listing and opening fails that
//     check; one reused after opening is never signalled (the pidfd names the old process). Without pidfds
//     (ENOSYS, or out of descriptors) plain kill() follows the same check, with its small window.
// sig 0 signals nobody and returns 0. Errors for single processes (ESRCH: gone; EPERM: a setuid program) are
// ignored, as kill(1) of a group would.
// Error: only from listing (see ListDescendants()).
[[nodiscard]] absl::StatusOr<int> SignalDescendants(pid_t root, int sig, Enumeration how = Enumeration::kAuto,
                                                    StoppedProcesses stopped = StoppedProcesses::kContinue);

namespace process_tree_internal {

// The two ways SignalDescendants() tells a vfork parent (or posix_spawn's; asleep in D until its child execs or
// exits) from a process asleep inside a fork, declared here to be tested one by one:
// SleepsInVfork(): thread `tid` of `pid` is waiting for its vfork child, by /proc/PID/task/TID/wchan (the function
// it sleeps in: wait_for_vfork_done, or where that is inlined kernel_clone, _do_fork or do_fork by kernel version).
// False where wchan is unreadable ("0" without ptrace access, or while the thread, asleep by its state, is still on
// the run queue) or names anything else.
bool SleepsInVfork(pid_t pid, pid_t tid);
// SharesMemoryWithAChild(): one of `children` shares the address space of `pid` (kcmp KCMP_VM): a vfork child not
// yet exec'd. False where kcmp is refused (ENOSYS; EPERM under container runtimes' default seccomp profiles).
bool SharesMemoryWithAChild(pid_t pid, const std::vector<pid_t>& children);

}  // namespace process_tree_internal

// ListChildren()
//
// The caller's children, live or not (a zombie is listed until it is reaped), with pids as the mounted /proc numbers
// them (it may be another PID namespace's: the caller is found there through /proc/self). From each thread's
// /proc/self/task/TID/children (kChildrenFiles), else one scan of /proc for the PPid (kProcScan). A snapshot: a
// child that leaves meanwhile may be missed (its SIGCHLD follows). For AChildIsInCgroup() (uucore/cgroup.h).
// Error: the errno of opening /proc or reading /proc/self; NotFound if kChildrenFiles is asked for where the kernel
// has none.
[[nodiscard]] absl::StatusOr<std::vector<pid_t>> ListChildren(Enumeration how = Enumeration::kAuto);

// What ReapChildren() found.
struct Reaped {
  std::optional<int> watched;  // The wait status of `watched`, if it was reaped in this call.
  int others = 0;              // How many other children were reaped.
  bool children_left = false;  // Whether the caller still has children (running, or stopped); false is ECHILD.
};

// ReapChildren()
//
// Reaps every child that has exited, without blocking (waitpid(-1, WNOHANG | __WALL) until none is ready, EINTR
// retried; __WALL: also a child whose exit signal is not SIGCHLD, which then counts in children_left too),
// and reports the status of `watched` if it was among them. For PID 1 and subreapers, whose orphaned descendants
// would otherwise stay zombies; SIGCHLD does not queue, so one signal may stand for many exits.
// Error: any errno of waitpid but ECHILD/EINTR, as absl::ErrnoToStatus().
[[nodiscard]] absl::StatusOr<Reaped> ReapChildren(pid_t watched);

}  // namespace uucore

#endif  // UUCORE_PROCESS_TREE_H_
