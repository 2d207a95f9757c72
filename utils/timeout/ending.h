// utils/timeout/ending.h -- how timeout ends: the exit status from the command's, or dying of its signal.
//
// Owns: GNU's rules for timeout's own exit status (124, 137 with -k, --preserve-status, 128 + N as PID 1) and the
// way to die of the command's signal. Must not touch: the command or its tree (both are over when this is asked).
#ifndef UTILS_TIMEOUT_ENDING_H_
#define UTILS_TIMEOUT_ENDING_H_

#include "utils/timeout/supervisor.h"

namespace timeout {

// Ends timeout the way the command ended: killed by the same signal, without a core file of our own.
void DieOf(int sig);

// How timeout ends, from the command's wait status, as GNU computes it: a status to exit with, or (the command was
// killed by a signal and did not time out) that signal to die of, so that the caller sees the command's death.
struct Ending {
  int status;
  int die_of = 0;
};

Ending EndingFor(int wait_status, const Monitor& monitor);

}  // namespace timeout

#endif  // UTILS_TIMEOUT_ENDING_H_
