// utils/timeout/signal_plan.h -- which signals timeout waits for, blocks and passes on, and what the command gets.
//
// Owns: the sets, built before anything can arrive unseen (PlanSignals(): no system call), and the command's mask,
// dispositions and parent-death signal (CommandSignalsFor(), which also catches an inherited SIGCHLD SIG_IGN). Must
// not touch: the mask itself (Run() blocks plan.block once, for good), the command, or any decision about a signal
// that has arrived (the supervisor's: handlers never run here, every signal is taken by the one wait).
#ifndef UTILS_TIMEOUT_SIGNAL_PLAN_H_
#define UTILS_TIMEOUT_SIGNAL_PLAN_H_

#include <signal.h>

#include "uucore/process.h"
#include "utils/timeout/options.h"

namespace timeout {

// SignalPlan
//
// What timeout does with each signal it receives.
struct SignalPlan {
  // Passed on to the command (then SIGCONT) while timeout goes on waiting: every signal whose default action ends a
  // process (the real-time ones included), so that none kills timeout and orphans the command (GNU 9.11); as PID 1
  // also ALRM and kPassedOnAsPid1 (pid1.h).
  sigset_t passed_on;
  // Blocked from before the spawn until timeout exits, and waited for: passed_on, CHLD, ALRM (expiry, but not as
  // PID 1); and, only to be dropped, TTIN, TTOU, PIPE and the -s signal.
  sigset_t block;
};

// PlanSignals()
//
// The plan for this run; `pid1`: timeout is PID 1.
SignalPlan PlanSignals(const Options& options, bool pid1);

// CommandSignals
//
// What the command starts with, as GNU gives it: the caller's mask, the caller's dispositions, and the -s signal
// when timeout dies.
struct CommandSignals {
  sigset_t mask;           // The caller's mask, but CHLD and ALRM unblocked.
  sigset_t reset_default;  // The -s signal, if the caller ignored it: expiry must be able to stop the command.
  sigset_t ignore;         // CHLD, if the caller ignored it and timeout catches it instead.
  int parent_death_signal;  // The -s signal: what the command gets if timeout dies, even of KILL.

  // The spawn options these give (pointers into this object, which must outlive the spawn).
  uucore::SpawnOptions ForSpawn() const {
    uucore::SpawnOptions spawn;
    spawn.mask = &mask;
    spawn.reset_default = &reset_default;
    spawn.ignore = &ignore;
    spawn.parent_death_signal = parent_death_signal;
    return spawn;
  }
};

// CommandSignalsFor()
//
// After the block: the command's signals, from `caller_mask` (the mask timeout was started with). Catches SIGCHLD
// if timeout was started with it ignored (the kernel would otherwise reap the command and lose its status).
CommandSignals CommandSignalsFor(const Options& options, const sigset_t& caller_mask);

}  // namespace timeout

#endif  // UTILS_TIMEOUT_SIGNAL_PLAN_H_
