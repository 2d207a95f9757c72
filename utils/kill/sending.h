// utils/kill/sending.h -- kill's signals to its PID operands: GNU's kill(2) for each, or, with util-linux's options,
// through a pidfd, queued (-q), only to a process that catches the signal (-r), said aloud (--verbose).
#ifndef UTILS_KILL_SENDING_H_
#define UTILS_KILL_SENDING_H_

#include <sys/types.h>

#include <vector>

#include "utils/kill/options.h"
#include "uucore/signal_wait.h"

namespace kill_utility {

// A target signalled and followed afterwards (--timeout, --wait): its pidfd names it for good (-1 once it is no
// longer followed).
struct Followed {
  const char* arg;  // As given, for messages.
  pid_t pid;
  int pidfd;
};

// What --timeout and --wait follow: the targets signalled, and the timer their waits end at, made before the first
// pidfd so that the limit of open files holds it too. Empty (no allocation, no descriptor) without those options.
struct Following {
  std::vector<Followed> targets;
  uucore::DeadlineTimer timer;
};

// SendSignals()
//
// The signal to each PID operand in order, as GNU's kill sends it (kill(2); a bad PID or a failed kill is reported,
// "kill: 'x': invalid process id", "kill: '99999': No such process", and the rest are still signalled), with
// util-linux's options and --wait: PID:PIDFD_INODE targets (nothing sent, and reported, unless PID's pidfd has that
// inode), -q's value, -r's check, --verbose's lines ("sending signal 15 to pid 42"). With --timeout or --wait, every
// target's pidfd is opened before the first signal (OpenEveryPidfd(): if they cannot all be open at once, nothing is
// sent, one line says why, status 1), and each target signalled through it is appended to following->targets (the
// caller closes their pidfds). Returns the exit status: 1 if a target failed, or if -r left every target unsignalled
// (as util-linux); else 0.
int SendSignals(const Options& options, Following* following);

// Deliver()
//
// `signal` to `pid`, through `pidfd` when >= 0, queued with -q's value when options.queue. 0, or -1 with errno.
int Deliver(const Options& options, pid_t pid, int pidfd, int signal);

// ReportError()
//
// "kill: 'ARG': strerror(err)".
void ReportError(const char* arg, int err);

}  // namespace kill_utility

#endif  // UTILS_KILL_SENDING_H_
