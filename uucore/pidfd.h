// uucore/pidfd.h -- what a pidfd does beyond uucore/process.h's PidfdOpen() and SignalVia(): say which process it
// names, carry a queued signal, and wait for a set of processes to exit.
//
// For kill's PID:PIDFD_INODE targets, -q/--queue, --timeout and --wait:
//
//   const int pidfd = uucore::PidfdOpen(pid);                         // -1 and errno: ESRCH, ENOSYS, EPERM
//   absl::StatusOr<uint64_t> inode = uucore::PidfdInode(pidfd);       // which process, for good (Linux 6.9)
//   if (uucore::QueueVia(pid, pidfd, SIGUSR1, 42) != 0) ...;          // the handler sees SI_QUEUE and 42
//   absl::StatusOr<std::vector<bool>> exited =
//       uucore::WaitForExits({pidfd}, uucore::Deadline::In(absl::Seconds(5)));
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
// ppoll(2) over all of them per wake, the time left recomputed from CLOCK_MONOTONIC after every wake (EINTR, a stop
// and a continue), so nothing is polled in a loop. A process has exited once its pidfd turns readable: its whole
// thread group is gone, the process a zombie or reaped. The descriptors are polled at least once, so a deadline that
// has already passed still reports what has exited by then. Entries below 0 are skipped and reported as exited.
// Returns, for each entry of `pidfds` in order, whether its process has exited.
// Errors: InvalidArgument, message "ppoll: a descriptor is not open", when one is not (POLLNVAL); any other errno
// of ppoll as absl::ErrnoToStatus (ENOMEM; EINVAL for more descriptors than RLIMIT_NOFILE).
[[nodiscard]] absl::StatusOr<std::vector<bool>> WaitForExits(absl::Span<const int> pidfds, Deadline deadline);

}  // namespace uucore

#endif  // UUCORE_PIDFD_H_
