// utils/timeout/pid1.h -- what timeout does as PID 1 (a container's init) that it does nowhere else.
//
// Owns: the signals passed on only as PID 1, and which of them start -k's clock. (Reaping every orphan is the
// supervisor's, through uucore::ReapChildren, for PID 1 and --tree alike.) Must not touch: anything outside PID 1:
// every rule here is asked only when timeout's pid is 1.
#ifndef UTILS_TIMEOUT_PID1_H_
#define UTILS_TIMEOUT_PID1_H_

#include <signal.h>

namespace timeout {

// As PID 1 also passed on, though their default action ends no process, since the kernel would drop them for PID 1
// and tini and dumb-init pass them on: a resize (WINCH: httpd's STOPSIGNAL), out-of-band data (URG) and job control
// (`docker kill -s TSTP` stops the application, `-s CONT` continues it). Without the CONT that follows the others.
inline constexpr int kPassedOnAsPid1[] = {SIGWINCH, SIGURG, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT};
bool IsPassedOnAsPid1Only(int sig);

// As PID 1, the passed-on signals that ask the command to stop, and so start the -k clock (a reload HUP or a USR1
// must not get the application KILLed -k later). Outside PID 1 every passed-on signal starts it, as in GNU.
bool IsStopRequest(int sig);

}  // namespace timeout

#endif  // UTILS_TIMEOUT_PID1_H_
