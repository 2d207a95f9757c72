// uucore/pidfd.h -- what a pidfd does beyond uucore/process.h's PidfdOpen() and SignalVia(): say which process it
// names, carry a queued signal, and wait for a set of processes to exit.
//
// For kill's PID:PIDFD_INODE targets, -q/--queue, --timeout and --wait:
//
//   const int pidfd = uucore::PidfdOpen(pid);                         // -1 and errno: ESRCH, ENOSYS, EPERM
//   absl::StatusOr<uint64_t> inode = uucore::PidfdInode(pidfd);       // which process, for good (Linux 6.9)
//   if (uucore::QueueVia(pid, pidfd, SIGUSR1, 42) != 0) ...;          // the handler sees SI_QUEUE and 42
//   absl::StatusOr<std::vector<bool>> exited =
//       uucore::WaitForExits({pidfd}, uucore::Deadline::In(absl::Seconds(5)));   // a timerfd aims at the deadline
//
// Nothing here prints, exits, installs a handler or touches the signal mask; every call retries on EINTR.
#ifndef UUCORE_PIDFD_H_
#define UUCORE_PIDFD_H_

#include <stdint.h>
#include <sys/types.h>

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "uucore/signal_wait.h"

namespace uucore {

// PidfdInode()
//
// The inode number of `pidfd` in pidfs, where the kernel keeps pidfds since Linux 6.9: one number per process for the
// life of the system, never reused as its pid is (util-linux's kill takes it as PID:PIDFD_INODE).
// Errors: Unimplemented, message "pidfd inodes need Linux 6.9 or later", when the descriptor is not in pidfs (before
// 6.9 every pidfd shares one anonymous inode, whose number names no process); fstatfs's or fstat's errno otherwise,
// as absl::ErrnoToStatus (EBADF: not open).
[[nodiscard]] absl::StatusOr<uint64_t> PidfdInode(int pidfd);

// QueueVia()
//
// A signal with a value, as sigqueue(3) sends one: a handler installed with SA_SIGINFO sees si_code SI_QUEUE,
// si_value.sival_int `value`, and the caller's pid and uid in si_pid and si_uid. Through `pidfd` when it is >= 0
// (pidfd_send_signal with that siginfo: it reaches the process the pidfd names or nobody), else to `pid`
// (rt_sigqueueinfo, which takes a process, not a group). sig 0 only checks, as kill(pid, 0) does.
// A raw call like SignalVia(): 0, or -1 with errno (ESRCH: no such process, or it has exited; EPERM; EINVAL; EAGAIN:
// the target's queue of signals is full).
int QueueVia(pid_t pid, int pidfd, int sig, int value);

// WaitForExits()
//
// Waits until the process of every descriptor in `pidfds` has exited or `deadline` passes, whichever is first: one
// ppoll(2) over all of them and a DeadlineTimer per wake, so nothing is polled in a loop. The deadline is the timer's
// absolute CLOCK_MONOTONIC time, not ppoll's relative timeout, so it holds whatever interrupts the wait: a handled
// signal, or a stop and continue (after which the kernel, where no handler runs, restarts ppoll itself with the time
// that was left at the stop), and it has none of ppoll's 0.1% slack. A process has exited once its pidfd turns
// readable: its whole thread group is gone, the process a zombie or reaped. The descriptors are polled at least once,
// so a deadline that has already passed (no timer needed then) still reports what has exited by then. Entries below 0
// are skipped and reported as exited.
// `timer`: the caller's, for a caller that opens descriptors up to its limit and so makes the timer first; re-armed
// here as needed (DeadlineTimer::Arm()), reusable for the next wait. Null: one is made for a wait with a deadline
// ahead (not for Never() or a deadline passed), and closed on return.
// Returns, for each entry of `pidfds` in order, whether its process has exited.
// Errors: InvalidArgument, message "ppoll: a descriptor is not open", when one is not (POLLNVAL); any other errno
// of ppoll as absl::ErrnoToStatus (ENOMEM; EINVAL for more descriptors than RLIMIT_NOFILE); DeadlineTimer's
// (timerfd_create's EMFILE when `timer` is null; FailedPrecondition for a `timer` without a descriptor).
[[nodiscard]] absl::StatusOr<std::vector<bool>> WaitForExits(absl::Span<const int> pidfds, Deadline deadline,
                                                             DeadlineTimer* timer = nullptr);

}  // namespace uucore

#endif  // UUCORE_PIDFD_H_
