// utils/timeout/ending.h -- how a run ends: timeout's exit status, the --report's last word, dying of the command's
// signal.
//
// Owns: GNU's rules for timeout's own exit status (124, 137 after KILL, --preserve-status, 128 + N as PID 1 where
// others die of N: ExitFor()), the report file (opened before the spawn, written once, whatever path leaves the run)
// and the Outcome it says (but its timed_out, signal, forwarded and elapsed, which the supervisor writes as they
// happen: supervisor.h), the end's order (the report reads the leaf's account, then the tree removes its leaf:
// Tree::RemoveLeaf(), then timeout may die), and the way to die (DieOf()). Must not touch: the command or its tree
// (both are over when the ending is asked, but for the report's look at a command about to be KILLed with us, and
// the leaf, read, then removed through the tree), or the signal mask beyond unblocking the one signal to die of.
#ifndef UTILS_TIMEOUT_ENDING_H_
#define UTILS_TIMEOUT_ENDING_H_

#include <sys/types.h>

#include <optional>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "utils/timeout/options.h"
#include "utils/timeout/report.h"
#include "utils/timeout/supervisor.h"
#include "utils/timeout/tree.h"

namespace timeout {

// How timeout ends, from the command's wait status, as GNU computes it: a status to exit with, or (the command was
// killed by a signal and did not time out) that signal to die of, so that the caller sees the command's death.
struct Exit {
  int status;
  int die_of = 0;
};

Exit ExitFor(int wait_status, const Supervisor& supervisor);

// Ends timeout the way the command ended: killed by the same signal, without a core file of our own.
void DieOf(int sig);

// Ending
//
// The run's end from the report's opening on: every exit after that goes through Finish(), so that the report, if
// any, says how the run ended, once.
class Ending {
 public:
  // `started`: where DURATION and the report's elapsed_s count from.
  Ending(const Options& options, absl::Duration started) : options_(options), started_(started) {}

  // OpenReport()
  //
  // --report: opened before the command starts, so that a FILE we cannot write stops us now (125), not after. False
  // (said on stderr) if it cannot be opened; timeout then exits 125 with no report. `backend`: --tree's, as chosen.
  bool OpenReport(TreeBackend backend);

  // The report's backend from now on (the cgroup's may have fallen back to the walk).
  void SetBackend(TreeBackend backend) { backend_ = backend; }

  // Finish()
  //
  // timeout exits with `status`: the report says so (written once: see Started()). Returns `status`, or 125 if the
  // report cannot be written (said on stderr).
  int Finish(int status);

  // Fail(): timeout itself failed (`error`, said on stderr): Finish(125).
  int Fail(const absl::Status& error);

  // CouldNotRun(): the spawn failed (`error`): said on stderr as GNU says it, and in the report; Finish() with 125,
  // 126 or 127 (uucore::ExecFailureStatus()).
  int CouldNotRun(const absl::Status& error);

  // Started()
  //
  // The command runs: the report names its pid, and the supervisor writes to it from now on. With --report, a KILL
  // to our own group (which kills timeout too, before it can reap the command) is preceded by the report of what the
  // caller will see: 137, the command killed by KILL, its usage read from /proc while it still lives.
  void Started(Supervisor& supervisor);

  // End()
  //
  // The command has been reaped (and with --tree its tree is gone): the report's last word (its usage, the leaf's
  // account), the leaf removed (Tree::RemoveLeaf(); hence the mutable `tree`), Finish() with ExitFor()'s status;
  // then, if the command died of a signal that timeout did not send, timeout dies of it too (no return).
  int End(const Supervisor& supervisor, Tree& tree);

 private:
  // The report's account of the run so far: what the supervisor did (`more_signalled`: a signal about to go out),
  // and the usage of every child and descendant reaped so far.
  void Account(const Supervisor& supervisor, int more_signalled);
  // Our KILL to the group is our end too: see Started().
  void BeforeKillingOurselves(const Supervisor& supervisor, int kills);

  const Options& options_;
  const absl::Duration started_;
  std::optional<timeout_report::ReportFile> report_;
  timeout_report::Outcome outcome_;  // Its backend is backend_'s name, put in when the report is written.
  TreeBackend backend_ = TreeBackend::kNone;
  bool reported_ = false;  // Written: once (see Started()).
};

}  // namespace timeout

#endif  // UTILS_TIMEOUT_ENDING_H_
