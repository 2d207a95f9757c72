// utils/kill/listing.h -- kill's answers about signals: -l and -t (with util-linux's 0xMASK operands), and -d.
#ifndef UTILS_KILL_LISTING_H_
#define UTILS_KILL_LISTING_H_

#include <sys/types.h>

#include "utils/kill/options.h"

namespace kill_utility {

// ListSignals()
//
// -l, -t: every signal, or each operand (a SIGNAL, or a 0xMASK that stands for the signals set in it, as
// /proc/PID/status writes masks). A bad operand is reported and the others still listed. Returns the exit status
// (the caller checks stdout).
int ListSignals(const Options& options);

// ShowProcessState()
//
// -d PID: the process's (arg is PID as given, for messages) pending, blocked, ignored and caught signals, one line for
// each mask that is not empty, as util-linux's kill prints them ("Caught: HUP INT \n", each name followed by a space),
// with util-linux's names (IO, RT0 ... RT30, where -l says GNU's POLL, RTMIN ... RTMAX). Returns the exit status.
int ShowProcessState(const char* arg, pid_t pid);

}  // namespace kill_utility

#endif  // UTILS_KILL_LISTING_H_
