// utils/kill/pidfds.h -- the pidfds kill signals its targets through: one at a time (PID:PIDFD_INODE, -r), or, for
// the targets --timeout and --wait follow, every one of them before the first signal, within the limit of open files.
#ifndef UTILS_KILL_PIDFDS_H_
#define UTILS_KILL_PIDFDS_H_

#include <errno.h>
#include <sys/types.h>

#include <vector>

#include "utils/kill/options.h"
#include "uucore/signal_wait.h"

namespace kill_utility {

// A target's pidfd, or why it has none.
struct TargetPidfd {
  int fd = -1;
  int err = 0;  // pidfd_open's errno when it failed (ESRCH too for a process just reaped); 0 when none was opened.
  // Whether pidfd_open refused a thread's id: it takes only a process's, its thread group leader's.
  bool is_a_thread() const { return err == ENOENT || err == EINVAL; }
};

// OpenTargetPidfd()
//
// pidfd_open(pid), its errno kept for the caller to report in its turn. A thread's id fails with ENOENT since Linux
// 6.15, EINVAL before; a process reaped meanwhile could give EINVAL there too, and is then ESRCH as everywhere else.
TargetPidfd OpenTargetPidfd(pid_t pid);

// OpenEveryPidfd()
//
// For --timeout and --wait, before anything is sent: raises the soft RLIMIT_NOFILE to the hard limit (for kill
// alone, which execs nothing), makes *timer (the waits' deadline, one descriptor), then opens the pidfd of every PID
// operand; *pidfds gets one entry per operand (none opened for an operand that is not a PID, and the errno of one
// that failed for a reason of its own, ESRCH and the like). Returns false when they cannot all be open at once
// (EMFILE or ENFILE): every pidfd opened is closed again, nothing is to be sent, and one line says so ("kill: --wait:
// cannot open a pidfd for each of 1100 targets within the limit of 1024 open files: nothing sent"); also, reported,
// when the timer cannot be made.
bool OpenEveryPidfd(const Options& options, std::vector<TargetPidfd>* pidfds, uucore::DeadlineTimer* timer);

}  // namespace kill_utility

#endif  // UTILS_KILL_PIDFDS_H_
