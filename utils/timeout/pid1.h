// utils/timeout/pid1.h -- what timeout does as PID 1 (a container's init) that it does nowhere else.
//
// Owns: the signals passed on only as PID 1 and which of them start -k's clock; the command's own process group and
// the terminal's foreground, handed to it and taken back. (Reaping every orphan is the supervisor's, for PID 1 and
// --tree alike; exiting 128 + N where others die of N is the ending's.) Must not touch: anything outside PID 1:
// every rule here is asked only when timeout's pid is 1 (its callers test that first; TerminalBack, made on every
// run, acts only after GiveCommandItsOwnGroup() gave the terminal away).
#ifndef UTILS_TIMEOUT_PID1_H_
#define UTILS_TIMEOUT_PID1_H_

#include <signal.h>
#include <sys/types.h>

#include "uucore/process.h"

namespace timeout {

// As PID 1 also passed on, though their default action ends no process, since the kernel would drop them for PID 1
// and tini and dumb-init pass them on: a resize (WINCH: httpd's STOPSIGNAL), out-of-band data (URG) and job control
// (`docker kill -s TSTP` stops the application, `-s CONT` continues it). Without the CONT that follows the others.
inline constexpr int kPassedOnAsPid1[] = {SIGWINCH, SIGURG, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT};
bool IsPassedOnAsPid1Only(int sig);

// As PID 1, the passed-on signals that ask the command to stop, and so start the -k clock (a reload HUP or a USR1
// must not get the application KILLed -k later). Outside PID 1 every passed-on signal starts it, as in GNU.
bool IsStopRequest(int sig);

// GiveCommandItsOwnGroup()
//
// As PID 1 (`self` is 1), before the spawn: the command gets a process group of its own, so that its kill(0, ...)
// and a terminal's Ctrl-C reach it alone (and once), and Ctrl-Z can stop it (we lead our own group already, a
// session leader); and the terminal's foreground if stdin is the controlling terminal of our own session (as a
// container runtime sets up an init with a terminal; tini's default). Returns whether it gets the terminal.
bool GiveCommandItsOwnGroup(pid_t self, uucore::SpawnOptions* spawn);

// TerminalBack
//
// The terminal is ours again once the command is gone (a shell takes it back from a finished job the same way): on
// destruction, if `active` (GiveCommandItsOwnGroup() gave it away), timeout's group is the foreground again.
class TerminalBack {
 public:
  explicit TerminalBack(bool active) : active_(active) {}
  ~TerminalBack() {
    if (active_) TakeTheTerminalBack();
  }
  TerminalBack(const TerminalBack&) = delete;
  TerminalBack& operator=(const TerminalBack&) = delete;

 private:
  static void TakeTheTerminalBack();

  bool active_;
};

}  // namespace timeout

#endif  // UTILS_TIMEOUT_PID1_H_
