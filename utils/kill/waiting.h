// utils/kill/waiting.h -- after the signal: --timeout's follow-up signals, then --wait, on the targets' pidfds.
#ifndef UTILS_KILL_WAITING_H_
#define UTILS_KILL_WAITING_H_

#include "utils/kill/options.h"
#include "utils/kill/sending.h"

namespace kill_utility {

// FollowAndWait()
//
// For each --timeout MS SIGNAL in order: waits up to MS for every followed target to exit (one ppoll over their
// pidfds and following->timer), then sends SIGNAL to those still running (--verbose: "timeout, sending signal 9 to
// pid 42"; one that exits meanwhile is no error). Then, with --wait, waits for every target to exit or for --wait's
// DURATION, counted from the last follow-up signal. Each deadline holds across a stop and continue. Closes every
// pidfd in following->targets. Returns the exit status from `status`, the status of the sending so far: 124
// (kExitTimedOut) when DURATION ran out with a target still running; else 1 if a follow-up signal could not be sent
// or the wait failed; else `status`.
int FollowAndWait(const Options& options, Following* following, int status);

}  // namespace kill_utility

#endif  // UTILS_KILL_WAITING_H_
